//! The canonical transcript model (SPEC §7). This first part holds what a single
//! tool result needs; `convert` builds the whole transcript on it.

use serde_json::{Map, Value};

use crate::json::Json;
use crate::part::{Part, PartError};

/// One tool result: the answer to one tool call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolResult {
    /// The id of the call this answers (absent only where a shape has none).
    pub call_id: Option<String>,
    /// The tool's name, when known.
    pub name: Option<String>,
    pub is_error: bool,
    pub content: Vec<Part>,
}

impl ToolResult {
    /// The canonical wire form:
    /// `{"type":"tool_result","call_id":…,"name":…,"is_error":false,"content":[…]}`.
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("type".into(), Value::String("tool_result".into()));
        if let Some(id) = &self.call_id {
            map.insert("call_id".into(), Value::String(id.clone()));
        }
        if let Some(name) = &self.name {
            map.insert("name".into(), Value::String(name.clone()));
        }
        map.insert("is_error".into(), Value::Bool(self.is_error));
        map.insert(
            "content".into(),
            Value::Array(self.content.iter().map(Part::to_value).collect()),
        );
        Value::Object(map)
    }
}

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
/// wording: `[unsupported <type> part (<mimeType>, <bytes> bytes)]`.
pub fn unsupported_placeholder(part: &Part) -> String {
    match part {
        Part::Text(_) => "[unsupported text part]".to_string(),
        Part::Media(media) => format!(
            "[unsupported {} part ({}, {} bytes)]",
            media.kind.as_str(),
            media.mime_type,
            media.decoded_len().unwrap_or(0)
        ),
    }
}

/// The text a tool message keeps when its result's first part is media (SPEC §7).
pub const MEDIA_MOVED_TEXT: &str = "[tool returned media; see the next user message]";

/// The line that introduces a moved result in the following user message.
pub fn moved_result_label(name: Option<&str>, call_id: Option<&str>) -> String {
    let id = call_id.unwrap_or("");
    match name {
        Some(name) => format!("Output of tool {name} ({id}):"),
        None => format!("Output of tool call {id}:"),
    }
}
