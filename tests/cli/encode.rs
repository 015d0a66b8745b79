//! `partkit encode` (docs/commands/encode.md), everything but `--fetch` (see fetch.rs): files,
//! stdin, data: URLs and http(s) URLs into canonical parts and provider blocks.
//!
//! Paths are given as typed relative to the repository root (the harness runs the
//! binary there), so messages that name a source read `tests/fixtures/…`.

use std::fs;
use std::io::Read;
use std::process::{Command, Stdio};

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use serde_json::{json, Value};

use super::support::media::{b64, bytes, data_url, png_of_len};
use super::support::outputs::{
    assert_fails, assert_no_payload_leak, assert_ok, assert_output, warning,
};
use super::{fixture, run, run_with_stdin, Run};
use super::{path_arg, temp_file};

// ---------------------------------------------------------------------------
// Helpers

/// A fixture's path as typed on the command line.
fn path(name: &str) -> String {
    format!("tests/fixtures/{name}")
}

/// The canonical part of a fixture file, named after it.
fn file_part(kind: &str, mime: &str, name: &str) -> Value {
    json!({"type": kind, "mimeType": mime, "data": b64(name), "name": name})
}

/// A part with its `name` replaced (kept in place).
fn with_name(mut part: Value, name: &str) -> Value {
    part["name"] = json!(name);
    part
}

fn text(text: &str) -> Value {
    json!({"type": "text", "text": text})
}

// ---------------------------------------------------------------------------
// Files into canonical parts

#[test]
fn png_file_becomes_an_image_part_named_after_the_file() {
    let run = run(&["encode", &path("tiny.png")]);
    assert_ok(&run, &json!([file_part("image", "image/png", "tiny.png")]));
}

#[test]
fn jpeg_file_becomes_an_image_jpeg_part() {
    let run = run(&["encode", &path("tiny.jpg")]);
    assert_ok(&run, &json!([file_part("image", "image/jpeg", "tiny.jpg")]));
}

#[test]
fn gif_file_becomes_an_image_gif_part() {
    let run = run(&["encode", &path("tiny.gif")]);
    assert_ok(&run, &json!([file_part("image", "image/gif", "tiny.gif")]));
}

#[test]
fn webp_file_becomes_an_image_webp_part() {
    let run = run(&["encode", &path("tiny.webp")]);
    assert_ok(
        &run,
        &json!([file_part("image", "image/webp", "tiny.webp")]),
    );
}

#[test]
fn pdf_file_becomes_a_file_part() {
    let run = run(&["encode", &path("doc.pdf")]);
    assert_ok(
        &run,
        &json!([file_part("file", "application/pdf", "doc.pdf")]),
    );
}

#[test]
fn wav_file_becomes_an_audio_part_spelled_audio_wav() {
    // infer spells it audio/x-wav; partkit writes the normalized form.
    let run = run(&["encode", &path("tone.wav")]);
    assert_ok(&run, &json!([file_part("audio", "audio/wav", "tone.wav")]));
}

#[test]
fn mp3_file_becomes_an_audio_mpeg_part() {
    let run = run(&["encode", &path("tone.mp3")]);
    assert_ok(&run, &json!([file_part("audio", "audio/mpeg", "tone.mp3")]));
}

#[test]
fn unsniffable_text_file_takes_text_plain_from_its_extension() {
    let run = run(&["encode", &path("note.txt")]);
    assert_ok(&run, &json!([file_part("file", "text/plain", "note.txt")]));
}

#[test]
fn file_without_extension_is_sniffed_as_png() {
    let run = run(&["encode", &path("noext")]);
    assert_ok(&run, &json!([file_part("image", "image/png", "noext")]));
}

#[test]
fn uppercase_extension_matches_without_a_warning() {
    let run = run(&["encode", &path("SHOUT.PNG")]);
    assert_ok(&run, &json!([file_part("image", "image/png", "SHOUT.PNG")]));
}

#[test]
fn non_ascii_file_name_is_kept_exactly_as_the_name() {
    let name = "caf\u{e9} \u{2615}.png";
    let run = run(&["encode", &path(name)]);
    assert_ok(&run, &json!([file_part("image", "image/png", name)]));
}

#[test]
fn name_is_the_base_name_of_an_absolute_path() {
    let absolute = fixture("tiny.gif");
    let run = run(&["encode", path_arg(&absolute)]);
    assert_ok(&run, &json!([file_part("image", "image/gif", "tiny.gif")]));
}

#[test]
fn several_sources_come_out_in_command_line_order() {
    let run = run(&[
        "encode",
        &path("tone.wav"),
        &path("doc.pdf"),
        &path("tiny.png"),
    ]);
    assert_ok(
        &run,
        &json!([
            file_part("audio", "audio/wav", "tone.wav"),
            file_part("file", "application/pdf", "doc.pdf"),
            file_part("image", "image/png", "tiny.png"),
        ]),
    );
}

#[test]
fn xml_content_named_svg_is_svg_without_a_warning() {
    let svg = br#"<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>"#;
    let (_dir, file) = temp_file("icon.svg", svg);
    let run = run(&["encode", path_arg(&file)]);
    assert_ok(
        &run,
        &json!([{"type": "image", "mimeType": "image/svg+xml",
                 "data": STANDARD.encode(svg), "name": "icon.svg"}]),
    );
}

#[test]
fn html_looking_markdown_keeps_the_markdown_type() {
    let markdown = b"<html><body>hi</body></html>\n";
    let (_dir, file) = temp_file("notes.md", markdown);
    let run = run(&["encode", path_arg(&file)]);
    assert_ok(
        &run,
        &json!([{"type": "file", "mimeType": "text/markdown",
                 "data": STANDARD.encode(markdown), "name": "notes.md"}]),
    );
}

// ---------------------------------------------------------------------------
// Content against extension, --mime-type, --type, --strict, --quiet

#[test]
fn jpeg_bytes_under_a_png_name_warn_and_take_the_sniffed_type() {
    let run = run(&["encode", &path("jpeg-bytes.png")]);
    assert_output(
        &run,
        &json!([{"type": "image", "mimeType": "image/jpeg",
                 "data": b64("jpeg-bytes.png"), "name": "jpeg-bytes.png"}]),
        &warning("tests/fixtures/jpeg-bytes.png: content is image/jpeg, not image/png"),
    );
}

#[test]
fn strict_turns_a_content_extension_mismatch_into_exit_1() {
    let run = run(&["encode", "--strict", &path("jpeg-bytes.png")]);
    assert_fails(
        &run,
        1,
        "tests/fixtures/jpeg-bytes.png: content is image/jpeg, not image/png",
    );
}

#[test]
fn quiet_silences_the_mismatch_warning_but_not_the_result() {
    let run = run(&["encode", "--quiet", &path("jpeg-bytes.png")]);
    assert_ok(
        &run,
        &json!([{"type": "image", "mimeType": "image/jpeg",
                 "data": b64("jpeg-bytes.png"), "name": "jpeg-bytes.png"}]),
    );
}

#[test]
fn explicit_mime_type_wins_over_the_content_and_warns() {
    let run = run(&["encode", &path("tiny.png"), "--mime-type", "image/jpeg"]);
    assert_output(
        &run,
        &json!([file_part("image", "image/jpeg", "tiny.png")]),
        &warning("tests/fixtures/tiny.png: content is image/png, not image/jpeg"),
    );
}

#[test]
fn strict_rejects_an_explicit_mime_type_the_content_contradicts() {
    let run = run(&[
        "encode",
        &path("tiny.png"),
        "--mime-type",
        "image/jpeg",
        "--strict",
    ]);
    assert_fails(
        &run,
        1,
        "tests/fixtures/tiny.png: content is image/png, not image/jpeg",
    );
}

#[test]
fn explicit_mime_type_is_normalized_and_silent_when_it_agrees() {
    let run = run(&[
        "encode",
        &path("tiny.png"),
        "--mime-type",
        "IMAGE/PNG; charset=binary",
    ]);
    assert_ok(&run, &json!([file_part("image", "image/png", "tiny.png")]));
}

#[test]
fn explicit_mime_type_alias_is_normalized() {
    let run = run(&["encode", &path("tiny.jpg"), "--mime-type", "image/pjpeg"]);
    assert_ok(&run, &json!([file_part("image", "image/jpeg", "tiny.jpg")]));
}

#[test]
fn explicit_mime_type_that_is_not_type_slash_subtype_is_exit_2() {
    let run = run(&["encode", &path("tiny.png"), "--mime-type", "png"]);
    run.assert_error(
        2,
        &[
            "--mime-type",
            "\"png\" is not a media type of the form type/subtype",
        ],
    );
}

#[test]
fn type_file_makes_a_png_a_file_part() {
    let run = run(&["encode", "--type", "file", &path("tiny.png")]);
    assert_ok(&run, &json!([file_part("file", "image/png", "tiny.png")]));
}

#[test]
fn unknown_part_type_is_exit_2() {
    let run = run(&["encode", "--type", "video", &path("tiny.png")]);
    run.assert_error(2, &["invalid value 'video' for '--type <TYPE>'"]);
}

// ---------------------------------------------------------------------------
// --name

#[test]
fn name_option_renames_the_one_media_source_among_texts() {
    let run = run(&[
        "encode",
        "-t",
        "look:",
        &path("tiny.png"),
        "--name",
        "chart.png",
    ]);
    assert_ok(
        &run,
        &json!([
            text("look:"),
            with_name(file_part("image", "image/png", "tiny.png"), "chart.png"),
        ]),
    );
}

#[test]
fn name_option_with_two_sources_is_exit_2() {
    let run = run(&[
        "encode",
        &path("tiny.png"),
        &path("tiny.gif"),
        "--name",
        "x.png",
    ]);
    assert_fails(
        &run,
        2,
        "--name applies to exactly one source, but 2 were given",
    );
}

#[test]
fn name_option_with_only_text_parts_is_exit_2() {
    let run = run(&["encode", "-t", "hi", "--name", "x.png"]);
    assert_fails(
        &run,
        2,
        "--name applies to exactly one source, but 0 were given",
    );
}

#[test]
fn name_option_overrides_a_data_url_name_parameter() {
    let url = format!("data:image/png;name=old.png;base64,{}", b64("tiny.png"));
    let run = run(&["encode", &url, "--name", "new.png"]);
    assert_ok(
        &run,
        &json!([{"type": "image", "mimeType": "image/png",
                 "data": b64("tiny.png"), "name": "new.png"}]),
    );
}

// ---------------------------------------------------------------------------
// -t/--text

#[test]
fn text_parts_interleave_with_sources_in_command_line_order() {
    let run = run(&[
        "encode",
        "-t",
        "a",
        &path("tiny.png"),
        "-t",
        "b",
        &path("tiny.gif"),
    ]);
    assert_ok(
        &run,
        &json!([
            text("a"),
            file_part("image", "image/png", "tiny.png"),
            text("b"),
            file_part("image", "image/gif", "tiny.gif"),
        ]),
    );
}

#[test]
fn long_text_option_after_the_sources_comes_last() {
    let run = run(&["encode", &path("doc.pdf"), "--text", "Summarize it ✓"]);
    assert_ok(
        &run,
        &json!([
            file_part("file", "application/pdf", "doc.pdf"),
            text("Summarize it ✓"),
        ]),
    );
}

#[test]
fn text_alone_does_not_read_stdin() {
    let run = run_with_stdin(&["encode", "-t", "only text"], &bytes("tiny.png"));
    assert_ok(&run, &json!([text("only text")]));
}

// ---------------------------------------------------------------------------
// Standard input

#[test]
fn dash_reads_stdin_into_an_unnamed_part() {
    let run = run_with_stdin(&["encode", "-"], &bytes("tiny.png"));
    assert_ok(
        &run,
        &json!([{"type": "image", "mimeType": "image/png", "data": b64("tiny.png")}]),
    );
}

#[test]
fn no_source_reads_stdin() {
    let run = run_with_stdin(&["encode"], &bytes("tone.wav"));
    assert_ok(
        &run,
        &json!([{"type": "audio", "mimeType": "audio/wav", "data": b64("tone.wav")}]),
    );
}

#[test]
fn stdin_takes_the_name_option() {
    let run = run_with_stdin(&["encode", "--name", "report.pdf"], &bytes("doc.pdf"));
    assert_ok(
        &run,
        &json!([with_name(
            file_part("file", "application/pdf", "doc.pdf"),
            "report.pdf"
        )]),
    );
}

#[test]
fn stdin_between_text_parts_keeps_its_place() {
    let run = run_with_stdin(&["encode", "-t", "a", "-", "-t", "b"], &bytes("tiny.gif"));
    assert_ok(
        &run,
        &json!([
            text("a"),
            {"type": "image", "mimeType": "image/gif", "data": b64("tiny.gif")},
            text("b"),
        ]),
    );
}

#[test]
fn empty_stdin_via_dash_is_exit_1() {
    let run = run_with_stdin(&["encode", "-"], b"");
    assert_fails(&run, 1, "<stdin>: empty (a media part must carry bytes)");
}

#[test]
fn empty_stdin_without_arguments_is_exit_1() {
    let run = run_with_stdin(&["encode"], b"");
    assert_fails(&run, 1, "<stdin>: empty (a media part must carry bytes)");
}

#[test]
fn dash_twice_is_exit_2() {
    let run = run_with_stdin(&["encode", "-", "-"], &bytes("tiny.png"));
    assert_fails(&run, 2, "standard input (-) can be read only once");
}

#[test]
fn unrecognizable_stdin_asks_for_mime_type() {
    let run = run_with_stdin(&["encode", "-"], b"just some words\n");
    assert_fails(
        &run,
        1,
        "<stdin>: cannot tell the media type: the content is not recognized and there is no extension; pass --mime-type",
    );
}

// ---------------------------------------------------------------------------
// Sources that cannot become parts

#[test]
fn empty_file_is_exit_1() {
    let run = run(&["encode", &path("empty.bin")]);
    assert_fails(
        &run,
        1,
        "tests/fixtures/empty.bin: empty (a media part must carry bytes)",
    );
}

#[test]
fn a_failing_later_source_prints_nothing_for_the_earlier_ones() {
    let run = run(&["encode", &path("tiny.png"), "-t", "x", &path("empty.bin")]);
    assert_fails(
        &run,
        1,
        "tests/fixtures/empty.bin: empty (a media part must carry bytes)",
    );
}

#[test]
fn nonexistent_path_is_exit_2() {
    let run = run(&["encode", &path("no-such-file.png")]);
    run.assert_error(
        2,
        &[
            "partkit: error: cannot read tests/fixtures/no-such-file.png: ",
            "No such file or directory",
        ],
    );
}

#[test]
fn directory_path_is_exit_2() {
    let run = run(&["encode", "tests/fixtures"]);
    assert_fails(&run, 2, "cannot read tests/fixtures: is a directory");
}

#[test]
fn unrecognizable_bytes_without_extension_ask_for_mime_type() {
    let (_dir, file) = temp_file("mystery", b"just some words\n");
    let run = run(&["encode", path_arg(&file)]);
    assert_fails(
        &run,
        1,
        &format!(
            "{}: cannot tell the media type: the content is not recognized and there is no extension; pass --mime-type",
            file.display()
        ),
    );
}

#[test]
fn unrecognizable_bytes_with_unknown_extension_ask_for_mime_type() {
    let (_dir, file) = temp_file("mystery.xyz", b"just some words\n");
    let run = run(&["encode", path_arg(&file)]);
    assert_fails(
        &run,
        1,
        &format!(
            "{}: cannot tell the media type: the content is not recognized and .xyz is not in the extension table; pass --mime-type",
            file.display()
        ),
    );
}

#[test]
fn unrecognizable_bytes_with_mime_type_are_accepted_silently() {
    let (_dir, file) = temp_file("mystery.xyz", b"just some words\n");
    let run = run(&[
        "encode",
        path_arg(&file),
        "--mime-type",
        "application/octet-stream",
    ]);
    assert_ok(
        &run,
        &json!([{"type": "file", "mimeType": "application/octet-stream",
                 "data": STANDARD.encode(b"just some words\n"), "name": "mystery.xyz"}]),
    );
}

#[test]
fn control_characters_in_a_file_name_are_escaped_in_messages() {
    let (_dir, file) = temp_file("a\nb\u{1b}[31m.xyz", b"just some words\n");
    let run = run(&["encode", path_arg(&file)]);
    let shown = file
        .display()
        .to_string()
        .replace('\n', "\\n")
        .replace('\u{1b}', "\\u{1b}");
    assert_fails(
        &run,
        1,
        &format!(
            "{shown}: cannot tell the media type: the content is not recognized and .xyz is not in the extension table; pass --mime-type"
        ),
    );
}

// ---------------------------------------------------------------------------
// data: URLs

#[test]
fn data_url_payload_is_kept_byte_for_byte() {
    let url = data_url("image/png", "tiny.png");
    let run = run(&["encode", &url]);
    assert_ok(
        &run,
        &json!([{"type": "image", "mimeType": "image/png", "data": b64("tiny.png")}]),
    );
}

#[test]
fn data_url_name_parameter_becomes_the_part_name() {
    let url = format!("data:image/png;name=a%20b.png;base64,{}", b64("tiny.png"));
    let run = run(&["encode", &url]);
    assert_ok(
        &run,
        &json!([{"type": "image", "mimeType": "image/png",
                 "data": b64("tiny.png"), "name": "a b.png"}]),
    );
}

#[test]
fn data_url_parameters_are_not_part_of_the_media_type() {
    let url = format!("data:Image/PNG;charset=binary;base64,{}", b64("tiny.png"));
    let run = run(&["encode", &url]);
    assert_ok(
        &run,
        &json!([{"type": "image", "mimeType": "image/png", "data": b64("tiny.png")}]),
    );
}

#[test]
fn data_url_alias_image_jpg_is_normalized() {
    let url = data_url("image/jpg", "tiny.jpg");
    let run = run(&["encode", &url]);
    assert_ok(
        &run,
        &json!([{"type": "image", "mimeType": "image/jpeg", "data": b64("tiny.jpg")}]),
    );
}

#[test]
fn data_url_wav_alias_is_normalized() {
    let url = data_url("audio/x-wav", "tone.wav");
    let run = run(&["encode", &url]);
    assert_ok(
        &run,
        &json!([{"type": "audio", "mimeType": "audio/wav", "data": b64("tone.wav")}]),
    );
}

#[test]
fn data_url_declared_type_contradicted_by_content_warns_and_content_wins() {
    let url = data_url("image/gif", "tiny.png");
    let run = run(&["encode", &url]);
    assert_output(
        &run,
        &json!([{"type": "image", "mimeType": "image/png", "data": b64("tiny.png")}]),
        &warning("data:image/gif;base64,…: content is image/png, not image/gif"),
    );
}

#[test]
fn data_url_declared_mismatch_under_strict_is_exit_1() {
    let url = data_url("image/gif", "tiny.png");
    let run = run(&["encode", "--strict", &url]);
    assert_fails(
        &run,
        1,
        "data:image/gif;base64,…: content is image/png, not image/gif",
    );
}

#[test]
fn data_url_of_unsniffable_bytes_keeps_the_declared_type() {
    let run = run(&["encode", "data:text/plain;base64,aGVsbG8="]);
    assert_ok(
        &run,
        &json!([{"type": "file", "mimeType": "text/plain", "data": "aGVsbG8="}]),
    );
}

#[test]
fn non_base64_data_url_is_exit_1() {
    let run = run(&["encode", "data:image/svg+xml,%3Csvg%2F%3E"]);
    assert_fails(
        &run,
        1,
        "data:image/svg+xml,…: data URL is not base64 (expected data:<media type>;base64,<payload>)",
    );
}

#[test]
fn data_url_without_media_type_is_exit_1() {
    let url = format!("data:;base64,{}", b64("tiny.png"));
    let run = run(&["encode", &url]);
    assert_fails(&run, 1, "data:;base64,…: data URL has no media type");
}

#[test]
fn data_url_with_a_malformed_media_type_is_exit_1() {
    let url = format!("data:png;base64,{}", b64("tiny.png"));
    let run = run(&["encode", &url]);
    assert_fails(
        &run,
        1,
        "data:png;base64,…: data URL media type \"png\" is not of the form type/subtype",
    );
}

#[test]
fn data_url_with_a_stray_character_is_exit_1_without_leaking_the_payload() {
    let mut payload = b64("tiny.jpg");
    payload.replace_range(40..41, "*");
    let url = format!("data:image/jpeg;base64,{payload}");
    let run = run(&["encode", &url]);
    assert_fails(
        &run,
        1,
        "data:image/jpeg;base64,…: invalid base64: character '*' at offset 40",
    );
    assert_no_payload_leak(&run.stderr, &payload);
}

#[test]
fn data_url_with_padding_inside_the_payload_is_exit_1_without_leaking_it() {
    let mut payload = b64("tiny.jpg");
    payload.replace_range(40..41, "=");
    let url = format!("data:image/jpeg;base64,{payload}");
    let run = run(&["encode", &url]);
    assert_fails(
        &run,
        1,
        "data:image/jpeg;base64,…: invalid base64: bad padding",
    );
    assert_no_payload_leak(&run.stderr, &payload);
}

#[test]
fn data_url_with_missing_padding_is_exit_1() {
    // Strict base64: the length must be a multiple of four.
    let full = b64("tiny.png");
    assert!(full.ends_with("=="));
    let payload = &full[..full.len() - 1];
    let url = format!("data:image/png;base64,{payload}");
    let run = run(&["encode", &url]);
    assert_fails(
        &run,
        1,
        &format!(
            "data:image/png;base64,…: invalid base64: length {} is not a multiple of 4",
            payload.len()
        ),
    );
    assert_no_payload_leak(&run.stderr, payload);
}

#[test]
fn data_url_with_stray_bits_in_the_last_character_is_exit_1() {
    let run = run(&["encode", "data:image/png;base64,iVB="]);
    assert_fails(
        &run,
        1,
        "data:image/png;base64,…: invalid base64: the last character at offset 2 has bits set that no byte uses",
    );
}

#[test]
fn data_url_with_an_empty_payload_is_exit_1() {
    let run = run(&["encode", "data:image/png;base64,"]);
    assert_fails(
        &run,
        1,
        "data:image/png;base64,…: invalid base64: empty payload",
    );
}

// ---------------------------------------------------------------------------
// http(s) URLs without --fetch

#[test]
fn http_url_stays_a_url_part_typed_by_its_path_ignoring_query_and_fragment() {
    let url = "https://example.com/docs/report.pdf?sig=x.png#page.gif";
    let run = run(&["encode", url]);
    assert_ok(
        &run,
        &json!([{"type": "file", "mimeType": "application/pdf", "url": url}]),
    );
}

#[test]
fn http_url_extension_matches_case_insensitively() {
    let url = "http://example.com/shots/Shot.JPEG?v=2";
    let run = run(&["encode", url]);
    assert_ok(
        &run,
        &json!([{"type": "image", "mimeType": "image/jpeg", "url": url}]),
    );
}

#[test]
fn http_url_without_extension_is_exit_1_naming_mime_type_and_hiding_the_query() {
    let run = run(&[
        "encode",
        "https://example.com/download?file=a.png&token=s3cret",
    ]);
    assert_fails(
        &run,
        1,
        "https://example.com/download?…: cannot tell the media type from the URL's path; pass --mime-type (or --fetch to sniff the bytes)",
    );
}

#[test]
fn http_url_with_an_extension_not_in_the_table_is_exit_1() {
    let run = run(&["encode", "https://example.com/page.php"]);
    assert_fails(
        &run,
        1,
        "https://example.com/page.php: cannot tell the media type from the URL's path; pass --mime-type (or --fetch to sniff the bytes)",
    );
}

#[test]
fn http_url_with_mime_type_is_a_url_part_of_that_type() {
    let url = "https://example.com/download?id=7";
    let run = run(&["encode", url, "--mime-type", "image/webp"]);
    assert_ok(
        &run,
        &json!([{"type": "image", "mimeType": "image/webp", "url": url}]),
    );
}

#[test]
fn http_url_takes_the_name_option() {
    let url = "https://example.com/a/b.mp3";
    let run = run(&["encode", url, "--name", "song.mp3"]);
    assert_ok(
        &run,
        &json!([{"type": "audio", "mimeType": "audio/mpeg", "url": url, "name": "song.mp3"}]),
    );
}

// ---------------------------------------------------------------------------
// --max-part-bytes

#[test]
fn max_part_bytes_at_exactly_the_file_size_passes() {
    let size = bytes("tiny.png").len().to_string();
    let run = run(&["encode", &path("tiny.png"), "--max-part-bytes", &size]);
    assert_ok(&run, &json!([file_part("image", "image/png", "tiny.png")]));
}

#[test]
fn max_part_bytes_one_below_the_file_size_is_exit_1_with_nothing_printed() {
    let size = bytes("tiny.png").len();
    let cap = (size - 1).to_string();
    let run = run(&["encode", &path("tiny.png"), "--max-part-bytes", &cap]);
    assert_fails(
        &run,
        1,
        &format!(
            "tests/fixtures/tiny.png: {size} bytes, over the cap of {} bytes (--max-part-bytes)",
            size - 1
        ),
    );
}

#[test]
fn max_part_bytes_rejects_a_later_source_before_printing_anything() {
    // tiny.gif (91 bytes) fits 100 bytes, tiny.jpg (725 bytes) does not.
    assert!(bytes("tiny.gif").len() <= 100 && bytes("tiny.jpg").len() > 100);
    let run = run(&[
        "encode",
        &path("tiny.gif"),
        &path("tiny.jpg"),
        "--max-part-bytes",
        "100",
    ]);
    run.assert_error(
        1,
        &[
            "tests/fixtures/tiny.jpg: ",
            "over the cap of 100 bytes (--max-part-bytes)",
        ],
    );
}

#[test]
fn max_part_bytes_kib_is_1024_bytes_and_kb_is_1000() {
    let (_dir, file) = temp_file("padded.png", &png_of_len(1010));
    let expected = json!([{"type": "image", "mimeType": "image/png",
                           "data": STANDARD.encode(png_of_len(1010)), "name": "padded.png"}]);
    assert_ok(
        &run(&["encode", path_arg(&file), "--max-part-bytes", "1KiB"]),
        &expected,
    );
    assert_ok(
        &run(&["encode", path_arg(&file), "--max-part-bytes", "1kib"]),
        &expected,
    );
    assert_fails(
        &run(&["encode", path_arg(&file), "--max-part-bytes", "1kB"]),
        1,
        &format!(
            "{}: 1,010 bytes, over the cap of 1,000 bytes (--max-part-bytes)",
            file.display()
        ),
    );
}

#[test]
fn max_part_bytes_2kb_is_2000_bytes() {
    let (_dir, file) = temp_file("two.png", &png_of_len(2000));
    let (_dir2, over) = temp_file("two-and-one.png", &png_of_len(2001));
    assert_ok(
        &run(&["encode", path_arg(&file), "--max-part-bytes", "2kB"]),
        &json!([{"type": "image", "mimeType": "image/png",
                 "data": STANDARD.encode(png_of_len(2000)), "name": "two.png"}]),
    );
    assert_fails(
        &run(&["encode", path_arg(&over), "--max-part-bytes", "2KB"]),
        1,
        &format!(
            "{}: 2,001 bytes, over the cap of 2,000 bytes (--max-part-bytes)",
            over.display()
        ),
    );
}

#[test]
fn max_part_bytes_counts_the_decoded_bytes_of_a_data_url() {
    let size = bytes("tiny.png").len();
    let url = data_url("image/png", "tiny.png");
    let at = size.to_string();
    let below = (size - 1).to_string();
    assert_ok(
        &run(&["encode", &url, "--max-part-bytes", &at]),
        &json!([{"type": "image", "mimeType": "image/png", "data": b64("tiny.png")}]),
    );
    assert_fails(
        &run(&["encode", &url, "--max-part-bytes", &below]),
        1,
        &format!(
            "data:image/png;base64,…: {size} bytes, over the cap of {} bytes (--max-part-bytes)",
            size - 1
        ),
    );
}

#[test]
fn max_part_bytes_applies_to_stdin() {
    let png = bytes("tiny.png");
    let at = png.len().to_string();
    let below = (png.len() - 1).to_string();
    assert_ok(
        &run_with_stdin(&["encode", "--max-part-bytes", &at], &png),
        &json!([{"type": "image", "mimeType": "image/png", "data": b64("tiny.png")}]),
    );
    run_with_stdin(&["encode", "--max-part-bytes", &below], &png).assert_error(
        1,
        &[&format!(
            "<stdin>: more than {below} bytes, over the cap of {below} bytes (--max-part-bytes)"
        )],
    );
}

#[test]
fn stdin_over_the_cap_is_reported_with_its_real_size() {
    // 91 bytes of PNG on stdin with a cap of 10: the message says "11 bytes".
    let png = bytes("tiny.png");
    let run = run_with_stdin(&["encode", "-", "--max-part-bytes", "10"], &png);
    run.assert_error(1, &["over the cap of 10 bytes (--max-part-bytes)"]);
    let real = format!("<stdin>: {} bytes, over", png.len());
    let at_least = "<stdin>: more than 10 bytes, over";
    assert!(
        run.stderr.contains(&real) || run.stderr.contains(at_least),
        "the size in the message is not the input's: {}",
        run.stderr
    );
}

#[test]
fn invalid_max_part_bytes_is_exit_2() {
    for size in ["5parsecs", "-5", "1.5B", "MB"] {
        let option = format!("--max-part-bytes={size}");
        let run = run(&["encode", &path("tiny.png"), &option]);
        run.assert_error(
            2,
            &[&format!(
                "invalid value '{size}' for '--max-part-bytes <SIZE>'"
            )],
        );
    }
}

// ---------------------------------------------------------------------------
// Output forms

#[test]
fn jsonl_prints_one_compact_part_per_line() {
    let run = run(&[
        "encode",
        "--jsonl",
        "-t",
        "a",
        &path("tiny.png"),
        &path("tone.wav"),
    ]);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert_eq!(run.stderr, "");
    let expected = [
        text("a"),
        file_part("image", "image/png", "tiny.png"),
        file_part("audio", "audio/wav", "tone.wav"),
    ];
    assert_eq!(run.json_lines(), expected);
    let lines: Vec<String> = expected
        .iter()
        .map(|v| serde_json::to_string(v).unwrap() + "\n")
        .collect();
    assert_eq!(run.stdout, lines.concat());
}

#[test]
fn jsonl_stays_compact_under_pretty() {
    let run = run(&["encode", "--jsonl", "--pretty", "-t", "a", "-t", "b"]);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert_eq!(
        run.stdout,
        "{\"type\":\"text\",\"text\":\"a\"}\n{\"type\":\"text\",\"text\":\"b\"}\n"
    );
}

#[test]
fn jsonl_writes_shape_blocks_too() {
    let run = run(&[
        "encode",
        "--jsonl",
        "--to",
        "gemini",
        "-t",
        "hi",
        &path("tiny.png"),
    ]);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert_eq!(
        run.json_lines(),
        [
            json!({"text": "hi"}),
            json!({"inlineData": {"mimeType": "image/png", "data": b64("tiny.png")}}),
        ]
    );
}

#[test]
fn pretty_output_parses_to_the_same_value_as_compact() {
    let args = ["-t", "a", &path("doc.pdf"), &path("tiny.webp")];
    let pretty = run(&[&["encode", "--pretty"][..], &args[..]].concat());
    let compact = run(&[&["encode", "--compact"][..], &args[..]].concat());
    assert_eq!((pretty.code, compact.code), (0, 0));
    assert_eq!((pretty.stderr.as_str(), compact.stderr.as_str()), ("", ""));
    assert!(
        pretty
            .stdout
            .starts_with("[\n  {\n    \"type\": \"text\",\n"),
        "pretty output is indented by two spaces: {}",
        pretty.stdout
    );
    assert_eq!(compact.stdout.lines().count(), 1, "compact is one line");
    assert_eq!(pretty.json(), compact.json());
    assert_eq!(
        compact.json(),
        json!([
            text("a"),
            file_part("file", "application/pdf", "doc.pdf"),
            file_part("image", "image/webp", "tiny.webp"),
        ])
    );
}

#[test]
fn pretty_and_compact_together_are_exit_2() {
    let run = run(&["encode", "--pretty", "--compact", &path("tiny.png")]);
    run.assert_error(2, &["'--pretty' cannot be used with '--compact'"]);
}

#[test]
fn closed_stdout_ends_the_run_quietly_with_exit_0() {
    // A 4 MiB file is 5.6 MB of base64: far more than a pipe holds, so the
    // writes after the reader has gone really hit the closed pipe.
    let (_dir, big) = temp_file("big.png", &png_of_len(4 << 20));
    for extra in [&[][..], &["--jsonl"][..], &["--pretty"][..]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_partkit"))
            .arg("encode")
            .arg(&big)
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("partkit starts");
        let mut stdout = child.stdout.take().expect("piped stdout");
        let mut first = [0u8; 1];
        stdout.read_exact(&mut first).expect("some output");
        drop(stdout);
        let output = child.wait_with_output().expect("partkit ends");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{extra:?}: exit status {:?}, stderr: {stderr}",
            output.status
        );
        assert!(!stderr.contains("error"), "{extra:?}: stderr: {stderr}");
        assert_eq!(stderr, "", "{extra:?}");
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_stdout_write_failure_is_exit_2() {
    let full = fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    let output = Command::new(env!("CARGO_BIN_EXE_partkit"))
        .args(["encode", "tests/fixtures/tiny.png"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .stdout(full)
        .output()
        .expect("partkit runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "stderr: {stderr}");
    assert!(
        stderr.starts_with("partkit: error: cannot write <stdout>: No space left on device"),
        "stderr: {stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "stderr: {stderr}");
}

// ---------------------------------------------------------------------------
// --to SHAPE: the PNG, the PDF and the WAV in every shape

fn to(shape: &str, name: &str) -> Run {
    run(&["encode", "--to", shape, &path(name)])
}

fn png_data_url() -> String {
    data_url("image/png", "tiny.png")
}

fn pdf_data_url() -> String {
    data_url("application/pdf", "doc.pdf")
}

#[test]
fn to_canonical_is_the_default_output() {
    for name in ["tiny.png", "doc.pdf", "tone.wav"] {
        let default = run(&["encode", &path(name)]);
        let canonical = to("canonical", name);
        assert_eq!(canonical.code, 0, "{name}: {}", canonical.stderr);
        assert_eq!(canonical.stdout, default.stdout, "{name}");
    }
    assert_ok(
        &to("canonical", "tiny.png"),
        &json!([file_part("image", "image/png", "tiny.png")]),
    );
    assert_ok(
        &to("canonical", "doc.pdf"),
        &json!([file_part("file", "application/pdf", "doc.pdf")]),
    );
    assert_ok(
        &to("canonical", "tone.wav"),
        &json!([file_part("audio", "audio/wav", "tone.wav")]),
    );
}

#[test]
fn to_openai_chat_writes_image_url_file_and_input_audio_parts() {
    assert_ok(
        &to("openai-chat", "tiny.png"),
        &json!([{"type": "image_url", "image_url": {"url": png_data_url()}}]),
    );
    assert_ok(
        &to("openai-chat", "doc.pdf"),
        &json!([{"type": "file",
                 "file": {"filename": "doc.pdf", "file_data": pdf_data_url()}}]),
    );
    assert_ok(
        &to("openai-chat", "tone.wav"),
        &json!([{"type": "input_audio",
                 "input_audio": {"data": b64("tone.wav"), "format": "wav"}}]),
    );
}

#[test]
fn to_openai_responses_writes_input_image_with_detail_and_input_file() {
    assert_ok(
        &to("openai-responses", "tiny.png"),
        &json!([{"type": "input_image", "image_url": png_data_url(), "detail": "auto"}]),
    );
    assert_ok(
        &to("openai-responses", "doc.pdf"),
        &json!([{"type": "input_file", "filename": "doc.pdf", "file_data": pdf_data_url()}]),
    );
}

#[test]
fn to_openai_responses_refuses_audio() {
    assert_fails(
        &to("openai-responses", "tone.wav"),
        1,
        "tests/fixtures/tone.wav: audio part (audio/wav) cannot be carried by openai-responses: Responses input has no audio parts",
    );
}

#[test]
fn to_anthropic_writes_base64_image_and_pdf_document_blocks() {
    assert_ok(
        &to("anthropic", "tiny.png"),
        &json!([{"type": "image", "source": {
            "type": "base64", "media_type": "image/png", "data": b64("tiny.png")}}]),
    );
    assert_ok(
        &to("anthropic", "doc.pdf"),
        &json!([{"type": "document",
                 "source": {"type": "base64", "media_type": "application/pdf",
                            "data": b64("doc.pdf")},
                 "title": "doc.pdf"}]),
    );
}

#[test]
fn to_anthropic_refuses_audio() {
    assert_fails(
        &to("anthropic", "tone.wav"),
        1,
        "tests/fixtures/tone.wav: audio part (audio/wav) cannot be carried by anthropic: Anthropic has no audio blocks",
    );
}

#[test]
fn to_gemini_writes_camel_case_inline_data() {
    assert_ok(
        &to("gemini", "tiny.png"),
        &json!([{"inlineData": {"mimeType": "image/png", "data": b64("tiny.png")}}]),
    );
    assert_ok(
        &to("gemini", "doc.pdf"),
        &json!([{"inlineData": {"mimeType": "application/pdf", "data": b64("doc.pdf")}}]),
    );
    assert_ok(
        &to("gemini", "tone.wav"),
        &json!([{"inlineData": {"mimeType": "audio/wav", "data": b64("tone.wav")}}]),
    );
}

#[test]
fn to_bedrock_writes_format_tokens_and_a_sanitized_document_name() {
    assert_ok(
        &to("bedrock", "tiny.png"),
        &json!([{"image": {"format": "png", "source": {"bytes": b64("tiny.png")}}}]),
    );
    assert_ok(
        &to("bedrock", "doc.pdf"),
        &json!([{"document": {"format": "pdf", "name": "doc",
                              "source": {"bytes": b64("doc.pdf")}}}]),
    );
    assert_ok(
        &to("bedrock", "tone.wav"),
        &json!([{"audio": {"format": "wav", "source": {"bytes": b64("tone.wav")}}}]),
    );
}

#[test]
fn to_mcp_writes_image_and_audio_blocks_and_an_embedded_pdf_resource() {
    assert_ok(
        &to("mcp", "tiny.png"),
        &json!([{"type": "image", "data": b64("tiny.png"), "mimeType": "image/png"}]),
    );
    assert_ok(
        &to("mcp", "doc.pdf"),
        &json!([{"type": "resource", "resource": {
            "uri": "file:///doc.pdf", "mimeType": "application/pdf", "blob": b64("doc.pdf")}}]),
    );
    assert_ok(
        &to("mcp", "tone.wav"),
        &json!([{"type": "audio", "data": b64("tone.wav"), "mimeType": "audio/wav"}]),
    );
}

#[test]
fn to_tool_output_image_writes_a_data_url_entry_labelled_with_the_name() {
    assert_ok(
        &to("tool-output-image", "tiny.png"),
        &json!([{"image_url": png_data_url(), "label": "tiny.png"}]),
    );
}

#[test]
fn to_tool_output_image_leaves_out_the_label_of_an_unnamed_image() {
    let run = run_with_stdin(&["encode", "--to", "tool-output-image"], &bytes("tiny.jpg"));
    assert_ok(
        &run,
        &json!([{"image_url": data_url("image/jpeg", "tiny.jpg")}]),
    );
}

#[test]
fn to_tool_output_image_refuses_pdf_and_wav() {
    to("tool-output-image", "doc.pdf").assert_error(
        1,
        &[
            "partkit: error: tests/fixtures/doc.pdf: file part (application/pdf) cannot be carried by ",
            ": tool_output_images holds images only",
        ],
    );
    to("tool-output-image", "tone.wav").assert_error(
        1,
        &[
            "partkit: error: tests/fixtures/tone.wav: audio part (audio/wav) cannot be carried by ",
            ": tool_output_images holds images only",
        ],
    );
}

#[test]
fn to_tool_output_image_refuses_text_parts() {
    run(&[
        "encode",
        "--to",
        "tool-output-image",
        "-t",
        "hi",
        &path("tiny.png"),
    ])
    .assert_error(
        1,
        &[
            "text part cannot be carried by ",
            ": tool_output_images holds images only",
        ],
    );
}

#[test]
fn to_tool_output_image_refuses_url_images() {
    run(&[
        "encode",
        "--to",
        "tool-output-image",
        "https://example.com/a.png",
    ])
    .assert_error(
        1,
        &[
            "partkit: error: https://example.com/a.png: image part (image/png) cannot be carried by ",
            "a ToolOutputImage must be a base64 data: URL, not a remote URL",
        ],
    );
}

#[test]
fn to_tool_output_image_errors_name_the_shape_as_typed() {
    assert_fails(
        &to("tool-output-image", "doc.pdf"),
        1,
        "tests/fixtures/doc.pdf: file part (application/pdf) cannot be carried by tool-output-image: tool_output_images holds images only",
    );
}

// ---------------------------------------------------------------------------
// --to SHAPE: other parts and per-shape rules

#[test]
fn text_parts_take_each_shapes_text_block() {
    let cases = [
        ("canonical", json!({"type": "text", "text": "hi ✓"})),
        ("openai-chat", json!({"type": "text", "text": "hi ✓"})),
        (
            "openai-responses",
            json!({"type": "input_text", "text": "hi ✓"}),
        ),
        ("anthropic", json!({"type": "text", "text": "hi ✓"})),
        ("gemini", json!({"text": "hi ✓"})),
        ("bedrock", json!({"text": "hi ✓"})),
        ("mcp", json!({"type": "text", "text": "hi ✓"})),
    ];
    for (shape, block) in cases {
        let run = run(&["encode", "--to", shape, "-t", "hi ✓"]);
        assert_eq!(run.code, 0, "{shape}: {}", run.stderr);
        assert_eq!(run.stderr, "", "{shape}");
        assert_eq!(run.json(), json!([block]), "{shape}");
    }
}

#[test]
fn to_openai_chat_names_an_unnamed_file_part_file() {
    let run = run_with_stdin(&["encode", "--to", "openai-chat"], &bytes("doc.pdf"));
    assert_ok(
        &run,
        &json!([{"type": "file", "file": {"filename": "file", "file_data": pdf_data_url()}}]),
    );
}

#[test]
fn to_openai_chat_refuses_non_pdf_files() {
    assert_fails(
        &to("openai-chat", "note.txt"),
        1,
        "tests/fixtures/note.txt: file part (text/plain) cannot be carried by openai-chat: file parts take only PDF",
    );
}

#[test]
fn to_openai_chat_and_bedrock_give_mp3_the_mp3_format_token() {
    assert_ok(
        &to("openai-chat", "tone.mp3"),
        &json!([{"type": "input_audio",
                 "input_audio": {"data": b64("tone.mp3"), "format": "mp3"}}]),
    );
    assert_ok(
        &to("bedrock", "tone.mp3"),
        &json!([{"audio": {"format": "mp3", "source": {"bytes": b64("tone.mp3")}}}]),
    );
}

#[test]
fn to_bedrock_gives_jpeg_the_jpeg_format_token() {
    assert_ok(
        &to("bedrock", "tiny.jpg"),
        &json!([{"image": {"format": "jpeg", "source": {"bytes": b64("tiny.jpg")}}}]),
    );
}

#[test]
fn to_anthropic_a_text_file_is_a_plain_text_document() {
    let note = String::from_utf8(bytes("note.txt")).unwrap();
    assert_ok(
        &to("anthropic", "note.txt"),
        &json!([{"type": "document",
                 "source": {"type": "text", "media_type": "text/plain", "data": note},
                 "title": "note.txt"}]),
    );
}

#[test]
fn to_anthropic_empty_text_parts_are_dropped_with_a_warning() {
    let run = run(&["encode", "--to", "anthropic", "-t", "", "-t", "x"]);
    assert_output(
        &run,
        &json!([{"type": "text", "text": "x"}]),
        &warning(
            "dropped an empty text part: anthropic rejects text blocks without non-whitespace text",
        ),
    );
}

#[test]
fn to_gemini_refuses_gif_images() {
    assert_fails(
        &to("gemini", "tiny.gif"),
        1,
        "tests/fixtures/tiny.gif: image part (image/gif) cannot be carried by gemini: gemini accepts only png, jpeg, webp, heic or heif images",
    );
}

#[test]
fn a_part_retyped_as_file_is_judged_as_a_file_by_the_shape() {
    assert_fails(
        &run(&["encode", "--to", "anthropic", "--type", "file", &path("tiny.png")]),
        1,
        "tests/fixtures/tiny.png: file part (image/png) cannot be carried by anthropic: documents must be PDF or text/plain",
    );
}

#[test]
fn url_parts_become_url_blocks_where_the_shape_has_them() {
    let pdf = "https://example.com/a%20b.pdf?sig=1";
    let png = "https://example.com/shot.png";
    let cases = [
        (
            "openai-responses",
            json!([{"type": "input_file", "file_url": pdf},
                   {"type": "input_image", "image_url": png, "detail": "auto"}]),
        ),
        (
            "anthropic",
            json!([{"type": "document", "source": {"type": "url", "url": pdf}},
                   {"type": "image", "source": {"type": "url", "url": png}}]),
        ),
        (
            "gemini",
            json!([{"fileData": {"mimeType": "application/pdf", "fileUri": pdf}},
                   {"fileData": {"mimeType": "image/png", "fileUri": png}}]),
        ),
        (
            "mcp",
            json!([{"type": "resource_link", "uri": pdf, "name": "a b.pdf",
                    "mimeType": "application/pdf"},
                   {"type": "resource_link", "uri": png, "name": "shot.png",
                    "mimeType": "image/png"}]),
        ),
    ];
    for (shape, expected) in cases {
        let run = run(&["encode", "--to", shape, pdf, png]);
        assert_eq!(run.code, 0, "{shape}: {}", run.stderr);
        assert_eq!(run.stderr, "", "{shape}");
        assert_eq!(run.json(), expected, "{shape}");
    }
    assert_ok(
        &run(&["encode", "--to", "openai-chat", png]),
        &json!([{"type": "image_url", "image_url": {"url": png}}]),
    );
}

#[test]
fn url_parts_are_refused_where_the_shape_needs_bytes() {
    assert_fails(
        &run(&["encode", "--to", "openai-chat", "https://example.com/a.pdf"]),
        1,
        "https://example.com/a.pdf: file part (application/pdf) cannot be carried by openai-chat: file parts take inline data; there is no file URL",
    );
    assert_fails(
        &run(&["encode", "--to", "bedrock", "https://example.com/a.png?sig=secret"]),
        1,
        "https://example.com/a.png?…: image part (image/png) cannot be carried by bedrock: Bedrock carries inline bytes or S3 locations, not URLs",
    );
}

#[test]
fn unknown_shape_is_exit_2() {
    let run = run(&["encode", "--to", "openai", &path("tiny.png")]);
    run.assert_error(2, &["invalid value 'openai' for '--to <SHAPE>'"]);
}

// ---------------------------------------------------------------------------
// Large sources: streamed into the output, never held (encode::stream)

/// PNG bytes of `len` with varied filler, long enough for several chunks of
/// the streaming encoder (so that a chunk out of order would show).
fn large_png(len: usize, seed: u32) -> Vec<u8> {
    let mut png = bytes("tiny.png");
    let mut state = seed;
    while png.len() < len {
        state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        png.push((state >> 24) as u8);
    }
    png
}

/// A canonical image part for a PNG named `name`.
fn png_part(png: &[u8], name: &str) -> Value {
    json!({"type": "image", "mimeType": "image/png", "data": STANDARD.encode(png), "name": name})
}

#[test]
fn a_large_file_is_printed_with_exactly_the_base64_of_its_bytes() {
    let png = large_png(3_000_001, 1);
    let (_dir, file) = temp_file("big.png", &png);
    let expected = json!([png_part(&png, "big.png")]);
    let compact = run(&["encode", path_arg(&file)]);
    assert_eq!((compact.code, compact.stderr.as_str()), (0, ""));
    assert!(
        compact.stdout == format!("{expected}\n"),
        "compact output differs"
    );
    let pretty = run(&["encode", "--pretty", path_arg(&file)]);
    assert_eq!((pretty.code, pretty.stderr.as_str()), (0, ""));
    let laid_out = serde_json::to_string_pretty(&expected).unwrap() + "\n";
    assert!(pretty.stdout == laid_out, "pretty output differs");
}

#[test]
fn large_files_among_texts_keep_their_places_in_an_array_and_in_json_lines() {
    let first = large_png(1_200_000, 2);
    let second = large_png(900_002, 3);
    let (_dir, a) = temp_file("a.png", &first);
    let (_dir2, b) = temp_file("b.png", &second);
    let parts = [
        text("before"),
        png_part(&first, "a.png"),
        file_part("image", "image/png", "tiny.png"),
        png_part(&second, "b.png"),
        text("after"),
    ];
    let args = [
        "encode",
        "-t",
        "before",
        path_arg(&a),
        &path("tiny.png"),
        path_arg(&b),
        "-t",
        "after",
    ];
    assert_ok(&run(&args), &json!(parts));
    let lines = run(&[&args[..], &["--jsonl"]].concat());
    assert_eq!(lines.code, 0, "{}", lines.stderr);
    let expected: String = parts.iter().map(|part| format!("{part}\n")).collect();
    assert!(lines.stdout == expected, "JSON Lines output differs");
}

#[test]
fn a_large_file_keeps_its_base64_inside_each_shape_s_block() {
    let png = large_png(700_000, 4);
    let (_dir, file) = temp_file("big.png", &png);
    let data = STANDARD.encode(&png);
    let url = format!("data:image/png;base64,{data}");
    let cases = [
        (
            "openai-chat",
            json!({"type": "image_url", "image_url": {"url": url}}),
        ),
        (
            "gemini",
            json!({"inlineData": {"mimeType": "image/png", "data": data}}),
        ),
        (
            "tool-output-image",
            json!({"image_url": url, "label": "big.png"}),
        ),
    ];
    for (shape, block) in cases {
        let run = run(&["encode", "--to", shape, path_arg(&file), "--jsonl"]);
        assert_eq!(run.code, 0, "{shape}: {}", run.stderr);
        assert!(
            run.stdout == format!("{block}\n"),
            "{shape}: output differs"
        );
    }
}

#[test]
fn a_large_text_document_for_anthropic_is_read_whole_into_a_text_source() {
    // Anthropic carries text/plain documents as text, not base64.
    let words = "a line of plain text\n".repeat(20_000);
    let (_dir, file) = temp_file("notes.txt", words.as_bytes());
    let run = run(&["encode", "--to", "anthropic", path_arg(&file)]);
    assert_ok(
        &run,
        &json!([{"type": "document",
                 "source": {"type": "text", "media_type": "text/plain", "data": words},
                 "title": "notes.txt"}]),
    );
}

#[test]
fn large_stdin_is_streamed_to_exactly_its_base64() {
    let png = large_png(2_000_000, 5);
    let run = run_with_stdin(&["encode", "-t", "x", "-", "--jsonl"], &png);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let data = STANDARD.encode(&png);
    let image = json!({"type": "image", "mimeType": "image/png", "data": data});
    assert!(
        run.stdout == format!("{}\n{image}\n", text("x")),
        "output differs"
    );
}

#[test]
fn large_stdin_over_the_cap_leaves_nothing_on_stdout() {
    let png = large_png(700_000, 6);
    let run = run_with_stdin(
        &[
            "encode",
            &path("tiny.png"),
            "-",
            "--max-part-bytes",
            "600000",
        ],
        &png,
    );
    assert_fails(
        &run,
        1,
        "<stdin>: more than 600,000 bytes, over the cap of 600,000 bytes (--max-part-bytes)",
    );
    let under = run_with_stdin(&["encode", "-", "--max-part-bytes", "700000"], &png);
    assert_ok(
        &under,
        &json!([{"type": "image", "mimeType": "image/png", "data": STANDARD.encode(&png)}]),
    );
}

#[test]
fn a_large_file_before_a_failing_source_prints_nothing() {
    let png = large_png(1_000_000, 7);
    let (_dir, file) = temp_file("big.png", &png);
    let empty = run(&["encode", path_arg(&file), &path("empty.bin")]);
    assert_fails(
        &empty,
        1,
        "tests/fixtures/empty.bin: empty (a media part must carry bytes)",
    );
    let refused = run(&[
        "encode",
        path_arg(&file),
        "--to",
        "anthropic",
        &path("tone.wav"),
    ]);
    assert_fails(
        &refused,
        1,
        "tests/fixtures/tone.wav: audio part (audio/wav) cannot be carried by anthropic: Anthropic has no audio blocks",
    );
}

#[test]
fn a_large_file_over_the_cap_is_refused_by_its_size() {
    let png = large_png(1_000_000, 8);
    let (_dir, file) = temp_file("big.png", &png);
    let run = run(&["encode", path_arg(&file), "--max-part-bytes", "999999"]);
    assert_fails(
        &run,
        1,
        &format!(
            "{}: 1,000,000 bytes, over the cap of 999,999 bytes (--max-part-bytes)",
            file.display()
        ),
    );
}

#[test]
fn on_error_streams_the_large_sources_that_succeed() {
    let png = large_png(800_000, 9);
    let (_dir, file) = temp_file("big.png", &png);
    let run = run(&[
        "encode",
        path_arg(&file),
        &path("empty.bin"),
        path_arg(&file),
        "--jsonl",
        "--on-error",
        "null",
    ]);
    let part = png_part(&png, "big.png");
    assert!(
        run.stdout == format!("{part}\nnull\n{part}\n"),
        "output differs"
    );
    assert!(
        run.stderr.contains("empty (a media part must carry bytes)"),
        "{}",
        run.stderr
    );
}
