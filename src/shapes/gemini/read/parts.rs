//! Reading Gemini contents and their parts (text, media, function calls)
//! into canonical blocks.

use super::{joins_by_default, keep_rest, read_response_part, Place, Read, DATA_KEYS};
use crate::contract::ext::Own;
use crate::contract::{Context, ConvertError};
use crate::json::lent::Lending;
use crate::json::{Node, Object};
use crate::media::{self, MediaKind};
use crate::part::{MediaPart, Part, Source};
use crate::shapes::gemini::repeated::{self, Singles};
use crate::shapes::gemini::{add_hint, camel, camelize, field, get, SHAPE};
use crate::shapes::kit::invalid;
use crate::shapes::Place as ShapePlace;
use crate::transcript::{
    Arguments, Block, Extensions, Message, Opaque, Role, ToolCall, Transcript,
};
use serde_json::{Map, Value};

/// Reads a list of contents (each with its pointer). A user Content that holds function responses and
/// other parts becomes a tool message and a user message (in its order); a
/// `$join` hint on a message records whether it shares the Content of the
/// message before it, where that differs from what a writer does by default
/// ([`joins_by_default`]).
pub(super) fn read_contents<N: Node>(
    contents: &[(String, &N)],
    transcript: &mut Transcript,
    context: &mut Context,
) -> Result<(), ConvertError> {
    let mut previous: Option<Role> = transcript.messages.last().map(|m| m.role);
    for (at, content) in contents {
        let messages = read_content(*content, at, context)?;
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

/// Reads one Content as one or more messages.
pub(super) fn read_content<N: Node>(
    value: &N,
    at: &str,
    context: &mut Context,
) -> Result<Vec<Message>, ConvertError> {
    let map = crate::shapes::kit::object_at(value, at, "a Content must be an object")?;
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
            // "Can be left blank or unset" (the API reference of `role`):
            // blank is unset, read as the user's, written back blank.
            Some("") => {
                own.hint("role", "");
                Role::User
            }
            // A role Gemini refuses ("Please use a valid role: user, model."):
            // validate reports it (gemini/rules.rs); read as the user's, it
            // is carried as written for Gemini and named for the others.
            Some(other) => {
                own.hint("role", other);
                context.note(format!(
                    "gemini role {} at {at}/{key} is not \"user\" or \"model\": read as the user's",
                    crate::echo::quoted(other)
                ));
                Role::User
            }
            None => {
                return Err(invalid(
                    &format!("{at}/{key}"),
                    format!(
                        "role {} is not a string",
                        crate::echo::json(&role.to_value())
                    ),
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
            let (parts, single) = repeated::items(parts, &format!("{at}/{key}"));
            let mut singles = Singles::default();
            singles.note("parts", single);
            singles.store(&mut own);
            for (here, part) in parts {
                let (role, block) = match read_part(part, &here, place, context)? {
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

pub(super) fn opaque<N: Node>(value: &N) -> Block {
    Block::Opaque(Opaque {
        shape: SHAPE,
        value: camelize(value),
    })
}

pub(super) fn extensions(own: Own) -> Extensions {
    let mut extensions = Extensions::new();
    own.store(&mut extensions, SHAPE);
    extensions
}

/// Reads one part. Thoughts, server-side tool parts, and parts that are not
/// one of text, inline data, file data, a call (in model content) or a
/// response (in user content) are opaque blocks, kept as written.
pub(super) fn read_part<N: Node>(
    value: &N,
    at: &str,
    place: Place,
    context: &mut Context,
) -> Result<Read, ConvertError> {
    let map = crate::shapes::kit::object_at(value, at, "a part must be an object")?;
    let data: Vec<(&str, &str, &N)> = map
        .members()
        .filter_map(|(key, value)| {
            let name = camel(key);
            DATA_KEYS
                .iter()
                .find(|known| **known == name)
                .map(|known| (key, *known, value))
        })
        .collect();
    let [(key, kind, inner)] = data[..] else {
        return Ok(Read::Block(opaque(value)));
    };
    let here = format!("{at}/{key}");
    let mut own = Own::new();
    keep_rest(&mut own, map, &[kind], "");
    let block = match kind {
        "text" => {
            let Some(text) = inner.as_str() else {
                return Ok(Read::Block(opaque(value)));
            };
            if get(map, "thought").and_then(Node::as_bool) == Some(true) {
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
            let part = read_media(kind, inner, &here, &mut own, false, context.lending())?;
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
/// (Long: the checks that decide the `$unchecked` and spelling hints
/// share the blob just read; apart, each would read it again.)
pub(super) fn read_media<N: Node>(
    kind: &str,
    inner: &N,
    at: &str,
    own: &mut Own,
    in_result: bool,
    lending: &Lending,
) -> Result<Part, ConvertError> {
    let blob = inner
        .as_object()
        .ok_or_else(|| invalid(at, format!("{kind} must be an object")))?;
    let (source_key, source) = if kind == "inlineData" {
        let data = get(blob, "data")
            .and_then(Node::as_str)
            .ok_or_else(|| invalid(&format!("{at}/data"), "inlineData needs data (base64)"))?;
        let (data, alphabet) = standard_base64(data, lending);
        if let Some(alphabet) = alphabet {
            own.hint("base64", alphabet);
        }
        ("data", Source::Data(data))
    } else {
        let uri = get(blob, "fileUri")
            .and_then(Node::as_str)
            .ok_or_else(|| invalid(&format!("{at}/fileUri"), "fileData needs a fileUri"))?;
        ("fileUri", Source::Url(uri.to_string()))
    };
    let mime_type = match field(blob, "mimeType") {
        // Proto3 reads an empty string as an unset field, and a fileData's
        // mimeType is optional: the type is found as for none, and the empty
        // string comes back. (An inlineData's is required.)
        Some((_, blank)) if blank.as_str() == Some("") && kind == "fileData" => {
            own.hint("mimeType", "");
            undeclared_type(&source, at, lending)?
        }
        Some((key, declared)) => {
            let declared = declared.as_str().unwrap_or("");
            let normalized = media::normalize(declared).ok_or_else(|| {
                invalid(
                    &format!("{at}/{key}"),
                    format!(
                        "mimeType {declared} is not a media type",
                        declared = crate::echo::quoted(declared)
                    ),
                )
            })?;
            if normalized != declared {
                own.hint("mimeType", declared);
            }
            normalized
        }
        None => {
            own.hint("mimeType", Value::Null);
            undeclared_type(&source, at, lending)?
        }
    };
    let mut name = None;
    let mut known = vec!["mimeType", source_key];
    if let Some(display) = get(blob, "displayName").and_then(Node::as_str) {
        name = Some(display.to_string());
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
    if crate::shapes::gemini::write_part(&part, place).is_err() {
        own.hint("unchecked", true);
    }
    Ok(part)
}

/// The media type of a blob that declares none: its content's, or its URL's
/// extension's (`application/octet-stream` for a URL that tells nothing).
fn undeclared_type(source: &Source, at: &str, lending: &Lending) -> Result<String, ConvertError> {
    Ok(match source {
        Source::Data(data) => lending
            .with_resolved(data, crate::b64::decode_strict)
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
    })
}

pub(super) fn read_call<N: Node>(inner: &N, at: &str, mut own: Own) -> Result<Block, ConvertError> {
    let call = crate::shapes::kit::object_at(inner, at, "functionCall must be an object")?;
    let name = get(call, "name")
        .and_then(Node::as_str)
        .ok_or_else(|| invalid(&format!("{at}/name"), "a functionCall needs a name"))?;
    let mut known = vec!["name", "args"];
    let id = match get(call, "id").and_then(Node::as_str) {
        Some(id) => {
            known.push("id");
            Some(id.to_string())
        }
        None => None,
    };
    let arguments = match get(call, "args") {
        Some(args) => Arguments::Value(args.to_value()),
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

/// Gemini reads base64 as protobuf's JSON mapping does: either alphabet,
/// padded or not (google-genai sends URL-safe). Every other shape, and the
/// canonical part, needs the standard padded form, so such a payload is
/// re-encoded; any other payload is kept as it is for the checks downstream.
/// The form it had (`url-safe`, `unpadded`, `url-safe unpadded`) comes back
/// when the re-encoding is exactly undone by the Gemini writer. A payload
/// `lending` lends is looked at through its placeholder.
pub(super) fn standard_base64(data: &str, lending: &Lending) -> (String, Option<&'static str>) {
    // Most payloads are standard already: only look closer at one that is not.
    let maybe_other = lending.with_resolved(data, |data| {
        !data.len().is_multiple_of(4) || data.bytes().any(|b| b == b'-' || b == b'_')
    });
    if !maybe_other {
        return (data.to_string(), None);
    }
    if let Ok((bytes, how)) = lending.with_resolved(data, crate::b64::decode_lenient) {
        if !how.whitespace && !how.is_canonical() {
            let standard = crate::b64::encode(&bytes);
            let form = match (how.url_safe, how.unpadded) {
                (true, true) => "url-safe unpadded",
                (true, false) => "url-safe",
                _ => "unpadded",
            };
            let spelled = crate::shapes::gemini::spell_base64(&standard, form, lending);
            let exact = lending.with_resolved(data, |data| spelled == data);
            return (standard, exact.then_some(form));
        }
    }
    (data.to_string(), None)
}
