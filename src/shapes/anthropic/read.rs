//! Reading Anthropic Messages documents into the canonical model.
//!
//! What the canonical model has no field for is kept in `extensions.anthropic`
//! (unknown fields verbatim, and `$` hints for the spelling the input chose), so
//! that writing Anthropic again gives back the input:
//!
//! - `$content` on a message or tool result: `"string"` (a string that the
//!   writer would not choose by itself: a blank one), `"blocks"` (one plain text
//!   block that the writer would write as a string), `"absent"` (a tool result
//!   without `content`);
//! - `$system` on the transcript: the same for the top-level `system`;
//! - `$blank` on a text part: the input had this empty or whitespace-only text
//!   block (the writer leaves such blocks out unless the input had them);
//! - `$media_type` / `$source` on a media part: the media type as spelled when
//!   it is not the normalized one (`null`: absent), and unknown source fields;
//! - `$input` on a tool call: `"absent"` or `"value"` (an input that is not an
//!   object);
//! - `$is_error` on a tool result: `false` written explicitly;
//! - `$joined` on a user message: the user message that held these blocks also
//!   held the tool results of the tool message before it (`true`: results first,
//!   or the order as a pattern of `r` for results and `c` for other blocks);
//! - `$new_message` on a tool message: it directly follows another tool message
//!   but was a user message of its own;
//! - `$sampling` on the transcript: which of `temperature` and `top_p` the input
//!   had (see the writer: Anthropic does not get them otherwise);
//! - `$tool` on a tool: a server tool (`web_search_…`, `bash_…`), kept whole;
//!   `$type`: a client tool spelled with `"type": "custom"`;
//! - `$response` on the transcript: a response's envelope (its `content` and
//!   `model` replaced by `null` placeholders, which keep their place);
//! - `tool_choice.<key>` on the transcript: extra fields of `tool_choice`
//!   (`disable_parallel_tool_use`), named so other shapes can say they dropped it.

use serde_json::{Map, Value};

use crate::contract::ext::Own;
use crate::contract::{Context, ConvertError, Form};
use crate::json::lent::Lending;
use crate::json::{Node, Object, View};
use crate::part::Part;
use crate::shapes::kit::{invalid, message_and_role, opaque};
use crate::shapes::Shape;
use crate::transcript::{
    Arguments, Block, Extensions, Message, Role, ToolCall, ToolResult, Transcript,
};

mod request;
mod sources;
mod tools;

use sources::{read_document, read_image};

const SHAPE: Shape = Shape::Anthropic;

/// The request keys the model has a place for.
const REQUEST_KEYS: &[&str] = &[
    "model",
    "system",
    "messages",
    "tools",
    "tool_choice",
    "max_tokens",
    "stop_sequences",
    "temperature",
    "top_p",
];

/// Reads a request body, a bare message list, a response (as one assistant
/// turn) or a single `tool_result` block, from a `Value` or the borrowed
/// tree.
pub fn read<N: Node>(value: &N, context: &mut Context) -> Result<(Form, Transcript), ConvertError> {
    let mut reader = Reader {
        calls: Vec::new(),
        lending: context.lending().clone(),
    };
    match value.view() {
        View::Array(messages) => {
            let mut transcript = Transcript::default();
            reader.messages(messages, "", &mut transcript)?;
            Ok((Form::Messages, transcript))
        }
        View::Object(map) => match map.get("type").and_then(Node::as_str) {
            Some("tool_result") => {
                let result = reader.tool_result(map, "")?;
                let transcript = Transcript {
                    messages: vec![Message::new(
                        Role::Tool,
                        vec![Block::ToolResult(result)],
                    )],
                    ..Transcript::default()
                };
                Ok((Form::ToolResult, transcript))
            }
            Some("message") => reader.response(map).map(|t| (Form::Response, t)),
            _ if map.contains_key("role") => Err(invalid(
                "",
                "a single Anthropic message is not a document: pass a list of messages or a request",
            )),
            _ => reader.request(map).map(|t| (Form::Request, t)),
        },
        _ => Err(invalid(
            "",
            "an Anthropic document is an object or a list of messages",
        )),
    }
}

/// Whether a text is empty or whitespace only (Anthropic refuses it as a block).
fn is_blank(text: &str) -> bool {
    text.trim().is_empty()
}

/// What the reader remembers across messages.
struct Reader {
    /// Tool-call ids and names, to name the results.
    calls: Vec<(String, String)>,
    /// What the document lends.
    lending: Lending,
}

impl Reader {
    /// Reads messages into `transcript`. A user message's tool results become a
    /// canonical tool message, and its other blocks a user message after it.
    fn messages<N: Node>(
        &mut self,
        messages: &[N],
        base: &str,
        transcript: &mut Transcript,
    ) -> Result<(), ConvertError> {
        for (index, message) in messages.iter().enumerate() {
            let at = format!("{base}/{index}");
            let (map, role) = message_and_role(message, &at)?;
            let role = match role {
                "user" => Role::User,
                "assistant" => Role::Assistant,
                "system" => Role::System,
                other => {
                    return Err(invalid(
                        &format!("{at}/role"),
                        format!(
                            "role {other} is not supported (user, assistant, system)",
                            other = crate::echo::quoted(other)
                        ),
                    ))
                }
            };
            let (blocks, hint) =
                self.content(map.get("content"), &format!("{at}/content"), true, false)?;
            let mut own = Own::new();
            own.keep_unknown(map, &["role", "content"]);
            let has_results = blocks.iter().any(|b| matches!(b, Block::ToolResult(_)));
            if role != Role::User || !has_results {
                if let Some(hint) = hint {
                    own.hint("content", hint);
                }
                let mut message = Message::new(role, blocks);
                own.store(&mut message.extensions, SHAPE);
                transcript.messages.push(message);
                continue;
            }
            // Tool results first, as a tool message; the rest after it.
            let mut results = Vec::new();
            let mut others = Vec::new();
            let mut pattern = String::new();
            for block in blocks {
                if matches!(block, Block::ToolResult(_)) {
                    results.push(block);
                    pattern.push('r');
                } else {
                    others.push(block);
                    pattern.push('c');
                }
            }
            if transcript.messages.last().map(|m| m.role) == Some(Role::Tool) {
                own.hint("new_message", true);
            }
            let mut tool = Message::new(Role::Tool, results);
            own.store(&mut tool.extensions, SHAPE);
            let results_first = format!(
                "{}{}",
                "r".repeat(tool.content.len()),
                "c".repeat(others.len())
            );
            transcript.messages.push(tool);
            if !others.is_empty() {
                let mut own = Own::new();
                if pattern == results_first {
                    own.hint("joined", true);
                } else {
                    own.hint("joined", pattern);
                }
                let mut user = Message::new(Role::User, others);
                own.store(&mut user.extensions, SHAPE);
                transcript.messages.push(user);
            }
        }
        Ok(())
    }

    /// Reads a `content` (a string, a list of blocks, or absent) and the hint
    /// the writer needs to spell it the same way. `string_default`: whether the
    /// writer writes one plain text part as a string here.
    fn content<N: Node>(
        &mut self,
        content: Option<&N>,
        at: &str,
        string_default: bool,
        in_result: bool,
    ) -> Result<(Vec<Block>, Option<&'static str>), ConvertError> {
        match content.map(Node::view) {
            None => Ok((Vec::new(), Some("absent"))),
            Some(View::String(text)) => {
                let hint = (!string_default || is_blank(text)).then_some("string");
                Ok((vec![Block::text(text.to_string())], hint))
            }
            Some(View::Array(items)) => {
                let blocks = items
                    .iter()
                    .enumerate()
                    .map(|(i, item)| self.block(item, &format!("{at}/{i}"), in_result))
                    .collect::<Result<Vec<_>, _>>()?;
                let plain_text = matches!(
                    blocks.as_slice(),
                    [Block::Part { part: Part::Text(text), extensions }]
                        if extensions.is_empty() && !is_blank(text)
                );
                let hint = (string_default && plain_text).then_some("blocks");
                Ok((blocks, hint))
            }
            Some(_) => Err(invalid(at, "content must be a string or a list of blocks")),
        }
    }

    /// Reads one content block. Inside a tool result, tool calls and results
    /// are kept opaque (they cannot be nested in the canonical model).
    fn block<N: Node>(
        &mut self,
        value: &N,
        at: &str,
        in_result: bool,
    ) -> Result<Block, ConvertError> {
        let map = crate::shapes::kit::object_at(value, at, "a content block must be an object")?;
        let mut own = Own::new();
        let part = match map.get("type").and_then(Node::as_str).unwrap_or("") {
            "text" => {
                let text =
                    crate::shapes::kit::required_str(map, "text", at, "a text block needs text")?;
                own.keep_unknown(map, &["type", "text"]);
                if is_blank(text) {
                    own.hint("blank", true);
                }
                Part::Text(text.to_string())
            }
            "image" => match read_image(map, &mut own) {
                Some(part) => part,
                None => return Ok(opaque(SHAPE, value)),
            },
            "document" => match read_document(map, &mut own, &self.lending) {
                Some(part) => part,
                None => return Ok(opaque(SHAPE, value)),
            },
            "tool_use" if !in_result => return self.tool_use(map, at),
            "tool_result" if !in_result => return self.tool_result(map, at).map(Block::ToolResult),
            // thinking, redacted_thinking, server tool use and results,
            // search results, container uploads, …: only Anthropic has them.
            _ => return Ok(opaque(SHAPE, value)),
        };
        let mut extensions = Extensions::new();
        own.store(&mut extensions, SHAPE);
        Ok(Block::Part { part, extensions })
    }

    fn tool_use<O: Object>(&mut self, map: &O, at: &str) -> Result<Block, ConvertError> {
        let id = crate::shapes::kit::required_str(map, "id", at, "a tool_use block needs an id")?;
        let name =
            crate::shapes::kit::required_str(map, "name", at, "a tool_use block needs a name")?;
        let mut own = Own::new();
        own.keep_unknown(map, &["type", "id", "name", "input"]);
        let arguments = match map.get("input") {
            Some(input) => {
                if input.as_object().is_none() {
                    own.hint("input", "value");
                }
                Arguments::Value(input.to_value())
            }
            None => {
                own.hint("input", "absent");
                Arguments::Value(Value::Object(Map::new()))
            }
        };
        self.calls.push((id.to_string(), name.to_string()));
        let mut extensions = Extensions::new();
        own.store(&mut extensions, SHAPE);
        Ok(Block::ToolCall(ToolCall {
            id: Some(id.to_string()),
            name: name.to_string(),
            arguments,
            extensions,
        }))
    }

    fn tool_result<O: Object>(&mut self, map: &O, at: &str) -> Result<ToolResult, ConvertError> {
        let id = crate::shapes::kit::required_str(
            map,
            "tool_use_id",
            at,
            "a tool_result block needs a tool_use_id",
        )?;
        let mut own = Own::new();
        own.keep_unknown(map, &["type", "tool_use_id", "content", "is_error"]);
        let (content, hint) =
            self.content(map.get("content"), &format!("{at}/content"), false, true)?;
        if let Some(hint) = hint {
            own.hint("content", hint);
        }
        let is_error = match map.get("is_error") {
            Some(flag) if flag.as_bool() == Some(true) => true,
            Some(flag) if flag.as_bool() == Some(false) => {
                own.hint("is_error", false);
                false
            }
            Some(other) => {
                own.keep("is_error", other);
                false
            }
            None => false,
        };
        let name = self
            .calls
            .iter()
            .rev()
            .find(|(call, _)| call == id)
            .map(|(_, name)| name.clone());
        let mut extensions = Extensions::new();
        own.store(&mut extensions, SHAPE);
        Ok(ToolResult {
            call_id: Some(id.to_string()),
            name,
            is_error,
            content,
            extensions,
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::shapes::tree_tests::cases_read_alike;
    use crate::shapes::Shape;

    /// Documents that fail, or take a rarely used path, read alike from the
    /// tree and from a `Value`: the same errors at the same pointers.
    #[test]
    fn malformed_anthropic_documents_fail_alike() {
        let cases = [
            r#"[5]"#,
            r#"{"role": "user", "content": "x"}"#,
            r#"{"messages": 5}"#,
            r#"{"messages": [{"content": "x"}]}"#,
            r#"{"messages": [{"role": "tool", "content": "x"}]}"#,
            r#"{"messages": [{"role": "user", "content": 5}]}"#,
            r#"{"messages": [{"role": "user", "content": [{"type": "text"}]}]}"#,
            r#"{"messages": [{"role": "assistant", "content": [{"type": "tool_use", "id": "t"}]}]}"#,
            r#"{"messages": [{"role": "user", "content": [{"type": "tool_result", "content": "x"}]}]}"#,
            r#"{"type": "tool_result", "tool_use_id": "t", "content": [{"type": "tool_use", "id": "t"}], "is_error": "yes"}"#,
            r#"{"type": "message", "model": 5, "content": null}"#,
            r#"{"tools": null, "messages": []}"#,
            r#"{"tools": [{"type": "custom", "input_schema": []}], "messages": []}"#,
            r#"{"system": null, "tool_choice": {"type": "tool"}, "messages": [{"role": "user", "content": [{"type": "thinking"}, {"type": "image", "source": {"type": "file", "file_id": "f"}}, {"type": "document", "source": {"type": "content", "content": [{"type": "text", "text": "a"}]}, "title": 5}]}]}"#,
            r#"{"system": [{"type": "text", "text": " "}], "temperature": "hot", "stop_sequences": [1], "messages": [{"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "f", "input": [1]}]}, {"role": "user", "content": [{"type": "text", "text": "x"}, {"type": "tool_result", "tool_use_id": "t", "is_error": false}]}]}"#,
        ];
        cases_read_alike(Shape::Anthropic, &cases);
    }
}
