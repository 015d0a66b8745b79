//! Reading OpenAI Responses content parts, function calls and their outputs
//! into canonical blocks.

use serde_json::{Map, Value};

use super::Place;
use crate::contract::ext::Own;
use crate::contract::{Context, ConvertError};
use crate::json::lent::Lending;
use crate::json::{Node, Object, View};
use crate::media::MediaKind;
use crate::part::Part;
use crate::shapes::kit::{invalid, opaque};
use crate::shapes::openai_chat::parse_arguments;
use crate::shapes::openai_chat::{media_from_file_data, media_from_url};
use crate::shapes::openai_responses::SHAPE;
use crate::transcript::{Block, Extensions, ToolCall, ToolResult};

/// Keeps item bookkeeping (`id`, `status`) as hints: restored for this shape,
/// and no content is lost when another shape has no place for them.
pub(super) fn quiet<O: Object>(own: &mut Own, map: &O, keys: &[&str]) {
    for key in keys {
        if let Some(value) = map.get(key) {
            own.hint(key, value.to_value());
        }
    }
}

/// Reads a message's `content`: a string (one text part, hinted) or parts.
pub(super) fn read_content<O: Object>(
    map: &O,
    at: &str,
    place: Place,
    own: &mut Own,
    lending: &Lending,
) -> Result<Vec<Block>, ConvertError> {
    match map.get("content").map(Node::view) {
        Some(View::String(text)) => {
            own.hint("content", "string");
            Ok(vec![Block::text(text)])
        }
        Some(View::Array(parts)) => {
            // The writer gives assistant history from other shapes a string;
            // a list the input had is said, so it comes back a list.
            if place == Place::Output {
                own.hint("content", "parts");
            }
            parts
                .iter()
                .enumerate()
                .map(|(i, part)| read_part(part, &format!("{at}/content/{i}"), place, lending))
                .collect()
        }
        _ => Err(invalid(
            &format!("{at}/content"),
            "content must be a string or a list of parts",
        )),
    }
}

/// Reads one content part (of a message, or of a `function_call_output`).
/// (Long: one arm per part type this shape has, each a few lines; the
/// list of types reads best in one place.)
pub(super) fn read_part<N: Node>(
    part: &N,
    at: &str,
    place: Place,
    lending: &Lending,
) -> Result<Block, ConvertError> {
    let map = crate::shapes::kit::object_at(part, at, "a content part must be an object")?;
    let kind = map.get("type").and_then(Node::as_str).unwrap_or("");
    let mut own = Own::new();
    let part = match kind {
        "input_text" | "output_text" => {
            let text = crate::shapes::kit::required_str(map, "text", at, "a text part needs text")?;
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
                match map.get("annotations").map(Node::view) {
                    None => own.hint("annotations", "absent"),
                    Some(View::Array([])) => known.push("annotations"),
                    Some(_) => {}
                }
                if let Some(View::Array(items)) = map.get("logprobs").map(Node::view) {
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
            let url = match (
                map.get("image_url").map(Node::view),
                map.contains_key("file_id"),
            ) {
                (Some(View::String(url)), false) => url,
                // A file_id refers to an upload only this provider has.
                _ => return Ok(opaque(SHAPE, part)),
            };
            let mut known = vec!["type", "image_url"];
            match (map.get("detail").map(Node::view), place) {
                // `auto` is what partkit writes on message images.
                (Some(View::String("auto")), Place::Input | Place::Output) => known.push("detail"),
                (Some(View::String("auto")), Place::ToolOutput) => {
                    own.hint("detail", "auto");
                    known.push("detail");
                }
                // The API defaults a message image's detail to `auto` (the SDK
                // types require it; the API does not): said, so it stays absent.
                (None, Place::Input | Place::Output) => own.hint("detail", "absent"),
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
            let name = map.get("filename").and_then(Node::as_str);
            let file = match (
                map.get("file_data").map(Node::view),
                map.get("file_url").map(Node::view),
                map.contains_key("file_id"),
            ) {
                (Some(View::String(data)), None, false) => {
                    media_from_file_data(data, name, &format!("{at}/file_data"), &mut own, lending)?
                }
                (None, Some(View::String(url)), false) => media_from_url(
                    url,
                    MediaKind::File,
                    name,
                    &format!("{at}/file_url"),
                    &mut own,
                )?,
                // A file_id (or an odd mix): only this provider has it.
                _ => return Ok(opaque(SHAPE, part)),
            };
            own.keep_unknown(map, &["type", "file_data", "file_url", "filename"]);
            file
        }
        // refusal, and anything else: only this shape has it.
        _ => return Ok(opaque(SHAPE, part)),
    };
    let mut extensions = Extensions::new();
    own.store(&mut extensions, SHAPE);
    Ok(Block::Part { part, extensions })
}

/// The entries an [`Own`] holds, as a plain object.
pub(super) fn into_map(own: Own) -> Map<String, Value> {
    let mut extensions = Extensions::new();
    own.store(&mut extensions, SHAPE);
    match extensions.remove(SHAPE.name()) {
        Some(Value::Object(map)) => map,
        _ => Map::new(),
    }
}

/// A `function_call` item: `call_id` is the call's id; the item's own `id`
/// (`fc_…`) and `status` are kept as hints, `namespace` and other fields kept.
pub(super) fn read_call<O: Object>(
    map: &O,
    at: &str,
    context: &mut Context,
) -> Result<Block, ConvertError> {
    let name = crate::shapes::kit::required_str(map, "name", at, "a function_call needs a name")?;
    let raw =
        crate::shapes::kit::required_str(map, "arguments", at, "arguments must be a JSON string")?;
    let id = call_id(map, at)?;
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

/// The `call_id` of a `function_call` or `function_call_output` item.
fn call_id<O: Object>(map: &O, at: &str) -> Result<Option<String>, ConvertError> {
    match map.get("call_id").map(Node::view) {
        Some(View::String(id)) => Ok(Some(id.to_string())),
        None => Ok(None),
        Some(_) => Err(invalid(
            &format!("{at}/call_id"),
            "call_id must be a string",
        )),
    }
}

/// A `function_call_output` item: `output` is a string (one text part) or a
/// list of `input_text` / `input_image` / `input_file` parts.
pub(super) fn read_output<O: Object>(
    map: &O,
    at: &str,
    call_names: &[(String, String)],
    lending: &Lending,
) -> Result<ToolResult, ConvertError> {
    let call_id = self::call_id(map, at)?;
    let mut own = Own::new();
    quiet(&mut own, map, &["id", "status"]);
    own.keep_unknown(map, &["type", "id", "call_id", "output", "status"]);
    let content =
        match map.get("output").map(Node::view) {
            Some(View::String(text)) => vec![Block::text(text)],
            Some(View::Array(parts)) => {
                // Written back as a string unless told otherwise.
                let one_text = parts.len() == 1
                    && parts[0].get("type").and_then(Node::as_str) == Some("input_text");
                if parts.is_empty() || one_text {
                    own.hint("output", "parts");
                }
                parts
                    .iter()
                    .enumerate()
                    .map(|(i, part)| {
                        read_part(
                            part,
                            &format!("{at}/output/{i}"),
                            Place::ToolOutput,
                            lending,
                        )
                    })
                    .collect::<Result<_, _>>()?
            }
            _ => return Err(invalid(
                &format!("{at}/output"),
                "output must be a string or a list of input_text, input_image and input_file parts",
            )),
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
