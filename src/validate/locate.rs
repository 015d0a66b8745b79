//! Where a tool call, tool result or tool declaration stands in the original
//! document, so that the findings the transcript checks make on the canonical
//! model point back into it. The document is the borrowed tree the
//! transcript was read from (its payloads lent: `json::lent::tree_of`).

use std::collections::HashMap;
use std::fmt::Write as _;

use serde_json::Value;

use crate::json::{pointer_token, Json};
use crate::shapes::Registered;
use crate::shapes::Shape;
use crate::transcript::{Block, ToolCall, ToolResult, Transcript};
use crate::validate::kit::ToolObject;

/// Finds where a call, result or tool stands in the original document.
pub(super) struct Locator<'v> {
    value: &'v Json<'v>,
    /// The pointers of the document's calls and results in document order,
    /// when there are exactly as many as the reader read (so the n-th call of
    /// the transcript is the n-th call of the document).
    calls: Option<Vec<String>>,
    results: Option<Vec<String>>,
    /// The transcript's calls and results, by (message, block), numbered in order.
    call_numbers: HashMap<(usize, usize), usize>,
    result_numbers: HashMap<(usize, usize), usize>,
}

impl<'v> Locator<'v> {
    pub(super) fn new(value: &'v Json<'v>, shape: Shape, transcript: &Transcript) -> Locator<'v> {
        fn walk(
            value: &Json<'_>,
            shape: Shape,
            key: Option<&str>,
            pointer: &mut String,
            calls: &mut Vec<String>,
            results: &mut Vec<String>,
        ) {
            match value {
                Json::Object(map) => {
                    match shape.dialect().tool_object(map, key) {
                        Some(ToolObject::Call) => return calls.push(pointer.clone()),
                        Some(ToolObject::Result) => return results.push(pointer.clone()),
                        None => {}
                    }
                    for (key, item) in map {
                        let len = pointer.len();
                        pointer.push('/');
                        pointer.push_str(&pointer_token(key));
                        walk(item, shape, Some(key.as_ref()), pointer, calls, results);
                        pointer.truncate(len);
                    }
                }
                Json::Array(items) => {
                    for (index, item) in items.iter().enumerate() {
                        let len = pointer.len();
                        let _ = write!(pointer, "/{index}");
                        walk(item, shape, key, pointer, calls, results);
                        pointer.truncate(len);
                    }
                }
                _ => {}
            }
        }
        let (mut calls, mut results) = (Vec::new(), Vec::new());
        walk(
            value,
            shape,
            None,
            &mut String::new(),
            &mut calls,
            &mut results,
        );
        let mut call_numbers = HashMap::new();
        let mut result_numbers = HashMap::new();
        for (m, message) in transcript.messages.iter().enumerate() {
            for (b, block) in message.content.iter().enumerate() {
                match block {
                    Block::ToolCall(_) => {
                        call_numbers.insert((m, b), call_numbers.len());
                    }
                    Block::ToolResult(_) => {
                        result_numbers.insert((m, b), result_numbers.len());
                    }
                    _ => {}
                }
            }
        }
        Locator {
            value,
            calls: (calls.len() == call_numbers.len()).then_some(calls),
            results: (results.len() == result_numbers.len()).then_some(results),
            call_numbers,
            result_numbers,
        }
    }

    /// The pointer of the first object (depth first, in document order) that
    /// `matches`, or "".
    fn find(&self, matches: &dyn Fn(&Json<'_>) -> bool) -> String {
        fn walk(
            value: &Json<'_>,
            pointer: &mut String,
            matches: &dyn Fn(&Json<'_>) -> bool,
        ) -> bool {
            match value {
                Json::Object(map) => {
                    if matches(value) {
                        return true;
                    }
                    for (key, item) in map {
                        let len = pointer.len();
                        pointer.push('/');
                        pointer.push_str(&pointer_token(key));
                        if walk(item, pointer, matches) {
                            return true;
                        }
                        pointer.truncate(len);
                    }
                    false
                }
                Json::Array(items) => {
                    for (index, item) in items.iter().enumerate() {
                        let len = pointer.len();
                        pointer.push_str(&format!("/{index}"));
                        if walk(item, pointer, matches) {
                            return true;
                        }
                        pointer.truncate(len);
                    }
                    false
                }
                _ => false,
            }
        }
        let mut pointer = String::new();
        if walk(self.value, &mut pointer, matches) {
            pointer
        } else {
            String::new()
        }
    }

    /// Where a block kept whole by the reader (an opaque block) stands: the
    /// first object of the document equal to it.
    pub(super) fn block(&self, value: &Value) -> String {
        match value {
            Value::Object(_) => self.find(&|node| same(node, value)),
            _ => String::new(),
        }
    }

    /// The call that is block `at` (message, block) of the transcript.
    pub(super) fn call(&self, at: (usize, usize), call: &ToolCall) -> String {
        if let (Some(calls), Some(n)) = (&self.calls, self.call_numbers.get(&at)) {
            return calls[*n].clone();
        }
        let has = |map: &Json<'_>, keys: &[&str], want: &str| {
            keys.iter()
                .any(|k| map.get(k).and_then(Json::as_str) == Some(want))
        };
        match call.id.as_deref() {
            Some(id) => self.find(&|map| {
                has(map, &["id", "call_id", "toolUseId"], id)
                    && ["name", "function", "input", "args", "arguments"]
                        .iter()
                        .any(|k| map.has(k))
                    && !map.has("output")
                    && !map.has("content")
            }),
            None => self.find(&|map| has(map, &["name"], &call.name) && map.has("args")),
        }
    }

    /// The result that is block `at` (message, block) of the transcript.
    pub(super) fn result(&self, at: (usize, usize), result: &ToolResult) -> String {
        if let (Some(results), Some(n)) = (&self.results, self.result_numbers.get(&at)) {
            return results[*n].clone();
        }
        let has = |map: &Json<'_>, keys: &[&str], want: &str| {
            keys.iter()
                .any(|k| map.get(k).and_then(Json::as_str) == Some(want))
        };
        match (result.call_id.as_deref(), result.name.as_deref()) {
            (Some(id), _) => self.find(&|map| {
                has(
                    map,
                    &["tool_call_id", "tool_use_id", "toolUseId", "call_id", "id"],
                    id,
                ) && ["content", "output", "response", "role"]
                    .iter()
                    .any(|k| map.has(k))
            }),
            (None, Some(name)) => {
                self.find(&|map| has(map, &["name"], name) && map.has("response"))
            }
            (None, None) => String::new(),
        }
    }

    /// The declaration of the `nth` (from 0) tool named `name`, and the member
    /// holding its schema (empty when it has none).
    pub(super) fn tool(&self, name: &str, nth: usize) -> (String, String) {
        fn walk(value: &Json<'_>, pointer: &mut String, name: &str, found: &mut Vec<String>) {
            match value {
                Json::Object(map) => {
                    if value.get("name").and_then(Json::as_str) == Some(name) {
                        found.push(pointer.clone());
                        return;
                    }
                    for (key, item) in map {
                        let len = pointer.len();
                        pointer.push('/');
                        pointer.push_str(&pointer_token(key));
                        walk(item, pointer, name, found);
                        pointer.truncate(len);
                    }
                }
                Json::Array(items) => {
                    for (index, item) in items.iter().enumerate() {
                        let len = pointer.len();
                        pointer.push_str(&format!("/{index}"));
                        walk(item, pointer, name, found);
                        pointer.truncate(len);
                    }
                }
                _ => {}
            }
        }
        // Tools are declared under `tools` (Bedrock: `toolConfig.tools`).
        let mut found = Vec::new();
        for base in ["/tools", "/toolConfig/tools"] {
            if let Some(tools) = self.value.pointer(base) {
                let mut pointer = base.to_string();
                walk(tools, &mut pointer, name, &mut found);
            }
        }
        let Some(at) = found.get(nth).or(found.last()).cloned() else {
            return (String::new(), String::new());
        };
        let declaration = self.value.pointer(&at);
        let schema = [
            "parameters",
            "input_schema",
            "parametersJsonSchema",
            "parameters_json_schema",
        ]
        .iter()
        .find(|key| declaration.and_then(|d| d.get(key)).is_some())
        .map(|key| format!("{at}/{key}"))
        .or_else(|| {
            declaration
                .and_then(|d| d.get("inputSchema"))
                .map(|schema| match schema.get("json") {
                    Some(_) => format!("{at}/inputSchema/json"),
                    None => format!("{at}/inputSchema"),
                })
        })
        .unwrap_or_default();
        (at, schema)
    }
}

/// Whether a tree's value is the `Value` a reader kept of it: members in any
/// order (a `Value`'s map compares so), numbers as serde_json reads them.
fn same(node: &Json<'_>, value: &Value) -> bool {
    match (node, value) {
        (Json::Null, Value::Null) => true,
        (Json::Bool(a), Value::Bool(b)) => a == b,
        (Json::Number(_), Value::Number(_)) => node.to_value() == *value,
        (Json::String(a), Value::String(b)) => a == b,
        (Json::Array(items), Value::Array(others)) => {
            items.len() == others.len() && items.iter().zip(others).all(|(a, b)| same(a, b))
        }
        (Json::Object(members), Value::Object(map)) => {
            members.len() == map.len()
                && members
                    .iter()
                    .all(|(key, item)| map.get(key.as_ref()).is_some_and(|other| same(item, other)))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A kept block is the tree's object whatever its members' order, and
    /// only when every member, number and nesting agrees.
    #[test]
    fn a_kept_block_is_found_by_its_members() {
        let tree = crate::json::parse(
            br#"{"a":{"type":"x","n":1.50,"l":[true,null,{"k":"v"}]},"b":{"type":"x","n":1}}"#,
        )
        .unwrap();
        let locate = Locator {
            value: &tree,
            calls: None,
            results: None,
            call_numbers: HashMap::new(),
            result_numbers: HashMap::new(),
        };
        let kept = |text: &str| locate.block(&serde_json::from_str(text).unwrap());
        assert_eq!(
            kept(r#"{"l":[true,null,{"k":"v"}],"n":1.50,"type":"x"}"#),
            "/a"
        );
        assert_eq!(kept(r#"{"type":"x","n":1}"#), "/b");
        for absent in [
            r#"{"type":"x","n":1.5,"l":[true,null,{"k":"v"}]}"#,
            r#"{"type":"x","n":1,"extra":0}"#,
            r#"{"type":"x","n":1.50,"l":[true,null,{"k":"w"}]}"#,
            r#"{"type":"y"}"#,
            r#"["type"]"#,
        ] {
            assert_eq!(kept(absent), "", "{absent}");
        }
    }
}
