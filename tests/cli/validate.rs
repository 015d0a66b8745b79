//! `partkit validate` (docs/commands/validate.md) on tool replies and canonical
//! parts: exit codes and the summary, every rule of `--list-rules` on a document made for it, limits and
//! profiles (docs/limits.md), JSON Lines, skipped documents, `--format json`, `--ignore`,
//! `--deep`, `--fix` (in place, every other byte kept), directory walking with
//! `.gitignore`, and a 2,000-line run.
//!
//! Documents are built here from the committed media fixtures (`tests/fixtures/tiny.*`,
//! `doc.pdf`, `tone.wav`) and given on stdin (findings then name `<stdin>`) or
//! written to a temporary directory. The clean documents under
//! `tests/fixtures/validate/clean/` are committed; `committed_fixtures_match_their_recipe`
//! rebuilds them and fails if one drifts.

use std::fs;
use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use serde_json::{json, Value};

use super::support::media::{bytes, png_of_len};
use super::support::validating::{masked, validate, validate_paths, TRANSCRIPT_RULES};
use super::Run;
use super::{path_arg, temp_file};

// ---------------------------------------------------------------------------
// Helpers

/// The four image fixtures and their media types.
const IMAGES: [(&str, &str); 4] = [
    ("tiny.png", "image/png"),
    ("tiny.jpg", "image/jpeg"),
    ("tiny.gif", "image/gif"),
    ("tiny.webp", "image/webp"),
];

/// Canonical (standard, padded) base64.
fn b64(bytes: &[u8]) -> String {
    STANDARD.encode(bytes)
}

/// Canonical base64 of a fixture.
fn b64_of(name: &str) -> String {
    b64(&bytes(name))
}

/// A base64 data URL of some bytes.
fn data_url(mime: &str, bytes: &[u8]) -> String {
    format!("data:{mime};base64,{}", b64(bytes))
}

/// A `ToolOutputImage` entry holding a fixture, declared as `mime`.
fn entry(mime: &str, name: &str) -> Value {
    json!({"image_url": data_url(mime, &bytes(name))})
}

/// An entry holding arbitrary bytes, declared as `mime`.
fn entry_bytes(mime: &str, bytes: &[u8]) -> Value {
    json!({"image_url": data_url(mime, bytes)})
}

/// A compact reply whose only member is `tool_output_images`.
fn reply(entries: Vec<Value>) -> String {
    json!({"tool_output_images": entries}).to_string()
}

/// A canonical media part with inline data.
fn part(kind: &str, mime: &str, data: &str) -> Value {
    json!({"type": kind, "mimeType": mime, "data": data})
}

/// A canonical image part holding a fixture, declared as `mime`.
fn image_part(mime: &str, name: &str) -> Value {
    part("image", mime, &b64_of(name))
}

fn text_part(text: &str) -> Value {
    json!({"type": "text", "text": text})
}

/// One finding line as `validate` prints it.
fn finding(
    path: &str,
    line: usize,
    status: &str,
    rule: &str,
    pointer: &str,
    message: &str,
) -> String {
    if pointer.is_empty() {
        format!("{path}:{line}: {status}[{rule}]: {message}")
    } else {
        format!("{path}:{line}: {status}[{rule}] {pointer}: {message}")
    }
}

/// An error finding in the document read from stdin.
fn stdin_error(rule: &str, pointer: &str, message: &str) -> String {
    finding("<stdin>", 1, "error", rule, pointer, message)
}

/// Asserts exit code, stdout (exactly `lines`) and stderr (exactly the summary
/// line `partkit: checked {summary}`, timing masked) together.
fn assert_run(run: &Run, code: i32, lines: &[String], summary: &str) {
    assert_stderr(run, code, lines, &format!("partkit: checked {summary}\n"));
}

/// Like [`assert_run`] with the whole (masked) stderr given.
fn assert_stderr(run: &Run, code: i32, lines: &[String], stderr: &str) {
    let stdout: String = lines.iter().map(|l| format!("{l}\n")).collect();
    assert_eq!(
        (run.code, run.stdout.as_str(), masked(&run.stderr).as_str()),
        (code, stdout.as_str(), stderr),
        "exit code, stdout, stderr"
    );
}

/// A clean run over `summary`.
fn assert_clean(run: &Run, summary: &str) {
    assert_run(run, 0, &[], summary);
}

/// Writes `contents` to `dir/name`, creating folders.
fn write(dir: &Path, name: &str, contents: &str) -> PathBuf {
    let file = dir.join(name);
    fs::create_dir_all(file.parent().unwrap()).unwrap();
    fs::write(&file, contents).unwrap();
    file
}

/// An image encoded by the `image` crate: `width`×`height`, one colour.
fn encoded(width: u32, height: u32, format: image::ImageFormat) -> Vec<u8> {
    let mut out = Cursor::new(Vec::new());
    image::RgbImage::from_pixel(width, height, image::Rgb([30, 120, 200]))
        .write_to(&mut out, format)
        .expect("encode");
    out.into_inner()
}

/// A two-frame animated GIF (2×2).
fn animated_gif() -> Vec<u8> {
    use image::codecs::gif::{GifEncoder, Repeat};
    let mut out = Vec::new();
    {
        let mut encoder = GifEncoder::new(&mut out);
        encoder.set_repeat(Repeat::Infinite).unwrap();
        let frames = [[255, 0, 0, 255], [0, 0, 255, 255]]
            .map(|pixel| image::Frame::new(image::RgbaImage::from_pixel(2, 2, image::Rgba(pixel))));
        encoder.encode_frames(frames).expect("encode frames");
    }
    out
}

/// A 1×1 24-bit BMP (the `image` build here has no BMP encoder).
fn bmp_1x1() -> Vec<u8> {
    let mut bmp = Vec::new();
    bmp.extend_from_slice(b"BM");
    bmp.extend_from_slice(&58u32.to_le_bytes()); // file size
    bmp.extend_from_slice(&[0; 4]); // reserved
    bmp.extend_from_slice(&54u32.to_le_bytes()); // pixel data offset
    bmp.extend_from_slice(&40u32.to_le_bytes()); // BITMAPINFOHEADER
    bmp.extend_from_slice(&1i32.to_le_bytes()); // width
    bmp.extend_from_slice(&1i32.to_le_bytes()); // height
    bmp.extend_from_slice(&1u16.to_le_bytes()); // planes
    bmp.extend_from_slice(&24u16.to_le_bytes()); // bits per pixel
    bmp.extend_from_slice(&[0; 4]); // no compression
    bmp.extend_from_slice(&4u32.to_le_bytes()); // image size
    bmp.extend_from_slice(&[0; 16]); // resolution, palette
    bmp.extend_from_slice(&[0, 0, 255, 0]); // one red pixel, padded
    assert_eq!(bmp.len(), 58);
    bmp
}

/// A file's modification time set well in the past, so that a rewrite shows.
fn age(path: &Path) -> SystemTime {
    let old = SystemTime::now() - Duration::from_secs(3600 * 24);
    fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(old)
        .unwrap();
    fs::metadata(path).unwrap().modified().unwrap()
}

fn mtime(path: &Path) -> SystemTime {
    fs::metadata(path).unwrap().modified().unwrap()
}

// ---------------------------------------------------------------------------
// The committed clean fixtures

/// `clean/reply.json`: a pretty-printed reply with the four image types, labels
/// (a string, null, none), and members before and after the list.
fn clean_reply_text() -> String {
    let entries = [
        format!(
            "{{\"image_url\": \"{}\", \"label\": \"PNG chart\"}}",
            data_url("image/png", &bytes("tiny.png"))
        ),
        format!(
            "{{\"image_url\": \"{}\", \"label\": null}}",
            data_url("image/jpeg", &bytes("tiny.jpg"))
        ),
        format!(
            "{{\"image_url\": \"{}\"}}",
            data_url("image/gif", &bytes("tiny.gif"))
        ),
        format!(
            "{{\"label\": \"WebP\", \"image_url\": \"{}\"}}",
            data_url("image/webp", &bytes("tiny.webp"))
        ),
    ];
    format!(
        "{{\n  \"status\": \"ok\",\n  \"score\": 1.0,\n  \"tool_output_images\": [\n    {}\n  ],\n  \"id\": 12345678901234567890123\n}}\n",
        entries.join(",\n    ")
    )
}

/// `clean/parts.json`: a list of canonical parts, one per line: text, a PNG, a PDF
/// file, a WAV audio part and an image URL part.
fn clean_parts_text() -> String {
    let parts = [
        text_part("What is in these?"),
        json!({"type": "image", "mimeType": "image/png", "data": b64_of("tiny.png"), "name": "tiny.png"}),
        json!({"type": "file", "mimeType": "application/pdf", "data": b64_of("doc.pdf"), "name": "doc.pdf"}),
        json!({"type": "audio", "mimeType": "audio/wav", "data": b64_of("tone.wav")}),
        json!({"type": "image", "mimeType": "image/png", "url": "https://example.com/shot.png?size=large#top"}),
    ];
    let lines: Vec<String> = parts.iter().map(Value::to_string).collect();
    format!("[\n{}\n]\n", lines.join(",\n"))
}

/// `clean/null.json`: a reply whose image list is null.
fn clean_null_text() -> String {
    "{\"result\": \"no images today\", \"tool_output_images\": null}\n".to_string()
}

fn clean(name: &str) -> String {
    format!("tests/fixtures/validate/clean/{name}")
}

#[test]
fn committed_fixtures_match_their_recipe() {
    let read = |name: &str| fs::read_to_string(clean(name)).unwrap();
    assert_eq!(read("reply.json"), clean_reply_text());
    assert_eq!(read("parts.json"), clean_parts_text());
    assert_eq!(read("null.json"), clean_null_text());
}

#[test]
fn clean_reply_with_all_four_image_types_exits_0_with_the_summary() {
    let run = validate_paths(&[&clean("reply.json")]);
    assert_clean(&run, "1 document, 4 images in T s: 0 errors");
}

#[test]
fn clean_parts_list_exits_0() {
    let run = validate_paths(&[&clean("parts.json")]);
    assert_clean(&run, "1 document, 1 image in T s: 0 errors");
}

#[test]
fn clean_reply_with_null_images_exits_0() {
    let run = validate_paths(&[&clean("null.json")]);
    assert_clean(&run, "1 document, 0 images in T s: 0 errors");
}

#[test]
fn clean_fixtures_stay_clean_with_every_check_turned_on() {
    let dir = "tests/fixtures/validate/clean";
    for args in [
        vec![dir, "--deep", "--deny-warnings"],
        vec![dir, "--profile", "default", "--deep"],
        vec![dir, "--profile", "openai"],
        vec![dir, "--profile", "anthropic"],
        vec![dir, "--profile", "bedrock"],
        vec![
            dir,
            "--max-bytes",
            "725",
            "--max-dim",
            "4",
            "--max-images",
            "4",
        ],
    ] {
        let run = validate_paths(&args);
        assert_clean(&run, "3 documents, 5 images in T s: 0 errors");
    }
    // Every document read as a reply: the parts list is then a reply that is not
    // an object (its text is scanned, it has no ToolOutputImages).
    let run = validate_paths(&[dir, "--kind", "reply", "--deny-warnings"]);
    assert_clean(&run, "3 documents, 4 images in T s: 0 errors");
    // The reply read as canonical parts is none: a reply object is no part.
    let run = validate_paths(&[&clean("null.json"), "--kind", "parts"]);
    assert_run(
        &run,
        1,
        &[finding(
            &clean("null.json"),
            1,
            "error",
            "part-invalid",
            "",
            "missing type",
        )],
        "1 document, 0 images in T s: 1 error",
    );
}

#[test]
fn every_clean_document_alone_on_stdin_is_clean() {
    for (name, text) in [
        ("reply", clean_reply_text()),
        ("parts", clean_parts_text()),
        ("null", clean_null_text()),
    ] {
        let run = validate(&["--deep", "--deny-warnings"], &text);
        assert_eq!(
            (run.code, run.stdout.as_str()),
            (0, ""),
            "{name}: {}",
            run.stderr
        );
    }
}

// ---------------------------------------------------------------------------
// Exit codes and the summary

#[test]
fn findings_exit_1_with_the_count_in_the_summary() {
    let input = reply(vec![
        entry("image/png", "tiny.jpg"),
        entry("image/gif", "tiny.png"),
    ]);
    let run = validate(&[], &input);
    assert_run(
        &run,
        1,
        &[
            stdin_error(
                "media-type-mismatch",
                "/tool_output_images/0/image_url",
                "content is image/jpeg, not image/png",
            ),
            stdin_error(
                "media-type-mismatch",
                "/tool_output_images/1/image_url",
                "content is image/png, not image/gif",
            ),
        ],
        "1 document, 2 images in T s: 2 errors",
    );
}

#[test]
fn stdin_is_read_with_dash_and_without_paths() {
    let input = reply(vec![entry("image/png", "tiny.png")]);
    assert_clean(
        &validate(&[], &input),
        "1 document, 1 image in T s: 0 errors",
    );
    assert_clean(
        &validate(&["-"], &input),
        "1 document, 1 image in T s: 0 errors",
    );
}

#[test]
fn missing_path_is_exit_2_and_the_other_paths_are_still_checked() {
    let dir = tempfile::tempdir().unwrap();
    let bad = write(
        dir.path(),
        "bad.json",
        &reply(vec![entry("image/png", "tiny.jpg")]),
    );
    let good = write(
        dir.path(),
        "good.json",
        &reply(vec![entry("image/png", "tiny.png")]),
    );
    let missing = dir.path().join("missing.json");
    let run = validate_paths(&[path_arg(&bad), path_arg(&missing), path_arg(&good)]);
    assert_stderr(
        &run,
        2,
        &[finding(
            path_arg(&bad),
            1,
            "error",
            "media-type-mismatch",
            "/tool_output_images/0/image_url",
            "content is image/jpeg, not image/png",
        )],
        &format!(
            "partkit: error: cannot read {}: No such file or directory (os error 2)\n\
             partkit: checked 2 documents, 2 images in T s: 1 error; 1 path could not be read\n",
            missing.display()
        ),
    );
}

#[test]
fn warnings_alone_exit_0_and_1_with_deny_warnings() {
    let input = json!([image_part("image/jpg", "tiny.jpg")]).to_string();
    let line = finding(
        "<stdin>",
        1,
        "warning",
        "media-type-alias",
        "/0/mimeType",
        "\"image/jpg\" is written \"image/jpeg\" in normalized form",
    );
    let summary = "1 document, 1 image in T s: 0 errors, 1 warning";
    assert_run(
        &validate(&[], &input),
        0,
        std::slice::from_ref(&line),
        summary,
    );
    assert_run(&validate(&["--deny-warnings"], &input), 1, &[line], summary);
}

#[test]
fn quiet_does_not_hide_findings() {
    let input = reply(vec![entry("image/png", "tiny.jpg")]);
    let run = validate(&["--quiet"], &input);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        stdin_error(
            "media-type-mismatch",
            "/tool_output_images/0/image_url",
            "content is image/jpeg, not image/png"
        ) + "\n"
    );
}

// ---------------------------------------------------------------------------
// The rule table

/// The rules before the transcript rules, in `--list-rules` order, each with
/// its test below (`rule_<id>`); the transcript rules follow them.
const MEDIA_RULES: [&str; 26] = [
    "invalid-json",
    "duplicate-key", // tested in hostile/duplicates.rs
    "broken-stream", // tested in validate_recordings.rs
    "at-missing",    // tested in pipelines.rs
    "reply-images-not-list",
    "reply-image-not-object",
    "reply-image-unknown-key",
    "reply-image-url-missing",
    "reply-image-label",
    "reply-image-not-data-url",
    "reply-image-type",
    "part-invalid",
    "base64-invalid",
    "base64-noncanonical",
    "media-empty",
    "media-type-mismatch",
    "media-type-alias",
    "image-header",
    "image-truncated",
    "image-not-decoded", // tested in hostile/images.rs
    "base64-in-text",
    "limit-image-type",
    "limit-bytes",
    "limit-dim",
    "limit-images",
    "limit-total-bytes",
];

/// Every rule, in `--list-rules` order.
fn all_rules() -> Vec<&'static str> {
    [&MEDIA_RULES[..], &TRANSCRIPT_RULES[..]].concat()
}

#[test]
fn list_rules_names_every_rule_this_file_tests() {
    let run = validate(&["--list-rules", "--format", "json"], "");
    assert_eq!((run.code, run.stderr.as_str()), (0, ""));
    let rules = run.json_lines();
    let ids: Vec<&str> = rules.iter().map(|r| r["rule"].as_str().unwrap()).collect();
    assert_eq!(ids, all_rules(), "a new rule needs its test here");
    for rule in &rules {
        let keys: Vec<&str> = rule
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(keys, ["rule", "severity", "fixable", "summary"]);
    }
    let fixable: Vec<&str> = rules
        .iter()
        .filter(|r| r["fixable"] == json!(true))
        .map(|r| r["rule"].as_str().unwrap())
        .collect();
    assert_eq!(
        fixable,
        [
            "reply-image-type",
            "base64-noncanonical",
            "media-type-mismatch",
            "media-type-alias"
        ]
    );
    let warnings: Vec<&str> = rules
        .iter()
        .filter(|r| r["severity"] == json!("warning"))
        .map(|r| r["rule"].as_str().unwrap())
        .collect();
    assert_eq!(
        warnings,
        [
            "duplicate-key",
            "media-type-alias",
            "image-not-decoded",
            "base64-in-text",
            "tool-call-caught"
        ]
    );

    // The text table: one line per rule, in the same order, starting with its id.
    let run = validate(&["--list-rules"], "");
    assert_eq!((run.code, run.stderr.as_str()), (0, ""));
    let firsts: Vec<&str> = run
        .stdout
        .lines()
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(firsts, all_rules());
}

/// One finding on stdin: exit 1 (0 for a warning), exactly this line, and the
/// summary.
fn assert_one(run: &Run, status: &str, rule: &str, pointer: &str, message: &str, images: usize) {
    let (code, counts) = match status {
        "error" => (1, "1 error"),
        _ => (0, "0 errors, 1 warning"),
    };
    let plural = if images == 1 { "" } else { "s" };
    assert_run(
        run,
        code,
        &[finding("<stdin>", 1, status, rule, pointer, message)],
        &format!("1 document, {images} image{plural} in T s: {counts}"),
    );
}

#[test]
fn rule_invalid_json() {
    let run = validate(&[], "{\"tool_output_images\": [1,]}\n");
    assert_one(
        &run,
        "error",
        "invalid-json",
        "",
        "trailing comma at line 1 column 27",
        0,
    );
    // Cut off: the document runs to the end of the input.
    let run = validate(&[], "{\"tool_output_images\": [\n");
    assert_one(
        &run,
        "error",
        "invalid-json",
        "",
        "EOF while parsing a list at line 2 column 0",
        0,
    );
}

#[test]
fn rule_reply_images_not_list() {
    for (value, kind) in [
        ("\"x\"", "a string"),
        ("{}", "an object"),
        ("3", "a number"),
    ] {
        let run = validate(&[], &format!("{{\"tool_output_images\": {value}}}"));
        assert_one(
            &run,
            "error",
            "reply-images-not-list",
            "/tool_output_images",
            &format!("tool_output_images must be a list or null, not {kind}"),
            0,
        );
    }
}

#[test]
fn rule_reply_image_not_object() {
    let run = validate(&[], &reply(vec![json!("data:image/png;base64,AAAA")]));
    assert_one(
        &run,
        "error",
        "reply-image-not-object",
        "/tool_output_images/0",
        "entry must be an object, not a string",
        0,
    );
}

#[test]
fn rule_reply_image_unknown_key() {
    let mut item = entry("image/png", "tiny.png");
    item["detail"] = json!("high");
    let run = validate(&[], &reply(vec![item]));
    assert_one(
        &run,
        "error",
        "reply-image-unknown-key",
        "/tool_output_images/0/detail",
        "unknown key \"detail\" (only image_url and label are allowed)",
        0,
    );
}

#[test]
fn rule_reply_image_url_missing() {
    let run = validate(&[], &reply(vec![json!({"label": "chart"})]));
    assert_one(
        &run,
        "error",
        "reply-image-url-missing",
        "/tool_output_images/0",
        "missing image_url",
        0,
    );
    let run = validate(&[], &reply(vec![json!({"image_url": {"url": "x"}})]));
    assert_one(
        &run,
        "error",
        "reply-image-url-missing",
        "/tool_output_images/0/image_url",
        "image_url must be a string, not an object",
        0,
    );
}

#[test]
fn rule_reply_image_label() {
    let mut item = entry("image/png", "tiny.png");
    item["label"] = json!(7);
    let run = validate(&[], &reply(vec![item]));
    assert_one(
        &run,
        "error",
        "reply-image-label",
        "/tool_output_images/0/label",
        "label must be a string or null, not a number",
        0,
    );
}

#[test]
fn rule_reply_image_not_data_url() {
    for (url, message) in [
        (
            "https://example.com/a.png",
            "image_url is a remote URL; it must be a base64 data: URL",
        ),
        (
            "data:image/png,abc",
            "image_url is a data: URL without ;base64",
        ),
        (
            "data:;base64,AAAA",
            "image_url's data: URL declares no media type",
        ),
        ("/tmp/shot.png", "image_url is not a base64 data: URL"),
    ] {
        let run = validate(&[], &reply(vec![json!({"image_url": url})]));
        assert_one(
            &run,
            "error",
            "reply-image-not-data-url",
            "/tool_output_images/0/image_url",
            message,
            0,
        );
    }
}

#[test]
fn rule_reply_image_type() {
    let run = validate(&[], &reply(vec![entry("image/bmp", "tiny.png")]));
    assert_one(
        &run,
        "error",
        "reply-image-type",
        "/tool_output_images/0/image_url",
        "image/bmp is not allowed (png, jpeg, gif or webp)",
        0,
    );
}

#[test]
fn rule_part_invalid() {
    let png = b64_of("tiny.png");
    let cases = [
        (
            json!([text_part("x"), {"type": "video", "mimeType": "video/mp4", "data": png}, image_part("image/png", "tiny.png")]),
            "/1/type",
            "unknown part type \"video\" (expected text, image, file or audio)",
            1,
        ),
        (
            json!([{"type": "image", "data": png}]),
            "/0",
            "image part has no mimeType",
            0,
        ),
        (
            json!({"type": "image", "mimeType": "image/png", "data": png, "url": "https://example.com/a.png"}),
            "",
            "image part has both data and url",
            0,
        ),
        (
            json!({"type": "file", "mimeType": "application/pdf"}),
            "",
            "file part has neither data nor url",
            0,
        ),
        (
            json!([text_part("x"), {"type": "text", "text": 5}]),
            "/1/text",
            "text must be a string, not a number",
            0,
        ),
        (
            json!({"type": "image", "mimeType": "png", "data": png}),
            "/mimeType",
            "\"png\" is not a media type",
            0,
        ),
    ];
    for (doc, pointer, message, images) in cases {
        let run = validate(&[], &doc.to_string());
        assert_one(&run, "error", "part-invalid", pointer, message, images);
    }
}

#[test]
fn rule_base64_invalid() {
    let run = validate(
        &[],
        &reply(vec![json!({"image_url": "data:image/png;base64,iVBO!!!!"})]),
    );
    assert_one(
        &run,
        "error",
        "base64-invalid",
        "/tool_output_images/0/image_url",
        "invalid base64: character '!' at offset 4",
        1,
    );
    let run = validate(&[], &part("audio", "audio/wav", "UklG R").to_string());
    assert_one(
        &run,
        "error",
        "base64-invalid",
        "/data",
        "invalid base64: character 0x20 at offset 4",
        0,
    );
}

#[test]
fn rule_base64_noncanonical() {
    let jpeg = b64_of("tiny.jpg");
    assert!(jpeg.ends_with('=') && !jpeg.ends_with("=="));
    let unpadded = jpeg.trim_end_matches('=');
    let run = validate(&[], &part("image", "image/jpeg", unpadded).to_string());
    assert_one(
        &run,
        "error",
        "base64-noncanonical",
        "/data",
        &format!(
            "not canonical base64 (unpadded): invalid base64: length {} is not a multiple of 4",
            unpadded.len()
        ),
        1,
    );
    let url_safe = jpeg.replace('+', "-").replace('/', "_");
    let run = validate(
        &[],
        &reply(vec![
            json!({"image_url": format!("data:image/jpeg;base64,{url_safe}")}),
        ]),
    );
    assert_one(
        &run,
        "error",
        "base64-noncanonical",
        "/tool_output_images/0/image_url",
        "not canonical base64 (URL-safe): invalid base64: character '_' at offset 0",
        1,
    );
    let wrapped = wrap(&jpeg, 76);
    let run = validate(&[], &part("image", "image/jpeg", &wrapped).to_string());
    assert_one(
        &run,
        "error",
        "base64-noncanonical",
        "/data",
        "not canonical base64 (line-wrapped): invalid base64: character 0x0a at offset 76",
        1,
    );
}

/// Base64 wrapped at `width` characters with `\n` (MIME style, as `base64` writes).
fn wrap(text: &str, width: usize) -> String {
    text.as_bytes()
        .chunks(width)
        .map(|c| std::str::from_utf8(c).unwrap())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn rule_media_empty() {
    let run = validate(
        &[],
        &reply(vec![json!({"image_url": "data:image/png;base64,"})]),
    );
    assert_one(
        &run,
        "error",
        "media-empty",
        "/tool_output_images/0/image_url",
        "no bytes (a media part must carry bytes)",
        1,
    );
    let run = validate(&[], &part("file", "application/pdf", "").to_string());
    assert_one(
        &run,
        "error",
        "media-empty",
        "/data",
        "no bytes (a media part must carry bytes)",
        0,
    );
}

#[test]
fn rule_media_type_mismatch() {
    let run = validate(
        &[],
        &json!([image_part("image/png", "tiny.jpg")]).to_string(),
    );
    assert_one(
        &run,
        "error",
        "media-type-mismatch",
        "/0/mimeType",
        "content is image/jpeg, not image/png",
        1,
    );
    // A PDF declared as WAV audio, and bytes that are no known type.
    let run = validate(
        &[],
        &part("audio", "audio/wav", &b64_of("doc.pdf")).to_string(),
    );
    assert_one(
        &run,
        "error",
        "media-type-mismatch",
        "/mimeType",
        "content is application/pdf, not audio/wav",
        0,
    );
    let run = validate(
        &[],
        &reply(vec![entry_bytes("image/webp", b"plain words, no image")]),
    );
    assert_one(
        &run,
        "error",
        "media-type-mismatch",
        "/tool_output_images/0/image_url",
        "content is not image/webp (no known type matches its first bytes)",
        1,
    );
}

#[test]
fn rule_media_type_alias() {
    let run = validate(
        &[],
        &part("image", "IMAGE/PNG", &b64_of("tiny.png")).to_string(),
    );
    assert_one(
        &run,
        "warning",
        "media-type-alias",
        "/mimeType",
        "\"IMAGE/PNG\" is written \"image/png\" in normalized form",
        1,
    );
    let run = validate(
        &[],
        &part("audio", "audio/x-wav", &b64_of("tone.wav")).to_string(),
    );
    assert_one(
        &run,
        "warning",
        "media-type-alias",
        "/mimeType",
        "\"audio/x-wav\" is written \"audio/wav\" in normalized form",
        0,
    );
}

#[test]
fn rule_image_header() {
    let head = &bytes("tiny.png")[..16];
    let run = validate(&[], &reply(vec![entry_bytes("image/png", head)]));
    assert_one(
        &run,
        "error",
        "image-header",
        "/tool_output_images/0/image_url",
        "image header does not parse: unexpected end of file",
        1,
    );
}

/// tiny.png without its last 11 bytes (most of the IEND chunk).
fn truncated_png() -> Vec<u8> {
    let png = bytes("tiny.png");
    png[..png.len() - 11].to_vec()
}

#[test]
fn rule_image_truncated() {
    let input = reply(vec![entry_bytes("image/png", &truncated_png())]);
    let run = validate(&["--deep"], &input);
    assert_one(
        &run,
        "error",
        "image-truncated",
        "/tool_output_images/0/image_url",
        "image does not decode: unexpected end of file",
        1,
    );
}

#[test]
fn rule_base64_in_text() {
    let url = data_url("image/png", &bytes("tiny.png"));
    let message = format!(
        "text holds a base64 data: URL (image/png, {} characters): the model reads it as text, not as media",
        b64_of("tiny.png").len()
    );
    // Pasted into a field of a reply (nested), beside a real image.
    let input = json!({
        "result": {"notes": ["see", format!("here: {url} (the chart)")]},
        "tool_output_images": [entry("image/gif", "tiny.gif")],
    })
    .to_string();
    let run = validate(&[], &input);
    assert_one(
        &run,
        "warning",
        "base64-in-text",
        "/result/notes/1",
        &message,
        1,
    );
    // Pasted into a text part.
    let input = json!([
        text_part(&format!("look {url}")),
        image_part("image/png", "tiny.png")
    ])
    .to_string();
    let run = validate(&[], &input);
    assert_one(&run, "warning", "base64-in-text", "/0/text", &message, 1);
    // A reply with no images at all still has its text checked.
    let input = json!({"out": url, "tool_output_images": null}).to_string();
    let run = validate(&[], &input);
    assert_one(&run, "warning", "base64-in-text", "/out", &message, 0);
    // A short data URL or a plain mention of data: is no finding.
    let input =
        json!({"a": "data:image/png;base64,AAAA", "b": "data: none", "tool_output_images": []})
            .to_string();
    assert_clean(
        &validate(&["--deny-warnings"], &input),
        "1 document, 0 images in T s: 0 errors",
    );
}

#[test]
fn rule_limit_image_type() {
    // Gemini takes no GIF; a GIF beside a PNG is one finding.
    let input = reply(vec![
        entry("image/png", "tiny.png"),
        entry("image/gif", "tiny.gif"),
    ]);
    let run = validate(&["--profile", "gemini"], &input);
    assert_one(
        &run,
        "error",
        "limit-image-type",
        "/tool_output_images/1/image_url",
        "image/gif is not accepted by the gemini profile (png, jpeg, webp, heic, heif)",
        2,
    );
    // OpenAI takes still GIFs only.
    let input = reply(vec![
        entry("image/gif", "tiny.gif"),
        entry_bytes("image/gif", &animated_gif()),
    ]);
    let run = validate(&["--profile", "openai"], &input);
    assert_one(
        &run,
        "error",
        "limit-image-type",
        "/tool_output_images/1/image_url",
        "an animated GIF is not accepted by the openai profile (still GIFs only)",
        2,
    );
    // Other profiles take the animated GIF.
    let input = reply(vec![entry_bytes("image/gif", &animated_gif())]);
    for profile in ["default", "anthropic", "bedrock"] {
        let run = validate(&["--profile", profile], &input);
        assert_clean(&run, "1 document, 1 image in T s: 0 errors");
    }
}

#[test]
fn rule_limit_bytes() {
    // tiny.png is 91 bytes: exactly the limit passes, one byte less fails.
    let input = json!([
        image_part("image/png", "tiny.png"),
        part("audio", "audio/wav", &b64_of("tone.wav"))
    ])
    .to_string();
    assert_clean(
        &validate(&["--max-bytes", "444"], &input),
        "1 document, 1 image in T s: 0 errors",
    );
    let run = validate(&["--max-bytes", "443"], &input);
    assert_one(
        &run,
        "error",
        "limit-bytes",
        "/1/data",
        "444 bytes, over --max-bytes (443 bytes)",
        1,
    );
    let input = reply(vec![entry("image/png", "tiny.png")]);
    assert_clean(
        &validate(&["--max-bytes", "91"], &input),
        "1 document, 1 image in T s: 0 errors",
    );
    let run = validate(&["--max-bytes", "90"], &input);
    assert_one(
        &run,
        "error",
        "limit-bytes",
        "/tool_output_images/0/image_url",
        "91 bytes, over --max-bytes (90 bytes)",
        1,
    );
    // Sizes take units (docs/conventions.md).
    let run = validate(&["--max-bytes", "1KiB"], &input);
    assert_clean(&run, "1 document, 1 image in T s: 0 errors");
}

#[test]
fn rule_limit_bytes_from_profiles_at_their_exact_caps() {
    // Bedrock: 3,932,160 decoded bytes. Anthropic: 5,242,880 base64 characters,
    // which is 3,932,160 decoded bytes too.
    let at_cap = png_of_len(3_932_160);
    let over = png_of_len(3_932_161);
    let input = reply(vec![entry_bytes("image/png", &at_cap)]);
    for profile in ["bedrock", "anthropic"] {
        let run = validate(&["--profile", profile], &input);
        assert_clean(&run, "1 document, 1 image in T s: 0 errors");
    }
    let input = reply(vec![entry_bytes("image/png", &over)]);
    assert_one(
        &validate(&["--profile", "bedrock"], &input),
        "error",
        "limit-bytes",
        "/tool_output_images/0/image_url",
        "3,932,161 bytes, over the bedrock profile's 3,932,160 bytes per image",
        1,
    );
    assert_one(
        &validate(&["--profile", "anthropic"], &input),
        "error",
        "limit-bytes",
        "/tool_output_images/0/image_url",
        "5,242,884 base64 characters, over the anthropic profile's 5,242,880 per image",
        1,
    );
    // The default profile's cap is 5,000,000 decoded bytes.
    let input = reply(vec![entry_bytes("image/png", &png_of_len(5_000_001))]);
    assert_one(
        &validate(&["--profile", "default"], &input),
        "error",
        "limit-bytes",
        "/tool_output_images/0/image_url",
        "5,000,001 bytes, over the default profile's 5,000,000 bytes per image",
        1,
    );
}

#[test]
fn rule_limit_dim() {
    // The fixtures are 4×3.
    let input = reply(
        IMAGES
            .iter()
            .map(|(name, mime)| entry(mime, name))
            .collect(),
    );
    assert_clean(
        &validate(&["--max-dim", "4"], &input),
        "1 document, 4 images in T s: 0 errors",
    );
    let run = validate(&["--max-dim", "3"], &input);
    let lines: Vec<String> = (0..4)
        .map(|i| {
            stdin_error(
                "limit-dim",
                &format!("/tool_output_images/{i}/image_url"),
                "4x3 px, over 3 px on its longest side",
            )
        })
        .collect();
    assert_run(&run, 1, &lines, "1 document, 4 images in T s: 4 errors");
    // A profile's longest side: 8000 px for Bedrock and Anthropic.
    let wide = encoded(8001, 1, image::ImageFormat::Png);
    let input = reply(vec![entry_bytes("image/png", &wide)]);
    for profile in ["bedrock", "anthropic"] {
        assert_one(
            &validate(&["--profile", profile], &input),
            "error",
            "limit-dim",
            "/tool_output_images/0/image_url",
            "8001x1 px, over 8000 px on its longest side",
            1,
        );
    }
    assert_clean(
        &validate(&["--profile", "openai"], &input),
        "1 document, 1 image in T s: 0 errors",
    );
}

#[test]
fn rule_limit_dim_anthropic_past_20_images() {
    let wide = encoded(2001, 1, image::ImageFormat::Png);
    let mut entries = vec![entry_bytes("image/png", &wide)];
    entries.extend((0..19).map(|_| entry("image/jpeg", "tiny.jpg")));
    // 20 images: 2001 px is fine.
    let run = validate(&["--profile", "anthropic"], &reply(entries.clone()));
    assert_clean(&run, "1 document, 20 images in T s: 0 errors");
    // 21 images: at most 2000 px per side.
    entries.push(entry("image/webp", "tiny.webp"));
    let run = validate(&["--profile", "anthropic"], &reply(entries.clone()));
    assert_one(
        &run,
        "error",
        "limit-dim",
        "/tool_output_images/0/image_url",
        "2001x1 px, over 2000 px on its longest side, the anthropic limit once a document holds more than 20 images (21)",
        21,
    );
    // Exactly 2000 px passes with 21 images.
    entries[0] = entry_bytes("image/png", &encoded(1, 2000, image::ImageFormat::Png));
    let run = validate(&["--profile", "anthropic"], &reply(entries));
    assert_clean(&run, "1 document, 21 images in T s: 0 errors");
}

#[test]
fn rule_limit_images() {
    let input = reply(
        IMAGES
            .iter()
            .map(|(name, mime)| entry(mime, name))
            .collect(),
    );
    assert_clean(
        &validate(&["--max-images", "4"], &input),
        "1 document, 4 images in T s: 0 errors",
    );
    assert_one(
        &validate(&["--max-images", "3"], &input),
        "error",
        "limit-images",
        "",
        "4 images, more than the 3 allowed",
        4,
    );
    // Bedrock: at most 20 images.
    let twenty: Vec<Value> = (0..20).map(|_| entry("image/png", "tiny.png")).collect();
    assert_clean(
        &validate(&["--profile", "bedrock"], &reply(twenty.clone())),
        "1 document, 20 images in T s: 0 errors",
    );
    let mut twenty_one = twenty;
    twenty_one.push(entry("image/png", "tiny.png"));
    assert_one(
        &validate(&["--profile", "bedrock"], &reply(twenty_one)),
        "error",
        "limit-images",
        "",
        "21 images, more than the 20 allowed",
        21,
    );
    // In canonical parts only images count, not text, files or audio.
    let input = json!([
        text_part("a"),
        image_part("image/png", "tiny.png"),
        part("file", "application/pdf", &b64_of("doc.pdf")),
        part("audio", "audio/wav", &b64_of("tone.wav")),
    ])
    .to_string();
    assert_clean(
        &validate(&["--max-images", "1"], &input),
        "1 document, 1 image in T s: 0 errors",
    );
}

#[test]
fn rule_limit_images_counts_image_url_parts() {
    // A URL image is an image the provider receives: it counts toward the limit.
    let url_image =
        json!({"type": "image", "mimeType": "image/png", "url": "https://example.com/a.png"});
    let input = json!([image_part("image/png", "tiny.png"), url_image]).to_string();
    assert_one(
        &validate(&["--max-images", "1"], &input),
        "error",
        "limit-images",
        "",
        "2 images, more than the 1 allowed",
        1,
    );
}

#[test]
fn rule_limit_total_bytes() {
    // OpenAI: 50,000,000 bytes of images per document, 20,000,000 per image.
    let image = png_of_len(16_700_000);
    let entries: Vec<Value> = (0..3).map(|_| entry_bytes("image/png", &image)).collect();
    let (_dir, file) = temp_file("big.json", reply(entries).as_bytes());
    let run = validate_paths(&[path_arg(&file), "--profile", "openai"]);
    assert_run(
        &run,
        1,
        &[finding(
            path_arg(&file),
            1,
            "error",
            "limit-total-bytes",
            "",
            "50,100,000 bytes of images, over the openai profile's 50,000,000 per document",
        )],
        "1 document, 3 images in T s: 1 error",
    );
    // Anthropic's profile has no total, only a per-image cap (ignored here).
    let run = validate_paths(&[
        path_arg(&file),
        "--profile",
        "anthropic",
        "--ignore",
        "limit-bytes",
    ]);
    assert_clean(&run, "1 document, 3 images in T s: 0 errors");
}

// ---------------------------------------------------------------------------
// One finding per broken image

#[test]
fn one_broken_image_is_one_finding_its_first_failing_rule() {
    let limits = ["--max-bytes", "1", "--max-dim", "1", "--profile", "gemini"];
    // Mismatch (a GIF declared PNG) beats the limits it also breaks.
    let input = reply(vec![entry("image/png", "tiny.gif")]);
    assert_one(
        &validate(&limits, &input),
        "error",
        "media-type-mismatch",
        "/tool_output_images/0/image_url",
        "content is image/gif, not image/png",
        1,
    );
    // Non-canonical base64 beats the mismatch behind it.
    let unpadded = b64_of("tiny.jpg").trim_end_matches('=').to_string();
    let input = json!([part("image", "image/png", &unpadded)]).to_string();
    assert_one(
        &validate(&limits, &input),
        "error",
        "base64-noncanonical",
        "/0/data",
        &format!(
            "not canonical base64 (unpadded): invalid base64: length {} is not a multiple of 4",
            unpadded.len()
        ),
        1,
    );
    // A broken header beats the limits, and --deep adds nothing.
    let head = &bytes("tiny.png")[..16];
    let input = reply(vec![entry_bytes("image/png", head)]);
    let mut deep = limits.to_vec();
    deep.push("--deep");
    assert_one(
        &validate(&deep, &input),
        "error",
        "image-header",
        "/tool_output_images/0/image_url",
        "image header does not parse: unexpected end of file",
        1,
    );
    // The first limit only: --max-bytes before --max-dim.
    let input = reply(vec![entry("image/png", "tiny.png")]);
    assert_one(
        &validate(&["--max-bytes", "1", "--max-dim", "1"], &input),
        "error",
        "limit-bytes",
        "/tool_output_images/0/image_url",
        "91 bytes, over --max-bytes (1 bytes)",
        1,
    );
    // A broken image and a good one: one finding.
    let input = reply(vec![
        entry("image/png", "tiny.png"),
        entry("image/webp", "tiny.jpg"),
    ]);
    assert_one(
        &validate(&[], &input),
        "error",
        "media-type-mismatch",
        "/tool_output_images/1/image_url",
        "content is image/jpeg, not image/webp",
        2,
    );
}

#[test]
fn a_bad_entry_does_not_hide_the_entries_after_it() {
    let input = reply(vec![
        json!({"image_url": "https://example.com/a.png"}),
        entry("image/png", "tiny.jpg"),
        json!(null),
    ]);
    let run = validate(&[], &input);
    assert_run(
        &run,
        1,
        &[
            stdin_error(
                "reply-image-not-data-url",
                "/tool_output_images/0/image_url",
                "image_url is a remote URL; it must be a base64 data: URL",
            ),
            stdin_error(
                "media-type-mismatch",
                "/tool_output_images/1/image_url",
                "content is image/jpeg, not image/png",
            ),
            stdin_error(
                "reply-image-not-object",
                "/tool_output_images/2",
                "entry must be an object, not null",
            ),
        ],
        "1 document, 1 image in T s: 3 errors",
    );
}

// ---------------------------------------------------------------------------
// JSON Lines

#[test]
fn json_lines_findings_carry_their_line_numbers_blank_lines_counted() {
    let good = reply(vec![entry("image/png", "tiny.png")]);
    let bad = reply(vec![entry("image/png", "tiny.jpg")]);
    let warn = json!({"note": data_url("image/gif", &bytes("tiny.gif")), "tool_output_images": []})
        .to_string();
    let text = format!("{good}\n\n{bad}\n{{\"tool_output_images\": [\n   \n{warn}\n{good}\n\n");
    let (_dir, file) = temp_file("replies.jsonl", text.as_bytes());
    let path = path_arg(&file);
    let run = validate_paths(&[path]);
    assert_run(
        &run,
        1,
        &[
            finding(
                path,
                3,
                "error",
                "media-type-mismatch",
                "/tool_output_images/0/image_url",
                "content is image/jpeg, not image/png",
            ),
            finding(path, 4, "error", "invalid-json", "", "EOF while parsing a list at line 1 column 24"),
            finding(
                path,
                6,
                "warning",
                "base64-in-text",
                "/note",
                &format!(
                    "text holds a base64 data: URL (image/gif, {} characters): the model reads it as text, not as media",
                    b64_of("tiny.gif").len()
                ),
            ),
        ],
        "5 documents, 3 images in T s: 2 errors, 1 warning",
    );
}

#[test]
fn json_lines_on_stdin_and_with_crlf() {
    let good = reply(vec![entry("image/png", "tiny.png")]);
    let bad = reply(vec![entry("image/gif", "tiny.webp")]);
    let run = validate(&[], &format!("{good}\r\n{good}\r\n\r\n{bad}\r\n"));
    assert_run(
        &run,
        1,
        &[finding(
            "<stdin>",
            4,
            "error",
            "media-type-mismatch",
            "/tool_output_images/0/image_url",
            "content is image/webp, not image/gif",
        )],
        "3 documents, 3 images in T s: 1 error",
    );
}

#[test]
fn jsonl_flag_reads_one_line_as_json_lines() {
    let bad = reply(vec![entry("image/gif", "tiny.webp")]);
    let run = validate(&["--jsonl"], &format!("\n{bad}\n"));
    assert_run(
        &run,
        1,
        &[finding(
            "<stdin>",
            2,
            "error",
            "media-type-mismatch",
            "/tool_output_images/0/image_url",
            "content is image/webp, not image/gif",
        )],
        "1 document, 1 image in T s: 1 error",
    );
    // A pretty-printed document read as JSON Lines is broken on every line.
    let run = validate(&["--jsonl"], "{\n\"tool_output_images\": null\n}\n");
    assert_eq!(run.code, 1, "{}", run.stderr);
    let lines: Vec<usize> = run
        .stdout
        .lines()
        .map(|l| l.split(':').nth(1).unwrap().parse().unwrap())
        .collect();
    assert_eq!(lines, [1, 2, 3]);
}

#[test]
fn a_document_over_several_lines_starts_on_its_first_non_blank_line() {
    let text = format!(
        "\n\n{{\n  \"tool_output_images\": [\n    {}\n  ]\n}}\n",
        entry("image/png", "tiny.jpg")
    );
    let run = validate(&[], &text);
    assert_run(
        &run,
        1,
        &[finding(
            "<stdin>",
            3,
            "error",
            "media-type-mismatch",
            "/tool_output_images/0/image_url",
            "content is image/jpeg, not image/png",
        )],
        "1 document, 1 image in T s: 1 error",
    );
}

// ---------------------------------------------------------------------------
// Kinds: recognized, skipped, forced

#[test]
fn documents_of_no_kind_are_skipped_not_failed() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "config.json",
        "{\"name\": \"fixtures\", \"version\": 3}\n",
    );
    write(dir.path(), "list.json", "[1, 2, 3]\n");
    write(
        dir.path(),
        "chat.json",
        "[{\"role\": \"user\", \"content\": \"hi\"}]\n",
    );
    write(
        dir.path(),
        "openai.json",
        "[{\"type\": \"text\", \"text\": \"x\"}, {\"type\": \"image_url\", \"image_url\": {\"url\": \"https://x/a.png\"}}]\n",
    );
    write(
        dir.path(),
        "mixed.jsonl",
        &format!(
            "\"a string\"\n{}\nnull\n",
            reply(vec![entry("image/png", "tiny.png")])
        ),
    );
    write(
        dir.path(),
        "reply.json",
        &reply(vec![entry("image/png", "tiny.png")]),
    );
    let run = validate_paths(&[path_arg(dir.path())]);
    assert_clean(
        &run,
        // chat.json is an OpenAI Chat transcript: checked, not skipped.
        "3 documents, 2 images in T s: 0 errors; 5 documents skipped (not a tool reply, canonical parts or a transcript)",
    );
    let run = validate(&[], "{\"a\": 1}");
    assert_clean(
        &run,
        "0 documents, 0 images in T s: 0 errors; 1 document skipped (not a tool reply, canonical parts or a transcript)",
    );
}

#[test]
fn provider_content_blocks_are_skipped_not_read_as_broken_parts() {
    // An Anthropic message content list and an OpenAI Chat file part use canonical
    // type names with other keys: they are not canonical parts.
    let png = b64_of("tiny.png");
    let anthropic = json!([
        {"type": "text", "text": "What is this?"},
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": png}},
    ])
    .to_string();
    let skipped = "0 documents, 0 images in T s: 0 errors; 1 document skipped (not a tool reply, canonical parts or a transcript)";
    assert_clean(&validate(&[], &anthropic), skipped);
    let block =
        json!({"type": "image", "source": {"type": "url", "url": "https://x/a.png"}}).to_string();
    assert_clean(&validate(&[], &block), skipped);
    let openai = json!([
        {"type": "text", "text": "Summarize"},
        {"type": "file", "file": {"filename": "doc.pdf", "file_data": data_url("application/pdf", &bytes("doc.pdf"))}},
    ])
    .to_string();
    assert_clean(&validate(&[], &openai), skipped);
    // Forced, they are checked as parts (and fail).
    let run = validate(&["--kind", "parts"], &block);
    assert_one(
        &run,
        "error",
        "part-invalid",
        "",
        "image part has no mimeType",
        0,
    );
}

#[test]
fn kind_forces_how_documents_are_read() {
    let run = validate(&["--kind", "parts"], "{\"a\": 1}");
    assert_one(&run, "error", "part-invalid", "", "missing type", 0);
    let run = validate(&["--kind", "parts"], "[1]");
    assert_one(
        &run,
        "error",
        "part-invalid",
        "/0",
        "a part must be an object, not a number",
        0,
    );
    // A reply without tool_output_images is a reply without images.
    let run = validate(&["--kind", "reply"], "{\"a\": 1}");
    assert_clean(&run, "1 document, 0 images in T s: 0 errors");
    // Parts read as a reply: their images are not ToolOutputImages, only text.
    let run = validate(
        &["--kind", "reply"],
        &json!([image_part("image/png", "tiny.jpg")]).to_string(),
    );
    assert_clean(&run, "1 document, 0 images in T s: 0 errors");
    // A reply read as parts is no part.
    let run = validate(
        &["--kind", "parts"],
        &reply(vec![entry("image/png", "tiny.png")]),
    );
    assert_one(&run, "error", "part-invalid", "", "missing type", 0);
}

#[test]
fn a_single_part_object_is_canonical_parts() {
    let run = validate(&[], &image_part("image/gif", "tiny.png").to_string());
    assert_one(
        &run,
        "error",
        "media-type-mismatch",
        "/mimeType",
        "content is image/png, not image/gif",
        1,
    );
}

// ---------------------------------------------------------------------------
// --format json

#[test]
fn format_json_objects_have_exactly_the_six_keys() {
    let input = format!(
        "{}\n{}\n",
        reply(vec![entry("image/png", "tiny.jpg")]),
        json!({"t": data_url("image/png", &bytes("tiny.png")), "tool_output_images": [{"image_url": 1}]})
    );
    let run = validate(&["--format", "json"], &input);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        masked(&run.stderr),
        "partkit: checked 2 documents, 1 image in T s: 2 errors, 1 warning\n"
    );
    let findings = run.json_lines();
    for finding in &findings {
        let keys: Vec<&str> = finding
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            keys,
            ["path", "line", "severity", "rule", "pointer", "message"]
        );
    }
    assert_eq!(
        findings,
        [
            json!({"path": "<stdin>", "line": 1, "severity": "error", "rule": "media-type-mismatch",
                   "pointer": "/tool_output_images/0/image_url", "message": "content is image/jpeg, not image/png"}),
            json!({"path": "<stdin>", "line": 2, "severity": "warning", "rule": "base64-in-text", "pointer": "/t",
                   "message": format!("text holds a base64 data: URL (image/png, {} characters): the model reads it as text, not as media", b64_of("tiny.png").len())}),
            json!({"path": "<stdin>", "line": 2, "severity": "error", "rule": "reply-image-url-missing",
                   "pointer": "/tool_output_images/0/image_url", "message": "image_url must be a string, not a number"}),
        ]
    );
    // A document-level finding has the empty pointer (the whole document).
    let input = reply(vec![
        entry("image/png", "tiny.png"),
        entry("image/png", "tiny.png"),
    ]);
    let run = validate(&["--format", "json", "--max-images", "1"], &input);
    assert_eq!(
        run.json_lines(),
        [
            json!({"path": "<stdin>", "line": 1, "severity": "error", "rule": "limit-images",
                "pointer": "", "message": "2 images, more than the 1 allowed"})
        ]
    );
    // Nothing found: nothing on stdout.
    let run = validate(&["--format", "json"], &reply(vec![]));
    assert_clean(&run, "1 document, 0 images in T s: 0 errors");
}

#[test]
fn format_json_fixed_findings_have_severity_fixed() {
    let (_dir, file) = temp_file(
        "a.json",
        json!([image_part("image/png", "tiny.jpg")])
            .to_string()
            .as_bytes(),
    );
    let run = validate_paths(&[path_arg(&file), "--fix", "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.json_lines(),
        [
            json!({"path": path_arg(&file), "line": 1, "severity": "fixed", "rule": "media-type-mismatch",
                "pointer": "/0/mimeType", "message": "content is image/jpeg, not image/png"})
        ]
    );
}

// ---------------------------------------------------------------------------
// --ignore

#[test]
fn ignore_turns_a_rule_off() {
    let input = reply(vec![
        entry("image/png", "tiny.jpg"),
        entry("image/jpg", "tiny.jpg"),
        json!({"image_url": "https://example.com/a.png"}),
    ]);
    let run = validate(&["--ignore", "media-type-mismatch"], &input);
    assert_run(
        &run,
        1,
        &[
            stdin_error(
                "reply-image-type",
                "/tool_output_images/1/image_url",
                "\"image/jpg\" is not one of the exact types NeMo Gym takes; write \"image/jpeg\"",
            ),
            stdin_error(
                "reply-image-not-data-url",
                "/tool_output_images/2/image_url",
                "image_url is a remote URL; it must be a base64 data: URL",
            ),
        ],
        "1 document, 2 images in T s: 2 errors",
    );
    let run = validate(
        &[
            "--ignore",
            "media-type-mismatch",
            "--ignore",
            "reply-image-not-data-url",
            "--ignore=reply-image-type",
            "--deny-warnings",
        ],
        &input,
    );
    assert_clean(&run, "1 document, 2 images in T s: 0 errors");
}

#[test]
fn ignore_of_an_unknown_rule_is_exit_2() {
    let run = validate(&["--ignore", "no-such-rule"], &reply(vec![]));
    run.assert_error(2, &["--ignore no-such-rule: no such rule"]);
    assert_eq!(
        run.stderr,
        "partkit: error: --ignore no-such-rule: no such rule (see partkit validate --list-rules)\n"
    );
}

// ---------------------------------------------------------------------------
// --deep

#[test]
fn deep_catches_a_truncated_png_that_the_header_check_passes() {
    // docs/commands/validate.md: without --deep only magic bytes and the header are checked, so an
    // image cut short after its header passes; --deep decodes it in full.
    let truncated = truncated_png();
    let input = json!([
        image_part("image/png", "tiny.png"),
        part("image", "image/png", &b64(&truncated))
    ])
    .to_string();
    assert_clean(
        &validate(&[], &input),
        "1 document, 2 images in T s: 0 errors",
    );
    assert_one(
        &validate(&["--deep"], &input),
        "error",
        "image-truncated",
        "/1/data",
        "image does not decode: unexpected end of file",
        2,
    );
    // Cut into the pixel data too.
    let png = bytes("tiny.png");
    let cut = part("image", "image/png", &b64(&png[..png.len() - 30])).to_string();
    assert_clean(&validate(&[], &cut), "1 document, 1 image in T s: 0 errors");
    assert_one(
        &validate(&["--deep"], &cut),
        "error",
        "image-truncated",
        "/data",
        "image does not decode: unexpected end of file",
        1,
    );
}

#[test]
fn deep_catches_truncated_jpeg_gif_and_webp() {
    // The JPEG decoder fills in a scan that stops short; --deep also walks the
    // JPEG's segments to its end-of-image marker.
    let jpeg_cut = "the JPEG data ends before its end-of-image marker";
    for (name, mime, cut, why) in [
        ("tiny.jpg", "image/jpeg", 2, jpeg_cut),
        ("tiny.jpg", "image/jpeg", 100, jpeg_cut),
        (
            "tiny.gif",
            "image/gif",
            10,
            "Format error decoding Gif: Unexpected End of File",
        ),
        (
            "tiny.webp",
            "image/webp",
            5,
            "Format error decoding WebP: Corrupt bitstream",
        ),
    ] {
        let image = bytes(name);
        let input = reply(vec![entry_bytes(mime, &image[..image.len() - cut])]);
        assert_clean(
            &validate(&[], &input),
            "1 document, 1 image in T s: 0 errors",
        );
        assert_one(
            &validate(&["--deep"], &input),
            "error",
            "image-truncated",
            "/tool_output_images/0/image_url",
            &format!("image does not decode: {why}"),
            1,
        );
    }
    // Bytes after a JPEG's end-of-image marker are not a truncation.
    let mut trailing = bytes("tiny.jpg");
    trailing.extend_from_slice(&[0xFF, 0xDA, 0, 8, 1, 2, 3]);
    let input = reply(vec![entry_bytes("image/jpeg", &trailing)]);
    assert_clean(
        &validate(&["--deep"], &input),
        "1 document, 1 image in T s: 0 errors",
    );
    // The whole images decode.
    let input = reply(
        IMAGES
            .iter()
            .map(|(name, mime)| entry(mime, name))
            .collect(),
    );
    assert_clean(
        &validate(&["--deep"], &input),
        "1 document, 4 images in T s: 0 errors",
    );
    // So do images written by the image crate.
    let made = reply(vec![
        entry_bytes("image/jpeg", &encoded(40, 30, image::ImageFormat::Jpeg)),
        entry_bytes("image/png", &encoded(40, 30, image::ImageFormat::Png)),
        entry_bytes("image/gif", &animated_gif()),
    ]);
    assert_clean(
        &validate(&["--deep"], &made),
        "1 document, 3 images in T s: 0 errors",
    );
}

#[test]
fn messages_are_one_line() {
    // The JPEG decoder's errors end with a line break; findings stay on one line.
    let jpeg = bytes("tiny.jpg");
    let input = reply(vec![entry_bytes("image/jpeg", &jpeg[..jpeg.len() - 300])]);
    for args in [&[][..], &["--deep"][..]] {
        let run = validate(args, &input);
        assert_eq!(run.code, 1, "{}", run.stderr);
        assert_eq!(run.stdout.lines().count(), 1, "{}", run.stdout);
        assert!(!run.stdout.contains("\\n"), "{}", run.stdout);
        let run = validate(&[args, &["--format", "json"][..]].concat(), &input);
        let message = run.json_lines()[0]["message"].as_str().unwrap().to_string();
        assert_eq!(message.trim_end(), message, "{message:?}");
        assert!(!message.contains('\n'), "{message:?}");
    }
}

// ---------------------------------------------------------------------------
// --fix

/// A pretty-printed parts list with unusual spacing, CRLF line ends, keys in an
/// unusual order, and numbers that must keep their spelling.
fn odd_parts(mime: &str, data: &str) -> String {
    format!(
        "[\r\n\t{{ \"name\" :\"shot.png\",  \"data\":  \"{data}\" ,\"mimeType\" :   \"{mime}\",\"type\":\"image\" , \"x\": 1.0 }} ,\r\n   {{\"type\" : \"text\", \"text\":\"caf\\u00e9 \\\"q\\\"\", \"n\": 12345678901234567890123}}\r\n]\r\n"
    )
}

/// A pretty-printed reply with unusual spacing and order.
fn odd_reply(url: &str) -> String {
    format!(
        "{{\n    \"zeta\" :  1.0,\n  \"tool_output_images\" : [ {{ \"label\":\"x\" ,  \"image_url\" : \"{url}\" }} ] ,\"a\":12345678901234567890123\n}}\n"
    )
}

#[test]
fn fix_retypes_a_mislabeled_image_in_a_parts_file_keeping_every_other_byte() {
    let jpeg = b64_of("tiny.jpg");
    let before = odd_parts("image/png", &jpeg);
    let (_dir, file) = temp_file("parts.json", before.as_bytes());
    let run = validate_paths(&["--fix", path_arg(&file)]);
    assert_run(
        &run,
        0,
        &[finding(
            path_arg(&file),
            1,
            "fixed",
            "media-type-mismatch",
            "/0/mimeType",
            "content is image/jpeg, not image/png",
        )],
        "1 document, 1 image in T s: 0 errors, 1 fixed",
    );
    assert_eq!(
        fs::read_to_string(&file).unwrap(),
        odd_parts("image/jpeg", &jpeg)
    );
    let run = validate_paths(&[path_arg(&file), "--deny-warnings", "--deep"]);
    assert_clean(&run, "1 document, 1 image in T s: 0 errors");
}

#[test]
fn fix_retypes_a_mislabeled_image_in_a_reply_keeping_every_other_byte() {
    let jpeg = b64_of("tiny.jpg");
    let before = odd_reply(&format!("data:image/png;base64,{jpeg}"));
    let (_dir, file) = temp_file("reply.json", before.as_bytes());
    let run = validate_paths(&["--fix", path_arg(&file)]);
    assert_run(
        &run,
        0,
        &[finding(
            path_arg(&file),
            1,
            "fixed",
            "media-type-mismatch",
            "/tool_output_images/0/image_url",
            "content is image/jpeg, not image/png",
        )],
        "1 document, 1 image in T s: 0 errors, 1 fixed",
    );
    let after = fs::read_to_string(&file).unwrap();
    assert_eq!(after, odd_reply(&format!("data:image/jpeg;base64,{jpeg}")));
    // Only the declared type changed: the first difference is inside it.
    let prefix = before
        .bytes()
        .zip(after.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    assert_eq!(&before[..prefix], &after[..prefix]);
    assert!(before[..prefix].ends_with("data:image/"));
    assert_eq!(after.len(), before.len() + 1);
    assert_clean(
        &validate_paths(&[path_arg(&file), "--deny-warnings"]),
        "1 document, 1 image in T s: 0 errors",
    );
}

#[test]
fn fix_normalizes_media_type_aliases() {
    // In a tool reply an alias is NeMo Gym's refusal (an error); --fix mends it there too.
    let jpeg = b64_of("tiny.jpg");
    let (_dir, file) = temp_file(
        "reply.json",
        odd_reply(&format!("data:image/jpg;base64,{jpeg}")).as_bytes(),
    );
    let run = validate_paths(&["--fix", path_arg(&file)]);
    assert_run(
        &run,
        0,
        &[finding(
            path_arg(&file),
            1,
            "fixed",
            "reply-image-type",
            "/tool_output_images/0/image_url",
            "\"image/jpg\" is not one of the exact types NeMo Gym takes; write \"image/jpeg\"",
        )],
        "1 document, 1 image in T s: 0 errors, 1 fixed",
    );
    assert_eq!(
        fs::read_to_string(&file).unwrap(),
        odd_reply(&format!("data:image/jpeg;base64,{jpeg}"))
    );
    assert_clean(
        &validate_paths(&[path_arg(&file), "--deny-warnings"]),
        "1 document, 1 image in T s: 0 errors",
    );

    let wav = b64_of("tone.wav");
    let (_dir, file) = temp_file(
        "parts.json",
        odd_parts("audio/x-wav", &wav)
            .replace("\"image\"", "\"audio\"")
            .as_bytes(),
    );
    let run = validate_paths(&["--fix", path_arg(&file)]);
    assert_run(
        &run,
        0,
        &[finding(
            path_arg(&file),
            1,
            "fixed",
            "media-type-alias",
            "/0/mimeType",
            "\"audio/x-wav\" is written \"audio/wav\" in normalized form",
        )],
        "1 document, 0 images in T s: 0 errors, 1 fixed",
    );
    assert_eq!(
        fs::read_to_string(&file).unwrap(),
        odd_parts("audio/wav", &wav).replace("\"image\"", "\"audio\"")
    );
}

#[test]
fn fix_reencodes_url_safe_unpadded_and_line_wrapped_base64() {
    let jpeg = b64_of("tiny.jpg");
    let url_safe = jpeg.replace('+', "-").replace('/', "_");
    let unpadded = jpeg.trim_end_matches('=').to_string();
    // Line-wrapped: the JSON text holds the escape `\n` between lines.
    let wrapped = wrap(&jpeg, 76).replace('\n', "\\n");
    for (how, payload, message) in [
        (
            "URL-safe",
            url_safe.clone(),
            "not canonical base64 (URL-safe): invalid base64: character '_' at offset 0"
                .to_string(),
        ),
        (
            "unpadded",
            unpadded.clone(),
            format!(
                "not canonical base64 (unpadded): invalid base64: length {} is not a multiple of 4",
                unpadded.len()
            ),
        ),
        (
            "line-wrapped",
            wrapped.clone(),
            "not canonical base64 (line-wrapped): invalid base64: character 0x0a at offset 76"
                .to_string(),
        ),
    ] {
        // In a parts file.
        let (_dir, file) = temp_file("parts.json", odd_parts("image/jpeg", &payload).as_bytes());
        let run = validate_paths(&["--fix", path_arg(&file)]);
        assert_run(
            &run,
            0,
            &[finding(
                path_arg(&file),
                1,
                "fixed",
                "base64-noncanonical",
                "/0/data",
                &message,
            )],
            "1 document, 1 image in T s: 0 errors, 1 fixed",
        );
        assert_eq!(
            fs::read_to_string(&file).unwrap(),
            odd_parts("image/jpeg", &jpeg),
            "{how}"
        );
        assert_clean(
            &validate_paths(&[path_arg(&file), "--deny-warnings"]),
            "1 document, 1 image in T s: 0 errors",
        );
        // In a reply.
        let (_dir, file) = temp_file(
            "reply.json",
            odd_reply(&format!("data:image/jpeg;base64,{payload}")).as_bytes(),
        );
        let run = validate_paths(&["--fix", path_arg(&file)]);
        assert_run(
            &run,
            0,
            &[finding(
                path_arg(&file),
                1,
                "fixed",
                "base64-noncanonical",
                "/tool_output_images/0/image_url",
                &message,
            )],
            "1 document, 1 image in T s: 0 errors, 1 fixed",
        );
        assert_eq!(
            fs::read_to_string(&file).unwrap(),
            odd_reply(&format!("data:image/jpeg;base64,{jpeg}")),
            "{how}"
        );
        assert_clean(
            &validate_paths(&[path_arg(&file), "--deny-warnings"]),
            "1 document, 1 image in T s: 0 errors",
        );
    }
}

#[test]
fn fix_repairs_everything_on_one_image_at_once() {
    // URL-safe, unpadded base64 of a JPEG declared as the alias image/jpg: both
    // repairs are reported and applied.
    let jpeg = b64_of("tiny.jpg");
    let bad = jpeg
        .replace('+', "-")
        .replace('/', "_")
        .trim_end_matches('=')
        .to_string();
    let (_dir, file) = temp_file("parts.json", odd_parts("image/jpg", &bad).as_bytes());
    let run = validate_paths(&["--fix", path_arg(&file)]);
    assert_run(
        &run,
        0,
        &[
            finding(
                path_arg(&file),
                1,
                "fixed",
                "base64-noncanonical",
                "/0/data",
                "not canonical base64 (URL-safe, unpadded): invalid base64: character '_' at offset 0",
            ),
            finding(path_arg(&file), 1, "fixed", "media-type-alias", "/0/mimeType", "\"image/jpg\" is written \"image/jpeg\" in normalized form"),
        ],
        "1 document, 1 image in T s: 0 errors, 2 fixed",
    );
    assert_eq!(
        fs::read_to_string(&file).unwrap(),
        odd_parts("image/jpeg", &jpeg)
    );
}

#[test]
fn fix_repairs_a_line_wrapped_payload_and_its_type_in_one_data_url() {
    // The data URL has JSON escapes (`\n`), so it is not borrowed from the file:
    // both repairs land in the same string and both must be applied.
    let jpeg = b64_of("tiny.jpg");
    let wrapped = wrap(&jpeg, 76).replace('\n', "\\n");
    let (_dir, file) = temp_file(
        "reply.json",
        odd_reply(&format!("data:image/png;base64,{wrapped}")).as_bytes(),
    );
    let run = validate_paths(&["--fix", path_arg(&file)]);
    assert_run(
        &run,
        0,
        &[
            finding(
                path_arg(&file),
                1,
                "fixed",
                "base64-noncanonical",
                "/tool_output_images/0/image_url",
                "not canonical base64 (line-wrapped): invalid base64: character 0x0a at offset 76",
            ),
            finding(
                path_arg(&file),
                1,
                "fixed",
                "media-type-mismatch",
                "/tool_output_images/0/image_url",
                "content is image/jpeg, not image/png",
            ),
        ],
        "1 document, 1 image in T s: 0 errors, 2 fixed",
    );
    assert_eq!(
        fs::read_to_string(&file).unwrap(),
        odd_reply(&format!("data:image/jpeg;base64,{jpeg}"))
    );
    assert_clean(
        &validate_paths(&[path_arg(&file), "--deny-warnings"]),
        "1 document, 1 image in T s: 0 errors",
    );
}

#[test]
fn fix_keeps_the_escapes_it_does_not_need_to_touch() {
    // `\/` in a payload is canonical base64 once unescaped; fixing the declared
    // type must leave the escapes as written.
    let jpeg = b64_of("tiny.jpg");
    assert!(jpeg.contains('/'));
    let escaped = jpeg.replace('/', "\\/");
    let (_dir, file) = temp_file(
        "reply.json",
        odd_reply(&format!("data:image\\/png;base64,{escaped}")).as_bytes(),
    );
    let run = validate_paths(&["--fix", path_arg(&file)]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        fs::read_to_string(&file).unwrap(),
        odd_reply(&format!("data:image/jpeg;base64,{escaped}"))
    );
    assert_clean(
        &validate_paths(&[path_arg(&file), "--deny-warnings"]),
        "1 document, 1 image in T s: 0 errors",
    );
}

#[test]
fn fix_in_json_lines_patches_each_line_in_place() {
    let jpeg = b64_of("tiny.jpg");
    let good = reply(vec![entry("image/png", "tiny.png")]);
    let line = |mime: &str| {
        format!("{{\"id\": 1.50, \"tool_output_images\": [{{\"image_url\": \"data:{mime};base64,{jpeg}\"}}]}}")
    };
    let parts = |mime: &str| {
        format!("[{{\"type\":\"image\",\"mimeType\":\"{mime}\",\"data\":\"{jpeg}\"}}]")
    };
    let text = |a: &str, b: &str| format!("{good}\n\n{}\n{good}\r\n{}\n", line(a), parts(b));
    let (_dir, file) = temp_file("replies.jsonl", text("image/webp", "image/gif").as_bytes());
    let run = validate_paths(&["--fix", path_arg(&file)]);
    assert_run(
        &run,
        0,
        &[
            finding(
                path_arg(&file),
                3,
                "fixed",
                "media-type-mismatch",
                "/tool_output_images/0/image_url",
                "content is image/jpeg, not image/webp",
            ),
            finding(
                path_arg(&file),
                5,
                "fixed",
                "media-type-mismatch",
                "/0/mimeType",
                "content is image/jpeg, not image/gif",
            ),
        ],
        "4 documents, 4 images in T s: 0 errors, 2 fixed",
    );
    assert_eq!(
        fs::read_to_string(&file).unwrap(),
        text("image/jpeg", "image/jpeg")
    );
    assert_clean(
        &validate_paths(&[path_arg(&file)]),
        "4 documents, 4 images in T s: 0 errors",
    );
}

#[test]
fn fix_applies_repairs_and_still_fails_on_what_it_cannot_repair() {
    let jpeg = b64_of("tiny.jpg");
    let before = json!([
        part("image", "image/png", &jpeg),
        part("image", "image/png", "!!!!"),
    ])
    .to_string();
    let (_dir, file) = temp_file("parts.json", before.as_bytes());
    let run = validate_paths(&["--fix", path_arg(&file)]);
    assert_run(
        &run,
        1,
        &[
            finding(
                path_arg(&file),
                1,
                "fixed",
                "media-type-mismatch",
                "/0/mimeType",
                "content is image/jpeg, not image/png",
            ),
            finding(
                path_arg(&file),
                1,
                "error",
                "base64-invalid",
                "/1/data",
                "invalid base64: character '!' at offset 0",
            ),
        ],
        "1 document, 2 images in T s: 1 error, 1 fixed",
    );
    assert_eq!(
        fs::read_to_string(&file).unwrap(),
        before.replacen("image/png", "image/jpeg", 1)
    );
}

#[test]
fn fix_does_not_guess_a_type_the_reply_may_not_hold() {
    // BMP bytes declared PNG in a reply: image/bmp is no ToolOutputImage type, so
    // there is no right answer to write.
    let bmp = bmp_1x1();
    let before = reply(vec![entry_bytes("image/png", &bmp)]);
    let (_dir, file) = temp_file("reply.json", before.as_bytes());
    let old = age(&file);
    let run = validate_paths(&["--fix", path_arg(&file)]);
    assert_run(
        &run,
        1,
        &[finding(
            path_arg(&file),
            1,
            "error",
            "media-type-mismatch",
            "/tool_output_images/0/image_url",
            "content is image/bmp, not image/png",
        )],
        "1 document, 1 image in T s: 1 error",
    );
    assert_eq!(fs::read_to_string(&file).unwrap(), before);
    assert_eq!(mtime(&file), old);
}

#[test]
fn fix_on_stdin_is_exit_2() {
    let input = json!([image_part("image/png", "tiny.jpg")]).to_string();
    let run = validate(&["--fix"], &input);
    run.assert_error(2, &["--fix writes files back; it cannot fix stdin"]);
    // Refused before any file is touched, even with files beside the `-`.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a.json");
    std::fs::write(&file, &input).unwrap();
    let run = validate(&["--fix", "-", file.to_str().unwrap()], &input);
    run.assert_error(2, &["it cannot fix stdin"]);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), input);
}

#[test]
fn an_empty_json_file_is_invalid_json_but_an_empty_jsonl_file_is_clean() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("empty.json");
    let jsonl = dir.path().join("empty.jsonl");
    std::fs::write(&json, "").unwrap();
    std::fs::write(&jsonl, "\n").unwrap();
    let run = super::run(&["validate", json.to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("error[invalid-json]: the file holds no JSON document"),
        "{}",
        run.stdout
    );
    let run = super::run(&["validate", jsonl.to_str().unwrap()]);
    assert_eq!((run.code, run.stdout.as_str()), (0, ""));
}

#[test]
fn a_truncated_one_line_document_is_located_on_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.json");
    std::fs::write(&path, "{\"a\":").unwrap();
    let run = super::run(&["validate", path.to_str().unwrap()]);
    assert_eq!(run.code, 1);
    assert!(run.stdout.contains("at line 1 column 5"), "{}", run.stdout);
}

#[test]
fn fix_leaves_files_without_fixable_findings_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let clean = write(
        dir.path(),
        "clean.json",
        &odd_reply(&data_url("image/png", &bytes("tiny.png"))),
    );
    let unfixable = write(
        dir.path(),
        "unfixable.json",
        &odd_parts("image/png", "iVBO!!!!"),
    );
    let warned = write(
        dir.path(),
        "warned.json",
        &json!({"note": data_url("image/png", &bytes("tiny.png")), "tool_output_images": null})
            .to_string(),
    );
    let skipped = write(dir.path(), "other.json", "{\"mimeType\": \"image/jpg\"}\n");
    let files = [&clean, &unfixable, &warned, &skipped];
    let before: Vec<(String, SystemTime)> = files
        .iter()
        .map(|f| (fs::read_to_string(f).unwrap(), age(f)))
        .collect();
    let run = validate_paths(&["--fix", path_arg(dir.path())]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        run.stdout,
        format!(
            "{}\n{}\n",
            finding(path_arg(&unfixable), 1, "error", "base64-invalid", "/0/data", "invalid base64: character '!' at offset 4"),
            finding(
                path_arg(&warned),
                1,
                "warning",
                "base64-in-text",
                "/note",
                &format!(
                    "text holds a base64 data: URL (image/png, {} characters): the model reads it as text, not as media",
                    b64_of("tiny.png").len()
                )
            ),
        )
    );
    for (file, (text, time)) in files.iter().zip(before) {
        assert_eq!(
            fs::read_to_string(file).unwrap(),
            text,
            "{}",
            file.display()
        );
        assert_eq!(mtime(file), time, "{}", file.display());
    }
}

#[test]
fn fix_with_a_rule_ignored_leaves_that_repair_out() {
    let jpeg = b64_of("tiny.jpg");
    let unpadded = jpeg.trim_end_matches('=');
    let (_dir, file) = temp_file("parts.json", odd_parts("image/jpg", unpadded).as_bytes());
    let run = validate_paths(&["--fix", "--ignore", "media-type-alias", path_arg(&file)]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(run.stdout.lines().count(), 1, "{}", run.stdout);
    assert!(
        run.stdout.contains("fixed[base64-noncanonical]"),
        "{}",
        run.stdout
    );
    assert_eq!(
        fs::read_to_string(&file).unwrap(),
        odd_parts("image/jpg", &jpeg)
    );
}

// ---------------------------------------------------------------------------
// Directory walking

#[test]
fn directories_are_walked_for_json_and_jsonl_in_sorted_order() {
    let dir = tempfile::tempdir().unwrap();
    let bad = reply(vec![entry("image/png", "tiny.jpg")]);
    let names = [
        "b.json",
        "a.jsonl",
        "a/x.json",
        "a-b.json",
        "sub/deeper/z.json",
        "sub/c.json",
        "sub/UPPER.JSON",
        "notes.txt",
        "data.json.bak",
        "sub/image.png",
        "jsonl",
    ];
    for name in names {
        write(dir.path(), name, &bad);
    }
    let run = validate_paths(&[path_arg(dir.path())]);
    // Sorted by path, component by component.
    let mut expected: Vec<PathBuf> = [
        "b.json",
        "a.jsonl",
        "a/x.json",
        "a-b.json",
        "sub/deeper/z.json",
        "sub/c.json",
        "sub/UPPER.JSON",
    ]
    .iter()
    .map(|n| dir.path().join(n))
    .collect();
    expected.sort();
    let lines: Vec<String> = expected
        .iter()
        .map(|p| {
            finding(
                &p.display().to_string(),
                1,
                "error",
                "media-type-mismatch",
                "/tool_output_images/0/image_url",
                "content is image/jpeg, not image/png",
            )
        })
        .collect();
    assert_run(&run, 1, &lines, "7 documents, 7 images in T s: 7 errors");
}

#[test]
fn gitignore_is_honoured_without_a_git_repository() {
    let dir = tempfile::tempdir().unwrap();
    let bad = reply(vec![entry("image/png", "tiny.jpg")]);
    for name in [
        "keep.json",
        "skip.json",
        "generated/out.json",
        "sub/keep.jsonl",
        "sub/local.json",
    ] {
        write(dir.path(), name, &bad);
    }
    write(dir.path(), ".gitignore", "skip.json\ngenerated/\n");
    write(dir.path(), "sub/.gitignore", "local.json\n");
    assert!(!dir.path().join(".git").exists());
    let run = validate_paths(&[path_arg(dir.path())]);
    let lines: Vec<String> = ["keep.json", "sub/keep.jsonl"]
        .iter()
        .map(|n| {
            finding(
                &dir.path().join(n).display().to_string(),
                1,
                "error",
                "media-type-mismatch",
                "/tool_output_images/0/image_url",
                "content is image/jpeg, not image/png",
            )
        })
        .collect();
    assert_run(&run, 1, &lines, "2 documents, 2 images in T s: 2 errors");
    // A file named on the command line is checked even if ignored.
    let skipped = dir.path().join("skip.json");
    let run = validate_paths(&[path_arg(&skipped)]);
    assert_eq!(run.code, 1, "{}", run.stderr);
}

#[test]
fn paths_keep_command_line_order_and_a_directory_of_nothing_is_clean() {
    let dir = tempfile::tempdir().unwrap();
    let bad = reply(vec![entry("image/png", "tiny.jpg")]);
    let z = write(dir.path(), "z.json", &bad);
    let a = write(dir.path(), "a.json", &bad);
    let empty = dir.path().join("empty");
    fs::create_dir(&empty).unwrap();
    let run = validate_paths(&[path_arg(&z), path_arg(&empty), path_arg(&a)]);
    let line = |p: &Path| {
        finding(
            path_arg(p),
            1,
            "error",
            "media-type-mismatch",
            "/tool_output_images/0/image_url",
            "content is image/jpeg, not image/png",
        )
    };
    assert_run(
        &run,
        1,
        &[line(&z), line(&a)],
        "2 documents, 2 images in T s: 2 errors",
    );
    assert_clean(
        &validate_paths(&[path_arg(&empty)]),
        "0 documents, 0 images in T s: 0 errors",
    );
}

#[test]
fn committed_fixture_folder_walks_clean() {
    let run = validate_paths(&["tests/fixtures/validate"]);
    assert_clean(&run, "3 documents, 5 images in T s: 0 errors");
}

// ---------------------------------------------------------------------------
// Large-ish input

#[test]
fn two_thousand_json_lines_in_one_run() {
    let good = reply(vec![entry("image/png", "tiny.png")]);
    let mut lines: Vec<String> = (0..2000).map(|_| good.clone()).collect();
    lines[999] = reply(vec![entry("image/png", "tiny.gif")]);
    lines[1999] = json!({"n": data_url("image/png", &bytes("tiny.png")), "tool_output_images": [entry("image/webp", "tiny.webp")]}).to_string();
    let (_dir, file) = temp_file("many.jsonl", (lines.join("\n") + "\n").as_bytes());
    let run = validate_paths(&[path_arg(&file)]);
    assert_run(
        &run,
        1,
        &[
            finding(path_arg(&file), 1000, "error", "media-type-mismatch", "/tool_output_images/0/image_url", "content is image/gif, not image/png"),
            finding(
                path_arg(&file),
                2000,
                "warning",
                "base64-in-text",
                "/n",
                &format!(
                    "text holds a base64 data: URL (image/png, {} characters): the model reads it as text, not as media",
                    b64_of("tiny.png").len()
                ),
            ),
        ],
        "2,000 documents, 2,000 images in T s: 1 error, 1 warning",
    );
    let run = validate_paths(&[path_arg(&file), "--format", "json", "--max-images", "0"]);
    assert_eq!(run.code, 1);
    assert_eq!(run.json_lines().len(), 2002);
    assert_eq!(
        masked(&run.stderr),
        "partkit: checked 2,000 documents, 2,000 images in T s: 2,001 errors, 1 warning\n"
    );
}

// ---------------------------------------------------------------------------
// No payloads in messages (docs/limits.md)

#[test]
fn findings_never_show_more_than_32_characters_of_a_payload() {
    let jpeg = b64_of("tiny.jpg");
    let png = b64_of("tiny.png");
    let url_safe = jpeg.replace('/', "_");
    let bad_type = format!("data:{};base64,{png}", "x".repeat(40));
    let documents = [
        reply(vec![
            json!({"image_url": format!("data:image/png;base64,{jpeg}")}),
        ]),
        reply(vec![
            json!({"image_url": format!("data:image/jpeg;base64,{url_safe}")}),
        ]),
        reply(vec![
            json!({"image_url": format!("data:image/png;base64,{png}!")}),
        ]),
        reply(vec![
            json!({"image_url": format!("data:image/png;base64,{png}"), "label": 1}),
        ]),
        reply(vec![json!({"image_url": bad_type})]),
        json!([part("image", "image/png", &format!("{png}\n"))]).to_string(),
        json!([text_part(&format!("data:image/png;base64,{png}"))]).to_string(),
    ];
    let run = validate(&["--deep"], &(documents.join("\n") + "\n"));
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        run.stdout.lines().count(),
        documents.len(),
        "{}",
        run.stdout
    );
    for payload in [&jpeg, &png, &url_safe] {
        for window in payload.as_bytes().windows(33) {
            let window = std::str::from_utf8(window).unwrap();
            assert!(
                !run.stdout.contains(window) && !run.stderr.contains(window),
                "a finding shows more than 32 characters of a payload ({window}):\n{}",
                run.stdout
            );
        }
    }
}
