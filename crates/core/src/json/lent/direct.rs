//! Lending while parsing, for a document in memory.
//!
//! Why: [`super::parse`] scans the text for its payloads and writes a shadow
//! with a placeholder in each one's place, then serde_json parses the shadow:
//! two passes, and a third of a small document's conversion. Here the fast
//! parser (`json::fast`, serde_json's grammar with its strings borrowed) reads
//! the input once and builds the value itself, lending each payload where the
//! scan would (the same strings, the same placeholders, the same strict
//! verdicts), and sizing each object's map for its members (serde_json's
//! grows it a member at a time).
//!
//! What the scan refuses, and what the fast parser leaves to serde_json (an
//! error, a number with an exponent, deep nesting, a surrogate escape), give
//! `None`: the caller then goes the usual way, which says the same as before.

use std::borrow::Cow;
use std::ops::Range;

use serde_json::{Map, Number, Value};

use super::scan::holds_placeholder_bytes;
use super::{payload_in, placeholder, Parsed, Payloads, CLOSE, OPEN, PAYLOAD_KEYS};
use crate::json::fast::{parse_with, Build};
use crate::json::{Json, Members};

/// The largest input parsed here. The parser reads each string's bytes a few
/// times (its end, control characters, UTF-8, then base64 for a payload),
/// which costs more than the scan's one look at a payload once payloads are
/// most of a document; a small document is mostly the rest.
pub(super) const MAX_INPUT: usize = 64 << 10;

/// `input` parsed with its payloads lent, as [`super::scan`] and serde_json
/// together would give it; `None` where they must (or `input` is over
/// [`MAX_INPUT`]).
pub(super) fn parse(input: &[u8]) -> Option<Parsed> {
    if !lendable(input) {
        return None;
    }
    let (members, items) = STACKS.take();
    let mut lend = Lend {
        lender: Lender::new(input),
        members,
        items,
    };
    let value = parse_with(input, &mut lend);
    let (mut members, mut items) = (lend.members, lend.items);
    // Left over when the parse gave up midway.
    members.clear();
    items.clear();
    STACKS.set((members, items));
    let (value, payloads) = lend.lender.finish(value)?;
    Some(Parsed {
        value,
        shadow: None,
        payloads,
        // The fast parser took no number with an exponent.
        respell: false,
    })
}

/// [`parse`] into the borrowed tree (keys and strings borrowed from `input`,
/// a placeholder for each payload), for the readers that read it
/// (`json::node`); `None` where [`parse`] gives `None`.
pub(super) fn parse_tree(input: &[u8]) -> Option<(Json<'_>, Payloads)> {
    if !lendable(input) {
        return None;
    }
    let mut lend = LendTree {
        lender: Lender::new(input),
    };
    let json = parse_with(input, &mut lend);
    lend.lender.finish(json)
}

/// Whether the scan could lend from `input` at all: a small object or array
/// without a placeholder character anywhere.
fn lendable(input: &[u8]) -> bool {
    if input.len() > MAX_INPUT {
        return false;
    }
    let first = input.iter().find(|b| !b.is_ascii_whitespace());
    matches!(first, Some(b'{' | b'[')) && !holds_placeholder_bytes(input)
}

thread_local! {
    /// The builder's two stacks, kept for a thread's next document: they
    /// grew to its deepest nesting once, not for every document.
    static STACKS: std::cell::Cell<Stacks> = const { std::cell::Cell::new((Vec::new(), Vec::new())) };
}

/// Objects' members and arrays' items, innermost last.
type Stacks = (Vec<(String, Value)>, Vec<Value>);

/// What both builders decide alike: which strings are payloads (each one's
/// placeholder, range and strict verdict), and whether the text spelled a
/// placeholder character with an escape.
struct Lender<'a> {
    input: &'a [u8],
    /// The next string follows a key that holds base64 (as the scan tells
    /// it: whatever string comes next, even inside a list, takes it).
    keyed_next: bool,
    /// A string spelled a placeholder character with an escape.
    escaped_placeholder: bool,
    payloads: Vec<Range<usize>>,
    strict: Vec<Option<u64>>,
}

impl<'a> Lender<'a> {
    fn new(input: &'a [u8]) -> Lender<'a> {
        Lender {
            input,
            keyed_next: false,
            escaped_placeholder: false,
            payloads: Vec::new(),
            strict: Vec::new(),
        }
    }

    /// A key's text, or a string that is not a payload.
    fn text(&mut self, text: Cow<'a, str>) -> Cow<'a, str> {
        if matches!(text, Cow::Owned(_)) && text.contains([OPEN, CLOSE]) {
            self.escaped_placeholder = true;
        }
        text
    }

    /// A string value: its placeholder when it is a payload
    /// ([`super::payload_start`]), else its text.
    fn string(&mut self, text: Cow<'a, str>) -> Cow<'a, str> {
        let keyed = std::mem::take(&mut self.keyed_next);
        if let Cow::Borrowed(borrowed) = text {
            if let Some((payload, strict)) = payload_in(borrowed, self.input, keyed) {
                let prefix = &borrowed[..borrowed.len() - payload.len()];
                let index = self.payloads.len();
                self.payloads.push(payload);
                self.strict.push(strict);
                return Cow::Owned(placeholder(prefix, index));
            }
        }
        self.text(text)
    }

    fn key(&mut self, key: &str, escaped: bool) {
        self.keyed_next = !escaped && PAYLOAD_KEYS.contains(&key.as_bytes());
    }

    /// The parse's result with the payloads it lent; `None` where the usual
    /// way must read the text.
    fn finish<T>(self, parsed: Option<T>) -> Option<(T, Payloads)> {
        let parsed = parsed.filter(|_| !self.escaped_placeholder)?;
        let payloads = if self.payloads.is_empty() {
            Payloads::default()
        } else {
            Payloads {
                ranges: self.payloads,
                strict: self.strict,
            }
        };
        Some((parsed, payloads))
    }
}

/// Builds a `serde_json::Value`, lending payloads from the input.
struct Lend<'a> {
    lender: Lender<'a>,
    /// The members of the objects being read, innermost last: each object's
    /// map is made at its end, at its size.
    members: Vec<(String, Value)>,
    /// The items of the arrays being read, likewise.
    items: Vec<Value>,
}

impl<'a> Build<'a> for Lend<'a> {
    type Value = Value;
    /// Where the object's members start in `members`.
    type Object = usize;
    /// Where the array's items start in `items`.
    type Array = usize;

    fn null(&mut self) -> Value {
        Value::Null
    }

    fn bool(&mut self, value: bool) -> Value {
        Value::Bool(value)
    }

    fn number(&mut self, text: &'a str) -> Option<Value> {
        text.parse::<Number>().ok().map(Value::Number)
    }

    fn string(&mut self, text: Cow<'a, str>) -> Value {
        Value::String(self.lender.string(text).into_owned())
    }

    fn key(&mut self, key: &str, escaped: bool) {
        self.lender.key(key, escaped);
    }

    fn object(&mut self) -> usize {
        self.members.len()
    }

    fn member(&mut self, _object: &mut usize, key: Cow<'a, str>, value: Value) {
        let key = self.lender.text(key).into_owned();
        self.members.push((key, value));
    }

    fn end_object(&mut self, start: usize) -> Value {
        let mut map = Map::with_capacity(self.members.len() - start);
        // A key written twice keeps its first place and takes the last value,
        // as serde_json's map does.
        for (key, value) in self.members.drain(start..) {
            map.insert(key, value);
        }
        Value::Object(map)
    }

    fn array(&mut self) -> usize {
        self.items.len()
    }

    fn item(&mut self, _array: &mut usize, value: Value) {
        self.items.push(value);
    }

    fn end_array(&mut self, start: usize) -> Value {
        Value::Array(self.items.drain(start..).collect())
    }
}

/// Builds the borrowed tree, lending payloads from the input. A key written
/// twice is one member ([`Members`]), as in the `Value`.
struct LendTree<'a> {
    lender: Lender<'a>,
}

impl<'a> Build<'a> for LendTree<'a> {
    type Value = Json<'a>;
    type Object = Members<'a>;
    type Array = Vec<Json<'a>>;

    fn null(&mut self) -> Json<'a> {
        Json::Null
    }

    fn bool(&mut self, value: bool) -> Json<'a> {
        Json::Bool(value)
    }

    fn number(&mut self, text: &'a str) -> Option<Json<'a>> {
        Some(Json::Number(Cow::Borrowed(text)))
    }

    fn string(&mut self, text: Cow<'a, str>) -> Json<'a> {
        Json::String(self.lender.string(text))
    }

    fn key(&mut self, key: &str, escaped: bool) {
        self.lender.key(key, escaped);
    }

    fn object(&mut self) -> Members<'a> {
        Members::new()
    }

    fn member(&mut self, object: &mut Members<'a>, key: Cow<'a, str>, value: Json<'a>) {
        let key = self.lender.text(key);
        let _ = object.push(key, value);
    }

    fn end_object(&mut self, object: Members<'a>) -> Json<'a> {
        object.into_json()
    }

    fn array(&mut self) -> Vec<Json<'a>> {
        Vec::new()
    }

    fn item(&mut self, array: &mut Vec<Json<'a>>, value: Json<'a>) {
        array.push(value);
    }

    fn end_array(&mut self, array: Vec<Json<'a>>) -> Json<'a> {
        Json::Array(array)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the scan and serde_json give for `text`: the value and its
    /// payloads, or `None` for an error.
    fn usual(text: &[u8]) -> Option<(Value, Payloads)> {
        let parsed = super::super::scan(text).parse(text).ok()?;
        Some((parsed.value.clone(), parsed.payloads.clone()))
    }

    /// The borrowed tree's reading of `text`, as a `Value`.
    fn tree(text: &[u8]) -> Option<(Value, Payloads)> {
        parse_tree(text).map(|(json, payloads)| (json.to_value(), payloads))
    }

    /// Parsed here, `text` gives what the usual way gives (into the
    /// borrowed tree as well); `taken` says
    /// whether it must be parsed here at all (or left to the usual way).
    fn same(text: &str, taken: bool) {
        let direct = parse(text.as_bytes()).map(|p| (p.value.clone(), p.payloads.clone()));
        assert_eq!(direct.is_some(), taken, "taken: {text}");
        assert_eq!(tree(text.as_bytes()), direct, "tree: {text}");
        if let Some(direct) = direct {
            assert_eq!(Some(direct), usual(text.as_bytes()), "{text}");
        }
    }

    const B64: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAHnOcQAAAAABJRU5ErkJggg==";

    #[test]
    fn lends_what_the_scan_lends() {
        let cases = [
            format!(r#"{{"url":"data:image/png;base64,{B64}"}}"#),
            format!(r#"{{"url":"DATA:image/png;BASE64,{B64}"}}"#),
            format!(r#"{{"data":"{B64}","blob":"{B64}","bytes":"{B64}","file_data":"{B64}"}}"#),
            // Not base64, too short, not after a payload key, escaped.
            format!(r#"{{"data":"{B64}!","x":"{B64}","data ":"{B64}","url":"data:,{B64}"}}"#),
            format!(r#"{{"data":"AAAA","text":"{B64}\n"}}"#),
            format!(r#"{{"d\u0061ta":"{B64}"}}"#),
            // A payload key's turn is taken by the next string, wherever it is.
            format!(r#"{{"data":["x","{B64}"],"blob":[["{B64}"]],"bytes":{{"k":"{B64}"}}}}"#),
            format!(r#"{{"data":5,"y":"{B64}"}}"#),
            format!(r#"[{{"data":"{B64}"}}, "data", "{B64}"]"#),
            // A key is never lent.
            format!(r#"{{"data":{{"{B64}":1}}}}"#),
            // Written twice: the first place, the last value.
            format!(r#"{{"a":1,"data":"x","a":"data:image/png;base64,{B64}"}}"#),
            // A data URL's comma after its first 256 bytes.
            format!(r#"{{"u":"data:image/png;{};base64,{B64}"}}"#, "x".repeat(300)),
            // Numbers as written, literals, escapes, white space.
            " {\"n\":[0,-0,1.50,-12.25,123456789012345678901234567890],\"t\":[true,false,null,{},[]]} \n".to_string(),
            r#"{"s":"tab\t quote\" slash\/ \u00e9\u20AC \uD83D\uDE00"}"#.to_string(),
        ];
        for case in &cases {
            // The surrogate pair is serde_json's to read.
            same(case, !case.contains("uD83D"));
        }
    }

    #[test]
    fn leaves_to_the_usual_way_what_it_does_not_read() {
        for text in [
            // Errors: serde_json words them.
            "{",
            r#"{"a":01}"#,
            r#"{"a":1,}"#,
            "[1] [2]",
            "{\"a\":\"\u{1}\"}",
            // A number with an exponent, which serde_json may respell.
            r#"{"a":1e5}"#,
            // Not an object or array: the scan lends nothing from it.
            r#""data""#,
            "12",
            // A placeholder character, written or escaped.
            "{\"a\":\"\u{e000}0\u{e001}\"}",
            r#"{"a":"\ue001"}"#,
            r#"{"\uE000":1}"#,
        ] {
            same(text, false);
        }
        let deep = format!("{}{}", "[".repeat(120), "]".repeat(120));
        same(&deep, false);
        let large = format!(r#"{{"data":"{}"}}"#, "A".repeat(MAX_INPUT));
        same(&large, false);
    }

    #[test]
    fn a_document_given_up_midway_leaves_nothing_for_the_next() {
        same(r#"{"a":[{"b":1},{"c":[1,2,"#, false);
        same(r#"{"a":[{"b":1}]}"#, true);
        STACKS.with(|stacks| {
            let (members, items) = stacks.take();
            assert!(members.is_empty() && items.is_empty());
        });
    }

    /// Every real recording small enough to be parsed here.
    #[test]
    fn real_recordings_parse_as_they_did() {
        let shared = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared");
        let (mut checked, mut present) = (0, false);
        for dir in ["realworld", "realworld2"] {
            let Ok(walk) = walk(&shared.join(dir)) else {
                continue; // not beside this checkout
            };
            present = true;
            for path in walk {
                let Ok(bytes) = std::fs::read(&path) else {
                    continue;
                };
                if let Some(direct) = parse(&bytes) {
                    let usual = usual(&bytes);
                    assert_eq!(tree(&bytes), usual, "tree: {}", path.display());
                    assert_eq!(
                        Some((direct.value.clone(), direct.payloads.clone())),
                        usual,
                        "{}",
                        path.display()
                    );
                    checked += 1;
                }
            }
        }
        // Most of them are small request bodies (116 on 2026-12-06).
        assert!(
            !present || checked > 50,
            "only {checked} recordings parsed here"
        );
    }

    fn walk(dir: &std::path::Path) -> std::io::Result<Vec<std::path::PathBuf>> {
        let mut found = Vec::new();
        for entry in std::fs::read_dir(dir)? {
            let path = entry?.path();
            if path.is_dir() {
                found.extend(walk(&path)?);
            } else if path.extension().is_some_and(|e| e == "json") {
                found.push(path);
            }
        }
        Ok(found)
    }
}
