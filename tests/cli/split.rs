//! `partkit split` (docs/commands/split.md): a NeMo Gym tool reply into the rest of the reply plus
//! its `tool_output_images`, as canonical parts, as `--rest`, as one tool result of
//! a provider shape (`--to`, docs/conversion.md), and as image files (`--images-dir`).
//!
//! Replies are built here from the committed image fixtures (`tests/fixtures/tiny.*`)
//! and mostly given on stdin, so messages name `<stdin>:1:`. The two committed files
//! under `tests/fixtures/split/` are checked against the recipe that builds them
//! (`committed_fixtures_match_their_recipe`).

use std::fs;
use std::path::PathBuf;

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use serde_json::{json, Value};

use super::support::media::{b64, bytes, data_url};
use super::support::outputs::{
    assert_fails, assert_no_payload_leak, assert_ok, assert_output, listing, warning,
};
use super::{fixture, run, run_with_stdin, Run};
use super::{path_arg, temp_file};

// ---------------------------------------------------------------------------
// Helpers

/// The four image fixtures: file, declared media type, the extension split writes.
const IMAGES: [(&str, &str, &str); 4] = [
    ("tiny.png", "image/png", "png"),
    ("tiny.jpg", "image/jpeg", "jpg"),
    ("tiny.gif", "image/gif", "gif"),
    ("tiny.webp", "image/webp", "webp"),
];

/// A JSON string literal.
fn quoted(text: &str) -> String {
    serde_json::to_string(text).unwrap()
}

/// The JSON text of one `ToolOutputImage` entry with an arbitrary `image_url`.
fn entry_url(url: &str, label: Option<&str>) -> String {
    match label {
        Some(label) => format!(
            r#"{{"image_url":{},"label":{}}}"#,
            quoted(url),
            quoted(label)
        ),
        None => format!(r#"{{"image_url":{}}}"#, quoted(url)),
    }
}

/// The JSON text of one entry holding a fixture image.
fn entry(mime: &str, name: &str, label: Option<&str>) -> String {
    entry_url(&data_url(mime, name), label)
}

/// A reply `{<before>"tool_output_images":[entries]<after>}`; `before` ends with a
/// comma and `after` starts with one when they are not empty.
fn reply(before: &str, entries: &[String], after: &str) -> String {
    format!(
        r#"{{{before}"tool_output_images":[{}]{after}}}"#,
        entries.join(",")
    )
}

/// A reply whose only member is the image list.
fn images_only(entries: &[String]) -> String {
    reply("", entries, "")
}

fn text(text: &str) -> Value {
    json!({"type": "text", "text": text})
}

/// The canonical image part of a fixture (split gives it no name).
fn image(mime: &str, name: &str) -> Value {
    json!({"type": "image", "mimeType": mime, "data": b64(name)})
}

/// Runs `partkit split ARGS` with `stdin`.
fn split(args: &[&str], stdin: &str) -> Run {
    let mut all = vec!["split"];
    all.extend_from_slice(args);
    run_with_stdin(&all, stdin.as_bytes())
}

/// A reply given on stdin was rejected (exit 1, nothing printed) with exactly
/// `<stdin>:1: <message>`, and the message shows no more than 32 characters of
/// any of `payloads`.
fn assert_rejected(run: &Run, message: &str, payloads: &[&str]) {
    assert_fails(run, 1, &format!("<stdin>:1: {message}"));
    for payload in payloads {
        assert_no_payload_leak(&run.stderr, payload);
    }
}

/// A committed file under `tests/fixtures/split/`, as typed on the command line.
fn split_fixture(name: &str) -> String {
    format!("tests/fixtures/split/{name}")
}

// ---------------------------------------------------------------------------
// The committed fixtures

/// The recipe of `tests/fixtures/split/pretty.json`: a pretty-printed reply with
/// one labelled GIF between members whose spelling must survive.
fn pretty_fixture_text() -> String {
    format!(
        "{{\n  \"status\": \"ok\",\n  \"score\": 1.0,\n  \"tool_output_images\": [\n    {{\n      \
         \"image_url\": \"{}\",\n      \"label\": \"Frame 1\"\n    }}\n  ],\n  \
         \"id\": 12345678901234567890123\n}}\n",
        data_url("image/gif", "tiny.gif")
    )
}

/// The recipe of `tests/fixtures/split/replies.jsonl`: line 1 two images, line 2
/// invalid JSON, line 3 blank, line 4 a non-string label, line 5 one WebP.
fn replies_fixture_text() -> String {
    [
        reply(
            r#""step":1,"#,
            &[
                entry("image/png", "tiny.png", Some("first")),
                entry("image/gif", "tiny.gif", None),
            ],
            "",
        ),
        r#"{"step":2,"tool_output_images":"#.to_string(),
        String::new(),
        format!(
            r#"{{"step":4,"tool_output_images":[{{"image_url":{},"label":7}}]}}"#,
            quoted(&data_url("image/png", "tiny.png"))
        ),
        reply(
            r#""step":5,"#,
            &[entry("image/webp", "tiny.webp", None)],
            r#","done":true"#,
        ),
    ]
    .join("\n")
        + "\n"
}

#[test]
fn committed_fixtures_match_their_recipe() {
    let pretty = fs::read_to_string(fixture("split/pretty.json")).unwrap();
    assert_eq!(pretty, pretty_fixture_text());
    let replies = fs::read_to_string(fixture("split/replies.jsonl")).unwrap();
    assert_eq!(replies, replies_fixture_text());
}

// ---------------------------------------------------------------------------
// Valid replies: the default output

#[test]
fn reply_with_one_unlabelled_image_of_each_type() {
    for (name, mime, _) in IMAGES {
        let run = split(&[], &images_only(&[entry(mime, name, None)]));
        assert_ok(&run, &json!([text("{}"), image(mime, name)]));
    }
}

#[test]
fn reply_with_one_labelled_image_of_each_type() {
    for (name, mime, _) in IMAGES {
        let input = reply(r#""ok":true,"#, &[entry(mime, name, Some("Chart 1"))], "");
        let run = split(&[], &input);
        assert_ok(
            &run,
            &json!([text(r#"{"ok":true}"#), text("Chart 1"), image(mime, name)]),
        );
    }
}

#[test]
fn exact_default_output_text_of_a_reply_with_two_images() {
    let input = reply(
        r#""result":"ok","#,
        &[
            entry("image/png", "tiny.png", Some("Sales")),
            entry("image/webp", "tiny.webp", None),
        ],
        "",
    );
    let run = split(&[], &input);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert_eq!(run.stderr_without_summary(), "");
    assert_eq!(
        run.stdout,
        format!(
            concat!(
                r#"[{{"type":"text","text":"{{\"result\":\"ok\"}}"}},"#,
                r#"{{"type":"text","text":"Sales"}},"#,
                r#"{{"type":"image","mimeType":"image/png","data":"{}"}},"#,
                r#"{{"type":"image","mimeType":"image/webp","data":"{}"}}]"#,
                "\n"
            ),
            b64("tiny.png"),
            b64("tiny.webp")
        )
    );
}

#[test]
fn reply_with_three_images_keeps_entry_order_and_labels() {
    let input = images_only(&[
        entry("image/jpeg", "tiny.jpg", Some("front")),
        entry("image/gif", "tiny.gif", None),
        entry("image/png", "tiny.png", Some("back")),
    ]);
    let run = split(&[], &input);
    assert_ok(
        &run,
        &json!([
            text("{}"),
            text("front"),
            image("image/jpeg", "tiny.jpg"),
            image("image/gif", "tiny.gif"),
            text("back"),
            image("image/png", "tiny.png"),
        ]),
    );
}

#[test]
fn empty_and_null_labels_give_no_label_text_part() {
    let input = images_only(&[
        entry("image/png", "tiny.png", Some("")),
        format!(
            r#"{{"image_url":{},"label":null}}"#,
            quoted(&data_url("image/gif", "tiny.gif"))
        ),
        entry("image/webp", "tiny.webp", Some("kept")),
    ]);
    let run = split(&[], &input);
    assert_ok(
        &run,
        &json!([
            text("{}"),
            image("image/png", "tiny.png"),
            image("image/gif", "tiny.gif"),
            text("kept"),
            image("image/webp", "tiny.webp"),
        ]),
    );
}

#[test]
fn label_before_image_url_and_escaped_strings_are_read() {
    // `label` first, an escaped slash in the data URL (a string that cannot be
    // borrowed from the input) and escapes in the label.
    let url = data_url("image/png", "tiny.png").replace('/', "\\/");
    let input =
        format!(r#"{{"tool_output_images":[{{"label":"say \"cheese\"\n","image_url":"{url}"}}]}}"#);
    let run = split(&[], &input);
    assert_ok(
        &run,
        &json!([
            text("{}"),
            text("say \"cheese\"\n"),
            image("image/png", "tiny.png")
        ]),
    );
}

#[test]
fn an_alias_or_another_case_of_the_declared_type_is_refused_as_nemo_gym_refuses_it() {
    // NeMo Gym's ToolOutputImage takes exactly image/png, image/jpeg, image/gif
    // and image/webp; the entry error names the type it means.
    for (declared, meant) in [
        ("image/jpg", "image/jpeg"),
        ("IMAGE/JPEG", "image/jpeg"),
        ("image/PNG", "image/png"),
    ] {
        let fixture = if meant == "image/png" {
            "tiny.png"
        } else {
            "tiny.jpg"
        };
        let url = format!("data:{declared};base64,{}", b64(fixture));
        let good = entry_url(&format!("data:{meant};base64,{}", b64(fixture)), None);
        let input = images_only(&[good, entry_url(&url, None)]);
        for args in [&[][..], &["--rest"][..]] {
            let run = split(args, &input);
            assert_rejected(
                &run,
                &format!("tool_output_images[1]: {declared:?} is not one of the exact types NeMo Gym takes; write {meant:?}"),
                &[&b64(fixture)],
            );
        }
    }
    // A data: URL parameter is not part of the type.
    let png = format!("data:image/png;name=a.png;base64,{}", b64("tiny.png"));
    let run = split(&[], &images_only(&[entry_url(&png, None)]));
    assert_ok(&run, &json!([text("{}"), image("image/png", "tiny.png")]));
}

// ---------------------------------------------------------------------------
// Fidelity of the rest

#[test]
fn rest_keeps_key_order_number_spelling_nesting_and_unicode() {
    let before = r#""z":1.0,"big":12345678901234567890123,"nested":{"b":[1,{"c":null}],"a":"été ☕"},"neg":-0.5e-10,"#;
    let after = r#","after":true,"also":[1.50,{}],"a":"\u00e9\"""#;
    let input = reply(before, &[entry("image/png", "tiny.png", None)], after);
    let rest = r#"{"z":1.0,"big":12345678901234567890123,"nested":{"b":[1,{"c":null}],"a":"été ☕"},"neg":-0.5e-10,"after":true,"also":[1.50,{}],"a":"é\""}"#;
    let run = split(&[], &input);
    assert_ok(&run, &json!([text(rest), image("image/png", "tiny.png")]));
    let run = split(&["--rest"], &input);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert_eq!(run.stderr, "");
    assert_eq!(run.stdout, format!("{rest}\n"));
}

#[test]
fn pretty_printed_reply_gives_the_same_output_as_the_compact_one() {
    let pretty = split(&[], &pretty_fixture_text());
    let compact_input = reply(
        r#""status":"ok","score":1.0,"#,
        &[entry("image/gif", "tiny.gif", Some("Frame 1"))],
        r#","id":12345678901234567890123"#,
    );
    let compact = split(&[], &compact_input);
    let expected = json!([
        text(r#"{"status":"ok","score":1.0,"id":12345678901234567890123}"#),
        text("Frame 1"),
        image("image/gif", "tiny.gif"),
    ]);
    assert_ok(&compact, &expected);
    assert_ok(&pretty, &expected);
    let from_file = run(&["split", &split_fixture("pretty.json")]);
    assert_ok(&from_file, &expected);
}

#[test]
fn pretty_option_pretty_prints_the_same_parts() {
    let input = images_only(&[entry("image/png", "tiny.png", Some("a"))]);
    let run = split(&["--pretty"], &input);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert!(run.stdout.lines().count() > 3, "pretty: {}", run.stdout);
    assert!(run.stdout.contains("\n  {\n    \"type\": \"text\","));
    assert_eq!(
        run.json(),
        json!([text("{}"), text("a"), image("image/png", "tiny.png")])
    );
}

// ---------------------------------------------------------------------------
// Replies without images

#[test]
fn non_object_replies_come_back_unchanged_without_images() {
    let cases = [
        (r#""hello""#, r#""hello""#),
        ("42", "42"),
        ("1.0", "1.0"),
        ("null", "null"),
        ("true", "true"),
        (r#"[1,"two",{"x":1.0}]"#, r#"[1,"two",{"x":1.0}]"#),
    ];
    for (input, rest) in cases {
        let run = split(&[], input);
        assert_ok(&run, &json!([text(rest)]));
        let run = split(&["--rest"], input);
        assert_eq!(run.code, 0, "stderr: {}", run.stderr);
        assert_eq!(run.stdout, format!("{rest}\n"), "--rest of {input}");
    }
}

#[test]
fn array_reply_holding_an_image_list_is_not_split() {
    // Only an object reply carries tool_output_images; inside an array it is data.
    let inner = images_only(&[entry("image/png", "tiny.png", None)]);
    let input = format!("[{inner}]");
    let run = split(&[], &input);
    assert_ok(&run, &json!([text(&input)]));
}

#[test]
fn reply_without_the_key_comes_back_unchanged() {
    let input = r#"{"b":[],"a":{"tool_output_images":"nested, not ours"},"n":1.0}"#;
    let run = split(&[], input);
    assert_ok(&run, &json!([text(input)]));
}

#[test]
fn null_image_list_is_removed_and_gives_no_images() {
    let run = split(&[], r#"{"a":1,"tool_output_images":null,"b":2.0}"#);
    assert_ok(&run, &json!([text(r#"{"a":1,"b":2.0}"#)]));
}

#[test]
fn empty_image_list_is_removed_and_gives_no_images() {
    let run = split(&[], r#"{"a":1,"tool_output_images":[],"b":2.0}"#);
    assert_ok(&run, &json!([text(r#"{"a":1,"b":2.0}"#)]));
    let run = split(&[], r#"{"tool_output_images":[]}"#);
    assert_ok(&run, &json!([text("{}")]));
}

#[test]
fn duplicate_image_list_keys_follow_the_last_one_and_all_are_removed() {
    // As json.loads reads it: the last member wins.
    let run = split(
        &[],
        r#"{"tool_output_images":"junk","a":1,"tool_output_images":null}"#,
    );
    assert_ok(&run, &json!([text(r#"{"a":1}"#)]));
}

// ---------------------------------------------------------------------------
// Malformed image lists: exit 1, nothing printed, entry index and reason named

#[test]
fn image_list_that_is_not_a_list_is_rejected() {
    for (value, kind) in [
        (r#""x""#, "a string"),
        ("3", "a number"),
        ("true", "a boolean"),
        (r#"{"image_url":"x"}"#, "an object"),
    ] {
        let run = split(&[], &format!(r#"{{"tool_output_images":{value}}}"#));
        assert_rejected(
            &run,
            &format!("tool_output_images: must be a list or null, not {kind}"),
            &[],
        );
    }
}

#[test]
fn entry_that_is_not_an_object_is_rejected_by_index() {
    let good = entry("image/png", "tiny.png", None);
    for (value, kind) in [
        (quoted(&data_url("image/png", "tiny.png")), "a string"),
        ("null".to_string(), "null"),
        ("[]".to_string(), "an array"),
        ("1".to_string(), "a number"),
    ] {
        let run = split(&[], &images_only(&[good.clone(), value]));
        assert_rejected(
            &run,
            &format!("tool_output_images[1]: entry must be an object, not {kind}"),
            &[&b64("tiny.png")],
        );
    }
}

#[test]
fn entry_without_image_url_is_rejected() {
    let run = split(&[], &images_only(&[r#"{"label":"x"}"#.to_string()]));
    assert_rejected(&run, "tool_output_images[0]: missing image_url", &[]);
    let run = split(&[], &images_only(&["{}".to_string()]));
    assert_rejected(&run, "tool_output_images[0]: missing image_url", &[]);
}

#[test]
fn non_string_image_url_is_rejected() {
    for (value, kind) in [
        ("5", "a number"),
        ("null", "null"),
        (r#"{"url":"data:image/png;base64,AAAA"}"#, "an object"),
        (r#"["data:image/png;base64,AAAA"]"#, "an array"),
    ] {
        let input = images_only(&[format!(r#"{{"image_url":{value},"label":"x"}}"#)]);
        let run = split(&[], &input);
        assert_rejected(
            &run,
            &format!("tool_output_images[0]: image_url must be a string, not {kind}"),
            &[],
        );
    }
}

#[test]
fn unknown_key_in_an_entry_is_rejected() {
    let url = data_url("image/png", "tiny.png");
    for key in ["alt", "detail", "Label", "mime_type"] {
        let input = images_only(&[format!(r#"{{"image_url":{},"{key}":"x"}}"#, quoted(&url))]);
        let run = split(&[], &input);
        assert_rejected(
            &run,
            &format!(
                "tool_output_images[0]: unknown key \"{key}\" (only image_url and label are allowed)"
            ),
            &[&b64("tiny.png")],
        );
    }
}

#[test]
fn non_string_label_is_rejected() {
    let url = quoted(&data_url("image/jpeg", "tiny.jpg"));
    for (label, kind) in [
        ("1", "a number"),
        (r#"{"text":"x"}"#, "an object"),
        ("false", "a boolean"),
        (r#"["x"]"#, "an array"),
    ] {
        let input = images_only(&[
            entry("image/png", "tiny.png", Some("fine")),
            format!(r#"{{"image_url":{url},"label":{label}}}"#),
        ]);
        let run = split(&[], &input);
        assert_rejected(
            &run,
            &format!("tool_output_images[1]: label must be a string or null, not {kind}"),
            &[&b64("tiny.jpg"), &b64("tiny.png")],
        );
    }
}

#[test]
fn remote_url_is_rejected() {
    for url in ["https://example.com/chart.png", "http://example.com/a.png"] {
        let run = split(&[], &images_only(&[entry_url(url, None)]));
        assert_rejected(
            &run,
            "tool_output_images[0]: image_url is a remote URL; it must be a base64 data: URL",
            &[],
        );
    }
}

#[test]
fn url_that_is_no_data_url_is_rejected() {
    for url in ["chart.png", "/tmp/chart.png", "file:///tmp/chart.png", ""] {
        let run = split(&[], &images_only(&[entry_url(url, None)]));
        assert_rejected(
            &run,
            "tool_output_images[0]: image_url is not a base64 data: URL",
            &[],
        );
    }
    // A raw base64 payload without the data: prefix is not shown either.
    let raw = b64("tiny.png");
    let run = split(&[], &images_only(&[entry_url(&raw, None)]));
    assert_rejected(
        &run,
        "tool_output_images[0]: image_url is not a base64 data: URL",
        &[&raw],
    );
}

#[test]
fn data_url_without_base64_is_rejected() {
    let payload = b64("tiny.png");
    for url in [
        format!("data:image/png,{payload}"),
        format!("data:image/png;charset=binary,{payload}"),
    ] {
        let run = split(&[], &images_only(&[entry_url(&url, None)]));
        assert_rejected(
            &run,
            "tool_output_images[0]: image_url is a data: URL without ;base64",
            &[&payload],
        );
    }
}

#[test]
fn data_url_without_media_type_is_rejected() {
    let payload = b64("tiny.png");
    let url = format!("data:;base64,{payload}");
    let run = split(&[], &images_only(&[entry_url(&url, None)]));
    assert_rejected(
        &run,
        "tool_output_images[0]: image_url's data: URL declares no media type",
        &[&payload],
    );
}

#[test]
fn data_url_with_a_media_type_not_of_the_form_type_slash_subtype_is_rejected() {
    let payload = b64("tiny.png");
    let url = format!("data:png;base64,{payload}");
    let run = split(&[], &images_only(&[entry_url(&url, None)]));
    assert_rejected(
        &run,
        "tool_output_images[0]: image_url's data: URL media type \"png\" is not of the form type/subtype",
        &[&payload],
    );
    // A payload written where the media type goes is not shown beyond 32 characters.
    let url = format!("data:{};base64,AAAA", payload.replace('/', "_"));
    let run = split(&[], &images_only(&[entry_url(&url, None)]));
    assert_eq!(run.code, 1, "stderr: {}", run.stderr);
    assert_eq!(run.stdout, "");
    assert_no_payload_leak(&run.stderr, &payload.replace('/', "_"));
}

#[test]
fn unsupported_image_types_are_rejected() {
    let payload = b64("tiny.png");
    for mime in [
        "image/svg+xml",
        "image/bmp",
        "image/heic",
        "image/tiff",
        "application/pdf",
    ] {
        let url = format!("data:{mime};base64,{payload}");
        let run = split(&[], &images_only(&[entry_url(&url, Some("x"))]));
        assert_rejected(
            &run,
            &format!("tool_output_images[0]: {mime} is not allowed (png, jpeg, gif or webp)"),
            &[&payload],
        );
    }
}

#[test]
fn stray_character_in_base64_is_rejected() {
    let payload = b64("tiny.png");
    let bad = format!("{}*{}", &payload[..8], &payload[8..]);
    let run = split(
        &[],
        &images_only(&[entry_url(&format!("data:image/png;base64,{bad}"), None)]),
    );
    assert_rejected(
        &run,
        "tool_output_images[0]: invalid base64: character '*' at offset 8",
        &[&bad],
    );
}

#[test]
fn missing_padding_is_rejected_even_though_it_reads_leniently() {
    let payload = b64("tiny.png");
    let unpadded = payload.trim_end_matches('=');
    let run = split(
        &[],
        &images_only(&[entry_url(
            &format!("data:image/png;base64,{unpadded}"),
            None,
        )]),
    );
    assert_rejected(
        &run,
        &format!(
            "tool_output_images[0]: invalid base64: length {} is not a multiple of 4 \
             (not canonical base64, but readable leniently)",
            unpadded.len()
        ),
        &[unpadded],
    );
}

#[test]
fn excess_padding_and_non_canonical_trailing_bits_are_rejected() {
    let payload = b64("tiny.png");
    assert!(payload.ends_with("g=="));
    let cases = [
        format!("{payload}=="),
        // `h` instead of `g` before `==` sets trailing bits that must be zero.
        format!("{}h==", &payload[..payload.len() - 3]),
    ];
    for bad in cases {
        let input = images_only(&[entry_url(&format!("data:image/png;base64,{bad}"), None)]);
        let run = split(&[], &input);
        run.assert_error(1, &["<stdin>:1: tool_output_images[0]: invalid base64"]);
        assert_no_payload_leak(&run.stderr, &bad);
    }
}

#[test]
fn whitespace_in_base64_is_rejected() {
    let payload = b64("tiny.png");
    for (sep, shown) in [
        (" ", "0x20"),
        ("\n", "0x0a"),
        ("\r\n", "0x0d"),
        ("\t", "0x09"),
    ] {
        let bad = format!("{}{sep}{}", &payload[..40], &payload[40..]);
        let input = images_only(&[entry_url(&format!("data:image/png;base64,{bad}"), None)]);
        let run = split(&[], &input);
        assert_rejected(
            &run,
            &format!(
                "tool_output_images[0]: invalid base64: character {shown} at offset 40 \
                 (not canonical base64, but readable leniently)"
            ),
            &[&payload],
        );
    }
}

#[test]
fn bytes_of_another_type_than_declared_are_rejected() {
    let cases = [
        (
            "image/png",
            "tiny.jpg",
            "content is image/jpeg, not image/png",
        ),
        (
            "image/webp",
            "tiny.png",
            "content is image/png, not image/webp",
        ),
        (
            "image/jpeg",
            "tiny.gif",
            "content is image/gif, not image/jpeg",
        ),
        (
            "image/gif",
            "tiny.webp",
            "content is image/webp, not image/gif",
        ),
    ];
    for (declared, name, message) in cases {
        let input = images_only(&[
            entry("image/png", "tiny.png", None),
            entry(declared, name, Some("x")),
        ]);
        let run = split(&[], &input);
        assert_rejected(
            &run,
            &format!("tool_output_images[1]: {message}"),
            &[&b64(name)],
        );
    }
}

#[test]
fn bytes_of_no_known_type_are_rejected() {
    let payload = STANDARD.encode(b"this is plain text, not a PNG image at all");
    let url = format!("data:image/png;base64,{payload}");
    let run = split(&[], &images_only(&[entry_url(&url, None)]));
    assert_rejected(
        &run,
        "tool_output_images[0]: content is not image/png (no known type matches its first bytes)",
        &[&payload],
    );
}

#[test]
fn png_signature_with_a_broken_header_is_rejected() {
    let mut png = bytes("tiny.png");
    png.truncate(12);
    png.extend_from_slice(&[0xff; 40]);
    let payload = STANDARD.encode(&png);
    let url = format!("data:image/png;base64,{payload}");
    let run = split(&[], &images_only(&[entry_url(&url, None)]));
    run.assert_error(
        1,
        &["<stdin>:1: tool_output_images[0]: image header does not parse"],
    );
    assert_no_payload_leak(&run.stderr, &payload);
}

#[test]
fn empty_payload_is_rejected() {
    let run = split(
        &[],
        &images_only(&[entry_url("data:image/png;base64,", None)]),
    );
    assert_rejected(
        &run,
        "tool_output_images[0]: no bytes (a media part must carry bytes)",
        &[],
    );
}

#[test]
fn the_first_bad_entry_in_list_order_is_reported() {
    // Entry 0 has a bad payload, entry 1 an unknown key: entry 0 is named.
    let bad = format!("data:image/png;base64,*{}", b64("tiny.png"));
    let input = images_only(&[
        entry_url(&bad, None),
        format!(
            r#"{{"image_url":{},"alt":"x"}}"#,
            quoted(&data_url("image/png", "tiny.png"))
        ),
    ]);
    let run = split(&[], &input);
    assert_rejected(
        &run,
        "tool_output_images[0]: invalid base64: character '*' at offset 0",
        &[&b64("tiny.png")],
    );
}

#[test]
fn rejected_reply_prints_nothing_with_rest_or_to() {
    let input = images_only(&[
        entry("image/png", "tiny.png", None),
        entry("image/png", "tiny.jpg", None),
    ]);
    let message = "<stdin>:1: tool_output_images[1]: content is image/jpeg, not image/png";
    assert_fails(&split(&["--rest"], &input), 1, message);
    assert_fails(
        &split(&["--to", "openai-chat", "--call-id", "c1"], &input),
        1,
        message,
    );
    assert_fails(
        &split(&["--to", "mcp", "--call-id", "c1"], &input),
        1,
        message,
    );
}

#[test]
fn rejected_reply_in_a_file_names_the_file_and_line() {
    let input = images_only(&[r#"{"label":"x"}"#.to_string()]);
    let (_dir, file) = temp_file("reply.json", input.as_bytes());
    let run = run(&["split", path_arg(&file)]);
    assert_fails(
        &run,
        1,
        &format!(
            "{}:1: tool_output_images[0]: missing image_url",
            file.display()
        ),
    );
}

#[test]
fn invalid_json_is_exit_1_naming_the_line() {
    let payload = b64("tiny.png");
    // A document cut inside its payload: the message shows none of it.
    let input =
        format!(r#"{{"tool_output_images":[{{"image_url":"data:image/png;base64,{payload}"#);
    let run = split(&[], &input);
    run.assert_error(1, &["<stdin>:1: invalid JSON: "]);
    assert_no_payload_leak(&run.stderr, &payload);
}

// ---------------------------------------------------------------------------
// --rest

#[test]
fn rest_prints_only_the_reply_without_its_images() {
    let input = reply(
        r#""rows":3,"score":1.0,"#,
        &[
            entry("image/png", "tiny.png", Some("a")),
            entry("image/jpeg", "tiny.jpg", None),
        ],
        r#","note":"done""#,
    );
    let run = split(&["--rest"], &input);
    assert_ok(&run, &json!({"rows": 3, "score": 1.0, "note": "done"}));
    assert_eq!(run.stdout, "{\"rows\":3,\"score\":1.0,\"note\":\"done\"}\n");
}

#[test]
fn rest_of_a_reply_with_only_images_is_an_empty_object() {
    let run = split(
        &["--rest"],
        &images_only(&[entry("image/gif", "tiny.gif", None)]),
    );
    assert_ok(&run, &json!({}));
}

#[test]
fn rest_pretty_prints_on_request() {
    let run = split(
        &["--rest", "--pretty"],
        r#"{"a":1,"tool_output_images":null,"b":[2]}"#,
    );
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert_eq!(run.stdout, "{\n  \"a\": 1,\n  \"b\": [\n    2\n  ]\n}\n");
}

// ---------------------------------------------------------------------------
// --images-dir

/// A reply file in a fresh directory, and the images directory beside it.
fn images_setup(input: &str) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let (dir, file) = temp_file("reply.json", input.as_bytes());
    let out = dir.path().join("out");
    (dir, file, out)
}

#[test]
fn images_dir_writes_numbered_files_with_the_exact_bytes() {
    let input = images_only(&[
        entry("image/png", "tiny.png", None),
        entry("image/jpeg", "tiny.jpg", Some("Front view")),
        entry("image/gif", "tiny.gif", Some("")),
        entry("image/webp", "tiny.webp", Some("Sales by month (2024)")),
    ]);
    let (dir, file, out) = images_setup(&input);
    let run = run(&["split", path_arg(&file), "--images-dir", path_arg(&out)]);
    assert_ok(
        &run,
        &json!([
            text("{}"),
            image("image/png", "tiny.png"),
            text("Front view"),
            image("image/jpeg", "tiny.jpg"),
            image("image/gif", "tiny.gif"),
            text("Sales by month (2024)"),
            image("image/webp", "tiny.webp"),
        ]),
    );
    let names = [
        "001.png",
        "002-Front-view.jpg",
        "003.gif",
        "004-Sales-by-month-2024.webp",
    ];
    assert_eq!(listing(&out), names);
    for (name, (fixture_name, _, _)) in names.iter().zip(IMAGES) {
        assert_eq!(
            fs::read(out.join(name)).unwrap(),
            bytes(fixture_name),
            "{name}"
        );
    }
    assert_eq!(listing(dir.path()), ["out", "reply.json"]);
}

#[test]
fn image_extensions_follow_the_declared_type() {
    for (name, mime, ext) in IMAGES {
        let (_dir, file, out) = images_setup(&images_only(&[entry(mime, name, None)]));
        let run = run(&["split", path_arg(&file), "--images-dir", path_arg(&out)]);
        assert_eq!(run.code, 0, "stderr: {}", run.stderr);
        assert_eq!(listing(&out), [format!("001.{ext}")]);
    }
}

#[test]
fn labels_become_safe_slugs_and_nothing_is_written_outside_the_dir() {
    let long = "x".repeat(300);
    let labels = [
        ("../../etc/passwd", "001-etc-passwd.png"),
        ("a/b\\c", "002-a-b-c.png"),
        ("..", "003.png"),
        ("x\u{0}y", "004-x-y.png"),
        (long.as_str(), ""),
        ("!!! ??? ...", "006.png"),
        ("/", "007.png"),
        ("été_2024", "008-t-_2024.png"),
        ("--keep_me--", "009-keep_me.png"),
        ("日本語", "010.png"),
    ];
    let entries: Vec<String> = labels
        .iter()
        .map(|(label, _)| entry("image/png", "tiny.png", Some(label)))
        .collect();
    let (dir, file, out) = images_setup(&images_only(&entries));
    let run = run(&[
        "split",
        path_arg(&file),
        "--images-dir",
        path_arg(&out),
        "--quiet",
    ]);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    let mut expected: Vec<String> = labels.iter().map(|(_, n)| n.to_string()).collect();
    expected[4] = format!("005-{}.png", "x".repeat(60));
    expected.sort();
    assert_eq!(listing(&out), expected);
    for name in &expected {
        assert_eq!(fs::read(out.join(name)).unwrap(), bytes("tiny.png"));
    }
    assert_eq!(listing(dir.path()), ["out", "reply.json"]);
    // The labels themselves still reach the model unchanged.
    let parts = run.json();
    assert_eq!(parts[1], text("../../etc/passwd"));
    assert_eq!(parts[7], text("x\u{0}y"));
}

#[test]
fn images_dir_is_created_with_its_parents() {
    let (dir, file, _) = images_setup(&images_only(&[entry("image/png", "tiny.png", None)]));
    let out = dir.path().join("a/b/c");
    let run = run(&["split", path_arg(&file), "--images-dir", path_arg(&out)]);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert_eq!(listing(&out), ["001.png"]);
}

#[test]
fn images_dir_works_with_rest_and_with_to() {
    let input = images_only(&[entry("image/jpeg", "tiny.jpg", Some("a"))]);
    let (_dir, file, out) = images_setup(&input);
    let run = run(&[
        "split",
        path_arg(&file),
        "--rest",
        "--images-dir",
        path_arg(&out),
    ]);
    assert_ok(&run, &json!({}));
    assert_eq!(listing(&out), ["001-a.jpg"]);
    let other = out.with_file_name("other");
    let run = super::run(&[
        "split",
        path_arg(&file),
        "--to",
        "mcp",
        "--call-id",
        "c1",
        "--images-dir",
        path_arg(&other),
        "--quiet",
    ]);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert_eq!(listing(&other), ["001-a.jpg"]);
    assert_eq!(
        fs::read(other.join("001-a.jpg")).unwrap(),
        bytes("tiny.jpg")
    );
}

#[test]
fn existing_target_file_is_exit_2_and_nothing_is_written() {
    let input = reply(
        r#""a":1,"#,
        &[
            entry("image/png", "tiny.png", Some("first")),
            entry("image/jpeg", "tiny.jpg", None),
        ],
        "",
    );
    let (_dir, file, out) = images_setup(&input);
    fs::create_dir(&out).unwrap();
    fs::write(out.join("002.jpg"), b"old").unwrap();
    let run = run(&["split", path_arg(&file), "--images-dir", path_arg(&out)]);
    assert_fails(
        &run,
        2,
        &format!(
            "{} exists; pass --force to overwrite",
            out.join("002.jpg").display()
        ),
    );
    // No partial set: 001-first.png was not written either.
    assert_eq!(listing(&out), ["002.jpg"]);
    assert_eq!(fs::read(out.join("002.jpg")).unwrap(), b"old");
}

#[test]
fn force_overwrites_existing_images() {
    let input = images_only(&[
        entry("image/png", "tiny.png", Some("first")),
        entry("image/jpeg", "tiny.jpg", None),
    ]);
    let (_dir, file, out) = images_setup(&input);
    fs::create_dir(&out).unwrap();
    fs::write(out.join("002.jpg"), b"old").unwrap();
    fs::write(out.join("unrelated.txt"), b"keep").unwrap();
    let run = run(&[
        "split",
        path_arg(&file),
        "--images-dir",
        path_arg(&out),
        "--force",
    ]);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert_eq!(run.stderr, "");
    assert_eq!(listing(&out), ["001-first.png", "002.jpg", "unrelated.txt"]);
    assert_eq!(
        fs::read(out.join("001-first.png")).unwrap(),
        bytes("tiny.png")
    );
    assert_eq!(fs::read(out.join("002.jpg")).unwrap(), bytes("tiny.jpg"));
    assert_eq!(fs::read(out.join("unrelated.txt")).unwrap(), b"keep");
    // Running again without --force now refuses.
    let again = super::run(&["split", path_arg(&file), "--images-dir", path_arg(&out)]);
    again.assert_error(2, &["001-first.png exists; pass --force to overwrite"]);
}

#[test]
fn rejected_reply_writes_no_images() {
    let input = images_only(&[
        entry("image/png", "tiny.png", Some("good")),
        entry("image/png", "tiny.jpg", None),
    ]);
    let (_dir, file, out) = images_setup(&input);
    let run = run(&["split", path_arg(&file), "--images-dir", path_arg(&out)]);
    assert_fails(
        &run,
        1,
        &format!(
            "{}:1: tool_output_images[1]: content is image/jpeg, not image/png",
            file.display()
        ),
    );
    assert!(
        !out.exists() || listing(&out).is_empty(),
        "no images written"
    );
}

#[test]
fn images_dir_that_is_a_file_is_exit_2() {
    let (_dir, file, out) = images_setup(&images_only(&[entry("image/png", "tiny.png", None)]));
    fs::write(&out, b"not a dir").unwrap();
    let run = run(&["split", path_arg(&file), "--images-dir", path_arg(&out)]);
    run.assert_error(2, &["cannot write", path_arg(&out)]);
    assert_eq!(fs::read(&out).unwrap(), b"not a dir");
}

#[test]
fn force_without_images_dir_is_exit_2() {
    let run = split(&["--force"], "{}");
    run.assert_error(2, &["--images-dir"]);
}

// ---------------------------------------------------------------------------
// JSON Lines

/// The default output of line 1 of `replies.jsonl`.
fn replies_line_1() -> Value {
    json!([
        text(r#"{"step":1}"#),
        text("first"),
        image("image/png", "tiny.png"),
        image("image/gif", "tiny.gif"),
    ])
}

/// The default output of line 5 of `replies.jsonl`.
fn replies_line_5() -> Value {
    json!([
        text(r#"{"step":5,"done":true}"#),
        image("image/webp", "tiny.webp")
    ])
}

/// The two error lines of `replies.jsonl`, named `label`.
fn assert_replies_errors(run: &Run, label: &str) {
    let stderr = run.stderr_without_summary();
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 2, "stderr: {}", run.stderr);
    assert!(
        lines[0].starts_with(&format!("partkit: error: {label}:2: invalid JSON: ")),
        "{}",
        lines[0]
    );
    assert_eq!(
        lines[1],
        format!(
            "partkit: error: {label}:4: tool_output_images[0]: label must be a string or null, not a number"
        )
    );
    assert_no_payload_leak(&run.stderr, &b64("tiny.png"));
}

#[test]
fn json_lines_print_the_good_lines_in_order_and_name_the_bad_ones() {
    let path = split_fixture("replies.jsonl");
    let run = run(&["split", &path]);
    assert_eq!(run.code, 1, "stderr: {}", run.stderr);
    assert_eq!(run.json_lines(), [replies_line_1(), replies_line_5()]);
    assert_eq!(
        run.stdout,
        format!(
            "{}\n{}\n",
            serde_json::to_string(&replies_line_1()).unwrap(),
            serde_json::to_string(&replies_line_5()).unwrap()
        )
    );
    assert_replies_errors(&run, &path);
}

#[test]
fn json_lines_on_stdin_name_stdin() {
    let run = split(&[], &replies_fixture_text());
    assert_eq!(run.code, 1, "stderr: {}", run.stderr);
    assert_eq!(run.json_lines(), [replies_line_1(), replies_line_5()]);
    assert_replies_errors(&run, "<stdin>");
    let dash = split(&["-"], &replies_fixture_text());
    assert_eq!(dash.code, 1);
    assert_eq!(dash.stdout, run.stdout);
    assert_eq!(dash.stderr, run.stderr);
}

#[test]
fn json_lines_with_rest() {
    let run = run(&["split", &split_fixture("replies.jsonl"), "--rest"]);
    assert_eq!(run.code, 1, "stderr: {}", run.stderr);
    assert_eq!(run.stdout, "{\"step\":1}\n{\"step\":5,\"done\":true}\n");
}

#[test]
fn json_lines_that_are_all_good_exit_0_and_keep_crlf_and_blank_lines_out() {
    let input = format!(
        "{}\r\n\r\n{}\r\n\"just text\"\n",
        images_only(&[entry("image/png", "tiny.png", None)]),
        r#"{"n":1.0,"tool_output_images":null}"#
    );
    let run = split(&[], &input);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert_eq!(run.stderr_without_summary(), "");
    assert_eq!(
        run.json_lines(),
        [
            json!([text("{}"), image("image/png", "tiny.png")]),
            json!([text(r#"{"n":1.0}"#)]),
            json!([text(r#""just text""#)]),
        ]
    );
}

#[test]
fn jsonl_option_reads_a_pretty_document_line_by_line() {
    // Without --jsonl a pretty-printed reply is one document; with it each line
    // is one (and these lines are not JSON).
    let path = split_fixture("pretty.json");
    let run = run(&["split", &path, "--jsonl"]);
    assert_eq!(run.code, 1);
    assert_eq!(run.stdout, "");
    let stderr = run.stderr_without_summary();
    let errors: Vec<&str> = stderr.lines().collect();
    assert!(errors.len() > 3, "stderr: {}", run.stderr);
    assert!(errors[0].starts_with(&format!("partkit: error: {path}:1: invalid JSON: ")));
    assert!(errors
        .iter()
        .all(|l| l.starts_with("partkit: error: ") && l.contains(": invalid JSON: ")));
    assert_no_payload_leak(&run.stderr, &b64("tiny.gif"));
}

#[test]
fn json_lines_number_images_across_lines() {
    let (dir, _, out) = images_setup("");
    let run = run(&[
        "split",
        &split_fixture("replies.jsonl"),
        "--images-dir",
        path_arg(&out),
    ]);
    assert_eq!(run.code, 1, "stderr: {}", run.stderr);
    assert_eq!(run.json_lines(), [replies_line_1(), replies_line_5()]);
    // The rejected line 4 takes no number.
    assert_eq!(listing(&out), ["001-first.png", "002.gif", "003.webp"]);
    assert_eq!(
        fs::read(out.join("001-first.png")).unwrap(),
        bytes("tiny.png")
    );
    assert_eq!(fs::read(out.join("002.gif")).unwrap(), bytes("tiny.gif"));
    assert_eq!(fs::read(out.join("003.webp")).unwrap(), bytes("tiny.webp"));
    assert_eq!(listing(dir.path()), ["out", "reply.json"]);
}

#[test]
fn json_lines_refuse_a_dir_that_holds_split_named_files() {
    for existing in ["001.png", "042-chart.webp", "1000.gif"] {
        let (_dir, _, out) = images_setup("");
        fs::create_dir(&out).unwrap();
        fs::write(out.join(existing), b"old").unwrap();
        let run = run(&[
            "split",
            &split_fixture("replies.jsonl"),
            "--images-dir",
            path_arg(&out),
        ]);
        assert_fails(
            &run,
            2,
            &format!(
                "{} already holds {existing}; pass --force to overwrite images",
                out.display()
            ),
        );
        assert_eq!(listing(&out), [existing]);
    }
}

#[test]
fn json_lines_accept_a_dir_with_other_files_and_force_overwrites() {
    let (_dir, _, out) = images_setup("");
    fs::create_dir(&out).unwrap();
    for other in ["notes.txt", "01.png", "a001.txt", "001x.png"] {
        fs::write(out.join(other), b"keep").unwrap();
    }
    let path = split_fixture("replies.jsonl");
    let run = run(&["split", &path, "--images-dir", path_arg(&out)]);
    assert_eq!(run.code, 1, "stderr: {}", run.stderr);
    assert_eq!(
        listing(&out),
        [
            "001-first.png",
            "001x.png",
            "002.gif",
            "003.webp",
            "01.png",
            "a001.txt",
            "notes.txt"
        ]
    );
    fs::write(out.join("002.gif"), b"old").unwrap();
    let again = super::run(&["split", &path, "--images-dir", path_arg(&out)]);
    again.assert_error(2, &["already holds", "--force"]);
    let forced = super::run(&["split", &path, "--images-dir", path_arg(&out), "--force"]);
    assert_eq!(forced.code, 1, "stderr: {}", forced.stderr);
    assert_eq!(fs::read(out.join("002.gif")).unwrap(), bytes("tiny.gif"));
}

#[test]
fn jsonl_option_makes_a_one_line_input_refuse_a_dir_with_split_files() {
    let input = images_only(&[entry("image/png", "tiny.png", Some("x"))]);
    let (_dir, file, out) = images_setup(&input);
    fs::create_dir(&out).unwrap();
    fs::write(out.join("001.png"), b"old").unwrap();
    // One document: only the planned name 001-x.png matters, and it is free.
    let run = run(&[
        "split",
        path_arg(&file),
        "--images-dir",
        path_arg(&out),
        "--rest",
    ]);
    assert_ok(&run, &json!({}));
    assert_eq!(listing(&out), ["001-x.png", "001.png"]);
    // Forced JSON Lines: names are not known in advance, so the dir is refused.
    let out2 = out.with_file_name("out2");
    fs::create_dir(&out2).unwrap();
    fs::write(out2.join("001.png"), b"old").unwrap();
    let run = super::run(&[
        "split",
        path_arg(&file),
        "--jsonl",
        "--images-dir",
        path_arg(&out2),
    ]);
    assert_fails(
        &run,
        2,
        &format!(
            "{} already holds 001.png; pass --force to overwrite images",
            out2.display()
        ),
    );
    assert_eq!(listing(&out2), ["001.png"]);
}

// ---------------------------------------------------------------------------
// --to: one tool result of a provider shape

/// A reply with a labelled PNG and an unlabelled JPEG; its rest is `{"ok":true,"n":1.0}`.
fn two_image_reply() -> String {
    reply(
        r#""ok":true,"#,
        &[
            entry("image/png", "tiny.png", Some("Chart")),
            entry("image/jpeg", "tiny.jpg", Some("")),
        ],
        r#","n":1.0"#,
    )
}

const TWO_IMAGE_REST: &str = r#"{"ok":true,"n":1.0}"#;

const NO_IMAGE_REPLY: &str = r#"{"ok":true,"tool_output_images":null,"n":1.0}"#;

fn to(shape: &str, call_id: &str, name: Option<&str>, input: &str) -> Run {
    let mut args = vec!["--to", shape, "--call-id", call_id];
    if let Some(name) = name {
        args.extend(["--name", name]);
    }
    split(&args, input)
}

#[test]
fn to_canonical_is_a_tool_result_block_holding_the_default_parts() {
    let run = to("canonical", "call_1", Some("chart"), &two_image_reply());
    assert_ok(
        &run,
        &json!({"type": "tool_result", "call_id": "call_1", "name": "chart",
                "is_error": false, "content": [
                    text(TWO_IMAGE_REST), text("Chart"),
                    image("image/png", "tiny.png"), image("image/jpeg", "tiny.jpg")]}),
    );
    let run = to("canonical", "call_1", None, NO_IMAGE_REPLY);
    assert_ok(
        &run,
        &json!({"type": "tool_result", "call_id": "call_1", "is_error": false,
                "content": [text(TWO_IMAGE_REST)]}),
    );
}

#[test]
fn to_openai_chat_is_two_message_delivery() {
    let run = to("openai-chat", "call_1", Some("chart"), &two_image_reply());
    assert_ok(
        &run,
        &json!([
            {"role": "tool", "tool_call_id": "call_1", "content": TWO_IMAGE_REST},
            {"role": "user", "content": [
                text("Output of tool chart (call_1):"),
                text("Chart"),
                {"type": "image_url", "image_url": {"url": data_url("image/png", "tiny.png")}},
                {"type": "image_url", "image_url": {"url": data_url("image/jpeg", "tiny.jpg")}},
            ]},
        ]),
    );
}

#[test]
fn to_openai_chat_without_a_name_introduces_the_call_id() {
    let input = images_only(&[entry("image/gif", "tiny.gif", None)]);
    let run = to("openai-chat", "call_9", None, &input);
    assert_ok(
        &run,
        &json!([
            {"role": "tool", "tool_call_id": "call_9", "content": "{}"},
            {"role": "user", "content": [
                text("Output of tool call call_9:"),
                {"type": "image_url", "image_url": {"url": data_url("image/gif", "tiny.gif")}},
            ]},
        ]),
    );
}

#[test]
fn to_openai_chat_without_images_is_only_the_tool_message() {
    let run = to("openai-chat", "call_1", Some("chart"), NO_IMAGE_REPLY);
    assert_ok(
        &run,
        &json!([{"role": "tool", "tool_call_id": "call_1", "content": TWO_IMAGE_REST}]),
    );
    let run = to("openai-chat", "call_1", None, r#""plain""#);
    assert_ok(
        &run,
        &json!([{"role": "tool", "tool_call_id": "call_1", "content": "\"plain\""}]),
    );
}

#[test]
fn to_openai_responses_is_a_function_call_output_with_an_array() {
    let run = to(
        "openai-responses",
        "call_1",
        Some("chart"),
        &two_image_reply(),
    );
    assert_ok(
        &run,
        &json!({"type": "function_call_output", "call_id": "call_1", "output": [
            {"type": "input_text", "text": TWO_IMAGE_REST},
            {"type": "input_text", "text": "Chart"},
            {"type": "input_image", "image_url": data_url("image/png", "tiny.png")},
            {"type": "input_image", "image_url": data_url("image/jpeg", "tiny.jpg")},
        ]}),
    );
}

#[test]
fn to_openai_responses_without_images_is_a_string_output() {
    let run = to("openai-responses", "call_1", None, NO_IMAGE_REPLY);
    assert_ok(
        &run,
        &json!({"type": "function_call_output", "call_id": "call_1", "output": TWO_IMAGE_REST}),
    );
}

#[test]
fn to_anthropic_is_a_tool_result_block_without_empty_text() {
    let run = to("anthropic", "toolu_01", Some("chart"), &two_image_reply());
    assert_ok(
        &run,
        &json!({"type": "tool_result", "tool_use_id": "toolu_01", "content": [
            text(TWO_IMAGE_REST),
            text("Chart"),
            {"type": "image", "source": {"type": "base64", "media_type": "image/png",
                                         "data": b64("tiny.png")}},
            {"type": "image", "source": {"type": "base64", "media_type": "image/jpeg",
                                         "data": b64("tiny.jpg")}},
        ]}),
    );
    let run = to("anthropic", "toolu_01", None, NO_IMAGE_REPLY);
    assert_ok(
        &run,
        &json!({"type": "tool_result", "tool_use_id": "toolu_01",
                "content": [text(TWO_IMAGE_REST)]}),
    );
}

#[test]
fn to_anthropic_carries_all_four_image_types() {
    let entries: Vec<String> = IMAGES
        .iter()
        .map(|(name, mime, _)| entry(mime, name, None))
        .collect();
    let run = to("anthropic", "toolu_01", None, &images_only(&entries));
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert_eq!(run.stderr, "");
    let content = run.json()["content"].clone();
    let types: Vec<&str> = content
        .as_array()
        .unwrap()
        .iter()
        .skip(1)
        .map(|b| b["source"]["media_type"].as_str().unwrap())
        .collect();
    assert_eq!(
        types,
        ["image/png", "image/jpeg", "image/gif", "image/webp"]
    );
}

#[test]
fn to_gemini_is_a_function_response_with_inline_parts() {
    let input = reply(
        r#""ok":true,"#,
        &[
            entry("image/png", "tiny.png", None),
            entry("image/jpeg", "tiny.jpg", None),
            entry("image/webp", "tiny.webp", None),
        ],
        r#","n":1.0"#,
    );
    let run = to("gemini", "call_1", Some("chart"), &input);
    let inline =
        |mime: &str, name: &str| json!({"inlineData": {"mimeType": mime, "data": b64(name)}});
    assert_ok(
        &run,
        &json!({"functionResponse": {
        "id": "call_1", "name": "chart",
        "response": {"output": TWO_IMAGE_REST},
        "parts": [
            inline("image/png", "tiny.png"),
            inline("image/jpeg", "tiny.jpg"),
            inline("image/webp", "tiny.webp"),
        ]}}),
    );
}

#[test]
fn to_gemini_puts_labels_in_the_response_text() {
    // Gemini function-response parts carry no text: the labels join the rest in
    // `response.output`, separated by blank lines.
    let run = to("gemini", "call_1", Some("chart"), &two_image_reply());
    let value = run.json();
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert_eq!(
        value["functionResponse"]["response"],
        json!({"output": format!("{TWO_IMAGE_REST}\n\nChart")})
    );
    assert_eq!(
        value["functionResponse"]["parts"].as_array().unwrap().len(),
        2
    );
}

#[test]
fn to_gemini_without_images_has_no_parts() {
    let run = to("gemini", "call_1", Some("chart"), NO_IMAGE_REPLY);
    assert_ok(
        &run,
        &json!({"functionResponse": {"id": "call_1", "name": "chart",
                "response": {"output": TWO_IMAGE_REST}}}),
    );
}

#[test]
fn to_gemini_degrades_a_gif_to_the_placeholder_text_with_one_warning() {
    let input = images_only(&[
        entry("image/gif", "tiny.gif", None),
        entry("image/png", "tiny.png", None),
        entry("image/gif", "tiny.gif", None),
    ]);
    let run = to("gemini", "call_1", Some("chart"), &input);
    let gif_len = bytes("tiny.gif").len();
    let placeholder = format!("[unsupported image part (image/gif, {gif_len} bytes)]");
    assert_output(
        &run,
        &json!({"functionResponse": {"id": "call_1", "name": "chart",
            "response": {"output": format!("{{}}\n\n{placeholder}\n\n{placeholder}")},
            "parts": [{"inlineData": {"mimeType": "image/png", "data": b64("tiny.png")}}]}}),
        &warning(
            "image parts from tools cannot be carried by gemini; replaced by a placeholder text",
        ),
    );
    assert_eq!(
        placeholder,
        "[unsupported image part (image/gif, 91 bytes)]"
    );
    let quiet = split(
        &["--to", "gemini", "--call-id", "c", "--name", "n", "--quiet"],
        &input,
    );
    assert_eq!(quiet.code, 0);
    assert_eq!(quiet.stderr, "");
}

#[test]
fn to_gemini_without_a_name_is_exit_2() {
    let input = images_only(&[entry("image/png", "tiny.png", None)]);
    let run = to("gemini", "call_1", None, &input);
    run.assert_error(2, &["--to gemini needs --name"]);
    assert_no_payload_leak(&run.stderr, &b64("tiny.png"));
}

#[test]
fn to_bedrock_is_a_tool_result_with_format_tokens() {
    let entries: Vec<String> = IMAGES
        .iter()
        .map(|(name, mime, _)| entry(mime, name, None))
        .collect();
    let input = reply(r#""ok":true,"#, &entries, r#","n":1.0"#);
    let run = to("bedrock", "tooluse_abc-1.2:3", Some("chart"), &input);
    let block = |format: &str, name: &str| json!({"image": {"format": format, "source": {"bytes": b64(name)}}});
    assert_ok(
        &run,
        &json!({"toolResult": {"toolUseId": "tooluse_abc-1.2:3", "content": [
            {"text": TWO_IMAGE_REST},
            block("png", "tiny.png"),
            block("jpeg", "tiny.jpg"),
            block("gif", "tiny.gif"),
            block("webp", "tiny.webp"),
        ]}}),
    );
}

#[test]
fn to_bedrock_keeps_labels_as_text_blocks() {
    let run = to("bedrock", "call_1", None, &two_image_reply());
    assert_ok(
        &run,
        &json!({"toolResult": {"toolUseId": "call_1", "content": [
            {"text": TWO_IMAGE_REST},
            {"text": "Chart"},
            {"image": {"format": "png", "source": {"bytes": b64("tiny.png")}}},
            {"image": {"format": "jpeg", "source": {"bytes": b64("tiny.jpg")}}},
        ]}}),
    );
}

#[test]
fn to_bedrock_maps_a_call_id_outside_its_pattern_with_a_warning() {
    let run = to("bedrock", "call/1", None, NO_IMAGE_REPLY);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    let id = run.json()["toolResult"]["toolUseId"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(id.starts_with("call_1-"), "{id}");
    assert!(id.len() <= 64);
    assert!(id
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "_.:-".contains(c)));
    assert_output(
        &run,
        &json!({"toolResult": {"toolUseId": id, "content": [{"text": TWO_IMAGE_REST}]}}),
        &warning(&format!(
            "call ids outside Bedrock's toolUseId alphabet were mapped: \"call/1\" → \"{id}\""
        )),
    );
    // Deterministic, and distinct ids stay distinct.
    let again = to("bedrock", "call/1", None, NO_IMAGE_REPLY);
    assert_eq!(again.stdout, run.stdout);
    let other = to("bedrock", "call+1", None, NO_IMAGE_REPLY);
    assert_ne!(other.json()["toolResult"]["toolUseId"], json!(id));
}

#[test]
fn to_mcp_is_a_call_tool_result_in_order_and_drops_the_call_id() {
    let run = to("mcp", "call_1", Some("chart"), &two_image_reply());
    assert_output(
        &run,
        &json!({"content": [
            text(TWO_IMAGE_REST),
            text("Chart"),
            {"type": "image", "data": b64("tiny.png"), "mimeType": "image/png"},
            {"type": "image", "data": b64("tiny.jpg"), "mimeType": "image/jpeg"},
        ]}),
        &warning("mcp carries no call id; dropped \"call_1\""),
    );
    let quiet = split(
        &["--to", "mcp", "--call-id", "call_1", "-q"],
        NO_IMAGE_REPLY,
    );
    assert_ok(&quiet, &json!({"content": [text(TWO_IMAGE_REST)]}));
}

#[test]
fn to_with_json_lines_warns_on_each_line() {
    let line = images_only(&[entry("image/png", "tiny.png", None)]);
    let input = format!("{line}\n{NO_IMAGE_REPLY}\n");
    let run = split(&["--to", "mcp", "--call-id", "call_1"], &input);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    // Each warning names its line: the same one on two lines is said twice.
    assert_eq!(
        run.stderr_without_summary(),
        warning("<stdin>:1: mcp carries no call id; dropped \"call_1\"")
            + &warning("<stdin>:2: mcp carries no call id; dropped \"call_1\"")
    );
    assert_eq!(
        run.json_lines(),
        [
            json!({"content": [text("{}"), {"type": "image", "data": b64("tiny.png"), "mimeType": "image/png"}]}),
            json!({"content": [text(TWO_IMAGE_REST)]}),
        ]
    );
}

#[test]
fn to_without_call_id_is_exit_2() {
    let run = split(&["--to", "anthropic"], NO_IMAGE_REPLY);
    run.assert_error(2, &["--call-id"]);
}

#[test]
fn rest_with_to_is_exit_2() {
    let run = split(&["--rest", "--to", "mcp", "--call-id", "c"], NO_IMAGE_REPLY);
    run.assert_error(2, &["--rest", "--to"]);
}

#[test]
fn call_id_or_name_without_to_is_exit_2() {
    let run = split(&["--call-id", "c"], NO_IMAGE_REPLY);
    run.assert_error(2, &["--to"]);
    let run = split(&["--name", "chart"], NO_IMAGE_REPLY);
    run.assert_error(2, &["--to"]);
}

#[test]
fn unknown_target_shape_is_exit_2() {
    for shape in ["nemo-gym", "tool-output-image", "openai"] {
        let run = split(&["--to", shape, "--call-id", "c"], NO_IMAGE_REPLY);
        run.assert_error(2, &[&format!("invalid value '{shape}' for '--to <SHAPE>'")]);
    }
}

// ---------------------------------------------------------------------------
// Inputs that cannot be read

#[test]
fn missing_input_file_is_exit_2() {
    let run = run(&["split", "tests/fixtures/split/no-such-reply.json"]);
    run.assert_error(2, &["cannot read tests/fixtures/split/no-such-reply.json"]);
}

#[test]
fn directory_as_input_is_exit_2() {
    let run = run(&["split", "tests/fixtures/split"]);
    run.assert_error(2, &["cannot read tests/fixtures/split"]);
}

#[test]
fn empty_input_is_zero_documents() {
    for input in ["", "\n  \n"] {
        let run = split(&[], input);
        assert_eq!(
            (run.code, run.stdout.as_str(), run.stderr.as_str()),
            (0, "", "")
        );
    }
}

#[test]
fn to_anthropic_leaves_out_a_whitespace_only_label() {
    let input = images_only(&[entry("image/png", "tiny.png", Some("  "))]);
    let run = to("anthropic", "toolu_01", None, &input);
    // The same writer as convert's, which says what it left out.
    assert_output(
        &run,
        &json!({"type": "tool_result", "tool_use_id": "toolu_01", "content": [
            text("{}"),
            {"type": "image", "source": {"type": "base64", "media_type": "image/png",
                                         "data": b64("tiny.png")}},
        ]}),
        &warning(
            "left out empty text parts: anthropic rejects text blocks without non-whitespace text",
        ),
    );
}
