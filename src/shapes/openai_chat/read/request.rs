//! Reading an OpenAI Chat request body and chat completion: settings, tools
//! and the tool choice.

use serde_json::Value;

use super::{read_messages, REQUEST_KEYS, SHAPE};
use crate::contract::ext::Own;
use crate::contract::pointer;
use crate::contract::{Context, ConvertError, Form};
use crate::json::{Node, Object, View};
use crate::shapes::kit::{
    self, bool_or_keep, invalid, string_list, string_or_keep, tool_choice_or_keep, tool_kept_whole,
};
use crate::transcript::{Tool, ToolChoice, Transcript};

pub(super) fn read_request<O: Object>(
    map: &O,
    context: &mut Context,
) -> Result<Transcript, ConvertError> {
    let mut transcript = Transcript::default();
    let mut own = Own::new();
    own.keep_unknown(map, REQUEST_KEYS);
    transcript.model = string_or_keep(map, "model", &mut own);
    // `max_completion_tokens` is the current field (reasoning models refuse
    // `max_tokens`); a body that used the old one gets it back. A setting
    // that is not a number (`null`, which the API reads as unset) is kept
    // for this shape only.
    let number = |key: &str| map.get(key).filter(|value| value.is_number());
    if let Some(tokens) = number("max_completion_tokens") {
        transcript.max_tokens = Some(tokens.to_value());
        if let Some(old) = map.get("max_tokens") {
            own.keep("max_tokens", old);
        }
    } else if let Some(tokens) = number("max_tokens") {
        transcript.max_tokens = Some(tokens.to_value());
        own.hint("max_tokens", "max_tokens");
        if let Some(unset) = map.get("max_completion_tokens") {
            own.keep("max_completion_tokens", unset);
        }
    } else {
        for key in ["max_completion_tokens", "max_tokens"] {
            if let Some(unset) = map.get(key) {
                own.keep(key, unset);
            }
        }
    }
    kit::number_or_keep(map, "temperature", &mut transcript.temperature, &mut own);
    kit::number_or_keep(map, "top_p", &mut transcript.top_p, &mut own);
    match map.get("stop") {
        Some(stop) if stop.is_string() => {
            transcript.stop = stop.as_str().map(|stop| vec![stop.to_string()]);
            own.hint("stop", "string");
        }
        Some(other) => {
            transcript.stop = string_list(other);
            if transcript.stop.is_none() {
                own.keep("stop", other);
            }
        }
        None => {}
    }
    transcript.tool_choice = tool_choice_or_keep(map, &mut own, read_tool_choice);
    transcript.tools = kit::read_tools_or_keep(map, &mut own, read_tool)?;
    let messages = map
        .get("messages")
        .map(|m| {
            m.as_array()
                .ok_or_else(|| invalid("/messages", "messages must be a list"))
        })
        .transpose()?;
    if let Some(messages) = messages {
        read_messages(messages, "/messages", &mut transcript, &mut own, context)?;
    } else {
        own.hint("messages", "absent");
    }
    own.store(&mut transcript.extensions, SHAPE);
    Ok(transcript)
}

/// A chat completion: its first choice's message is the assistant turn; the
/// rest of the envelope is kept for writing a completion again.
pub(super) fn read_response<O: Object>(
    map: &O,
    context: &mut Context,
) -> Result<(Form, Transcript), ConvertError> {
    let message = map
        .get("choices")
        .and_then(Node::as_array)
        .and_then(|choices| choices.first())
        .and_then(|choice| choice.get("message"))
        .ok_or_else(|| {
            invalid(
                "/choices/0/message",
                "a chat completion needs choices[0].message",
            )
        })?;
    let mut transcript = Transcript::default();
    let mut own = Own::new();
    read_messages(
        std::slice::from_ref(message),
        "/choices/0/message",
        &mut transcript,
        &mut own,
        context,
    )?;
    kit::keep_response_envelope(map, &mut transcript, &mut own, |envelope| {
        if let Some(Value::Array(choices)) = envelope.get_mut("choices") {
            if let Some(Value::Object(choice)) = choices.first_mut() {
                choice.insert("message".into(), Value::Null);
            }
        }
    });
    own.store(&mut transcript.extensions, SHAPE);
    Ok((Form::Response, transcript))
}

pub(super) fn read_tool_choice<N: Node>(choice: &N) -> Option<ToolChoice> {
    // `{"type": "function", "function": {"name": …}}`, nothing more.
    fn named<O: Object>(map: &O) -> Option<&str> {
        let function = map.get("function")?.as_object()?;
        if function.len() != 1 {
            return None;
        }
        function.get("name")?.as_str()
    }
    kit::function_choice(choice, named::<N::Object>)
}

pub(super) fn read_tool<N: Node>(tool: &N, at: &str) -> Result<Tool, ConvertError> {
    let map = kit::object_at(tool, at, "a tool must be an object")?;
    let function = match (
        map.get("type").and_then(Node::as_str),
        map.get("function").map(Node::view),
    ) {
        (Some("function"), Some(View::Object(function))) if map.len() == 2 => function,
        _ => {
            // Another kind of tool (custom, …): kept whole for this shape.
            let name = map
                .get("custom")
                .and_then(|c| c.get("name"))
                .and_then(Node::as_str)
                .unwrap_or("")
                .to_string();
            return Ok(tool_kept_whole(SHAPE, &name, tool, Own::new()));
        }
    };
    let function_at = pointer::member(at, "function");
    let name = kit::required_str(
        function,
        "name",
        &function_at,
        "a function tool needs a name",
    )?;
    let mut own = Own::new();
    own.keep_unknown(function, &["name", "description", "parameters", "strict"]);
    let strict = bool_or_keep(function, "strict", &mut own);
    let description = function
        .get("description")
        .and_then(Node::as_str)
        .map(str::to_string);
    let parameters = function
        .get("parameters")
        .filter(|p| !p.is_null())
        .map(Node::to_value);
    Ok(kit::tool(SHAPE, name, description, parameters, strict, own))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn tool_choices_the_model_has_a_value_for() {
        let f = || Some(ToolChoice::Tool("f".into()));
        let table = [
            (json!("auto"), Some(ToolChoice::Auto)),
            (json!("none"), Some(ToolChoice::None)),
            (json!("required"), Some(ToolChoice::Required)),
            (json!("any"), None),
            (json!({"type": "function", "function": {"name": "f"}}), f()),
            // More than the model has a place for: kept by the caller.
            (
                json!({"type": "function", "function": {"name": "f", "x": 1}}),
                None,
            ),
            (
                json!({"type": "function", "function": {"name": "f"}, "x": 1}),
                None,
            ),
            (json!({"type": "custom", "custom": {"name": "f"}}), None),
        ];
        for (input, expected) in table {
            assert_eq!(read_tool_choice(&input), expected, "{input}");
        }
    }
}
