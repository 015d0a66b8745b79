//! Writing the canonical model as Gemini generateContent documents (camelCase):
//! a request body, a list of contents, a response, or a single function
//! response, following the form the input had.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::{enums, repeated};
use super::{hint, hint_str, mine, restore_at, spell_base64, spell_snake, SHAPE};
use crate::contract::{Context, ConvertError, Form};
use crate::json::lent::Lending;
use crate::part::{Part, Source};
use crate::shapes::kit::{invalid, lose_block, put, Forms};
use crate::shapes::{object, string, Place};
use crate::transcript::{Block, Extensions, Role, ToolCall, ToolChoice, Transcript};

mod contents;
mod results;
mod tools;

/// How the texts of a tool result are joined in `response.output`.
const TEXT_SEPARATOR: &str = "\n\n";

/// Writes a request body, a list of contents, a response or a function
/// response, following the form the input had. A list whose transcript has a
/// system prompt becomes a request body (Gemini keeps it outside the list).
pub fn write(
    transcript: &Transcript,
    form: Form,
    context: &mut Context,
) -> Result<Value, ConvertError> {
    let mut value = Writer::new(transcript, context, false).write(transcript, form)?;
    // Back in the casing the source used, field by field.
    if let Some(Value::Array(names)) = hint(&transcript.extensions, "snake") {
        let names: Vec<&str> = names.iter().filter_map(Value::as_str).collect();
        spell_snake(&mut value, &names);
    }
    Ok(value)
}

/// Writes a single tool result for `partkit split`: its notes use split's wording.
pub(crate) fn write_split(
    transcript: &Transcript,
    form: Form,
    context: &mut Context,
) -> Result<Value, ConvertError> {
    Writer::new(transcript, context, true).write(transcript, form)
}

/// One Gemini Content being written.
struct Content {
    /// A user Content (holding user parts and function responses), not a model one.
    user: bool,
    map: Map<String, Value>,
    /// Its repeated fields a Gemini input wrote as one value.
    singles: Vec<String>,
}

struct Writer<'c> {
    context: &'c mut Context,
    /// The names of the calls by id, for results that do not carry a name.
    names: HashMap<String, String>,
    /// Writing for `partkit split`.
    split: bool,
    /// Writing a single tool result.
    single: bool,
}

impl<'c> Writer<'c> {
    fn new(transcript: &Transcript, context: &'c mut Context, split: bool) -> Writer<'c> {
        let mut names = HashMap::new();
        for message in &transcript.messages {
            for block in &message.content {
                if let Block::ToolCall(ToolCall {
                    id: Some(id), name, ..
                }) = block
                {
                    names.entry(id.clone()).or_insert_with(|| name.clone());
                }
            }
        }
        Writer {
            context,
            names,
            split,
            single: false,
        }
    }

    /// A list of contents, or a request body where the list cannot hold
    /// everything (a system prompt, contents moved out of it).
    fn contents_document(
        &mut self,
        transcript: &Transcript,
        form: Form,
    ) -> Result<Value, ConvertError> {
        let (mut contents, moved) = self.contents(&transcript.messages, 0, false)?;
        super::signature::sign_foreign_calls(&mut contents, self.context);
        if form == Form::Messages && transcript.system.is_none() && moved.is_empty() {
            Ok(Value::Array(contents))
        } else {
            self.request_body(transcript, contents, moved)
        }
    }

    // -----------------------------------------------------------------------
    // Documents

    fn request_body(
        &mut self,
        transcript: &Transcript,
        contents: Vec<Value>,
        moved: Vec<Block>,
    ) -> Result<Value, ConvertError> {
        let extensions = &transcript.extensions;
        let mut map = Map::new();
        if let Some(model) = &transcript.model {
            if hint_str(extensions, "model") == Some("body") {
                put(&mut map, "model", string(model));
            } else {
                self.context.lose("model")?;
            }
        }
        let mut system = transcript.system.clone();
        if !moved.is_empty() {
            system.get_or_insert_with(Vec::new).extend(moved);
        }
        match (&system, hint(extensions, "blankSystem")) {
            (Some(system), _) => {
                let value = self.system_instruction(system, extensions)?;
                put(&mut map, "systemInstruction", value);
            }
            (None, Some(blank)) => put(&mut map, "systemInstruction", blank.clone()),
            (None, None) => {}
        }
        if !(contents.is_empty() && hint_str(extensions, "contents") == Some("absent")) {
            put(&mut map, "contents", Value::Array(contents));
        }
        if let Some(tools) = self.tools(transcript)? {
            put(&mut map, "tools", tools);
        }
        if let Some(choice) = &transcript.tool_choice {
            let (mode, names) = match choice {
                ToolChoice::Auto => ("AUTO", None),
                ToolChoice::None => ("NONE", None),
                ToolChoice::Required => ("ANY", None),
                ToolChoice::Tool(name) => ("ANY", Some(Value::from(vec![name.clone()]))),
            };
            // The mode's enum number where the Gemini input wrote one.
            let mode = match hint_str(extensions, "mode") {
                Some("number") => {
                    enums::number(mode, enums::CALLING_MODES).unwrap_or_else(|| string(mode))
                }
                _ => string(mode),
            };
            let mut calling = object([("mode", mode)]);
            if let (Some(names), Value::Object(calling)) = (names, &mut calling) {
                put(calling, "allowedFunctionNames", names);
            }
            put(
                &mut map,
                "toolConfig",
                object([("functionCallingConfig", calling)]),
            );
        }
        let mut generation = Map::new();
        for (key, value) in [
            ("temperature", &transcript.temperature),
            ("topP", &transcript.top_p),
            ("maxOutputTokens", &transcript.max_tokens),
        ] {
            if let Some(value) = value {
                put(&mut generation, key, value.clone());
            }
        }
        if let Some(stop) = &transcript.stop {
            put(&mut generation, "stopSequences", Value::from(stop.clone()));
        }
        if !generation.is_empty() {
            put(&mut map, "generationConfig", Value::Object(generation));
        }
        if let Some(kept) = mine(extensions) {
            for (key, value) in kept {
                if !key.starts_with('$')
                    && !key.starts_with("tools.")
                    && !key.starts_with("systemInstruction.")
                {
                    restore_at(&mut map, key, value);
                }
            }
        }
        if let Some(Value::Array(paths)) = hint(extensions, "empty") {
            for path in paths.iter().filter_map(Value::as_str) {
                restore_at(&mut map, path, &Value::Object(Map::new()));
            }
        }
        repeated::restore(&mut map, &repeated::paths(extensions));
        Ok(Value::Object(map))
    }

    fn system_instruction(
        &mut self,
        system: &[Block],
        extensions: &Extensions,
    ) -> Result<Value, ConvertError> {
        if hint_str(extensions, "systemInstruction") == Some("string") {
            if let [Block::Part {
                part: Part::Text(text),
                extensions: part_extensions,
            }] = system
            {
                if part_extensions.is_empty() {
                    return Ok(string(text));
                }
            }
        }
        let mut parts = Vec::with_capacity(system.len());
        for (i, block) in system.iter().enumerate() {
            let at = format!("/system/{i}");
            match block {
                Block::Part { part, extensions } => {
                    parts.push(self.user_part(part, extensions, Place::User, &at)?)
                }
                Block::Opaque(opaque) if opaque.shape == SHAPE => parts.push(opaque.value.clone()),
                other => lose_block(other, self.context)?,
            }
        }
        let mut map = Map::new();
        if !(parts.is_empty() && hint_str(extensions, "systemParts") == Some("absent")) {
            put(&mut map, "parts", Value::Array(parts));
        }
        if let Some(role) = hint(extensions, "systemRole") {
            put(&mut map, "role", role.clone());
        }
        if let Some(kept) = mine(extensions) {
            for (key, value) in kept {
                if let Some(path) = key.strip_prefix("systemInstruction.") {
                    restore_at(&mut map, path, value);
                }
            }
        }
        Ok(Value::Object(map))
    }

    /// The response of the first assistant message: its Content is the first
    /// candidate's; the rest of the envelope is the one read, or a minimal one
    /// (`finishReason` STOP). The model is `modelVersion`.
    fn response_document(&mut self, transcript: &Transcript) -> Result<Value, ConvertError> {
        let index = transcript
            .messages
            .iter()
            .position(|m| m.role == Role::Assistant)
            .ok_or_else(|| invalid("", "a response needs an assistant message"))?;
        let message = &transcript.messages[index];
        let (contents, _) = self.contents(std::slice::from_ref(message), index, true)?;
        let mut envelope = match hint(&transcript.extensions, "response") {
            Some(Value::Object(envelope)) => envelope.clone(),
            _ => {
                let mut envelope = Map::new();
                put(
                    &mut envelope,
                    "candidates",
                    serde_json::json!([{"finishReason": "STOP"}]),
                );
                envelope
            }
        };
        let mut candidate = Map::new();
        let absent = message.content.is_empty()
            && hint_str(&message.extensions, "content") == Some("absent");
        if !absent {
            if let Some(content) = contents.into_iter().next() {
                put(&mut candidate, "content", content);
            }
        }
        if let Some(Value::Array(candidates)) = envelope.get_mut("candidates") {
            if let Some(Value::Object(first)) = candidates.first() {
                for (key, value) in first {
                    if key != "content" {
                        put(&mut candidate, key, value.clone());
                    }
                }
            }
            match candidates.first_mut() {
                Some(first) => *first = Value::Object(candidate),
                None => candidates.push(Value::Object(candidate)),
            }
        }
        match &transcript.model {
            Some(model) => put(&mut envelope, "modelVersion", string(model)),
            None => {
                envelope.shift_remove("modelVersion");
            }
        }
        repeated::restore(&mut envelope, &repeated::paths(&transcript.extensions));
        Ok(Value::Object(envelope))
    }

    /// A single tool result: a `functionResponse` part; a user Content when the
    /// input was one, or when media were lifted next to the response.
    fn tool_result_document(&mut self, transcript: &Transcript) -> Result<Value, ConvertError> {
        let start = transcript
            .messages
            .iter()
            .position(|m| m.content.iter().any(|b| matches!(b, Block::ToolResult(_))))
            .ok_or_else(|| invalid("", "no tool result to write"))?;
        let result = transcript.messages[start]
            .content
            .iter()
            .find_map(|block| match block {
                Block::ToolResult(result) => Some(result),
                _ => None,
            });
        let wrapper = result
            .and_then(|result| hint(&result.extensions, "content"))
            .and_then(Value::as_object);
        let single = result
            .is_some_and(|result| hint_str(&result.extensions, "contentParts") == Some("single"));
        let (contents, _) = self.contents(&transcript.messages[start..], start, false)?;
        let Some(Value::Object(mut content)) = contents.into_iter().next() else {
            return Err(invalid("", "no tool result to write"));
        };
        if let Some(fields) = wrapper {
            let parts = content
                .shift_remove("parts")
                .unwrap_or(Value::Array(Vec::new()));
            let mut wrapped = fields.clone();
            put(&mut wrapped, "parts", parts);
            if single {
                repeated::restore(&mut wrapped, &["parts".to_string()]);
            }
            return Ok(Value::Object(wrapped));
        }
        match content.get("parts") {
            Some(Value::Array(parts)) if parts.len() == 1 => Ok(parts[0].clone()),
            // The one part of a Content whose parts were written as one value.
            Some(part @ Value::Object(_)) => Ok(part.clone()),
            _ => Ok(Value::Object(content)),
        }
    }

    // -----------------------------------------------------------------------
    // Contents

    // -----------------------------------------------------------------------
    // Parts

    // -----------------------------------------------------------------------
    // Tools
}

/// Gemini's documents, one method a form, for the writers' skeleton.
impl Forms for Writer<'_> {
    fn context(&mut self) -> &mut Context {
        self.context
    }

    fn request(&mut self, transcript: &Transcript) -> Result<Value, ConvertError> {
        self.contents_document(transcript, Form::Request)
    }

    fn messages(&mut self, transcript: &Transcript) -> Result<Value, ConvertError> {
        self.contents_document(transcript, Form::Messages)
    }

    fn response(&mut self, transcript: &Transcript) -> Result<Value, ConvertError> {
        self.response_document(transcript)
    }

    fn tool_result(&mut self, transcript: &Transcript) -> Result<Value, ConvertError> {
        self.single = true;
        self.tool_result_document(transcript)
    }
}

/// Puts back the fields this shape kept (not the hints) on a written object:
/// a dotted path goes inside (`functionCall.willContinue`).
fn restore_kept(map: &mut Map<String, Value>, extensions: &Extensions) {
    if let Some(kept) = mine(extensions) {
        for (key, value) in kept {
            if key.starts_with('$') {
                continue;
            }
            match key.split_once('.') {
                Some((head, _)) if !map.contains_key(head) => {}
                _ => restore_at(map, key, value),
            }
        }
    }
}

/// Puts back what a Gemini input had on a media or text part: kept fields, the
/// media type as it was spelled, `displayName` in user content.
fn restore_part(value: &mut Value, part: &Part, extensions: &Extensions, lending: &Lending) {
    let Value::Object(map) = value else {
        return;
    };
    restore_kept(map, extensions);
    let Part::Media(media) = part else {
        return;
    };
    let Some(key) = ["inlineData", "fileData"]
        .into_iter()
        .find(|key| map.contains_key(*key))
    else {
        return;
    };
    let Some(Value::Object(inner)) = map.get_mut(key) else {
        return;
    };
    if let (Some(form), Source::Data(data)) = (hint_str(extensions, "base64"), &media.source) {
        put(
            inner,
            "data",
            Value::String(spell_base64(data, form, lending)),
        );
    }
    match hint(extensions, "mimeType") {
        Some(Value::Null) => {
            inner.shift_remove("mimeType");
        }
        Some(Value::String(blank)) if blank.is_empty() => {
            put(inner, "mimeType", Value::String(String::new()));
        }
        Some(Value::String(declared))
            if crate::media::normalize(declared).as_deref() == Some(&media.mime_type) =>
        {
            put(inner, "mimeType", Value::String(declared.clone()));
        }
        _ => {}
    }
    if let (Some(Value::Bool(true)), Some(name)) = (hint(extensions, "displayName"), &media.name) {
        put(inner, "displayName", string(name));
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::shapes::gemini::{unchecked_part, write_part};

    /// What `write_part` (checked) and `unchecked_part` make of a part at a
    /// place: the one blob builder behind both, and the checks only the
    /// first has (`None`: refused).
    #[test]
    fn checked_and_unchecked_parts() {
        let png =
            json!({"type": "image", "mimeType": "image/png", "data": "AAAA", "name": "a.png"});
        let url = json!({"type": "image", "mimeType": "image/png", "url": "gs://b/a.png"});
        let tiff = json!({"type": "image", "mimeType": "image/tiff", "data": "AAAA"});
        let inline = json!({"inlineData": {"mimeType": "image/png", "data": "AAAA"}});
        let named = json!({"inlineData": {"mimeType": "image/png", "data": "AAAA", "displayName": "a.png"}});
        let file = json!({"fileData": {"mimeType": "image/png", "fileUri": "gs://b/a.png"}});
        let tiff_blob = json!({"inlineData": {"mimeType": "image/tiff", "data": "AAAA"}});
        let text = json!({"type": "text", "text": "hi"});
        let table = [
            (&png, Place::User, Some(&inline), &inline),
            (&png, Place::ToolResult, Some(&named), &named),
            (&url, Place::User, Some(&file), &file),
            // A function response documents inline data only; a Gemini
            // input's own fileData is written back unchecked.
            (&url, Place::ToolResult, None, &file),
            (&tiff, Place::User, None, &tiff_blob),
        ];
        for (part, place, checked, unchecked) in table {
            let part = Part::from_value(part).unwrap();
            assert_eq!(write_part(&part, place).ok().as_ref(), checked);
            assert_eq!(&unchecked_part(&part, place).unwrap(), unchecked);
        }
        let text = Part::from_value(&text).unwrap();
        assert_eq!(
            write_part(&text, Place::User).unwrap(),
            json!({"text": "hi"})
        );
        assert!(write_part(&text, Place::ToolResult).is_err());
        assert!(unchecked_part(&text, Place::ToolResult).is_err());
    }
}
