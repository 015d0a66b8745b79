//! `convert`, `split` and `resize` on recordings: the real cassettes of
//! `../shared/cassettes/` (read at run time, skipped when absent) converted
//! body by body, every streamed response's assembled form to every
//! transcript shape; the MCP answers given their recorded call; and the
//! hand-written cassettes of `tests/fixtures/recordings/`.

use serde_json::Value;

use crate::support::{cassettes, fixture, TRANSCRIPT_SHAPES};
use crate::{path_arg, run};

/// The recordings with streamed responses, and how many bodies each holds.
const STREAMED: &[(&str, usize)] = &[
    ("vcrpy-stream/llm-01.yaml", 4),
    ("vcrpy-stream/llm-anthropic-01.yaml", 2),
    ("vcrpy-stream/llm-anthropic-02.yaml", 2),
    ("vcrpy-stream/llm-gemini-01.yaml", 6),
    ("vcrpy-stream/openinference-01.yaml", 2),
    ("vcrpy-stream/otel-contrib-01.yaml", 2),
    ("vcrpy-stream/otel-contrib-02.yaml", 4),
    ("vcrpy-stream/pydantic-ai-01.yaml", 2),
    ("har/mirascope-01.har", 4),
    ("har/mirascope-03.har", 6),
    ("langchain-aws/langchain-aws-01.yaml.gz", 4),
    ("vercel-fixtures/vercel-ai-01.chunks.txt", 1),
    ("vercel-fixtures/vercel-ai-03.chunks.txt", 1),
    ("vercel-fixtures/vercel-ai-04.chunks.txt", 1),
    ("vercel-fixtures/vercel-ai-05.chunks.txt", 1),
    ("vercel-fixtures/vercel-ai-06.chunks.txt", 1),
];

#[test]
fn every_assembled_stream_converts_to_every_transcript_shape() {
    let Some(root) = cassettes() else { return };
    for (file, bodies) in STREAMED {
        let path = root.join(file);
        for shape in TRANSCRIPT_SHAPES {
            let out = run(&["convert", "--to", shape, path_arg(&path)]);
            assert_eq!(out.code, 0, "{file} → {shape}: {}", out.stderr);
            let lines = out.json_lines();
            assert_eq!(lines.len(), *bodies, "{file} → {shape}: {}", out.stderr);
            assert!(
                out.stderr.contains(&format!(
                    "{bodies} bod{}, {bodies} out, 0 passed over, 0 failed",
                    if *bodies == 1 { "y" } else { "ies" }
                )),
                "{file} → {shape}: {}",
                out.stderr
            );
        }
    }
}

#[test]
fn an_mcp_answer_converts_with_its_recorded_call() {
    let Some(root) = cassettes() else { return };
    let out = run(&[
        "convert",
        "--to",
        "anthropic",
        path_arg(&root.join("mcp/chatlas-01.yaml")),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let lines = out.json_lines();
    // Two Responses turns (request, response) each side of the tool call,
    // and the tools/call answer between them; the MCP handshake, the lists
    // and the empty bodies are passed over.
    assert_eq!(lines.len(), 5);
    assert_eq!(
        lines[2],
        serde_json::json!({"type": "tool_result", "tool_use_id": "2",
            "content": [{"type": "text", "text": "2024-01-01"}]})
    );
    assert!(out.stderr.contains(
        "interaction 6 response: the call id `2` and tool name `get_current_date` are the recorded tools/call's"
    ));
    assert!(out
        .stderr
        .contains("16 bodies, 5 out, 11 passed over, 0 failed"));
    // The interview report's steps: each result named by its step.
    let out = run(&[
        "convert",
        "--to",
        "openai-chat",
        path_arg(&root.join("mcp/mcp-interviewer-01.json")),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let ids: Vec<String> = out
        .json_lines()
        .iter()
        .map(|line| line[0]["tool_call_id"].as_str().unwrap().to_string())
        .collect();
    let expected: Vec<String> = (1..=20).map(|n| format!("call_{n}")).collect();
    assert_eq!(ids, expected);
}

#[test]
fn a_broken_stream_fails_its_body_and_the_rest_convert() {
    let path = fixture("recordings/edge.yaml");
    let out = run(&["convert", "--to", "openai-chat", path_arg(&path)]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(out.json_lines().len(), 4);
    assert!(out.stderr.contains(
        "edge.yaml:13: interaction 1 response: the streamed response cannot be assembled: the stream is cut short"
    ));
    assert!(out
        .stderr
        .contains("edge.yaml:45: interaction 4 request: an empty body; passed over"));
    let nulls = run(&[
        "convert",
        "--to",
        "openai-chat",
        "--on-error",
        "null",
        path_arg(&path),
    ]);
    assert_eq!(nulls.code, 0, "{}", nulls.stderr);
    let lines: Vec<Value> = nulls.json_lines();
    assert_eq!((lines.len(), &lines[1]), (5, &Value::Null));
    for output in [&out.stdout, &out.stderr, &nulls.stderr] {
        assert!(!output.contains("sk-ant-very-secret"));
    }
}

#[test]
fn split_takes_the_tool_replies_of_a_recording() {
    let dir = tempfile::tempdir().unwrap();
    let images = dir.path().join("images");
    let path = fixture("recordings/tool-reply.yaml");
    let out = run(&["split", "--images-dir", path_arg(&images), path_arg(&path)]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let parts = out.json();
    assert_eq!(
        parts[1],
        serde_json::json!({"type": "text", "text": "shot"})
    );
    assert_eq!(parts[2]["mimeType"], "image/png");
    let written = std::fs::read(images.join("001-shot.png")).unwrap();
    assert!(written.starts_with(b"\x89PNG"));
    assert!(out.stderr.contains(
        "tool-reply.yaml:3: interaction 1 request: not a tool reply (`inspect --extract DIR` writes a recording's media); passed over"
    ));
    assert!(out
        .stderr
        .contains("2 bodies, 1 out, 1 passed over, 0 failed"));
}

#[test]
fn resize_reports_a_recording_and_writes_nothing_back() {
    let Some(root) = cassettes() else { return };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ellmer-01.yml");
    std::fs::copy(root.join("r-vcr/ellmer-01.yml"), &path).unwrap();
    let before = std::fs::read(&path).unwrap();
    let out = run(&["resize", "--max-dim", "100", "--in-place", path_arg(&path)]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(std::fs::read(&path).unwrap(), before);
    let changed: Vec<&str> = out
        .stderr
        .lines()
        .filter(|l| l.contains("512x512 jpeg"))
        .collect();
    assert_eq!(changed.len(), 3, "{}", out.stderr);
    assert!(changed[0].contains(":45 interaction 2 request /messages/2/content/2: 512x512 jpeg"));
    assert!(out
        .stderr
        .contains("a recording: 3 images would change; nothing is written back into a cassette"));
}

/// Gemini's chunks look like whole responses: a file of them is one stream
/// only when two lines in a row share the answer's `responseId`; JSON Lines
/// of separate answers stay documents. The last line need not end with a
/// newline.
#[test]
fn gemini_chunks_are_told_by_a_shared_response_id() {
    let chunk = |id: &str, text: &str, finish: bool| {
        let mut candidate = serde_json::json!({
            "content": {"role": "model", "parts": [{"text": text}]},
            "index": 0
        });
        if finish {
            candidate["finishReason"] = "STOP".into();
        }
        serde_json::json!({"candidates": [candidate], "responseId": id}).to_string()
    };
    let dir = tempfile::tempdir().unwrap();
    let stream = dir.path().join("gemini.chunks.txt");
    std::fs::write(
        &stream,
        [chunk("r1", "Hel", false), chunk("r1", "lo", true)].join("\n"),
    )
    .unwrap();
    let out = run(&["convert", "--to", "anthropic", path_arg(&stream)]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.json()["content"][0]["text"], "Hello");
    assert!(
        out.stderr
            .contains("1 body, 1 out, 0 passed over, 0 failed"),
        "{}",
        out.stderr
    );

    let answers = dir.path().join("answers.jsonl");
    std::fs::write(
        &answers,
        [chunk("r1", "Hello", true), chunk("r2", "Bye", true)].join("\n") + "\n",
    )
    .unwrap();
    let out = run(&["convert", "--to", "anthropic", path_arg(&answers)]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let texts: Vec<Value> = out
        .json_lines()
        .iter()
        .map(|line| line["content"][0]["text"].clone())
        .collect();
    assert_eq!(texts, ["Hello", "Bye"]);
}
