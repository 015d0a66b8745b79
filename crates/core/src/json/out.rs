//! The tree a writer builds for its output (docs/speed.md, "The output
//! tree").
//!
//! A `serde_json::Value` (with `preserve_order`) costs a block for every key,
//! two blocks and a SipHash for every object, and as much again to drop. A
//! writer's keys are words it knows at compile time and its objects hold a
//! handful of members, so [`Out`] keeps keys as `&'static str` where they are
//! (a kept field's key is its own `String`), members in one list, and
//! anything it did not build itself (a number, a kept field, a block from a
//! writer not moved onto it) as the `Value` it already is. The renderer and
//! the Python builder walk it as they walk a `Value`; [`Out::into_value`]
//! gives the `Value` the same document would have been.

use std::borrow::Cow;

use serde_json::{Map, Value};

/// A JSON value a writer built.
#[derive(Debug, Clone, PartialEq)]
pub enum Out {
    Null,
    Bool(bool),
    Str(String),
    Array(Vec<Out>),
    Object(Members),
    /// Anything else, as serde's value.
    Value(Value),
}

/// An object's members, in order, each key once.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Members(Vec<(Cow<'static, str>, Out)>);

impl Members {
    pub fn new() -> Members {
        Members(Vec::new())
    }

    pub fn with_capacity(capacity: usize) -> Members {
        Members(Vec::with_capacity(capacity))
    }

    /// Sets `key`: in its place when it is there (as a map's `insert`
    /// does), else last.
    pub fn put(&mut self, key: &'static str, value: impl Into<Out>) {
        self.insert(Cow::Borrowed(key), value.into());
    }

    /// Sets a key that is not a word of the writer's own (a kept field's,
    /// `Cow::Owned`). A `Cow::Borrowed` key is taken for a word of the
    /// writer's, written without looking for anything to escape.
    pub fn insert(&mut self, key: Cow<'static, str>, value: Out) {
        debug_assert!(
            matches!(key, Cow::Owned(_))
                || !key.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\'),
            "a writer's own key needs no escape: {key:?}"
        );
        match self.0.iter_mut().find(|(k, _)| *k == key) {
            Some((_, slot)) => *slot = value,
            None => self.0.push((key, value)),
        }
    }

    pub fn get(&self, key: &str) -> Option<&Out> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    pub fn get_mut(&mut self, key: &str) -> Option<&mut Out> {
        self.0.iter_mut().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// Takes `key` out, the last member moving into its place (as
    /// `Map::remove` does with `preserve_order`).
    pub fn swap_remove(&mut self, key: &str) -> Option<Out> {
        let at = self.0.iter().position(|(k, _)| k == key)?;
        Some(self.0.swap_remove(at).1)
    }

    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// Takes `key` out, the members after it moving up (as a map's
    /// `shift_remove`).
    pub fn shift_remove(&mut self, key: &str) -> Option<Out> {
        let at = self.0.iter().position(|(k, _)| k == key)?;
        Some(self.0.remove(at).1)
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &Out)> {
        self.0.iter().map(|(k, v)| (k.as_ref(), v))
    }

    /// Each member with whether its key is a word of the writer's own (set
    /// with [`Members::put`]: plain ASCII, nothing in it to escape).
    pub fn iter_words(&self) -> impl Iterator<Item = (&str, bool, &Out)> {
        self.0
            .iter()
            .map(|(k, v)| (k.as_ref(), matches!(k, Cow::Borrowed(_)), v))
    }

    /// Sets every member of `map` (a kept object's fields), each where
    /// [`Members::insert`] puts it.
    pub fn extend_from(&mut self, map: &Map<String, Value>) {
        for (key, value) in map {
            self.insert(Cow::Owned(key.clone()), Out::Value(value.clone()));
        }
    }

    pub fn into_map(self) -> Map<String, Value> {
        let mut map = Map::with_capacity(self.0.len());
        for (key, value) in self.0 {
            map.insert(key.into_owned(), value.into_value());
        }
        map
    }
}

impl Out {
    /// An object of these members, in this order.
    pub fn object<const N: usize>(entries: [(&'static str, Out); N]) -> Out {
        let mut members = Members::with_capacity(N);
        for (key, value) in entries {
            members.put(key, value);
        }
        Out::Object(members)
    }

    /// A string.
    pub fn str(text: impl Into<String>) -> Out {
        Out::Str(text.into())
    }

    /// The same document as a `Value`.
    pub fn into_value(self) -> Value {
        match self {
            Out::Null => Value::Null,
            Out::Bool(flag) => Value::Bool(flag),
            Out::Str(text) => Value::String(text),
            Out::Array(items) => Value::Array(items.into_iter().map(Out::into_value).collect()),
            Out::Object(members) => Value::Object(members.into_map()),
            Out::Value(value) => value,
        }
    }

    /// Whether an object holds `key`.
    pub fn contains_key(&self, key: &str) -> bool {
        match self {
            Out::Object(members) => members.contains_key(key),
            Out::Value(Value::Object(map)) => map.contains_key(key),
            _ => false,
        }
    }
}

impl From<Value> for Out {
    fn from(value: Value) -> Out {
        Out::Value(value)
    }
}

impl From<Members> for Out {
    fn from(members: Members) -> Out {
        Out::Object(members)
    }
}

impl From<Vec<Out>> for Out {
    fn from(items: Vec<Out>) -> Out {
        Out::Array(items)
    }
}

impl From<&str> for Out {
    fn from(text: &str) -> Out {
        Out::Str(text.to_string())
    }
}

impl From<String> for Out {
    fn from(text: String) -> Out {
        Out::Str(text)
    }
}

impl From<bool> for Out {
    fn from(flag: bool) -> Out {
        Out::Bool(flag)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn members_keep_a_maps_order_and_its_one_key_each() {
        let mut members = Members::new();
        members.put("type", "text");
        members.put("text", "hi");
        members.insert(
            Cow::Owned("cache_control".into()),
            Out::Value(json!({"a": 1})),
        );
        // Set again: in its place, as `Map::insert` leaves it.
        members.put("type", Out::Value(json!(5)));
        members.put("n", Out::Null);
        let mut map = Map::new();
        for (key, value) in [
            ("type", json!("text")),
            ("text", json!("hi")),
            ("cache_control", json!({"a": 1})),
            ("type", json!(5)),
            ("n", json!(null)),
        ] {
            map.insert(key.into(), value);
        }
        assert_eq!(
            Out::Object(members.clone()).into_value(),
            Value::Object(map.clone())
        );
        assert_eq!(members.shift_remove("text"), Some(Out::str("hi")));
        map.shift_remove("text");
        assert_eq!(
            Out::Object(members.clone()).into_value(),
            Value::Object(map.clone())
        );
        assert_eq!(members.swap_remove("type"), Some(Out::Value(json!(5))));
        map.remove("type");
        assert_eq!(Out::Object(members).into_value(), Value::Object(map));
    }

    #[test]
    fn kept_members_are_set_as_a_map_sets_them() {
        let kept = json!({"cache_control": {"type": "ephemeral"}, "type": "x"});
        let mut members = Members::new();
        members.put("type", "text");
        members.extend_from(kept.as_object().unwrap());
        assert_eq!(
            Out::Object(members).into_value(),
            json!({"type": "x", "cache_control": {"type": "ephemeral"}})
        );
    }

    #[test]
    fn every_kind_becomes_its_value() {
        let out = Out::Array(vec![
            Out::Null,
            Out::Bool(true),
            Out::str("s"),
            Out::Value(json!(1.5)),
            Out::Object(Members::new()),
            Out::Array(Vec::new()),
        ]);
        assert_eq!(out.into_value(), json!([null, true, "s", 1.5, {}, []]));
    }
}
