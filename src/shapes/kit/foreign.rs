//! Fields other shapes kept in a transcript's extensions, as a writer of
//! another shape sees them: which it must report dropped, and which settings
//! several shapes spell alike go across as they are (docs/model.md). These
//! ask every shape's conversion facts, so they live with the registry.

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::contract::ext::says_nothing;
use crate::json::out::{Members, Out};
use crate::shapes::Registered;
use crate::shapes::Shape;
use crate::transcript::Extensions;

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
                    && !says_nothing(*v)
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
                    .filter(|(k, v)| !carried(k) && !says_nothing(*v))
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
/// [`ConvertFacts::shared_settings`]: crate::contract::ConvertFacts::shared_settings
fn shared(source: &str, key: &str, target: Shape) -> Option<()> {
    let has = |shape: Shape| shape.dialect().conversion().shared_settings.contains(&key);
    (has(target) && Shape::from_name(source).is_some_and(has)).then_some(())
}

/// Writes the shared fields other shapes kept into a body of `target`
/// (where the body does not have them already).
pub fn carry_shared(extensions: &Extensions, target: Shape, body: &mut Map<String, Value>) {
    for (key, value) in carried(extensions, target, |key| body.contains_key(key)) {
        body.insert(key.clone(), value.clone());
    }
}

/// [`carry_shared`] into an output tree's body.
pub fn carry_shared_out(extensions: &Extensions, target: Shape, body: &mut Members) {
    for (key, value) in carried(extensions, target, |key| body.contains_key(key)) {
        body.insert(Cow::Owned(key.clone()), Out::Value(value.clone()));
    }
}

/// The shared fields other shapes kept that a body of `target` (which
/// `has` the keys it has) does not have yet.
fn carried(
    extensions: &Extensions,
    target: Shape,
    has: impl Fn(&str) -> bool,
) -> Vec<(&String, &Value)> {
    let mut carried: Vec<(&String, &Value)> = Vec::new();
    for (shape, fields) in extensions {
        let Some(fields) = fields.as_object() else {
            continue;
        };
        for (key, value) in fields {
            // A null says nothing (NeMo Gym writes unset fields so).
            if shape != target.name()
                && shared(shape, key, target).is_some()
                && !says_nothing(value)
                && !has(key)
                && !carried.iter().any(|(k, _)| *k == key)
            {
                carried.push((key, value));
            }
        }
    }
    carried
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
