//! What tells an OpenAI Responses document apart (`convert --from auto`);
//! the ranks keep the order of checks `convert::detect` lists.

use serde_json::{Map, Value};

use crate::convert::detect::{Rank, Tier};

pub fn document(map: &Map<String, Value>) -> Option<Rank> {
    let has = |key: &str| map.contains_key(key);
    if map.get("type").and_then(Value::as_str) == Some("function_call_output") {
        return Some(Rank::new(Tier::ToolResult, 3));
    }
    if map.get("object").and_then(Value::as_str) == Some("response") {
        return Some(Rank::new(Tier::Response, 3));
    }
    if has("input") || has("instructions") || has("max_output_tokens") {
        return Some(Rank::new(Tier::Request, 1));
    }
    None
}

/// Items are typed; only Responses has these types.
pub fn message(map: &Map<String, Value>) -> Option<u8> {
    match map.get("type").and_then(Value::as_str) {
        Some(
            "function_call" | "function_call_output" | "reasoning" | "message" | "item_reference",
        ) => Some(1),
        _ => None,
    }
}

pub fn block(block: &Map<String, Value>) -> Option<u8> {
    match block.get("type").and_then(Value::as_str) {
        Some("input_text" | "input_image" | "input_file" | "output_text") => Some(2),
        _ => None,
    }
}
