//! The fast path of [`super::parse`] (docs/large-documents.md): a borrowed JSON parser for
//! documents made mostly of long strings.
//!
//! Why: a tool reply is ~99.98 % base64 inside strings, and serde_json scans a
//! string eight bytes at a time and then validates its UTF-8 in a second pass.
//! Here a string's end is found with `memchr` (SIMD), its bytes checked for
//! control characters in one pass the compiler vectorizes, and its UTF-8 by
//! `simdutf8` (SIMD as well).
//!
//! It accepts only what serde_json accepts and builds the same tree (strings
//! without escapes borrowed, with them owned; numbers as written). Anything it
//! does not handle the same way — any error, a number with an exponent, a `\u`
//! surrogate escape, deep nesting, serde_json's private number key — gives
//! `None`, and the caller parses with serde_json, whose result and messages
//! (with line and column) stay the reference.

use std::borrow::Cow;

use super::{words, Json, Members, NUMBER_TOKEN};

/// Nesting deeper than this is left to serde_json (whose limit is 128).
const MAX_DEPTH: usize = 100;

/// A document this long or shorter has its UTF-8 checked whole, before the
/// parse, so that each string is a slice of checked text: most of its
/// strings are keys and short values, for which a check of their own
/// cost more than the rest of their parse. A longer document (long
/// payloads) has each string checked as it is read, while it is in the
/// cache.
const CHECKED_WHOLE: usize = 64 << 10;

/// Parses `bytes` as one JSON document, or `None` where serde_json must say;
/// with the tree, how many keys its objects wrote twice.
pub(super) fn parse(bytes: &[u8]) -> Option<(Json<'_>, usize)> {
    let mut tree = Tree { duplicates: 0 };
    let value = parse_with(bytes, &mut tree)?;
    Some((value, tree.duplicates))
}

/// Parses `bytes` as one JSON document into what `build` makes of it, or
/// `None` where serde_json must say (the grammar is the same whatever is
/// built: `json::lent::direct` builds a `serde_json::Value` with it).
pub(super) fn parse_with<'a, B: Build<'a>>(bytes: &'a [u8], build: &mut B) -> Option<B::Value> {
    let text = if bytes.len() <= CHECKED_WHOLE {
        Some(simdutf8::basic::from_utf8(bytes).ok()?)
    } else {
        None
    };
    let mut parser = Parser {
        bytes,
        text,
        at: 0,
        build,
    };
    parser.skip_whitespace();
    let value = parser.value(0)?;
    parser.skip_whitespace();
    (parser.at == bytes.len()).then_some(value)
}

/// What a parse makes of the values it reads, in document order. A string is
/// borrowed from the text when it has no escapes.
pub(super) trait Build<'a> {
    type Value;
    /// An object or array being read.
    type Object;
    type Array;

    fn null(&mut self) -> Self::Value;
    fn bool(&mut self, value: bool) -> Self::Value;
    /// A number as written (never with an exponent); `None` refuses it.
    fn number(&mut self, text: &'a str) -> Option<Self::Value>;
    /// A string value (not a key).
    fn string(&mut self, text: Cow<'a, str>) -> Self::Value;
    /// A key was read (`escaped`: with escapes, so not borrowed); its value
    /// comes next.
    fn key(&mut self, _key: &str, _escaped: bool) {}
    fn object(&mut self) -> Self::Object;
    fn member(&mut self, object: &mut Self::Object, key: Cow<'a, str>, value: Self::Value);
    fn end_object(&mut self, object: Self::Object) -> Self::Value;
    fn array(&mut self) -> Self::Array;
    fn item(&mut self, array: &mut Self::Array, value: Self::Value);
    fn end_array(&mut self, array: Self::Array) -> Self::Value;
}

/// Builds the borrowed tree, counting keys written twice.
struct Tree {
    /// Members whose key their object had already.
    duplicates: usize,
}

impl<'a> Build<'a> for Tree {
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
        Some(Json::Number(Cow::Owned(text.to_string())))
    }

    fn string(&mut self, text: Cow<'a, str>) -> Json<'a> {
        Json::String(text)
    }

    fn object(&mut self) -> Members<'a> {
        Members::new()
    }

    fn member(&mut self, object: &mut Members<'a>, key: Cow<'a, str>, value: Json<'a>) {
        if object.push(key, value) {
            self.duplicates += 1;
        }
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

struct Parser<'a, 'b, B> {
    bytes: &'a [u8],
    /// `bytes` as text, when it was checked whole ([`CHECKED_WHOLE`]).
    text: Option<&'a str>,
    at: usize,
    build: &'b mut B,
}

impl<'a, B: Build<'a>> Parser<'a, '_, B> {
    fn skip_whitespace(&mut self) {
        while let Some(b' ' | b'\n' | b'\t' | b'\r') = self.bytes.get(self.at) {
            self.at += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> Option<()> {
        (self.bytes.get(self.at) == Some(&byte)).then(|| self.at += 1)
    }

    fn value(&mut self, depth: usize) -> Option<B::Value> {
        match *self.bytes.get(self.at)? {
            b'"' => {
                let text = self.string()?;
                Some(self.build.string(text))
            }
            b'{' => self.object(depth + 1),
            b'[' => self.array(depth + 1),
            b't' => self.literal(b"true").map(|()| self.build.bool(true)),
            b'f' => self.literal(b"false").map(|()| self.build.bool(false)),
            b'n' => self.literal(b"null").map(|()| self.build.null()),
            b'-' | b'0'..=b'9' => self.number(),
            _ => None,
        }
    }

    fn literal(&mut self, word: &[u8]) -> Option<()> {
        self.bytes[self.at..]
            .starts_with(word)
            .then(|| self.at += word.len())
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?`: serde_json keeps such a number's text
    /// as written (an exponent it respells, so those go to it).
    fn number(&mut self) -> Option<B::Value> {
        let start = self.at;
        let digits = |parser: &mut Self| {
            let from = parser.at;
            while parser.bytes.get(parser.at).is_some_and(u8::is_ascii_digit) {
                parser.at += 1;
            }
            parser.at - from
        };
        let _ = self.eat(b'-');
        let first = *self.bytes.get(self.at)?;
        let integer = digits(self);
        if integer == 0 || (first == b'0' && integer > 1) {
            return None;
        }
        if self.eat(b'.').is_some() && digits(self) == 0 {
            return None;
        }
        if matches!(self.bytes.get(self.at), Some(b'e' | b'E')) {
            return None;
        }
        let text = self.text_between(start, self.at)?;
        self.build.number(text)
    }

    fn array(&mut self, depth: usize) -> Option<B::Value> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.at += 1;
        let mut items = self.build.array();
        self.skip_whitespace();
        if self.eat(b']').is_some() {
            return Some(self.build.end_array(items));
        }
        loop {
            self.skip_whitespace();
            let item = self.value(depth)?;
            self.build.item(&mut items, item);
            self.skip_whitespace();
            match *self.bytes.get(self.at)? {
                b',' => self.at += 1,
                b']' => {
                    self.at += 1;
                    return Some(self.build.end_array(items));
                }
                _ => return None,
            }
        }
    }

    fn object(&mut self, depth: usize) -> Option<B::Value> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.at += 1;
        let mut members = self.build.object();
        self.skip_whitespace();
        if self.eat(b'}').is_some() {
            return Some(self.build.end_object(members));
        }
        let mut first = true;
        loop {
            self.skip_whitespace();
            if self.bytes.get(self.at) != Some(&b'"') {
                return None;
            }
            let key = self.string()?;
            // serde_json reads an object led by this key as a number.
            if first && key == NUMBER_TOKEN {
                return None;
            }
            first = false;
            self.build.key(&key, matches!(key, Cow::Owned(_)));
            self.skip_whitespace();
            self.eat(b':')?;
            self.skip_whitespace();
            let value = self.value(depth)?;
            self.build.member(&mut members, key, value);
            self.skip_whitespace();
            match *self.bytes.get(self.at)? {
                b',' => self.at += 1,
                b'}' => {
                    self.at += 1;
                    return Some(self.build.end_object(members));
                }
                _ => return None,
            }
        }
    }

    /// The string at the opening quote: borrowed when it has no escapes.
    fn string(&mut self) -> Option<Cow<'a, str>> {
        self.at += 1;
        let mut owned: Option<String> = None;
        loop {
            let text = match self.short_piece() {
                Some(end) => {
                    // A control character before any quote or backslash: not
                    // allowed unescaped, as `checked_text` would say.
                    if self.bytes[end] < 0x20 {
                        return None;
                    }
                    self.text_between(self.at, end)?
                }
                None => {
                    let found = memchr::memchr2(b'"', b'\\', &self.bytes[self.at..])?;
                    self.checked_text(self.at, self.at + found)?
                }
            };
            let found = text.len();
            self.at += found + 1;
            if self.bytes[self.at - 1] == b'"' {
                return Some(match owned {
                    None => Cow::Borrowed(text),
                    Some(mut buf) => {
                        buf.push_str(text);
                        Cow::Owned(buf)
                    }
                });
            }
            let buf = owned.get_or_insert_with(String::new);
            buf.push_str(text);
            let escape = *self.bytes.get(self.at)?;
            self.at += 1;
            buf.push(match escape {
                b'"' => '"',
                b'\\' => '\\',
                b'/' => '/',
                b'b' => '\u{8}',
                b'f' => '\u{c}',
                b'n' => '\n',
                b'r' => '\r',
                b't' => '\t',
                b'u' => {
                    let hex = self.bytes.get(self.at..self.at + 4)?;
                    let mut code = 0;
                    for &digit in hex {
                        code = code * 16 + char::from(digit).to_digit(16)?;
                    }
                    self.at += 4;
                    // A surrogate (paired or lone) is serde_json's to judge.
                    char::from_u32(code)?
                }
                _ => return None,
            });
        }
    }
}

impl<'a, B> Parser<'a, '_, B> {
    /// Where the first quote, backslash or control character is in the 32
    /// bytes from `at`, a word at a time (`words.rs`): a key's or a short
    /// value's end, found without a call. `None` when none is there, or
    /// fewer than 32 bytes are left: then search the usual way.
    fn short_piece(&self) -> Option<usize> {
        let from = self.at;
        if self.bytes.len() < from + 32 {
            return None;
        }
        (0..4).find_map(|word| {
            let at = from + 8 * word;
            match words::special::<false>(words::at(self.bytes, at)) {
                0 => None,
                hits => Some(at + words::first(hits)),
            }
        })
    }

    /// The bytes from `start` to `end` as text: a slice of the text checked
    /// whole, or checked now. Both ends are next to an ASCII byte (a quote, a
    /// backslash, a digit), so they are always between characters.
    fn text_between(&self, start: usize, end: usize) -> Option<&'a str> {
        match self.text {
            Some(text) => text.get(start..end),
            // simdutf8 checks 32 bytes a step; the standard library's check
            // (a word a step) was a tenth of validating a JSON Lines file of
            // payloads.
            None => simdutf8::basic::from_utf8(&self.bytes[start..end]).ok(),
        }
    }

    /// A piece of a string between escapes as text: `None` when it holds a
    /// control character (not allowed unescaped in JSON) or is not UTF-8.
    fn checked_text(&self, start: usize, end: usize) -> Option<&'a str> {
        // The smallest byte, in a fold the compiler vectorizes (a branch a
        // byte would not): below 0x20 is a control character.
        for chunk in self.bytes[start..end].chunks(4096) {
            if chunk.iter().fold(u8::MAX, |acc, &b| acc.min(b)) < 0x20 {
                return None;
            }
        }
        self.text_between(start, end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fast parse gives serde_json's tree and count of keys written
    /// twice, or leaves the document to it.
    fn same(text: &str) {
        use serde::de::DeserializeSeed;
        let slow = {
            let duplicates = std::cell::Cell::new(0);
            let mut de = serde_json::Deserializer::from_str(text);
            let value = super::super::Tree::new(&duplicates).deserialize(&mut de);
            value
                .ok()
                .filter(|_| de.end().is_ok())
                .map(|value| (value, duplicates.get()))
        };
        if let Some(fast) = parse(text.as_bytes()) {
            assert_eq!(Some(&fast), slow.as_ref(), "{text}");
        }
    }

    #[test]
    fn agrees_with_serde_json() {
        for text in [
            r#"{"a":"plain","b":"esc\"a\\p\/ed\n\t\u00e9\u20AC","c":[1,-0,0.5,-12.25,true,false,null,{}, []]}"#,
            " [ 1 , 2 ] ",
            r#""x""#,
            r#"{"a":1,"a":2}"#,
            r#"[{"a":1,"b":{"a":2,"a":3},"a":4,"a":5}]"#,
            r#"{"é":"ü🚀"}"#,
            "[1e5]",
            "[01]",
            "[1.]",
            "[-]",
            "[1,]",
            "{\"a\":1,}",
            "\"a\u{1}b\"",
            r#""\ud83d\ude80""#,
            r#""\ud83d""#,
            r#""\x""#,
            "[tru]",
            "{} x",
            "",
            r#"{"$serde_json::private::Number":"2"}"#,
            &("[".repeat(200) + &"]".repeat(200)),
        ] {
            same(text);
        }
    }

    #[test]
    fn a_string_ends_and_fails_wherever_the_byte_lies() {
        // Each special byte at every place around 32-byte blocks, alone and
        // before another string; the fast parse must see what serde_json sees.
        for len in [0, 1, 23, 24, 25, 31, 32, 33, 63, 64, 65, 100] {
            for at in 0..len {
                for special in ["\"", "\\n", "\u{1}", "\u{1f}", "é", "\u{7f}"] {
                    let mut text = "a".repeat(len);
                    text.replace_range(at..at + 1, special);
                    let document = format!("[\"{text}\",\"{}\"]", "b".repeat(at));
                    same(&document);
                    let fails = matches!(special, "\"" | "\u{1}" | "\u{1f}");
                    assert_eq!(parse(document.as_bytes()).is_none(), fails, "{document:?}");
                }
            }
        }
    }

    #[test]
    fn checks_utf8_whole_or_string_by_string() {
        // Small documents are checked whole before the parse, longer ones a
        // string at a time: broken UTF-8 anywhere is left to serde_json
        // either way, and text borrows the same.
        for pad in [10, CHECKED_WHOLE] {
            let padding = "p".repeat(pad);
            let good = format!(r#"{{"k\u00e9y":"café","pad":"{padding}","n":-1.5}}"#);
            same(&good);
            let (json, _) = parse(good.as_bytes()).unwrap();
            assert!(matches!(
                json.get("kéy"),
                Some(Json::String(Cow::Borrowed("café")))
            ));
            assert!(matches!(json.get("n"), Some(Json::Number(n)) if n == "-1.5"));
            for broken in [&b"\xff"[..], b"\xc3", b"\xed\xa0\x80"] {
                for place in ["value", "key", "outside"] {
                    let mut document = format!(r#"{{"pad":"{padding}","#).into_bytes();
                    match place {
                        "value" => {
                            document.extend_from_slice(b"\"v\":\"a");
                            document.extend_from_slice(broken);
                            document.extend_from_slice(b"b\"}");
                        }
                        "key" => {
                            document.push(b'"');
                            document.extend_from_slice(broken);
                            document.extend_from_slice(b"\":1}");
                        }
                        _ => {
                            document.extend_from_slice(b"\"v\":1}");
                            document.extend_from_slice(broken);
                        }
                    }
                    assert!(parse(&document).is_none(), "{pad} {place} {broken:?}");
                    assert!(super::super::parse(&document).is_err());
                }
            }
        }
    }

    #[test]
    fn borrows_plain_strings_and_leaves_errors_to_serde_json() {
        let text = br#"{"a":"plain","b":"x\ny"}"#;
        let (json, _) = parse(text).unwrap();
        assert!(matches!(
            json.get("a"),
            Some(Json::String(Cow::Borrowed("plain")))
        ));
        assert!(matches!(json.get("b"), Some(Json::String(Cow::Owned(s))) if s == "x\ny"));
        assert!(parse(b"[1e5]").is_none());
        assert!(parse(b"\"a\x01\"").is_none());
        assert!(parse(b"\"\xff\"").is_none());
        assert!(parse(b"[1] 2").is_none());
    }
}
