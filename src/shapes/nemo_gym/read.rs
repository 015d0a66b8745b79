//! Reading a NeMo Gym tool reply into the canonical model: one tool result whose
//! parts are exactly what `partkit split` prints.

use serde_json::Value;

use crate::contract::ext::Own;
use crate::contract::{Context, ConvertError, Form};
use crate::json;
use crate::shapes::Shape;

use super::split;
use crate::transcript::{Block, Extensions, Message, Role, ToolResult, Transcript};

const SHAPE: Shape = Shape::NemoGym;

/// Reads a tool reply: the rest of the reply as a text part, then per image its
/// label (when not empty) and the image. A malformed image list is refused as
/// `split` refuses it.
pub fn read(value: &Value, context: &mut Context) -> Result<(Form, Transcript), ConvertError> {
    let text = context.text_of(value).into_bytes();
    let reply = json::parse(&text).map_err(|e| ConvertError::invalid("", e.to_string()))?;
    let labels: Vec<Option<Value>> = value
        .get(crate::shapes::nemo_gym::TOOL_OUTPUT_IMAGES_KEY)
        .and_then(Value::as_array)
        .map(|entries| entries.iter().map(|e| e.get("label").cloned()).collect())
        .unwrap_or_default();
    let split = split::split_reply(reply, false, context.lending())
        .map_err(|problem| ConvertError::invalid(problem.pointer.clone(), problem.to_string()))?;
    let mut content = vec![Block::text(split::rest_text(&split.rest))];
    let mut own = Own::new();
    if value.get(crate::shapes::nemo_gym::TOOL_OUTPUT_IMAGES_KEY) == Some(&Value::Null) {
        own.hint("images", "null");
    }
    for (index, image) in split.images.iter().enumerate() {
        let label = image.label.as_deref().filter(|l| !l.is_empty());
        if let Some(label) = label {
            content.push(Block::text(label));
        }
        let mut part_own = Own::new();
        match labels.get(index).cloned().flatten() {
            Some(Value::String(l)) if !l.is_empty() => {}
            Some(other) => part_own.hint("label", other),
            None => part_own.hint("label", "absent"),
        }
        let mut extensions = Extensions::new();
        part_own.store(&mut extensions, SHAPE);
        content.push(Block::Part {
            part: crate::part::Part::Media(crate::part::MediaPart {
                kind: crate::media::MediaKind::Image,
                mime_type: image.media_type.clone(),
                source: crate::part::Source::Data(image.payload.to_string()),
                name: None,
            }),
            extensions,
        });
    }
    if split.images.is_empty()
        && value
            .get(crate::shapes::nemo_gym::TOOL_OUTPUT_IMAGES_KEY)
            .is_some_and(Value::is_array)
    {
        own.hint("images", "empty");
    }
    let mut extensions = Extensions::new();
    own.store(&mut extensions, SHAPE);
    let result = ToolResult {
        call_id: None,
        name: None,
        is_error: false,
        content,
        extensions,
    };
    Ok((
        Form::ToolResult,
        Transcript {
            messages: vec![Message::new(Role::Tool, vec![Block::ToolResult(result)])],
            ..Transcript::default()
        },
    ))
}
