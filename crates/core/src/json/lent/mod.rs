//! Base64 payloads lent from the input instead of copied: why this exists.
//!
//! A transcript is mostly base64. Parsed into a `serde_json::Value`, read into
//! the canonical model and written out again, each payload was copied four
//! times (the value, the part, the output value, the output text), so a
//! conversion held four copies of its input. [`parse`] instead finds the
//! payloads in the text first (a data URL's base64, or the string of a `data`,
//! `blob`, `bytes` or `file_data` key, when it is all standard base64) and
//! parses a copy of the text in which each is a short placeholder; the
//! placeholders travel through the readers, the model and the writers as
//! ordinary strings. The document's [`Lending`] (the input, and where each
//! payload is in it) goes along as a value to whatever must see through them:
//! the conversion's context carries it to the readers and writers, the checks
//! are given it, and it resolves a placeholder where one is read
//! ([`Lending::with_resolved`]; base64 itself knows nothing of placeholders).
//! The JSON writer, given it too, leaves a hole where a placeholder is, filled
//! from the input as the output is written ([`Lent`]). A payload is then
//! copied once, into the output. Code given no lending ([`Lending::NONE`])
//! sees a placeholder as the text it is. A large file can lend its payloads without being
//! held at all ([`scan_file`]): it is scanned a chunk at a time, and each
//! payload is read again where it is needed. A document that is not text
//! at all (Python data) lends its payloads as its value is built
//! ([`Gathered`]).
//!
//! A placeholder is `U+E000`, the payload's index in hex, `U+E001`: private-use
//! characters, so that a forgotten lookup shows as an invalid base64
//! character, never as other valid data. An input that holds either character
//! (or its escape) is parsed as it is, nothing lent.

use std::borrow::Cow;
use std::ops::Range;

use serde_json::Value;

use crate::json::{Json, Reading, Spellings};
use crate::shared::SharedBytes;

mod direct;
mod file;
mod gather;
mod holes;
mod lend;
mod scan;
mod spare;
mod strict;

pub use file::{scan_file, FileScan};
pub use gather::{Gathered, Loan};
pub use holes::Lent;
pub use lend::{pieces, Held, Lending, Piece, Source};

/// The shortest payload worth lending. Small enough that the test fixtures'
/// real images are lent, so that every test runs through placeholders.
const MIN_PAYLOAD: usize = 64;
/// How far into a data URL its comma may be.
const MAX_HEADER: usize = 256;

const OPEN: char = '\u{E000}';
const CLOSE: char = '\u{E001}';

/// The keys whose string values are base64 in some shape: canonical, Anthropic,
/// Gemini and MCP `data`, MCP `blob`, Bedrock `bytes`, OpenAI `file_data`.
const PAYLOAD_KEYS: [&[u8]; 4] = [b"data", b"blob", b"bytes", b"file_data"];

/// A document parsed with its payloads lent: the value (placeholders where
/// the payloads were) and where each payload is in the input. Dropped, it
/// gives its shadow back for the next document (`spare.rs`).
#[derive(Debug)]
pub struct Parsed {
    pub value: Value,
    /// The text the value was parsed from, when it is not the input: its
    /// numbers are spelled as the input's are.
    pub shadow: Option<Vec<u8>>,
    pub payloads: Payloads,
    /// Whether the input may hold a number serde_json spells otherwise
    /// (the scan saw an exponent, or did not see it all).
    respell: bool,
}

impl Parsed {
    /// How to read the value parsed from `input`: its payloads lent from
    /// `input`, its numbers spelled as `input` spells them.
    pub fn reading(&self, input: &SharedBytes) -> Reading {
        let text = self.shadow.as_deref().unwrap_or(input);
        reading_of(input, self.payloads.clone(), self.respell, text)
    }
}

/// How to read what was parsed from `text` (the input, or its shadow): the
/// payloads lent from `input`, and the text's spellings of its numbers
/// ([`Spellings::of`]) only when `respell` (the scan saw an exponent, or did
/// not see it all): nearly every document's text is then not walked again.
fn reading_of(input: &SharedBytes, payloads: Payloads, respell: bool, text: &[u8]) -> Reading {
    let spellings = match respell {
        true => Spellings::of(text),
        false => Spellings::default(),
    };
    Reading::new(
        Lending::new(Source::Bytes(input.clone()), payloads),
        spellings,
    )
}

impl Drop for Parsed {
    fn drop(&mut self) {
        if let Some(shadow) = self.shadow.take() {
            spare::give_back(shadow);
        }
    }
}

/// Where each lent payload is in the input, by placeholder index.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Payloads {
    ranges: Vec<Range<usize>>,
    /// Each one's decoded size, when a scan found it strict base64
    /// (`strict.rs`); empty when nothing was checked.
    strict: Vec<Option<u64>>,
}

impl Payloads {
    /// Payloads not checked.
    fn unchecked(ranges: Vec<Range<usize>>) -> Payloads {
        Payloads {
            ranges,
            strict: Vec::new(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    fn range(&self, index: usize) -> Option<Range<usize>> {
        self.ranges.get(index).cloned()
    }

    /// The decoded size of payload `index`, when it is known to be strict
    /// base64.
    fn strict_len(&self, index: usize) -> Option<u64> {
        self.strict.get(index).copied().flatten()
    }
}

/// Parses `input`, lending its payloads (see the module's documentation).
/// Errors are serde_json's on the input itself, in its own coordinates.
pub fn parse(input: &[u8]) -> Result<Parsed, serde_json::Error> {
    match direct::parse(input) {
        Some(parsed) => Ok(parsed),
        None => scan(input).parse(input),
    }
}

/// A small document parsed into the borrowed tree, its payloads lent: what
/// a reader that reads the tree (`json::node`) is given.
#[derive(Debug)]
pub struct ParsedTree<'a> {
    pub json: Json<'a>,
    pub payloads: Payloads,
}

impl ParsedTree<'_> {
    /// How to read the tree parsed from `input`: its payloads lent from
    /// `input` (no number in it needs respelling: the tree takes none with
    /// an exponent).
    pub fn reading(&self, input: &SharedBytes) -> Reading {
        let lending = Lending::new(Source::Bytes(input.clone()), self.payloads.clone());
        Reading::new(lending, Spellings::default())
    }
}

/// [`parse`] into the borrowed tree: the same strings, the same
/// placeholders, the same payloads. `None` where [`parse`] would not read
/// `input` in one pass ([`parses_directly`], and what the fast parser
/// leaves to serde_json): then use [`parse`].
pub fn parse_tree(input: &[u8]) -> Option<ParsedTree<'_>> {
    let (json, payloads) = direct::parse_tree(input)?;
    Some(ParsedTree { json, payloads })
}

/// Whether [`parse`] reads `input` in one pass (`direct.rs`): a small
/// document. A larger one is scanned first, and its payloads are then read
/// once more only by the scan's own checks, not by a parser's.
pub fn parses_directly(input: &[u8]) -> bool {
    input.len() <= direct::MAX_INPUT
}

/// An input's payloads found, not yet parsed.
#[derive(Debug)]
pub struct Scan {
    shadow: Vec<u8>,
    payloads: Vec<Range<usize>>,
    strict: Vec<Option<u64>>,
    /// Whether the input may hold a number serde_json spells otherwise.
    respell: bool,
}

/// A scan dropped unparsed (its text parsed into the borrowed tree) gives
/// its shadow back for the next document, as [`Parsed`] does.
impl Drop for Scan {
    fn drop(&mut self) {
        let shadow = std::mem::take(&mut self.shadow);
        if shadow.capacity() > 0 {
            spare::give_back(shadow);
        }
    }
}

/// Finds `input`'s payloads and writes the text to parse in their place.
pub fn scan(input: &[u8]) -> Scan {
    // Room for a small document's whole text, in the buffer the last one
    // gave back; a large one grows its shadow as it goes (its payloads, most
    // of it, are not copied).
    let mut scanner = scan::Scanner::with_shadow(spare::take(input.len().min(spare::KEPT)));
    let mut again = input;
    let scanned = scanner.chunk(0, input, &mut again);
    let respell = scanned.is_err() || scanner.may_respell();
    let found = scanned
        .ok()
        .and_then(|()| scanner.finish(input.len()))
        .unwrap_or_default();
    Scan {
        shadow: found.shadow,
        payloads: found.payloads,
        strict: found.strict,
        respell,
    }
}

impl Scan {
    /// The text to parse: the input with placeholders for its payloads (the
    /// same keys, values and numbers, only shorter).
    pub fn text<'a>(&'a self, input: &'a [u8]) -> &'a [u8] {
        if self.payloads.is_empty() {
            input
        } else {
            &self.shadow
        }
    }

    /// How to read what [`Scan::text`] gives once parsed: its payloads
    /// lent from `input`, its numbers spelled as the text spells them
    /// (what [`Parsed::reading`] gives for the same input).
    pub fn reading(&self, input: &SharedBytes) -> Reading {
        let payloads = Payloads {
            ranges: self.payloads.clone(),
            strict: self.strict.clone(),
        };
        reading_of(input, payloads, self.respell, self.text(input))
    }

    /// Parses the text ([`parse`]).
    pub fn parse(mut self, input: &[u8]) -> Result<Parsed, serde_json::Error> {
        let shadow = std::mem::take(&mut self.shadow);
        let payloads = std::mem::take(&mut self.payloads);
        let strict = std::mem::take(&mut self.strict);
        let respell = self.respell;
        if payloads.is_empty() {
            return Ok(Parsed {
                value: serde_json::from_slice(input)?,
                shadow: None,
                payloads: Payloads::default(),
                respell,
            });
        }
        match serde_json::from_slice(&shadow) {
            Ok(value) => Ok(Parsed {
                value,
                shadow: Some(shadow),
                payloads: Payloads {
                    ranges: payloads,
                    strict,
                },
                respell,
            }),
            // Replacing base64 inside a string by other string characters
            // keeps a text valid or invalid; the input says where it is not.
            Err(_) => serde_json::from_slice(input).map(|value| Parsed {
                value,
                shadow: None,
                payloads: Payloads::default(),
                respell,
            }),
        }
    }
}

/// A borrowed tree parsed from `input`, again with its payloads lent (the
/// strings [`scan`] would lend, found where the tree borrows them from the
/// input, each replaced by its placeholder): what a reader given the
/// lending reads, without copying a payload or any other string.
pub fn tree_of<'a>(doc: &Json<'a>, input: &[u8]) -> (Json<'a>, Payloads) {
    let mut payloads = Vec::new();
    if scan::holds_placeholder_bytes(input) || has_escaped_placeholder(doc) {
        return (doc.clone(), Payloads::default());
    }
    let tree = lend_in(doc, input, None, &mut payloads);
    (tree, Payloads::unchecked(payloads))
}

fn lend_in<'a>(
    doc: &Json<'a>,
    input: &[u8],
    key: Option<&str>,
    payloads: &mut Vec<Range<usize>>,
) -> Json<'a> {
    match doc {
        Json::String(Cow::Borrowed(text)) => match payload_in(text, input, holds_base64(key)) {
            Some((payload, _)) => {
                let index = payloads.len();
                let prefix = &text[..text.len() - payload.len()];
                payloads.push(payload);
                Json::String(Cow::Owned(placeholder(prefix, index)))
            }
            None => Json::String(Cow::Borrowed(text)),
        },
        Json::Array(items) => Json::Array(
            items
                .iter()
                .map(|item| lend_in(item, input, key, payloads))
                .collect(),
        ),
        Json::Object(members) => Json::Object(
            members
                .iter()
                .map(|(k, v)| (k.clone(), lend_in(v, input, Some(k), payloads)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Where the payload of `text` (a string without escapes, borrowed from
/// `input`) is in `input`, when it has one ([`payload_start`]), with its
/// decoded size when it is strict base64.
fn payload_in(text: &str, input: &[u8], keyed: bool) -> Option<(Range<usize>, Option<u64>)> {
    let start = (text.as_ptr() as usize).wrapping_sub(input.as_ptr() as usize);
    if start > input.len() || text.len() > input.len() - start {
        return None;
    }
    let (offset, strict) = payload_start(text.as_bytes(), keyed)?;
    Some((start + offset..start + text.len(), strict))
}

/// Where a string's base64 payload starts, when it has one: at least
/// [`MIN_PAYLOAD`] characters of base64 after a base64 data URL's comma, or
/// the whole string when `keyed` (its key holds base64); with its decoded
/// size when it is strict base64. The payload is read once by the strict
/// check (SIMD), and looked at again only when it is not strict.
fn payload_start(text: &[u8], keyed: bool) -> Option<(usize, Option<u64>)> {
    if text.len() < MIN_PAYLOAD {
        return None;
    }
    let offset = payload_offset(text, keyed).filter(|&o| text.len() - o >= MIN_PAYLOAD)?;
    let mut strict = strict::Strict::default();
    strict.feed(&text[offset..]);
    let strict = strict.finish();
    (strict.is_some() || is_base64(&text[offset..])).then_some((offset, strict))
}

/// Whether a string of the tree (an unescaped one) holds a placeholder
/// character.
fn has_escaped_placeholder(doc: &Json<'_>) -> bool {
    let holds = |text: &str| text.contains([OPEN, CLOSE]);
    match doc {
        Json::String(Cow::Owned(text)) => holds(text),
        Json::Array(items) => items.iter().any(has_escaped_placeholder),
        Json::Object(members) => members
            .iter()
            .any(|(k, v)| matches!(k, Cow::Owned(k) if holds(k)) || has_escaped_placeholder(v)),
        _ => false,
    }
}

/// Whether a member of this name holds base64 in some shape.
fn holds_base64(key: Option<&str>) -> bool {
    key.is_some_and(|k| PAYLOAD_KEYS.contains(&k.as_bytes()))
}

/// The string that stands for payload `index` after `prefix` (a data URL's
/// header, or nothing).
fn placeholder(prefix: &str, index: usize) -> String {
    format!("{prefix}{OPEN}{index:x}{CLOSE}")
}

/// Where the base64 starts in a string: after a base64 data URL's comma, or
/// at its start when its key holds base64.
fn payload_offset(content: &[u8], keyed: bool) -> Option<usize> {
    if content.len() > 5 && content[..5].eq_ignore_ascii_case(b"data:") {
        let head = &content[..content.len().min(MAX_HEADER)];
        let comma = memchr::memchr(b',', head)?;
        let header = &content[..comma];
        let base64 =
            header.len() >= 7 && header[header.len() - 7..].eq_ignore_ascii_case(b";base64");
        return base64.then_some(comma + 1);
    }
    keyed.then_some(0)
}

/// Whether every byte is of the standard base64 alphabet or `=`. Blocks of
/// 32 bytes are tested without a branch per byte, so the loop vectorizes.
fn is_base64(bytes: &[u8]) -> bool {
    let bad = |b: u8| !(b.is_ascii_alphanumeric() || b == b'+' || b == b'/' || b == b'=');
    let mut blocks = bytes.chunks_exact(32);
    for block in &mut blocks {
        let hits = block.iter().fold(0u8, |hits, &b| {
            let letter = (b | 0x20).wrapping_sub(b'a') < 26;
            let digit = b.wrapping_sub(b'0') < 10;
            let other = (b == b'+') | (b == b'/') | (b == b'=');
            hits | u8::from(!(letter | digit | other))
        });
        if hits != 0 {
            return false;
        }
    }
    !blocks.remainder().iter().any(|&b| bad(b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shared::SharedBytes;

    fn b64(n: usize) -> String {
        "QUJD".repeat(n / 4)
    }

    #[test]
    fn spellings_are_looked_for_only_where_an_exponent_may_be() {
        let long = b64(80);
        // (text, whether its text is walked for spellings)
        let cases = [
            (r#"{"a":1E5,"b":2}"#.to_string(), true),
            (r#"{"a":[0.5e3]}"#.to_string(), true),
            (format!(r#"{{"data":"{long}","a":-1E-2}}"#), true),
            (
                r#"{"a":"1E5","t":true,"f":false,"n":null,"E":3}"#.to_string(),
                false,
            ),
            (format!(r#"{{"data":"{long}","e":"2e5","x":10}}"#), false),
            // Not one value: the scan stops early and cannot tell.
            (r#"{"a":1} {"b":2}"#.to_string(), true),
        ];
        let output = b"[1e+5,-1e-2,5e+2]".to_vec();
        for (text, walked) in cases {
            let scanned = scan(text.as_bytes());
            assert_eq!(scanned.respell, walked, "{text}");
            let Ok(parsed) = scanned.parse(text.as_bytes()) else {
                continue;
            };
            // The same spellings as a walk of the whole text gives.
            let all = Spellings::of(parsed.shadow.as_deref().unwrap_or(text.as_bytes()));
            assert_eq!(
                parsed
                    .reading(&SharedBytes::new(text.as_bytes().to_vec()))
                    .spellings()
                    .respell(output.clone()),
                all.respell(output.clone()),
                "{text}"
            );
        }
    }

    #[test]
    fn lends_data_urls_and_keyed_base64_only() {
        let long = b64(80);
        let text = format!(
            r#"{{"url":"data:image/png;base64,{long}","data":"{long}","text":"{long}","bytes":"{long}x!","blob":"AAAA","x":{{"file_data":"{long}"}}}}"#
        );
        let parsed = parse(text.as_bytes()).unwrap();
        let lent: Vec<&str> = parsed
            .payloads
            .ranges
            .iter()
            .map(|r| &text[r.clone()])
            .collect();
        assert_eq!(lent, [long.as_str(), long.as_str(), long.as_str()]);
        assert_eq!(parsed.value["text"], long.as_str());
        assert_eq!(
            parsed.value["url"],
            "data:image/png;base64,\u{E000}0\u{E001}"
        );
        assert_eq!(parsed.value["x"]["file_data"], "\u{E000}2\u{E001}");
        let input = SharedBytes::new(text.clone().into_bytes());
        let lending = Lending::of_bytes(&input, &parsed.payloads);
        let url = parsed.value["url"].as_str().unwrap();
        assert_eq!(
            lending.resolved(url),
            format!("data:image/png;base64,{long}")
        );
        lending.with_resolved(parsed.value["data"].as_str().unwrap(), |s| {
            assert_eq!(s, long)
        });
        // Without a lending, a placeholder is just text.
        assert_eq!(
            Lending::NONE.resolved("\u{E000}0\u{E001}"),
            "\u{E000}0\u{E001}"
        );
    }

    #[test]
    fn nothing_is_lent_from_a_text_with_placeholder_characters() {
        let long = b64(80);
        for marker in ["\u{E000}", "\\ue000", "\\uE001"] {
            let text = format!(r#"{{"data":"{long}","t":"{marker}"}}"#);
            let parsed = parse(text.as_bytes()).unwrap();
            assert!(parsed.payloads.is_empty(), "{marker}");
            assert_eq!(parsed.value["data"], long.as_str());
        }
    }

    #[test]
    fn errors_are_the_inputs_own() {
        let long = b64(80);
        let text = format!("{{\"data\":\"{long}\",\n\"x\": nope}}");
        let ours = parse(text.as_bytes()).unwrap_err().to_string();
        let theirs = serde_json::from_str::<Value>(&text)
            .unwrap_err()
            .to_string();
        assert_eq!(ours, theirs);
    }

    #[test]
    fn escaped_and_short_strings_are_not_lent() {
        let long = b64(80);
        let text = format!(r#"{{"data":"{long}\n","b":{{"data":"QUJD"}},"k\"":"{long}"}}"#);
        assert!(parse(text.as_bytes()).unwrap().payloads.is_empty());
    }

    #[test]
    fn holes_are_filled_from_the_input() {
        let input = b"0123456789";
        let payloads = Payloads::unchecked(vec![2..5, 7..9]);
        let mut lent = Lent::default();
        let lending = Lending::of_bytes(&SharedBytes::new(input.to_vec()), &payloads);
        assert!(lent.hole(1, 0, &lending));
        assert!(lent.hole(3, 1, &lending));
        assert!(!lent.hole(3, 2, &lending));
        assert_eq!(lent.fill(b"abcd".to_vec(), input), b"a234bc78d");
        assert_eq!(lent.filled_len(b"abcd"), 9);
    }

    #[test]
    fn pieces_split_placeholders_out() {
        let got: Vec<Piece> = pieces("a\u{E000}1f\u{E001}b\u{E000}zz\u{E001}").collect();
        assert_eq!(
            got,
            [
                Piece::Text("a"),
                Piece::Lent(0x1f),
                Piece::Text("b"),
                Piece::Text("\u{E000}"),
                Piece::Text("zz\u{E001}")
            ]
        );
    }
}
