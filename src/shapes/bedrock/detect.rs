//! What tells a Bedrock Converse document apart (`convert --from auto`); the
//! ranks keep the order of checks `convert::detect` lists.

use serde_json::{Map, Value};

use crate::convert::detect::{Rank, Tier};

pub fn document(map: &Map<String, Value>) -> Option<Rank> {
    let has = |key: &str| map.contains_key(key);
    if has("toolResult") {
        return Some(Rank::new(Tier::ToolResult, 7));
    }
    if has("output") && has("stopReason") {
        return Some(Rank::new(Tier::Response, 4));
    }
    if has("toolConfig") || has("inferenceConfig") || has("modelId") {
        return Some(Rank::new(Tier::Request, 2));
    }
    None
}

/// Bedrock's content blocks are untyped, named by their one key; they rank
/// first, since no other shape's blocks lack a type.
pub fn block(block: &Map<String, Value>) -> Option<u8> {
    let untyped = block.get("type").and_then(Value::as_str).is_none();
    let keyed = ["text", "toolUse", "toolResult", "image"]
        .iter()
        .any(|key| block.contains_key(*key));
    (untyped && keyed).then_some(0)
}

/// Bedrock's system prompt is a list of untyped blocks (`{"text": …}`).
pub fn system_prompt(system: &Value) -> bool {
    system.as_array().is_some_and(|blocks| {
        !blocks.is_empty()
            && blocks
                .iter()
                .all(|b| b.is_object() && b.get("type").is_none())
    })
}
