//! What tells an OpenAI Responses document apart (`convert --from auto`): a
//! single `function_call_output` and a response by their keys, any other
//! document by the evidence below (weighed in `convert::detect`).

use crate::json::{Node, Object};

use crate::contract::detect::{At, Rank, Tier, STRONG};

pub fn document<O: Object>(map: &O) -> Option<Rank> {
    if map.get("type").and_then(Node::as_str) == Some("function_call_output") {
        return Some(Rank::new(Tier::ToolResult, 3));
    }
    if map.get("object").and_then(Node::as_str) == Some("response") {
        return Some(Rank::new(Tier::Response, 3));
    }
    None
}

/// Request settings only the Responses API has.
const SETTINGS: &[&str] = &[
    "input",
    "instructions",
    "max_output_tokens",
    "previous_response_id",
    "conversation",
    "truncation",
    "include",
    "max_tool_calls",
];

pub fn evidence<N: Node>(at: At<'_>, value: &N) -> u32 {
    let Some(map) = value.as_object() else {
        return 0;
    };
    let kind = map.get("type").and_then(Node::as_str);
    let own = match at {
        At::Document => {
            SETTINGS.iter().any(|key| map.contains_key(key))
                // `reasoning: {"effort": …}` and `text: {"format": …}` (Chat
                // spells them `reasoning_effort` and `response_format`).
                || map.get("reasoning").is_some_and(Node::is_object)
                || map.get("text").is_some_and(|t| t.get("format").is_some())
                // A stored prompt: `{"id": "pmpt_…", "variables": …}`.
                || map.get("prompt").is_some_and(|p| p.get("id").is_some())
        }
        // Items are typed; only Responses has these types (and every hosted
        // tool's `…_call` and `…_call_output`).
        At::Message => kind.is_some_and(|k| {
            matches!(
                k,
                "function_call_output" | "reasoning" | "message" | "item_reference"
            ) || k.ends_with("_call")
                || k.ends_with("_call_output")
                || k.starts_with("mcp_")
        }),
        At::Block {
            list: "content", ..
        } => matches!(
            kind,
            Some("input_text" | "input_image" | "input_file" | "output_text")
        ),
        // `{"type": "function", "name": …}` (Chat nests it under `function`),
        // and the hosted tools named by type alone.
        At::Tool => match kind {
            Some("function" | "custom") => {
                map.contains_key("name") && !map.contains_key("function")
            }
            Some(
                "web_search"
                | "web_search_preview"
                | "file_search"
                | "computer_use_preview"
                | "code_interpreter"
                | "image_generation"
                | "mcp"
                | "local_shell"
                | "shell",
            ) => true,
            _ => false,
        },
        _ => false,
    };
    u32::from(own) * STRONG
}
