//! Reading OpenAI Chat Completions documents into the canonical model.

use serde_json::{Map, Value};

use crate::contract::ext::Own;
use crate::contract::pointer;
use crate::contract::{Context, ConvertError, Form, OnInvalidArguments};
use crate::dataurl;
use crate::json::lent::Lending;
use crate::json::{Node, Object, View};
use crate::media::{self, MediaKind};
use crate::part::{MediaPart, Part, Source};
use crate::shapes::kit::{invalid, opaque};
use crate::shapes::Shape;
use crate::transcript::{Arguments, Block, Extensions, Transcript};

mod messages;
mod request;

use messages::read_messages;
use request::{read_request, read_response};

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
/// assistant turn) or a single `tool` message, from a `Value` or the
/// borrowed tree.
pub fn read<N: Node>(value: &N, context: &mut Context) -> Result<(Form, Transcript), ConvertError> {
    match value.view() {
        View::Array(messages) => {
            let mut transcript = Transcript::default();
            let mut own = Own::new();
            read_messages(messages, "", &mut transcript, &mut own, context)?;
            own.store(&mut transcript.extensions, SHAPE);
            Ok((Form::Messages, transcript))
        }
        View::Object(map) if map.get("role").and_then(Node::as_str) == Some("tool") => {
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
        View::Object(map) if map.contains_key("choices") => read_response(map, context),
        View::Object(map) => read_request(map, context).map(|t| (Form::Request, t)),
        _ => Err(invalid(
            "",
            "an OpenAI Chat document is an object or a list of messages",
        )),
    }
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
fn read_content<O: Object>(
    map: &O,
    at: &str,
    place: Place,
    context: &mut Context,
) -> Result<(Vec<Block>, Own), ConvertError> {
    let mut own = Own::new();
    let blocks = match map.get("content").map(Node::view) {
        None => {
            own.hint("content", "absent");
            Vec::new()
        }
        Some(View::Null) => {
            own.hint("content", "null");
            Vec::new()
        }
        Some(View::String(text)) => {
            own.hint("content", "string");
            if text.is_empty() && place == Place::Assistant {
                own.hint("content", "empty");
                Vec::new()
            } else {
                vec![Block::text(text.to_string())]
            }
        }
        Some(View::Array(parts)) => {
            if parts.len() == 1 && parts[0].get("type").and_then(Node::as_str) == Some("text") {
                // One text part would be written back as a string.
                own.hint("content", "parts");
            }
            let content_at = pointer::member(at, "content");
            parts
                .iter()
                .enumerate()
                .map(|(i, part)| read_part(part, &pointer::item(&content_at, i), place, context))
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
/// (Long: one arm per part type this shape has, each a few lines; the
/// list of types reads best in one place.)
fn read_part<N: Node>(
    part: &N,
    at: &str,
    place: Place,
    context: &mut Context,
) -> Result<Block, ConvertError> {
    let _ = (place, &context);
    let map = crate::shapes::kit::object_at(part, at, "a content part must be an object")?;
    let kind = map.get("type").and_then(Node::as_str).unwrap_or("");
    let mut own = Own::new();
    let part = match kind {
        "text" => {
            let text = crate::shapes::kit::required_str(map, "text", at, "a text part needs text")?;
            own.keep_unknown(map, &["type", "text"]);
            Part::Text(text.to_string())
        }
        "image_url" => {
            let image = map.get("image_url").map(Node::view);
            let (url, inner) = match image {
                Some(View::Object(inner)) => (inner.get("url").and_then(Node::as_str), Some(inner)),
                Some(View::String(url)) => {
                    own.hint("image_url", "string");
                    (Some(url), None)
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
                &pointer::member(at, "image_url/url"),
                &mut own,
            )?
        }
        "input_audio" => {
            let audio = map
                .get("input_audio")
                .and_then(Node::as_object)
                .ok_or_else(|| {
                    invalid(
                        &format!("{at}/input_audio"),
                        "an input_audio part needs input_audio",
                    )
                })?;
            let data = crate::shapes::kit::required_str(
                audio,
                "data",
                &format!("{at}/input_audio"),
                "input_audio needs data",
            )?;
            let format = audio.get("format").and_then(Node::as_str).unwrap_or("");
            let mime_type = match format {
                "wav" => "audio/wav".to_string(),
                "mp3" => "audio/mpeg".to_string(),
                other => {
                    return Err(invalid(
                        &format!("{at}/input_audio/format"),
                        format!(
                            "input_audio format {other} is not wav or mp3",
                            other = crate::echo::quoted(other)
                        ),
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
            let file = map.get("file").and_then(Node::as_object);
            match file.and_then(|f| f.get("file_data")).and_then(Node::as_str) {
                Some(data) => {
                    let file = file.expect("checked above");
                    own.keep_unknown(map, &["type", "file"]);
                    keep_inner(&mut own, file, &["file_data", "filename"]);
                    let name = file.get("filename").and_then(Node::as_str);
                    media_from_file_data(
                        data,
                        name,
                        &format!("{at}/file/file_data"),
                        &mut own,
                        context.lending(),
                    )?
                }
                // A file_id refers to an upload only this provider has.
                None => return Ok(opaque(SHAPE, part)),
            }
        }
        _ => return Ok(opaque(SHAPE, part)),
    };
    let mut extensions = Extensions::new();
    own.store(&mut extensions, SHAPE);
    Ok(Block::Part { part, extensions })
}

/// Keeps the unknown fields of a part's inner object (`image_url`, `file`, a
/// call's `function`) as the `$inner` hint, apart from the outer object's.
fn keep_inner<O: Object>(own: &mut Own, inner: &O, known: &[&str]) {
    let extra: Map<String, Value> = inner
        .members()
        .filter(|(key, _)| !known.contains(key))
        .map(|(key, value)| (key.to_string(), value.to_value()))
        .collect();
    if !extra.is_empty() {
        own.hint("inner", Value::Object(extra));
    }
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
            // Not `format!`ed to compare: this runs for every image.
            let plain = header
                .strip_prefix("data:")
                .and_then(|rest| rest.strip_suffix(";base64"))
                == Some(mime_type.as_str());
            if !plain {
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
/// A file part from `file_data`: a data URL, or bare base64 (both OpenAI
/// shapes take either); without a `filename`, a hint says so.
pub(crate) fn media_from_file_data(
    data: &str,
    name: Option<&str>,
    at: &str,
    own: &mut Own,
    lending: &Lending,
) -> Result<Part, ConvertError> {
    if name.is_none() {
        own.hint("filename", "absent");
    }
    if dataurl::is_data_url(data) {
        media_from_url(data, MediaKind::File, name, at, own)
    } else {
        Ok(media_from_raw(data, name, own, lending))
    }
}

pub(crate) fn media_from_raw(
    data: &str,
    name: Option<&str>,
    own: &mut Own,
    lending: &Lending,
) -> Part {
    own.hint("file_data", "raw");
    let sniffed = lending
        .with_resolved(data, crate::b64::decode_strict)
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
