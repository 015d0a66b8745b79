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

use crate::b64;
use crate::convert::ext::{says_nothing, Own};
use crate::convert::{Context, ConvertError, Form};
use crate::media::{self, MediaKind};
use crate::part::{MediaPart, Part, Source};
use crate::shapes::kit::invalid;
use crate::shapes::{Shape, WEB_IMAGE_TYPES};
use crate::transcript::{
    Arguments, Block, Extensions, Message, Opaque, Role, Tool, ToolCall, ToolChoice, ToolResult,
    Transcript,
};

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
/// turn) or a single `tool_result` block.
pub fn read(value: &Value, _context: &mut Context) -> Result<(Form, Transcript), ConvertError> {
    let mut reader = Reader::default();
    match value {
        Value::Array(messages) => {
            let mut transcript = Transcript::default();
            reader.messages(messages, "", &mut transcript)?;
            Ok((Form::Messages, transcript))
        }
        Value::Object(map) => match map.get("type").and_then(Value::as_str) {
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
#[derive(Default)]
struct Reader {
    /// Tool-call ids and names, to name the results.
    calls: Vec<(String, String)>,
}

impl Reader {
    fn request(&mut self, map: &Map<String, Value>) -> Result<Transcript, ConvertError> {
        let mut transcript = Transcript::default();
        let mut own = Own::new();
        own.keep_unknown(map, REQUEST_KEYS);
        if let Some(model) = map.get("model") {
            match model.as_str() {
                Some(model) => transcript.model = Some(model.to_string()),
                None => own.keep("model", model),
            }
        }
        if let Some(tokens) = map.get("max_tokens") {
            match tokens.is_number() {
                true => transcript.max_tokens = Some(tokens.clone()),
                false => own.keep("max_tokens", tokens),
            }
        }
        // temperature and top_p map across shapes, but the writer gives them to
        // Anthropic only when the Anthropic input had them (`$sampling`).
        let mut sampling = Vec::new();
        for key in ["temperature", "top_p"] {
            let Some(value) = map.get(key) else { continue };
            if !value.is_number() {
                own.keep(key, value);
                continue;
            }
            match key {
                "temperature" => transcript.temperature = Some(value.clone()),
                _ => transcript.top_p = Some(value.clone()),
            }
            sampling.push(Value::String(key.to_string()));
        }
        if !sampling.is_empty() {
            own.hint("sampling", Value::Array(sampling));
        }
        match map.get("stop_sequences") {
            Some(Value::Array(items)) if items.iter().all(Value::is_string) => {
                transcript.stop = Some(
                    items
                        .iter()
                        .filter_map(Value::as_str)
                        .map(str::to_string)
                        .collect(),
                );
            }
            Some(other) => own.keep("stop_sequences", other),
            None => {}
        }
        match map.get("system") {
            // An empty system is no system prompt (kept for this shape only).
            Some(system) if says_nothing(system) => own.keep("system", system),
            Some(Value::String(text)) => {
                transcript.system = Some(vec![Block::text(text.clone())]);
                if is_blank(text) {
                    own.hint("system", "string");
                }
            }
            Some(system @ Value::Array(_)) => {
                let (blocks, hint) = self.content(Some(system), "/system", true, false)?;
                if let Some(hint) = hint {
                    own.hint("system", hint);
                }
                transcript.system = Some(blocks);
            }
            Some(other) => own.keep("system", other),
            None => {}
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
        if let Some(choice) = map.get("tool_choice") {
            match read_tool_choice(choice) {
                Some((choice, extra)) => {
                    transcript.tool_choice = Some(choice);
                    for (key, value) in extra {
                        own.keep(&format!("tool_choice.{key}"), value);
                    }
                }
                None => own.keep("tool_choice", choice),
            }
        }
        match map.get("messages") {
            Some(Value::Array(messages)) => {
                self.messages(messages, "/messages", &mut transcript)?
            }
            Some(_) => return Err(invalid("/messages", "messages must be a list")),
            None => own.hint("messages", "absent"),
        }
        own.store(&mut transcript.extensions, SHAPE);
        Ok(transcript)
    }

    /// A response: its content is the assistant turn; the rest of the envelope
    /// is kept, with `null` where `content` and `model` stood.
    fn response(&mut self, map: &Map<String, Value>) -> Result<Transcript, ConvertError> {
        let mut transcript = Transcript::default();
        let mut envelope = map.clone();
        let mut message_own = Own::new();
        let content = match map.get("content") {
            Some(content) => {
                let (blocks, hint) = self.content(Some(content), "/content", false, false)?;
                if let Some(hint) = hint {
                    message_own.hint("content", hint);
                }
                blocks
            }
            None => Vec::new(),
        };
        if map.contains_key("content") {
            envelope.insert("content".into(), Value::Null);
        }
        if let Some(Value::String(model)) = map.get("model") {
            transcript.model = Some(model.clone());
            envelope.insert("model".into(), Value::Null);
        }
        let mut message = Message::new(Role::Assistant, content);
        message_own.store(&mut message.extensions, SHAPE);
        transcript.messages.push(message);
        let mut own = Own::new();
        own.hint("response", Value::Object(envelope));
        own.store(&mut transcript.extensions, SHAPE);
        Ok(transcript)
    }

    /// Reads messages into `transcript`. A user message's tool results become a
    /// canonical tool message, and its other blocks a user message after it.
    fn messages(
        &mut self,
        messages: &[Value],
        base: &str,
        transcript: &mut Transcript,
    ) -> Result<(), ConvertError> {
        for (index, message) in messages.iter().enumerate() {
            let at = format!("{base}/{index}");
            let map = message
                .as_object()
                .ok_or_else(|| invalid(&at, "a message must be an object"))?;
            let role = map
                .get("role")
                .and_then(Value::as_str)
                .ok_or_else(|| invalid(&format!("{at}/role"), "a message needs a role"))?;
            let role = match role {
                "user" => Role::User,
                "assistant" => Role::Assistant,
                "system" => Role::System,
                other => {
                    return Err(invalid(
                        &format!("{at}/role"),
                        format!("role {other:?} is not supported (user, assistant, system)"),
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
    fn content(
        &mut self,
        content: Option<&Value>,
        at: &str,
        string_default: bool,
        in_result: bool,
    ) -> Result<(Vec<Block>, Option<&'static str>), ConvertError> {
        match content {
            None => Ok((Vec::new(), Some("absent"))),
            Some(Value::String(text)) => {
                let hint = (!string_default || is_blank(text)).then_some("string");
                Ok((vec![Block::text(text.clone())], hint))
            }
            Some(Value::Array(items)) => {
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
    fn block(&mut self, value: &Value, at: &str, in_result: bool) -> Result<Block, ConvertError> {
        let map = value
            .as_object()
            .ok_or_else(|| invalid(at, "a content block must be an object"))?;
        let mut own = Own::new();
        let part = match map.get("type").and_then(Value::as_str).unwrap_or("") {
            "text" => {
                let text = map
                    .get("text")
                    .and_then(Value::as_str)
                    .ok_or_else(|| invalid(&format!("{at}/text"), "a text block needs text"))?;
                own.keep_unknown(map, &["type", "text"]);
                if is_blank(text) {
                    own.hint("blank", true);
                }
                Part::Text(text.to_string())
            }
            "image" => match read_image(map, &mut own) {
                Some(part) => part,
                None => return Ok(opaque(value)),
            },
            "document" => match read_document(map, &mut own) {
                Some(part) => part,
                None => return Ok(opaque(value)),
            },
            "tool_use" if !in_result => return self.tool_use(map, at),
            "tool_result" if !in_result => return self.tool_result(map, at).map(Block::ToolResult),
            // thinking, redacted_thinking, server tool use and results,
            // search results, container uploads, …: only Anthropic has them.
            _ => return Ok(opaque(value)),
        };
        let mut extensions = Extensions::new();
        own.store(&mut extensions, SHAPE);
        Ok(Block::Part { part, extensions })
    }

    fn tool_use(&mut self, map: &Map<String, Value>, at: &str) -> Result<Block, ConvertError> {
        let id = map
            .get("id")
            .and_then(Value::as_str)
            .ok_or_else(|| invalid(&format!("{at}/id"), "a tool_use block needs an id"))?;
        let name = map
            .get("name")
            .and_then(Value::as_str)
            .ok_or_else(|| invalid(&format!("{at}/name"), "a tool_use block needs a name"))?;
        let mut own = Own::new();
        own.keep_unknown(map, &["type", "id", "name", "input"]);
        let arguments = match map.get("input") {
            Some(input) => {
                if !input.is_object() {
                    own.hint("input", "value");
                }
                Arguments::Value(input.clone())
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

    fn tool_result(
        &mut self,
        map: &Map<String, Value>,
        at: &str,
    ) -> Result<ToolResult, ConvertError> {
        let id = map
            .get("tool_use_id")
            .and_then(Value::as_str)
            .ok_or_else(|| {
                invalid(
                    &format!("{at}/tool_use_id"),
                    "a tool_result block needs a tool_use_id",
                )
            })?;
        let mut own = Own::new();
        own.keep_unknown(map, &["type", "tool_use_id", "content", "is_error"]);
        let (content, hint) =
            self.content(map.get("content"), &format!("{at}/content"), false, true)?;
        if let Some(hint) = hint {
            own.hint("content", hint);
        }
        let is_error = match map.get("is_error") {
            Some(Value::Bool(true)) => true,
            Some(Value::Bool(false)) => {
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

fn opaque(value: &Value) -> Block {
    Block::Opaque(Opaque {
        shape: SHAPE,
        value: value.clone(),
    })
}

/// The fields of a source other than `known`, as the `$source` hint.
fn keep_source_extra(own: &mut Own, source: &Map<String, Value>, known: &[&str]) {
    let extra: Map<String, Value> = source
        .iter()
        .filter(|(key, _)| !known.contains(&key.as_str()))
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect();
    if !extra.is_empty() {
        own.hint("source", Value::Object(extra));
    }
}

/// A declared media type, normalized, with the `$media_type` hint when the
/// input spelled it another way.
fn media_type(raw: &str, own: &mut Own) -> Option<String> {
    let normalized = media::normalize(raw)?;
    if normalized != raw {
        own.hint("media_type", raw);
    }
    Some(normalized)
}

/// An image block with a base64 or URL source; `None` (kept opaque) for a
/// `file` source (an upload only Anthropic has) or anything unreadable.
fn read_image(map: &Map<String, Value>, own: &mut Own) -> Option<Part> {
    let source = map.get("source")?.as_object()?;
    let (mime_type, source_value) = match source.get("type")?.as_str()? {
        "base64" => {
            let data = source.get("data")?.as_str()?;
            let mime_type = media_type(source.get("media_type")?.as_str()?, own)?;
            if MediaKind::of(&mime_type) != MediaKind::Image {
                return None;
            }
            keep_source_extra(own, source, &["type", "media_type", "data"]);
            (mime_type, Source::Data(data.to_string()))
        }
        "url" => {
            let url = source.get("url")?.as_str()?;
            // The block declares no type: the URL's extension tells it when it
            // names a type Anthropic takes, else it is unknown (`image/*`).
            let mime_type = media::extension_of_url(url)
                .as_deref()
                .and_then(media::from_extension)
                .filter(|mime| WEB_IMAGE_TYPES.contains(mime))
                .unwrap_or("image/*")
                .to_string();
            keep_source_extra(own, source, &["type", "url"]);
            (mime_type, Source::Url(url.to_string()))
        }
        _ => return None,
    };
    own.keep_unknown(map, &["type", "source"]);
    Some(Part::Media(MediaPart {
        kind: MediaKind::Image,
        mime_type,
        source: source_value,
        name: None,
    }))
}

/// A document block: a PDF (base64 or URL) or plain text (a `text` source,
/// which becomes a text/plain file part holding the base64 of the UTF-8 text);
/// its `title` is the part's name. `None` (kept opaque) for `content` and
/// `file` sources and for base64 documents that are not PDF.
fn read_document(map: &Map<String, Value>, own: &mut Own) -> Option<Part> {
    let source = map.get("source")?.as_object()?;
    let (mime_type, source_value) = match source.get("type")?.as_str()? {
        "base64" => {
            let data = source.get("data")?.as_str()?;
            let mime_type = media_type(source.get("media_type")?.as_str()?, own)?;
            if mime_type != "application/pdf" {
                return None;
            }
            keep_source_extra(own, source, &["type", "media_type", "data"]);
            (mime_type, Source::Data(data.to_string()))
        }
        "url" => {
            let url = source.get("url")?.as_str()?;
            keep_source_extra(own, source, &["type", "url"]);
            // Anthropic reads URL documents as PDF.
            ("application/pdf".to_string(), Source::Url(url.to_string()))
        }
        "text" => {
            let text = source.get("data")?.as_str()?;
            match source.get("media_type") {
                None => own.hint("media_type", Value::Null),
                Some(raw) => {
                    if media_type(raw.as_str()?, own)? != "text/plain" {
                        return None;
                    }
                }
            }
            keep_source_extra(own, source, &["type", "media_type", "data"]);
            (
                "text/plain".to_string(),
                Source::Data(b64::encode(text.as_bytes())),
            )
        }
        // Text blocks as the document: a text/plain file of the blocks one
        // per line; their lengths bring the blocks back.
        "content" => {
            let texts: Vec<&str> = source
                .get("content")?
                .as_array()?
                .iter()
                .map(|block| {
                    let block = block.as_object()?;
                    let plain = block.len() == 2 && block.get("type")?.as_str()? == "text";
                    plain.then(|| block.get("text")?.as_str()).flatten()
                })
                .collect::<Option<_>>()?;
            if texts.is_empty() {
                return None;
            }
            keep_source_extra(own, source, &["type", "content"]);
            own.hint("content", crate::shapes::lengths_of(&texts));
            (
                "text/plain".to_string(),
                Source::Data(b64::encode(texts.join("\n").as_bytes())),
            )
        }
        _ => return None,
    };
    let name = match map.get("title") {
        Some(Value::String(title)) => Some(title.clone()),
        _ => None,
    };
    let known: &[&str] = if name.is_some() {
        &["type", "source", "title"]
    } else {
        &["type", "source"]
    };
    own.keep_unknown(map, known);
    Some(Part::Media(MediaPart {
        kind: MediaKind::File,
        mime_type,
        source: source_value,
        name,
    }))
}

fn read_tool(tool: &Value, at: &str) -> Result<Tool, ConvertError> {
    let map = tool
        .as_object()
        .ok_or_else(|| invalid(at, "a tool must be an object"))?;
    let mut own = Own::new();
    match map.get("type").and_then(Value::as_str) {
        None => {}
        Some("custom") => own.hint("type", "custom"),
        Some(_) => {
            // A server tool (web search, bash, code execution, …): kept whole.
            own.hint("tool", tool.clone());
            let mut extensions = Extensions::new();
            own.store(&mut extensions, SHAPE);
            return Ok(Tool {
                name: map
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string(),
                description: None,
                parameters: None,
                strict: None,
                extensions,
            });
        }
    }
    let name = map
        .get("name")
        .and_then(Value::as_str)
        .ok_or_else(|| invalid(&format!("{at}/name"), "a tool needs a name"))?;
    own.keep_unknown(
        map,
        &["type", "name", "description", "input_schema", "strict"],
    );
    let description = match map.get("description") {
        Some(Value::String(text)) => Some(text.clone()),
        Some(other) => {
            own.keep("description", other);
            None
        }
        None => None,
    };
    let parameters = match map.get("input_schema") {
        Some(schema @ Value::Object(_)) => Some(schema.clone()),
        Some(other) => {
            own.keep("input_schema", other);
            None
        }
        None => {
            own.hint("input_schema", "absent");
            None
        }
    };
    let strict = match map.get("strict") {
        Some(Value::Bool(strict)) => Some(*strict),
        Some(other) => {
            own.keep("strict", other);
            None
        }
        None => None,
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

/// A `tool_choice` and its fields beyond `type` and `name`
/// (`disable_parallel_tool_use`); `None` when it is not one of the four kinds.
fn read_tool_choice(choice: &Value) -> Option<(ToolChoice, Vec<(&String, &Value)>)> {
    let map = choice.as_object()?;
    let choice = match map.get("type")?.as_str()? {
        "auto" => ToolChoice::Auto,
        "any" => ToolChoice::Required,
        "none" => ToolChoice::None,
        "tool" => ToolChoice::Tool(map.get("name")?.as_str()?.to_string()),
        _ => return None,
    };
    let extra = map
        .iter()
        .filter(|(key, _)| {
            key.as_str() != "type"
                && !(key.as_str() == "name" && matches!(choice, ToolChoice::Tool(_)))
        })
        .collect();
    Some((choice, extra))
}
