//! Reading OpenAI Chat messages: assistant turns with their tool calls, and
//! tool messages as canonical tool results.

use serde_json::Value;

use super::{keep_inner, parse_arguments, read_content, Place, SHAPE};
use crate::contract::ext::Own;
use crate::contract::pointer;
use crate::contract::{Context, ConvertError};
use crate::json::{Node, Object, View};
use crate::shapes::kit::{invalid, message_and_role, opaque};
use crate::transcript::{Block, Extensions, Message, Role, ToolCall, ToolResult, Transcript};

/// Reads the messages of a conversation into `transcript`. A leading system or
/// developer message becomes the system prompt; consecutive tool messages become
/// one canonical tool message.
pub(super) fn read_messages<N: Node>(
    messages: &[N],
    base: &str,
    transcript: &mut Transcript,
    own: &mut Own,
    context: &mut Context,
) -> Result<(), ConvertError> {
    let mut call_names: Vec<(String, String)> = Vec::new();
    for (index, message) in messages.iter().enumerate() {
        let at = pointer::item(base, index);
        let (map, role) = message_and_role(message, &at)?;
        match role {
            "system" | "developer" => {
                let (content, mut mine) = read_content(map, &at, Place::System, context)?;
                mine.keep_unknown(map, &["role", "content"]);
                if role == "developer" {
                    mine.hint("role", "developer");
                }
                if index == 0 && transcript.system.is_none() {
                    transcript.system = Some(content);
                    let mut extensions = Extensions::new();
                    mine.store(&mut extensions, SHAPE);
                    if let Some(Value::Object(fields)) = extensions.remove(SHAPE.name()) {
                        own.hint("system", Value::Object(fields));
                    }
                } else {
                    let mut message = Message::new(Role::System, content);
                    mine.store(&mut message.extensions, SHAPE);
                    transcript.messages.push(message);
                }
            }
            "user" => {
                let (content, mut mine) = read_content(map, &at, Place::User, context)?;
                mine.keep_unknown(map, &["role", "content"]);
                let mut message = Message::new(Role::User, content);
                mine.store(&mut message.extensions, SHAPE);
                transcript.messages.push(message);
            }
            "assistant" => {
                let message = read_assistant(map, &at, &mut call_names, context)?;
                transcript.messages.push(message);
            }
            "tool" => {
                let result = read_tool_message(map, &at, &call_names, context)?;
                match transcript.messages.last_mut() {
                    Some(last) if last.role == Role::Tool => {
                        last.content.push(Block::ToolResult(result))
                    }
                    _ => transcript
                        .messages
                        .push(Message::new(Role::Tool, vec![Block::ToolResult(result)])),
                }
            }
            other => {
                return Err(invalid(
                    &format!("{at}/role"),
                    format!(
                        "role {other} is not supported (system, developer, user, assistant, tool)",
                        other = crate::echo::quoted(other)
                    ),
                ))
            }
        }
    }
    Ok(())
}

pub(super) fn read_assistant<O: Object>(
    map: &O,
    at: &str,
    call_names: &mut Vec<(String, String)>,
    context: &mut Context,
) -> Result<Message, ConvertError> {
    let (mut content, mut own) = read_content(map, at, Place::Assistant, context)?;
    own.keep_unknown(map, &["role", "content", "tool_calls"]);
    if map.get("tool_calls").is_some_and(Node::is_null) {
        // What a client that dumps the SDK's message object sends for a turn
        // without calls; the API reads it as absent.
        own.keep("tool_calls", &Value::Null);
    } else if let Some(calls) = map.get("tool_calls") {
        let calls = calls
            .as_array()
            .ok_or_else(|| invalid(&format!("{at}/tool_calls"), "tool_calls must be a list"))?;
        if calls.is_empty() {
            own.hint("tool_calls", "empty");
        }
        for (index, call) in calls.iter().enumerate() {
            let here = pointer::item(&pointer::member(at, "tool_calls"), index);
            let block = read_call(call, &here, context)?;
            if let Block::ToolCall(call) = &block {
                if let Some(id) = &call.id {
                    call_names.push((id.clone(), call.name.clone()));
                }
            }
            content.push(block);
        }
    }
    let mut message = Message::new(Role::Assistant, content);
    own.store(&mut message.extensions, SHAPE);
    Ok(message)
}

pub(super) fn read_call<N: Node>(
    call: &N,
    at: &str,
    context: &mut Context,
) -> Result<Block, ConvertError> {
    let map = crate::shapes::kit::object_at(call, at, "a tool call must be an object")?;
    let function = match (
        map.get("type").and_then(Node::as_str),
        map.get("function").map(Node::view),
    ) {
        (Some("function") | None, Some(View::Object(function))) => function,
        // A custom tool call: only this shape has it.
        _ => return Ok(opaque(SHAPE, call)),
    };
    let name = crate::shapes::kit::required_str(
        function,
        "name",
        &pointer::member(at, "function"),
        "a tool call needs a name",
    )?;
    let raw = crate::shapes::kit::required_str(
        function,
        "arguments",
        &pointer::member(at, "function"),
        "arguments must be a JSON string",
    )?;
    let mut own = Own::new();
    own.keep_unknown(map, &["id", "type", "function"]);
    if !map.contains_key("type") {
        own.hint("type", "absent");
    }
    keep_inner(&mut own, function, &["name", "arguments"]);
    let arguments = parse_arguments(
        raw,
        &pointer::member(at, "function/arguments"),
        &mut own,
        context,
    )?;
    let mut extensions = Extensions::new();
    own.store(&mut extensions, SHAPE);
    Ok(Block::ToolCall(ToolCall {
        id: map.get("id").and_then(Node::as_str).map(str::to_string),
        name: name.to_string(),
        arguments,
        extensions,
    }))
}

pub(super) fn read_tool_message<O: Object>(
    map: &O,
    at: &str,
    call_names: &[(String, String)],
    context: &mut Context,
) -> Result<ToolResult, ConvertError> {
    let call_id = crate::shapes::kit::required_str(
        map,
        "tool_call_id",
        at,
        "a tool message needs a tool_call_id",
    )?;
    let (content, mut own) = read_content(map, at, Place::Tool, context)?;
    own.keep_unknown(map, &["role", "content", "tool_call_id"]);
    let name = call_names
        .iter()
        .rev()
        .find(|(id, _)| id == call_id)
        .map(|(_, name)| name.clone());
    let mut extensions = Extensions::new();
    own.store(&mut extensions, SHAPE);
    Ok(ToolResult {
        call_id: Some(call_id.to_string()),
        name,
        is_error: false,
        content,
        extensions,
    })
}
