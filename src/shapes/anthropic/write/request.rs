//! Writing an Anthropic request body and response envelope around the
//! messages, and its tools.

use serde_json::{Map, Value};

use super::{messages, write_content, Spot, SHAPE};
use crate::contract::ext::Mine;
use crate::contract::pointer;
use crate::contract::{Context, ConvertError};
use crate::shapes::kit::{drop_foreign, put};
use crate::transcript::{Extensions, Role, Tool, ToolChoice, Transcript};

/// Writes a request body (`is_request`) or a list with a system prompt.
/// (Long: one step per request field, in the document's order; the
/// steps share the map being built and what was kept.)
pub(super) fn request(
    transcript: &Transcript,
    is_request: bool,
    context: &mut Context,
) -> Result<Value, ConvertError> {
    let mine = Mine::of(&transcript.extensions, SHAPE);
    let mut map = crate::shapes::kit::with_model(transcript, "model");
    match &transcript.max_tokens {
        Some(tokens) => put(&mut map, "max_tokens", tokens.clone()),
        None if is_request && mine.field("max_tokens").is_none() => context.note(
            "anthropic requests require max_tokens and the input has none; none was written (add one before sending)",
        ),
        None => {}
    }
    if let Some(system) = &transcript.system {
        if let Some(value) = write_content(
            system,
            mine.hint_str("system"),
            true,
            Spot::System,
            "/system",
            context,
        )? {
            put(&mut map, "system", value);
        }
    }
    if mine.hint_str("messages") != Some("absent") || !transcript.messages.is_empty() {
        put(
            &mut map,
            "messages",
            Value::Array(messages(&transcript.messages, context)?),
        );
    }
    let mut tool_count = 0;
    if let Some(tools) = &transcript.tools {
        let list = crate::shapes::kit::write_tools(tools, |tool| write_tool(tool, context))?;
        tool_count = list.len();
        put(&mut map, "tools", Value::Array(list));
    }
    // Anthropic refuses a tool_choice without tools. `auto` with no tools
    // says nothing, so it goes quietly; any other choice is a loss.
    let choice = match &transcript.tool_choice {
        Some(ToolChoice::Auto) if tool_count == 0 => None,
        Some(choice) if tool_count == 0 => {
            let what = match choice {
                ToolChoice::Tool(name) => format!("tool {name}"),
                ToolChoice::Required => "required".into(),
                _ => "none".into(),
            };
            context.lose(format!("tool_choice ({what}) without tools"))?;
            None
        }
        choice => choice.as_ref(),
    };
    if let Some(choice) = choice {
        let value = match choice {
            ToolChoice::Auto => serde_json::json!({"type": "auto"}),
            ToolChoice::Required => serde_json::json!({"type": "any"}),
            ToolChoice::None => serde_json::json!({"type": "none"}),
            ToolChoice::Tool(name) => serde_json::json!({"type": "tool", "name": name}),
        };
        put(&mut map, "tool_choice", value);
    }
    if let Some(stop) = &transcript.stop {
        put(&mut map, "stop_sequences", Value::from(stop.clone()));
    }
    // See the module comment: only an Anthropic input's own sampling settings.
    let sampling: Vec<&str> = mine
        .hint("sampling")
        .and_then(Value::as_array)
        .map(|keys| keys.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    for (key, value) in [
        ("temperature", &transcript.temperature),
        ("top_p", &transcript.top_p),
    ] {
        if let Some(value) = value {
            if sampling.contains(&key) {
                put(&mut map, key, value.clone());
            } else {
                context.lose(key)?;
            }
        }
    }
    restore_request_fields(&transcript.extensions, &mut map);
    Ok(Value::Object(map))
}

/// Restores the request's own fields; `tool_choice.<key>` goes into `tool_choice`.
pub(super) fn restore_request_fields(extensions: &Extensions, map: &mut Map<String, Value>) {
    let Some(Value::Object(fields)) = extensions.get(SHAPE.name()) else {
        return;
    };
    for (key, value) in fields {
        if key.starts_with('$') {
            continue;
        }
        if let Some(inner) = key.strip_prefix("tool_choice.") {
            if let Some(Value::Object(choice)) = map.get_mut("tool_choice") {
                put(choice, inner, value.clone());
            }
            continue;
        }
        put(map, key, value.clone());
    }
}

pub(super) fn response(
    transcript: &Transcript,
    context: &mut Context,
) -> Result<Value, ConvertError> {
    let mine = Mine::of(&transcript.extensions, SHAPE);
    let (index, assistant) = transcript
        .messages
        .iter()
        .enumerate()
        .find(|(_, m)| m.role == Role::Assistant)
        .ok_or_else(|| ConvertError::invalid("", "a response needs an assistant message"))?;
    drop_foreign(&assistant.extensions, context)?;
    let message_mine = Mine::of(&assistant.extensions, SHAPE);
    let content = write_content(
        &assistant.content,
        message_mine.hint_str("content"),
        false,
        Spot::Message,
        &pointer::member(&pointer::item("/messages", index), "content"),
        context,
    )?
    .unwrap_or_else(|| Value::Array(Vec::new()));
    let mut envelope = match mine.hint("response") {
        Some(Value::Object(envelope)) => envelope.clone(),
        _ => {
            let calls = crate::shapes::kit::calls_tools(assistant);
            let mut envelope = Map::new();
            put(&mut envelope, "type", Value::String("message".into()));
            put(&mut envelope, "role", Value::String("assistant".into()));
            put(&mut envelope, "model", Value::Null);
            put(&mut envelope, "content", Value::Null);
            let reason = if calls { "tool_use" } else { "end_turn" };
            put(&mut envelope, "stop_reason", Value::String(reason.into()));
            envelope
        }
    };
    match &transcript.model {
        Some(model) => put(&mut envelope, "model", Value::String(model.clone())),
        None => {
            if envelope.get("model").is_some_and(Value::is_null) {
                envelope.shift_remove("model");
            }
        }
    }
    let empty = content.as_array().is_some_and(Vec::is_empty);
    if envelope.contains_key("content") || !empty {
        put(&mut envelope, "content", content);
    }
    message_mine.restore(&mut envelope);
    Ok(Value::Object(envelope))
}

/// One tool declaration; `None` for a tool another shape kept whole (a hosted
/// or custom tool), which Anthropic cannot declare.
pub(super) fn write_tool(
    tool: &Tool,
    context: &mut Context,
) -> Result<Option<Value>, ConvertError> {
    let mine = Mine::of(&tool.extensions, SHAPE);
    if let Some(raw) = mine.hint("tool") {
        return Ok(Some(raw.clone()));
    }
    for (shape, fields) in &tool.extensions {
        if let Some(kept) = fields.get("$tool").filter(|_| shape != SHAPE.name()) {
            let kind = kept.get("type").and_then(Value::as_str).unwrap_or("other");
            context.lose(format!("{shape} {kind} tools"))?;
            return Ok(None);
        }
    }
    drop_foreign(&tool.extensions, context)?;
    let mut map = Map::with_capacity(4);
    if let Some(kind) = mine.hint_str("type") {
        put(&mut map, "type", Value::String(kind.into()));
    }
    put(&mut map, "name", Value::String(tool.name.clone()));
    if let Some(description) = &tool.description {
        put(&mut map, "description", Value::String(description.clone()));
    }
    match &tool.parameters {
        Some(schema) => put(&mut map, "input_schema", schema.clone()),
        None if mine.hint_str("input_schema") == Some("absent") => {}
        None => put(
            &mut map,
            "input_schema",
            serde_json::json!({"type": "object", "properties": {}}),
        ),
    }
    if let Some(strict) = tool.strict {
        put(&mut map, "strict", Value::Bool(strict));
    }
    mine.restore(&mut map);
    Ok(Some(Value::Object(map)))
}
