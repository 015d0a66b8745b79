//! Reading Anthropic tools and the tool choice.

use super::SHAPE;
use crate::contract::ext::Own;
use crate::contract::ConvertError;
use crate::json::{Node, Object};
use crate::shapes::kit::{self, bool_or_keep, string_or_keep, tool_kept_whole};
use crate::transcript::{Tool, ToolChoice};

pub(super) fn read_tool<N: Node>(tool: &N, at: &str) -> Result<Tool, ConvertError> {
    let map = kit::object_at(tool, at, "a tool must be an object")?;
    let mut own = Own::new();
    match map.get("type").and_then(Node::as_str) {
        None => {}
        Some("custom") => own.hint("type", "custom"),
        Some(_) => {
            // A server tool (web search, bash, code execution, …): kept whole.
            let name = map.get("name").and_then(Node::as_str).unwrap_or("");
            return Ok(tool_kept_whole(SHAPE, name, tool, own));
        }
    }
    let name = kit::required_str(map, "name", at, "a tool needs a name")?;
    own.keep_unknown(
        map,
        &["type", "name", "description", "input_schema", "strict"],
    );
    let description = string_or_keep(map, "description", &mut own);
    let parameters = match map.get("input_schema") {
        Some(schema) if schema.as_object().is_some() => Some(schema.to_value()),
        Some(other) => {
            own.keep("input_schema", other);
            None
        }
        None => {
            own.hint("input_schema", "absent");
            None
        }
    };
    let strict = bool_or_keep(map, "strict", &mut own);
    Ok(kit::tool(SHAPE, name, description, parameters, strict, own))
}

/// A `tool_choice` and its fields beyond `type` and `name`
/// (`disable_parallel_tool_use`); `None` when it is not one of the four kinds.
pub(super) fn read_tool_choice<N: Node>(choice: &N) -> Option<(ToolChoice, Vec<(&str, &N)>)> {
    let map = choice.as_object()?;
    let choice = match map.get("type")?.as_str()? {
        "auto" => ToolChoice::Auto,
        "any" => ToolChoice::Required,
        "none" => ToolChoice::None,
        "tool" => ToolChoice::Tool(map.get("name")?.as_str()?.to_string()),
        _ => return None,
    };
    let extra = map
        .members()
        .filter(|(key, _)| {
            *key != "type" && !(*key == "name" && matches!(choice, ToolChoice::Tool(_)))
        })
        .collect();
    Some((choice, extra))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn tools_into_canonical_ones() {
        let table = [
            (
                json!({"name": "f", "description": "d", "input_schema": {"type": "object"}}),
                json!({"name": "f", "description": "d", "parameters": {"type": "object"}}),
            ),
            // What the model has no field for is kept for writing Anthropic again.
            (
                json!({"name": "f", "description": 7}),
                json!({"name": "f", "extensions": {"anthropic": {"description": 7, "$input_schema": "absent"}}}),
            ),
            (
                json!({"type": "web_search_20250305", "name": "web_search"}),
                json!({"name": "web_search", "extensions": {"anthropic": {"$tool": {"type": "web_search_20250305", "name": "web_search"}}}}),
            ),
        ];
        for (input, expected) in table {
            assert_eq!(read_tool(&input, "/tools/0").unwrap().to_value(), expected);
        }
        assert!(read_tool(&json!({"description": "no name"}), "/tools/0").is_err());
    }
}
