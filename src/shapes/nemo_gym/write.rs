//! Writing one canonical tool result as a NeMo Gym tool reply.

use serde_json::{Map, Value};

use crate::contract::ext::Mine;
use crate::contract::{Context, ConvertError, Form};
use crate::part::Part;
use crate::shapes::kit::{kept_for, only_tool_result};
use crate::shapes::{Place, Shape};
use crate::transcript::{Block, ToolResult, Transcript};

use super::TOOL_OUTPUT_IMAGES_KEY;

const SHAPE: Shape = Shape::NemoGym;

/// Writes the transcript's one tool result as a tool reply.
pub fn write(
    transcript: &Transcript,
    form: Form,
    context: &mut Context,
) -> Result<Value, ConvertError> {
    let result = only_tool_result(
        transcript,
        form,
        "nemo-gym holds a single tool reply; convert one tool result, not a transcript",
    )?;
    write_result(result, context)
}

/// A tool reply from one result: its first text part is the reply (a JSON
/// object as it is; any other text as `{"output": <text>}`); each image becomes
/// a `tool_output_images` entry, labelled by the text part right before it.
/// Call ids, names and the error flag have no place in a reply.
/// (Long: one pass over the result's blocks that pairs each image with
/// the text before it; its steps share that pairing state.)
pub fn write_result(result: &ToolResult, context: &mut Context) -> Result<Value, ConvertError> {
    let mine = kept_for(&result.extensions, SHAPE, context)?;
    if result.call_id.is_some() {
        context.note("a nemo-gym reply carries no call id; dropped it");
    }
    crate::shapes::kit::lose_error_flag(result, None, context)?;
    let mut blocks = result.content.iter().enumerate().peekable();
    let mut reply = match blocks.peek() {
        Some((
            _,
            Block::Part {
                part: Part::Text(text),
                ..
            },
        )) => {
            let reply = match serde_json::from_str::<Value>(text) {
                Ok(Value::Object(object)) => object,
                _ => {
                    let mut object = Map::new();
                    object.insert("output".into(), Value::String(text.clone()));
                    object
                }
            };
            blocks.next();
            reply
        }
        _ => Map::new(),
    };
    let mut entries = Vec::new();
    let mut pending_label: Option<String> = None;
    for (i, block) in blocks {
        let at = format!("/content/{i}");
        match block {
            Block::Part {
                part: Part::Text(text),
                ..
            } => {
                if let Some(previous) = pending_label.replace(text.clone()) {
                    context.lose(format!(
                        "text parts between images ({previous})",
                        previous = crate::echo::quoted(&previous)
                    ))?;
                }
            }
            Block::Part { part, extensions } => {
                let value = context.write_part(part, Place::ToolResult, &at, |p| {
                    super::write_part(p, Place::ToolResult)
                })?;
                let Value::Object(mut entry) = value else {
                    continue;
                };
                if !entry.contains_key("image_url") {
                    // A placeholder text for media a reply cannot hold.
                    if let Some(Value::String(text)) = entry.get("text") {
                        context.lose(format!(
                            "text parts between images ({text})",
                            text = crate::echo::quoted(text)
                        ))?;
                    }
                    continue;
                }
                entry.remove("label");
                let part_mine = Mine::of(extensions, SHAPE);
                match (pending_label.take(), part_mine.hint("label")) {
                    (Some(label), _) => {
                        entry.insert("label".into(), Value::String(label));
                    }
                    (None, Some(Value::String(absent))) if absent == "absent" => {}
                    (None, Some(original)) => {
                        entry.insert("label".into(), original.clone());
                    }
                    (None, None) => {}
                }
                entries.push(Value::Object(entry));
            }
            Block::Opaque(opaque) if opaque.shape == SHAPE => {}
            other => crate::shapes::kit::lose_block(other, context)?,
        }
    }
    if let Some(label) = pending_label {
        context.lose(format!(
            "text parts after the last image ({label})",
            label = crate::echo::quoted(&label)
        ))?;
    }
    match (entries.is_empty(), mine.hint_str("images")) {
        (true, Some("null")) => {
            reply.insert(TOOL_OUTPUT_IMAGES_KEY.into(), Value::Null);
        }
        (true, Some("empty")) => {
            reply.insert(TOOL_OUTPUT_IMAGES_KEY.into(), Value::Array(Vec::new()));
        }
        (true, _) => {}
        (false, _) => {
            reply.insert(TOOL_OUTPUT_IMAGES_KEY.into(), Value::Array(entries));
        }
    }
    Ok(Value::Object(reply))
}
