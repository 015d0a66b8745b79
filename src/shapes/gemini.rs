//! Gemini generateContent (REST): parts, and (in `read` and `write`) whole
//! requests, content lists, responses and single function responses.
//!
//! Gemini input is read in camelCase or snake_case (the official SDK sends a
//! mix); everything partkit writes, and everything it keeps for writing Gemini
//! again, is camelCase. What Gemini has and the canonical model does not is kept
//! in `extensions["gemini"]`: fields under their camelCase name, fields of an
//! inner object under a dotted path (`functionCall.willContinue`,
//! `generationConfig.topK`, `tools.googleSearch`), and `$` form hints.

/// What the command line says of this shape.
pub const FACTS: super::Facts = super::Facts {
    document: "Gemini generateContent (REST, camelCase)",
    tool_result: Some("A functionResponse part"),
    parts: "Gemini parts (camelCase)",
};

/// This shape's side of [`Dialect`](super::Dialect).
#[derive(Debug, Clone, Copy)]
pub struct Gemini;

impl super::Dialect for Gemini {
    super::dialect_basics!(Gemini, write_part);

    fn order(&self) -> super::Order {
        super::Order { scan: 5, ties: 0 }
    }

    fn write_split_reply(
        &self,
        transcript: &crate::transcript::Transcript,
        context: &mut crate::contract::Context,
    ) -> Option<Result<serde_json::Value, crate::contract::ConvertError>> {
        Some(write_split(
            transcript,
            crate::contract::Form::ToolResult,
            context,
        ))
    }
    super::delegate! {
        recognize_media => scan::recognize,
        detect_document => detect::document,
        detect_evidence => detect::evidence,
        conversion => conversion::FACTS,
        validate_rules => rules::check,
        validate_facts => rules::FACTS,
        tool_object => rules::tool_object,
    }

    fn tool_result_needs_name(&self) -> Option<&'static str> {
        Some("a Gemini function response names its tool")
    }

    fn stream(&self) -> Option<&'static dyn super::StreamAssembler> {
        Some(&stream::STREAM)
    }

    super::reads_trees!();
}

mod acceptance;
mod conversion;
mod detect;
mod enums;
mod read;
mod repeated;
mod scan;
mod stream;

mod rules;
mod signature;
mod write;

pub use signature::PLACEHOLDER as THOUGHT_SIGNATURE_PLACEHOLDER;

pub use read::read;
pub use write::write;
pub(crate) use write::write_split;

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::{check_image_type, object, string, Place, Shape, Unsupported};
use crate::json::lent::Lending;
use crate::json::{Node, Object, View};
use crate::media::MediaKind;
use crate::part::{MediaPart, Part, Source};
use crate::transcript::Extensions;

const SHAPE: Shape = Shape::Gemini;

/// Image types Gemini documents.
pub const IMAGE_TYPES: &[&str] = &[
    "image/png",
    "image/jpeg",
    "image/webp",
    "image/heic",
    "image/heif",
];

/// Audio types Gemini documents (`audio/mpeg` is partkit's spelling of mp3).
pub const AUDIO_TYPES: &[&str] = &[
    "audio/wav",
    "audio/mpeg",
    "audio/aiff",
    "audio/x-aiff",
    "audio/aac",
    "audio/ogg",
    "audio/flac",
];

/// What a function response may carry in its `parts`: inline PNG, JPEG, WebP,
/// PDF and text/plain.
pub const FUNCTION_RESPONSE_TYPES: &[&str] = &[
    "image/png",
    "image/jpeg",
    "image/webp",
    "application/pdf",
    "text/plain",
];

/// Writes one part as a Gemini `Part`. For a tool result this is one entry of
/// `functionResponse.parts` (inline data only, no text: text goes in `response`).
/// The checks are what Gemini documents; the part itself is written by
/// `unchecked_part`, the one builder of Gemini's blobs.
pub fn write_part(part: &Part, place: Place) -> Result<Value, Unsupported> {
    if let Part::Media(media) = part {
        match place {
            Place::User => check_type(media)?,
            Place::ToolResult => check_function_response(media)?,
        }
    }
    unchecked_part(part, place)
}

/// Writes a part as Gemini without checking what Gemini documents: for media a
/// Gemini input had, written back as Gemini (so a `fileData` a Gemini function
/// response had stays one, though [`write_part`] refuses to make one). In a
/// tool result the name is `displayName`; text has no place there.
pub(crate) fn unchecked_part(part: &Part, place: Place) -> Result<Value, Unsupported> {
    let media = match part {
        Part::Text(text) if place == Place::User => return Ok(object([("text", string(text))])),
        Part::Text(_) => {
            return Err(Unsupported {
                part_type: "text",
                mime_type: None,
                shape: SHAPE,
                reason: "function response parts carry no text (it belongs in response)".into(),
            })
        }
        Part::Media(media) => media,
    };
    let (key, mut blob) = match &media.source {
        Source::Data(data) => (
            "inlineData",
            object([
                ("mimeType", string(&media.mime_type)),
                ("data", string(data)),
            ]),
        ),
        Source::Url(url) => (
            "fileData",
            object([
                ("mimeType", string(&media.mime_type)),
                ("fileUri", string(url)),
            ]),
        ),
    };
    if let (Some(name), Value::Object(map), Place::ToolResult) = (&media.name, &mut blob, place) {
        map.insert("displayName".into(), string(name));
    }
    Ok(object([(key, blob)]))
}

/// Refuses media a function response does not document: only inline PNG,
/// JPEG, WebP, PDF and text/plain.
fn check_function_response(media: &MediaPart) -> Result<(), Unsupported> {
    if !FUNCTION_RESPONSE_TYPES.contains(&media.mime_type.as_str()) {
        return Err(Unsupported::media(
            media,
            SHAPE,
            "function responses carry only PNG, JPEG, WebP, PDF and text/plain",
        ));
    }
    if !matches!(media.source, Source::Data(_)) {
        return Err(Unsupported::media(
            media,
            SHAPE,
            "function responses carry inline data only",
        ));
    }
    Ok(())
}

fn check_type(media: &MediaPart) -> Result<(), Unsupported> {
    match media.kind {
        // fileData declares its mimeType: an image by URL whose type nothing
        // tells has nothing to declare there.
        MediaKind::Image if super::is_untyped_url_image(media) => Err(Unsupported::media(
            media,
            SHAPE,
            "Gemini's fileData must declare the image's type, and nothing tells this URL's type (it has no image extension)",
        )),
        MediaKind::Image => check_image_type(media, SHAPE, IMAGE_TYPES),
        MediaKind::Audio if AUDIO_TYPES.contains(&media.mime_type.as_str()) => Ok(()),
        MediaKind::Audio => Err(Unsupported::media(
            media,
            SHAPE,
            "Gemini accepts wav, mp3, aiff, aac, ogg and flac audio",
        )),
        MediaKind::File => {
            let mime = media.mime_type.as_str();
            let documented = mime == "application/pdf"
                || mime.starts_with("text/")
                || mime.starts_with("video/")
                || matches!(mime, "application/json" | "application/xml");
            if documented {
                Ok(())
            } else {
                Err(Unsupported::media(
                    media,
                    SHAPE,
                    "Gemini reads PDF, text and video files",
                ))
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Casing and kept fields

/// Objects whose keys are data, not Gemini field names: never re-cased.
const VERBATIM: &[&str] = &[
    "args",
    "response",
    "parametersJsonSchema",
    "responseJsonSchema",
    "properties",
    "labels",
    "default",
    "example",
    "headers",
    "partialArgs",
];

/// The camelCase spelling of a Gemini field name (`inline_data` → `inlineData`);
/// names that are not snake_case are returned as they are.
fn camel(key: &str) -> Cow<'_, str> {
    let snake = key.contains('_')
        && key.starts_with(|c: char| c.is_ascii_lowercase())
        && key
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
    if !snake {
        return Cow::Borrowed(key);
    }
    let mut out = String::with_capacity(key.len());
    let mut upper = false;
    for c in key.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.push(c.to_ascii_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// The snake_case spelling of a camelCase field name.
fn snake(key: &str) -> String {
    let mut out = String::with_capacity(key.len() + 4);
    for c in key.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// Standard padded base64 spelled in another form Gemini accepts: `url-safe`
/// (`-` and `_` for `+` and `/`), `unpadded`, or both. A payload `lending`
/// lends is respelled from the input.
fn spell_base64(standard: &str, form: &str, lending: &Lending) -> String {
    lending.with_resolved(standard, |standard| {
        let mut text = if form.contains("unpadded") {
            standard.trim_end_matches('=').to_string()
        } else {
            standard.to_string()
        };
        if form.contains("url-safe") {
            text = text.replace('+', "-").replace('/', "_");
        }
        text
    })
}

/// The camelCase names of the Gemini fields that `value` spells in snake_case
/// (data objects left out), sorted.
fn snake_names<N: Node>(value: &N) -> Vec<String> {
    fn walk<N: Node>(value: &N, found: &mut std::collections::BTreeSet<String>) {
        match value.view() {
            View::Object(map) => {
                for (key, item) in map.members() {
                    let name = camel(key);
                    if let Cow::Owned(name) = &name {
                        found.insert(name.clone());
                    }
                    if !VERBATIM.contains(&name.as_ref()) {
                        walk(item, found);
                    }
                }
            }
            View::Array(items) => items.iter().for_each(|item| walk(item, found)),
            _ => {}
        }
    }
    let mut found = std::collections::BTreeSet::new();
    walk(value, &mut found);
    found.into_iter().collect()
}

/// Spells the field names listed in `names` (camelCase) in snake_case, in
/// place, leaving data objects alone.
fn spell_snake(value: &mut Value, names: &[&str]) {
    match value {
        Value::Object(map) => {
            let renamed = map.keys().any(|key| names.contains(&key.as_str()));
            if renamed {
                let old = std::mem::take(map);
                for (key, item) in old {
                    let key = if names.contains(&key.as_str()) {
                        snake(&key)
                    } else {
                        key
                    };
                    map.insert(key, item);
                }
            }
            for (key, item) in map.iter_mut() {
                if !VERBATIM.contains(&camel(key).as_ref()) {
                    spell_snake(item, names);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|item| spell_snake(item, names)),
        _ => {}
    }
}

/// A value with every Gemini field name in camelCase (data objects such as
/// `args`, `response` and JSON Schemas are left as written).
fn camelize<N: Node>(value: &N) -> Value {
    match value.view() {
        View::Object(map) => Value::Object(camelize_map(map)),
        View::Array(items) => Value::Array(items.iter().map(camelize).collect()),
        _ => value.to_value(),
    }
}

/// An object as [`camelize`] gives it, as a map.
fn camelize_map<O: Object>(map: &O) -> Map<String, Value> {
    let mut out = Map::with_capacity(map.len());
    for (key, item) in map.members() {
        let key = camel(key).into_owned();
        let item = if VERBATIM.contains(&key.as_str()) {
            item.to_value()
        } else {
            camelize(item)
        };
        out.insert(key, item);
    }
    out
}

/// A field by its camelCase name, or its snake_case one: the key as written
/// (for pointers) and the value. One look at each key, and no snake_case
/// name spelled out: detection asks every object of a document for a dozen
/// names, most of them absent.
fn field<'m, O: Object>(map: &'m O, name: &str) -> Option<(&'m str, &'m O::Node)> {
    let mut snake = None;
    for (key, value) in map.members() {
        if key == name {
            return Some((key, value));
        }
        if snake.is_none() && is_snake_of(key, name) {
            snake = Some((key, value));
        }
    }
    snake
}

/// Whether `key` is `name` spelled as [`snake`] spells it (`file_uri` for
/// `fileUri`).
fn is_snake_of(key: &str, name: &str) -> bool {
    let mut key = key.bytes();
    for byte in name.bytes() {
        let same = if byte.is_ascii_uppercase() {
            key.next() == Some(b'_') && key.next() == Some(byte.to_ascii_lowercase())
        } else {
            key.next() == Some(byte)
        };
        if !same {
            return false;
        }
    }
    key.next().is_none()
}

/// The value of a field by its camelCase or snake_case name.
fn get<'m, O: Object>(map: &'m O, name: &str) -> Option<&'m O::Node> {
    field(map, name).map(|(_, value)| value)
}

/// This shape's entries in some extensions.
fn mine(extensions: &Extensions) -> Option<&Map<String, Value>> {
    extensions.get(SHAPE.name()).and_then(Value::as_object)
}

/// A form hint of this shape in some extensions.
fn hint<'e>(extensions: &'e Extensions, key: &str) -> Option<&'e Value> {
    mine(extensions)?.get(&format!("${key}"))
}

/// A string form hint of this shape.
fn hint_str<'e>(extensions: &'e Extensions, key: &str) -> Option<&'e str> {
    hint(extensions, key).and_then(Value::as_str)
}

/// Adds a form hint of this shape to some extensions.
fn add_hint(extensions: &mut Extensions, key: &str, value: Value) {
    crate::contract::ext::add_hint(extensions, SHAPE, key, value);
}

/// Puts a kept field back at its dotted path inside `map`, creating the objects
/// on the way; an object merges into an object already there.
fn restore_at(map: &mut Map<String, Value>, path: &str, value: &Value) {
    match path.split_once('.') {
        None => match (map.get_mut(path), value) {
            (Some(Value::Object(there)), Value::Object(fields)) => {
                for (key, item) in fields {
                    there.insert(key.clone(), item.clone());
                }
            }
            _ => {
                map.insert(path.to_string(), value.clone());
            }
        },
        Some((head, rest)) => {
            let entry = map
                .entry(head.to_string())
                .or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(inner) = entry {
                restore_at(inner, rest, value);
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Schemas

/// The int64 fields of Gemini's `Schema`, which proto3 JSON may spell as strings.
const SCHEMA_COUNTS: &[&str] = &[
    "minItems",
    "maxItems",
    "minLength",
    "maxLength",
    "minProperties",
    "maxProperties",
];

/// The repeated fields of Gemini's `Schema` that hold strings or schemas.
const SCHEMA_LISTS: &[&str] = &["required", "enum", "propertyOrdering", "anyOf"];

/// A Gemini `Schema` (the OpenAPI subset of `parameters`) as JSON Schema: type
/// names (or their enum numbers) in lower case, `nullable: true` as a `"null"`
/// type, counts as numbers, a repeated field written as one value as a list
/// of it, field names in camelCase. Everything else is kept as written.
fn schema_to_json<N: Node>(schema: &N) -> Value {
    let Some(map) = schema.as_object() else {
        return schema.to_value();
    };
    let mut out = Map::with_capacity(map.len());
    let mut nullable = false;
    for (key, value) in map.members() {
        let key = camel(key).into_owned();
        let value = match key.as_str() {
            "type" => match enums::name(value, enums::SCHEMA_TYPES) {
                Some(("TYPE_UNSPECIFIED", _)) => continue,
                Some((name, _)) => Value::String(name.to_ascii_lowercase()),
                None => value.to_value(),
            },
            "nullable" => {
                if value.as_bool() == Some(true) {
                    nullable = true;
                    continue;
                }
                if value.as_bool() == Some(false) {
                    continue;
                }
                value.to_value()
            }
            "properties" => match value.view() {
                View::Object(properties) => Value::Object(
                    properties
                        .members()
                        .map(|(name, property)| (name.to_string(), schema_to_json(property)))
                        .collect(),
                ),
                _ => value.to_value(),
            },
            "items" => schema_to_json(value),
            "anyOf" => match value.view() {
                View::Array(items) => Value::Array(items.iter().map(schema_to_json).collect()),
                _ => Value::Array(vec![schema_to_json(value)]),
            },
            list if SCHEMA_LISTS.contains(&list) && value.as_array().is_none() => {
                Value::Array(vec![value.to_value()])
            }
            count if SCHEMA_COUNTS.contains(&count) => {
                match value.as_str().and_then(|text| text.parse::<u64>().ok()) {
                    Some(number) => Value::from(number),
                    None => value.to_value(),
                }
            }
            _ => value.to_value(),
        };
        out.insert(key, value);
    }
    if nullable {
        match out.get_mut("type") {
            Some(Value::String(name)) => {
                let name = name.clone();
                out.insert("type".into(), serde_json::json!([name, "null"]));
            }
            _ => {
                out.insert("nullable".into(), Value::Bool(true));
            }
        }
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn field_names_are_camel_cased_but_data_is_not() {
        assert_eq!(camel("inline_data"), "inlineData");
        assert_eq!(camel("parameters_json_schema"), "parametersJsonSchema");
        assert_eq!(camel("inlineData"), "inlineData");
        assert_eq!(camel("_private"), "_private");
        assert_eq!(camel("HARM_CATEGORY"), "HARM_CATEGORY");
        assert_eq!(snake("fileUri"), "file_uri");
        for (key, name) in [
            ("file_uri", "fileUri"),
            ("file_uri_", "fileUri"),
            ("fileuri", "fileUri"),
            ("file_Uri", "fileUri"),
            ("a_b_c", "aBC"),
            ("parts", "parts"),
            ("part", "parts"),
            ("_x", "X"),
            ("é_x", "éX"),
        ] {
            assert_eq!(is_snake_of(key, name), snake(name) == key, "{key} {name}");
        }
        assert_eq!(
            camelize(
                &json!({"function_call": {"name": "f", "args": {"user_id": 1}},
                             "thought_signature": "c2ln"})
            ),
            json!({"functionCall": {"name": "f", "args": {"user_id": 1}},
                   "thoughtSignature": "c2ln"})
        );
    }

    #[test]
    fn gemini_schemas_become_json_schemas() {
        assert_eq!(
            schema_to_json(&json!({
                "type": "OBJECT",
                "properties": {"user_id": {"type": "STRING", "nullable": true},
                               "tags": {"type": "ARRAY", "items": {"type": "STRING"}, "max_items": "3"}},
                "required": ["user_id"], "propertyOrdering": ["user_id", "tags"]})),
            json!({
                "type": "object",
                "properties": {"user_id": {"type": ["string", "null"]},
                               "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 3}},
                "required": ["user_id"], "propertyOrdering": ["user_id", "tags"]})
        );
    }

    #[test]
    fn enum_numbers_and_single_values_become_json_schema() {
        // Vertex AI's `enum-encoding=int`: OBJECT is 6, STRING 1, NULL 7,
        // TYPE_UNSPECIFIED (0) says nothing.
        assert_eq!(
            schema_to_json(&json!({
                "type": 6,
                "properties": {"city": {"type": 1, "enum": "Paris"},
                               "note": {"anyOf": {"type": 7}},
                               "any": {"type": 0}},
                "required": "city"})),
            json!({
                "type": "object",
                "properties": {"city": {"type": "string", "enum": ["Paris"]},
                               "note": {"anyOf": [{"type": "null"}]},
                               "any": {}},
                "required": ["city"]})
        );
        // A number no Type has is left for the schema check to report.
        assert_eq!(schema_to_json(&json!({"type": 42})), json!({"type": 42}));
    }

    #[test]
    fn kept_fields_go_back_to_their_paths() {
        let mut map = Map::new();
        restore_at(
            &mut map,
            "toolConfig.functionCallingConfig.mode",
            &json!("VALIDATED"),
        );
        restore_at(&mut map, "toolConfig", &json!({"retrievalConfig": {}}));
        restore_at(&mut map, "cachedContent", &json!("c"));
        assert_eq!(
            Value::Object(map),
            json!({"toolConfig": {"functionCallingConfig": {"mode": "VALIDATED"}, "retrievalConfig": {}},
                   "cachedContent": "c"})
        );
    }
}
