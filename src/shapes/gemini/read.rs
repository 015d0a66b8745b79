//! Reading Gemini generateContent documents into the canonical model: a request
//! body, a bare `contents` list, a response (one assistant turn), or a single
//! `functionResponse` part (or a user Content holding one) as a tool result.
//!
//! Keys are read in camelCase or snake_case. What the model has no place for is
//! kept in `extensions["gemini"]` (see the module documentation of `gemini`).

use serde_json::{Map, Value};

use super::{add_hint, camel, camelize, field, get, schema_to_json, snake_names, SHAPE};
use crate::convert::ext::{says_nothing, Own};
use crate::convert::{Context, ConvertError, Form};
use crate::media::{self, MediaKind};
use crate::part::{MediaPart, Part, Source};
use crate::shapes::kit::invalid;
use crate::shapes::Place as ShapePlace;
use crate::transcript::{
    Arguments, Block, Extensions, Message, Opaque, Role, Tool, ToolCall, ToolChoice, ToolResult,
    Transcript,
};

/// The fields of a request body the model has a place for.
const REQUEST_KEYS: &[&str] = &[
    "model",
    "contents",
    "systemInstruction",
    "tools",
    "toolConfig",
    "generationConfig",
];

/// The fields that say what a part is (a part has exactly one).
const DATA_KEYS: &[&str] = &[
    "text",
    "inlineData",
    "fileData",
    "functionCall",
    "functionResponse",
    "executableCode",
    "codeExecutionResult",
    "toolCall",
    "toolResponse",
];

/// Where a part stands, for which parts are expected there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    System,
    User,
    Model,
}

/// What one Gemini part becomes.
enum Read {
    Block(Block),
    Result(ToolResult),
}

/// Reads a request body, a bare list of contents, a response, or a single
/// function response.
pub fn read(value: &Value, context: &mut Context) -> Result<(Form, Transcript), ConvertError> {
    let (form, mut transcript) = read_any(value, context)?;
    // The field names written in snake_case (google-genai and Vertex send
    // them so), for the writer to spell them so again.
    let snake = snake_names(value);
    if !snake.is_empty() {
        add_hint(&mut transcript.extensions, "snake", Value::from(snake));
    }
    Ok((form, transcript))
}

fn read_any(value: &Value, context: &mut Context) -> Result<(Form, Transcript), ConvertError> {
    match value {
        Value::Array(contents) => {
            let mut transcript = Transcript::default();
            read_contents(contents, "", &mut transcript, context)?;
            Ok((Form::Messages, transcript))
        }
        Value::Object(map) if field(map, "functionResponse").is_some() => {
            let result = match read_part(value, "", Place::User, context)? {
                Read::Result(result) => result,
                Read::Block(_) => {
                    return Err(invalid(
                        "",
                        "a function response part holds only functionResponse",
                    ))
                }
            };
            Ok((Form::ToolResult, single_result(result)))
        }
        Value::Object(map) if field(map, "candidates").is_some() => read_response(map, context),
        Value::Object(map) if field(map, "parts").is_some() && field(map, "contents").is_none() => {
            read_single_content(value, context).map(|t| (Form::ToolResult, t))
        }
        Value::Object(map) => read_request(map, context).map(|t| (Form::Request, t)),
        _ => Err(invalid(
            "",
            "a Gemini document is an object or a list of contents",
        )),
    }
}

/// A single Content, read as the one function response it must hold. The
/// Content's own fields (its role) travel with the result as the `$content`
/// hint, since a single tool result is all that canonical form keeps.
fn read_single_content(value: &Value, context: &mut Context) -> Result<Transcript, ConvertError> {
    let mut messages = read_content(value, "", context)?;
    let mut result = match messages.as_mut_slice() {
        [Message {
            role: Role::Tool,
            content,
            ..
        }] if content.len() == 1 => match content.pop() {
            Some(Block::ToolResult(result)) => result,
            _ => unreachable!("a tool message holds results"),
        },
        _ => {
            return Err(invalid(
                "",
                "a single Gemini Content is read as a tool result and must hold exactly one \
                 functionResponse part; give a list of contents or a request body",
            ))
        }
    };
    let mut fields = match camelize(value) {
        Value::Object(fields) => fields,
        _ => unreachable!("an object stays an object"),
    };
    fields.shift_remove("parts");
    add_hint(&mut result.extensions, "content", Value::Object(fields));
    Ok(single_result(result))
}

fn single_result(result: ToolResult) -> Transcript {
    Transcript {
        messages: vec![Message::new(Role::Tool, vec![Block::ToolResult(result)])],
        ..Transcript::default()
    }
}

fn read_request(
    map: &Map<String, Value>,
    context: &mut Context,
) -> Result<Transcript, ConvertError> {
    let mut transcript = Transcript::default();
    let mut own = Own::new();
    let mut empty: Vec<Value> = Vec::new();
    for (key, value) in map {
        let name = camel(key);
        let at = format!("/{key}");
        match name.as_ref() {
            "model" => match value.as_str() {
                // Not part of the REST body, but batch files and gateways carry it.
                Some(model) => {
                    transcript.model = Some(model.to_string());
                    own.hint("model", "body");
                }
                None => own.keep("model", value),
            },
            "contents" => {
                let contents = value
                    .as_array()
                    .ok_or_else(|| invalid(&at, "contents must be a list"))?;
                read_contents(contents, &at, &mut transcript, context)?;
            }
            "systemInstruction" => read_system(value, &at, &mut transcript, &mut own, context)?,
            "tools" => read_tools(value, &at, &mut transcript, &mut own)?,
            "toolConfig" => read_tool_config(value, &mut transcript, &mut own, &mut empty),
            "generationConfig" => {
                read_generation_config(value, &mut transcript, &mut own, &mut empty)
            }
            _ => {}
        }
    }
    keep_rest(&mut own, map, REQUEST_KEYS, "");
    if get(map, "contents").is_none() {
        own.hint("contents", "absent");
    }
    if !empty.is_empty() {
        own.hint("empty", Value::Array(empty));
    }
    own.store(&mut transcript.extensions, SHAPE);
    Ok(transcript)
}

/// Keeps every field of `map` whose camelCase name is not in `known`, in
/// camelCase, under `prefix` (a dotted path ending in `.`, or nothing).
fn keep_rest(own: &mut Own, map: &Map<String, Value>, known: &[&str], prefix: &str) {
    for (key, value) in map {
        let name = camel(key);
        if !known.contains(&name.as_ref()) {
            own.keep(&format!("{prefix}{name}"), &camelize(value));
        }
    }
}

fn read_system(
    value: &Value,
    at: &str,
    transcript: &mut Transcript,
    own: &mut Own,
    context: &mut Context,
) -> Result<(), ConvertError> {
    // An empty system instruction is no system prompt (kept for this shape only).
    let parts = value.as_object().and_then(|map| field(map, "parts"));
    if says_nothing(value) || parts.is_some_and(|(_, parts)| says_nothing(parts)) {
        own.keep("systemInstruction", value);
        return Ok(());
    }
    match value {
        Value::String(text) => {
            own.hint("systemInstruction", "string");
            transcript.system = Some(vec![Block::text(text.clone())]);
        }
        Value::Object(map) => {
            if let Some(role) = get(map, "role") {
                own.hint("systemRole", role.clone());
            }
            keep_rest(own, map, &["role", "parts"], "systemInstruction.");
            let mut blocks = Vec::new();
            if let Some((key, parts)) = field(map, "parts") {
                let parts = parts
                    .as_array()
                    .ok_or_else(|| invalid(&format!("{at}/{key}"), "parts must be a list"))?;
                for (i, part) in parts.iter().enumerate() {
                    match read_part(part, &format!("{at}/{key}/{i}"), Place::System, context)? {
                        Read::Block(block) => blocks.push(block),
                        Read::Result(_) => unreachable!("results are read only in user content"),
                    }
                }
            } else {
                own.hint("systemParts", "absent");
            }
            transcript.system = Some(blocks);
        }
        _ => {
            return Err(invalid(
                at,
                "systemInstruction must be a Content (an object with parts)",
            ))
        }
    }
    Ok(())
}

/// Reads a list of contents. A user Content that holds function responses and
/// other parts becomes a tool message and a user message (in its order); a
/// `$join` hint on a message records whether it shares the Content of the
/// message before it, where that differs from what a writer does by default
/// ([`joins_by_default`]).
fn read_contents(
    contents: &[Value],
    base: &str,
    transcript: &mut Transcript,
    context: &mut Context,
) -> Result<(), ConvertError> {
    let mut previous: Option<Role> = transcript.messages.last().map(|m| m.role);
    for (index, content) in contents.iter().enumerate() {
        let messages = read_content(content, &format!("{base}/{index}"), context)?;
        for (i, mut message) in messages.into_iter().enumerate() {
            let joined = i > 0;
            if joined != joins_by_default(previous, message.role) {
                add_hint(&mut message.extensions, "join", Value::Bool(joined));
            }
            previous = Some(message.role);
            transcript.messages.push(message);
        }
    }
    Ok(())
}

/// Whether a writer puts a message into the Content of the message before it
/// when no hint says otherwise: results and user parts that follow results go
/// into the same user Content (all results of one turn in one Content).
pub(super) fn joins_by_default(previous: Option<Role>, role: Role) -> bool {
    previous == Some(Role::Tool) && matches!(role, Role::Tool | Role::User)
}

/// Reads one Content as one or more messages.
fn read_content(
    value: &Value,
    at: &str,
    context: &mut Context,
) -> Result<Vec<Message>, ConvertError> {
    let map = value
        .as_object()
        .ok_or_else(|| invalid(at, "a Content must be an object"))?;
    let mut own = Own::new();
    let role = match field(map, "role") {
        None => {
            own.hint("role", "absent");
            Role::User
        }
        Some((key, role)) => match role.as_str() {
            Some("user") => Role::User,
            Some("model") => Role::Assistant,
            // The role older examples gave function responses.
            Some("function") => {
                own.hint("role", "function");
                Role::User
            }
            _ => {
                return Err(invalid(
                    &format!("{at}/{key}"),
                    format!("role {role} is not \"user\" or \"model\""),
                ))
            }
        },
    };
    keep_rest(&mut own, map, &["role", "parts"], "");
    let place = if role == Role::Assistant {
        Place::Model
    } else {
        Place::User
    };
    let mut messages: Vec<Message> = Vec::new();
    match field(map, "parts") {
        None => own.hint("parts", "absent"),
        Some((key, parts)) => {
            let parts = parts
                .as_array()
                .ok_or_else(|| invalid(&format!("{at}/{key}"), "parts must be a list"))?;
            for (i, part) in parts.iter().enumerate() {
                let (role, block) =
                    match read_part(part, &format!("{at}/{key}/{i}"), place, context)? {
                        Read::Block(block) => (role, block),
                        Read::Result(result) => (Role::Tool, Block::ToolResult(result)),
                    };
                match messages.last_mut() {
                    Some(last) if last.role == role => last.content.push(block),
                    _ => messages.push(Message::new(role, vec![block])),
                }
            }
        }
    }
    if messages.is_empty() {
        // An empty Content: other shapes leave it out, this one gives it back.
        messages.push(Message::new(role, Vec::new()));
        own.hint("empty", true);
    }
    own.store(&mut messages[0].extensions, SHAPE);
    Ok(messages)
}

fn opaque(value: &Value) -> Block {
    Block::Opaque(Opaque {
        shape: SHAPE,
        value: camelize(value),
    })
}

fn extensions(own: Own) -> Extensions {
    let mut extensions = Extensions::new();
    own.store(&mut extensions, SHAPE);
    extensions
}

/// Reads one part. Thoughts, server-side tool parts, and parts that are not
/// one of text, inline data, file data, a call (in model content) or a
/// response (in user content) are opaque blocks, kept as written.
fn read_part(
    value: &Value,
    at: &str,
    place: Place,
    context: &mut Context,
) -> Result<Read, ConvertError> {
    let map = value
        .as_object()
        .ok_or_else(|| invalid(at, "a part must be an object"))?;
    let data: Vec<(&str, &str, &Value)> = map
        .iter()
        .filter_map(|(key, value)| {
            let name = camel(key);
            DATA_KEYS
                .iter()
                .find(|known| **known == name)
                .map(|known| (key.as_str(), *known, value))
        })
        .collect();
    let [(key, kind, inner)] = data.as_slice() else {
        return Ok(Read::Block(opaque(value)));
    };
    let here = format!("{at}/{key}");
    let mut own = Own::new();
    keep_rest(&mut own, map, &[kind], "");
    let block = match *kind {
        "text" => {
            let Some(text) = inner.as_str() else {
                return Ok(Read::Block(opaque(value)));
            };
            if get(map, "thought").and_then(Value::as_bool) == Some(true) {
                return Ok(Read::Block(opaque(value)));
            }
            if text.is_empty() {
                // Gemini writes an empty text part beside a call; other shapes
                // leave it out, this one gives it back.
                own.hint("empty", true);
            }
            Block::Part {
                part: Part::Text(text.to_string()),
                extensions: extensions(own),
            }
        }
        "inlineData" | "fileData" => {
            let part = read_media(kind, inner, &here, &mut own, false)?;
            Block::Part {
                part,
                extensions: extensions(own),
            }
        }
        "functionCall" if place == Place::Model => read_call(inner, &here, own)?,
        "functionResponse" if place == Place::User => {
            return read_response_part(inner, &here, own, context).map(Read::Result)
        }
        _ => opaque(value),
    };
    Ok(Read::Block(block))
}

/// Reads `inlineData` or `fileData` as a media part (of a function response's
/// `parts` when `in_result`). `displayName` is the part's name; outside results
/// (where partkit's Gemini writer leaves it out) a hint records it. Media that
/// partkit would not write there (a type Gemini does not document, a URL in a
/// result) get the `$unchecked` hint: writing Gemini gives them back as they
/// were, since a round trip never refuses its own input.
fn read_media(
    kind: &str,
    inner: &Value,
    at: &str,
    own: &mut Own,
    in_result: bool,
) -> Result<Part, ConvertError> {
    let blob = inner
        .as_object()
        .ok_or_else(|| invalid(at, format!("{kind} must be an object")))?;
    let (source_key, source) = if kind == "inlineData" {
        let data = get(blob, "data")
            .and_then(Value::as_str)
            .ok_or_else(|| invalid(&format!("{at}/data"), "inlineData needs data (base64)"))?;
        let (data, alphabet) = standard_base64(data);
        if let Some(alphabet) = alphabet {
            own.hint("base64", alphabet);
        }
        ("data", Source::Data(data))
    } else {
        let uri = get(blob, "fileUri")
            .and_then(Value::as_str)
            .ok_or_else(|| invalid(&format!("{at}/fileUri"), "fileData needs a fileUri"))?;
        ("fileUri", Source::Url(uri.to_string()))
    };
    let mime_type = match field(blob, "mimeType") {
        Some((key, declared)) => {
            let declared = declared.as_str().unwrap_or("");
            let normalized = media::normalize(declared).ok_or_else(|| {
                invalid(
                    &format!("{at}/{key}"),
                    format!("mimeType {declared:?} is not a media type"),
                )
            })?;
            if normalized != declared {
                own.hint("mimeType", declared);
            }
            normalized
        }
        None => {
            own.hint("mimeType", Value::Null);
            match &source {
                Source::Data(data) => crate::b64::decode_strict(data)
                    .ok()
                    .and_then(|bytes| media::sniff(&bytes))
                    .ok_or_else(|| {
                        invalid(
                            at,
                            "inlineData needs a mimeType (the content does not tell)",
                        )
                    })?,
                Source::Url(url) => media::extension_of_url(url)
                    .as_deref()
                    .and_then(media::from_extension)
                    .unwrap_or("application/octet-stream")
                    .to_string(),
            }
        }
    };
    let mut name = None;
    let mut known = vec!["mimeType", source_key];
    if let Some(Value::String(display)) = get(blob, "displayName") {
        name = Some(display.clone());
        known.push("displayName");
        if !in_result {
            own.hint("displayName", true);
        }
    }
    keep_rest(own, blob, &known, &format!("{kind}."));
    let part = Part::Media(MediaPart {
        kind: MediaKind::of(&mime_type),
        mime_type,
        source,
        name,
    });
    let place = if in_result {
        ShapePlace::ToolResult
    } else {
        ShapePlace::User
    };
    if super::write_part(&part, place).is_err() {
        own.hint("unchecked", true);
    }
    Ok(part)
}

fn read_call(inner: &Value, at: &str, mut own: Own) -> Result<Block, ConvertError> {
    let call = inner
        .as_object()
        .ok_or_else(|| invalid(at, "functionCall must be an object"))?;
    let name = get(call, "name")
        .and_then(Value::as_str)
        .ok_or_else(|| invalid(&format!("{at}/name"), "a functionCall needs a name"))?;
    let mut known = vec!["name", "args"];
    let id = match get(call, "id") {
        Some(Value::String(id)) => {
            known.push("id");
            Some(id.clone())
        }
        _ => None,
    };
    let arguments = match get(call, "args") {
        Some(args) => Arguments::Value(args.clone()),
        None => {
            own.hint("args", "absent");
            Arguments::Value(Value::Object(Map::new()))
        }
    };
    keep_rest(&mut own, call, &known, "functionCall.");
    Ok(Block::ToolCall(ToolCall {
        id,
        name: name.to_string(),
        arguments,
        extensions: extensions(own),
    }))
}

/// The text of a response value: a string is the text (an empty one is no
/// text at all); anything else is its compact JSON, with a hint (`<key>-json`)
/// so that writing Gemini gives the value back.
fn response_text(value: &Value, key: &str, own: &mut Own) -> Vec<Block> {
    match value {
        Value::String(text) if text.is_empty() => Vec::new(),
        Value::String(text) => vec![Block::text(text.clone())],
        other => {
            own.hint("response", format!("{key}-json"));
            vec![Block::text(compact(other))]
        }
    }
}

fn compact(value: &Value) -> String {
    crate::json::text_of(value)
}

/// Reads a `functionResponse`: `{"output": …}` is the result's text,
/// `{"error": …}` an error's, any other object its JSON text; media in `parts`
/// follow the text.
fn read_response_part(
    inner: &Value,
    at: &str,
    mut own: Own,
    context: &mut Context,
) -> Result<ToolResult, ConvertError> {
    let response = inner
        .as_object()
        .ok_or_else(|| invalid(at, "functionResponse must be an object"))?;
    let mut known = vec!["response", "parts"];
    let name = match get(response, "name") {
        Some(Value::String(name)) => {
            known.push("name");
            Some(name.clone())
        }
        _ => None,
    };
    let call_id = match get(response, "id") {
        Some(Value::String(id)) => {
            known.push("id");
            Some(id.clone())
        }
        _ => None,
    };
    let mut is_error = false;
    let mut content = match field(response, "response") {
        None => {
            own.hint("response", "absent");
            Vec::new()
        }
        Some((_, Value::Object(object))) if object.len() == 1 && object.contains_key("output") => {
            response_text(&object["output"], "output", &mut own)
        }
        Some((_, Value::Object(object))) if object.len() == 1 && object.contains_key("error") => {
            is_error = true;
            response_text(&object["error"], "error", &mut own)
        }
        Some((_, object @ Value::Object(_))) => {
            own.hint("response", "object");
            vec![Block::text(compact(object))]
        }
        Some((key, other)) => {
            if context.target == SHAPE {
                context.note(format!(
                    "{at}/{key} is not an object; written as {{\"output\": …}} (Gemini needs an object)"
                ));
            }
            response_text(other, "output", &mut own)
        }
    };
    if let Some((key, parts)) = field(response, "parts") {
        let parts = parts
            .as_array()
            .ok_or_else(|| invalid(&format!("{at}/{key}"), "parts must be a list"))?;
        for (i, part) in parts.iter().enumerate() {
            content.push(read_response_media(part, &format!("{at}/{key}/{i}"))?);
        }
    }
    keep_rest(&mut own, response, &known, "functionResponse.");
    Ok(ToolResult {
        call_id,
        name,
        is_error,
        content,
        extensions: extensions(own),
    })
}

/// One entry of `functionResponse.parts`: inline or file data, else opaque.
fn read_response_media(value: &Value, at: &str) -> Result<Block, ConvertError> {
    let map = value
        .as_object()
        .ok_or_else(|| invalid(at, "a function response part must be an object"))?;
    let data: Vec<(&String, &Value)> = map
        .iter()
        .filter(|(key, _)| DATA_KEYS.contains(&camel(key).as_ref()))
        .collect();
    let [(key, inner)] = data.as_slice() else {
        return Ok(opaque(value));
    };
    let kind = camel(key);
    if !matches!(kind.as_ref(), "inlineData" | "fileData") {
        return Ok(opaque(value));
    }
    let mut own = Own::new();
    keep_rest(&mut own, map, &[kind.as_ref()], "");
    let part = read_media(&kind, inner, &format!("{at}/{key}"), &mut own, true)?;
    Ok(Block::Part {
        part,
        extensions: extensions(own),
    })
}

/// Reads `tools`: every function declaration is a canonical tool; other tool
/// kinds (`googleSearch`, `codeExecution`, …) are kept as `tools.<kind>`. A
/// `$tools` hint records the grouping when it is not one object of all
/// declarations followed by one object per other kind.
fn read_tools(
    value: &Value,
    at: &str,
    transcript: &mut Transcript,
    own: &mut Own,
) -> Result<(), ConvertError> {
    let items = value
        .as_array()
        .ok_or_else(|| invalid(at, "tools must be a list"))?;
    let mut tools = Vec::new();
    let mut layout = Vec::new();
    let mut kinds = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let map = item
            .as_object()
            .ok_or_else(|| invalid(&format!("{at}/{i}"), "a tool must be an object"))?;
        let mut entry = Map::new();
        for (key, value) in map {
            let name = camel(key).into_owned();
            if name == "functionDeclarations" {
                let here = format!("{at}/{i}/{key}");
                let declarations = value
                    .as_array()
                    .ok_or_else(|| invalid(&here, "functionDeclarations must be a list"))?;
                for (j, declaration) in declarations.iter().enumerate() {
                    tools.push(read_declaration(declaration, &format!("{here}/{j}"))?);
                }
                entry.insert(name, Value::from(declarations.len()));
            } else {
                own.keep(&format!("tools.{name}"), &camelize(value));
                entry.insert(name.clone(), Value::Null);
                kinds.push(name);
            }
        }
        layout.push(Value::Object(entry));
    }
    let mut default = Vec::new();
    if !tools.is_empty() {
        default.push(serde_json::json!({"functionDeclarations": tools.len()}));
    }
    for kind in kinds {
        let mut entry = Map::new();
        entry.insert(kind, Value::Null);
        default.push(Value::Object(entry));
    }
    if layout != default {
        own.hint("tools", Value::Array(layout));
    }
    if !tools.is_empty() || items.is_empty() {
        transcript.tools = Some(tools);
    }
    Ok(())
}

/// Reads a function declaration. `parametersJsonSchema` is the canonical
/// schema as it is; `parameters` (Gemini's OpenAPI subset) becomes JSON Schema,
/// with a hint that holds the original when they differ.
fn read_declaration(value: &Value, at: &str) -> Result<Tool, ConvertError> {
    let map = value
        .as_object()
        .ok_or_else(|| invalid(at, "a function declaration must be an object"))?;
    let name = get(map, "name")
        .and_then(Value::as_str)
        .ok_or_else(|| invalid(&format!("{at}/name"), "a function declaration needs a name"))?;
    let mut own = Own::new();
    let mut known = vec!["name"];
    let description = match get(map, "description") {
        Some(Value::String(description)) => {
            known.push("description");
            Some(description.clone())
        }
        _ => None,
    };
    let parameters = match (get(map, "parametersJsonSchema"), get(map, "parameters")) {
        (Some(schema), _) => {
            known.push("parametersJsonSchema");
            Some(schema.clone()).filter(|s| !s.is_null())
        }
        (None, Some(schema)) => {
            known.push("parameters");
            let converted = schema_to_json(schema);
            if &converted == schema {
                own.hint("parameters", "schema");
            } else {
                own.hint("parameters", schema.clone());
            }
            Some(converted).filter(|s| !s.is_null())
        }
        (None, None) => None,
    };
    keep_rest(&mut own, map, &known, "");
    Ok(Tool {
        name: name.to_string(),
        description,
        parameters,
        strict: None,
        extensions: extensions(own),
    })
}

/// Reads `toolConfig.functionCallingConfig` as the tool choice: AUTO → auto,
/// NONE → none, ANY → required, ANY with exactly one allowed name → that tool.
/// Everything else (VALIDATED, several allowed names, other configs) is kept.
fn read_tool_config(
    value: &Value,
    transcript: &mut Transcript,
    own: &mut Own,
    empty: &mut Vec<Value>,
) {
    let Value::Object(config) = value else {
        own.keep("toolConfig", value);
        return;
    };
    if config.is_empty() {
        empty.push(Value::String("toolConfig".into()));
    }
    keep_rest(own, config, &["functionCallingConfig"], "toolConfig.");
    let Some(calling) = get(config, "functionCallingConfig") else {
        return;
    };
    let Value::Object(calling) = calling else {
        own.keep("toolConfig.functionCallingConfig", calling);
        return;
    };
    if calling.is_empty() {
        empty.push(Value::String("toolConfig.functionCallingConfig".into()));
    }
    let prefix = "toolConfig.functionCallingConfig.";
    let mode = get(calling, "mode").and_then(Value::as_str);
    let names: Option<Vec<&str>> = match get(calling, "allowedFunctionNames") {
        None => None,
        Some(Value::Array(names)) => names.iter().map(Value::as_str).collect(),
        Some(_) => None,
    };
    let has_names = get(calling, "allowedFunctionNames").is_some();
    let (choice, known): (Option<ToolChoice>, &[&str]) = match (mode, has_names, names.as_deref()) {
        (Some("AUTO"), false, _) => (Some(ToolChoice::Auto), &["mode"]),
        (Some("NONE"), false, _) => (Some(ToolChoice::None), &["mode"]),
        (Some("ANY"), false, _) => (Some(ToolChoice::Required), &["mode"]),
        (Some("ANY"), true, Some([name])) => (
            Some(ToolChoice::Tool(name.to_string())),
            &["mode", "allowedFunctionNames"],
        ),
        // Several allowed names: a call is required; the list itself is kept.
        (Some("ANY"), true, _) => (Some(ToolChoice::Required), &["mode"]),
        _ => (None, &[]),
    };
    transcript.tool_choice = choice;
    keep_rest(own, calling, known, prefix);
}

/// Reads `generationConfig`: `maxOutputTokens`, `temperature`, `topP` and
/// `stopSequences` map to the model; everything else is kept.
fn read_generation_config(
    value: &Value,
    transcript: &mut Transcript,
    own: &mut Own,
    empty: &mut Vec<Value>,
) {
    let Value::Object(config) = value else {
        own.keep("generationConfig", value);
        return;
    };
    if config.is_empty() {
        empty.push(Value::String("generationConfig".into()));
    }
    let mut known = Vec::new();
    for (name, slot) in [
        ("maxOutputTokens", &mut transcript.max_tokens),
        ("temperature", &mut transcript.temperature),
        ("topP", &mut transcript.top_p),
    ] {
        if let Some(number) = get(config, name).filter(|v| v.is_number()) {
            *slot = Some(number.clone());
            known.push(name);
        }
    }
    if let Some(Value::Array(stops)) = get(config, "stopSequences") {
        if let Some(stops) = stops
            .iter()
            .map(|s| s.as_str().map(str::to_string))
            .collect::<Option<Vec<String>>>()
        {
            transcript.stop = Some(stops);
            known.push("stopSequences");
        }
    }
    keep_rest(own, config, &known, "generationConfig.");
}

/// A response: the first candidate's content is the assistant turn; the rest of
/// the envelope (finish reason, safety ratings, usage, other candidates) is
/// kept as a hint for writing a Gemini response again. `modelVersion` is the
/// model.
fn read_response(
    map: &Map<String, Value>,
    context: &mut Context,
) -> Result<(Form, Transcript), ConvertError> {
    let (key, candidates) = field(map, "candidates").expect("checked by the caller");
    let first = candidates
        .as_array()
        .and_then(|c| c.first())
        .and_then(Value::as_object)
        .ok_or_else(|| {
            invalid(
                &format!("/{key}"),
                "a response needs at least one candidate",
            )
        })?;
    let mut transcript = Transcript::default();
    match field(first, "content") {
        Some((content_key, content)) => {
            let at = format!("/{key}/0/{content_key}");
            for message in read_content(content, &at, context)? {
                transcript.messages.push(message);
            }
        }
        None => {
            let mut message = Message::new(Role::Assistant, Vec::new());
            add_hint(
                &mut message.extensions,
                "content",
                Value::String("absent".into()),
            );
            transcript.messages.push(message);
        }
    }
    if let Some(Value::String(model)) = get(map, "modelVersion") {
        transcript.model = Some(model.clone());
    }
    let mut envelope = match camelize(&Value::Object(map.clone())) {
        Value::Object(envelope) => envelope,
        _ => unreachable!("an object stays an object"),
    };
    if let Some(Value::Array(candidates)) = envelope.get_mut("candidates") {
        if let Some(Value::Object(candidate)) = candidates.first_mut() {
            candidate.shift_remove("content");
        }
    }
    add_hint(
        &mut transcript.extensions,
        "response",
        Value::Object(envelope),
    );
    Ok((Form::Response, transcript))
}

/// Gemini reads base64 as protobuf's JSON mapping does: either alphabet,
/// padded or not (google-genai sends URL-safe). Every other shape, and the
/// canonical part, needs the standard padded form, so such a payload is
/// re-encoded; any other payload is kept as it is for the checks downstream.
/// The form it had (`url-safe`, `unpadded`, `url-safe unpadded`) comes back
/// when the re-encoding is exactly undone by the Gemini writer.
fn standard_base64(data: &str) -> (String, Option<&'static str>) {
    // Most payloads are standard already: only look closer at one that is not.
    let maybe_other = !data.len().is_multiple_of(4) || data.bytes().any(|b| b == b'-' || b == b'_');
    if !maybe_other {
        return (data.to_string(), None);
    }
    if let Ok((bytes, how)) = crate::b64::decode_lenient(data) {
        if !how.whitespace && !how.is_canonical() {
            let standard = crate::b64::encode(&bytes);
            let form = match (how.url_safe, how.unpadded) {
                (true, true) => "url-safe unpadded",
                (true, false) => "url-safe",
                _ => "unpadded",
            };
            let exact = super::spell_base64(&standard, form) == data;
            return (standard, exact.then_some(form));
        }
    }
    (data.to_string(), None)
}
