//! Reading and writing a shape's entries in [`Extensions`].

use serde_json::{Map, Value};

use crate::shapes::Shape;
use crate::transcript::Extensions;

/// A shape's own entries: fields it has and the model does not, and `$` hints.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Own {
    map: Map<String, Value>,
}

impl Own {
    pub fn new() -> Own {
        Own::default()
    }

    /// Keeps a field of the source object verbatim.
    pub fn keep(&mut self, key: &str, value: &Value) {
        self.map.insert(key.to_string(), value.clone());
    }

    /// Records a form hint (`$key`).
    pub fn hint(&mut self, key: &str, value: impl Into<Value>) {
        self.map.insert(format!("${key}"), value.into());
    }

    /// Stores the entries under `shape` (nothing when empty).
    pub fn store(self, extensions: &mut Extensions, shape: Shape) {
        if !self.map.is_empty() {
            extensions.insert(shape.name().to_string(), Value::Object(self.map));
        }
    }

    /// Keeps every field of `object` whose key is not in `known`.
    pub fn keep_unknown(&mut self, object: &Map<String, Value>, known: &[&str]) {
        for (key, value) in object {
            if !known.contains(&key.as_str()) {
                self.keep(key, value);
            }
        }
    }
}

/// Adds a form hint (`$key`) to `shape`'s entries of some extensions that
/// already exist (a reader's pass after the fact).
pub fn add_hint(extensions: &mut Extensions, shape: Shape, key: &str, value: Value) {
    let entry = extensions
        .entry(shape.name().to_string())
        .or_insert_with(|| Value::Object(Map::new()));
    if let Value::Object(map) = entry {
        map.insert(format!("${key}"), value);
    }
}

/// A shape's entries of some extensions, for a writer.
#[derive(Debug, Clone, Copy)]
pub struct Mine<'e> {
    map: Option<&'e Map<String, Value>>,
}

impl<'e> Mine<'e> {
    pub fn of(extensions: &'e Extensions, shape: Shape) -> Mine<'e> {
        Mine {
            map: extensions.get(shape.name()).and_then(Value::as_object),
        }
    }

    /// Whether the shape kept nothing here.
    pub fn is_empty(&self) -> bool {
        self.map.is_none_or(Map::is_empty)
    }

    /// A form hint.
    pub fn hint(&self, key: &str) -> Option<&'e Value> {
        self.map?.get(&format!("${key}"))
    }

    /// A hint that is a string.
    pub fn hint_str(&self, key: &str) -> Option<&'e str> {
        self.hint(key).and_then(Value::as_str)
    }

    /// A kept field.
    pub fn field(&self, key: &str) -> Option<&'e Value> {
        self.map?.get(key)
    }

    /// Writes every kept field (not the hints) into `object`.
    pub fn restore(&self, object: &mut Map<String, Value>) {
        if let Some(map) = self.map {
            for (key, value) in map {
                if !key.starts_with('$') {
                    object.insert(key.clone(), value.clone());
                }
            }
        }
    }
}

/// The fields (not hints) that other shapes keep in `extensions`, as
/// `shape field` names for the dropped-content warning.
pub fn foreign_fields(extensions: &Extensions, target: Shape) -> Vec<String> {
    let mut names = Vec::new();
    for (shape, fields) in extensions {
        if shape == target.name() {
            continue;
        }
        if let Some(fields) = fields.as_object() {
            // A field set to null or to an empty value says nothing, so
            // dropping it loses nothing (NeMo Gym writes every unset Responses
            // field as null; most Bedrock bodies send `"system": []`).
            for (key, _) in fields.iter().filter(|(k, v)| {
                !k.starts_with('$')
                    && !says_nothing(v)
                    && !is_default(k, v)
                    && shared(shape, k, target).is_none()
                    && !by_endpoint(k, target)
            }) {
                names.push(format!("{shape} {key}"));
            }
            // Fields of a part's inner object (an OpenAI image's `detail`,
            // which the Responses writer carries over from Chat).
            if let Some(Value::Object(inner)) = fields.get("$inner") {
                let carried = |key: &str| {
                    Shape::from_name(shape).is_some_and(|source| {
                        target
                            .dialect()
                            .conversion()
                            .carried_inner_fields
                            .contains(&(source, key))
                    })
                };
                for (key, _) in inner
                    .iter()
                    .filter(|(k, v)| !carried(k) && !says_nothing(v))
                {
                    names.push(format!("{shape} {key}"));
                }
            }
        }
    }
    names
}

/// The shared field `key` of `source`'s extensions, if `target` has it too
/// (both list it in their [`ConvertFacts::shared_settings`]).
///
/// [`ConvertFacts::shared_settings`]: super::ConvertFacts::shared_settings
fn shared(source: &str, key: &str, target: Shape) -> Option<()> {
    let has = |shape: Shape| shape.dialect().conversion().shared_settings.contains(&key);
    (has(target) && Shape::from_name(source).is_some_and(has)).then_some(())
}

/// Writes the shared fields other shapes kept into a body of `target`
/// (where the body does not have them already).
pub fn carry_shared(extensions: &Extensions, target: Shape, body: &mut Map<String, Value>) {
    for (shape, fields) in extensions {
        let Some(fields) = fields.as_object() else {
            continue;
        };
        for (key, value) in fields {
            // A null says nothing (NeMo Gym writes unset fields so).
            if shape != target.name()
                && shared(shape, key, target).is_some()
                && !says_nothing(value)
                && !body.contains_key(key)
            {
                body.insert(key.clone(), value.clone());
            }
        }
    }
}

/// Streaming, which some targets choose by the endpoint a body is sent to
/// (Gemini's `streamGenerateContent`, Bedrock's `ConverseStream`), not by a
/// field: leaving it out of their body loses nothing.
fn by_endpoint(key: &str, target: Shape) -> bool {
    matches!(key, "stream" | "stream_options") && target.dialect().conversion().streams_by_endpoint
}

/// A setting at the value its shape takes when it is absent: dropping it
/// changes nothing (`"stream": false`, `"n": 1`).
fn is_default(key: &str, value: &Value) -> bool {
    matches!(
        (key, value),
        ("stream" | "logprobs", Value::Bool(false)) | ("parallel_tool_calls", Value::Bool(true))
    ) || (key == "n" && value.as_u64() == Some(1))
        // A shape's placeholder (Gemini's thought signature for a call without
        // one) stands for nothing.
        || value.as_str().is_some_and(|text| {
            Shape::ALL.into_iter().any(|shape| {
                let placeholders = shape.dialect().conversion().placeholders;
                placeholders.contains(&(key, text))
            })
        })
}

/// Null, or an empty string, list or object.
pub fn says_nothing(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::String(text) => text.is_empty(),
        Value::Array(items) => items.is_empty(),
        Value::Object(map) => map.is_empty(),
        _ => false,
    }
}

/// A tool only another shape has (kept whole under its `$tool` hint): its
/// description for the loss warning (`anthropic web_search_20250305 tools`).
/// Such a tool cannot be written as a function of the target.
pub fn foreign_whole_tool(extensions: &Extensions, target: Shape) -> Option<String> {
    extensions
        .iter()
        .filter(|(shape, _)| shape.as_str() != target.name())
        .find_map(|(shape, fields)| {
            let kept = fields.get("$tool")?;
            // Typed (`web_search_20250305`), or named by its one key (Bedrock's
            // `systemTool`).
            let only_key = kept
                .as_object()
                .filter(|m| m.len() == 1)
                .and_then(|m| m.keys().next());
            let kind = kept
                .get("type")
                .and_then(Value::as_str)
                .or(only_key.map(String::as_str))
                .unwrap_or("custom");
            Some(format!("{shape} {kind} tools"))
        })
}
