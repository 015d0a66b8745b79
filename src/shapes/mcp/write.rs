//! Writing one canonical tool result as an MCP `CallToolResult`.

use serde_json::{Map, Value};

use crate::contract::ext::Mine;
use crate::contract::{Context, ConvertError, Form};
use crate::json::lent::Lending;
use crate::part::{Part, Source};
use crate::shapes::kit::{kept_for, only_tool_result};
use crate::shapes::{Place, Shape};
use crate::transcript::{Block, ToolResult, Transcript};

const SHAPE: Shape = Shape::Mcp;

/// Writes the transcript's one tool result as a `CallToolResult`; MCP has no
/// transcripts, so any other input is refused.
pub fn write(
    transcript: &Transcript,
    form: Form,
    context: &mut Context,
) -> Result<Value, ConvertError> {
    let result = only_tool_result(
        transcript,
        form,
        "mcp holds a single tool result (CallToolResult); convert one tool result, not a transcript",
    )?;
    write_result(result, context)
}

/// One `CallToolResult`. The call id has no place in it and is dropped with a note.
pub fn write_result(result: &ToolResult, context: &mut Context) -> Result<Value, ConvertError> {
    let mine = kept_for(&result.extensions, SHAPE, context)?;
    if let Some(id) = &result.call_id {
        context.note(format!(
            "mcp carries no call id; dropped {id}",
            id = crate::echo::quoted(id)
        ));
    }
    let mut content = Vec::with_capacity(result.content.len());
    for (i, block) in result.content.iter().enumerate() {
        let at = format!("/content/{i}");
        match block {
            Block::Part { part, extensions } => {
                crate::shapes::kit::drop_foreign(extensions, context)?;
                let mut value = context.write_part(part, Place::ToolResult, &at, |p| {
                    super::write_part(p, Place::ToolResult)
                })?;
                restore_block(
                    &mut value,
                    part,
                    Mine::of(extensions, SHAPE),
                    context.lending(),
                );
                content.push(value);
            }
            Block::Opaque(opaque) if opaque.shape == SHAPE => content.push(opaque.value.clone()),
            other => crate::shapes::kit::lose_block(other, context)?,
        }
    }
    let mut map = Map::new();
    map.insert("content".into(), Value::Array(content));
    // A flag kept as written (no boolean) goes back in its place.
    if result.is_error || mine.hint("isError").is_some() || mine.field("isError").is_some() {
        map.insert("isError".into(), Value::Bool(result.is_error));
    }
    mine.restore(&mut map);
    super::order::restore(&mut map, "keys", mine);
    match mine.hint("jsonrpc") {
        Some(Value::Object(envelope)) => {
            let mut envelope = envelope.clone();
            envelope.insert("result".into(), Value::Object(map));
            super::order::restore(&mut envelope, "jsonrpcKeys", mine);
            Ok(Value::Object(envelope))
        }
        _ => Ok(Value::Object(map)),
    }
}

/// Puts back what the reader kept of a block: its own fields, the type as
/// it was spelled, the resource's URI and extra fields, a text resource's
/// text (its blob may be a placeholder `lending` lends), absent optional
/// fields.
fn restore_block(value: &mut Value, part: &Part, mine: Mine<'_>, lending: &Lending) {
    let Value::Object(map) = value else { return };
    mine.restore(map);
    if let Part::Media(media) = part {
        match map.get_mut("resource") {
            Some(Value::Object(resource)) => {
                restore_resource(resource, &media.mime_type, mine, lending)
            }
            _ => super::types::restore(map, &media.mime_type, mine),
        }
        let is_link = map.get("type").and_then(Value::as_str) == Some("resource_link");
        if is_link && mine.hint_str("name") == Some("absent") {
            if let Source::Url(_) = media.source {
                map.shift_remove("name");
            }
        }
    }
    super::order::restore(map, "keys", mine);
}

/// An embedded resource's URI, type, text and fields, as they came.
fn restore_resource(
    resource: &mut Map<String, Value>,
    part_type: &str,
    mine: Mine<'_>,
    lending: &Lending,
) {
    match mine.hint("uri") {
        Some(Value::String(uri)) => {
            resource.insert("uri".into(), Value::String(uri.clone()));
        }
        Some(Value::Null) => {
            resource.shift_remove("uri");
        }
        _ => {}
    }
    super::types::restore(resource, part_type, mine);
    if mine.hint("text").is_some() {
        if let Some(text) = resource
            .shift_remove("blob")
            .and_then(|b| {
                b.as_str()
                    .and_then(|b| lending.with_resolved(b, crate::b64::decode_strict).ok())
            })
            .and_then(|bytes| String::from_utf8(bytes).ok())
        {
            resource.insert("text".into(), Value::String(text));
        }
    }
    if let Some(Value::Object(extra)) = mine.hint("resource") {
        for (key, item) in extra {
            resource.insert(key.clone(), item.clone());
        }
    }
    super::order::restore(resource, "resourceKeys", mine);
}

#[cfg(test)]
mod tests {
    use crate::shapes::Registered;
    use serde_json::json;

    use super::*;
    use crate::contract::convert::ConvertOptions;

    #[test]
    fn one_tool_result_and_nothing_else() {
        let result = json!({"role": "tool", "content": [
            {"type": "tool_result", "content": [{"type": "text", "text": "ok"}]}
        ]});
        let user = json!({"role": "user", "content": [{"type": "text", "text": "hi"}]});
        let table = [
            (
                json!({"messages": [result]}),
                Form::ToolResult,
                Ok(json!({"content": [{"type": "text", "text": "ok"}]})),
            ),
            (json!({"messages": [user]}), Form::Messages, Err(())),
            (
                json!({"messages": [result, result]}),
                Form::ToolResult,
                Err(()),
            ),
        ];
        for (input, form, expected) in table {
            let transcript = Transcript::from_value(&input).unwrap();
            let mut context =
                Context::new(ConvertOptions::default(), Shape::Canonical, SHAPE.dialect());
            let written = write(&transcript, form, &mut context).map_err(|_| ());
            assert_eq!(written, expected);
        }
    }
}
