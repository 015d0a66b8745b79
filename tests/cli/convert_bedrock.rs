//! `partkit convert` for Bedrock Converse: exact round trips, alternating
//! roles, format tokens, document names, id mapping and what Converse lacks.

use serde_json::{json, Value};

use super::{fixture, run_with_stdin, Run};

fn b64(name: &str) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(std::fs::read(fixture(name)).unwrap())
}

fn convert(args: &[&str], input: &Value) -> Run {
    let mut all = vec!["convert"];
    all.extend_from_slice(args);
    run_with_stdin(&all, input.to_string().as_bytes())
}

fn assert_round_trip(input: &Value) {
    let there = convert(&["--from", "bedrock", "--to", "canonical"], input);
    assert_eq!(
        (there.code, there.stderr.as_str()),
        (0, ""),
        "bedrock -> canonical"
    );
    let back = run_with_stdin(
        &["convert", "--from", "canonical", "--to", "bedrock"],
        there.stdout.as_bytes(),
    );
    assert_eq!(back.code, 0, "{}", back.stderr);
    assert_eq!(back.json(), *input, "bedrock -> canonical -> bedrock");
}

fn converse_request() -> Value {
    json!({
        "modelId": "anthropic.claude-sonnet-4",
        "system": [{"text": "You are terse."}, {"cachePoint": {"type": "default"}}],
        "messages": [
            {"role": "user", "content": [
                {"text": "Chart for Paris?"},
                {"image": {"format": "png", "source": {"bytes": b64("tiny.png")}}},
                {"document": {"format": "pdf", "name": "Q3 report", "source": {"bytes": b64("doc.pdf")}}},
                {"document": {"format": "txt", "name": "notes", "source": {"text": "plain notes"}}}]},
            {"role": "assistant", "content": [
                {"reasoningContent": {"reasoningText": {"text": "thinking", "signature": "sig"}}},
                {"text": "Calling."},
                {"toolUse": {"toolUseId": "tooluse_1", "name": "get_chart", "input": {"city": "Paris"}}},
                {"toolUse": {"toolUseId": "tooluse_2", "name": "get_chart", "input": {"city": "Rome"}}}]},
            {"role": "user", "content": [
                {"toolResult": {"toolUseId": "tooluse_1", "status": "success", "content": [
                    {"json": {"rows": 3}}, {"text": "chart follows"},
                    {"image": {"format": "jpeg", "source": {"bytes": b64("tiny.jpg")}}}]}},
                {"toolResult": {"toolUseId": "tooluse_2", "status": "error", "content": [{"text": "no data"}]}},
                {"text": "Thanks."}]},
            {"role": "assistant", "content": [{"text": "Done."}]}
        ],
        "toolConfig": {
            "tools": [
                {"toolSpec": {"name": "get_chart", "description": "Render a chart",
                              "inputSchema": {"json": {"type": "object", "properties": {"city": {"type": "string"}}}}}},
                {"cachePoint": {"type": "default"}}],
            "toolChoice": {"auto": {}}},
        "inferenceConfig": {"maxTokens": 512, "temperature": 0.5, "topP": 0.9, "stopSequences": ["END"]},
        "additionalModelRequestFields": {"top_k": 40}
    })
}

#[test]
fn converse_request_round_trips_through_canonical_exactly() {
    assert_round_trip(&converse_request());
}

#[test]
fn converse_message_list_response_and_tool_result_round_trip() {
    assert_round_trip(&converse_request()["messages"]);
    assert_round_trip(&json!({
        "output": {"message": {"role": "assistant", "content": [
            {"text": "ok"}, {"toolUse": {"toolUseId": "t1", "name": "f", "input": {}}}]}},
        "stopReason": "tool_use",
        "usage": {"inputTokens": 10, "outputTokens": 2, "totalTokens": 12},
        "metrics": {"latencyMs": 100}
    }));
    assert_round_trip(&json!({"toolResult": {"toolUseId": "t1", "content": [{"text": "42"}]}}));
}

#[test]
fn detection_recognizes_converse() {
    let run = convert(&["--to", "canonical"], &converse_request());
    assert_eq!((run.code, run.stderr.as_str()), (0, ""));
    let run = convert(&["--to", "canonical"], &converse_request()["messages"]);
    assert_eq!((run.code, run.stderr.as_str()), (0, ""));
}

/// Converse roles alternate: an OpenAI turn's tool messages and the user message
/// that follows become one user message; image formats are tokens, not types.
#[test]
fn chat_to_bedrock_merges_tool_results_into_one_user_turn() {
    let png = format!("data:image/jpeg;base64,{}", b64("tiny.jpg"));
    let run = convert(
        &["--from", "openai-chat", "--to", "bedrock"],
        &json!({
            "model": "m", "max_tokens": 100,
            "messages": [
                {"role": "system", "content": "sys"},
                {"role": "user", "content": [{"type": "text", "text": "hi"}, {"type": "image_url", "image_url": {"url": png}}]},
                {"role": "assistant", "content": null, "tool_calls": [
                    {"id": "call_a", "type": "function", "function": {"name": "f", "arguments": "{\"x\":1}"}},
                    {"id": "call_b", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
                {"role": "tool", "tool_call_id": "call_a", "content": "one"},
                {"role": "tool", "tool_call_id": "call_b", "content": "two"},
                {"role": "user", "content": "next"}]
        }),
    );
    // The request declares no tools, which Converse refuses: `f` is declared.
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (0, "partkit: warning: bedrock refuses tool calls in a request that declares no tools: declared f with any arguments (the model may call it in the next turn)\n")
    );
    assert_eq!(
        run.json(),
        json!({
            "modelId": "m",
            "system": [{"text": "sys"}],
            "messages": [
                {"role": "user", "content": [{"text": "hi"},
                    {"image": {"format": "jpeg", "source": {"bytes": b64("tiny.jpg")}}}]},
                {"role": "assistant", "content": [
                    {"toolUse": {"toolUseId": "call_a", "name": "f", "input": {"x": 1}}},
                    {"toolUse": {"toolUseId": "call_b", "name": "f", "input": {}}}]},
                {"role": "user", "content": [
                    {"toolResult": {"toolUseId": "call_a", "content": [{"text": "one"}]}},
                    {"toolResult": {"toolUseId": "call_b", "content": [{"text": "two"}]}},
                    {"text": "next"}]}
            ],
            "toolConfig": {"tools": [{"toolSpec": {"name": "f", "inputSchema": {"json": {"type": "object", "additionalProperties": true}}}}]},
            "inferenceConfig": {"maxTokens": 100}
        })
    );
}

/// Converter bugs R2 and E14: an image a tool returned stays in the toolResult,
/// every part kept even when the first part is an image.
#[test]
fn tool_result_images_stay_native_and_complete() {
    let run = convert(
        &["--from", "canonical", "--to", "bedrock"],
        &json!([
            {"role": "tool", "content": [{"type": "tool_result", "call_id": "c1", "name": "shot", "content": [
                {"type": "image", "mimeType": "image/png", "data": b64("tiny.png")},
                {"type": "text", "text": "caption"}]}]}
        ]),
    );
    assert_eq!(
        run.json(),
        json!([{"role": "user", "content": [{"toolResult": {"toolUseId": "c1", "content": [
            {"image": {"format": "png", "source": {"bytes": b64("tiny.png")}}},
            {"text": "caption"}]}}]}])
    );
}

/// Converter bugs R11 and R12: document names are reduced to Bedrock's alphabet.
#[test]
fn document_names_are_sanitized() {
    let pdf = json!({"type": "file", "mimeType": "application/pdf", "data": b64("doc.pdf"),
                     "name": "it's #1 & best.v2.pdf"});
    let run = convert(
        &["--from", "canonical", "--to", "bedrock"],
        &json!([{"role": "user", "content": [
        {"type": "text", "text": "read"}, pdf]}]),
    );
    assert_eq!(
        run.json()[0]["content"][1]["document"]["name"],
        json!("it s 1 best v2")
    );
}

/// Call ids outside `[a-zA-Z0-9_.:-]` are mapped the same way on the call and its
/// result, and distinct ids stay distinct.
#[test]
fn call_ids_are_mapped_consistently_and_said() {
    let run = convert(
        &["--from", "canonical", "--to", "bedrock"],
        &json!([
            {"role": "assistant", "content": [
                {"type": "tool_call", "id": "call/1", "name": "f", "arguments": {}},
                {"type": "tool_call", "id": "call+1", "name": "f", "arguments": {}}]},
            {"role": "tool", "content": [
                {"type": "tool_result", "call_id": "call/1", "content": [{"type": "text", "text": "a"}]},
                {"type": "tool_result", "call_id": "call+1", "content": [{"type": "text", "text": "b"}]}]}
        ]),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = run.json();
    let call_ids: Vec<&str> = out[0]["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["toolUse"]["toolUseId"].as_str().unwrap())
        .collect();
    let result_ids: Vec<&str> = out[1]["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["toolResult"]["toolUseId"].as_str().unwrap())
        .collect();
    assert_eq!(call_ids, result_ids);
    assert_ne!(call_ids[0], call_ids[1]);
    for id in &call_ids {
        assert!(id.starts_with("call_1-") && id.len() <= 64, "{id}");
        assert!(
            id.chars()
                .all(|c| c.is_ascii_alphanumeric() || "_.:-".contains(c)),
            "{id}"
        );
    }
    assert!(
        run.stderr
            .contains("call ids outside Bedrock's toolUseId alphabet were mapped"),
        "{}",
        run.stderr
    );
}

#[test]
fn what_converse_cannot_carry_is_refused_or_dropped() {
    // A URL image a user attached: Converse carries bytes or S3 locations only.
    convert(
        &["--from", "canonical", "--to", "bedrock"],
        &json!([{"role": "user", "content": [
        {"type": "image", "mimeType": "image/png", "url": "https://x.test/a.png"}]}]),
    )
    .assert_error(1, &["image part (image/png)", "bedrock"]);
    // Audio inside a tool result degrades to the placeholder.
    let run = convert(
        &["--from", "canonical", "--to", "bedrock"],
        &json!([{"role": "tool", "content": [
        {"type": "tool_result", "call_id": "c", "content": [
            {"type": "audio", "mimeType": "audio/wav", "data": b64("tone.wav")}]}]}]),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.json()[0]["content"][0]["toolResult"]["content"][0]["text"],
        json!(format!(
            "[unsupported audio part (audio/wav, {} bytes)]",
            std::fs::read(fixture("tone.wav")).unwrap().len()
        ))
    );
    // Tool choice none has no Converse form.
    let run = convert(
        &["--from", "canonical", "--to", "bedrock"],
        &json!({"tool_choice": "none", "messages": []}),
    );
    assert_eq!(
        run.stderr,
        "partkit: warning: bedrock has no place for tool choice none; dropped\n"
    );
    convert(
        &["--from", "canonical", "--to", "bedrock", "--strict"],
        &json!({"tool_choice": "none", "messages": []}),
    )
    .assert_error(1, &["--strict", "tool choice none"]);
}

#[test]
fn bedrock_to_chat_keeps_ids_json_results_and_errors_as_text() {
    let run = convert(
        &["--from", "bedrock", "--to", "openai-chat"],
        &json!([
            {"role": "assistant", "content": [{"toolUse": {"toolUseId": "t1", "name": "f", "input": {"a": 1}}}]},
            {"role": "user", "content": [{"toolResult": {"toolUseId": "t1", "status": "error",
                                                         "content": [{"json": {"err": "x"}}]}}]}
        ]),
    );
    assert_eq!(run.code, 0);
    assert_eq!(
        run.json(),
        json!([
            {"role": "assistant", "content": null, "tool_calls": [
                {"id": "t1", "type": "function", "function": {"name": "f", "arguments": "{\"a\":1}"}}]},
            {"role": "tool", "tool_call_id": "t1", "content": "{\"err\":\"x\"}"}
        ])
    );
    assert_eq!(
        run.stderr,
        "partkit: warning: openai-chat has no place for the error flag of tool results (errors are plain text in tool messages); dropped\n"
    );
}

#[test]
fn an_empty_tool_description_is_left_out() {
    // boto3's Converse validator refuses a description of length 0.
    let chat = r#"{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"get_time","description":"","parameters":{"type":"object","properties":{}}}}]}"#;
    let run = super::run_with_stdin(&["convert", "--to", "bedrock", "-q"], chat.as_bytes());
    assert_eq!(run.code, 0, "{}", run.stderr);
    let spec = &run.json()["toolConfig"]["tools"][0]["toolSpec"];
    assert_eq!(spec["name"], "get_time");
    assert!(spec.get("description").is_none(), "{spec}");
}
