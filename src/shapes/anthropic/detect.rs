//! What tells an Anthropic Messages document apart (`convert --from auto`):
//! its single `tool_result` and its response by their keys, any other
//! document by the evidence below (weighed in `convert::detect`).

use crate::json::{Node, Object};

use crate::contract::detect::{At, Rank, Tier, Unsure, HINT, STRONG};

pub fn document<O: Object>(map: &O) -> Option<Rank> {
    let kind = map.get("type").and_then(Node::as_str);
    // A single tool_result block names its call by `tool_use_id` (a canonical
    // one by `call_id`, which ranks after).
    if kind == Some("tool_result") && map.contains_key("tool_use_id") {
        return Some(Rank::new(Tier::ToolResult, 1));
    }
    if kind == Some("message") && map.get("role").and_then(Node::as_str) == Some("assistant") {
        return Some(Rank::new(Tier::Response, 2));
    }
    None
}

/// Request settings only the Messages API has.
const SETTINGS: &[&str] = &[
    "anthropic_version",
    "anthropic_beta",
    "stop_sequences",
    "top_k",
    "mcp_servers",
    "context_management",
    "container",
];

/// Block types only Anthropic writes.
const BLOCKS: &[&str] = &[
    "tool_use",
    "server_tool_use",
    "mcp_tool_use",
    "mcp_tool_result",
    "thinking",
    "redacted_thinking",
    "document",
    "search_result",
    "container_upload",
];

pub fn evidence<N: Node>(at: At<'_>, value: &N) -> u32 {
    let Some(map) = value.as_object() else {
        // Only Anthropic takes a string system prompt.
        return u32::from(at == At::System && value.is_string()) * STRONG;
    };
    let kind = map.get("type").and_then(Node::as_str);
    match at {
        At::Document => {
            let settings = SETTINGS.iter().any(|key| map.contains_key(key));
            // The extended-thinking setting as only Anthropic spells it:
            // `{"type": "enabled", "budget_tokens": …}` or `{"type":
            // "adaptive"}` (DeepSeek's chat API copies a bare `{"type":
            // "enabled"}`, which tells nothing).
            let thinking = map.get("thinking").is_some_and(|t| {
                t.get("budget_tokens").is_some()
                    || t.get("type").and_then(Node::as_str) == Some("adaptive")
            });
            if settings || thinking {
                STRONG
            } else if map
                .get("metadata")
                .is_some_and(|m| m.get("user_id").is_some())
            {
                HINT
            } else {
                0
            }
        }
        At::Message | At::System => 0,
        At::SystemBlock | At::Inner => block(map, kind, None),
        At::Block {
            role,
            list: "content",
        } => block(map, kind, role),
        At::Block { .. } => 0,
        At::Tool => {
            // `input_schema`, or a server tool's dated type (`web_search_20250305`).
            let dated = kind.is_some_and(|k| {
                k.rsplit_once('_').is_some_and(|(_, date)| {
                    date.len() == 8 && date.bytes().all(|b| b.is_ascii_digit())
                })
            });
            if map.contains_key("input_schema") || dated || map.contains_key("cache_control") {
                STRONG
            } else {
                0
            }
        }
    }
}

/// A content block (of a message, the system prompt, or a tool result).
fn block<O: Object>(map: &O, kind: Option<&str>, role: Option<&str>) -> u32 {
    let Some(kind) = kind else {
        return 0;
    };
    let own = BLOCKS.contains(&kind)
        // A server tool's result: `web_search_tool_result`, `web_fetch_tool_result`, …
        || (kind.ends_with("_tool_result") && kind != "tool_result")
        // A canonical tool_result stands in a tool message or names `call_id`.
        || (kind == "tool_result" && map.contains_key("tool_use_id") && role != Some("tool"))
        // A canonical image has `mimeType` instead.
        || (kind == "image" && map.contains_key("source"))
        || map.contains_key("cache_control")
        || map.contains_key("citations");
    if own {
        STRONG
    } else {
        0
    }
}

/// Claude models, named as the Messages API names them (a provider prefix
/// such as `anthropic/` or `anthropic.` belongs to a gateway's shape).
pub fn model(model: &str) -> bool {
    model.starts_with("claude-")
}

/// A body with `system` and `messages` that tell nothing is read as
/// Anthropic's, the more common of the two shapes with such a body.
pub fn guess(case: Unsure) -> Option<&'static str> {
    (case == Unsure::SystemBody)
        .then_some("an empty system list and plain messages fit Anthropic and Bedrock")
}
