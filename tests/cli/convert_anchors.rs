//! One test per conversion bug that real converters shipped
//! (docs/converter-bugs.md), named after what it guards.

use serde_json::{json, Value};

use super::{fixture, run_with_stdin, Run};

fn b64(name: &str) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(std::fs::read(fixture(name)).unwrap())
}

fn convert(from: &str, to: &str, input: &Value) -> Run {
    run_with_stdin(
        &["convert", "--from", from, "--to", to],
        input.to_string().as_bytes(),
    )
}

fn ok(run: &Run) -> Value {
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    run.json()
}

/// Every string in a value, with its JSON pointer.
fn strings(value: &Value, at: &str, out: &mut Vec<(String, String)>) {
    match value {
        Value::String(s) => out.push((at.to_string(), s.clone())),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .for_each(|(i, v)| strings(v, &format!("{at}/{i}"), out)),
        Value::Object(map) => map
            .iter()
            .for_each(|(k, v)| strings(v, &format!("{at}/{k}"), out)),
        _ => {}
    }
}

/// An OpenAI Chat request whose tool message holds an image in the common
/// LangChain dialect (an `image_url` part inside the tool message).
fn chat_with_tool_image() -> Value {
    json!({"model": "m", "messages": [
        {"role": "user", "content": "take a screenshot"},
        {"role": "assistant", "content": null, "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "screenshot", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": [
            {"type": "text", "text": "here it is"},
            {"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{}", b64("tiny.png"))}}]}
    ]})
}

/// R1 (litellm#6953): an image inside an OpenAI tool message must reach
/// Anthropic as an image block of the tool_result.
#[test]
fn openai_tool_message_image_reaches_the_anthropic_tool_result() {
    let out = ok(&convert(
        "openai-chat",
        "anthropic",
        &chat_with_tool_image(),
    ));
    let result = &out["messages"][2]["content"][0];
    assert_eq!(result["type"], json!("tool_result"));
    assert_eq!(result["tool_use_id"], json!("call_1"));
    assert_eq!(
        result["content"][1],
        json!({"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": b64("tiny.png")}})
    );
}

/// R15 (langchain#31950): the same tool message converted back to OpenAI Chat
/// delivers the image in a user message, since tool messages carry only text.
#[test]
fn openai_tool_message_image_is_relocated_for_openai_chat() {
    let out = ok(&convert(
        "openai-chat",
        "openai-chat",
        &chat_with_tool_image(),
    ));
    assert_eq!(
        out["messages"][2],
        json!({"role": "tool", "tool_call_id": "call_1", "content": "here it is"})
    );
    assert_eq!(out["messages"][3]["role"], json!("user"));
    assert_eq!(
        out["messages"][3]["content"][0]["text"],
        json!("Output of tool screenshot (call_1):")
    );
    assert_eq!(out["messages"][3]["content"][1]["type"], json!("image_url"));
}

/// R3 (litellm#23712): Anthropic → Gemini keeps tool-result images, nested
/// under functionResponse.parts.
#[test]
fn anthropic_tool_result_image_reaches_gemini_function_response_parts() {
    let input = json!({"model": "m", "max_tokens": 10, "messages": [
        {"role": "user", "content": "shot"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "shot", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": [
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": b64("tiny.png")}}]}]}
    ]});
    let out = ok(&convert("anthropic", "gemini", &input));
    let response = &out["contents"][2]["parts"][0]["functionResponse"];
    assert_eq!(response["id"], json!("toolu_1"));
    assert_eq!(response["name"], json!("shot"));
    assert_eq!(response["response"], json!({"output": ""}));
    assert_eq!(
        response["parts"][0]["inlineData"]["data"],
        json!(b64("tiny.png"))
    );
}

/// R4 (litellm PR #25476) and R9 (vercel/ai#8209): a tool's image is never
/// written as a data URL inside a text field, for any target.
#[test]
fn no_target_flattens_a_tool_image_into_text() {
    let canonical = json!({"messages": [
        {"role": "assistant", "content": [{"type": "tool_call", "id": "c1", "name": "shot", "arguments": {}}]},
        {"role": "tool", "content": [{"type": "tool_result", "call_id": "c1", "name": "shot",
            "content": [{"type": "image", "mimeType": "image/png", "data": b64("tiny.png")}]}]}
    ]});
    for target in [
        "openai-chat",
        "openai-responses",
        "anthropic",
        "gemini",
        "bedrock",
    ] {
        let out = ok(&convert("canonical", target, &canonical));
        let mut all = Vec::new();
        strings(&out, "", &mut all);
        for (at, text) in &all {
            let in_text_field =
                at.ends_with("/text") || at.ends_with("/content") || at.ends_with("/output");
            assert!(
                !(in_text_field && text.contains(";base64,")),
                "{target}: a data URL in the text field {at}"
            );
        }
        let payloads = all
            .iter()
            .filter(|(_, s)| s.contains(&b64("tiny.png")))
            .count();
        assert_eq!(payloads, 1, "{target}: the image is carried exactly once");
    }
}

/// R8 (litellm PR #21154): parallel Gemini calls stay one assistant turn, so
/// every result pairs with its call.
#[test]
fn parallel_gemini_calls_stay_one_assistant_turn() {
    let input = json!({"contents": [
        {"role": "user", "parts": [{"text": "weather in two cities"}]},
        {"role": "model", "parts": [
            {"functionCall": {"name": "weather", "args": {"city": "Paris"}}},
            {"functionCall": {"name": "weather", "args": {"city": "Rome"}}}]},
        {"role": "user", "parts": [
            {"functionResponse": {"name": "weather", "response": {"output": "18"}}},
            {"functionResponse": {"name": "weather", "response": {"output": "21"}}}]}
    ]});
    let out = ok(&convert("gemini", "openai-chat", &input));
    let messages = out["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 4, "{out}");
    let calls = messages[1]["tool_calls"].as_array().unwrap();
    assert_eq!(calls.len(), 2);
    assert_eq!(messages[2]["tool_call_id"], calls[0]["id"]);
    assert_eq!(messages[3]["tool_call_id"], calls[1]["id"]);
    assert_ne!(calls[0]["id"], calls[1]["id"]);
    assert_eq!(messages[2]["content"], json!("18"));
    assert_eq!(messages[3]["content"], json!("21"));
}

/// R21 (hermes-agent#55432): an `image/jpg` data URL is forwarded to
/// Anthropic as `image/jpeg`.
#[test]
fn media_type_aliases_are_normalized_for_the_target() {
    let input = json!([{"role": "user", "content": [
        {"type": "image_url", "image_url": {"url": format!("data:image/jpg;base64,{}", b64("tiny.jpg"))}}]}]);
    let out = ok(&convert("openai-chat", "anthropic", &input));
    assert_eq!(
        out[0]["content"][0]["source"]["media_type"],
        json!("image/jpeg")
    );
    let out = ok(&convert("openai-chat", "bedrock", &input));
    assert_eq!(out[0]["content"][0]["image"]["format"], json!("jpeg"));
}

/// R23–R25 (copilot-cli#4536, langchain-mcp-adapters#272, nanobot PR #4542):
/// every block of an MCP result reaches the model, images intact, in order.
#[test]
fn mcp_images_audio_and_resources_all_reach_the_model() {
    let result = json!({"content": [
        {"type": "text", "text": "screen:"},
        {"type": "image", "data": b64("tiny.png"), "mimeType": "image/png"},
        {"type": "resource", "resource": {"uri": "file:///doc.pdf", "mimeType": "application/pdf", "blob": b64("doc.pdf")}}
    ]});
    let run = run_with_stdin(
        &[
            "convert",
            "--from",
            "mcp",
            "--to",
            "anthropic",
            "--call-id",
            "toolu_9",
        ],
        result.to_string().as_bytes(),
    );
    let out = ok(&run);
    assert_eq!(out["tool_use_id"], json!("toolu_9"));
    let content = out["content"].as_array().unwrap();
    assert_eq!(content[0], json!({"type": "text", "text": "screen:"}));
    assert_eq!(content[1]["source"]["data"], json!(b64("tiny.png")));
    assert_eq!(content[2]["type"], json!("document"));
    assert_eq!(content[2]["source"]["data"], json!(b64("doc.pdf")));
    // The base64 is never cut, whatever its length.
    assert_eq!(
        content[1]["source"]["data"].as_str().unwrap().len(),
        b64("tiny.png").len()
    );
}

/// R26 (vllm PR #34745): Anthropic → OpenAI keeps tool_use_id as
/// tool_call_id, never an empty one.
#[test]
fn anthropic_tool_use_id_becomes_the_openai_tool_call_id() {
    let input = json!([
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_abc", "name": "f", "input": {"x": 1}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_abc", "content": "done"}]}
    ]);
    let out = ok(&convert("anthropic", "openai-chat", &input));
    assert_eq!(out[0]["tool_calls"][0]["id"], json!("toolu_abc"));
    assert_eq!(out[1]["tool_call_id"], json!("toolu_abc"));
}
