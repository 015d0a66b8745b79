//! What tells a canonical document apart (`convert --from auto`); the ranks
//! keep the order of checks `convert::detect` lists.

use serde_json::{Map, Value};

use crate::convert::detect::{Rank, Tier};

pub fn document(map: &Map<String, Value>) -> Option<Rank> {
    let has = |key: &str| map.contains_key(key);
    // A tool_result block that is not Anthropic's (ranked before).
    if map.get("type").and_then(Value::as_str) == Some("tool_result") {
        return Some(Rank::new(Tier::ToolResult, 2));
    }
    if map.get("messages").is_some_and(Value::is_array)
        && (has("extensions") || map.get("system").is_some_and(canonical_blocks))
    {
        return Some(Rank::new(Tier::Body, 0));
    }
    // What is left of a transcript object, when its messages told nothing.
    if has("messages") || has("tools") || has("system") {
        return Some(Rank::new(Tier::Loose, 0));
    }
    None
}

/// A system prompt of canonical parts, one of them text.
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

pub fn message(map: &Map<String, Value>) -> Option<u8> {
    map.contains_key("extensions").then_some(3)
}

pub fn block(block: &Map<String, Value>, role: Option<&str>) -> Option<u8> {
    let has = |key: &str| block.contains_key(key);
    match block.get("type").and_then(Value::as_str) {
        // A canonical tool_result carries `call_id`; Anthropic's `tool_use_id`.
        Some("tool_result") if has("call_id") || role == Some("tool") => Some(3),
        Some("tool_call" | "opaque") => Some(6),
        Some("image" | "file" | "audio") if has("mimeType") => Some(7),
        _ => None,
    }
}
