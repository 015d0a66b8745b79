//! One tool result written as a shape delivers it (`split --to`): through the
//! same writer `convert` uses, natively where the shape carries media in tool
//! results, by two-message delivery for OpenAI Chat (docs/conversion.md).

use serde_json::Value;

use super::{prepare, write_shape, Context, ConvertError, ConvertOptions, Form, OnUnsupported};
use crate::shapes::Registered;
use crate::shapes::{Shape, Unsupported, HUB};
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
    if shape == HUB {
        return Ok(Delivered {
            value: result.to_value(),
            notes: Vec::new(),
        });
    }
    if shape.facts().tool_result.is_none() {
        return Err(failed(format!(
            "{shape} replies are not written one tool result at a time; use `convert --to {shape}`"
        )));
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
        // A shape may write a split reply its own way (Gemini keeps a reply's
        // text as `{"output": …}`: docs/commands/split.md).
        match shape.dialect().write_split_reply(&transcript, &mut context) {
            Some(written) => written,
            None => write_shape(shape, &transcript, Form::ToolResult, &mut context),
        }
    });
    let value = written.map_err(|e: ConvertError| failed(e.to_string()))?;
    Ok(Delivered {
        value,
        notes: context.finish(),
    })
}
