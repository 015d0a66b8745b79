//! A shape's entries in the model's [`Extensions`]: what it has and the model
//! does not, kept under its name so that a document read and written back by
//! the same shape comes out as it went in (docs/model.md). Keys starting with
//! `$` are form hints.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::{Shape, HUB};
use crate::json::out::{Members, Out};
use crate::json::{Node, Object, View};
use crate::transcript::{Extensions, Message};

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
    pub fn keep<N: Node>(&mut self, key: &str, value: &N) {
        self.map.insert(key.to_string(), value.to_value());
    }

    /// Records a form hint (`$key`).
    pub fn hint(&mut self, key: &str, value: impl Into<Value>) {
        self.map.insert(hint_key(key), value.into());
    }

    /// Stores the entries under `shape` (nothing when empty).
    pub fn store(self, extensions: &mut Extensions, shape: Shape) {
        if !self.map.is_empty() {
            extensions.insert(shape.name().to_string(), Value::Object(self.map));
        }
    }

    /// Keeps every field of `object` whose key is not in `known`.
    pub fn keep_unknown<O: Object>(&mut self, object: &O, known: &[&str]) {
        for (key, value) in object.members() {
            if !known.contains(&key) {
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
        map.insert(hint_key(key), value);
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
        let map = self.map?;
        // Most extensions hold no hints at all: no key made to look up.
        if map.is_empty() {
            return None;
        }
        map.get(&hint_key(key))
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

    /// [`Mine::restore`] into an output tree's object.
    pub fn restore_into(&self, members: &mut Members) {
        if let Some(map) = self.map {
            for (key, value) in map {
                if !key.starts_with('$') {
                    members.insert(Cow::Owned(key.clone()), Out::Value(value.clone()));
                }
            }
        }
    }
}

/// The key of the form hint `key`: `$key` (spelled without `format!`, which
/// took a tenth of a small document's conversion with the pointers).
fn hint_key(key: &str) -> String {
    ["$", key].concat()
}

/// Null, or an empty string, list or object (of either tree).
pub fn says_nothing<N: Node>(value: &N) -> bool {
    match value.view() {
        View::Null => true,
        View::String(text) => text.is_empty(),
        View::Array(items) => items.is_empty(),
        View::Object(map) => map.is_empty(),
        View::Bool(_) | View::Number => false,
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

/// Whether a user message holds media lifted out of tool results (its parts
/// count as coming from tools; docs/conversion.md, two-message delivery).
pub fn is_lifted(message: &Message) -> bool {
    message
        .extensions
        .get(HUB.name())
        .and_then(|c| c.get("$lifted"))
        .is_some()
}
