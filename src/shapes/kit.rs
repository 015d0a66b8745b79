//! Helpers every shape's reader and writer share (no shape's own knowledge).

use serde_json::{Map, Value};

use crate::contract::{Context, ConvertError};
use crate::transcript::Block;

pub(crate) mod foreign;
mod read;
pub(crate) mod scan;
mod write;

pub(crate) use read::{
    bool_or_keep, function_choice, keep_response_envelope, message_and_role, number_or_keep,
    object_at, opaque, read_list, read_tools, read_tools_or_keep, required_str, string_list,
    string_or_keep, tool, tool_choice_or_keep, tool_kept_whole,
};
pub(crate) use write::{
    calls_tools, first_tool_result, kept_for, lose_error_flag, only_tool_result,
    put_function_choice, put_model, with_model, with_model_out, write_documents, write_tools,
    Documents, Forms,
};

/// Sets `key` in a JSON object being written.
pub(crate) fn put(map: &mut Map<String, Value>, key: &str, value: Value) {
    map.insert(key.to_string(), value);
}

/// The input is not a valid document of its shape, at `pointer`.
pub(crate) fn invalid(pointer: &str, message: impl Into<String>) -> ConvertError {
    ConvertError::invalid(pointer, message)
}

/// Notes the fields other shapes kept in `extensions`: this shape has no place
/// for them.
pub(crate) fn drop_foreign(
    extensions: &crate::transcript::Extensions,
    context: &mut Context,
) -> Result<(), ConvertError> {
    for field in foreign::foreign_fields(extensions, context.target) {
        context.lose(field)?;
    }
    Ok(())
}

/// A block this shape has no place for.
pub(crate) fn lose_block(block: &Block, context: &mut Context) -> Result<(), ConvertError> {
    match block {
        Block::Opaque(opaque) => context.lose(format!(
            "{} {} blocks",
            opaque.shape,
            opaque_kind(&opaque.value)
        )),
        Block::ToolCall(_) => context.lose("tool calls outside assistant messages"),
        Block::ToolResult(_) => context.lose("tool results outside tool messages"),
        Block::Part { .. } => Ok(()),
    }
}

/// What an opaque block is, for the loss warning: its `type`, or for shapes
/// whose blocks are keyed unions (Gemini, Bedrock), `thought` or its first key
/// that is not a modifier.
pub(crate) fn opaque_kind(value: &Value) -> String {
    if let Some(kind) = value.get("type").and_then(Value::as_str) {
        return kind.to_string();
    }
    if value.get("thought").and_then(Value::as_bool) == Some(true) {
        return "thought".to_string();
    }
    const MODIFIERS: &[&str] = &[
        "thoughtSignature",
        "thought_signature",
        "thought",
        "partMetadata",
        "part_metadata",
        "mediaResolution",
        "videoMetadata",
    ];
    value
        .as_object()
        .and_then(|map| {
            map.keys()
                .find(|k| !MODIFIERS.contains(&k.as_str()))
                .cloned()
        })
        .unwrap_or_else(|| "untyped".to_string())
}
