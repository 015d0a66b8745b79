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
//! web_search_call, item_reference, …, kept as opaque blocks) that follow one
//! another form ONE assistant turn; consecutive `function_call_output` items
//! (and other `*_output` items) form one tool message. How a turn splits back
//! into items is the `$items` hint of the assistant message (see
//! [`super::write`]), stored only when the default split would differ.

use serde_json::{Map, Value};

use super::{is_tool_output_item, Entry, SHAPE};
use crate::convert::ext::Own;
use crate::convert::{Context, ConvertError, Form};
use crate::dataurl;
use crate::media::MediaKind;
use crate::part::Part;
use crate::shapes::kit::invalid;
use crate::shapes::openai_chat::parse_arguments;
use crate::shapes::openai_chat::{media_from_raw, media_from_url};
use crate::transcript::{
    Block, Extensions, Message, Opaque, Role, Tool, ToolCall, ToolChoice, ToolResult, Transcript,
};

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
/// turn) or a single `function_call_output` item.
pub fn read(value: &Value, context: &mut Context) -> Result<(Form, Transcript), ConvertError> {
    match value {
        Value::Array(items) => {
            let mut transcript = Transcript::default();
            let mut own = Own::new();
            Items::new(&mut transcript, &mut own, context, true).read_list(items, "")?;
            own.store(&mut transcript.extensions, SHAPE);
            Ok((Form::Messages, transcript))
        }
        Value::Object(map)
            if map.get("type").and_then(Value::as_str) == Some("function_call_output") =>
        {
            let mut transcript = Transcript::default();
            let mut own = Own::new();
            let mut items = Items::new(&mut transcript, &mut own, context, false);
            items.read_item(value, "", false)?;
            items.finish();
            own.store(&mut transcript.extensions, SHAPE);
            Ok((Form::ToolResult, transcript))
        }
        Value::Object(map) if map.get("object").and_then(Value::as_str) == Some("response") => {
            read_response(map, context)
        }
        Value::Object(map) => read_request(map, context).map(|t| (Form::Request, t)),
        _ => Err(invalid(
            "",
            "an OpenAI Responses document is an object or a list of input items",
        )),
    }
}

/// Puts a number into the model, or keeps a value that is not one (`null`).
fn number_or_keep(map: &Map<String, Value>, key: &str, slot: &mut Option<Value>, own: &mut Own) {
    match map.get(key) {
        Some(value) if value.is_number() => *slot = Some(value.clone()),
        Some(other) => own.keep(key, other),
        None => {}
    }
}

fn read_request(
    map: &Map<String, Value>,
    context: &mut Context,
) -> Result<Transcript, ConvertError> {
    let mut transcript = Transcript::default();
    let mut own = Own::new();
    own.keep_unknown(map, REQUEST_KEYS);
    match map.get("model") {
        Some(Value::String(model)) => transcript.model = Some(model.clone()),
        Some(other) => own.keep("model", other),
        None => {}
    }
    match map.get("instructions") {
        // Empty instructions are no system prompt (kept for this shape only).
        Some(Value::String(text)) if text.is_empty() => {
            own.keep("instructions", &map["instructions"])
        }
        Some(Value::String(text)) => transcript.system = Some(vec![Block::text(text.clone())]),
        Some(other) => own.keep("instructions", other),
        None => {}
    }
    number_or_keep(
        map,
        "max_output_tokens",
        &mut transcript.max_tokens,
        &mut own,
    );
    number_or_keep(map, "temperature", &mut transcript.temperature, &mut own);
    number_or_keep(map, "top_p", &mut transcript.top_p, &mut own);
    if let Some(choice) = map.get("tool_choice") {
        match read_tool_choice(choice) {
            Some(choice) => transcript.tool_choice = Some(choice),
            None => own.keep("tool_choice", choice),
        }
    }
    if let Some(tools) = map.get("tools") {
        let items = tools
            .as_array()
            .ok_or_else(|| invalid("/tools", "tools must be a list"))?;
        transcript.tools = Some(
            items
                .iter()
                .enumerate()
                .map(|(i, tool)| read_tool(tool, &format!("/tools/{i}")))
                .collect::<Result<_, _>>()?,
        );
    }
    match map.get("input") {
        None => own.hint("input", "absent"),
        Some(Value::String(text)) => {
            own.hint("input", "string");
            transcript
                .messages
                .push(Message::new(Role::User, vec![Block::text(text.clone())]));
        }
        Some(Value::Array(items)) => {
            Items::new(&mut transcript, &mut own, context, true).read_list(items, "/input")?
        }
        Some(_) => {
            return Err(invalid(
                "/input",
                "input must be a string or a list of input items",
            ))
        }
    }
    own.store(&mut transcript.extensions, SHAPE);
    Ok(transcript)
}

/// A response object: its output items are the assistant turn; the rest of the
/// envelope (id, status, usage, …) is kept for writing a response again.
fn read_response(
    map: &Map<String, Value>,
    context: &mut Context,
) -> Result<(Form, Transcript), ConvertError> {
    let output = map
        .get("output")
        .and_then(Value::as_array)
        .ok_or_else(|| invalid("/output", "a response needs an output list"))?;
    let mut transcript = Transcript::default();
    let mut own = Own::new();
    Items::new(&mut transcript, &mut own, context, false).read_list(output, "/output")?;
    let mut envelope = map.clone();
    if let Some(Value::String(model)) = map.get("model") {
        transcript.model = Some(model.clone());
        envelope.remove("model");
    }
    envelope.remove("output");
    own.hint("response", Value::Object(envelope));
    own.store(&mut transcript.extensions, SHAPE);
    Ok((Form::Response, transcript))
}

fn read_tool_choice(choice: &Value) -> Option<ToolChoice> {
    match choice {
        Value::String(s) if s == "auto" => Some(ToolChoice::Auto),
        Value::String(s) if s == "none" => Some(ToolChoice::None),
        Value::String(s) if s == "required" => Some(ToolChoice::Required),
        Value::Object(map)
            if map.len() == 2 && map.get("type").and_then(Value::as_str) == Some("function") =>
        {
            Some(ToolChoice::Tool(map.get("name")?.as_str()?.to_string()))
        }
        _ => None,
    }
}

/// A flat function tool, or another kind of tool (web_search, file_search, mcp,
/// custom, …) kept whole for this shape as the `$tool` hint.
fn read_tool(tool: &Value, at: &str) -> Result<Tool, ConvertError> {
    let map = tool
        .as_object()
        .ok_or_else(|| invalid(at, "a tool must be an object"))?;
    let mut own = Own::new();
    if map.get("type").and_then(Value::as_str) != Some("function") {
        let name = ["name", "server_label"]
            .iter()
            .find_map(|key| map.get(*key).and_then(Value::as_str))
            .unwrap_or("")
            .to_string();
        own.hint("tool", tool.clone());
        let mut extensions = Extensions::new();
        own.store(&mut extensions, SHAPE);
        return Ok(Tool {
            name,
            description: None,
            parameters: None,
            strict: None,
            extensions,
        });
    }
    let name = map
        .get("name")
        .and_then(Value::as_str)
        .ok_or_else(|| invalid(&format!("{at}/name"), "a function tool needs a name"))?;
    own.keep_unknown(
        map,
        &["type", "name", "description", "parameters", "strict"],
    );
    let description = match map.get("description") {
        Some(Value::String(text)) => Some(text.clone()),
        Some(other) => {
            own.keep("description", other);
            None
        }
        None => None,
    };
    let parameters = match map.get("parameters") {
        None => {
            own.hint("parameters", "absent");
            None
        }
        Some(Value::Null) => None,
        Some(schema) => Some(schema.clone()),
    };
    // Responses function tools are strict unless they say otherwise.
    let strict = match map.get("strict") {
        Some(Value::Bool(strict)) => Some(*strict),
        None => {
            own.hint("strict", "absent");
            Some(true)
        }
        Some(other) => {
            own.keep("strict", other);
            None
        }
    };
    let mut extensions = Extensions::new();
    own.store(&mut extensions, SHAPE);
    Ok(Tool {
        name: name.to_string(),
        description,
        parameters,
        strict,
        extensions,
    })
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

    fn read_list(mut self, items: &[Value], base: &str) -> Result<(), ConvertError> {
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

    fn read_item(&mut self, item: &Value, at: &str, first: bool) -> Result<(), ConvertError> {
        let map = item
            .as_object()
            .ok_or_else(|| invalid(at, "an input item must be an object"))?;
        let kind = match map.get("type") {
            None => None,
            Some(Value::String(kind)) => Some(kind.as_str()),
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
                let result = read_output(map, at, &self.call_names)?;
                self.join(Open::Tool)
                    .content
                    .push(Block::ToolResult(result));
                Ok(())
            }
            Some(kind) => {
                // An item only Responses has: kept in place.
                let block = opaque(item);
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

    fn read_message(
        &mut self,
        map: &Map<String, Value>,
        at: &str,
        first: bool,
    ) -> Result<(), ConvertError> {
        let role = map
            .get("role")
            .and_then(Value::as_str)
            .ok_or_else(|| invalid(&format!("{at}/role"), "role must be a string"))?;
        let place = match role {
            "user" | "system" | "developer" => Place::Input,
            "assistant" => Place::Output,
            other => {
                return Err(invalid(
                    &format!("{at}/role"),
                    format!("role {other:?} is not supported (user, assistant, system, developer)"),
                ))
            }
        };
        let mut own = Own::new();
        if !map.contains_key("type") {
            own.hint("type", "absent");
        }
        quiet(&mut own, map, &["id", "status"]);
        own.keep_unknown(map, &["type", "role", "content", "id", "status"]);
        let content = read_content(map, at, place, &mut own)?;
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

/// Keeps item bookkeeping (`id`, `status`) as hints: restored for this shape,
/// and no content is lost when another shape has no place for them.
fn quiet(own: &mut Own, map: &Map<String, Value>, keys: &[&str]) {
    for key in keys {
        if let Some(value) = map.get(*key) {
            own.hint(key, value.clone());
        }
    }
}

/// Reads a message's `content`: a string (one text part, hinted) or parts.
fn read_content(
    map: &Map<String, Value>,
    at: &str,
    place: Place,
    own: &mut Own,
) -> Result<Vec<Block>, ConvertError> {
    match map.get("content") {
        Some(Value::String(text)) => {
            own.hint("content", "string");
            Ok(vec![Block::text(text.clone())])
        }
        Some(Value::Array(parts)) => {
            // The writer gives assistant history from other shapes a string;
            // a list the input had is said, so it comes back a list.
            if place == Place::Output {
                own.hint("content", "parts");
            }
            parts
                .iter()
                .enumerate()
                .map(|(i, part)| read_part(part, &format!("{at}/content/{i}"), place))
                .collect()
        }
        _ => Err(invalid(
            &format!("{at}/content"),
            "content must be a string or a list of parts",
        )),
    }
}

/// Reads one content part (of a message, or of a `function_call_output`).
fn read_part(part: &Value, at: &str, place: Place) -> Result<Block, ConvertError> {
    let map = part
        .as_object()
        .ok_or_else(|| invalid(at, "a content part must be an object"))?;
    let kind = map.get("type").and_then(Value::as_str).unwrap_or("");
    let mut own = Own::new();
    let part = match kind {
        "input_text" | "output_text" => {
            let text = map
                .get("text")
                .and_then(Value::as_str)
                .ok_or_else(|| invalid(&format!("{at}/text"), "a text part needs text"))?;
            let default = if place == Place::Output {
                "output_text"
            } else {
                "input_text"
            };
            if kind != default {
                own.hint("type", kind);
            }
            let mut known = vec!["type", "text"];
            if kind == "output_text" {
                // `annotations: []` is what partkit writes; citations are kept.
                match map.get("annotations") {
                    None => own.hint("annotations", "absent"),
                    Some(Value::Array(items)) if items.is_empty() => known.push("annotations"),
                    Some(_) => {}
                }
                if let Some(Value::Array(items)) = map.get("logprobs") {
                    if items.is_empty() {
                        own.hint("logprobs", Value::Array(Vec::new()));
                        known.push("logprobs");
                    }
                }
            }
            own.keep_unknown(map, &known);
            Part::Text(text.to_string())
        }
        "input_image" => {
            let url = match (map.get("image_url"), map.contains_key("file_id")) {
                (Some(Value::String(url)), false) => url,
                // A file_id refers to an upload only this provider has.
                _ => return Ok(opaque(part)),
            };
            let mut known = vec!["type", "image_url"];
            match (map.get("detail").and_then(Value::as_str), place) {
                // `auto` is what partkit writes on message images.
                (Some("auto"), Place::Input | Place::Output) => known.push("detail"),
                (Some("auto"), Place::ToolOutput) => {
                    own.hint("detail", "auto");
                    known.push("detail");
                }
                _ => {}
            }
            own.keep_unknown(map, &known);
            media_from_url(
                url,
                MediaKind::Image,
                None,
                &format!("{at}/image_url"),
                &mut own,
            )?
        }
        "input_file" => {
            let name = map.get("filename").and_then(Value::as_str);
            let file = match (
                map.get("file_data"),
                map.get("file_url"),
                map.contains_key("file_id"),
            ) {
                (Some(Value::String(data)), None, false) => {
                    if name.is_none() {
                        own.hint("filename", "absent");
                    }
                    if dataurl::is_data_url(data) {
                        media_from_url(
                            data,
                            MediaKind::File,
                            name,
                            &format!("{at}/file_data"),
                            &mut own,
                        )?
                    } else {
                        media_from_raw(data, name, &mut own)
                    }
                }
                (None, Some(Value::String(url)), false) => media_from_url(
                    url,
                    MediaKind::File,
                    name,
                    &format!("{at}/file_url"),
                    &mut own,
                )?,
                // A file_id (or an odd mix): only this provider has it.
                _ => return Ok(opaque(part)),
            };
            own.keep_unknown(map, &["type", "file_data", "file_url", "filename"]);
            file
        }
        // refusal, and anything else: only this shape has it.
        _ => return Ok(opaque(part)),
    };
    let mut extensions = Extensions::new();
    own.store(&mut extensions, SHAPE);
    Ok(Block::Part { part, extensions })
}

/// The entries an [`Own`] holds, as a plain object.
fn into_map(own: Own) -> Map<String, Value> {
    let mut extensions = Extensions::new();
    own.store(&mut extensions, SHAPE);
    match extensions.remove(SHAPE.name()) {
        Some(Value::Object(map)) => map,
        _ => Map::new(),
    }
}

fn opaque(value: &Value) -> Block {
    Block::Opaque(Opaque {
        shape: SHAPE,
        value: value.clone(),
    })
}

/// A `function_call` item: `call_id` is the call's id; the item's own `id`
/// (`fc_…`) and `status` are kept as hints, `namespace` and other fields kept.
fn read_call(
    map: &Map<String, Value>,
    at: &str,
    context: &mut Context,
) -> Result<Block, ConvertError> {
    let name = map
        .get("name")
        .and_then(Value::as_str)
        .ok_or_else(|| invalid(&format!("{at}/name"), "a function_call needs a name"))?;
    let raw = map
        .get("arguments")
        .and_then(Value::as_str)
        .ok_or_else(|| {
            invalid(
                &format!("{at}/arguments"),
                "arguments must be a JSON string",
            )
        })?;
    let id = match map.get("call_id") {
        Some(Value::String(id)) => Some(id.clone()),
        None => None,
        Some(_) => {
            return Err(invalid(
                &format!("{at}/call_id"),
                "call_id must be a string",
            ))
        }
    };
    let mut own = Own::new();
    quiet(&mut own, map, &["id", "status"]);
    own.keep_unknown(
        map,
        &["type", "id", "call_id", "name", "arguments", "status"],
    );
    let arguments = parse_arguments(raw, &format!("{at}/arguments"), &mut own, context)?;
    let mut extensions = Extensions::new();
    own.store(&mut extensions, SHAPE);
    Ok(Block::ToolCall(ToolCall {
        id,
        name: name.to_string(),
        arguments,
        extensions,
    }))
}

/// A `function_call_output` item: `output` is a string (one text part) or a
/// list of `input_text` / `input_image` / `input_file` parts.
fn read_output(
    map: &Map<String, Value>,
    at: &str,
    call_names: &[(String, String)],
) -> Result<ToolResult, ConvertError> {
    let call_id = match map.get("call_id") {
        Some(Value::String(id)) => Some(id.clone()),
        None => None,
        Some(_) => {
            return Err(invalid(
                &format!("{at}/call_id"),
                "call_id must be a string",
            ))
        }
    };
    let mut own = Own::new();
    quiet(&mut own, map, &["id", "status"]);
    own.keep_unknown(map, &["type", "id", "call_id", "output", "status"]);
    let content = match map.get("output") {
        Some(Value::String(text)) => vec![Block::text(text.clone())],
        Some(Value::Array(parts)) => {
            // Written back as a string unless told otherwise.
            let one_text = parts.len() == 1
                && parts[0].get("type").and_then(Value::as_str) == Some("input_text");
            if parts.is_empty() || one_text {
                own.hint("output", "parts");
            }
            parts
                .iter()
                .enumerate()
                .map(|(i, part)| read_part(part, &format!("{at}/output/{i}"), Place::ToolOutput))
                .collect::<Result<_, _>>()?
        }
        _ => {
            return Err(invalid(
                &format!("{at}/output"),
                "output must be a string or a list of input_text, input_image and input_file parts",
            ))
        }
    };
    let name = call_id.as_ref().and_then(|id| {
        call_names
            .iter()
            .rev()
            .find(|(call, _)| call == id)
            .map(|(_, name)| name.clone())
    });
    let mut extensions = Extensions::new();
    own.store(&mut extensions, SHAPE);
    Ok(ToolResult {
        call_id,
        name,
        is_error: false,
        content,
        extensions,
    })
}
