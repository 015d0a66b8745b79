//! `partkit inspect` (docs/commands/inspect.md): every part and embedded media
//! item in a document of any shape (canonical parts, NeMo Gym replies, OpenAI Chat and Responses,
//! Anthropic, Gemini in either casing, Bedrock, MCP, bare `data:` URLs in strings),
//! as an aligned table or as JSON Lines (`--format json`), and written out with
//! `--extract`.
//!
//! Documents are built here from the committed fixtures (`tests/fixtures/tiny.*`,
//! `doc.pdf`, `tone.*`, `note.txt`), mostly by running `partkit encode --to X` and
//! `partkit split --to X` so they are what partkit itself writes, and otherwise as
//! hand-written requests in the providers' wire shapes. Most are given on
//! stdin, so messages name `<stdin>`.

use std::fs;
use std::path::{Path, PathBuf};

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use serde_json::{json, Value};

use super::support::media::{b64, bytes, data_url};
use super::support::outputs::listing;
use super::{fixture, run, run_with_stdin, Run};
use super::{path_arg, temp_file};

// ---------------------------------------------------------------------------
// Helpers

/// A fixture as typed on the command line.
fn fixture_arg(name: &str) -> String {
    format!("tests/fixtures/{name}")
}

/// Runs `partkit inspect ARGS` with `stdin`.
fn inspect(args: &[&str], stdin: &str) -> Run {
    let mut all = vec!["inspect"];
    all.extend_from_slice(args);
    run_with_stdin(&all, stdin.as_bytes())
}

/// Runs another partkit command that must succeed quietly; its stdout.
fn partkit(args: &[&str], stdin: &str) -> String {
    let run = run_with_stdin(args, stdin.as_bytes());
    assert_eq!(run.code, 0, "partkit {args:?}: {}", run.stderr);
    run.stdout
}

/// `partkit encode --to SHAPE FIXTURES...`.
fn encode_to(shape: &str, fixtures: &[&str]) -> String {
    let paths: Vec<String> = fixtures.iter().map(|f| fixture_arg(f)).collect();
    let mut args = vec!["encode", "--to", shape];
    args.extend(paths.iter().map(String::as_str));
    partkit(&args, "")
}

/// The decoded size of a fixture.
fn size(name: &str) -> u64 {
    bytes(name).len() as u64
}

/// Whether a fixture is one of the 4×3 images.
fn is_image(name: &str) -> bool {
    name.starts_with("tiny.")
}

/// The expected `--format json` object of an inline item holding a fixture
/// whose declared and sniffed type are both `mime`.
fn inline(pointer: &str, kind: &str, mime: &str, name_of: &str, name: Option<&str>) -> Value {
    let (width, height) = if is_image(name_of) {
        (json!(4), json!(3))
    } else {
        (Value::Null, Value::Null)
    };
    json!({
        "line": 1,
        "pointer": pointer,
        "kind": kind,
        "declared": mime,
        "sniffed": mime,
        "bytes": size(name_of),
        "width": width,
        "height": height,
        "url": false,
        "name": name,
        "problems": [],
    })
}

/// The expected object of a URL item (or a provider file reference).
fn url_item(pointer: &str, kind: &str, declared: Option<&str>, name: Option<&str>) -> Value {
    json!({
        "line": 1,
        "pointer": pointer,
        "kind": kind,
        "declared": declared,
        "sniffed": null,
        "bytes": null,
        "width": null,
        "height": null,
        "url": true,
        "name": name,
        "problems": [],
    })
}

/// The expected object of an inline item with no sniffable type (plain text).
fn text_item(pointer: &str, kind: &str, declared: &str, bytes: u64, name: Option<&str>) -> Value {
    json!({
        "line": 1,
        "pointer": pointer,
        "kind": kind,
        "declared": declared,
        "sniffed": null,
        "bytes": bytes,
        "width": null,
        "height": null,
        "url": false,
        "name": name,
        "problems": [],
    })
}

/// `value` with `key` set (keeps the key's place).
fn with(mut value: Value, key: &str, new: Value) -> Value {
    assert!(value.get(key).is_some(), "no key {key}");
    value[key] = new;
    value
}

/// Exit 0, nothing on stderr, and stdout exactly one compact JSON line per
/// expected item (which pins the key order too).
fn assert_items(run: &Run, expected: &[Value]) {
    assert_eq!(run.code, 0, "exit code; stderr: {}", run.stderr);
    assert_eq!(run.stderr_without_summary(), "", "stderr");
    let got = run.json_lines();
    assert_eq!(got.len(), expected.len(), "item count:\n{}", run.stdout);
    for (i, (got, want)) in got.iter().zip(expected).enumerate() {
        assert_eq!(got, want, "item {i}");
    }
    let text: String = expected
        .iter()
        .map(|v| serde_json::to_string(v).unwrap() + "\n")
        .collect();
    assert_eq!(run.stdout, text, "stdout text");
}

/// `inspect --format json` of `doc` on stdin, checked against `expected`.
fn assert_inspects(doc: &str, expected: &[Value]) {
    assert_items(&inspect(&["--format", "json"], doc), expected);
}

/// The char offsets where the header's column names start.
fn column_starts(header: &str) -> Vec<usize> {
    let chars: Vec<char> = header.chars().collect();
    (0..chars.len())
        .filter(|&i| chars[i] != ' ' && (i == 0 || chars[i - 1] == ' '))
        .collect()
}

/// Checks the table layout (header `columns`, every column of every row starting
/// at the header's offset after a gap of at least two spaces, no trailing
/// spaces) and returns the cells of the data rows.
fn table_cells(stdout: &str, columns: &[&str]) -> Vec<Vec<String>> {
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(stdout.ends_with('\n'), "table ends with a newline");
    let header: Vec<&str> = lines[0].split_whitespace().collect();
    assert_eq!(header, columns, "header row");
    let starts = column_starts(lines[0]);
    let mut rows = Vec::new();
    for line in &lines[1..] {
        assert_eq!(line.trim_end(), *line, "trailing spaces: {line:?}");
        let chars: Vec<char> = line.chars().collect();
        for &start in &starts[1..] {
            assert!(
                chars.len() > start
                    && chars[start] != ' '
                    && chars[start - 1] == ' '
                    && chars[start - 2] == ' ',
                "column at {start} misaligned in {line:?}\n{stdout}"
            );
        }
        let mut cells = Vec::new();
        for (c, &start) in starts.iter().enumerate() {
            let end = starts.get(c + 1).copied().unwrap_or(chars.len());
            cells.push(
                chars[start..end]
                    .iter()
                    .collect::<String>()
                    .trim_end()
                    .to_string(),
            );
        }
        rows.push(cells);
    }
    rows
}

const COLUMNS: [&str; 8] = [
    "POINTER",
    "KIND",
    "DECLARED",
    "SNIFFED",
    "BYTES",
    "DIMENSIONS",
    "NAME",
    "PROBLEMS",
];

const LINE_COLUMNS: [&str; 9] = [
    "LINE",
    "POINTER",
    "KIND",
    "DECLARED",
    "SNIFFED",
    "BYTES",
    "DIMENSIONS",
    "NAME",
    "PROBLEMS",
];

const THE_PROBLEM_OF_TEXT: &str =
    "a base64 data: URL pasted into text: the model reads characters, not media";

// ---------------------------------------------------------------------------
// One document per shape

#[test]
fn canonical_parts_from_encode() {
    let doc = partkit(
        &[
            "encode",
            &fixture_arg("tiny.png"),
            &fixture_arg("tiny.jpg"),
            &fixture_arg("tiny.gif"),
            &fixture_arg("tiny.webp"),
            &fixture_arg("doc.pdf"),
            &fixture_arg("tone.wav"),
            &fixture_arg("tone.mp3"),
            &fixture_arg("note.txt"),
            "--text",
            "what is this?",
            "https://example.com/report.pdf",
        ],
        "",
    );
    assert_inspects(
        &doc,
        &[
            inline(
                "/0",
                "canonical image",
                "image/png",
                "tiny.png",
                Some("tiny.png"),
            ),
            inline(
                "/1",
                "canonical image",
                "image/jpeg",
                "tiny.jpg",
                Some("tiny.jpg"),
            ),
            inline(
                "/2",
                "canonical image",
                "image/gif",
                "tiny.gif",
                Some("tiny.gif"),
            ),
            inline(
                "/3",
                "canonical image",
                "image/webp",
                "tiny.webp",
                Some("tiny.webp"),
            ),
            inline(
                "/4",
                "canonical file",
                "application/pdf",
                "doc.pdf",
                Some("doc.pdf"),
            ),
            inline(
                "/5",
                "canonical audio",
                "audio/wav",
                "tone.wav",
                Some("tone.wav"),
            ),
            inline(
                "/6",
                "canonical audio",
                "audio/mpeg",
                "tone.mp3",
                Some("tone.mp3"),
            ),
            text_item("/7", "canonical file", "text/plain", 42, Some("note.txt")),
            // The text part at /8 is no media.
            url_item("/9", "canonical file", Some("application/pdf"), None),
        ],
    );
}

#[test]
fn canonical_parts_as_json_lines_from_encode() {
    // `encode --jsonl`: one part per line, each one the whole document.
    let doc = partkit(
        &[
            "encode",
            "--jsonl",
            &fixture_arg("tiny.png"),
            &fixture_arg("tone.wav"),
        ],
        "",
    );
    assert_inspects(
        &doc,
        &[
            inline(
                "",
                "canonical image",
                "image/png",
                "tiny.png",
                Some("tiny.png"),
            ),
            with(
                inline(
                    "",
                    "canonical audio",
                    "audio/wav",
                    "tone.wav",
                    Some("tone.wav"),
                ),
                "line",
                json!(2),
            ),
        ],
    );
}

#[test]
fn nemo_gym_reply() {
    // The committed pretty-printed reply of the split tests.
    let run = run(&[
        "inspect",
        "--format",
        "json",
        &fixture_arg("split/pretty.json"),
    ]);
    assert_items(
        &run,
        &[inline(
            "/tool_output_images/0",
            "nemo-gym tool_output_image",
            "image/gif",
            "tiny.gif",
            Some("Frame 1"),
        )],
    );
    // A reply with three entries, the label on some of them, text around.
    let doc = json!({
        "stdout": "plotted",
        "tool_output_images": [
            {"image_url": data_url("image/png", "tiny.png"), "label": "Sales"},
            {"image_url": data_url("image/jpeg", "tiny.jpg"), "label": null},
            {"label": "last", "image_url": data_url("image/webp", "tiny.webp")},
        ],
        "exit_code": 0,
    })
    .to_string();
    let kind = "nemo-gym tool_output_image";
    assert_inspects(
        &doc,
        &[
            inline(
                "/tool_output_images/0",
                kind,
                "image/png",
                "tiny.png",
                Some("Sales"),
            ),
            inline(
                "/tool_output_images/1",
                kind,
                "image/jpeg",
                "tiny.jpg",
                None,
            ),
            inline(
                "/tool_output_images/2",
                kind,
                "image/webp",
                "tiny.webp",
                Some("last"),
            ),
        ],
    );
}

#[test]
fn tool_output_image_entries_from_encode() {
    // `encode --to tool-output-image` prints a bare list of ToolOutputImage
    // entries: each is one item with its label, not a bare data URL.
    let doc = partkit(
        &[
            "encode",
            "--to",
            "tool-output-image",
            "--name",
            "Frame 1",
            &fixture_arg("tiny.gif"),
        ],
        "",
    );
    assert_inspects(
        &doc,
        &[inline(
            "/0",
            "nemo-gym tool_output_image",
            "image/gif",
            "tiny.gif",
            Some("Frame 1"),
        )],
    );
}

#[test]
fn openai_chat_from_encode_and_split() {
    let doc = encode_to(
        "openai-chat",
        &["tiny.png", "doc.pdf", "tone.wav", "tone.mp3"],
    );
    assert_inspects(
        &doc,
        &[
            inline("/0", "openai-chat image_url", "image/png", "tiny.png", None),
            inline(
                "/1",
                "openai-chat file",
                "application/pdf",
                "doc.pdf",
                Some("doc.pdf"),
            ),
            inline("/2", "openai input_audio", "audio/wav", "tone.wav", None),
            inline("/3", "openai input_audio", "audio/mpeg", "tone.mp3", None),
        ],
    );
    // split's tool message plus the user message that carries the image.
    let reply = fs::read_to_string(fixture("split/pretty.json")).unwrap();
    let doc = partkit(
        &["split", "--to", "openai-chat", "--call-id", "call_1"],
        &reply,
    );
    assert_inspects(
        &doc,
        &[inline(
            "/1/content/2",
            "openai-chat image_url",
            "image/gif",
            "tiny.gif",
            None,
        )],
    );
}

#[test]
fn openai_chat_request_by_hand() {
    let doc = json!({
        "model": "gpt-4o",
        "messages": [
            {"role": "system", "content": "You are terse."},
            {"role": "user", "content": [
                {"type": "text", "text": "What is in these?"},
                {"type": "image_url", "image_url": {"url": data_url("image/png", "tiny.png"), "detail": "high"}},
                {"type": "image_url", "image_url": {"url": "https://example.com/cat.JPG?size=large#top"}},
                {"type": "input_audio", "input_audio": {"data": b64("tone.wav"), "format": "wav"}},
                {"type": "input_audio", "input_audio": {"data": b64("tone.mp3"), "format": "mp3"}},
                {"type": "file", "file": {"filename": "report.pdf", "file_data": data_url("application/pdf", "doc.pdf")}},
                {"type": "file", "file": {"file_id": "file-abc123"}},
            ]},
        ],
    })
    .to_string();
    let at = |i: usize| format!("/messages/1/content/{i}");
    assert_inspects(
        &doc,
        &[
            inline(
                &at(1),
                "openai-chat image_url",
                "image/png",
                "tiny.png",
                None,
            ),
            url_item(&at(2), "openai-chat image_url", Some("image/jpeg"), None),
            inline(&at(3), "openai input_audio", "audio/wav", "tone.wav", None),
            inline(&at(4), "openai input_audio", "audio/mpeg", "tone.mp3", None),
            inline(
                &at(5),
                "openai-chat file",
                "application/pdf",
                "doc.pdf",
                Some("report.pdf"),
            ),
            url_item(&at(6), "openai-chat file", None, None),
        ],
    );
}

#[test]
fn openai_responses_from_encode_and_split() {
    let doc = encode_to("openai-responses", &["tiny.jpg", "doc.pdf", "note.txt"]);
    let kind = "openai-responses input_file";
    assert_inspects(
        &doc,
        &[
            inline(
                "/0",
                "openai-responses input_image",
                "image/jpeg",
                "tiny.jpg",
                None,
            ),
            inline("/1", kind, "application/pdf", "doc.pdf", Some("doc.pdf")),
            text_item("/2", kind, "text/plain", 42, Some("note.txt")),
        ],
    );
    let reply = fs::read_to_string(fixture("split/pretty.json")).unwrap();
    let doc = partkit(
        &["split", "--to", "openai-responses", "--call-id", "call_1"],
        &reply,
    );
    assert_inspects(
        &doc,
        &[inline(
            "/output/2",
            "openai-responses input_image",
            "image/gif",
            "tiny.gif",
            None,
        )],
    );
}

#[test]
fn openai_responses_request_by_hand() {
    let doc = json!({
        "model": "gpt-4.1",
        "instructions": "Be brief.",
        "input": [
            {"type": "message", "role": "user", "content": [
                {"type": "input_text", "text": "hi"},
                {"type": "input_image", "image_url": data_url("image/webp", "tiny.webp"), "detail": "auto"},
                {"type": "input_image", "image_url": "https://example.com/y.png", "detail": "low"},
                {"type": "input_image", "file_id": "file-img", "detail": "low"},
                {"type": "input_file", "filename": "a.pdf", "file_data": data_url("application/pdf", "doc.pdf")},
                {"type": "input_file", "file_url": "https://example.com/r.pdf"},
                {"type": "input_file", "file_id": "file-abc"},
            ]},
            {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_chart", "arguments": "{}"},
            {"type": "function_call_output", "call_id": "call_1", "output": [
                {"type": "input_text", "text": "chart:"},
                {"type": "input_image", "image_url": data_url("image/gif", "tiny.gif"), "detail": "low"},
            ]},
        ],
    })
    .to_string();
    let at = |i: usize| format!("/input/0/content/{i}");
    let image = "openai-responses input_image";
    let file = "openai-responses input_file";
    assert_inspects(
        &doc,
        &[
            inline(&at(1), image, "image/webp", "tiny.webp", None),
            url_item(&at(2), image, Some("image/png"), None),
            url_item(&at(3), image, None, None),
            inline(&at(4), file, "application/pdf", "doc.pdf", Some("a.pdf")),
            url_item(&at(5), file, Some("application/pdf"), None),
            url_item(&at(6), file, None, None),
            inline("/input/2/output/1", image, "image/gif", "tiny.gif", None),
        ],
    );
}

#[test]
fn anthropic_from_encode_and_split() {
    let doc = encode_to("anthropic", &["tiny.png", "doc.pdf", "note.txt"]);
    let note = fs::read_to_string(fixture("note.txt")).unwrap();
    assert_inspects(
        &doc,
        &[
            inline("/0", "anthropic image", "image/png", "tiny.png", None),
            inline(
                "/1",
                "anthropic document",
                "application/pdf",
                "doc.pdf",
                Some("doc.pdf"),
            ),
            text_item(
                "/2",
                "anthropic document",
                "text/plain",
                note.len() as u64,
                Some("note.txt"),
            ),
        ],
    );
    let reply = fs::read_to_string(fixture("split/pretty.json")).unwrap();
    let doc = partkit(
        &["split", "--to", "anthropic", "--call-id", "toolu_01"],
        &reply,
    );
    assert_inspects(
        &doc,
        &[inline(
            "/content/2",
            "anthropic image",
            "image/gif",
            "tiny.gif",
            None,
        )],
    );
}

#[test]
fn anthropic_request_by_hand() {
    let doc = json!({
        "model": "claude-sonnet-4-5",
        "max_tokens": 1024,
        "system": [{"type": "text", "text": "Be brief."}],
        "messages": [
            {"role": "user", "content": [
                {"type": "text", "text": "Compare."},
                {"type": "image", "source": {"type": "base64", "media_type": "image/jpeg", "data": b64("tiny.jpg")}},
                {"type": "image", "source": {"type": "url", "url": "https://example.com/y.webp"}},
                {"type": "image", "source": {"type": "file", "file_id": "file_011"}},
                {"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": b64("doc.pdf")}, "title": "Report"},
                {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "plain text"}, "title": "Notes"},
                {"type": "document", "source": {"type": "url", "url": "https://example.com/y.pdf"}},
            ]},
            {"role": "assistant", "content": [
                {"type": "tool_use", "id": "toolu_01", "name": "get_chart", "input": {"city": "Paris"}},
            ]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "toolu_01", "is_error": false, "content": [
                    {"type": "text", "text": "chart:"},
                    {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": b64("tiny.png")}},
                ]},
            ]},
        ],
    })
    .to_string();
    let at = |i: usize| format!("/messages/0/content/{i}");
    let image = "anthropic image";
    let document = "anthropic document";
    assert_inspects(
        &doc,
        &[
            inline(&at(1), image, "image/jpeg", "tiny.jpg", None),
            url_item(&at(2), image, Some("image/webp"), None),
            url_item(&at(3), image, None, None),
            inline(
                &at(4),
                document,
                "application/pdf",
                "doc.pdf",
                Some("Report"),
            ),
            text_item(&at(5), document, "text/plain", 10, Some("Notes")),
            url_item(&at(6), document, Some("application/pdf"), None),
            inline(
                "/messages/2/content/0/content/1",
                image,
                "image/png",
                "tiny.png",
                None,
            ),
        ],
    );
}

#[test]
fn gemini_camel_case_from_encode() {
    let doc = encode_to("gemini", &["tiny.png", "doc.pdf", "tone.wav", "tone.mp3"]);
    let kind = "gemini inlineData";
    assert_inspects(
        &doc,
        &[
            inline("/0", kind, "image/png", "tiny.png", None),
            inline("/1", kind, "application/pdf", "doc.pdf", None),
            inline("/2", kind, "audio/wav", "tone.wav", None),
            inline("/3", kind, "audio/mpeg", "tone.mp3", None),
        ],
    );
}

#[test]
fn gemini_request_in_camel_case_by_hand() {
    let doc = json!({
        "systemInstruction": {"role": "user", "parts": [{"text": "Be brief."}]},
        "contents": [
            {"role": "user", "parts": [
                {"text": "What is this?"},
                {"inlineData": {"mimeType": "image/webp", "data": b64("tiny.webp")}},
                {"fileData": {"mimeType": "application/pdf", "fileUri": "https://generativelanguage.googleapis.com/v1beta/files/abc"}},
            ]},
            {"role": "model", "parts": [{"functionCall": {"id": "call_1", "name": "get_chart", "args": {}}}]},
            {"role": "user", "parts": [{"functionResponse": {
                "id": "call_1", "name": "get_chart",
                "response": {"output": {"$ref": "chart.png"}},
                "parts": [{"inlineData": {"mimeType": "image/png", "data": b64("tiny.png"), "displayName": "chart.png"}}],
            }}]},
        ],
    })
    .to_string();
    assert_inspects(
        &doc,
        &[
            inline(
                "/contents/0/parts/1",
                "gemini inlineData",
                "image/webp",
                "tiny.webp",
                None,
            ),
            url_item(
                "/contents/0/parts/2",
                "gemini fileData",
                Some("application/pdf"),
                None,
            ),
            inline(
                "/contents/2/parts/0/functionResponse/parts/0",
                "gemini inlineData",
                "image/png",
                "tiny.png",
                Some("chart.png"),
            ),
        ],
    );
}

#[test]
fn gemini_request_in_snake_case_by_hand() {
    // What the google-genai SDK sends inside parts: snake_case (docs/reading.md).
    let doc = json!({
        "contents": [{"role": "user", "parts": [
            {"text": "Listen and read."},
            {"inline_data": {"mime_type": "audio/mp3", "data": b64("tone.mp3")}},
            {"inline_data": {"mime_type": "image/jpeg", "data": b64("tiny.jpg"), "display_name": "photo.jpg"}},
            {"file_data": {"mime_type": "application/pdf", "file_uri": "gs://bucket/a.pdf"}},
        ]}],
    })
    .to_string();
    let at = |i: usize| format!("/contents/0/parts/{i}");
    assert_inspects(
        &doc,
        &[
            with(
                inline(&at(1), "gemini inlineData", "audio/mpeg", "tone.mp3", None),
                "problems",
                json!([r#"declared "audio/mp3", normalized audio/mpeg"#]),
            ),
            inline(
                &at(2),
                "gemini inlineData",
                "image/jpeg",
                "tiny.jpg",
                Some("photo.jpg"),
            ),
            url_item(&at(3), "gemini fileData", Some("application/pdf"), None),
        ],
    );
}

#[test]
fn bedrock_from_encode_and_split() {
    let doc = encode_to(
        "bedrock",
        &["tiny.png", "tiny.jpg", "doc.pdf", "tone.wav", "tone.mp3"],
    );
    assert_inspects(
        &doc,
        &[
            inline("/0/image", "bedrock image", "image/png", "tiny.png", None),
            inline("/1/image", "bedrock image", "image/jpeg", "tiny.jpg", None),
            inline(
                "/2/document",
                "bedrock document",
                "application/pdf",
                "doc.pdf",
                Some("doc"),
            ),
            inline("/3/audio", "bedrock audio", "audio/wav", "tone.wav", None),
            inline("/4/audio", "bedrock audio", "audio/mpeg", "tone.mp3", None),
        ],
    );
    let reply = fs::read_to_string(fixture("split/pretty.json")).unwrap();
    let doc = partkit(
        &["split", "--to", "bedrock", "--call-id", "tooluse_1"],
        &reply,
    );
    assert_inspects(
        &doc,
        &[inline(
            "/toolResult/content/2/image",
            "bedrock image",
            "image/gif",
            "tiny.gif",
            None,
        )],
    );
}

#[test]
fn bedrock_request_by_hand() {
    let doc = json!({
        "system": [{"text": "Be brief."}],
        "messages": [
            {"role": "user", "content": [
                {"text": "Look."},
                {"image": {"format": "webp", "source": {"bytes": b64("tiny.webp")}}},
                {"image": {"format": "jpeg", "source": {"s3Location": {"uri": "s3://bucket/key.jpg", "bucketOwner": "123456789012"}}}},
                {"document": {"format": "pdf", "name": "Report 2024", "source": {"bytes": b64("doc.pdf")}}},
                {"audio": {"format": "wav", "source": {"bytes": b64("tone.wav")}}},
            ]},
            {"role": "assistant", "content": [{"toolUse": {"toolUseId": "tooluse_abc", "name": "get_chart", "input": {}}}]},
            {"role": "user", "content": [{"toolResult": {"toolUseId": "tooluse_abc", "status": "success", "content": [
                {"json": {"rows": 3}},
                {"text": "chart follows"},
                {"image": {"format": "gif", "source": {"bytes": b64("tiny.gif")}}},
                {"document": {"format": "txt", "name": "notes", "source": {"text": "plain notes"}}},
            ]}}]},
        ],
    })
    .to_string();
    let at = |i: usize, block: &str| format!("/messages/0/content/{i}/{block}");
    let tool =
        |i: usize, block: &str| format!("/messages/2/content/0/toolResult/content/{i}/{block}");
    assert_inspects(
        &doc,
        &[
            inline(
                &at(1, "image"),
                "bedrock image",
                "image/webp",
                "tiny.webp",
                None,
            ),
            url_item(&at(2, "image"), "bedrock image", Some("image/jpeg"), None),
            inline(
                &at(3, "document"),
                "bedrock document",
                "application/pdf",
                "doc.pdf",
                Some("Report 2024"),
            ),
            inline(
                &at(4, "audio"),
                "bedrock audio",
                "audio/wav",
                "tone.wav",
                None,
            ),
            inline(
                &tool(2, "image"),
                "bedrock image",
                "image/gif",
                "tiny.gif",
                None,
            ),
            text_item(
                &tool(3, "document"),
                "bedrock document",
                "text/plain",
                11,
                Some("notes"),
            ),
        ],
    );
}

#[test]
fn mcp_from_encode_and_split() {
    // MCP image and audio blocks have the canonical part's shape: a bare list
    // of them is reported as canonical, a CallToolResult's as MCP's.
    let doc = encode_to("mcp", &["tiny.png", "doc.pdf", "tone.wav"]);
    assert_inspects(
        &doc,
        &[
            inline("/0", "canonical image", "image/png", "tiny.png", None),
            inline(
                "/1",
                "mcp resource",
                "application/pdf",
                "doc.pdf",
                Some("file:///doc.pdf"),
            ),
            inline("/2", "canonical audio", "audio/wav", "tone.wav", None),
        ],
    );
    let reply = fs::read_to_string(fixture("split/pretty.json")).unwrap();
    let run = run_with_stdin(
        &["split", "--to", "mcp", "--call-id", "c", "--quiet"],
        reply.as_bytes(),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_inspects(
        &run.stdout,
        &[inline(
            "/content/2",
            "mcp image",
            "image/gif",
            "tiny.gif",
            None,
        )],
    );
}

#[test]
fn mcp_call_tool_result_by_hand() {
    let doc = json!({
        "jsonrpc": "2.0",
        "id": 7,
        "result": {
            "content": [
                {"type": "text", "text": "ok"},
                {"type": "image", "data": b64("tiny.jpg"), "mimeType": "image/jpeg"},
                {"type": "audio", "data": b64("tone.mp3"), "mimeType": "audio/mpeg"},
                {"type": "resource_link", "uri": "file:///r.pdf", "name": "r.pdf", "mimeType": "application/pdf"},
                {"type": "resource", "resource": {"uri": "file:///a.txt", "mimeType": "text/plain", "text": "hello"}},
                {"type": "resource", "resource": {"uri": "file:///doc.pdf", "mimeType": "application/pdf", "blob": b64("doc.pdf")}},
            ],
            "structuredContent": {"temp": 21},
            "isError": false,
        },
    })
    .to_string();
    let at = |i: usize| format!("/result/content/{i}");
    assert_inspects(
        &doc,
        &[
            inline(&at(1), "mcp image", "image/jpeg", "tiny.jpg", None),
            inline(&at(2), "mcp audio", "audio/mpeg", "tone.mp3", None),
            url_item(
                &at(3),
                "mcp resource_link",
                Some("application/pdf"),
                Some("r.pdf"),
            ),
            text_item(
                &at(4),
                "mcp resource",
                "text/plain",
                5,
                Some("file:///a.txt"),
            ),
            inline(
                &at(5),
                "mcp resource",
                "application/pdf",
                "doc.pdf",
                Some("file:///doc.pdf"),
            ),
        ],
    );
}

#[test]
fn bare_data_urls_in_strings() {
    let png = data_url("image/png", "tiny.png");
    let gif = data_url("image/gif", "tiny.gif");
    let doc = json!({
        "chart": png,
        "stdout": format!("Saved the chart: {gif}. Done."),
        "two": format!("a {png} and b {gif}"),
        "start": format!("{png} (the chart)"),
        "named": format!("data:image/webp;name=chart%201.webp;base64,{}", b64("tiny.webp")),
        "deep": [{"x": [png]}],
        "short": "data:image/png;base64,AAAA is just a mention",
        "mention": "a data: URL looks like data:image/png;base64,…",
    })
    .to_string();
    let in_text = |pointer: &str, mime: &str, name_of: &str| {
        with(
            inline(pointer, "data URL in text", mime, name_of, None),
            "problems",
            json!([THE_PROBLEM_OF_TEXT]),
        )
    };
    assert_inspects(
        &doc,
        &[
            inline("/chart", "data URL", "image/png", "tiny.png", None),
            in_text("/stdout", "image/gif", "tiny.gif"),
            in_text("/two", "image/png", "tiny.png"),
            in_text("/two", "image/gif", "tiny.gif"),
            in_text("/start", "image/png", "tiny.png"),
            inline(
                "/named",
                "data URL",
                "image/webp",
                "tiny.webp",
                Some("chart 1.webp"),
            ),
            inline("/deep/0/x/0", "data URL", "image/png", "tiny.png", None),
        ],
    );
}

#[test]
fn pointers_escape_slash_and_tilde_in_keys() {
    let doc = json!({"a/b": {"c~d": data_url("image/png", "tiny.png")}}).to_string();
    assert_inspects(
        &doc,
        &[inline(
            "/a~1b/c~0d",
            "data URL",
            "image/png",
            "tiny.png",
            None,
        )],
    );
}

#[test]
fn a_mixed_transcript_reports_every_item_exactly_once() {
    // One document mixing shapes: nothing is found twice (a data URL inside an
    // image_url block is that block, not also a bare data URL), nothing missed.
    let png = data_url("image/png", "tiny.png");
    let doc = json!([
        {"type": "image_url", "image_url": {"url": png}},
        {"type": "input_image", "image_url": png, "detail": "auto"},
        {"tool_output_images": [{"image_url": png, "label": "x"}]},
        {"type": "file", "file": {"filename": "d.pdf", "file_data": data_url("application/pdf", "doc.pdf")}},
        {"type": "tool_result", "tool_use_id": "t", "content": [
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": b64("tiny.png")}},
        ]},
        {"parts": [{"inlineData": {"mimeType": "image/png", "data": b64("tiny.png")}}]},
        {"note": png},
    ])
    .to_string();
    let run = inspect(&["--format", "json"], &doc);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let got: Vec<(String, String)> = run
        .json_lines()
        .iter()
        .map(|v| {
            (
                v["pointer"].as_str().unwrap().to_string(),
                v["kind"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let want = [
        ("/0", "openai-chat image_url"),
        ("/1", "openai-responses input_image"),
        ("/2/tool_output_images/0", "nemo-gym tool_output_image"),
        ("/3", "openai-chat file"),
        ("/4/content/0", "anthropic image"),
        ("/5/parts/0", "gemini inlineData"),
        ("/6/note", "data URL"),
    ];
    let want: Vec<(String, String)> = want
        .iter()
        .map(|(p, k)| (p.to_string(), k.to_string()))
        .collect();
    assert_eq!(got, want);
}

// ---------------------------------------------------------------------------
// Problems

/// A canonical image part.
fn image_part(mime: &str, data: &str) -> Value {
    json!({"type": "image", "mimeType": mime, "data": data})
}

#[test]
fn label_that_does_not_match_the_bytes() {
    // PNG bytes declared JPEG: the problem, and still the PNG's own dimensions.
    let doc = json!([image_part("image/jpeg", &b64("tiny.png"))]).to_string();
    let want = json!({
        "line": 1, "pointer": "/0", "kind": "canonical image",
        "declared": "image/jpeg", "sniffed": "image/png", "bytes": 91,
        "width": 4, "height": 3, "url": false, "name": null,
        "problems": ["content is image/png, not image/jpeg"],
    });
    assert_inspects(&doc, &[want]);
    // The same in a data URL and in a Bedrock format token.
    let doc = json!({
        "url": format!("data:image/gif;base64,{}", b64("tiny.webp")),
        "bedrock": {"image": {"format": "png", "source": {"bytes": b64("tiny.jpg")}}},
    })
    .to_string();
    let run = inspect(&["--format", "json"], &doc);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let items = run.json_lines();
    assert_eq!(items[0]["sniffed"], "image/webp");
    assert_eq!(
        items[0]["problems"],
        json!(["content is image/webp, not image/gif"])
    );
    assert_eq!(items[1]["pointer"], "/bedrock/image");
    assert_eq!(items[1]["declared"], "image/png");
    assert_eq!(items[1]["sniffed"], "image/jpeg");
    assert_eq!(
        items[1]["problems"],
        json!(["content is image/jpeg, not image/png"])
    );
}

#[test]
fn bad_base64() {
    let png = b64("tiny.png");
    let doc = json!([
        image_part("image/png", "iVBO!!!"),
        image_part("image/png", &format!("{png}!!")),
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBO*RW0KGgo="}},
    ])
    .to_string();
    let run = inspect(&["--format", "json"], &doc);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stderr, "");
    let items = run.json_lines();
    assert_eq!(items.len(), 3);
    for item in &items {
        assert_eq!(item["sniffed"], Value::Null);
        assert_eq!(item["width"], Value::Null);
        let problems = item["problems"].as_array().unwrap();
        assert_eq!(problems.len(), 1, "{item}");
        assert!(
            problems[0]
                .as_str()
                .unwrap()
                .starts_with("invalid base64: "),
            "{item}"
        );
    }
    assert_eq!(
        items[0]["problems"][0],
        "invalid base64: character '!' at offset 4"
    );
    assert_eq!(
        items[2]["problems"][0],
        "invalid base64: character '*' at offset 4"
    );
}

#[test]
fn bad_base64_in_a_data_url_is_not_cut_short() {
    // A whole data URL with a stray character is bad base64, not a shorter
    // clean payload.
    let png = b64("tiny.png");
    let doc = json!({
        "a": format!("data:image/png;base64,{png}!"),
        "b": {"type": "input_image", "image_url": format!("data:image/png;base64,{png}#x"), "detail": "auto"},
    })
    .to_string();
    let run = inspect(&["--format", "json"], &doc);
    assert_eq!(run.code, 0, "{}", run.stderr);
    for item in run.json_lines() {
        let problem = item["problems"][0].as_str().unwrap();
        assert!(problem.starts_with("invalid base64: "), "{item}");
    }
}

#[test]
fn leniently_readable_base64_still_says_what_it_holds() {
    // Line-wrapped base64: not canonical, but the bytes are still a PNG.
    let png = b64("tiny.png");
    let wrapped: String = png
        .as_bytes()
        .chunks(76)
        .map(|c| std::str::from_utf8(c).unwrap())
        .collect::<Vec<_>>()
        .join("\n");
    let doc = json!([image_part("image/png", &wrapped)]).to_string();
    let want = with(
        inline("/0", "canonical image", "image/png", "tiny.png", None),
        "problems",
        json!([
            "invalid base64: character 0x0a at offset 76 (not canonical base64, but readable leniently)"
        ]),
    );
    assert_inspects(&doc, &[want]);
}

#[test]
fn aliases_and_spellings_of_the_declared_type() {
    let doc = json!([
        image_part("image/jpg", &b64("tiny.jpg")),
        image_part("IMAGE/PNG", &b64("tiny.png")),
        {"type": "audio", "mimeType": "audio/x-wav", "data": b64("tone.wav")},
        image_part("image/png", &b64("tiny.png")),
    ])
    .to_string();
    let normalized =
        |raw: &str, canonical: &str| json!([format!("declared {raw:?}, normalized {canonical}")]);
    assert_inspects(
        &doc,
        &[
            with(
                inline("/0", "canonical image", "image/jpeg", "tiny.jpg", None),
                "problems",
                normalized("image/jpg", "image/jpeg"),
            ),
            with(
                inline("/1", "canonical image", "image/png", "tiny.png", None),
                "problems",
                normalized("IMAGE/PNG", "image/png"),
            ),
            with(
                inline("/2", "canonical audio", "audio/wav", "tone.wav", None),
                "problems",
                normalized("audio/x-wav", "audio/wav"),
            ),
            inline("/3", "canonical image", "image/png", "tiny.png", None),
        ],
    );
}

#[test]
fn a_declared_type_that_is_not_a_media_type() {
    let doc = json!([image_part("png", &b64("tiny.png"))]).to_string();
    let want = with(
        with(
            inline("/0", "canonical image", "image/png", "tiny.png", None),
            "declared",
            Value::Null,
        ),
        "problems",
        json!([r#"declared "png", which is not a known media type"#]),
    );
    assert_inspects(&doc, &[want]);
}

#[test]
fn truncated_and_garbage_image_headers() {
    let png = bytes("tiny.png");
    let truncated = STANDARD.encode(&png[..20]);
    let garbage = STANDARD.encode([0u8; 9]);
    let doc = json!([
        image_part("image/png", &truncated),
        image_part("image/png", &garbage),
        image_part("image/gif", &STANDARD.encode(b"GIF89a")),
    ])
    .to_string();
    let run = inspect(&["--format", "json"], &doc);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let items = run.json_lines();
    assert_eq!(items[0]["sniffed"], "image/png");
    assert_eq!(items[0]["bytes"], 20);
    assert_eq!(items[0]["width"], Value::Null);
    let problem = items[0]["problems"][0].as_str().unwrap();
    assert!(
        problem.starts_with("image header does not parse: "),
        "{problem}"
    );
    assert_eq!(items[1]["sniffed"], Value::Null);
    assert_eq!(items[1]["bytes"], 9);
    assert_eq!(
        items[1]["problems"],
        json!(["content is not image/png (no known type matches its first bytes)"])
    );
    assert_eq!(items[2]["sniffed"], "image/gif");
    assert_eq!(items[2]["bytes"], 6);
    assert!(items[2]["problems"][0]
        .as_str()
        .unwrap()
        .starts_with("image header does not parse: "));
}

#[test]
fn problems_column_of_the_table() {
    let png = b64("tiny.png");
    let doc = json!([
        image_part("image/png", &png),
        image_part("image/jpeg", &png),
        image_part("image/png", "iVBO!!!"),
        image_part("image/jpg", &b64("tiny.jpg")),
        {"text": format!("see data:image/png;base64,{png} here")},
        {"type": "image", "mimeType": "image/png", "url": "https://example.com/a.png"},
    ])
    .to_string();
    let run = inspect(&[], &doc);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stderr, "");
    let rows = table_cells(&run.stdout, &COLUMNS);
    let column = |name: &str| COLUMNS.iter().position(|c| *c == name).unwrap();
    let problems: Vec<&str> = rows
        .iter()
        .map(|r| r[column("PROBLEMS")].as_str())
        .collect();
    assert_eq!(
        problems,
        [
            "-",
            "content is image/png, not image/jpeg",
            "invalid base64: character '!' at offset 4",
            "declared \"image/jpg\", normalized image/jpeg",
            THE_PROBLEM_OF_TEXT,
            "-",
        ]
    );
    let sniffed: Vec<&str> = rows.iter().map(|r| r[column("SNIFFED")].as_str()).collect();
    assert_eq!(
        sniffed,
        [
            "image/png",
            "image/png",
            "-",
            "image/jpeg",
            "image/png",
            "(url)"
        ]
    );
    let sizes: Vec<&str> = rows.iter().map(|r| r[column("BYTES")].as_str()).collect();
    assert_eq!(sizes, ["91", "91", "-", "725", "91", "-"]);
    let dims: Vec<&str> = rows
        .iter()
        .map(|r| r[column("DIMENSIONS")].as_str())
        .collect();
    assert_eq!(dims, ["4x3", "4x3", "-", "4x3", "4x3", "-"]);
}

// ---------------------------------------------------------------------------
// The table and the JSON keys

#[test]
fn exact_table_of_a_small_document() {
    let doc = encode_to("openai-chat", &["tiny.png", "doc.pdf"]);
    let run = inspect(&[], &doc);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stderr, "");
    assert_eq!(
        run.stdout,
        concat!(
            "POINTER  KIND                   DECLARED         SNIFFED          BYTES  DIMENSIONS  NAME     PROBLEMS\n",
            "/0       openai-chat image_url  image/png        image/png        91     4x3         -        -\n",
            "/1       openai-chat file       application/pdf  application/pdf  579    -           doc.pdf  -\n",
        )
    );
}

#[test]
fn root_item_pointer_is_shown_as_slash() {
    let doc = json!(image_part("image/png", &b64("tiny.png"))).to_string();
    let run = inspect(&[], &doc);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let rows = table_cells(&run.stdout, &COLUMNS);
    assert_eq!(rows[0][0], "/");
    let run = inspect(&["--format", "json"], &doc);
    assert_eq!(run.json_lines()[0]["pointer"], "");
}

#[test]
fn table_columns_are_aligned_across_rows_of_every_width() {
    let long_name = "a very long name that goes on and on and on and on.png";
    let doc = json!({
        "messages": [{"role": "user", "content": [
            {"type": "image", "mimeType": "image/png", "data": b64("tiny.png"), "name": long_name},
            {"type": "image", "mimeType": "image/jpeg", "data": b64("tiny.png"), "name": "café ☕.png"},
            {"type": "file", "mimeType": "application/pdf", "url": "https://example.com/r.pdf"},
            {"type": "audio", "mimeType": "audio/wav", "data": b64("tone.wav")},
        ]}],
        "x": data_url("image/gif", "tiny.gif"),
    })
    .to_string();
    let run = inspect(&[], &doc);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let rows = table_cells(&run.stdout, &COLUMNS);
    assert_eq!(rows.len(), 5);
    // Long names are shortened to 40 characters in the table...
    let shortened: String = long_name.chars().take(39).collect::<String>() + "…";
    assert_eq!(rows[0][6], shortened);
    assert_eq!(rows[1][6], "café ☕.png");
    // ...and kept whole in JSON.
    let run = inspect(&["--format", "json"], &doc);
    assert_eq!(run.json_lines()[0]["name"], long_name);
}

#[test]
fn large_sizes_are_grouped_in_the_table_and_plain_in_json() {
    // A PNG followed by 2,000 bytes of trailing data is still a PNG.
    let mut padded = bytes("tiny.png");
    padded.extend(std::iter::repeat_n(0u8, 2000));
    let doc = json!([image_part("image/png", &STANDARD.encode(&padded))]).to_string();
    let run = inspect(&[], &doc);
    let rows = table_cells(&run.stdout, &COLUMNS);
    assert_eq!(rows[0][4], "2,091");
    let run = inspect(&["--format", "json"], &doc);
    assert_eq!(run.json_lines()[0]["bytes"], 2091);
}

#[test]
fn line_column_only_for_json_lines_input() {
    let part = json!(image_part("image/png", &b64("tiny.png"))).to_string();
    // One pretty-printed document over several lines: no LINE column.
    let pretty =
        serde_json::to_string_pretty(&json!([{"a": 1}, image_part("image/png", &b64("tiny.png"))]))
            .unwrap();
    let run = inspect(&[], &pretty);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let rows = table_cells(&run.stdout, &COLUMNS);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0][0], "/1");
    // JSON Lines: a LINE column with each item's line.
    let lines = format!("{part}\n{{\"none\":true}}\n{part}\n");
    let run = inspect(&[], &lines);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let rows = table_cells(&run.stdout, &LINE_COLUMNS);
    let got: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| (r[0].as_str(), r[1].as_str()))
        .collect();
    assert_eq!(got, [("1", "/"), ("3", "/")]);
    // --jsonl forces it for a single line.
    let run = inspect(&["--jsonl"], &part);
    let rows = table_cells(&run.stdout, &LINE_COLUMNS);
    assert_eq!(rows.len(), 1);
    // And --format json gives the line in both cases.
    let run = inspect(&["--format", "json"], &lines);
    let got: Vec<Value> = run.json_lines().iter().map(|v| v["line"].clone()).collect();
    assert_eq!(got, [json!(1), json!(3)]);
}

#[test]
fn json_format_keys_in_order() {
    let doc = encode_to("anthropic", &["tiny.png"]);
    let run = inspect(&["--format", "json"], &doc);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let item = &run.json_lines()[0];
    let keys: Vec<&str> = item
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "line", "pointer", "kind", "declared", "sniffed", "bytes", "width", "height", "url",
            "name", "problems"
        ]
    );
    // JSON Lines stay one compact object per line, even with --pretty.
    let pretty = inspect(&["--format", "json", "--pretty"], &doc);
    assert_eq!(pretty.code, 0, "{}", pretty.stderr);
    assert_eq!(pretty.stdout, run.stdout);
    assert_eq!(pretty.stdout.lines().count(), 1);
}

// ---------------------------------------------------------------------------
// JSON Lines, errors and empty input

#[test]
fn invalid_line_in_the_middle_of_json_lines() {
    let part = json!(image_part("image/png", &b64("tiny.png"))).to_string();
    let gif = json!({"x": data_url("image/gif", "tiny.gif")}).to_string();
    let input = format!("{part}\n{{\"broken\": \n{gif}\n");
    let (_dir, file) = temp_file("recorded.jsonl", input.as_bytes());
    let path = path_arg(&file);

    let run = run(&["inspect", path]);
    assert_eq!(run.code, 1, "stderr: {}", run.stderr);
    let rows = table_cells(&run.stdout, &LINE_COLUMNS);
    let got: Vec<(&str, &str, &str)> = rows
        .iter()
        .map(|r| (r[0].as_str(), r[1].as_str(), r[3].as_str()))
        .collect();
    assert_eq!(got, [("1", "/", "image/png"), ("3", "/x", "image/gif")]);
    let prefix = format!("partkit: error: {path}:2: invalid JSON: ");
    assert!(run.stderr.starts_with(&prefix), "{}", run.stderr);
    assert_eq!(
        run.stderr.lines().nth(1),
        Some(format!("partkit: {path}: 3 lines in, 2 media items listed, 1 failed").as_str()),
        "{}",
        run.stderr
    );

    let run = super::run(&["inspect", "--format", "json", path]);
    assert_eq!(run.code, 1);
    let lines: Vec<u64> = run
        .json_lines()
        .iter()
        .map(|v| v["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, [1, 3]);
    assert!(run.stderr.starts_with(&prefix), "{}", run.stderr);
    assert_eq!(
        run.stderr.lines().nth(1),
        Some(format!("partkit: {path}: 3 lines in, 2 media items listed, 1 failed").as_str()),
        "{}",
        run.stderr
    );

    // On stdin the message names <stdin>.
    let run = inspect(&[], &input);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr
            .starts_with("partkit: error: <stdin>:2: invalid JSON: "),
        "{}",
        run.stderr
    );
}

#[test]
fn invalid_single_document_is_one_error_line() {
    let run = inspect(&[], "{\"a\": [1, 2,}");
    assert_eq!(run.code, 1);
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr
            .starts_with("partkit: error: <stdin>:1: invalid JSON: "),
        "{}",
        run.stderr
    );
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
}

#[test]
fn invalid_single_document_is_exit_1() {
    let run = inspect(&[], "{\"a\": [1, 2,}");
    assert_eq!(run.code, 1);
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr
            .starts_with("partkit: error: <stdin>:1: invalid JSON: "),
        "{}",
        run.stderr
    );
}

#[test]
fn a_document_without_media_is_a_note_and_exit_0() {
    let doc = json!({"messages": [{"role": "user", "content": "data: nothing here"}], "n": 1.0})
        .to_string();
    let run = inspect(&[], &doc);
    assert_eq!(run.code, 0);
    assert_eq!(run.stdout, "");
    assert_eq!(run.stderr, "partkit: <stdin>: no media found\n");
    let run = inspect(&["--quiet"], &doc);
    assert_eq!(
        (run.code, run.stdout.as_str(), run.stderr.as_str()),
        (0, "", "")
    );
    // --format json prints nothing at all (an empty stream of items).
    let run = inspect(&["--format", "json"], &doc);
    assert_eq!(
        (run.code, run.stdout.as_str(), run.stderr.as_str()),
        (0, "", "")
    );
    // A file names itself.
    let (_dir, file) = temp_file("plain.json", doc.as_bytes());
    let run = super::run(&["inspect", path_arg(&file)]);
    assert_eq!(run.code, 0);
    assert_eq!(
        run.stderr,
        format!("partkit: {}: no media found\n", path_arg(&file))
    );
}

#[test]
fn empty_input_is_zero_documents() {
    // An empty partition of a job is normal: nothing printed, exit 0.
    for input in ["", "\n\n", "   \n"] {
        let run = inspect(&[], input);
        assert_eq!(
            (run.code, run.stdout.as_str(), run.stderr.as_str()),
            (0, "", "")
        );
    }
    let (_dir, file) = temp_file("empty.json", b"");
    let run = run(&["inspect", path_arg(&file)]);
    assert_eq!(
        (run.code, run.stdout.as_str(), run.stderr.as_str()),
        (0, "", "")
    );
}

#[test]
fn missing_file_and_bad_arguments_are_exit_2() {
    let run = run(&["inspect", "tests/fixtures/inspect/no-such-file.json"]);
    run.assert_error(2, &["tests/fixtures/inspect/no-such-file.json"]);
    let run = inspect(&["--force"], "{}");
    run.assert_error(2, &["--extract"]);
    let run = inspect(&["--format", "yaml"], "{}");
    assert_eq!(run.code, 2);
    assert_eq!(run.stdout, "");
}

// ---------------------------------------------------------------------------
// --extract

/// A document on disk and the extraction directory beside it.
fn extract_setup(doc: &str, name: &str) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let (dir, file) = temp_file(name, doc.as_bytes());
    let out = dir.path().join("media");
    (dir, file, out)
}

/// A document with one item of every kind, names that need a slug, a PNG
/// declared JPEG, a URL and bad base64 (neither of which is written).
fn extract_doc() -> String {
    json!([
        {"type": "image", "mimeType": "image/png", "data": b64("tiny.png"), "name": "Sales / Q1"},
        {"type": "image", "mimeType": "image/jpeg", "data": b64("tiny.png"), "name": "../../etc/passwd"},
        {"type": "image", "mimeType": "image/gif", "data": b64("tiny.gif"), "name": "a\u{0}b"},
        {"type": "image", "mimeType": "image/webp", "data": b64("tiny.webp"), "name": ".."},
        {"type": "image", "mimeType": "image/jpeg", "data": b64("tiny.jpg")},
        {"type": "file", "mimeType": "application/pdf", "data": b64("doc.pdf"), "name": "report.pdf"},
        {"type": "audio", "mimeType": "audio/wav", "data": b64("tone.wav")},
        {"type": "audio", "mimeType": "audio/mpeg", "data": b64("tone.mp3"), "name": "tone"},
        {"type": "image", "mimeType": "image/png", "url": "https://example.com/a.png"},
        {"type": "image", "mimeType": "image/png", "data": "iVBO!!!"},
        {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "plain notes ✓"}, "title": "Notes"},
        {"type": "image", "mimeType": "image/png", "data": b64("tiny.png"), "name": "x".repeat(100)},
    ])
    .to_string()
}

/// The files `extract_doc` gives, with their bytes.
fn extract_files() -> Vec<(String, Vec<u8>)> {
    vec![
        ("001-Sales-Q1.png".into(), bytes("tiny.png")),
        ("002-etc-passwd.png".into(), bytes("tiny.png")),
        ("003-a-b.gif".into(), bytes("tiny.gif")),
        ("004.webp".into(), bytes("tiny.webp")),
        ("005.jpg".into(), bytes("tiny.jpg")),
        ("006-report-pdf.pdf".into(), bytes("doc.pdf")),
        ("007.wav".into(), bytes("tone.wav")),
        ("008-tone.mp3".into(), bytes("tone.mp3")),
        ("009-Notes.txt".into(), "plain notes ✓".as_bytes().to_vec()),
        (format!("010-{}.png", "x".repeat(60)), bytes("tiny.png")),
    ]
}

fn assert_extracted(out: &Path) {
    let files = extract_files();
    let mut names: Vec<String> = files.iter().map(|(n, _)| n.clone()).collect();
    names.sort();
    assert_eq!(listing(out), names);
    for (name, content) in &files {
        assert_eq!(&fs::read(out.join(name)).unwrap(), content, "{name}");
    }
}

#[test]
fn extract_writes_exact_bytes_under_safe_names() {
    let (dir, file, out) = extract_setup(&extract_doc(), "doc.json");
    let run = run(&["inspect", path_arg(&file), "--extract", path_arg(&out)]);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert_eq!(run.stderr, "");
    assert_extracted(&out);
    // Nothing outside the directory.
    assert_eq!(listing(dir.path()), ["doc.json", "media"]);
    // The table says where each item went.
    let rows = table_cells(&run.stdout, &COLUMNS);
    let files = extract_files();
    let problems: Vec<&str> = rows.iter().map(|r| r[7].as_str()).collect();
    let at = |i: usize| format!("extracted to {}", out.join(&files[i].0).display());
    assert_eq!(problems[0], at(0));
    assert_eq!(
        problems[1],
        format!("content is image/png, not image/jpeg; {}", at(1))
    );
    assert_eq!(problems[8], "-", "a URL is not extracted");
    assert_eq!(
        problems[9], "invalid base64: character '!' at offset 4",
        "bad base64 is not extracted"
    );
    assert_eq!(problems[10], at(8));
}

#[test]
fn extract_with_json_format_has_the_extracted_key() {
    let (_dir, file, out) = extract_setup(&extract_doc(), "doc.json");
    let run = run(&[
        "inspect",
        "--format",
        "json",
        path_arg(&file),
        "--extract",
        path_arg(&out),
    ]);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert_eq!(run.stderr, "");
    assert_extracted(&out);
    let items = run.json_lines();
    assert_eq!(items.len(), 12);
    let files = extract_files();
    let mut written = files.iter();
    for item in &items {
        let object = item.as_object().unwrap();
        let extractable = item["url"] == false
            && item["problems"] != json!(["invalid base64: character '!' at offset 4"]);
        if extractable {
            let (name, _) = written.next().unwrap();
            let keys: Vec<&str> = object.keys().map(String::as_str).collect();
            assert_eq!(keys.last(), Some(&"extracted"), "{item}");
            assert_eq!(item["extracted"], out.join(name).display().to_string());
        } else {
            assert!(!object.contains_key("extracted"), "{item}");
        }
    }
    assert!(written.next().is_none());
}

#[test]
fn extract_numbers_across_json_lines() {
    let line1 = json!({"tool_output_images": [{"image_url": data_url("image/png", "tiny.png"), "label": "first"}]}).to_string();
    let line2 = json!({"nothing": true}).to_string();
    let line3 = json!([
        {"type": "image", "mimeType": "image/gif", "data": b64("tiny.gif")},
        {"inlineData": {"mimeType": "application/pdf", "data": b64("doc.pdf")}},
    ])
    .to_string();
    let input = format!("{line1}\n{line2}\n{line3}\n");
    let (_dir, file, out) = extract_setup(&input, "run.jsonl");
    let run = run(&[
        "inspect",
        "--format",
        "json",
        path_arg(&file),
        "--extract",
        path_arg(&out),
    ]);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert_eq!(listing(&out), ["001-first.png", "002.gif", "003.pdf"]);
    assert_eq!(fs::read(out.join("003.pdf")).unwrap(), bytes("doc.pdf"));
    let got: Vec<(u64, String)> = run
        .json_lines()
        .iter()
        .map(|v| {
            (
                v["line"].as_u64().unwrap(),
                v["extracted"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let name = |n: &str| out.join(n).display().to_string();
    assert_eq!(
        got,
        [
            (1, name("001-first.png")),
            (3, name("002.gif")),
            (3, name("003.pdf"))
        ]
    );
}

#[test]
fn extract_refuses_existing_files_without_force_and_writes_nothing() {
    let (_dir, file, out) = extract_setup(&extract_doc(), "doc.json");
    fs::create_dir_all(&out).unwrap();
    fs::write(out.join("003-a-b.gif"), b"old").unwrap();
    for format in ["text", "json"] {
        let run = run(&[
            "inspect",
            "--format",
            format,
            path_arg(&file),
            "--extract",
            path_arg(&out),
        ]);
        let existing = out.join("003-a-b.gif").display().to_string();
        run.assert_error(2, &[&existing, "--force"]);
        assert_eq!(listing(&out), ["003-a-b.gif"]);
        assert_eq!(fs::read(out.join("003-a-b.gif")).unwrap(), b"old");
    }
    // --force overwrites it and writes the rest.
    let run = run(&[
        "inspect",
        path_arg(&file),
        "--extract",
        path_arg(&out),
        "--force",
    ]);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert_extracted(&out);
    // And again: every file exists now, --force still overwrites.
    let run = super::run(&[
        "inspect",
        path_arg(&file),
        "--extract",
        path_arg(&out),
        "--force",
    ]);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert_extracted(&out);
}

#[test]
fn extract_refuses_a_used_directory_for_json_lines() {
    let line = json!(image_part("image/png", &b64("tiny.png"))).to_string();
    let input = format!("{line}\n{line}\n");
    let (_dir, file, out) = extract_setup(&input, "run.jsonl");
    fs::create_dir_all(&out).unwrap();
    fs::write(out.join("002.png"), b"old").unwrap();
    let run = run(&["inspect", path_arg(&file), "--extract", path_arg(&out)]);
    run.assert_error(2, &["002.png", "--force"]);
    assert_eq!(listing(&out), ["002.png"]);
    let run = super::run(&[
        "inspect",
        path_arg(&file),
        "--extract",
        path_arg(&out),
        "--force",
    ]);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert_eq!(listing(&out), ["001.png", "002.png"]);
    assert_eq!(fs::read(out.join("002.png")).unwrap(), bytes("tiny.png"));
}

#[test]
fn extract_refuses_an_existing_non_image_file_for_json_lines() {
    let line1 = json!([
        image_part("image/png", &b64("tiny.png")),
        image_part("image/gif", &b64("tiny.gif"))
    ])
    .to_string();
    let line2 =
        json!({"type": "file", "mimeType": "application/pdf", "data": b64("doc.pdf")}).to_string();
    let input = format!("{line1}\n{line2}\n");
    let (_dir, file, out) = extract_setup(&input, "run.jsonl");
    fs::create_dir_all(&out).unwrap();
    fs::write(out.join("003.pdf"), b"old").unwrap();
    let run = run(&["inspect", path_arg(&file), "--extract", path_arg(&out)]);
    run.assert_error(2, &["003.pdf", "--force"]);
    assert_eq!(listing(&out), ["003.pdf"]);
}

#[test]
fn extract_dir_is_created_with_its_parents() {
    let doc = encode_to("gemini", &["tiny.webp"]);
    let (dir, file, _) = extract_setup(&doc, "doc.json");
    let out = dir.path().join("a/b/c");
    let run = run(&["inspect", path_arg(&file), "--extract", path_arg(&out)]);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert_eq!(listing(&out), ["001.webp"]);
    assert_eq!(fs::read(out.join("001.webp")).unwrap(), bytes("tiny.webp"));
}

#[test]
fn extract_from_stdin_of_every_shape() {
    // The extension always follows the sniffed bytes, whatever the shape says.
    let doc = json!([
        {"image": {"format": "png", "source": {"bytes": b64("tiny.jpg")}}},
        {"type": "input_audio", "input_audio": {"data": b64("tone.mp3"), "format": "wav"}},
        {"type": "resource", "resource": {"uri": "file:///x.bin", "mimeType": "application/octet-stream", "blob": b64("doc.pdf")}},
        {"type": "input_file", "filename": "r.pdf", "file_data": data_url("application/pdf", "doc.pdf")},
    ])
    .to_string();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let run = inspect(&["--extract", path_arg(&out), "--quiet"], &doc);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert_eq!(
        listing(&out),
        ["001.jpg", "002.mp3", "003-file-x-bin.pdf", "004-r-pdf.pdf"]
    );
    assert_eq!(fs::read(out.join("001.jpg")).unwrap(), bytes("tiny.jpg"));
    assert_eq!(fs::read(out.join("002.mp3")).unwrap(), bytes("tone.mp3"));
}

// ---------------------------------------------------------------------------
// Control characters

#[test]
fn control_characters_in_names_and_problems_are_escaped() {
    let doc = json!([
        {"type": "image", "mimeType": "image/png", "data": b64("tiny.png"), "name": "evil\u{1b}[2J\u{7}bell"},
        {"type": "image", "mimeType": "image/png\u{1b}[31m", "data": b64("tiny.png")},
        {"reply": format!("data:image/png;name=%1B%5D0%3Bpwned%07.png;base64,{}", b64("tiny.png"))},
        {"type": "file", "mimeType": "text/plain", "url": "https://example.com/a\u{9b}31m.txt", "name": "tab\there\r\n"},
    ])
    .to_string();
    let run = inspect(&[], &doc);
    assert_eq!(run.code, 0, "{}", run.stderr);
    for c in ['\u{1b}', '\u{7}', '\u{9b}', '\r', '\t'] {
        assert!(!run.stdout.contains(c), "raw {c:?} in {:?}", run.stdout);
        assert!(!run.stderr.contains(c), "raw {c:?} in {:?}", run.stderr);
    }
    let rows = table_cells(&run.stdout, &COLUMNS);
    assert_eq!(rows[0][6], "evil\\u{1b}[2J\\u{7}bell");
    assert_eq!(
        rows[1][7],
        "declared \"image/png\\u{1b}[31m\", which is not a known media type"
    );
    assert_eq!(rows[2][6], "\\u{1b}]0;pwned\\u{7}.png");
    assert_eq!(rows[3][6], "tab\\there\\r\\n");

    // JSON: the strings round-trip exactly, escaped by JSON.
    let run = inspect(&["--format", "json"], &doc);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!run.stdout.contains('\u{1b}'), "{:?}", run.stdout);
    assert!(!run.stdout.contains('\u{7}'), "{:?}", run.stdout);
    let items = run.json_lines();
    assert_eq!(items[0]["name"], "evil\u{1b}[2J\u{7}bell");
    assert_eq!(items[2]["name"], "\u{1b}]0;pwned\u{7}.png");

    // --extract: the name is a slug.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let run = inspect(&["--extract", path_arg(&out)], &doc);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!run.stdout.contains('\u{1b}'));
    assert_eq!(
        listing(&out),
        ["001-evil-2J-bell.png", "002.png", "003-0-pwned-png.png"]
    );
}

#[test]
fn tokens_estimates_each_image_for_every_provider() {
    let square = super::support::media::b64_of(&super::support::media::png_of(1024, 1024));
    let doc = json!([
        {"type": "image", "mimeType": "image/png", "data": square},
        {"type": "image", "mimeType": "image/png", "data": b64("tiny.png")},
        {"type": "image", "mimeType": "image/png", "url": "https://example.com/a.png"},
        {"type": "file", "mimeType": "application/pdf", "data": b64("doc.pdf")}
    ])
    .to_string();
    let run = inspect(&["--tokens", "--format", "json"], &doc);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let tokens: Vec<Value> = run
        .json_lines()
        .iter()
        .map(|item| item["tokens"].clone())
        .collect();
    assert_eq!(
        tokens,
        [
            // 1024x1024: OpenAI's worked example (765 at high detail), 1,048,576 / 750
            // for Anthropic, four 768-px tiles for Gemini.
            json!({"openai_high": 765, "openai_low": 85, "anthropic": 1399, "gemini": 1032}),
            json!({"openai_high": 255, "openai_low": 85, "anthropic": 1, "gemini": 258}),
            Value::Null,
            Value::Null,
        ]
    );
    // Without --tokens the objects are as they were.
    let plain = inspect(&["--format", "json"], &doc);
    assert!(plain
        .json_lines()
        .iter()
        .all(|item| item.get("tokens").is_none()));
    // The table gets three columns before NAME.
    let table = inspect(&["--tokens"], &doc);
    let lines: Vec<&str> = table.stdout.lines().collect();
    assert!(
        lines[0].contains("DIMENSIONS  OPENAI HIGH/LOW  ANTHROPIC  GEMINI  NAME"),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].contains("1024x1024   765/85           1,399      1,032"),
        "{}",
        lines[1]
    );
    assert!(lines[3].contains("(url)"), "{}", lines[3]);
}
