//! One document through [`crate::convert`] (SPEC §7): a whole transcript, the
//! values at `--at` pointers spliced back into the document, or a NeMo Gym
//! rollout's conversation; the operation behind `partkit convert`.

use serde_json::Value;

use crate::convert::{self, ConvertError, ConvertOptions};
use crate::shapes::nemo_gym::rollout::{self, Conversation};
use crate::shapes::Shape;
use crate::subdoc::{join, splice, At, LocateError, MISSING};
use crate::{json, render};

/// Whether documents are read as NeMo Gym rollouts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RolloutChoice {
    /// When they are one (an object with a `responses_create_params` object).
    #[default]
    Recognize,
    /// Always (`--kind rollout`).
    Always,
    /// Never (`--kind transcript`).
    Never,
}

/// Everything `convert` needs to know about one document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConvertRequest {
    /// `None`: detect the shape.
    pub from: Option<Shape>,
    pub to: Shape,
    pub options: ConvertOptions,
    pub pretty: bool,
    /// Convert the values at these pointers instead of the whole document.
    pub at: At,
    pub rollout: RolloutChoice,
    /// Print only the converted value (of the one `--at` pointer, or of a
    /// rollout's conversation), not the document around it.
    pub bare: bool,
}

/// One converted document: its serialized output and the notes for stderr.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConvertedDocument {
    pub output: Vec<u8>,
    pub notes: Vec<String>,
}

/// Converts one JSON document.
pub fn convert_document(
    bytes: &[u8],
    request: &ConvertRequest,
) -> Result<ConvertedDocument, ConvertError> {
    if !request.at.is_active() {
        return convert_value(bytes, request, request.pretty);
    }
    let located = request.at.locate(bytes).map_err(|error| match error {
        LocateError::InvalidJson(message) => {
            ConvertError::invalid("", format!("invalid JSON: {message}"))
        }
        LocateError::Missing(pointer) => ConvertError::invalid(pointer, MISSING),
    })?;
    let mut notes = Vec::new();
    let mut replacements = Vec::with_capacity(located.len());
    for value in located {
        let pretty = request.bare && request.pretty;
        let converted = convert_value(&bytes[value.range.clone()], request, pretty)
            .map_err(|e| at_pointer(e, |p| join(&value.pointer, p)))?;
        for note in converted.notes {
            if !notes.contains(&note) {
                notes.push(note);
            }
        }
        replacements.push((value.range, converted.output));
    }
    let output = if request.bare {
        // One pointer (the command line makes sure); a value passed over by
        // `--at-missing skip` is a null, so that lines still line up.
        replacements
            .pop()
            .map(|(_, output)| output)
            .unwrap_or_else(|| b"null".to_vec())
    } else {
        splice(bytes, &mut replacements)
    };
    Ok(ConvertedDocument { output, notes })
}

/// Converts one value: a rollout's conversation, or a transcript of any shape.
fn convert_value(
    bytes: &[u8],
    request: &ConvertRequest,
    pretty: bool,
) -> Result<ConvertedDocument, ConvertError> {
    // Told from the text: a rollout is then parsed once, as its conversation.
    let is_rollout = match request.rollout {
        RolloutChoice::Always => true,
        RolloutChoice::Recognize => rollout::is_rollout_text(bytes),
        RolloutChoice::Never => false,
    };
    if is_rollout {
        return convert_rollout(bytes, request, pretty);
    }
    let value: Value = serde_json::from_slice(bytes)
        .map_err(|e| ConvertError::invalid("", format!("invalid JSON: {e}")))?;
    let _spelling = json::spell_as(bytes);
    let converted = convert::convert(&value, request.from, request.to, request.options.clone())?;
    // Sized for the input: the output is about as long, and a buffer that
    // doubles as it grows copies (and faults in) the payloads again.
    let mut output = Vec::with_capacity(bytes.len() + bytes.len() / 8);
    render::write_value(&mut output, &converted.value, pretty)
        .expect("writing JSON into memory cannot fail");
    Ok(ConvertedDocument {
        output,
        notes: converted.notes,
    })
}

/// Converts a rollout's conversation (the request's input, then the response's
/// output items, with the request's tools and settings) and puts it in place
/// of `responses_create_params`, every other byte of the line as it was.
fn convert_rollout(
    bytes: &[u8],
    request: &ConvertRequest,
    pretty: bool,
) -> Result<ConvertedDocument, ConvertError> {
    // The line is written back around the conversation: all of it must be
    // JSON (a check that allocates nothing).
    serde_json::from_slice::<serde::de::IgnoredAny>(bytes)
        .map_err(|e| ConvertError::invalid("", format!("invalid JSON: {e}")))?;
    let conversation = Conversation::of(bytes).ok_or_else(|| {
        ConvertError::invalid(
            "",
            "not a NeMo Gym rollout: no responses_create_params object",
        )
    })?;
    let value: Value = serde_json::from_slice(&conversation.bytes)
        .map_err(|e| ConvertError::invalid("", format!("invalid JSON: {e}")))?;
    let from = request.from.unwrap_or(rollout::CONVERSATION);
    let _spelling = json::spell_as(&conversation.bytes);
    let converted = convert::convert(&value, Some(from), request.to, request.options.clone())
        .map_err(|e| at_pointer(e, |p| conversation.line_pointer(p)))?;
    let mut out = Vec::with_capacity(conversation.bytes.len() + conversation.bytes.len() / 8);
    render::write_value(&mut out, &converted.value, request.bare && pretty)
        .expect("writing JSON into memory cannot fail");
    let output = if request.bare {
        out
    } else {
        splice(bytes, &mut [(conversation.request.clone(), out)])
    };
    Ok(ConvertedDocument {
        output,
        notes: converted.notes,
    })
}

/// The error with its pointer moved into the enclosing document.
fn at_pointer(error: ConvertError, map: impl Fn(&str) -> String) -> ConvertError {
    match error {
        ConvertError::Invalid { pointer, message } => ConvertError::Invalid {
            pointer: map(&pointer),
            message,
        },
        ConvertError::Unsupported {
            pointer,
            unsupported,
        } => ConvertError::Unsupported {
            pointer: map(&pointer),
            unsupported,
        },
        loss @ ConvertError::Loss(_) => loss,
    }
}
