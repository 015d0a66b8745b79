//! A shape's streamed responses ([`StreamAssembler`], offered through
//! [`super::Dialect::stream`]): whether a stream's events are the shape's,
//! and the one response they add up to, which the shape's reader reads like
//! any response of the shape. The events come from [`crate::stream::parse`],
//! which knows framings, not shapes.

use serde_json::Value;

use crate::stream::{Events, StreamProblem};

/// A stream assembled into the response it stands for.
#[derive(Debug, Clone, PartialEq)]
pub struct Assembly {
    /// The final response, as the shape writes a response that is not streamed.
    pub response: Value,
    /// What was left out on the way (an event of a type the shape does not
    /// know, kept out of the response), one line each.
    pub notes: Vec<String>,
}

/// How one shape's streamed responses are assembled.
pub trait StreamAssembler: Sync {
    /// Whether `events` are this shape's stream, told by the events
    /// themselves (their types and members), not by where they came from.
    fn claims(&self, events: &Events) -> bool;

    /// The response `events` stand for. A stream without the event that ends
    /// it is cut short, and refused ([`StreamProblem::Unfinished`]); so is an
    /// error the service sent in the stream. An event of a type the shape
    /// does not know is left out with a note, never a panic.
    fn assemble(&self, events: &Events) -> Result<Assembly, StreamProblem>;

    /// Whether `event` can only be the first event of this shape's stream,
    /// never a whole document of the shape: how a file of one JSON event a
    /// line (a test fixture's chunks) is told from JSON Lines of documents
    /// by its first line. A shape whose chunks look like whole responses
    /// (Gemini's, MCP's) says no.
    fn opens(&self, event: &Value) -> bool {
        let _ = event;
        false
    }

    /// Whether `first` and `second`, two lines in a row of a file, can only
    /// be chunks of one stream: how a fixture of a shape whose chunks look
    /// like whole responses (Gemini's) is told from JSON Lines of separate
    /// responses, which never share the one answer's id.
    fn continues(&self, first: &Value, second: &Value) -> bool {
        let _ = (first, second);
        false
    }
}

/// The note for an event of a type the assembler does not know.
pub fn unknown_event(index: usize, kind: Option<&str>) -> String {
    match kind {
        Some(kind) => format!("event {index}: unknown type `{kind}`, left out"),
        None => format!("event {index}: no type, left out"),
    }
}

/// Appends `piece` to the string member `key` of `object` (creating it; a
/// member that is not a string is replaced).
pub fn append_text(object: &mut serde_json::Map<String, Value>, key: &str, piece: &str) {
    match object.get_mut(key) {
        Some(Value::String(text)) => text.push_str(piece),
        _ => {
            object.insert(key.to_string(), Value::String(piece.to_string()));
        }
    }
}

/// The JSON that a tool call's argument fragments, joined, make (`{}` for
/// none); a join that is not JSON is a problem of the event that ended the
/// call.
pub fn join_fragments(fragments: &str, event: usize) -> Result<Value, StreamProblem> {
    if fragments.trim().is_empty() {
        return Ok(Value::Object(serde_json::Map::new()));
    }
    serde_json::from_str(fragments).map_err(|error| StreamProblem::BadEvent {
        event,
        message: format!("the tool call's input fragments do not join into JSON ({error})"),
    })
}
