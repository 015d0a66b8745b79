//! What tells a canonical document apart (`convert --from auto`): a single
//! `tool_result` by its keys, any other document by the evidence below
//! (weighed in `convert::detect`).

use crate::json::{Node, Object};

use crate::contract::detect::{At, Rank, Tier, HINT, STRONG};

pub fn document<O: Object>(map: &O) -> Option<Rank> {
    // A tool_result block that is not Anthropic's (ranked before).
    (map.get("type").and_then(Node::as_str) == Some("tool_result"))
        .then_some(Rank::new(Tier::ToolResult, 2))
}

pub fn evidence<N: Node>(at: At<'_>, value: &N) -> u32 {
    let Some(map) = value.as_object() else {
        return 0;
    };
    let has = |key: &str| map.contains_key(key);
    let kind = map.get("type").and_then(Node::as_str);
    match at {
        At::Document | At::Message => u32::from(has("extensions")) * STRONG,
        // A typed text block fits Anthropic too: a hint, which Anthropic's own
        // marks (a string system, `cache_control`) outweigh.
        At::SystemBlock => match kind {
            Some("opaque") => STRONG,
            Some("text" | "image" | "file" | "audio") if !has("cache_control") => HINT,
            _ => 0,
        },
        At::Block {
            role,
            list: "content",
        } => match kind {
            // A canonical tool_result carries `call_id`; Anthropic's `tool_use_id`.
            Some("tool_result") if has("call_id") || role == Some("tool") => STRONG,
            Some("tool_call" | "opaque") => STRONG,
            _ => media(map, kind),
        },
        At::Inner => media(map, kind),
        At::Tool => {
            // `{"name", "parameters"}` with no `type` (Responses'), no
            // `function` (Chat's), no `input_schema` (Anthropic's).
            let plain = has("name") && !has("type") && !has("function") && !has("input_schema");
            u32::from(plain && has("parameters")) * STRONG
        }
        _ => 0,
    }
}

/// A canonical media part: `mimeType`, and no provider's `source`.
fn media<O: Object>(map: &O, kind: Option<&str>) -> u32 {
    let part = matches!(kind, Some("image" | "file" | "audio"))
        && map.contains_key("mimeType")
        && !map.contains_key("source");
    u32::from(part) * STRONG
}
