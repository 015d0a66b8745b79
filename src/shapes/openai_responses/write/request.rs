//! Writing an OpenAI Responses request body and response object, and
//! its tools.

use serde_json::{Map, Value};

use super::items;
use crate::contract::ext::Mine;
use crate::contract::{Context, ConvertError};
use crate::part::Part;
use crate::shapes::kit::{drop_foreign, kept_for, put};
use crate::shapes::openai_responses::SHAPE;
use crate::transcript::{Block, Extensions, Role, Tool, Transcript};

/// Whether a transcript has settings only a request body can carry.
pub(super) fn has_settings(transcript: &Transcript) -> bool {
    let own_fields = transcript
        .extensions
        .get(SHAPE.name())
        .and_then(Value::as_object)
        .is_some_and(|fields| fields.keys().any(|key| !key.starts_with('$')));
    transcript.model.is_some()
        || transcript.max_tokens.is_some()
        || transcript.temperature.is_some()
        || transcript.top_p.is_some()
        || transcript.stop.is_some()
        || transcript.tool_choice.is_some()
        || transcript.tools.is_some()
        || own_fields
}

/// Mine of a hint object that describes an item (the `$system` hint).
pub(super) fn extensions_of(hint: Option<&Map<String, Value>>) -> Extensions {
    let mut extensions = Extensions::new();
    if let Some(hint) = hint {
        extensions.insert(SHAPE.name().to_string(), Value::Object(hint.clone()));
    }
    extensions
}

/// The system prompt's text when it goes into `instructions`: one text part,
/// unless the input had it as a message item.
pub(super) fn instructions<'t>(transcript: &'t Transcript, mine: Mine<'_>) -> Option<&'t Block> {
    if mine.hint("system").is_some() {
        return None;
    }
    match transcript.system.as_deref()? {
        [block @ Block::Part {
            part: Part::Text(_),
            extensions,
        }] if Mine::of(extensions, SHAPE).is_empty() => Some(block),
        _ => None,
    }
}

pub(super) fn request(
    transcript: &Transcript,
    mine: Mine<'_>,
    context: &mut Context,
) -> Result<Value, ConvertError> {
    let mut map = crate::shapes::kit::with_model(transcript, "model");
    let instructions = instructions(transcript, mine);
    if let Some(Block::Part {
        part: Part::Text(text),
        extensions,
    }) = instructions
    {
        drop_foreign(extensions, context)?;
        put(&mut map, "instructions", Value::String(text.clone()));
    }
    let list = items(transcript, mine, instructions.is_none(), false, context)?;
    match mine.hint_str("input") {
        Some("string") if instructions.is_some() || transcript.system.is_none() => {
            match plain_text_input(transcript) {
                Some(text) => put(&mut map, "input", Value::String(text.to_string())),
                None => put(&mut map, "input", Value::Array(list)),
            }
        }
        Some("absent") if list.is_empty() => {}
        _ => put(&mut map, "input", Value::Array(list)),
    }
    if let Some(tools) = &transcript.tools {
        let written = crate::shapes::kit::write_tools(tools, |tool| write_tool(tool, context))?;
        put(&mut map, "tools", Value::Array(written));
    }
    crate::shapes::kit::put_function_choice(
        &mut map,
        transcript.tool_choice.as_ref(),
        |name| serde_json::json!({"type": "function", "name": name}),
    );
    if let Some(tokens) = &transcript.max_tokens {
        put(&mut map, "max_output_tokens", tokens.clone());
    }
    if let Some(temperature) = &transcript.temperature {
        put(&mut map, "temperature", temperature.clone());
    }
    if let Some(top_p) = &transcript.top_p {
        put(&mut map, "top_p", top_p.clone());
    }
    if transcript.stop.is_some() {
        context.lose("stop")?;
    }
    mine.restore(&mut map);
    Ok(Value::Object(map))
}

/// The text of a conversation that is one plain user text (an `input` string).
pub(super) fn plain_text_input(transcript: &Transcript) -> Option<&str> {
    match transcript.messages.as_slice() {
        [message] if message.role == Role::User && message.extensions.is_empty() => {
            match message.content.as_slice() {
                [Block::Part {
                    part: Part::Text(text),
                    extensions,
                }] if extensions.is_empty() => Some(text),
                _ => None,
            }
        }
        _ => None,
    }
}

pub(super) fn response(
    transcript: &Transcript,
    mine: Mine<'_>,
    context: &mut Context,
) -> Result<Value, ConvertError> {
    let mut envelope = match mine.hint("response") {
        Some(Value::Object(envelope)) => envelope.clone(),
        _ => {
            let mut envelope = Map::new();
            put(&mut envelope, "object", Value::String("response".into()));
            put(&mut envelope, "status", Value::String("completed".into()));
            envelope
        }
    };
    crate::shapes::kit::put_model(&mut envelope, transcript);
    let output = items(transcript, mine, false, true, context)?;
    put(&mut envelope, "output", Value::Array(output));
    Ok(Value::Object(envelope))
}

/// A function tool, flat, with every default explicit; a tool only this shape
/// has, as it was; `None` for a tool only another shape has (dropped).
pub(super) fn write_tool(
    tool: &Tool,
    context: &mut Context,
) -> Result<Option<Value>, ConvertError> {
    let mine = kept_for(&tool.extensions, SHAPE, context)?;
    if let Some(raw) = mine.hint("tool") {
        return Ok(Some(raw.clone()));
    }
    for (shape, fields) in &tool.extensions {
        if let Some(raw) = fields.get("$tool") {
            let kind = crate::shapes::kit::opaque_kind(raw);
            context.lose(format!("{shape} {kind} tools"))?;
            return Ok(None);
        }
    }
    let mut map = Map::new();
    put(&mut map, "type", Value::String("function".into()));
    put(&mut map, "name", Value::String(tool.name.clone()));
    if let Some(description) = &tool.description {
        put(&mut map, "description", Value::String(description.clone()));
    }
    match (&tool.parameters, mine.hint_str("parameters")) {
        (Some(parameters), _) => put(&mut map, "parameters", parameters.clone()),
        (None, Some("absent")) => {}
        (None, _) => put(&mut map, "parameters", Value::Null),
    }
    match (tool.strict, mine.hint_str("strict")) {
        (Some(true), Some("absent")) => {}
        (strict, _) => put(&mut map, "strict", Value::Bool(strict.unwrap_or(false))),
    }
    mine.restore(&mut map);
    Ok(Some(Value::Object(map)))
}
