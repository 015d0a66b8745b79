//! Pieces every shape's reader builds alike: lists read entry by entry,
//! opaque blocks, tools and the fields of a tool that are kept when they
//! are not what the canonical model has. Each reads a `serde_json::Value`
//! or the borrowed tree alike (`json::node`).

use serde_json::{Map, Value};

use super::invalid;
use crate::contract::ext::Own;
use crate::contract::ConvertError;
use crate::json::{Node, Object, View};
use crate::shapes::Shape;
use crate::transcript::{Block, Extensions, Opaque, Tool, ToolChoice, Transcript};

/// The entries of the list `value` at `at`, each read by `read` with its own
/// pointer; anything but a list is invalid with `message`.
pub(crate) fn read_list<T, N: Node>(
    value: &N,
    at: &str,
    message: &str,
    mut read: impl FnMut(&N, &str) -> Result<T, ConvertError>,
) -> Result<Vec<T>, ConvertError> {
    let items = value.as_array().ok_or_else(|| invalid(at, message))?;
    items
        .iter()
        .enumerate()
        .map(|(i, item)| read(item, &format!("{at}/{i}")))
        .collect()
}

/// A block of `shape` the canonical model has no kind for, kept whole.
pub(crate) fn opaque<N: Node>(shape: Shape, value: &N) -> Block {
    Block::Opaque(Opaque {
        shape,
        value: value.to_value(),
    })
}

/// A canonical tool, with what the reader of `shape` kept in `own`.
pub(crate) fn tool(
    shape: Shape,
    name: &str,
    description: Option<String>,
    parameters: Option<Value>,
    strict: Option<bool>,
    own: Own,
) -> Tool {
    let mut extensions = Extensions::new();
    own.store(&mut extensions, shape);
    Tool {
        name: name.to_string(),
        description,
        parameters,
        strict,
        extensions,
    }
}

/// `value` as a JSON object, or the error `message` at `at`.
pub(crate) fn object_at<'v, N: Node>(
    value: &'v N,
    at: &str,
    message: &str,
) -> Result<&'v N::Object, ConvertError> {
    value.as_object().ok_or_else(|| invalid(at, message))
}

/// The string at `key` of the object at `at`, or the error `message` at the
/// key's pointer.
pub(crate) fn required_str<'v, O: Object>(
    map: &'v O,
    key: &str,
    at: &str,
    message: &str,
) -> Result<&'v str, ConvertError> {
    map.get(key)
        .and_then(Node::as_str)
        .ok_or_else(|| invalid(&format!("{at}/{key}"), message))
}

/// A tool of a kind the canonical model does not describe (a server tool, a
/// custom tool), kept whole for `shape` under the `$tool` hint.
pub(crate) fn tool_kept_whole<N: Node>(shape: Shape, name: &str, value: &N, mut own: Own) -> Tool {
    own.hint("tool", value.to_value());
    tool(shape, name, None, None, None, own)
}

/// A string field: its text, or (any other value) kept as it was.
pub(crate) fn string_or_keep<O: Object>(map: &O, key: &str, own: &mut Own) -> Option<String> {
    let value = map.get(key)?;
    match value.as_str() {
        Some(text) => Some(text.to_string()),
        None => {
            own.keep(key, value);
            None
        }
    }
}

/// A number field into `slot`; any other value is kept as it was.
pub(crate) fn number_or_keep<O: Object>(
    map: &O,
    key: &str,
    slot: &mut Option<Value>,
    own: &mut Own,
) {
    match map.get(key) {
        Some(value) if value.is_number() => *slot = Some(value.to_value()),
        Some(other) => own.keep(key, other),
        None => {}
    }
}

/// The strings of a list of strings (stop sequences); `None` for anything
/// else, which the caller keeps.
pub(crate) fn string_list<N: Node>(value: &N) -> Option<Vec<String>> {
    let items = value.as_array()?;
    items
        .iter()
        .map(|item| item.as_str().map(str::to_string))
        .collect()
}

/// The `tool_choice` of a request as `read` understands it; one it does not
/// is kept as it was.
pub(crate) fn tool_choice_or_keep<O: Object>(
    map: &O,
    own: &mut Own,
    read: impl Fn(&O::Node) -> Option<ToolChoice>,
) -> Option<ToolChoice> {
    let choice = map.get("tool_choice")?;
    let read = read(choice);
    if read.is_none() {
        own.keep("tool_choice", choice);
    }
    read
}

/// A response's envelope (id, status, usage, …) kept as the `response` hint
/// so a response can be written again; its model (when a string) is also the
/// transcript's, and `strip` puts a null in the place of what was read as
/// the turn itself. The writer puts both back where they were
/// (docs/conversion.md#what-survives).
pub(crate) fn keep_response_envelope<O: Object>(
    map: &O,
    transcript: &mut Transcript,
    own: &mut Own,
    strip: impl FnOnce(&mut Map<String, Value>),
) {
    let mut envelope = map.to_map();
    if let Some(model) = map.get("model").and_then(Node::as_str) {
        transcript.model = Some(model.to_string());
    }
    strip(&mut envelope);
    own.hint("response", Value::Object(envelope));
}

/// A message object and its `role`, or why it is not a message, at `at`.
pub(crate) fn message_and_role<'m, N: Node>(
    message: &'m N,
    at: &str,
) -> Result<(&'m N::Object, &'m str), ConvertError> {
    let map = message
        .as_object()
        .ok_or_else(|| invalid(at, "a message must be an object"))?;
    let role = required_str(map, "role", at, "a message needs a role")?;
    Ok((map, role))
}

/// A tool choice mode spelled as the canonical model spells it (`auto`,
/// `none`, `required`: both OpenAI shapes use these words); `None` for any
/// other value.
pub(crate) fn choice_mode<N: Node>(value: &N) -> Option<ToolChoice> {
    match value.as_str()? {
        "auto" => Some(ToolChoice::Auto),
        "none" => Some(ToolChoice::None),
        "required" => Some(ToolChoice::Required),
        _ => None,
    }
}

/// A request's `tools` list, each tool read by `read_tool`; `None` where
/// there is none.
pub(crate) fn read_tools<O: Object>(
    map: &O,
    read_tool: impl FnMut(&O::Node, &str) -> Result<Tool, ConvertError>,
) -> Result<Option<Vec<Tool>>, ConvertError> {
    map.get("tools")
        .map(|tools| read_list(tools, "/tools", "tools must be a list", read_tool))
        .transpose()
}

/// A request's `tools` list as [`read_tools`] reads it; `"tools": null`
/// (what a client that dumps the SDK's request object sends, and the API
/// reads as no tools) is kept as it was, for its shape only.
pub(crate) fn read_tools_or_keep<O: Object>(
    map: &O,
    own: &mut Own,
    read_tool: impl FnMut(&O::Node, &str) -> Result<Tool, ConvertError>,
) -> Result<Option<Vec<Tool>>, ConvertError> {
    if map.get("tools").is_some_and(Node::is_null) {
        own.keep("tools", &Value::Null);
        return Ok(None);
    }
    read_tools(map, read_tool)
}

/// A tool choice as both OpenAI shapes spell it: a mode, or
/// `{"type": "function", …}` with one more key, whose tool `named` finds
/// (`None` for anything more).
pub(crate) fn function_choice<N: Node>(
    choice: &N,
    named: impl FnOnce(&N::Object) -> Option<&str>,
) -> Option<ToolChoice> {
    if choice.is_string() {
        return choice_mode(choice);
    }
    let map = choice.as_object()?;
    if map.len() != 2 || map.get("type").and_then(Node::as_str) != Some("function") {
        return None;
    }
    Some(ToolChoice::Tool(named(map)?.to_string()))
}

/// A boolean field: its value, or (any other value) kept as it was.
pub(crate) fn bool_or_keep<O: Object>(map: &O, key: &str, own: &mut Own) -> Option<bool> {
    let value = map.get(key)?;
    match value.view() {
        View::Bool(flag) => Some(flag),
        _ => {
            own.keep(key, value);
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn read_list_points_at_each_entry() {
        let read = |value: &Value| {
            read_list(value, "/tools", "tools must be a list", |item, at| {
                Ok(format!("{at}={item}"))
            })
        };
        assert_eq!(
            read(&json!(["a", 1])).unwrap(),
            ["/tools/0=\"a\"", "/tools/1=1"]
        );
        assert!(read(&json!({})).is_err());
    }

    #[test]
    fn fields_of_another_type_are_kept() {
        let map = json!({"description": 7, "strict": true, "name": "x"});
        let map = map.as_object().unwrap();
        let mut own = Own::new();
        assert_eq!(string_or_keep(map, "name", &mut own), Some("x".into()));
        assert_eq!(string_or_keep(map, "description", &mut own), None);
        assert_eq!(bool_or_keep(map, "strict", &mut own), Some(true));
        assert_eq!(bool_or_keep(map, "absent", &mut own), None);
        let tool = tool(Shape::Anthropic, "x", None, None, None, own);
        assert_eq!(
            Value::Object(tool.extensions.clone()),
            json!({"anthropic": {"description": 7}})
        );
    }

    #[test]
    fn a_message_needs_an_object_and_a_role() {
        let table = [
            (json!({"role": "user"}), Ok("user")),
            (json!("hi"), Err("/messages/0: a message must be an object")),
            (
                json!({"content": []}),
                Err("/messages/0/role: a message needs a role"),
            ),
        ];
        for (input, expected) in table {
            let read = message_and_role(&input, "/messages/0");
            let read = read.map(|(_, role)| role).map_err(|e| e.to_string());
            assert_eq!(read, expected.map_err(str::to_string));
        }
    }
}
