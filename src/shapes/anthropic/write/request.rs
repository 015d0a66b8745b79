//! Writing an Anthropic request body and response envelope around the
//! messages, and its tools.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::{messages, write_content, Spot, SHAPE};
use crate::contract::ext::Mine;
use crate::contract::pointer;
use crate::contract::{Context, ConvertError};
use crate::json::out::{Members, Out};
use crate::shapes::kit::{drop_foreign, put};
use crate::transcript::{Extensions, Role, Tool, ToolChoice, Transcript};

/// Writes a request body (`is_request`) or a list with a system prompt.
/// (Long: one step per request field, in the document's order; the
/// steps share the map being built and what was kept.)
pub(super) fn request(
    transcript: &Transcript,
    is_request: bool,
    context: &mut Context,
) -> Result<Out, ConvertError> {
    let mine = Mine::of(&transcript.extensions, SHAPE);
    let mut map = crate::shapes::kit::with_model_out(transcript, "model");
    match &transcript.max_tokens {
        Some(tokens) => map.put("max_tokens", tokens.clone()),
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
            map.put("system", value);
        }
    }
    if mine.hint_str("messages") != Some("absent") || !transcript.messages.is_empty() {
        map.put(
            "messages",
            Out::Array(messages(&transcript.messages, context)?),
        );
    }
    let mut tool_count = 0;
    if let Some(tools) = &transcript.tools {
        let list = crate::shapes::kit::write_tools(tools, |tool| write_tool(tool, context))?;
        tool_count = list.len();
        // The tools stay the `Value`s the kit's `write_tools` gives.
        map.put("tools", Value::Array(list));
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
        map.put("tool_choice", value);
    }
    if let Some(stop) = &transcript.stop {
        let stop = stop.iter().map(|text| Out::Str(text.clone())).collect();
        map.put("stop_sequences", Out::Array(stop));
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
                map.put(key, value.clone());
            } else {
                context.lose(key)?;
            }
        }
    }
    restore_request_fields(&transcript.extensions, &mut map);
    Ok(Out::Object(map))
}

/// Restores the request's own fields; `tool_choice.<key>` goes into `tool_choice`.
pub(super) fn restore_request_fields(extensions: &Extensions, map: &mut Members) {
    let Some(Value::Object(fields)) = extensions.get(SHAPE.name()) else {
        return;
    };
    for (key, value) in fields {
        if key.starts_with('$') {
            continue;
        }
        if let Some(inner) = key.strip_prefix("tool_choice.") {
            // `tool_choice` is a `Value` here (written as one, or a kept
            // field).
            if let Some(Out::Value(Value::Object(choice))) = map.get_mut("tool_choice") {
                put(choice, inner, value.clone());
            }
            continue;
        }
        map.insert(Cow::Owned(key.clone()), Out::Value(value.clone()));
    }
}

pub(super) fn response(
    transcript: &Transcript,
    context: &mut Context,
) -> Result<Out, ConvertError> {
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
    .unwrap_or_else(|| Out::Array(Vec::new()));
    let mut envelope = match mine.hint("response") {
        Some(Value::Object(kept)) => {
            let mut envelope = Members::with_capacity(kept.len());
            envelope.extend_from(kept);
            envelope
        }
        _ => {
            let calls = crate::shapes::kit::calls_tools(assistant);
            let mut envelope = Members::with_capacity(5);
            envelope.put("type", "message");
            envelope.put("role", "assistant");
            envelope.put("model", Out::Null);
            envelope.put("content", Out::Null);
            let reason = if calls { "tool_use" } else { "end_turn" };
            envelope.put("stop_reason", reason);
            envelope
        }
    };
    match &transcript.model {
        Some(model) => envelope.put("model", model.as_str()),
        None => {
            // A `null` model, of the kept envelope or of the one made here.
            if matches!(
                envelope.get("model"),
                Some(Out::Null | Out::Value(Value::Null))
            ) {
                envelope.shift_remove("model");
            }
        }
    }
    let empty = matches!(&content, Out::Array(blocks) if blocks.is_empty());
    if envelope.contains_key("content") || !empty {
        envelope.put("content", content);
    }
    message_mine.restore_into(&mut envelope);
    Ok(Out::Object(envelope))
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
