//! Reading OpenAI Chat Completions documents into the canonical model.

use serde_json::{Map, Value};

use crate::convert::ext::Own;
use crate::convert::{Context, ConvertError, Form, OnInvalidArguments};
use crate::dataurl;
use crate::media::{self, MediaKind};
use crate::part::{MediaPart, Part, Source};
use crate::shapes::kit::invalid;
use crate::shapes::Shape;
use crate::transcript::{
    Arguments, Block, Extensions, Message, Opaque, Role, Tool, ToolCall, ToolChoice, ToolResult,
    Transcript,
};

const SHAPE: Shape = Shape::OpenaiChat;

/// The request keys the model has a place for.
const REQUEST_KEYS: &[&str] = &[
    "model",
    "messages",
    "tools",
    "tool_choice",
    "max_tokens",
    "max_completion_tokens",
    "temperature",
    "top_p",
    "stop",
];

/// Reads a request body, a bare message list, a chat completion (as one
/// assistant turn) or a single `tool` message.
pub fn read(value: &Value, context: &mut Context) -> Result<(Form, Transcript), ConvertError> {
    match value {
        Value::Array(messages) => {
            let mut transcript = Transcript::default();
            let mut own = Own::new();
            read_messages(messages, "", &mut transcript, &mut own, context)?;
            own.store(&mut transcript.extensions, SHAPE);
            Ok((Form::Messages, transcript))
        }
        Value::Object(map) if map.get("role").and_then(Value::as_str) == Some("tool") => {
            let mut transcript = Transcript::default();
            let mut own = Own::new();
            read_messages(
                std::slice::from_ref(value),
                "",
                &mut transcript,
                &mut own,
                context,
            )?;
            own.store(&mut transcript.extensions, SHAPE);
            // Only the position of the message is meaningful here.
            Ok((Form::ToolResult, transcript))
        }
        Value::Object(map) if map.contains_key("choices") => read_response(map, context),
        Value::Object(map) => read_request(map, context).map(|t| (Form::Request, t)),
        _ => Err(invalid(
            "",
            "an OpenAI Chat document is an object or a list of messages",
        )),
    }
}

fn read_request(
    map: &Map<String, Value>,
    context: &mut Context,
) -> Result<Transcript, ConvertError> {
    let mut transcript = Transcript::default();
    let mut own = Own::new();
    own.keep_unknown(map, REQUEST_KEYS);
    if let Some(model) = map.get("model") {
        match model.as_str() {
            Some(model) => transcript.model = Some(model.to_string()),
            None => own.keep("model", model),
        }
    }
    // `max_completion_tokens` is the current field (reasoning models refuse
    // `max_tokens`); a body that used the old one gets it back.
    if let Some(tokens) = map.get("max_completion_tokens") {
        transcript.max_tokens = Some(tokens.clone());
        if let Some(old) = map.get("max_tokens") {
            own.keep("max_tokens", old);
        }
    } else if let Some(tokens) = map.get("max_tokens") {
        transcript.max_tokens = Some(tokens.clone());
        own.hint("max_tokens", "max_tokens");
    }
    transcript.temperature = map.get("temperature").cloned();
    transcript.top_p = map.get("top_p").cloned();
    match map.get("stop") {
        Some(Value::String(stop)) => {
            transcript.stop = Some(vec![stop.clone()]);
            own.hint("stop", "string");
        }
        Some(Value::Array(items)) if items.iter().all(Value::is_string) => {
            transcript.stop = Some(
                items
                    .iter()
                    .filter_map(Value::as_str)
                    .map(str::to_string)
                    .collect(),
            );
        }
        Some(other) => own.keep("stop", other),
        None => {}
    }
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
    let messages = map
        .get("messages")
        .map(|m| {
            m.as_array()
                .ok_or_else(|| invalid("/messages", "messages must be a list"))
        })
        .transpose()?;
    if let Some(messages) = messages {
        read_messages(messages, "/messages", &mut transcript, &mut own, context)?;
    } else {
        own.hint("messages", "absent");
    }
    own.store(&mut transcript.extensions, SHAPE);
    Ok(transcript)
}

/// A chat completion: its first choice's message is the assistant turn; the
/// rest of the envelope is kept for writing a completion again.
fn read_response(
    map: &Map<String, Value>,
    context: &mut Context,
) -> Result<(Form, Transcript), ConvertError> {
    let message = map
        .get("choices")
        .and_then(Value::as_array)
        .and_then(|choices| choices.first())
        .and_then(|choice| choice.get("message"))
        .ok_or_else(|| {
            invalid(
                "/choices/0/message",
                "a chat completion needs choices[0].message",
            )
        })?;
    let mut transcript = Transcript::default();
    let mut own = Own::new();
    read_messages(
        std::slice::from_ref(message),
        "/choices/0/message",
        &mut transcript,
        &mut own,
        context,
    )?;
    if let Some(model) = map.get("model").and_then(Value::as_str) {
        transcript.model = Some(model.to_string());
    }
    let mut envelope = map.clone();
    envelope.remove("model");
    if let Some(Value::Array(choices)) = envelope.get_mut("choices") {
        if let Some(Value::Object(choice)) = choices.first_mut() {
            choice.remove("message");
        }
    }
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
            let function = map.get("function")?.as_object()?;
            if function.len() != 1 {
                return None;
            }
            Some(ToolChoice::Tool(
                function.get("name")?.as_str()?.to_string(),
            ))
        }
        _ => None,
    }
}

fn read_tool(tool: &Value, at: &str) -> Result<Tool, ConvertError> {
    let map = tool
        .as_object()
        .ok_or_else(|| invalid(at, "a tool must be an object"))?;
    let function = match (map.get("type").and_then(Value::as_str), map.get("function")) {
        (Some("function"), Some(Value::Object(function))) if map.len() == 2 => function,
        _ => {
            // Another kind of tool (custom, …): kept whole for this shape.
            let name = map
                .get("custom")
                .and_then(|c| c.get("name"))
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            let mut extensions = Extensions::new();
            let mut own = Own::new();
            own.hint("tool", tool.clone());
            own.store(&mut extensions, SHAPE);
            return Ok(Tool {
                name,
                description: None,
                parameters: None,
                strict: None,
                extensions,
            });
        }
    };
    let name = function
        .get("name")
        .and_then(Value::as_str)
        .ok_or_else(|| {
            invalid(
                &format!("{at}/function/name"),
                "a function tool needs a name",
            )
        })?;
    let mut own = Own::new();
    own.keep_unknown(function, &["name", "description", "parameters", "strict"]);
    let strict = match function.get("strict") {
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
        description: function
            .get("description")
            .and_then(Value::as_str)
            .map(str::to_string),
        parameters: function.get("parameters").cloned().filter(|p| !p.is_null()),
        strict,
        extensions,
    })
}

/// Reads the messages of a conversation into `transcript`. A leading system or
/// developer message becomes the system prompt; consecutive tool messages become
/// one canonical tool message.
fn read_messages(
    messages: &[Value],
    base: &str,
    transcript: &mut Transcript,
    own: &mut Own,
    context: &mut Context,
) -> Result<(), ConvertError> {
    let mut call_names: Vec<(String, String)> = Vec::new();
    for (index, message) in messages.iter().enumerate() {
        let at = format!("{base}/{index}");
        let map = message
            .as_object()
            .ok_or_else(|| invalid(&at, "a message must be an object"))?;
        let role = map
            .get("role")
            .and_then(Value::as_str)
            .ok_or_else(|| invalid(&format!("{at}/role"), "a message needs a role"))?;
        match role {
            "system" | "developer" => {
                let (content, mut mine) = read_content(map, &at, Place::System, context)?;
                mine.keep_unknown(map, &["role", "content"]);
                if role == "developer" {
                    mine.hint("role", "developer");
                }
                if index == 0 && transcript.system.is_none() {
                    transcript.system = Some(content);
                    let mut extensions = Extensions::new();
                    mine.store(&mut extensions, SHAPE);
                    if let Some(Value::Object(fields)) = extensions.remove(SHAPE.name()) {
                        own.hint("system", Value::Object(fields));
                    }
                } else {
                    let mut message = Message::new(Role::System, content);
                    mine.store(&mut message.extensions, SHAPE);
                    transcript.messages.push(message);
                }
            }
            "user" => {
                let (content, mut mine) = read_content(map, &at, Place::User, context)?;
                mine.keep_unknown(map, &["role", "content"]);
                let mut message = Message::new(Role::User, content);
                mine.store(&mut message.extensions, SHAPE);
                transcript.messages.push(message);
            }
            "assistant" => {
                let message = read_assistant(map, &at, &mut call_names, context)?;
                transcript.messages.push(message);
            }
            "tool" => {
                let result = read_tool_message(map, &at, &call_names, context)?;
                match transcript.messages.last_mut() {
                    Some(last) if last.role == Role::Tool => {
                        last.content.push(Block::ToolResult(result))
                    }
                    _ => transcript
                        .messages
                        .push(Message::new(Role::Tool, vec![Block::ToolResult(result)])),
                }
            }
            other => {
                return Err(invalid(
                    &format!("{at}/role"),
                    format!(
                    "role {other:?} is not supported (system, developer, user, assistant, tool)"
                ),
                ))
            }
        }
    }
    Ok(())
}

/// Where content stands, for which parts are expected.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    System,
    User,
    Assistant,
    Tool,
}

/// Reads a message's `content` (string, list of parts, null or absent), with
/// the form it had as a hint.
fn read_content(
    map: &Map<String, Value>,
    at: &str,
    place: Place,
    context: &mut Context,
) -> Result<(Vec<Block>, Own), ConvertError> {
    let mut own = Own::new();
    let blocks = match map.get("content") {
        None => {
            own.hint("content", "absent");
            Vec::new()
        }
        Some(Value::Null) => {
            own.hint("content", "null");
            Vec::new()
        }
        Some(Value::String(text)) => {
            own.hint("content", "string");
            if text.is_empty() && place == Place::Assistant {
                own.hint("content", "empty");
                Vec::new()
            } else {
                vec![Block::text(text.clone())]
            }
        }
        Some(Value::Array(parts)) => {
            if parts.len() == 1 && parts[0].get("type").and_then(Value::as_str) == Some("text") {
                // One text part would be written back as a string.
                own.hint("content", "parts");
            }
            parts
                .iter()
                .enumerate()
                .map(|(i, part)| read_part(part, &format!("{at}/content/{i}"), place, context))
                .collect::<Result<_, _>>()?
        }
        Some(_) => {
            return Err(invalid(
                &format!("{at}/content"),
                "content must be a string, a list of parts or null",
            ))
        }
    };
    Ok((blocks, own))
}

/// Reads one content part.
fn read_part(
    part: &Value,
    at: &str,
    place: Place,
    context: &mut Context,
) -> Result<Block, ConvertError> {
    let _ = (place, &context);
    let map = part
        .as_object()
        .ok_or_else(|| invalid(at, "a content part must be an object"))?;
    let kind = map.get("type").and_then(Value::as_str).unwrap_or("");
    let mut own = Own::new();
    let part = match kind {
        "text" => {
            let text = map
                .get("text")
                .and_then(Value::as_str)
                .ok_or_else(|| invalid(&format!("{at}/text"), "a text part needs text"))?;
            own.keep_unknown(map, &["type", "text"]);
            Part::Text(text.to_string())
        }
        "image_url" => {
            let image = map.get("image_url");
            let (url, inner) = match image {
                Some(Value::Object(inner)) => {
                    (inner.get("url").and_then(Value::as_str), Some(inner))
                }
                Some(Value::String(url)) => {
                    own.hint("image_url", "string");
                    (Some(url.as_str()), None)
                }
                _ => (None, None),
            };
            let url = url.ok_or_else(|| {
                invalid(
                    &format!("{at}/image_url/url"),
                    "an image_url part needs a url",
                )
            })?;
            own.keep_unknown(map, &["type", "image_url"]);
            if let Some(inner) = inner {
                keep_inner(&mut own, inner, &["url"]);
            }
            media_from_url(
                url,
                MediaKind::Image,
                None,
                &format!("{at}/image_url/url"),
                &mut own,
            )?
        }
        "input_audio" => {
            let audio = map
                .get("input_audio")
                .and_then(Value::as_object)
                .ok_or_else(|| {
                    invalid(
                        &format!("{at}/input_audio"),
                        "an input_audio part needs input_audio",
                    )
                })?;
            let data = audio.get("data").and_then(Value::as_str).ok_or_else(|| {
                invalid(&format!("{at}/input_audio/data"), "input_audio needs data")
            })?;
            let format = audio.get("format").and_then(Value::as_str).unwrap_or("");
            let mime_type = match format {
                "wav" => "audio/wav".to_string(),
                "mp3" => "audio/mpeg".to_string(),
                other => {
                    return Err(invalid(
                        &format!("{at}/input_audio/format"),
                        format!("input_audio format {other:?} is not wav or mp3"),
                    ))
                }
            };
            own.keep_unknown(map, &["type", "input_audio"]);
            keep_inner(&mut own, audio, &["data", "format"]);
            Part::Media(MediaPart {
                kind: MediaKind::Audio,
                mime_type,
                source: Source::Data(data.to_string()),
                name: None,
            })
        }
        "file" => {
            let file = map.get("file").and_then(Value::as_object);
            match file
                .and_then(|f| f.get("file_data"))
                .and_then(Value::as_str)
            {
                Some(data) => {
                    let file = file.expect("checked above");
                    own.keep_unknown(map, &["type", "file"]);
                    keep_inner(&mut own, file, &["file_data", "filename"]);
                    let name = file.get("filename").and_then(Value::as_str);
                    if name.is_none() {
                        own.hint("filename", "absent");
                    }
                    if dataurl::is_data_url(data) {
                        media_from_url(
                            data,
                            MediaKind::File,
                            name,
                            &format!("{at}/file/file_data"),
                            &mut own,
                        )?
                    } else {
                        media_from_raw(data, name, &mut own)
                    }
                }
                // A file_id refers to an upload only this provider has.
                None => return Ok(opaque(part)),
            }
        }
        _ => return Ok(opaque(part)),
    };
    let mut extensions = Extensions::new();
    own.store(&mut extensions, SHAPE);
    Ok(Block::Part { part, extensions })
}

/// Keeps the unknown fields of a part's inner object (`image_url`, `file`, a
/// call's `function`) as the `$inner` hint, apart from the outer object's.
fn keep_inner(own: &mut Own, inner: &Map<String, Value>, known: &[&str]) {
    let extra: Map<String, Value> = inner
        .iter()
        .filter(|(key, _)| !known.contains(&key.as_str()))
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect();
    if !extra.is_empty() {
        own.hint("inner", Value::Object(extra));
    }
}

fn opaque(value: &Value) -> Block {
    Block::Opaque(Opaque {
        shape: SHAPE,
        value: value.clone(),
    })
}

/// A media part from a data URL or a plain URL. A data URL's header is kept as a
/// hint when writing `data:<type>;base64,` would not give it back (parameters,
/// an alias); a data URL that is not base64 stays a URL.
pub(crate) fn media_from_url(
    url: &str,
    kind: MediaKind,
    name: Option<&str>,
    at: &str,
    own: &mut Own,
) -> Result<Part, ConvertError> {
    if dataurl::is_data_url(url) {
        let parsed = dataurl::parse(url).map_err(|e| invalid(at, e.to_string()))?;
        if let (true, Some(mime_type)) = (parsed.base64, parsed.media_type.clone()) {
            let header = &url[..url.len() - parsed.payload.len() - 1];
            if header != format!("data:{mime_type};base64") {
                own.hint("data_url", header);
            }
            return Ok(Part::Media(MediaPart {
                kind,
                mime_type,
                source: Source::Data(parsed.payload.to_string()),
                name: name.map(str::to_string),
            }));
        }
        let mime_type = parsed
            .media_type
            .unwrap_or_else(|| "text/plain".to_string());
        return Ok(Part::Media(MediaPart {
            kind,
            mime_type,
            source: Source::Url(url.to_string()),
            name: name.map(str::to_string),
        }));
    }
    let mime_type = media::extension_of_url(url)
        .as_deref()
        .and_then(media::from_extension)
        .map(str::to_string)
        .unwrap_or_else(|| unknown_type(kind));
    Ok(Part::Media(MediaPart {
        kind,
        mime_type,
        source: Source::Url(url.to_string()),
        name: name.map(str::to_string),
    }))
}

/// The media type of media whose type nothing tells: the kind's wildcard.
pub fn unknown_type(kind: MediaKind) -> String {
    match kind {
        MediaKind::Image => "image/*".to_string(),
        MediaKind::Audio => "audio/*".to_string(),
        MediaKind::File => "application/octet-stream".to_string(),
    }
}

/// A file part whose `file_data` is raw base64 (the SDK's docstring allows it):
/// typed by sniffing, else by the filename's extension.
pub(crate) fn media_from_raw(data: &str, name: Option<&str>, own: &mut Own) -> Part {
    own.hint("file_data", "raw");
    let sniffed = crate::b64::decode_strict(data)
        .ok()
        .and_then(|bytes| media::sniff(&bytes));
    let mime_type = sniffed
        .or_else(|| {
            name.and_then(media::extension_of_name)
                .as_deref()
                .and_then(media::from_extension)
                .map(str::to_string)
        })
        .unwrap_or_else(|| unknown_type(MediaKind::File));
    Part::Media(MediaPart {
        kind: MediaKind::File,
        mime_type,
        source: Source::Data(data.to_string()),
        name: name.map(str::to_string),
    })
}

fn read_assistant(
    map: &Map<String, Value>,
    at: &str,
    call_names: &mut Vec<(String, String)>,
    context: &mut Context,
) -> Result<Message, ConvertError> {
    let (mut content, mut own) = read_content(map, at, Place::Assistant, context)?;
    own.keep_unknown(map, &["role", "content", "tool_calls"]);
    if let Some(calls) = map.get("tool_calls") {
        let calls = calls
            .as_array()
            .ok_or_else(|| invalid(&format!("{at}/tool_calls"), "tool_calls must be a list"))?;
        if calls.is_empty() {
            own.hint("tool_calls", "empty");
        }
        for (index, call) in calls.iter().enumerate() {
            let here = format!("{at}/tool_calls/{index}");
            let block = read_call(call, &here, context)?;
            if let Block::ToolCall(call) = &block {
                if let Some(id) = &call.id {
                    call_names.push((id.clone(), call.name.clone()));
                }
            }
            content.push(block);
        }
    }
    let mut message = Message::new(Role::Assistant, content);
    own.store(&mut message.extensions, SHAPE);
    Ok(message)
}

fn read_call(call: &Value, at: &str, context: &mut Context) -> Result<Block, ConvertError> {
    let map = call
        .as_object()
        .ok_or_else(|| invalid(at, "a tool call must be an object"))?;
    let function = match (map.get("type").and_then(Value::as_str), map.get("function")) {
        (Some("function") | None, Some(Value::Object(function))) => function,
        // A custom tool call: only this shape has it.
        _ => return Ok(opaque(call)),
    };
    let name = function
        .get("name")
        .and_then(Value::as_str)
        .ok_or_else(|| invalid(&format!("{at}/function/name"), "a tool call needs a name"))?;
    let raw = function
        .get("arguments")
        .and_then(Value::as_str)
        .ok_or_else(|| {
            invalid(
                &format!("{at}/function/arguments"),
                "arguments must be a JSON string",
            )
        })?;
    let mut own = Own::new();
    own.keep_unknown(map, &["id", "type", "function"]);
    if !map.contains_key("type") {
        own.hint("type", "absent");
    }
    keep_inner(&mut own, function, &["name", "arguments"]);
    let arguments = parse_arguments(raw, &format!("{at}/function/arguments"), &mut own, context)?;
    let mut extensions = Extensions::new();
    own.store(&mut extensions, SHAPE);
    Ok(Block::ToolCall(ToolCall {
        id: map.get("id").and_then(Value::as_str).map(str::to_string),
        name: name.to_string(),
        arguments,
        extensions,
    }))
}

/// Parses an arguments string. Invalid JSON is an error, or kept as written
/// under `--on-invalid-arguments keep`; never silently `{}`. The string itself
/// is kept as a hint when re-serializing would spell it differently.
pub fn parse_arguments(
    raw: &str,
    at: &str,
    own: &mut Own,
    context: &mut Context,
) -> Result<Arguments, ConvertError> {
    match serde_json::from_str::<Value>(raw) {
        Ok(value) => {
            if serde_json::to_string(&value).ok().as_deref() != Some(raw) {
                own.hint("arguments", raw);
            }
            Ok(Arguments::Value(value))
        }
        Err(error) => match context.options.on_invalid_arguments {
            OnInvalidArguments::Keep => {
                context.note(format!("{at}: arguments are not JSON; kept as a string"));
                Ok(Arguments::Raw(raw.to_string()))
            }
            OnInvalidArguments::Error => Err(invalid(
                at,
                format!("arguments are not valid JSON ({error}); pass --on-invalid-arguments keep to keep them as a string"),
            )),
        },
    }
}

fn read_tool_message(
    map: &Map<String, Value>,
    at: &str,
    call_names: &[(String, String)],
    context: &mut Context,
) -> Result<ToolResult, ConvertError> {
    let call_id = map
        .get("tool_call_id")
        .and_then(Value::as_str)
        .ok_or_else(|| {
            invalid(
                &format!("{at}/tool_call_id"),
                "a tool message needs a tool_call_id",
            )
        })?;
    let (content, mut own) = read_content(map, at, Place::Tool, context)?;
    own.keep_unknown(map, &["role", "content", "tool_call_id"]);
    let name = call_names
        .iter()
        .rev()
        .find(|(id, _)| id == call_id)
        .map(|(_, name)| name.clone());
    let mut extensions = Extensions::new();
    own.store(&mut extensions, SHAPE);
    Ok(ToolResult {
        call_id: Some(call_id.to_string()),
        name,
        is_error: false,
        content,
        extensions,
    })
}
