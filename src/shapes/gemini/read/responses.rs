//! Reading a Gemini `functionResponse` into a canonical tool result: its
//! `response` as text, its `parts` as media.

use super::parts::{extensions, opaque, read_media};
use super::{keep_rest, DATA_KEYS};
use crate::contract::ext::Own;
use crate::contract::{Context, ConvertError};
use crate::json::lent::Lending;
use crate::shapes::gemini::repeated::{self, Singles};
use crate::shapes::gemini::{camel, field, get, SHAPE};
use crate::transcript::{Block, ToolResult};
use serde_json::Value;

/// The text of a response value: a string is the text (an empty one is no
/// text at all); anything else is its compact JSON, with a hint (`<key>-json`)
/// so that writing Gemini gives the value back.
pub(super) fn response_text(
    value: &Value,
    key: &str,
    own: &mut Own,
    context: &Context,
) -> Vec<Block> {
    match value {
        Value::String(text) if text.is_empty() => Vec::new(),
        Value::String(text) => vec![Block::text(text.clone())],
        other => {
            own.hint("response", format!("{key}-json"));
            vec![Block::text(context.text_of(other))]
        }
    }
}

/// Reads a `functionResponse`: `{"output": …}` is the result's text,
/// `{"error": …}` an error's, any other object its JSON text; media in `parts`
/// follow the text.
pub(super) fn read_response_part(
    inner: &Value,
    at: &str,
    mut own: Own,
    context: &mut Context,
) -> Result<ToolResult, ConvertError> {
    let response = crate::shapes::kit::object_at(inner, at, "functionResponse must be an object")?;
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
            response_text(&object["output"], "output", &mut own, context)
        }
        Some((_, Value::Object(object))) if object.len() == 1 && object.contains_key("error") => {
            is_error = true;
            response_text(&object["error"], "error", &mut own, context)
        }
        Some((_, object @ Value::Object(_))) => {
            own.hint("response", "object");
            vec![Block::text(context.text_of(object))]
        }
        Some((key, other)) => {
            if context.target == SHAPE {
                context.note(format!(
                    "{at}/{key} is not an object; written as {{\"output\": …}} (Gemini needs an object)"
                ));
            }
            response_text(other, "output", &mut own, context)
        }
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
pub(super) fn read_response_media(
    value: &Value,
    at: &str,
    lending: &Lending,
) -> Result<Block, ConvertError> {
    let map =
        crate::shapes::kit::object_at(value, at, "a function response part must be an object")?;
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
