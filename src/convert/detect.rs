//! Telling a document's shape from its keys (`convert --from auto`).

use serde_json::Value;

use crate::shapes::Shape;

/// A detected shape, with a note when close candidates had to be told apart
/// by a guess.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Detected {
    pub shape: Shape,
    pub note: Option<String>,
}

fn sure(shape: Shape) -> Option<Detected> {
    Some(Detected { shape, note: None })
}

fn guessed(shape: Shape, why: &str) -> Option<Detected> {
    Some(Detected {
        shape,
        note: Some(format!(
            "read the input as {shape} ({why}); pass --from to choose"
        )),
    })
}

/// Detects the shape of a document, or `None` when nothing fits.
pub fn detect(value: &Value) -> Option<Detected> {
    match value {
        Value::Object(map) => {
            let has = |key: &str| map.contains_key(key);
            let kind = map.get("type").and_then(Value::as_str);
            // Single tool results.
            if has("tool_output_images") {
                return sure(Shape::NemoGym);
            }
            match kind {
                Some("tool_result") if has("tool_use_id") => return sure(Shape::Anthropic),
                Some("tool_result") => return sure(Shape::Canonical),
                Some("function_call_output") => return sure(Shape::OpenaiResponses),
                _ => {}
            }
            if map.get("role").and_then(Value::as_str) == Some("tool") && has("tool_call_id") {
                return sure(Shape::OpenaiChat);
            }
            if has("parts") && map.get("parts").is_some_and(Value::is_array) {
                // A lone Gemini Content.
                return sure(Shape::Gemini);
            }
            if has("functionResponse") || has("function_response") {
                return sure(Shape::Gemini);
            }
            if has("toolResult") {
                return sure(Shape::Bedrock);
            }
            // Responses.
            if has("choices") {
                return sure(Shape::OpenaiChat);
            }
            if has("candidates") {
                return sure(Shape::Gemini);
            }
            if kind == Some("message")
                && map.get("role").and_then(Value::as_str) == Some("assistant")
            {
                return sure(Shape::Anthropic);
            }
            if map.get("object").and_then(Value::as_str) == Some("response") {
                return sure(Shape::OpenaiResponses);
            }
            if has("output") && has("stopReason") {
                return sure(Shape::Bedrock);
            }
            // Requests.
            if has("contents")
                || has("systemInstruction")
                || has("system_instruction")
                || has("generationConfig")
            {
                return sure(Shape::Gemini);
            }
            if has("input") || has("instructions") || has("max_output_tokens") {
                return sure(Shape::OpenaiResponses);
            }
            if has("toolConfig") || has("inferenceConfig") || has("modelId") {
                return sure(Shape::Bedrock);
            }
            if has("content") && !has("role") && map.get("content").is_some_and(Value::is_array) {
                return sure(Shape::Mcp);
            }
            if let Some(messages) = map.get("messages").and_then(Value::as_array) {
                if has("extensions")
                    || map
                        .get("system")
                        .is_some_and(|s| s.is_array() && canonical_blocks(s))
                {
                    return sure(Shape::Canonical);
                }
                if has("stop_sequences") || has("anthropic_version") {
                    return sure(Shape::Anthropic);
                }
                if let Some(system) = map.get("system") {
                    return system_body(system, messages);
                }
                return detect_messages(messages);
            }
            if has("messages") || has("tools") || has("system") {
                return sure(Shape::Canonical);
            }
            None
        }
        Value::Array(items) => detect_messages(items),
        _ => None,
    }
}

/// A body with `messages` and `system`, which Anthropic and Bedrock both
/// have: the blocks tell them apart (`{"type": "text", …}` is Anthropic's,
/// `{"text": …}` Bedrock's), the system prompt's first, then the messages'.
fn system_body(system: &Value, messages: &[Value]) -> Option<Detected> {
    let by_messages = detect_messages(messages).filter(|d| d.note.is_none());
    let by_system = match system {
        // Only Anthropic takes a string.
        Value::String(_) => Some(Shape::Anthropic),
        Value::Array(blocks) if !blocks.is_empty() => {
            let typed = blocks.iter().all(|b| b.get("type").is_some());
            let untyped = blocks
                .iter()
                .all(|b| b.is_object() && b.get("type").is_none());
            match (typed, untyped) {
                (true, _) => Some(Shape::Anthropic),
                (_, true) => Some(Shape::Bedrock),
                _ => None,
            }
        }
        _ => None,
    };
    let by_messages = by_messages.map(|d| d.shape);
    match (by_system, by_messages) {
        (Some(a), Some(b)) if a != b => guessed(
            b,
            "its system prompt and its messages look like different shapes",
        ),
        (Some(shape), _) | (None, Some(shape)) => sure(shape),
        (None, None) => guessed(
            Shape::Anthropic,
            "an empty system list and plain messages fit Anthropic and Bedrock",
        ),
    }
}

fn canonical_blocks(value: &Value) -> bool {
    value.as_array().is_some_and(|items| {
        items.iter().all(|b| {
            matches!(
                b.get("type").and_then(Value::as_str),
                Some("text" | "image" | "file" | "audio" | "opaque")
            )
        }) && items
            .iter()
            .any(|b| b.get("type").and_then(Value::as_str) == Some("text"))
    })
}

/// Detects the shape of a bare list of messages (or items).
fn detect_messages(items: &[Value]) -> Option<Detected> {
    let mut votes: Vec<Shape> = Vec::new();
    for item in items {
        if let Some(shape) = message_shape(item) {
            votes.push(shape);
        }
    }
    let Some(&first) = votes.first() else {
        // Content that is a string or a list of text blocks fits Chat,
        // Anthropic and canonical alike.
        let text_only = |content: &Value| match content {
            Value::String(_) => true,
            Value::Array(blocks) => blocks.iter().all(|b| {
                b.get("type").and_then(Value::as_str) == Some("text")
                    && b.as_object()
                        .is_some_and(|o| o.keys().all(|k| k == "type" || k == "text"))
            }),
            _ => false,
        };
        let plain = !items.is_empty()
            && items.iter().all(|m| {
                m.get("role").is_some_and(Value::is_string)
                    && m.get("content").is_some_and(text_only)
            });
        return if plain {
            guessed(Shape::OpenaiChat, "plain text messages fit several shapes")
        } else {
            None
        };
    };
    if votes.iter().all(|shape| *shape == first) {
        return sure(first);
    }
    // Mixed evidence: the most frequent wins, and says so.
    let mut best = first;
    let mut best_count = 0;
    for shape in Shape::ALL {
        let count = votes.iter().filter(|s| **s == shape).count();
        if count > best_count {
            best = shape;
            best_count = count;
        }
    }
    guessed(best, "its messages look like more than one shape")
}

/// What one message (or Responses item) says about its shape.
fn message_shape(item: &Value) -> Option<Shape> {
    let map = item.as_object()?;
    let has = |key: &str| map.contains_key(key);
    let role = map.get("role").and_then(Value::as_str);
    let kind = map.get("type").and_then(Value::as_str);
    if has("parts") || role == Some("model") {
        return Some(Shape::Gemini);
    }
    if matches!(
        kind,
        Some("function_call" | "function_call_output" | "reasoning" | "message" | "item_reference")
    ) {
        return Some(Shape::OpenaiResponses);
    }
    if has("tool_calls") || has("tool_call_id") || matches!(role, Some("developer")) {
        return Some(Shape::OpenaiChat);
    }
    if has("extensions") {
        return Some(Shape::Canonical);
    }
    let content = map.get("content")?;
    let Some(blocks) = content.as_array() else {
        // A string content says little: OpenAI Chat is the common case.
        return if role == Some("system") {
            Some(Shape::OpenaiChat)
        } else {
            None
        };
    };
    for block in blocks {
        let Some(block) = block.as_object() else {
            continue;
        };
        let kind = block.get("type").and_then(Value::as_str);
        if kind.is_none()
            && (block.contains_key("text")
                || block.contains_key("toolUse")
                || block.contains_key("toolResult")
                || block.contains_key("image"))
        {
            return Some(Shape::Bedrock);
        }
        match kind {
            Some("image_url" | "input_audio" | "refusal") => return Some(Shape::OpenaiChat),
            Some("file") if block.contains_key("file") => return Some(Shape::OpenaiChat),
            Some("input_text" | "input_image" | "input_file" | "output_text") => {
                return Some(Shape::OpenaiResponses)
            }
            // A canonical tool_result carries `call_id`; Anthropic's `tool_use_id`.
            Some("tool_result") if block.contains_key("call_id") || role == Some("tool") => {
                return Some(Shape::Canonical)
            }
            Some("tool_use" | "tool_result" | "thinking" | "redacted_thinking" | "document") => {
                return Some(Shape::Anthropic)
            }
            Some("image") if block.contains_key("source") => return Some(Shape::Anthropic),
            Some("tool_call" | "opaque") => return Some(Shape::Canonical),
            Some("image" | "file" | "audio") if block.contains_key("mimeType") => {
                return Some(Shape::Canonical)
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn shape(value: Value) -> Shape {
        detect(&value).expect("detected").shape
    }

    #[test]
    fn detects_requests_responses_and_tool_results() {
        assert_eq!(
            shape(json!({"model": "m", "messages": [{"role": "user", "content": "hi"}]})),
            Shape::OpenaiChat
        );
        assert_eq!(
            shape(json!({"model": "m", "system": "s", "messages": []})),
            Shape::Anthropic
        );
        assert_eq!(shape(json!({"contents": []})), Shape::Gemini);
        assert_eq!(shape(json!({"input": "hi"})), Shape::OpenaiResponses);
        assert_eq!(
            shape(json!({"messages": [], "inferenceConfig": {}})),
            Shape::Bedrock
        );
        assert_eq!(shape(json!({"choices": []})), Shape::OpenaiChat);
        assert_eq!(
            shape(json!({"type": "message", "role": "assistant", "content": []})),
            Shape::Anthropic
        );
        assert_eq!(
            shape(json!({"role": "tool", "tool_call_id": "c", "content": "x"})),
            Shape::OpenaiChat
        );
        assert_eq!(
            shape(json!({"type": "tool_result", "tool_use_id": "t"})),
            Shape::Anthropic
        );
        assert_eq!(
            shape(json!({"type": "tool_result", "call_id": "t"})),
            Shape::Canonical
        );
        assert_eq!(
            shape(json!({"content": [{"type": "text", "text": "x"}]})),
            Shape::Mcp
        );
        assert_eq!(shape(json!({"tool_output_images": null})), Shape::NemoGym);
    }

    #[test]
    fn detects_bare_message_lists() {
        assert_eq!(
            shape(
                json!([{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "x"}}]}])
            ),
            Shape::OpenaiChat
        );
        assert_eq!(
            shape(json!([{"role": "model", "parts": []}])),
            Shape::Gemini
        );
        assert_eq!(
            shape(json!([{"role": "user", "content": [{"text": "hi"}]}])),
            Shape::Bedrock
        );
        assert_eq!(
            shape(json!([{"type": "function_call", "call_id": "c"}])),
            Shape::OpenaiResponses
        );
        let plain = detect(&json!([{"role": "user", "content": "hi"}])).unwrap();
        assert_eq!(plain.shape, Shape::OpenaiChat);
        assert!(plain.note.is_some());
        assert!(detect(&json!([1, 2])).is_none());
        let mixed = detect(&json!([
            {"role": "assistant", "tool_calls": []},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t"}]},
            {"role": "tool", "tool_call_id": "c"}
        ]))
        .unwrap();
        assert_eq!(mixed.shape, Shape::OpenaiChat);
        assert!(mixed.note.unwrap().contains("pass --from"));
    }
}
