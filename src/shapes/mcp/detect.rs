//! What tells an MCP `CallToolResult` apart (`convert --from auto`); the rank
//! keeps the order of checks `convert::detect` lists.

use serde_json::{Map, Value};

use crate::convert::detect::{Rank, Tier};

/// A `content` list with no role (a message with one is someone else's);
/// ranked after the requests, whose keys are more telling.
pub fn document(map: &Map<String, Value>) -> Option<Rank> {
    let content_list = map.get("content").is_some_and(Value::is_array);
    (content_list && !map.contains_key("role")).then_some(Rank::new(Tier::Request, 3))
}
