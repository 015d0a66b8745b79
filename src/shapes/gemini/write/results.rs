//! Writing canonical tool results as Gemini `functionResponse` parts: text in
//! `response`, media natively in `parts`.

use serde_json::{Map, Value};

use super::{restore_kept, restore_part, Writer, TEXT_SEPARATOR};
use crate::contract::ConvertError;
use crate::part::Part;
use crate::shapes::gemini::{hint, hint_str, repeated, SHAPE};
use crate::shapes::kit::{drop_foreign, invalid, lose_block, put};
use crate::shapes::{object, string, Place};
use crate::transcript::{unsupported_placeholder, Block, Extensions, ToolResult};

impl Writer<'_> {
    /// A `functionResponse` part: `response` is always an object, the texts
    /// joined by a blank line under `output` (`error` for an error result),
    /// or the value a Gemini input had there; media go natively in `parts`.
    pub(super) fn function_response(
        &mut self,
        result: &ToolResult,
        at: &str,
    ) -> Result<Value, ConvertError> {
        drop_foreign(&result.extensions, self.context)?;
        let name = result
            .name
            .clone()
            .or_else(|| {
                result
                    .call_id
                    .as_ref()
                    .and_then(|id| self.names.get(id).cloned())
            })
            .ok_or_else(|| {
                let call = match &result.call_id {
                    Some(id) => format!(
                        "no call with id {id} names it",
                        id = crate::echo::quoted(id)
                    ),
                    None => "it has no call id".to_string(),
                };
                let hint = if self.single { " (pass --name)" } else { "" };
                invalid(
                    at,
                    format!("a Gemini functionResponse needs the tool's name, and {call}{hint}"),
                )
            })?;
        let mut texts: Vec<String> = Vec::new();
        let mut parts = Vec::new();
        for (i, block) in result.content.iter().enumerate() {
            let here = format!("{at}/content/{i}");
            match block {
                Block::Part {
                    part: Part::Text(text),
                    extensions,
                } => {
                    drop_foreign(extensions, self.context)?;
                    if !parts.is_empty() && hint(extensions, "response").is_none() {
                        // Text lives in `response`, media in `parts`: text
                        // after media cannot stay after it.
                        self.context.note(
                            "gemini function responses hold their text apart from their media: text that came after media now comes before it",
                        );
                    }
                    texts.push(text.clone());
                }
                Block::Part { part, extensions } => {
                    drop_foreign(extensions, self.context)?;
                    match self.result_part(part, extensions, &here)? {
                        Ok(mut value) => {
                            restore_part(&mut value, part, extensions, self.context.lending());
                            parts.push(value);
                        }
                        Err(text) => texts.push(text),
                    }
                }
                Block::Opaque(opaque) if opaque.shape == SHAPE => parts.push(opaque.value.clone()),
                other => lose_block(other, self.context)?,
            }
        }
        let extensions = &result.extensions;
        let response = self.response_value(result, &texts);
        let mut inner = Map::new();
        if let Some(id) = &result.call_id {
            put(&mut inner, "id", string(id));
        }
        put(&mut inner, "name", Value::String(name));
        if let Some(response) = response {
            put(&mut inner, "response", response);
        }
        if !parts.is_empty() {
            put(&mut inner, "parts", Value::Array(parts));
        }
        let mut part = Map::new();
        put(&mut part, "functionResponse", Value::Object(inner));
        restore_kept(&mut part, extensions);
        repeated::restore(&mut part, &repeated::paths(extensions));
        Ok(Value::Object(part))
    }

    /// The `response` of a function response: the texts joined under
    /// `output` (`error`), or the value a Gemini input had there (its `$response`
    /// hint); `None` where the input had none.
    fn response_value(&self, result: &ToolResult, texts: &[String]) -> Option<Value> {
        let text = texts.join(TEXT_SEPARATOR);
        let key = if result.is_error { "error" } else { "output" };
        let parsed = || serde_json::from_str::<Value>(&text).ok();
        match hint_str(&result.extensions, "response") {
            Some("absent") if texts.is_empty() => None,
            Some("object") if !result.is_error => match parsed() {
                Some(object @ Value::Object(_)) => Some(object),
                _ => Some(object([(key, Value::String(text.clone()))])),
            },
            Some(json) if json == format!("{key}-json") => Some(object([(
                key,
                parsed().unwrap_or(Value::String(text.clone())),
            )])),
            // A result that is one JSON object (a structured response that
            // went through a shape whose results are text) is that object
            // again, unless it would read back as something else.
            // (`partkit split` keeps `{"output": …}` for a tool's text: docs/commands/split.md.)
            None if !result.is_error && !self.split && texts.len() == 1 => match parsed() {
                Some(Value::Object(map))
                    if !map.is_empty()
                        && !(map.len() == 1
                            && (map.contains_key("output") || map.contains_key("error"))) =>
                {
                    Some(Value::Object(map))
                }
                _ => Some(object([(key, Value::String(text.clone()))])),
            },
            _ => Some(object([(key, Value::String(text.clone()))])),
        }
    }

    /// A media part of a tool result as an entry of `functionResponse.parts`, or
    /// the text that replaces it (the unsupported-part rule).
    pub(super) fn result_part(
        &mut self,
        part: &Part,
        extensions: &Extensions,
        at: &str,
    ) -> Result<Result<Value, String>, ConvertError> {
        let written = if hint(extensions, "unchecked") == Some(&Value::Bool(true)) {
            crate::shapes::gemini::unchecked_part(part, Place::ToolResult)
        } else {
            crate::shapes::gemini::write_part(part, Place::ToolResult)
        };
        let unsupported = match written {
            Ok(value) => return Ok(Ok(value)),
            Err(unsupported) => unsupported,
        };
        if self.split {
            self.context.note(format!(
                "{} parts from tools cannot be carried by {SHAPE}; replaced by a placeholder text",
                part.type_name()
            ));
            return Ok(Err(unsupported_placeholder(part, self.context.lending())));
        }
        let replacement = self
            .context
            .unsupported(part, Place::ToolResult, at, unsupported)?;
        Ok(Err(match replacement.as_part() {
            Some(Part::Text(text)) => text.clone(),
            _ => unsupported_placeholder(part, self.context.lending()),
        }))
    }
}
