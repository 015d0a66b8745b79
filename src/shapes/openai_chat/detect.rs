//! What tells an OpenAI Chat Completions document apart (`convert --from
//! auto`); the ranks keep the order of checks `convert::detect` lists.

use serde_json::{Map, Value};

use crate::convert::detect::{Rank, Tier, Unsure};

pub fn document(map: &Map<String, Value>) -> Option<Rank> {
    if map.get("role").and_then(Value::as_str) == Some("tool") && map.contains_key("tool_call_id") {
        return Some(Rank::new(Tier::ToolResult, 4));
    }
    if map.contains_key("choices") {
        return Some(Rank::new(Tier::Response, 0));
    }
    None
}

pub fn message(map: &Map<String, Value>) -> Option<u8> {
    let has = |key: &str| map.contains_key(key);
    let role = map.get("role").and_then(Value::as_str);
    if has("tool_calls") || has("tool_call_id") || role == Some("developer") {
        return Some(2);
    }
    // A string content says little, but a system message with one is most
    // often Chat's (ranked after canonical's `extensions`).
    if role == Some("system") && map.get("content").is_some_and(|c| !c.is_array()) {
        return Some(4);
    }
    None
}

pub fn block(block: &Map<String, Value>) -> Option<u8> {
    match block.get("type").and_then(Value::as_str) {
        Some("image_url" | "input_audio" | "refusal") => Some(1),
        Some("file") if block.contains_key("file") => Some(1),
        _ => None,
    }
}

/// Messages of plain text fit Chat, Anthropic and canonical alike: Chat is
/// the common case.
pub fn guess(case: Unsure) -> Option<&'static str> {
    (case == Unsure::PlainMessages).then_some("plain text messages fit several shapes")
}
