//! Reading an OpenAI Responses request body and response object: settings,
//! tools and the tool choice.

use super::{Items, REQUEST_KEYS};
use crate::contract::ext::Own;
use crate::contract::{Context, ConvertError, Form};
use crate::json::{Node, Object, View};
use crate::shapes::kit::{
    self, invalid, number_or_keep, string_or_keep, tool_choice_or_keep, tool_kept_whole,
};
use crate::shapes::openai_responses::SHAPE;
use crate::transcript::{Block, Message, Role, Tool, ToolChoice, Transcript};

pub(super) fn read_request<O: Object>(
    map: &O,
    context: &mut Context,
) -> Result<Transcript, ConvertError> {
    let mut transcript = Transcript::default();
    let mut own = Own::new();
    own.keep_unknown(map, REQUEST_KEYS);
    transcript.model = string_or_keep(map, "model", &mut own);
    match map.get("instructions").map(|value| (value, value.view())) {
        // Empty instructions are no system prompt (kept for this shape only).
        Some((empty, View::String(""))) => own.keep("instructions", empty),
        Some((_, View::String(text))) => transcript.system = Some(vec![Block::text(text)]),
        Some((other, _)) => own.keep("instructions", other),
        None => {}
    }
    number_or_keep(
        map,
        "max_output_tokens",
        &mut transcript.max_tokens,
        &mut own,
    );
    number_or_keep(map, "temperature", &mut transcript.temperature, &mut own);
    number_or_keep(map, "top_p", &mut transcript.top_p, &mut own);
    transcript.tool_choice = tool_choice_or_keep(map, &mut own, read_tool_choice);
    transcript.tools = kit::read_tools_or_keep(map, &mut own, read_tool)?;
    match map.get("input").map(Node::view) {
        None => own.hint("input", "absent"),
        Some(View::String(text)) => {
            own.hint("input", "string");
            transcript
                .messages
                .push(Message::new(Role::User, vec![Block::text(text)]));
        }
        Some(View::Array(items)) => {
            Items::new(&mut transcript, &mut own, context, true).read_list(items, "/input")?
        }
        Some(_) => {
            return Err(invalid(
                "/input",
                "input must be a string or a list of input items",
            ))
        }
    }
    own.store(&mut transcript.extensions, SHAPE);
    Ok(transcript)
}

/// A response object: its output items are the assistant turn; the rest of the
/// envelope (id, status, usage, …) is kept for writing a response again.
pub(super) fn read_response<O: Object>(
    map: &O,
    context: &mut Context,
) -> Result<(Form, Transcript), ConvertError> {
    let output = map
        .get("output")
        .and_then(Node::as_array)
        .ok_or_else(|| invalid("/output", "a response needs an output list"))?;
    let mut transcript = Transcript::default();
    let mut own = Own::new();
    Items::new(&mut transcript, &mut own, context, false).read_list(output, "/output")?;
    kit::keep_response_envelope(map, &mut transcript, &mut own, |envelope| {
        envelope.insert("output".into(), serde_json::Value::Null);
    });
    own.store(&mut transcript.extensions, SHAPE);
    Ok((Form::Response, transcript))
}

pub(super) fn read_tool_choice<N: Node>(choice: &N) -> Option<ToolChoice> {
    // `{"type": "function", "name": …}`, nothing more.
    fn named<O: Object>(map: &O) -> Option<&str> {
        map.get("name")?.as_str()
    }
    kit::function_choice(choice, named::<N::Object>)
}

/// A flat function tool, or another kind of tool (web_search, file_search, mcp,
/// custom, …) kept whole for this shape as the `$tool` hint.
pub(super) fn read_tool<N: Node>(tool: &N, at: &str) -> Result<Tool, ConvertError> {
    let map = kit::object_at(tool, at, "a tool must be an object")?;
    let mut own = Own::new();
    if map.get("type").and_then(Node::as_str) != Some("function") {
        let name = ["name", "server_label"]
            .iter()
            .find_map(|key| map.get(key).and_then(Node::as_str))
            .unwrap_or("")
            .to_string();
        return Ok(tool_kept_whole(SHAPE, &name, tool, own));
    }
    let name = kit::required_str(map, "name", at, "a function tool needs a name")?;
    own.keep_unknown(
        map,
        &["type", "name", "description", "parameters", "strict"],
    );
    let description = string_or_keep(map, "description", &mut own);
    let parameters = match map.get("parameters") {
        None => {
            own.hint("parameters", "absent");
            None
        }
        Some(schema) if schema.is_null() => None,
        Some(schema) => Some(schema.to_value()),
    };
    // Responses function tools are strict unless they say otherwise.
    let strict = match map.get("strict").map(|value| (value, value.view())) {
        Some((_, View::Bool(strict))) => Some(strict),
        None => {
            own.hint("strict", "absent");
            Some(true)
        }
        Some((other, _)) => {
            own.keep("strict", other);
            None
        }
    };
    Ok(kit::tool(SHAPE, name, description, parameters, strict, own))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn tools_into_canonical_ones() {
        let table = [
            // Responses function tools are strict unless they say otherwise.
            (
                json!({"type": "function", "name": "f", "parameters": {"type": "object"}}),
                json!({"name": "f", "parameters": {"type": "object"}, "strict": true,
                       "extensions": {"openai-responses": {"$strict": "absent"}}}),
            ),
            (
                json!({"type": "function", "name": "f", "parameters": null, "strict": false}),
                json!({"name": "f", "strict": false}),
            ),
            (
                json!({"type": "mcp", "server_label": "docs"}),
                json!({"name": "docs", "extensions": {"openai-responses": {"$tool": {"type": "mcp", "server_label": "docs"}}}}),
            ),
        ];
        for (input, expected) in table {
            assert_eq!(read_tool(&input, "/tools/0").unwrap().to_value(), expected);
        }
    }
}
