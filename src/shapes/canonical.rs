//! partkit's own canonical transcripts: read and written as they are.

mod conversion;
mod detect;

use serde_json::Value;

use crate::contract::{Context, ConvertError, Form};
use crate::shapes::Shape;
use crate::transcript::{Block, Message, ModelError, Role, Transcript};

/// What the command line says of this shape.
pub const FACTS: super::Facts = super::Facts {
    document: "partkit's canonical transcript",
    tool_result: Some("A canonical tool_result block"),
    parts: "partkit's canonical parts",
};

/// A canonical part is written as it is, wherever it stands.
fn part_value(part: &crate::part::Part, _place: super::Place) -> Result<Value, super::Unsupported> {
    Ok(part.to_value())
}

/// This shape's side of [`Dialect`](super::Dialect).
#[derive(Debug, Clone, Copy)]
pub struct Canonical;

impl super::Dialect for Canonical {
    super::dialect_basics!(Canonical, part_value);

    fn order(&self) -> super::Order {
        super::Order { scan: 0, ties: 3 }
    }
    super::delegate! {
        recognize_media => scan::recognize,
        detect_document => detect::document,
        detect_evidence => detect::evidence,
        conversion => conversion::FACTS,
        validate_facts => rules::FACTS,
        tool_object => rules::tool_object,
    }
}

mod rules;
mod scan;

fn invalid(error: ModelError) -> ConvertError {
    ConvertError::invalid(error.pointer, error.message)
}

/// Reads a canonical document: a transcript object, a list of messages, or a
/// single `tool_result` block.
pub fn read(value: &Value, _context: &mut Context) -> Result<(Form, Transcript), ConvertError> {
    match value {
        Value::Object(map) if map.get("type").and_then(Value::as_str) == Some("tool_result") => {
            let block = Block::from_value(value, "").map_err(invalid)?;
            let transcript = Transcript {
                messages: vec![Message::new(Role::Tool, vec![block])],
                ..Transcript::default()
            };
            Ok((Form::ToolResult, transcript))
        }
        Value::Array(items) => {
            let messages = items
                .iter()
                .enumerate()
                .map(|(i, item)| Message::from_value(item, &format!("/{i}")))
                .collect::<Result<_, _>>()
                .map_err(invalid)?;
            Ok((
                Form::Messages,
                Transcript {
                    messages,
                    ..Transcript::default()
                },
            ))
        }
        _ => {
            let mut transcript = Transcript::from_value(value).map_err(invalid)?;
            // A message list or a response written as an object says so.
            let form = match transcript
                .extensions
                .get(Shape::Canonical.name())
                .and_then(|c| c.get("$form"))
                .and_then(Value::as_str)
            {
                Some("messages") => Form::Messages,
                Some("response") => Form::Response,
                _ => return Ok((Form::Request, transcript)),
            };
            transcript.extensions.remove(Shape::Canonical.name());
            Ok((form, transcript))
        }
    }
}

/// Writes a canonical document in the form the input had. A bare list whose
/// transcript has a system prompt or settings becomes a transcript object, since
/// canonical keeps those outside the list.
pub fn write(
    transcript: &Transcript,
    form: Form,
    _context: &mut Context,
) -> Result<Value, ConvertError> {
    match form {
        Form::ToolResult => {
            let result = transcript
                .messages
                .iter()
                .flat_map(|m| &m.content)
                .find(|b| matches!(b, Block::ToolResult(_)))
                .ok_or_else(|| ConvertError::invalid("", "no tool result to write"))?;
            Ok(result.to_value())
        }
        Form::Messages if is_bare(transcript) => Ok(Value::Array(
            transcript.messages.iter().map(Message::to_value).collect(),
        )),
        Form::Messages | Form::Response => {
            let mut transcript = transcript.clone();
            let form = if form == Form::Messages {
                "messages"
            } else {
                "response"
            };
            transcript.extensions.insert(
                Shape::Canonical.name().to_string(),
                serde_json::json!({ "$form": form }),
            );
            Ok(transcript.to_value())
        }
        _ => Ok(transcript.to_value()),
    }
}

/// Whether a transcript is nothing but messages.
pub fn is_bare(transcript: &Transcript) -> bool {
    transcript.model.is_none()
        && transcript.max_tokens.is_none()
        && transcript.temperature.is_none()
        && transcript.top_p.is_none()
        && transcript.stop.is_none()
        && transcript.tool_choice.is_none()
        && transcript.system.is_none()
        && transcript.tools.is_none()
        && transcript.extensions.is_empty()
}
