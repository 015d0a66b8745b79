//! `partkit::convert` in-process, as tables: one line per case (the helpers are
//! in `support/tables.rs`). Cases kept as files, one folder per case and one
//! file per shape, are under `tests/shapes/` (`shape_cases.rs`).

use serde_json::json;

use super::support::tables::{converts, refuses, round_trips};

// The tables are kept one case a line, wider than rustfmt's width, so that a
// case reads as a row.

#[test]
#[rustfmt::skip]
fn text_and_system_prompts() {
    converts("openai-chat", "anthropic", json!({"model": "gpt-4o", "max_completion_tokens": 10, "messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}]}), json!({"model": "gpt-4o", "max_tokens": 10, "system": "Be brief.", "messages": [{"role": "user", "content": "Hi"}]}), &[]);
    converts("openai-chat", "gemini", json!({"messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}]}), json!({"systemInstruction": {"parts": [{"text": "Be brief."}]}, "contents": [{"role": "user", "parts": [{"text": "Hi"}]}]}), &[]);
    converts("openai-chat", "openai-responses", json!({"messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello."}]}), json!({"input": [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Hi"}]}, {"type": "message", "role": "assistant", "content": "Hello."}]}), &[]);
    converts("bedrock", "gemini", json!({"modelId": "m", "messages": [{"role": "user", "content": [{"text": "Hi"}]}, {"role": "assistant", "content": [{"text": "Hello."}]}]}), json!({"contents": [{"role": "user", "parts": [{"text": "Hi"}]}, {"role": "model", "parts": [{"text": "Hello."}]}]}), &["gemini has no place for model; dropped"]);
}

#[test]
#[rustfmt::skip]
fn tool_calls_keep_their_ids() {
    converts("anthropic", "openai-chat", json!({"model": "claude", "max_tokens": 9, "messages": [{"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "f", "input": {"a": 1}}]}, {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"}]}]}), json!({"model": "claude", "messages": [{"role": "assistant", "content": null, "tool_calls": [{"id": "toolu_1", "type": "function", "function": {"name": "f", "arguments": "{\"a\":1}"}}]}, {"role": "tool", "tool_call_id": "toolu_1", "content": "ok"}], "max_completion_tokens": 9}), &[]);
    converts("anthropic", "bedrock", json!({"model": "claude", "max_tokens": 9, "messages": [{"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "f", "input": {"a": 1}}]}, {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"}]}]}), json!({"modelId": "claude", "messages": [{"role": "assistant", "content": [{"toolUse": {"toolUseId": "toolu_1", "name": "f", "input": {"a": 1}}}]}, {"role": "user", "content": [{"toolResult": {"toolUseId": "toolu_1", "content": [{"text": "ok"}]}}]}], "toolConfig": {"tools": [{"toolSpec": {"name": "f", "inputSchema": {"json": {"type": "object", "additionalProperties": true}}}}]}, "inferenceConfig": {"maxTokens": 9}}), &["bedrock refuses tool calls in a request that declares no tools: declared f with any arguments (the model may call it in the next turn)"]);
    converts("openai-responses", "anthropic", json!({"model": "gpt-4.1", "max_output_tokens": 9, "input": [{"type": "function_call", "call_id": "call_1", "name": "f", "arguments": "{\"a\":1}"}, {"type": "function_call_output", "call_id": "call_1", "output": "ok"}]}), json!({"model": "gpt-4.1", "max_tokens": 9, "messages": [{"role": "assistant", "content": [{"type": "tool_use", "id": "call_1", "name": "f", "input": {"a": 1}}]}, {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "call_1", "content": [{"type": "text", "text": "ok"}]}]}], "tools": [{"name": "f", "input_schema": {"type": "object", "additionalProperties": true}}]}), &["anthropic refuses tool calls in a request that declares no tools: declared f with any arguments (the model may call it in the next turn)"]);
    // Gemini's id-less calls get ids where the target needs them.
    converts("gemini", "openai-chat", json!({"contents": [{"role": "model", "parts": [{"functionCall": {"name": "f", "args": {"a": 1}}}]}, {"role": "user", "parts": [{"functionResponse": {"name": "f", "response": {"output": "ok"}}}]}]}), json!({"messages": [{"role": "assistant", "content": null, "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{\"a\":1}"}}]}, {"role": "tool", "tool_call_id": "call_1", "content": "ok"}]}), &["1 tool call had no id; made call_1 (results paired by order)"]);
    refuses("openai-chat", "anthropic", json!({"messages": [{"role": "assistant", "content": null, "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{"}}]}]}), "arguments are not valid JSON");
}

#[test]
#[rustfmt::skip]
fn images_by_url() {
    converts("canonical", "openai-responses", json!({"messages": [{"role": "user", "content": [{"type": "image", "mimeType": "image/png", "url": "https://example.com/a.png"}]}]}), json!({"input": [{"type": "message", "role": "user", "content": [{"type": "input_image", "image_url": "https://example.com/a.png", "detail": "auto"}]}]}), &[]);
    converts("openai-chat", "anthropic", json!({"messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "https://example.com/a.png", "detail": "high"}}]}]}), json!({"messages": [{"role": "user", "content": [{"type": "image", "source": {"type": "url", "url": "https://example.com/a.png"}}]}]}), &["anthropic requests require max_tokens and the input has none; none was written (add one before sending)", "anthropic has no place for openai-chat detail; dropped"]);
}

#[test]
#[rustfmt::skip]
fn round_trips_through_canonical() {
    round_trips("openai-chat", json!({"model": "gpt-4o", "messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": null, "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{\"a\":1}"}}]}, {"role": "tool", "tool_call_id": "call_1", "content": "ok"}]}));
    round_trips("anthropic", json!({"model": "claude", "max_tokens": 9, "messages": [{"role": "user", "content": "Why?"}, {"role": "assistant", "content": [{"type": "thinking", "thinking": "Hmm.", "signature": "c2ln"}, {"type": "text", "text": "Because."}]}]}));
    round_trips("gemini", json!({"contents": [{"role": "model", "parts": [{"functionCall": {"id": "c1", "name": "f", "args": {}}}]}, {"role": "user", "parts": [{"functionResponse": {"id": "c1", "name": "f", "response": {"output": "ok"}}}]}]}));
    round_trips("bedrock", json!({"modelId": "m", "messages": [{"role": "assistant", "content": [{"toolUse": {"toolUseId": "t1", "name": "f", "input": {}}}]}, {"role": "user", "content": [{"toolResult": {"toolUseId": "t1", "content": [{"text": "ok"}]}}]}]}));
    round_trips("openai-responses", json!({"model": "gpt-4.1", "input": [{"role": "user", "content": "Chart Paris."}, {"type": "function_call", "call_id": "call_1", "name": "f", "arguments": "{}"}, {"type": "function_call_output", "call_id": "call_1", "output": "ok"}]}));
}

/// Bedrock: fields the model has no place for are written back in the order
/// they came, whichever of their neighbours the model took (the settings, a
/// tool choice, a media block's format).
#[test]
fn bedrock_kept_fields_keep_their_order() {
    let input = concat!(
        r#"{"modelId":"m","messages":[{"role":"user","content":[{"image":{"zz":1,"format":"png","#,
        r#""aa":2,"source":{"bytes":"iVBORw0KGgo="},"mm":3}}]}],"#,
        r#""inferenceConfig":{"maxTokens":5,"zeta":1,"temperature":0.5,"alpha":2,"stopSequences":5,"beta":3},"#,
        r#""toolConfig":{"zz":1,"tools":[{"toolSpec":{"name":"f","inputSchema":{"json":{}}}}],"#,
        r#""toolChoice":{"auto":{}},"aa":2,"mm":3}}"#
    );
    let value: serde_json::Value = serde_json::from_str(input).unwrap();
    let converted = partkit::convert::convert(
        &value,
        Some(partkit::shapes::Shape::Bedrock),
        partkit::shapes::Shape::Bedrock,
        Default::default(),
    )
    .unwrap();
    let text = serde_json::to_string(&converted.value).unwrap();
    let order = |object: &str, keys: &[&str]| {
        let at = text
            .find(object)
            .unwrap_or_else(|| panic!("{object} in {text}"));
        let places: Vec<_> = keys
            .iter()
            .map(|key| text[at..].find(&format!("\"{key}\"")).expect(key))
            .collect();
        assert!(places.is_sorted(), "{object} {keys:?} in {text}");
    };
    order(r#""image""#, &["zz", "aa", "mm"]);
    order(
        r#""inferenceConfig""#,
        &["zeta", "alpha", "stopSequences", "beta"],
    );
    order(r#""toolConfig""#, &["zz", "aa", "mm"]);
}

/// A response converted to its own shape comes back in its own order: the
/// model and the turn (a completion's `choices[0].message`, a Responses
/// `output`) are read into the model and written back where they were. A
/// model taken out on the way (an edited canonical form) leaves no gap.
#[test]
fn responses_keep_their_envelope_order() {
    use partkit::shapes::Shape;
    let convert = |text: &str, from: Shape, to: Shape| {
        let value: serde_json::Value = serde_json::from_str(text).unwrap();
        let converted = partkit::convert::convert(&value, Some(from), to, Default::default());
        serde_json::to_string(&converted.unwrap().value).unwrap()
    };
    let completion = concat!(
        r#"{"id":"c","object":"chat.completion","created":1,"model":"gpt-4o","#,
        r#""choices":[{"index":0,"message":{"role":"assistant","content":"Hi"},"#,
        r#""logprobs":null,"finish_reason":"stop"}],"usage":{"prompt_tokens":1},"#,
        r#""system_fingerprint":"fp"}"#
    );
    let response = concat!(
        r#"{"id":"r","object":"response","created_at":1,"status":"completed","#,
        r#""model":"gpt-5","output":[{"type":"message","id":"m","status":"completed","#,
        r#""role":"assistant","content":[{"type":"output_text","text":"Hi","annotations":[]}]}],"#,
        r#""usage":{"input_tokens":1},"metadata":{}}"#
    );
    for (text, shape) in [
        (completion, Shape::OpenaiChat),
        (response, Shape::OpenaiResponses),
    ] {
        assert_eq!(convert(text, shape, shape), text);
        let canonical = convert(text, shape, Shape::Canonical);
        assert_eq!(convert(&canonical, Shape::Canonical, shape), text);
        let mut edited: serde_json::Value = serde_json::from_str(&canonical).unwrap();
        edited.as_object_mut().unwrap().shift_remove("model");
        let without = convert(&edited.to_string(), Shape::Canonical, shape);
        let model = [r#""model":"gpt-4o","#, r#""model":"gpt-5","#];
        let want = model.iter().fold(text.to_string(), |t, m| t.replace(m, ""));
        assert_eq!(without, want);
    }
}
