//! What tells an MCP `CallToolResult` apart (`convert --from auto`), weighed
//! with the other shapes' evidence in `convert::detect`.

use crate::json::{Node, Object};

use crate::contract::detect::{At, STRONG, WEAK};

/// `isError` or `structuredContent` are MCP's alone; a `content` list with no
/// role (a message with one is someone else's) leans MCP's way, less than a
/// request's own keys.
pub fn evidence<N: Node>(at: At<'_>, value: &N) -> u32 {
    let Some(map) = value.as_object().filter(|_| at == At::Document) else {
        return 0;
    };
    let content_list = map.get("content").is_some_and(Node::is_array);
    if !content_list || map.contains_key("role") {
        0
    } else if map.contains_key("isError") || map.contains_key("structuredContent") {
        STRONG
    } else {
        WEAK + 2
    }
}
