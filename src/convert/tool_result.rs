//! One tool result written as a shape delivers it (`split --to`): through the
//! same writer `convert` uses, natively where the shape carries media in tool
//! results, by two-message delivery for OpenAI Chat (docs/conversion.md).

use serde_json::Value;

use super::{prepare, write_shape, Context, ConvertError, ConvertOptions, Form, OnUnsupported};
use crate::shapes::{gemini, Shape, Unsupported};
use crate::transcript::{Block, Message, Role, ToolResult, Transcript};

/// A tool result written for a shape, with the notes the writer has for stderr.
#[derive(Debug, Clone, PartialEq)]
pub struct Delivered {
    pub value: Value,
    pub notes: Vec<String>,
}

/// Writes one tool result as `shape` delivers it (docs/conversion.md), through the same
/// writer `convert` uses (a one-message transcript in `Form::ToolResult`):
/// natively where the shape carries media in tool results, by two-message
/// delivery for OpenAI Chat. A part the shape cannot carry there came from a
/// tool, so it degrades to toolnexus's placeholder text with a note.
pub fn write_tool_result(shape: Shape, result: &ToolResult) -> Result<Delivered, Unsupported> {
    let failed = |reason: String| Unsupported {
        part_type: "tool_result",
        mime_type: None,
        shape,
        reason,
    };
    match shape {
        Shape::NemoGym => {
            return Err(failed(
                "write a NeMo Gym reply with `convert --to nemo-gym`".into(),
            ))
        }
        Shape::Canonical => {
            return Ok(Delivered {
                value: result.to_value(),
                notes: Vec::new(),
            })
        }
        _ => {}
    }
    let transcript = Transcript {
        messages: vec![Message::new(
            Role::Tool,
            vec![Block::ToolResult(result.clone())],
        )],
        ..Transcript::default()
    };
    let options = ConvertOptions {
        on_unsupported: Some(OnUnsupported::Text),
        ..ConvertOptions::default()
    };
    let mut context = Context::new(options, Shape::Canonical, shape.dialect());
    let written = prepare::for_target(transcript, &mut context).and_then(|transcript| {
        match shape {
            // A reply's text stays `{"output": …}` (docs/commands/split.md; gemini::write_split).
            Shape::Gemini => gemini::write_split(&transcript, Form::ToolResult, &mut context),
            _ => write_shape(shape, &transcript, Form::ToolResult, &mut context),
        }
    });
    let value = written.map_err(|e: ConvertError| failed(e.to_string()))?;
    Ok(Delivered {
        value,
        notes: context.finish(),
    })
}
