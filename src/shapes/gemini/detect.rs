//! What tells a Gemini generateContent document apart (`convert --from
//! auto`); the ranks keep the order of checks `convert::detect` lists.

use serde_json::{Map, Value};

use crate::convert::detect::{Rank, Tier};

pub fn document(map: &Map<String, Value>) -> Option<Rank> {
    let has = |key: &str| map.contains_key(key);
    if map.get("parts").is_some_and(Value::is_array) {
        // A lone Content.
        return Some(Rank::new(Tier::ToolResult, 5));
    }
    if has("functionResponse") || has("function_response") {
        return Some(Rank::new(Tier::ToolResult, 6));
    }
    if has("candidates") {
        return Some(Rank::new(Tier::Response, 1));
    }
    if has("contents")
        || has("systemInstruction")
        || has("system_instruction")
        || has("generationConfig")
    {
        return Some(Rank::new(Tier::Request, 0));
    }
    None
}

/// A Content has `parts`, and the assistant is `model`: no other shape says
/// either, so they rank first.
pub fn message(map: &Map<String, Value>) -> Option<u8> {
    let model = map.get("role").and_then(Value::as_str) == Some("model");
    (map.contains_key("parts") || model).then_some(0)
}
