//! Writing canonical tool calls and tool results as OpenAI Responses
//! `function_call` and `function_call_output` items.

use serde_json::{Map, Value};

use super::{content_part, PartPlace};
use crate::contract::ext::Mine;
use crate::contract::{Context, ConvertError};
use crate::part::Part;
use crate::shapes::kit::{drop_foreign, kept_for, lose_block, put};
use crate::shapes::openai_responses::SHAPE;
use crate::shapes::Shape;
use crate::transcript::{Arguments, Block, ToolCall, ToolResult};

/// The arguments string of a call: as the input spelled it (this shape's hint,
/// or OpenAI Chat's, which spells arguments alike) when it still says the same;
/// else its JSON text, numbers spelled as the input spells them.
pub(super) fn arguments_string(call: &ToolCall, mine: Mine<'_>, context: &Context) -> String {
    match &call.arguments {
        Arguments::Raw(raw) => raw.clone(),
        Arguments::Value(value) => [mine, Mine::of(&call.extensions, Shape::OpenaiChat)]
            .iter()
            .filter_map(|m| m.hint_str("arguments"))
            .find(|raw| serde_json::from_str::<Value>(raw).ok().as_ref() == Some(value))
            .map(str::to_string)
            .unwrap_or_else(|| context.text_of(value)),
    }
}

/// A `function_call` item.
pub(super) fn call_item(call: &ToolCall, context: &mut Context) -> Result<Value, ConvertError> {
    let mine = kept_for(&call.extensions, SHAPE, context)?;
    let mut map = Map::new();
    put(&mut map, "type", Value::String("function_call".into()));
    if let Some(id) = mine.hint("id") {
        put(&mut map, "id", id.clone());
    }
    if let Some(id) = &call.id {
        put(&mut map, "call_id", Value::String(id.clone()));
    }
    put(&mut map, "name", Value::String(call.name.clone()));
    put(
        &mut map,
        "arguments",
        Value::String(arguments_string(call, mine, context)),
    );
    if let Some(status) = mine.hint("status") {
        put(&mut map, "status", status.clone());
    }
    mine.restore(&mut map);
    Ok(Value::Object(map))
}

/// A `function_call_output` item: `output` a string for one text part, else an
/// array of `input_text` / `input_image` / `input_file` parts.
pub(super) fn output_item(
    result: &ToolResult,
    at: &str,
    context: &mut Context,
) -> Result<Value, ConvertError> {
    let mine = kept_for(&result.extensions, SHAPE, context)?;
    crate::shapes::kit::lose_error_flag(result, Some("function_call_output"), context)?;
    let mut map = Map::new();
    put(
        &mut map,
        "type",
        Value::String("function_call_output".into()),
    );
    if let Some(id) = mine.hint("id") {
        put(&mut map, "id", id.clone());
    }
    match &result.call_id {
        Some(id) => put(&mut map, "call_id", Value::String(id.clone())),
        // Responses refuses an output without its call's id, as the other
        // shapes do.
        None if context.source != SHAPE => {
            return Err(ConvertError::invalid(
                at,
                "a tool result without a call id cannot be a Responses function_call_output (for a single tool result, pass --call-id)",
            ))
        }
        None => {}
    }
    let as_parts = mine.hint_str("output") == Some("parts");
    let output = match result.content.as_slice() {
        [Block::Part {
            part: Part::Text(text),
            extensions,
        }] if !as_parts && Mine::of(extensions, SHAPE).is_empty() => {
            drop_foreign(extensions, context)?;
            Value::String(text.clone())
        }
        [] if !as_parts => Value::String(String::new()),
        blocks => {
            let mut parts = Vec::with_capacity(blocks.len());
            for (i, block) in blocks.iter().enumerate() {
                let here = format!("{at}/content/{i}");
                match block {
                    Block::Part { part, extensions } => parts.push(content_part(
                        part,
                        extensions,
                        PartPlace::ToolOutput,
                        &here,
                        context,
                    )?),
                    Block::Opaque(opaque) if opaque.shape == SHAPE => {
                        parts.push(opaque.value.clone())
                    }
                    other => lose_block(other, context)?,
                }
            }
            Value::Array(parts)
        }
    };
    put(&mut map, "output", output);
    if let Some(status) = mine.hint("status") {
        put(&mut map, "status", status.clone());
    }
    mine.restore(&mut map);
    Ok(Value::Object(map))
}
