//! One read-only view of a JSON value, whether serde_json built it or the
//! borrowed tree ([`Json`]) did: what a reader asks of a document.
//!
//! Why: a small document read into a `serde_json::Value` pays for a
//! `String` per key and per string, and a SipHash per member, for a tree
//! that is read once and dropped. The borrowed tree costs none of that. A
//! reader written against [`Node`] reads either, so that the shapes can
//! move to the tree one at a time (docs/speed.md, "One tree for small
//! documents"). What a reader keeps (a field the model has no place for, a
//! tool's schema) it takes as a `Value` ([`Node::to_value`]), as before.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::Json;

/// A JSON value as a reader sees it.
pub trait Node: Sized {
    /// What an object of this kind is.
    type Object: Object<Node = Self>;

    /// The value, for a `match`.
    fn view(&self) -> View<'_, Self>;

    /// The value as serde_json holds it (numbers as written).
    fn to_value(&self) -> Value;

    fn as_str(&self) -> Option<&str> {
        match self.view() {
            View::String(text) => Some(text),
            _ => None,
        }
    }

    fn as_bool(&self) -> Option<bool> {
        match self.view() {
            View::Bool(flag) => Some(flag),
            _ => None,
        }
    }

    fn as_array(&self) -> Option<&[Self]> {
        match self.view() {
            View::Array(items) => Some(items),
            _ => None,
        }
    }

    fn as_object(&self) -> Option<&Self::Object> {
        match self.view() {
            View::Object(object) => Some(object),
            _ => None,
        }
    }

    /// The member `key` of an object; `None` for anything else.
    fn get(&self, key: &str) -> Option<&Self> {
        self.as_object()?.get(key)
    }

    fn is_null(&self) -> bool {
        matches!(self.view(), View::Null)
    }

    fn is_number(&self) -> bool {
        matches!(self.view(), View::Number)
    }

    fn is_string(&self) -> bool {
        matches!(self.view(), View::String(_))
    }

    fn is_array(&self) -> bool {
        matches!(self.view(), View::Array(_))
    }

    fn is_object(&self) -> bool {
        matches!(self.view(), View::Object(_))
    }
}

/// A [`Node`] as one of JSON's six kinds (a number's text is not needed by
/// any reader: it keeps the number whole).
pub enum View<'n, N: Node> {
    Null,
    Bool(bool),
    Number,
    String(&'n str),
    Array(&'n [N]),
    Object(&'n N::Object),
}

/// A JSON object as a reader sees it: its members in document order, each
/// key once.
pub trait Object {
    type Node: Node<Object = Self>;

    fn get(&self, key: &str) -> Option<&Self::Node>;

    fn len(&self) -> usize;

    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// The members, in document order.
    fn members(&self) -> impl Iterator<Item = (&str, &Self::Node)>;

    /// The object as serde_json holds it.
    fn to_map(&self) -> Map<String, Value> {
        self.members()
            .map(|(key, value)| (key.to_string(), value.to_value()))
            .collect()
    }
}

impl Node for Value {
    type Object = Map<String, Value>;

    fn view(&self) -> View<'_, Value> {
        match self {
            Value::Null => View::Null,
            Value::Bool(flag) => View::Bool(*flag),
            Value::Number(_) => View::Number,
            Value::String(text) => View::String(text),
            Value::Array(items) => View::Array(items),
            Value::Object(map) => View::Object(map),
        }
    }

    fn to_value(&self) -> Value {
        self.clone()
    }

    // serde_json's own, which look up without matching twice.
    fn as_str(&self) -> Option<&str> {
        Value::as_str(self)
    }

    fn get(&self, key: &str) -> Option<&Value> {
        self.as_object()?.get(key)
    }
}

impl Object for Map<String, Value> {
    type Node = Value;

    fn get(&self, key: &str) -> Option<&Value> {
        Map::get(self, key)
    }

    fn len(&self) -> usize {
        Map::len(self)
    }

    fn members(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.iter().map(|(key, value)| (key.as_str(), value))
    }

    fn to_map(&self) -> Map<String, Value> {
        self.clone()
    }
}

/// An object of the borrowed tree: its members in document order.
pub type TreeObject<'a> = Vec<(Cow<'a, str>, Json<'a>)>;

impl<'a> Node for Json<'a> {
    type Object = TreeObject<'a>;

    fn view(&self) -> View<'_, Json<'a>> {
        match self {
            Json::Null => View::Null,
            Json::Bool(flag) => View::Bool(*flag),
            Json::Number(_) => View::Number,
            Json::String(text) => View::String(text),
            Json::Array(items) => View::Array(items),
            Json::Object(members) => View::Object(members),
        }
    }

    fn to_value(&self) -> Value {
        Json::to_value(self)
    }
}

/// The tree's objects hold each key once ([`super::Members`]), so the first
/// key that matches is the only one.
impl<'a> Object for TreeObject<'a> {
    type Node = Json<'a>;

    fn get(&self, key: &str) -> Option<&Json<'a>> {
        self.iter().find(|(k, _)| k == key).map(|(_, value)| value)
    }

    fn len(&self) -> usize {
        <[_]>::len(self)
    }

    fn members(&self) -> impl Iterator<Item = (&str, &Json<'a>)> {
        self.iter().map(|(key, value)| (key.as_ref(), value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a reader asks, answered alike by both trees.
    fn answers<N: Node>(node: &N) -> Vec<String> {
        let mut out = Vec::new();
        let mut walk = vec![(String::new(), node)];
        while let Some((at, node)) = walk.pop() {
            let kind = match node.view() {
                View::Null => "null".to_string(),
                View::Bool(flag) => format!("bool {flag}"),
                View::Number => "number".to_string(),
                View::String(text) => format!("string {text}"),
                View::Array(items) => {
                    for (i, item) in items.iter().enumerate() {
                        walk.push((format!("{at}/{i}"), item));
                    }
                    format!("array {}", items.len())
                }
                View::Object(object) => {
                    for (key, value) in object.members() {
                        assert!(object.contains_key(key));
                        assert!(std::ptr::eq(object.get(key).unwrap(), value));
                        walk.push((format!("{at}/{key}"), value));
                    }
                    let keys: Vec<_> = object.members().map(|(k, _)| k).collect();
                    format!("object {} {keys:?}", object.len())
                }
            };
            out.push(format!(
                "{at}: {kind} {:?} {:?} {} {} {}",
                node.as_str(),
                node.as_bool(),
                node.is_null(),
                node.is_number(),
                node.get("k").is_some()
            ));
        }
        out
    }

    #[test]
    fn both_trees_answer_alike() {
        let texts = [
            r#"{"k": 1, "b": [true, false, null, 1.50, -0, "x\u00e9"], "k2": {"k": {}}}"#,
            r#"[{"z": 1, "a": 2, "z": 3}, "s", 12345678901234567890123]"#,
            r#"{"k": "\"escaped\"", "": []}"#,
            "null",
        ];
        for text in texts {
            let value: Value = serde_json::from_str(text).unwrap();
            let tree = crate::json::parse(text.as_bytes()).unwrap();
            let tree: &Json = &tree;
            assert_eq!(answers(&value), answers(tree), "{text}");
            assert_eq!(Node::to_value(tree), value, "{text}");
            if let (Some(a), Some(b)) = (value.as_object(), Node::as_object(tree)) {
                assert_eq!(Object::to_map(b), *a);
            }
        }
    }
}
