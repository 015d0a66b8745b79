//! Reading OpenAI Responses documents into the canonical model.
//!
//! Four forms: a request body (`input` with `instructions`, tools and
//! parameters), a bare list of input items, a response object (its `output`
//! items read as one assistant turn) and a single `function_call_output` item.
//!
//! Items map to canonical messages this way: a `message` item (or an
//! EasyInputMessage) of role user is a user message; system and developer at the
//! start of the list are the system prompt, elsewhere system messages; assistant
//! messages, `function_call` items and the items only Responses has (reasoning,
//! web_search_call, item_reference, …, kept as opaque blocks; an
//! `image_generation_call` holding its image is an image block, see
//! [`image`]) that follow one another form ONE assistant turn; consecutive `function_call_output` items
//! (and other `*_output` items) form one tool message. How a turn splits back
//! into items is the `$items` hint of the assistant message (see
//! [`super::write`]), stored only when the default split would differ.

use serde_json::{Map, Value};

use super::{is_tool_output_item, Entry, SHAPE};
use crate::contract::ext::Own;
use crate::contract::{Context, ConvertError, Form};
use crate::json::{Node, Object, View};
use crate::shapes::kit::{invalid, opaque};
use crate::transcript::{Block, Message, Role, ToolCall, Transcript};

mod content;
mod image;
mod request;

use content::{into_map, quiet, read_call, read_content, read_output};
use image::read_image_call;
use request::{read_request, read_response};

/// The request keys the model has a place for; every other key is kept.
const REQUEST_KEYS: &[&str] = &[
    "model",
    "instructions",
    "input",
    "tools",
    "tool_choice",
    "max_output_tokens",
    "temperature",
    "top_p",
];

/// Reads a request body, a bare item list, a response object (as one assistant
/// turn) or a single `function_call_output` item, from a `Value` or the
/// borrowed tree.
pub fn read<N: Node>(value: &N, context: &mut Context) -> Result<(Form, Transcript), ConvertError> {
    match value.view() {
        View::Array(items) => {
            let mut transcript = Transcript::default();
            let mut own = Own::new();
            Items::new(&mut transcript, &mut own, context, true).read_list(items, "")?;
            own.store(&mut transcript.extensions, SHAPE);
            Ok((Form::Messages, transcript))
        }
        View::Object(map)
            if map.get("type").and_then(Node::as_str) == Some("function_call_output") =>
        {
            let mut transcript = Transcript::default();
            let mut own = Own::new();
            let mut items = Items::new(&mut transcript, &mut own, context, false);
            items.read_item(value, "", false)?;
            items.finish();
            own.store(&mut transcript.extensions, SHAPE);
            Ok((Form::ToolResult, transcript))
        }
        View::Object(map) if map.get("object").and_then(Node::as_str) == Some("response") => {
            read_response(map, context)
        }
        View::Object(map) => read_request(map, context).map(|t| (Form::Request, t)),
        _ => Err(invalid(
            "",
            "an OpenAI Responses document is an object or a list of input items",
        )),
    }
}

/// Where content stands: which text part type is the default there, and
/// whether `detail` on an image is optional.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    /// User, system and developer messages: `input_text`, `detail` required.
    Input,
    /// Assistant messages: `output_text`.
    Output,
    /// `function_call_output` arrays: `input_text`, `detail` optional.
    ToolOutput,
}

/// What the last message continues with.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Open {
    Nothing,
    /// An assistant turn (message, function_call and output-only items).
    Assistant,
    /// A tool message (function_call_output and other `*_output` items).
    Tool,
}

/// Reads input items into a transcript, grouping them into canonical messages.
struct Items<'a> {
    transcript: &'a mut Transcript,
    own: &'a mut Own,
    context: &'a mut Context,
    /// Whether a system or developer message at index 0 is the system prompt.
    system_at_start: bool,
    open: Open,
    /// How the open assistant turn's items split its blocks.
    entries: Vec<(Entry, Map<String, Value>)>,
    /// Call id → tool name, for naming results.
    call_names: Vec<(String, String)>,
}

impl<'a> Items<'a> {
    fn new(
        transcript: &'a mut Transcript,
        own: &'a mut Own,
        context: &'a mut Context,
        system_at_start: bool,
    ) -> Items<'a> {
        Items {
            transcript,
            own,
            context,
            system_at_start,
            open: Open::Nothing,
            entries: Vec::new(),
            call_names: Vec::new(),
        }
    }

    fn read_list<N: Node>(mut self, items: &[N], base: &str) -> Result<(), ConvertError> {
        for (index, item) in items.iter().enumerate() {
            self.read_item(item, &format!("{base}/{index}"), index == 0)?;
        }
        self.finish();
        Ok(())
    }

    /// Closes the open assistant turn: its `$items` hint, when the default
    /// split of its blocks would not give the same items back.
    fn close(&mut self) {
        if self.open == Open::Assistant {
            let entries = std::mem::take(&mut self.entries);
            let message = self
                .transcript
                .messages
                .last_mut()
                .expect("an open turn has a message");
            let plain = entries.iter().all(|(_, own)| own.is_empty())
                && super::default_layout(&message.content)
                    == entries.iter().map(|(e, _)| *e).collect::<Vec<_>>();
            if !plain {
                let hint: Vec<Value> = entries
                    .into_iter()
                    .map(|(entry, mut own)| match entry {
                        Entry::Message(n) => {
                            own.insert("$blocks".into(), Value::from(n));
                            Value::Object(own)
                        }
                        Entry::Call => Value::String("function_call".into()),
                        Entry::Item => Value::String("item".into()),
                        Entry::Image => Value::String(super::image_call::KIND.into()),
                    })
                    .collect();
                let mut own = Own::new();
                own.hint("items", Value::Array(hint));
                own.store(&mut message.extensions, SHAPE);
            }
        }
        self.open = Open::Nothing;
    }

    fn finish(mut self) {
        self.close();
    }

    /// The message an item of kind `open` joins: the last one when it is of
    /// that kind, else a new one.
    fn join(&mut self, open: Open) -> &mut Message {
        if self.open != open {
            self.close();
            let role = match open {
                Open::Tool => Role::Tool,
                _ => Role::Assistant,
            };
            self.transcript
                .messages
                .push(Message::new(role, Vec::new()));
            self.open = open;
        }
        self.transcript
            .messages
            .last_mut()
            .expect("joined a message")
    }

    fn read_item<N: Node>(&mut self, item: &N, at: &str, first: bool) -> Result<(), ConvertError> {
        let map = crate::shapes::kit::object_at(item, at, "an input item must be an object")?;
        let kind = match map.get("type").map(Node::view) {
            None => None,
            Some(View::String(kind)) => Some(kind),
            Some(_) => return Err(invalid(&format!("{at}/type"), "type must be a string")),
        };
        match kind {
            None | Some("message") => {
                if !map.contains_key("role") {
                    return Err(invalid(at, "an input item needs a type or a role"));
                }
                self.read_message(map, at, first)
            }
            Some("function_call") => {
                let block = read_call(map, at, self.context)?;
                if let Block::ToolCall(ToolCall {
                    id: Some(id), name, ..
                }) = &block
                {
                    self.call_names.push((id.clone(), name.clone()));
                }
                self.join(Open::Assistant).content.push(block);
                self.entries.push((Entry::Call, Map::new()));
                Ok(())
            }
            Some("function_call_output") => {
                let result = read_output(map, at, &self.call_names, self.context.lending())?;
                self.join(Open::Tool)
                    .content
                    .push(Block::ToolResult(result));
                Ok(())
            }
            Some(kind) => {
                // An image the built-in tool made: an assistant image.
                let image = match kind {
                    super::image_call::KIND => read_image_call(map),
                    _ => None,
                };
                if let Some(block) = image {
                    self.join(Open::Assistant).content.push(block);
                    self.entries.push((Entry::Image, Map::new()));
                    return Ok(());
                }
                // An item only Responses has: kept in place.
                let block = opaque(SHAPE, item);
                if is_tool_output_item(kind) {
                    self.join(Open::Tool).content.push(block);
                } else {
                    self.join(Open::Assistant).content.push(block);
                    self.entries.push((Entry::Item, Map::new()));
                }
                Ok(())
            }
        }
    }

    fn read_message<O: Object>(
        &mut self,
        map: &O,
        at: &str,
        first: bool,
    ) -> Result<(), ConvertError> {
        let role = crate::shapes::kit::required_str(map, "role", at, "role must be a string")?;
        let place = match role {
            "user" | "system" | "developer" => Place::Input,
            "assistant" => Place::Output,
            other => {
                return Err(invalid(
                    &format!("{at}/role"),
                    format!(
                        "role {other} is not supported (user, assistant, system, developer)",
                        other = crate::echo::quoted(other)
                    ),
                ))
            }
        };
        let mut own = Own::new();
        if !map.contains_key("type") {
            own.hint("type", "absent");
        }
        quiet(&mut own, map, &["id", "status"]);
        own.keep_unknown(map, &["type", "role", "content", "id", "status"]);
        let content = read_content(map, at, place, &mut own, self.context.lending())?;
        match role {
            "assistant" => {
                let n = content.len();
                self.join(Open::Assistant).content.extend(content);
                self.entries.push((Entry::Message(n), into_map(own)));
            }
            "user" => {
                self.close();
                let mut message = Message::new(Role::User, content);
                own.store(&mut message.extensions, SHAPE);
                self.transcript.messages.push(message);
            }
            _ => {
                self.close();
                if role == "developer" {
                    own.hint("role", "developer");
                }
                if first && self.system_at_start && self.transcript.system.is_none() {
                    self.transcript.system = Some(content);
                    self.own.hint("system", Value::Object(into_map(own)));
                } else {
                    let mut message = Message::new(Role::System, content);
                    own.store(&mut message.extensions, SHAPE);
                    self.transcript.messages.push(message);
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::shapes::tree_tests::cases_read_alike;
    use crate::shapes::Shape;

    /// Documents this reader refuses, or reads in an unusual way, give the
    /// same transcript, notes and errors from the borrowed tree as from a
    /// `Value`.
    #[test]
    fn malformed_and_unusual_documents_read_alike() {
        let cases = [
            r#"{"input": 5}"#,
            r#"{"input": [5]}"#,
            r#"{"input": [{"content": "x"}]}"#,
            r#"{"input": [{"type": 5, "role": "user", "content": "x"}]}"#,
            r#"{"input": [{"role": "robot", "content": "x"}]}"#,
            r#"{"input": [{"role": "user", "content": null}]}"#,
            r#"{"input": [{"role": "user", "content": [{"type": "input_text"}]}]}"#,
            r#"{"input": [{"role": "user", "content": [{"type": "input_image", "image_url": "data:image/png;base64,iVBORw0KGgo=", "detail": "high"}, {"type": "input_file", "file_id": "f"}]}]}"#,
            r#"{"input": [{"type": "function_call", "name": "f", "arguments": "{"}]}"#,
            r#"{"input": [{"type": "function_call", "name": "f", "arguments": "{}", "call_id": 5}]}"#,
            r#"{"type": "function_call_output", "call_id": "c", "output": null}"#,
            r#"{"object": "response", "output": null}"#,
            r#"{"tools": [{"type": "function"}], "input": []}"#,
            r#"{"instructions": "", "tools": [{"type": "function", "name": "f", "strict": "yes", "parameters": null}, {"type": "mcp", "server_label": "s"}], "tool_choice": {"type": "function"}, "input": [{"type": "reasoning", "id": "r"}, {"type": "image_generation_call", "result": "AA==", "output_format": 5}, {"type": "mcp_call_output"}]}"#,
            r#"[{"role": "developer", "content": "d"}, {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "a", "annotations": 5, "logprobs": []}]}]"#,
        ];
        cases_read_alike(Shape::OpenaiResponses, &cases);
    }
}
