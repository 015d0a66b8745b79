//! What tells an Anthropic Messages document apart (`convert --from auto`);
//! the ranks keep the order of checks `convert::detect` lists.

use serde_json::{Map, Value};

use crate::convert::detect::{Rank, Tier, Unsure};

pub fn document(map: &Map<String, Value>) -> Option<Rank> {
    let has = |key: &str| map.contains_key(key);
    let kind = map.get("type").and_then(Value::as_str);
    // A single tool_result block names its call by `tool_use_id` (a canonical
    // one by `call_id`, which ranks after).
    if kind == Some("tool_result") && has("tool_use_id") {
        return Some(Rank::new(Tier::ToolResult, 1));
    }
    if kind == Some("message") && map.get("role").and_then(Value::as_str) == Some("assistant") {
        return Some(Rank::new(Tier::Response, 2));
    }
    if map.get("messages").is_some_and(Value::is_array)
        && (has("stop_sequences") || has("anthropic_version"))
    {
        return Some(Rank::new(Tier::Body, 1));
    }
    None
}

pub fn block(block: &Map<String, Value>) -> Option<u8> {
    match block.get("type").and_then(Value::as_str) {
        // After a canonical tool_result (which carries `call_id`, or stands in
        // a tool message).
        Some("tool_use" | "tool_result" | "thinking" | "redacted_thinking" | "document") => Some(4),
        // A canonical image has `mimeType` instead (ranked after).
        Some("image") if block.contains_key("source") => Some(5),
        _ => None,
    }
}

/// Only Anthropic takes a string system prompt, and its blocks are typed
/// (`{"type": "text", …}`; Bedrock's are `{"text": …}`).
pub fn system_prompt(system: &Value) -> bool {
    match system {
        Value::String(_) => true,
        Value::Array(blocks) => {
            !blocks.is_empty() && blocks.iter().all(|b| b.get("type").is_some())
        }
        _ => false,
    }
}

/// A body with `system` and `messages` that tell nothing is read as
/// Anthropic's, the more common of the two shapes with such a body.
pub fn guess(case: Unsure) -> Option<&'static str> {
    (case == Unsure::SystemBody)
        .then_some("an empty system list and plain messages fit Anthropic and Bedrock")
}
