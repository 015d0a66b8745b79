//! Payloads lent from the input (crates/core/src/json/lent/): `convert` and `validate`
//! read base64 payloads through placeholders and write them from the input,
//! so every case here is about a payload coming out exactly as it went in,
//! or being looked at (decoded, sniffed, respelled) as if no placeholder
//! were there: next to text that holds the placeholder characters, inside a
//! tool call's arguments, re-spelled for Gemini, at `--at` pointers, in
//! rollouts and JSON Lines, and before a syntax error; and a large file,
//! whose payloads stay in the file, converted exactly as the same document
//! on stdin (held in memory).

use serde_json::{json, Value};

use super::{fixture_b64, path_arg, run, run_with_stdin, temp_file, TRANSCRIPT_SHAPES};

fn convert(args: &[&str], input: &str) -> super::Run {
    let mut all = vec!["convert"];
    all.extend_from_slice(args);
    run_with_stdin(&all, input.as_bytes())
}

fn chat_with_image(png: &str, text: &str) -> Value {
    json!({"model": "m", "messages": [{"role": "user", "content": [
        {"type": "text", "text": text},
        {"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{png}")}}
    ]}]})
}

#[test]
fn text_holding_the_placeholder_characters_comes_through_unchanged() {
    let png = fixture_b64("tiny.png");
    for text in ["\u{E000}0\u{E001}", "\u{E001}", "a \u{E000}1f\u{E001} b"] {
        let input = chat_with_image(&png, text).to_string();
        let out = convert(&["--to", "anthropic"], &input);
        assert_eq!(out.code, 0, "{}", out.stderr);
        let content = &out.json()["messages"][0]["content"];
        assert_eq!(content[0]["text"], text);
        assert_eq!(content[1]["source"]["data"], png.as_str());
    }
    // The same characters as escapes.
    let input = chat_with_image(&png, "x")
        .to_string()
        .replace("\"x\"", "\"\\ue000\\uE001\"");
    let out = convert(&["--to", "anthropic"], &input);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let content = &out.json()["messages"][0]["content"];
    assert_eq!(content[0]["text"], "\u{E000}\u{E001}");
    assert_eq!(content[1]["source"]["data"], png.as_str());
}

#[test]
fn a_payload_in_tool_call_arguments_is_written_into_the_arguments_string() {
    let png = fixture_b64("tiny.png");
    let input = json!({"model": "m", "max_tokens": 5, "messages": [
        {"role": "user", "content": "draw"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "save",
            "input": {"data": png, "n": 1E2}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"}]}
    ]});
    let out = convert(&["--to", "openai-chat"], &input.to_string());
    assert_eq!(out.code, 0, "{}", out.stderr);
    let arguments = out.json()["messages"][1]["tool_calls"][0]["function"]["arguments"].clone();
    let arguments: Value = serde_json::from_str(arguments.as_str().unwrap()).unwrap();
    assert_eq!(arguments, json!({"data": png, "n": 100.0}));
}

#[test]
fn text_under_a_base64_key_is_read_as_text() {
    // An Anthropic text document keeps its text in `data`; this text is all
    // base64 characters, so it is lent like a payload, and read back as text.
    let text = "QUJD".repeat(40);
    let input = json!({"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": [
        {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": text}}
    ]}]});
    let out = convert(&["--to", "canonical"], &input.to_string());
    assert_eq!(out.code, 0, "{}", out.stderr);
    let part = &out.json()["messages"][0]["content"][0];
    assert_eq!(part["mimeType"], "text/plain");
    assert_eq!(
        part["data"],
        base64::Engine::encode(&base64::engine::general_purpose::STANDARD, &text)
    );
    let back = convert(&["--to", "anthropic"], &out.stdout);
    assert_eq!(back.code, 0, "{}", back.stderr);
    assert_eq!(
        back.json()["messages"][0]["content"][0]["source"]["data"],
        text.as_str()
    );
}

#[test]
fn gemini_payloads_are_respelled_from_the_input() {
    let png = fixture_b64("tiny.png");
    let unpadded = png.trim_end_matches('=');
    assert_ne!(unpadded, png, "the fixture's base64 is padded");
    let input = json!({"contents": [{"role": "user", "parts": [
        {"inlineData": {"mimeType": "image/png", "data": unpadded}}
    ]}]})
    .to_string();
    let canonical = convert(&["--to", "canonical"], &input);
    assert_eq!(canonical.code, 0, "{}", canonical.stderr);
    assert!(
        canonical.stdout.contains(&format!("\"data\":\"{png}\"")),
        "{}",
        canonical.stdout
    );
    // And back: the form the payload had.
    let back = convert(&["--to", "gemini"], &canonical.stdout);
    assert_eq!(back.code, 0, "{}", back.stderr);
    assert_eq!(back.stdout.trim_end(), input);
    // With no mimeType, the type is sniffed from the (lent) content.
    let untyped = json!({"contents": [{"role": "user", "parts": [{"inlineData": {"data": png}}]}]});
    let out = convert(&["--to", "anthropic"], &untyped.to_string());
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        out.json()["messages"][0]["content"][0]["source"]["media_type"],
        "image/png"
    );
}

#[test]
fn payloads_at_pointers_in_rollouts_and_in_json_lines_go_back_in_place() {
    let png = fixture_b64("tiny.png");
    let chat = chat_with_image(&png, "look");
    let wrapped = json!({"id": 7, "request": chat, "tail": "x"}).to_string();
    let out = convert(&["--at", "/request", "--to", "anthropic"], &wrapped);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let doc = out.json();
    assert_eq!(
        doc["request"]["messages"][0]["content"][1]["source"]["data"],
        png.as_str()
    );
    assert_eq!(
        (doc["id"].clone(), doc["tail"].clone()),
        (json!(7), json!("x"))
    );

    let rollout = json!({"responses_create_params": {"input": [{"role": "user", "content": [
        {"type": "input_image", "image_url": format!("data:image/png;base64,{png}")}
    ]}]}, "reward": 1.0, "response": {"output": []}});
    let lines = format!("{rollout}\n{}\n{rollout}\n", chat);
    let out = convert(&["--to", "anthropic", "--jsonl"], &lines);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let outs = out.json_lines();
    assert_eq!(outs.len(), 3);
    for line in [&outs[0], &outs[2]] {
        let params = &line["responses_create_params"];
        assert_eq!(
            params["messages"][0]["content"][0]["source"]["data"],
            png.as_str()
        );
        assert_eq!(line["reward"], 1.0);
    }
    assert_eq!(
        outs[1]["messages"][0]["content"][1]["source"]["data"],
        png.as_str()
    );
}

#[test]
fn a_syntax_error_after_a_payload_is_placed_in_the_input() {
    let png = fixture_b64("tiny.png");
    let input = format!("{{\"messages\": [{{\"role\": \"user\", \"content\": [{{\"type\": \"image\", \"mimeType\": \"image/png\", \"data\": \"{png}\"}}]}}],\n  \"x\": nope}}");
    let expected = serde_json::from_str::<Value>(&input)
        .unwrap_err()
        .to_string();
    let out = convert(&["--to", "anthropic"], &input);
    out.assert_error(1, &[&format!("invalid JSON: {expected}")]);
}

#[test]
fn validate_sees_a_transcripts_lent_payloads() {
    // A PNG declared as JPEG, and a file typed only by its content, in one
    // transcript: the media rules and the transcript rules both look at the
    // bytes.
    let png = fixture_b64("tiny.png");
    let pdf = fixture_b64("doc.pdf");
    let input = json!({"model": "m", "messages": [{"role": "user", "content": [
        {"type": "image_url", "image_url": {"url": format!("data:image/jpeg;base64,{png}")}},
        {"type": "file", "file": {"file_data": pdf, "filename": "a.pdf"}}
    ]}]});
    let out = run_with_stdin(
        &["validate", "--format", "json", "-"],
        input.to_string().as_bytes(),
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    let findings = out.json_lines();
    let rules: Vec<(&str, &str)> = findings
        .iter()
        .map(|f| (f["rule"].as_str().unwrap(), f["pointer"].as_str().unwrap()))
        .collect();
    assert_eq!(rules, [("media-type-mismatch", "/messages/0/content/0")]);
    assert!(!out.stdout.contains('\u{E000}'), "{}", out.stdout);
}

/// An OpenAI Chat transcript over 1 MiB (so that `convert` leaves its
/// payloads in the file): images, a PDF, audio, tool calls and results.
fn large_transcript() -> String {
    let (png, jpg, pdf, wav) = (
        fixture_b64("tiny.png"),
        fixture_b64("tiny.jpg"),
        fixture_b64("doc.pdf"),
        fixture_b64("tone.wav"),
    );
    let mut messages = vec![json!({"role": "system", "content": "You look at things."})];
    for n in 0..400 {
        let id = format!("call_{n}");
        messages.push(json!({"role": "user", "content": [
            {"type": "text", "text": format!("turn {n}: what is this?")},
            {"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{png}"), "detail": "low"}},
            {"type": "file", "file": {"file_data": format!("data:application/pdf;base64,{pdf}"), "filename": "a.pdf"}},
            {"type": "input_audio", "input_audio": {"data": wav, "format": "wav"}}
        ]}));
        messages.push(json!({"role": "assistant", "content": null, "tool_calls": [
            {"id": id, "type": "function", "function": {"name": "look", "arguments": "{\"n\":1.50}"}}
        ]}));
        messages.push(json!({"role": "tool", "tool_call_id": id, "content": "seen"}));
        messages.push(json!({"role": "user", "content": [
            {"type": "image_url", "image_url": {"url": format!("data:image/jpeg;base64,{jpg}")}}
        ]}));
        messages.push(json!({"role": "assistant", "content": format!("answer {n}")}));
    }
    let doc = serde_json::to_string_pretty(
        &json!({"model": "gpt-4o", "temperature": 0.5, "messages": messages}),
    )
    .unwrap();
    assert!(doc.len() > 1 << 20, "large enough: {}", doc.len());
    doc
}

#[test]
fn a_large_file_converts_exactly_as_the_same_document_in_memory() {
    let doc = large_transcript();
    let (_dir, path) = temp_file("large.json", doc.as_bytes());
    let path = path_arg(&path);
    for to in TRANSCRIPT_SHAPES.iter().chain(&["mcp"]) {
        for extra in [
            &[][..],
            &["--on-unsupported", "text"],
            &["--pretty", "--tool-media", "lift"],
        ] {
            let mut args = vec!["convert", "--to", to];
            args.extend_from_slice(extra);
            assert_file_reads_as_stdin(&args, &doc, path);
        }
    }
}

/// `partkit ARGS FILE` prints what `partkit ARGS` prints with the file's
/// content `doc` on stdin (the file named where stdin was; times taken,
/// such as `0.52 s`, aside).
fn assert_file_reads_as_stdin(args: &[&str], doc: &str, file: &str) {
    let in_memory = run_with_stdin(args, doc.as_bytes());
    let mut with_file = args.to_vec();
    with_file.push(file);
    let from_file = run(&with_file);
    assert_eq!(
        from_file.code, in_memory.code,
        "{args:?}: {}",
        from_file.stderr
    );
    assert_eq!(
        from_file.stdout,
        in_memory.stdout.replace("<stdin>", file),
        "{args:?}"
    );
    assert_eq!(
        timeless(&from_file.stderr),
        timeless(&in_memory.stderr.replace("<stdin>", file)),
        "{args:?}"
    );
}

/// `text` with each time in seconds (`0.52 s`) written `X s`.
fn timeless(text: &str) -> String {
    let mut out = String::new();
    let mut number = String::new();
    for (at, c) in text.char_indices() {
        if c.is_ascii_digit() || (c == '.' && !number.is_empty()) {
            number.push(c);
            continue;
        }
        if !number.is_empty() {
            let seconds = number.contains('.') && text[at..].starts_with(" s");
            out.push_str(if seconds { "X" } else { &number });
            number.clear();
        }
        out.push(c);
    }
    out + &number
}

#[test]
fn a_large_file_that_is_not_one_document_goes_the_usual_way() {
    let doc = large_transcript();
    // Two documents: JSON Lines.
    let compact: Value = serde_json::from_str(&doc).unwrap();
    let lines = format!("{compact}\n{compact}\n");
    let (_dir, path) = temp_file("large.jsonl", lines.as_bytes());
    let out = run(&["convert", "--to", "canonical", path_arg(&path)]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.json_lines().len(), 2);
    // Broken at the end: the error is placed in the file, as for any input.
    let broken = format!("{},\n  nope}}", doc.trim_end().trim_end_matches('}'));
    let (_dir, path) = temp_file("broken.json", broken.as_bytes());
    let expected = serde_json::from_str::<Value>(&broken)
        .unwrap_err()
        .to_string();
    let out = run(&["convert", "--to", "anthropic", path_arg(&path)]);
    out.assert_error(1, &[&format!("invalid JSON: {expected}")]);
    let out = run(&["validate", path_arg(&path)]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stdout.contains("error[invalid-json]"), "{}", out.stdout);
    assert!(out.stdout.contains(&expected), "{}", out.stdout);
    // A rollout whose request is a large transcript: checked as a rollout.
    let rollout =
        format!("{{\"responses_create_params\": {doc}, \"response\": {{\"output\": []}}}}");
    let (_dir, path) = temp_file("rollout.json", rollout.as_bytes());
    assert_file_reads_as_stdin(&["validate", "--format", "json"], &rollout, path_arg(&path));
}

#[test]
fn tool_arguments_are_checked_as_written() {
    // A string argument under a key that usually holds base64 is lent; the
    // schema still sees its 100 characters.
    let long = "QUJD".repeat(25);
    let input = json!({"model": "m", "max_tokens": 5,
    "tools": [{"name": "save", "input_schema": {"type": "object",
        "properties": {"data": {"type": "string", "maxLength": 10}}}}],
    "messages": [
        {"role": "user", "content": "save"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "save", "input": {"data": long}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"}]}
    ]});
    let out = run_with_stdin(
        &["validate", "--format", "json", "-"],
        input.to_string().as_bytes(),
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    let findings = out.json_lines();
    assert_eq!(findings.len(), 1, "{}", out.stdout);
    assert_eq!(findings[0]["rule"], "tool-arguments-schema");
    assert!(
        findings[0]["message"]
            .as_str()
            .unwrap()
            .contains("longer than 10"),
        "{}",
        out.stdout
    );
}

#[test]
fn a_large_file_is_inspected_exactly_as_the_same_document_in_memory() {
    let chat: Value = serde_json::from_str(&large_transcript()).unwrap();
    let text = "QUJD".repeat(40);
    let png = fixture_b64("tiny.png");
    let late = late_frame_jpeg();
    let others = json!([
        {"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": [
            {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": text}},
            {"type": "image", "source": {"type": "base64", "media_type": "image/jpeg", "data": png}},
            {"type": "image", "source": {"type": "base64", "media_type": "image/jpeg", "data": late}},
            {"type": "image", "source": {"type": "base64", "media_type": "image/jpeg", "data": late.trim_end_matches('=')}}
        ]}]},
        {"contents": [{"role": "user", "parts": [{"inlineData": {"mimeType": "image/png", "data": png.trim_end_matches('=')}}]}]}
    ]);
    let doc = serde_json::to_string_pretty(&json!([chat, others])).unwrap();
    let (dir, path) = temp_file("large.json", doc.as_bytes());
    let file = path_arg(&path);
    for extra in [&[][..], &["--format", "json"]] {
        let mut args = vec!["inspect"];
        args.extend_from_slice(extra);
        assert_file_reads_as_stdin(&args, &doc, file);
    }
    // The text document is 160 bytes of text, the mismatched image is a PNG.
    let items = run(&["inspect", "--format", "json", file]).json_lines();
    // A frame header past the first 64 KiB is read from the whole payload.
    let late_items: Vec<&Value> = items
        .iter()
        .filter(|i| i["bytes"].as_u64() > Some(131_000))
        .collect();
    assert_eq!(late_items.len(), 2, "{items:?}");
    assert!(
        late_items.iter().all(|i| !i["width"].is_null()),
        "{late_items:?}"
    );
    assert!(
        items
            .iter()
            .any(|i| i["bytes"] == 160 && i["declared"] == "text/plain"),
        "{items:?}"
    );
    // --extract writes the same files either way.
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    let from_file = run(&["inspect", "--extract", path_arg(&a), file]);
    let in_memory = run_with_stdin(&["inspect", "--extract", path_arg(&b)], doc.as_bytes());
    assert_eq!(
        (from_file.code, in_memory.code),
        (0, 0),
        "{}",
        from_file.stderr
    );
    let listing = |dir: &std::path::Path| {
        let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .map(|p| {
                (
                    p.file_name().unwrap().to_string_lossy().into_owned(),
                    std::fs::read(&p).unwrap(),
                )
            })
            .collect();
        files.sort();
        files
    };
    let written = listing(&a);
    assert_eq!(written.len(), 400 * 4 + 5);
    assert_eq!(written, listing(&b));
}

/// tiny.jpg with two 64 KiB application segments before its frame header,
/// as base64 (a header check reads the first 64 KiB, then the rest).
fn late_frame_jpeg() -> String {
    use base64::Engine;
    let jpeg = std::fs::read(super::support::fixture("tiny.jpg")).unwrap();
    let mut late = jpeg[..2].to_vec();
    for _ in 0..2 {
        late.extend_from_slice(&[0xFF, 0xE2, 0xFF, 0xFF]);
        late.extend(std::iter::repeat_n(b'x', 0xFFFF - 2));
    }
    late.extend_from_slice(&jpeg[2..]);
    base64::engine::general_purpose::STANDARD.encode(late)
}

/// A large file whose images are all within the caps passes through from
/// the file; with any image to resize (or one not strict base64) it is read
/// as usual. Either way, what `resize` prints and writes is what the same
/// document on stdin gives.
#[test]
fn a_large_file_is_resized_exactly_as_the_same_document_in_memory() {
    use base64::Engine;
    let chat: Value = serde_json::from_str(&large_transcript()).unwrap();
    let big_png = base64::engine::general_purpose::STANDARD
        .encode(super::support::media::png_of_len(200_000));
    let image = |mime: &str, data: &str| json!({"type": "image", "source": {"type": "base64", "media_type": mime, "data": data}});
    let others = |extra: Value| {
        json!([chat, {"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": [
            image("image/png", &big_png),
            image("image/jpeg", &late_frame_jpeg()),
            image("image/gif", &fixture_b64("tiny.gif")),
            image("image/webp", &fixture_b64("tiny.webp")),
            extra
        ]}]}])
    };
    let within =
        serde_json::to_string_pretty(&others(json!({"type": "text", "text": "hi"}))).unwrap();
    let unpadded = serde_json::to_string(&others(image(
        "image/png",
        fixture_b64("tiny.png").trim_end_matches('='),
    )))
    .unwrap();
    for doc in [&within, &unpadded] {
        let (dir, path) = temp_file("large.json", doc.as_bytes());
        let file = path_arg(&path);
        for args in [
            &["resize", "--max-bytes", "4000000"][..],
            &["resize", "--max-bytes", "4000000", "--report", "json"],
            &["resize", "--profile", "anthropic"],
            &["resize", "--max-dim", "1"],
        ] {
            assert_file_reads_as_stdin(args, doc, file);
        }
        // Written to a file: the same bytes (the input's own, when nothing
        // changed).
        let out = dir.path().join("out.json");
        let written = run(&[
            "resize",
            "--max-bytes",
            "4000000",
            "-o",
            path_arg(&out),
            file,
        ]);
        assert_eq!(written.code, 0, "{}", written.stderr);
        if doc == &within {
            assert_eq!(std::fs::read(&out).unwrap(), doc.as_bytes());
        }
    }
}

/// A large file is validated from the file, its payloads lent (never held):
/// the same findings as the same document on stdin, for the media rules
/// (strict, non-canonical, mismatched, broken, over an encoded-size cap), a
/// data URL standing as text, and the transcript rules.
#[test]
fn a_large_file_is_validated_exactly_as_the_same_document_in_memory() {
    use base64::Engine;
    let chat: Value = serde_json::from_str(&large_transcript()).unwrap();
    let mut messages = chat["messages"].as_array().unwrap().clone();
    let png = fixture_b64("tiny.png");
    let big = base64::engine::general_purpose::STANDARD
        .encode(super::support::media::png_of_len(4_000_000));
    let url = |mime: &str, data: &str| json!({"type": "image_url", "image_url": {"url": format!("data:{mime};base64,{data}")}});
    messages.push(json!({"role": "user", "content": [
        url("image/png", &big),
        url("image/jpeg", &png),
        url("image/png", png.trim_end_matches('=')),
        url("image/png", &format!("{}AAAA", &png[..png.len() - 4])),
        url("image/jpeg", &late_frame_jpeg()),
    ]}));
    messages.push(json!({"role": "user", "content": format!("data:image/png;base64,{png}")}));
    messages.push(json!({"role": "tool", "tool_call_id": "nobody", "content": "orphan"}));
    let doc =
        serde_json::to_string_pretty(&json!({"model": "gpt-4o", "messages": messages})).unwrap();
    let (_dir, path) = temp_file("large.json", doc.as_bytes());
    let file = path_arg(&path);
    let in_memory = run_with_stdin(&["validate", "--format", "json"], doc.as_bytes());
    let rules: Vec<String> = in_memory
        .json_lines()
        .iter()
        .map(|f| f["rule"].as_str().unwrap_or_default().to_string())
        .collect();
    for rule in [
        "base64-in-text",
        "media-type-mismatch",
        "base64-noncanonical",
    ] {
        assert!(rules.iter().any(|r| r == rule), "{rule}: {rules:?}");
    }
    for extra in [
        &[][..],
        &["--format", "json"],
        &["--deep"],
        &["--profile", "anthropic"],
        &["--target", "gemini"],
        &["--kind", "transcript"],
    ] {
        let mut args = vec!["validate"];
        args.extend_from_slice(extra);
        assert_file_reads_as_stdin(&args, &doc, file);
    }
}
