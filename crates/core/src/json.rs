//! A borrowed JSON tree for scanning large documents.
//!
//! Strings without escapes (every base64 payload) borrow from the input instead of
//! being copied, object members keep their order, and numbers keep their spelling
//! (`1.0` stays `1.0`, 20-digit integers stay exact). Serializing a tree writes it
//! back with the same keys, order and numbers.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeMap, SerializeSeq, SerializeStruct, Serializer};
use serde::{Deserialize, Serialize};

mod compact;
mod duplicates;
mod fast;
pub mod lent;
mod node;
pub mod out;
mod reading;
mod spelling;
pub(crate) mod words;
pub use compact::write_compact;
pub use duplicates::duplicate_keys;
pub use node::{Node, Object, TreeObject, View};
pub use reading::Reading;
pub use spelling::Spellings;

/// One JSON value, borrowing what it can from the text it was parsed from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Json<'a> {
    Null,
    Bool(bool),
    /// A number exactly as written.
    Number(Cow<'a, str>),
    String(Cow<'a, str>),
    Array(Vec<Json<'a>>),
    /// Members in document order. A key written twice is one member, in
    /// the first one's place with the last one's value ([`Members`]).
    Object(Vec<(Cow<'a, str>, Json<'a>)>),
}

/// An object's members as they are read: a key seen before keeps its place
/// and takes the new value — the last key wins, as serde_json's map (and so
/// `split` and `convert`), Python's `json` and JavaScript's `JSON.parse`
/// read it — so that every command reads a document one way (docs/safety.md).
/// [`Members::push`] says when a key was seen before, and the parser counts
/// it ([`Parsed::duplicates`]).
#[derive(Default)]
pub struct Members<'a> {
    list: Vec<(Cow<'a, str>, Json<'a>)>,
    /// Where each key is, once the object is too large to search.
    index: Option<std::collections::HashMap<Cow<'a, str>, usize>>,
}

/// The most members searched one by one for a key seen before.
const SEARCHED: usize = 16;

impl<'a> Members<'a> {
    pub fn new() -> Members<'a> {
        Members {
            list: Vec::new(),
            index: None,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Adds a member; `true` when the object had the key already (its value
    /// is then replaced, in the first one's place).
    #[must_use]
    pub fn push(&mut self, key: Cow<'a, str>, value: Json<'a>) -> bool {
        let seen = match &mut self.index {
            Some(index) => index.get(&key).copied(),
            None => self.list.iter().position(|(k, _)| *k == key),
        };
        if let Some(at) = seen {
            self.list[at].1 = value;
            return true;
        }
        if let Some(index) = &mut self.index {
            index.insert(key.clone(), self.list.len());
        } else if self.list.len() == SEARCHED {
            let mut index: std::collections::HashMap<_, _> = self
                .list
                .iter()
                .enumerate()
                .map(|(i, (k, _))| (k.clone(), i))
                .collect();
            index.insert(key.clone(), self.list.len());
            self.index = Some(index);
        }
        self.list.push((key, value));
        false
    }

    pub fn into_json(self) -> Json<'a> {
        Json::Object(self.list)
    }
}

/// A parsed document, and what its text said that the tree no longer
/// shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parsed<'a> {
    pub json: Json<'a>,
    /// How many members repeated a key their object had already (each kept
    /// as one member: [`Members`]). Not zero means `validate` looks for
    /// them ([`duplicate_keys`]), a second pass over a rare document.
    pub duplicates: usize,
}

/// Parses one JSON document, borrowing strings from `bytes`.
pub fn parse(bytes: &[u8]) -> Result<Json<'_>, serde_json::Error> {
    parse_counted(bytes).map(|parsed| parsed.json)
}

/// [`parse`], with the count of keys written twice.
pub fn parse_counted(bytes: &[u8]) -> Result<Parsed<'_>, serde_json::Error> {
    if let Some((json, duplicates)) = fast::parse(bytes) {
        // No number with an exponent: nothing to respell.
        return Ok(Parsed { json, duplicates });
    }
    let duplicates = std::cell::Cell::new(0);
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let mut json = Tree::new(&duplicates).deserialize(&mut deserializer)?;
    deserializer.end()?;
    spelling::respell_tree(bytes, &mut json);
    Ok(Parsed {
        json,
        duplicates: duplicates.get(),
    })
}

impl<'a> Json<'a> {
    /// The member `key` of an object (the last one, as JSON parsers agree on).
    pub fn get(&self, key: &str) -> Option<&Json<'a>> {
        match self {
            Json::Object(members) => members.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The value at a JSON pointer (RFC 6901), read as serde_json's
    /// `Value::pointer` reads one: "" is the whole value, an array index is
    /// digits without a leading `+` or `0`.
    pub fn pointer(&self, pointer: &str) -> Option<&Json<'a>> {
        if pointer.is_empty() {
            return Some(self);
        }
        let tokens = pointer.strip_prefix('/')?;
        tokens.split('/').try_fold(self, |target, token| {
            let token = token.replace("~1", "/").replace("~0", "~");
            match target {
                Json::Object(_) => target.get(&token),
                Json::Array(items) => {
                    if token.starts_with('+') || (token.starts_with('0') && token.len() != 1) {
                        return None;
                    }
                    items.get(token.parse::<usize>().ok()?)
                }
                _ => None,
            }
        })
    }

    /// Whether an object has the member `key`.
    pub fn has(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[Json<'a>]> {
        match self {
            Json::Array(items) => Some(items),
            _ => None,
        }
    }

    pub fn as_object(&self) -> Option<&[(Cow<'a, str>, Json<'a>)]> {
        match self {
            Json::Object(members) => Some(members),
            _ => None,
        }
    }

    /// A name for the value's JSON type, for messages (`a string`, `an array`).
    pub fn kind(&self) -> &'static str {
        match self {
            Json::Null => "null",
            Json::Bool(_) => "a boolean",
            Json::Number(_) => "a number",
            Json::String(_) => "a string",
            Json::Array(_) => "an array",
            Json::Object(_) => "an object",
        }
    }

    /// Converts to an owned `serde_json::Value` (numbers keep their spelling).
    pub fn to_value(&self) -> serde_json::Value {
        use serde_json::Value;
        match self {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(*b),
            Json::Number(n) => n
                .parse::<serde_json::Number>()
                .map_or(Value::Null, Value::Number),
            Json::String(s) => Value::String(s.to_string()),
            Json::Array(items) => Value::Array(items.iter().map(Json::to_value).collect()),
            Json::Object(members) => Value::Object(
                members
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.to_value()))
                    .collect(),
            ),
        }
    }
}

/// Escapes one reference token of a JSON pointer (RFC 6901).
pub fn pointer_token(token: &str) -> Cow<'_, str> {
    // A byte search: `str::contains` with a set of chars decodes each one.
    if memchr::memchr2(b'~', b'/', token.as_bytes()).is_some() {
        Cow::Owned(token.replace('~', "~0").replace('/', "~1"))
    } else {
        Cow::Borrowed(token)
    }
}

/// The key serde_json uses to hand over a number's text with `arbitrary_precision`
/// (both ways: reading, and writing it as it is).
const NUMBER_TOKEN: &str = "$serde_json::private::Number";

impl<'de: 'a, 'a> Deserialize<'de> for Json<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Tree::new(&std::cell::Cell::new(0)).deserialize(deserializer)
    }
}

/// Reads one value (the seed and its visitor), counting the keys written
/// twice into `duplicates`.
struct Tree<'a, 'c> {
    duplicates: &'c std::cell::Cell<usize>,
    tree: std::marker::PhantomData<&'a ()>,
}

impl<'c> Tree<'_, 'c> {
    fn new(duplicates: &'c std::cell::Cell<usize>) -> Self {
        Tree {
            duplicates,
            tree: std::marker::PhantomData,
        }
    }
}

impl<'de: 'a, 'a> DeserializeSeed<'de> for Tree<'a, '_> {
    type Value = Json<'a>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Json<'a>, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de: 'a, 'a> Visitor<'de> for Tree<'a, '_> {
    type Value = Json<'a>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_unit<E>(self) -> Result<Json<'a>, E> {
        Ok(Json::Null)
    }

    fn visit_none<E>(self) -> Result<Json<'a>, E> {
        Ok(Json::Null)
    }

    fn visit_bool<E>(self, b: bool) -> Result<Json<'a>, E> {
        Ok(Json::Bool(b))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Json<'a>, E> {
        Ok(Json::Number(Cow::Owned(n.to_string())))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Json<'a>, E> {
        Ok(Json::Number(Cow::Owned(n.to_string())))
    }

    fn visit_f64<E: de::Error>(self, n: f64) -> Result<Json<'a>, E> {
        serde_json::Number::from_f64(n)
            .map(|n| Json::Number(Cow::Owned(n.to_string())))
            .ok_or_else(|| E::custom("a number that is not finite"))
    }

    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Json<'a>, E> {
        Ok(Json::String(Cow::Borrowed(s)))
    }

    fn visit_str<E>(self, s: &str) -> Result<Json<'a>, E> {
        Ok(Json::String(Cow::Owned(s.to_string())))
    }

    fn visit_string<E>(self, s: String) -> Result<Json<'a>, E> {
        Ok(Json::String(Cow::Owned(s)))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json<'a>, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(item) = seq.next_element_seed(Tree::new(self.duplicates))? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json<'a>, A::Error> {
        let mut members = Members::new();
        while let Some(key) = map.next_key_seed(KeySeed(std::marker::PhantomData))? {
            if members.is_empty() && key == NUMBER_TOKEN {
                let text: String = map.next_value()?;
                return Ok(Json::Number(Cow::Owned(text)));
            }
            let value = map.next_value_seed(Tree::new(self.duplicates))?;
            if members.push(key, value) {
                self.duplicates.set(self.duplicates.get() + 1);
            }
        }
        Ok(members.into_json())
    }
}

struct KeySeed<'a>(std::marker::PhantomData<&'a ()>);

impl<'de: 'a, 'a> DeserializeSeed<'de> for KeySeed<'a> {
    type Value = Cow<'a, str>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_str(KeyVisitor(std::marker::PhantomData))
    }
}

struct KeyVisitor<'a>(std::marker::PhantomData<&'a ()>);

impl<'de: 'a, 'a> Visitor<'de> for KeyVisitor<'a> {
    type Value = Cow<'a, str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object key")
    }

    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(s))
    }

    fn visit_str<E>(self, s: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(s.to_string()))
    }

    fn visit_string<E>(self, s: String) -> Result<Self::Value, E> {
        Ok(Cow::Owned(s))
    }
}

impl Serialize for Json<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Json::Null => serializer.serialize_unit(),
            Json::Bool(b) => serializer.serialize_bool(*b),
            Json::Number(n) => {
                if n.parse::<serde_json::Number>().is_err() {
                    return Err(serde::ser::Error::custom(format!("invalid number {n}")));
                }
                // A serde_json::Number would respell an exponent; serde_json
                // writes the text of its number token as it is.
                let mut number = serializer.serialize_struct(NUMBER_TOKEN, 1)?;
                number.serialize_field(NUMBER_TOKEN, n.as_ref())?;
                number.end()
            }
            Json::String(s) => serializer.serialize_str(s),
            Json::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Json::Object(members) => {
                let mut map = serializer.serialize_map(Some(members.len()))?;
                for (key, value) in members {
                    map.serialize_entry(key.as_ref(), value)?;
                }
                map.end()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_without_escapes_are_borrowed() {
        let text = br#"{"a":"plain","b":"esc\"aped","c":["x"]}"#;
        let json = parse(text).unwrap();
        assert!(matches!(
            json.get("a"),
            Some(Json::String(Cow::Borrowed("plain")))
        ));
        assert!(matches!(json.get("b"), Some(Json::String(Cow::Owned(s))) if s == "esc\"aped"));
        let base = text.as_ptr() as usize;
        let Some(Json::String(Cow::Borrowed(s))) = json.get("a") else {
            panic!()
        };
        assert_eq!(s.as_ptr() as usize - base, 6);
    }

    #[test]
    fn pointers_read_as_serde_json_reads_them() {
        let text = r#"{"a":[{"b/c":1,"m~n":[true]},2],"":{"":3},"01":4}"#;
        let json = parse(text.as_bytes()).unwrap();
        let value: serde_json::Value = serde_json::from_str(text).unwrap();
        for pointer in [
            "",
            "/a",
            "/a/0",
            "/a/0/b~1c",
            "/a/0/m~0n/0",
            "/a/1",
            "/a/2",
            "/a/01",
            "/a/+1",
            "/a/-",
            "/",
            "//",
            "/01",
            "/a/0/x",
            "a",
            "/a/0/b~1c/0",
        ] {
            assert_eq!(
                json.pointer(pointer).map(Json::to_value),
                value.pointer(pointer).cloned(),
                "{pointer}"
            );
        }
    }

    #[test]
    fn order_numbers_and_nesting_survive_a_round_trip() {
        let text =
            r#"{"z":1.0,"a":[12345678901234567890123,-0.5e-10,true,null],"m":{"y":"é","x":{}}}"#;
        let json = parse(text.as_bytes()).unwrap();
        assert_eq!(serde_json::to_string(&json).unwrap(), text);
        assert_eq!(serde_json::to_string(&json.to_value()).unwrap(), text);
        // serde_json spells every exponent `e` with a sign; the tree keeps the
        // input's.
        let text = r#"[1E5,{"a":2.5e-3,"b":[7e1]},"1e5",-1e+0]"#;
        let json = parse(text.as_bytes()).unwrap();
        assert_eq!(serde_json::to_string(&json).unwrap(), text);
    }

    #[test]
    fn a_number_key_lookalike_is_an_ordinary_member_when_not_first() {
        let text = r#"{"a":1,"$serde_json::private::Number":"2"}"#;
        let json = parse(text.as_bytes()).unwrap();
        assert_eq!(json.as_object().unwrap().len(), 2);
    }

    #[test]
    fn trailing_garbage_and_bad_syntax_are_errors() {
        assert!(parse(b"{} x").is_err());
        assert!(parse(b"{\"a\":}").is_err());
        assert!(parse(b"").is_err());
    }

    #[test]
    fn pointer_tokens_are_escaped() {
        assert_eq!(pointer_token("a/b~c"), "a~1b~0c");
        assert_eq!(pointer_token("plain"), "plain");
    }
}

/// The byte range of the value a JSON pointer names, in the raw text of a
/// document: what `--fix` replaces when a string had escapes and so could not
/// be borrowed.
pub fn raw_span(bytes: &[u8], pointer: &str) -> Option<(usize, usize)> {
    let mut at = skip_whitespace(bytes, 0);
    if pointer.is_empty() {
        return Some((at, skip_value(bytes, at)?));
    }
    for token in pointer.strip_prefix('/')?.split('/') {
        let token = token.replace("~1", "/").replace("~0", "~");
        at = match bytes.get(at)? {
            b'{' => find_member(bytes, at, &token)?,
            b'[' => find_item(bytes, at, array_index(&token)?)?,
            _ => return None,
        };
    }
    Some((at, skip_value(bytes, at)?))
}

/// An array index as RFC 6901 writes one: `0`, or digits without a leading
/// zero. Anything else (`01`, `+1`, ` 1`, `-`, the element after the last)
/// names no element: `usize`'s parser alone would take `01` and `+1`.
fn array_index(token: &str) -> Option<usize> {
    let canonical = match token.as_bytes() {
        [b'0'] => true,
        [b'1'..=b'9', rest @ ..] => rest.iter().all(u8::is_ascii_digit),
        _ => false,
    };
    if canonical {
        token.parse().ok()
    } else {
        None
    }
}

fn skip_whitespace(bytes: &[u8], mut at: usize) -> usize {
    while bytes
        .get(at)
        .is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
    {
        at += 1;
    }
    at
}

/// The end of the string starting at `at` (its opening quote); `None` when it
/// is not closed.
fn skip_string(bytes: &[u8], at: usize) -> Option<usize> {
    let mut i = at + 1;
    while let Some(found) = memchr::memchr2(b'"', b'\\', bytes.get(i..)?) {
        i += found;
        if bytes[i] == b'\\' {
            i += 2;
        } else {
            return Some(i + 1);
        }
    }
    None
}

/// The end of the value starting at `at`.
fn skip_value(bytes: &[u8], at: usize) -> Option<usize> {
    match bytes.get(at)? {
        b'"' => skip_string(bytes, at),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut i = at;
            loop {
                match bytes.get(i)? {
                    b'"' => {
                        i = skip_string(bytes, i)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(i + 1);
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
        }
        _ => {
            let len = bytes[at..]
                .iter()
                .position(|b| matches!(b, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r'))
                .unwrap_or(bytes.len() - at);
            Some(at + len)
        }
    }
}

/// The start of the value of member `key` in the object at `at` (the last one
/// with that key, as [`Json::get`] reads it).
fn find_member(bytes: &[u8], at: usize, key: &str) -> Option<usize> {
    let mut i = skip_whitespace(bytes, at + 1);
    let mut found = None;
    while bytes.get(i)? == &b'"' {
        let key_end = skip_string(bytes, i)?;
        let name: String = serde_json::from_slice(&bytes[i..key_end]).ok()?;
        i = skip_whitespace(bytes, key_end);
        if bytes.get(i)? != &b':' {
            return None;
        }
        let value = skip_whitespace(bytes, i + 1);
        if name == key {
            found = Some(value);
        }
        i = skip_whitespace(bytes, skip_value(bytes, value)?);
        match bytes.get(i)? {
            b',' => i = skip_whitespace(bytes, i + 1),
            _ => break,
        }
    }
    found
}

/// The start of item `index` of the array at `at`.
fn find_item(bytes: &[u8], at: usize, index: usize) -> Option<usize> {
    let mut i = skip_whitespace(bytes, at + 1);
    for _ in 0..index {
        i = skip_whitespace(bytes, skip_value(bytes, i)?);
        if bytes.get(i)? != &b',' {
            return None;
        }
        i = skip_whitespace(bytes, i + 1);
    }
    (bytes.get(i)? != &b']').then_some(i)
}

#[cfg(test)]
mod span_tests {
    use super::raw_span;

    #[test]
    fn finds_values_by_pointer() {
        let text = br#" {"a": [1, {"b\"c": "x\ny", "d/e": true}], "a2": {}} "#;
        let span =
            |p: &str| raw_span(text, p).map(|(s, e)| std::str::from_utf8(&text[s..e]).unwrap());
        assert_eq!(
            span(""),
            Some(r#"{"a": [1, {"b\"c": "x\ny", "d/e": true}], "a2": {}}"#)
        );
        assert_eq!(span("/a/0"), Some("1"));
        assert_eq!(span("/a/1/b\"c"), Some(r#""x\ny""#));
        assert_eq!(span("/a/1/d~1e"), Some("true"));
        assert_eq!(span("/a2"), Some("{}"));
        assert_eq!(span("/a/2"), None);
        assert_eq!(span("/zz"), None);
        // Indexes as RFC 6901 writes them, and nothing else.
        for index in ["01", "+1", "-", " 1", "1 ", "1.0", "-0", "00", "", "1e0"] {
            assert_eq!(span(&format!("/a/{index}")), None, "{index:?}");
        }
        assert_eq!(span("/a/99999999999999999999999"), None);
    }
}
