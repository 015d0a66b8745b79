//! What `validate` asks of canonical transcripts: ids are optional, and a
//! transcript need not declare the tools it calls.

use crate::contract::rules::{CallIds, ToolObject, ValidateFacts};
use crate::json::{Node, Object};

/// Canonical ids are optional (id-less results pair with id-less calls by
/// name, in order), but an empty one is a missing one.
pub const FACTS: ValidateFacts = ValidateFacts {
    request_declares_tools: false,
    ids: CallIds {
        optional: true,
        ..ValidateFacts::DEFAULT.ids
    },
    ..ValidateFacts::DEFAULT
};

/// A `tool_call` or `tool_result` block.
pub fn tool_object<O: Object>(object: &O, _key: Option<&str>) -> Option<ToolObject> {
    match object.get("type").and_then(Node::as_str) {
        Some("tool_call") => Some(ToolObject::Call),
        Some("tool_result") => Some(ToolObject::Result),
        _ => None,
    }
}
