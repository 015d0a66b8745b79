//! Reading a Gemini `functionResponse` into a canonical tool result: its
//! `response` as text, its `parts` as media.

use super::parts::{extensions, opaque, read_media};
use super::{keep_rest, DATA_KEYS};
use crate::contract::ext::Own;
use crate::contract::{Context, ConvertError};
use crate::json::lent::Lending;
use crate::json::{Node, Object, View};
use crate::shapes::gemini::repeated::{self, Singles};
use crate::shapes::gemini::{camel, field, get, SHAPE};
use crate::transcript::{Block, ToolResult};

/// The text of a response value: a string is the text (an empty one is no
/// text at all); anything else is its compact JSON, with a hint (`<key>-json`)
/// so that writing Gemini gives the value back.
pub(super) fn response_text<N: Node>(
    value: &N,
    key: &str,
    own: &mut Own,
    context: &Context,
) -> Vec<Block> {
    match value.view() {
        View::String("") => Vec::new(),
        View::String(text) => vec![Block::text(text)],
        _ => {
            own.hint("response", format!("{key}-json"));
            vec![Block::text(context.text_of(&value.to_value()))]
        }
    }
}

/// Reads a `functionResponse`: `{"output": …}` is the result's text,
/// `{"error": …}` an error's, any other object its JSON text; media in `parts`
/// follow the text.
pub(super) fn read_response_part<N: Node>(
    inner: &N,
    at: &str,
    mut own: Own,
    context: &mut Context,
) -> Result<ToolResult, ConvertError> {
    let response = crate::shapes::kit::object_at(inner, at, "functionResponse must be an object")?;
    let mut known = vec!["response", "parts"];
    let name = match get(response, "name").and_then(Node::as_str) {
        Some(name) => {
            known.push("name");
            Some(name.to_string())
        }
        None => None,
    };
    let call_id = match get(response, "id").and_then(Node::as_str) {
        Some(id) => {
            known.push("id");
            Some(id.to_string())
        }
        None => None,
    };
    let mut is_error = false;
    let mut content = match field(response, "response") {
        None => {
            own.hint("response", "absent");
            Vec::new()
        }
        Some((key, value)) => match value.view() {
            View::Object(object) if object.len() == 1 && object.contains_key("output") => {
                let output = object.get("output").expect("checked above");
                response_text(output, "output", &mut own, context)
            }
            View::Object(object) if object.len() == 1 && object.contains_key("error") => {
                is_error = true;
                let error = object.get("error").expect("checked above");
                response_text(error, "error", &mut own, context)
            }
            View::Object(_) => {
                own.hint("response", "object");
                vec![Block::text(context.text_of(&value.to_value()))]
            }
            _ => {
                if context.target == SHAPE {
                    context.note(format!(
                        "{at}/{key} is not an object; written as {{\"output\": …}} (Gemini needs an object)"
                    ));
                }
                response_text(value, "output", &mut own, context)
            }
        },
    };
    if let Some((key, parts)) = field(response, "parts") {
        let (parts, single) = repeated::items(parts, &format!("{at}/{key}"));
        let mut singles = Singles::default();
        singles.note("functionResponse.parts", single);
        singles.store(&mut own);
        for (here, part) in parts {
            content.push(read_response_media(part, &here, context.lending())?);
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
pub(super) fn read_response_media<N: Node>(
    value: &N,
    at: &str,
    lending: &Lending,
) -> Result<Block, ConvertError> {
    let map =
        crate::shapes::kit::object_at(value, at, "a function response part must be an object")?;
    let data: Vec<(&str, &N)> = map
        .members()
        .filter(|(key, _)| DATA_KEYS.contains(&camel(key).as_ref()))
        .collect();
    let [(key, inner)] = data[..] else {
        return Ok(opaque(value));
    };
    let kind = camel(key);
    if !matches!(kind.as_ref(), "inlineData" | "fileData") {
        return Ok(opaque(value));
    }
    let mut own = Own::new();
    keep_rest(&mut own, map, &[kind.as_ref()], "");
    let part = read_media(
        &kind,
        inner,
        &format!("{at}/{key}"),
        &mut own,
        true,
        lending,
    )?;
    Ok(Block::Part {
        part,
        extensions: extensions(own),
    })
}
