//! The canonical transcript model (docs/model.md): system prompt, tools, messages of
//! parts, tool calls, tool results and opaque provider blocks; and its JSON form.
//!
//! Every provider shape is a reader into this model and a writer out of it.
//! What a shape has and the model does not (a field with no counterpart, the
//! spelling a shape chose among equivalent forms) travels in `extensions`, keyed
//! by the shape's name, so that converting A → canonical → A gives back A.

mod json;

use serde_json::{Map, Value};

use crate::contract::Shape;
use crate::json::lent::Lending;
use crate::json::Json;
use crate::part::{MediaPart, Part, PartError, Source};

/// Per-shape extras of one object: shape name → object of fields. Keys starting
/// with `$` are form hints (how a shape spelled something); other keys are the
/// shape's own fields, restored verbatim when writing that shape again.
pub type Extensions = Map<String, Value>;

/// A whole conversation, request or response.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Transcript {
    pub model: Option<String>,
    /// Numbers are kept as JSON values so that their spelling survives.
    pub max_tokens: Option<Value>,
    pub temperature: Option<Value>,
    pub top_p: Option<Value>,
    pub stop: Option<Vec<String>>,
    pub tool_choice: Option<ToolChoice>,
    /// The system prompt (text parts, and opaque blocks).
    pub system: Option<Vec<Block>>,
    pub tools: Option<Vec<Tool>>,
    pub messages: Vec<Message>,
    pub extensions: Extensions,
}

/// Who speaks a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// A system message in the middle of a conversation (the leading system
    /// prompt is [`Transcript::system`]).
    System,
    User,
    Assistant,
    /// Tool results.
    Tool,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::System => "system",
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::Tool => "tool",
        }
    }

    fn parse(text: &str) -> Option<Role> {
        Some(match text {
            "system" => Role::System,
            "user" => Role::User,
            "assistant" => Role::Assistant,
            "tool" => Role::Tool,
            _ => return None,
        })
    }
}

/// One message.
#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    pub role: Role,
    pub content: Vec<Block>,
    pub extensions: Extensions,
}

impl Message {
    pub fn new(role: Role, content: Vec<Block>) -> Message {
        Message {
            role,
            content,
            extensions: Extensions::new(),
        }
    }
}

/// One item of a message's content.
#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    Part { part: Part, extensions: Extensions },
    ToolCall(ToolCall),
    ToolResult(ToolResult),
    Opaque(Opaque),
}

impl Block {
    /// A part without extensions.
    pub fn part(part: Part) -> Block {
        Block::Part {
            part,
            extensions: Extensions::new(),
        }
    }

    /// A text part.
    pub fn text(text: impl Into<String>) -> Block {
        Block::part(Part::Text(text.into()))
    }

    /// The part, if the block is one.
    pub fn as_part(&self) -> Option<&Part> {
        match self {
            Block::Part { part, .. } => Some(part),
            _ => None,
        }
    }
}

/// A block only one shape has (thinking, citations, server tool use, …),
/// carried as it was written.
#[derive(Debug, Clone, PartialEq)]
pub struct Opaque {
    pub shape: Shape,
    pub value: Value,
}

/// A call of a tool by the model.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall {
    pub id: Option<String>,
    pub name: String,
    pub arguments: Arguments,
    pub extensions: Extensions,
}

/// A tool call's arguments.
#[derive(Debug, Clone, PartialEq)]
pub enum Arguments {
    /// The arguments as a JSON value (an object, for a well-formed call).
    Value(Value),
    /// An arguments string that is not JSON, kept as written
    /// (`--on-invalid-arguments keep`).
    Raw(String),
}

/// The answer to one tool call.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ToolResult {
    /// The id of the call this answers (absent only where a shape has none).
    pub call_id: Option<String>,
    /// The tool's name, when known.
    pub name: Option<String>,
    pub is_error: bool,
    pub content: Vec<Block>,
    pub extensions: Extensions,
}

/// A tool the model may call.
#[derive(Debug, Clone, PartialEq)]
pub struct Tool {
    pub name: String,
    pub description: Option<String>,
    /// The JSON Schema of the arguments (`None`: the tool takes none).
    pub parameters: Option<Value>,
    pub strict: Option<bool>,
    pub extensions: Extensions,
}

/// Which tool the model must (or must not) call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolChoice {
    Auto,
    None,
    Required,
    Tool(String),
}

/// Why a canonical document could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{pointer}: {message}")]
pub struct ModelError {
    pub pointer: String,
    pub message: String,
}

impl ModelError {
    pub fn new(pointer: impl Into<String>, message: impl Into<String>) -> ModelError {
        ModelError {
            pointer: pointer.into(),
            message: message.into(),
        }
    }
}

// ---------------------------------------------------------------------------
// Helpers every shape uses

/// Reads a JSON array of canonical parts.
pub fn parts_from_json(json: &Json<'_>) -> Result<Vec<Part>, PartError> {
    match json {
        Json::Array(items) => items
            .iter()
            .map(|item| Part::from_value(&item.to_value()))
            .collect(),
        other => Part::from_value(&other.to_value()).map(|part| vec![part]),
    }
}

/// The text that stands in for a part a shape cannot carry, in toolnexus's
/// wording: `[unsupported <type> part (<mimeType>, <bytes> bytes)]`; a part
/// by URL names its URL instead of a size it does not have.
/// `lending`: what the document the part was read from lends.
pub fn unsupported_placeholder(part: &Part, lending: &Lending) -> String {
    match part {
        Part::Text(_) => "[unsupported text part]".to_string(),
        Part::Media(MediaPart {
            kind,
            mime_type,
            source: Source::Url(url),
            ..
        }) => format!("[unsupported {} part ({mime_type}, {url})]", kind.as_str()),
        Part::Media(media) => format!(
            "[unsupported {} part ({}, {} bytes)]",
            media.kind.as_str(),
            media.mime_type,
            media.decoded_len_lent(lending).unwrap_or(0)
        ),
    }
}

/// The text a tool message keeps when its result's first part is media (docs/conversion.md).
pub const MEDIA_MOVED_TEXT: &str = "[tool returned media; see the next user message]";

/// The line that introduces a moved result in the following user message.
pub fn moved_result_label(name: Option<&str>, call_id: Option<&str>) -> String {
    match (name, call_id) {
        (Some(name), Some(id)) => format!("Output of tool {name} ({id}):"),
        (Some(name), None) => format!("Output of tool {name}:"),
        (None, Some(id)) => format!("Output of tool call {id}:"),
        (None, None) => "Output of a tool call:".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn canonical_json_round_trips() {
        let value = json!({
            "model": "m", "max_tokens": 1024, "temperature": 0.20, "top_p": 1.0, "stop": ["x"],
            "tool_choice": {"name": "get_chart"},
            "system": [{"type": "text", "text": "be terse"}],
            "tools": [{"name": "get_chart", "description": "d", "parameters": {"type": "object"}, "strict": true}],
            "messages": [
                {"role": "user", "content": [{"type": "text", "text": "hi"},
                    {"type": "image", "mimeType": "image/png", "data": "iVBORw0KGgo=",
                     "extensions": {"openai-chat": {"detail": "high"}}}]},
                {"role": "assistant", "content": [
                    {"type": "opaque", "shape": "anthropic", "value": {"type": "thinking", "thinking": "…", "signature": "s"}},
                    {"type": "tool_call", "id": "c1", "name": "get_chart", "arguments": {"city": "Paris"}}]},
                {"role": "tool", "content": [{"type": "tool_result", "call_id": "c1", "name": "get_chart",
                    "is_error": false, "content": [{"type": "text", "text": "42"}]}]}
            ],
            "extensions": {"openai-chat": {"seed": 7}}
        });
        let transcript = Transcript::from_value(&value).unwrap();
        assert_eq!(transcript.to_value(), value);
    }

    #[test]
    fn unknown_keys_and_roles_are_refused_with_a_pointer() {
        let error =
            Transcript::from_value(&json!({"messages": [{"role": "robot", "content": []}]}))
                .unwrap_err();
        assert_eq!(error.pointer, "/messages/0/role");
        let error = Transcript::from_value(&json!({"nope": 1})).unwrap_err();
        assert_eq!(error.pointer, "/nope");
        let error = Transcript::from_value(&json!({"extensions": {"nope": {}}})).unwrap_err();
        assert_eq!(error.pointer, "/extensions/nope");
    }
}
