//! What a document lends ([`Lending`]: the input and where its payloads are
//! in it), and seeing through placeholders with it.

use std::borrow::Cow;
use std::cell::RefCell;
use std::fs::File;
use std::io::{self, Write};
use std::ops::Range;
use std::os::unix::fs::FileExt;
use std::sync::Arc;

use serde_json::Value;

use super::{Payloads, CLOSE, OPEN};
use crate::shared::SharedBytes;

/// Where lent payloads are read from: the input in memory, the file it is
/// (see `file.rs`), or strings held by whoever handed the document over
/// (see `gather.rs`).
#[derive(Debug, Clone)]
pub enum Source {
    Bytes(SharedBytes),
    File(Arc<File>),
    Held(Arc<dyn Held>),
}

/// Payloads that stay in the strings of a document given as data (Python's
/// `str` objects), each read where it is needed instead of copied.
pub trait Held: Send + Sync + std::fmt::Debug {
    /// Runs `f` on payload `index` (`None` when there is none, or it
    /// cannot be read). Text already, so that it is not checked for UTF-8
    /// again on every read.
    fn with_payload(&self, index: usize, f: &mut dyn FnMut(Option<&str>));
}

/// The payloads a document lends, and the input they are read from: what
/// sees through its placeholders. Given to whatever reads the document's
/// values (the readers through the conversion's context, the JSON writer,
/// the checks); [`Lending::NONE`] where nothing is lent, and there a
/// placeholder is only text. Cheap to clone: the input is shared, not
/// copied.
#[derive(Debug, Clone, Default)]
pub struct Lending(Option<Arc<Inner>>);

#[derive(Debug)]
struct Inner {
    input: Source,
    payloads: Payloads,
}

impl Lending {
    /// Nothing lent.
    pub const NONE: Lending = Lending(None);

    /// `payloads` lent from `input` (nothing, when there are none).
    pub fn new(input: Source, payloads: Payloads) -> Lending {
        if payloads.is_empty() {
            return Lending::NONE;
        }
        Lending(Some(Arc::new(Inner { input, payloads })))
    }

    /// `payloads` lent from `input` in memory.
    pub fn of_bytes(input: &SharedBytes, payloads: &Payloads) -> Lending {
        Lending::new(Source::Bytes(input.clone()), payloads.clone())
    }

    /// Whether anything is lent (placeholders then stand for payloads).
    pub fn is_lending(&self) -> bool {
        self.0.is_some()
    }

    /// This lending, or `outer` when nothing is lent here (a value of a
    /// document that lends nothing of its own sees through `outer`'s).
    pub fn or(self, outer: &Lending) -> Lending {
        if self.is_lending() {
            self
        } else {
            outer.clone()
        }
    }

    /// The payload behind placeholder `index` (`None` when nothing is lent
    /// under it, or a file's read fails: the placeholder then stays).
    fn with_payload<R>(&self, index: usize, f: impl FnOnce(Option<&str>) -> R) -> R {
        self.with_payload_upto(index, usize::MAX, f)
    }

    /// [`Lending::with_payload`] of at most the first `chars` characters
    /// (all a file's read gets).
    fn with_payload_upto<R>(
        &self,
        index: usize,
        chars: usize,
        f: impl FnOnce(Option<&str>) -> R,
    ) -> R {
        let Some(lent) = &self.0 else {
            return f(None);
        };
        let Some(mut range) = lent.payloads.range(index) else {
            return f(None);
        };
        range.end = range.end.min(range.start.saturating_add(chars));
        let within = range.len();
        match &lent.input {
            Source::Bytes(bytes) => f(bytes
                .get(range)
                .and_then(|bytes| std::str::from_utf8(bytes).ok())),
            Source::File(file) => {
                // Read into a buffer kept per thread (a fresh one when a caller
                // up the stack holds it): only a cache of the allocation.
                thread_local! {
                    static BUFFER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
                }
                BUFFER.with(|buffer| {
                    let mut fresh = Vec::new();
                    let mut held = buffer.try_borrow_mut();
                    let buffer = match held.as_mut() {
                        Ok(buffer) => &mut **buffer,
                        Err(_) => &mut fresh,
                    };
                    // Grown, never shrunk: no zeroing of what a read overwrites.
                    if buffer.len() < range.len() {
                        buffer.resize(range.len(), 0);
                    }
                    let buffer = &mut buffer[..range.len()];
                    let read = file.read_exact_at(buffer, range.start as u64);
                    f(read.ok().and_then(|()| std::str::from_utf8(buffer).ok()))
                })
            }
            Source::Held(held) => {
                // The callback runs once; `f` and its result go through it.
                let mut f = Some(f);
                let mut result = None;
                held.with_payload(index, &mut |text| {
                    let text = text.and_then(|text| text.get(..within));
                    if let Some(f) = f.take() {
                        result = Some(f(text));
                    }
                });
                match (result, f) {
                    (Some(result), _) => result,
                    (None, Some(f)) => f(None),
                    (None, None) => unreachable!("f ran, so it gave a result"),
                }
            }
        }
    }

    /// The range of the payload behind placeholder `index` in the input.
    pub(super) fn payload_range(&self, index: usize) -> Option<Range<usize>> {
        self.0.as_ref()?.payloads.range(index)
    }

    /// When `text` is one placeholder whose payload the scan found strict
    /// base64: the payload's index and decoded size (known without reading
    /// it).
    pub fn strict_payload(&self, text: &str) -> Option<(usize, u64)> {
        let lent = self.0.as_ref()?;
        if !text.starts_with(OPEN) {
            return None;
        }
        let mut pieces = pieces(text);
        let (Some(Piece::Lent(index)), None) = (pieces.next(), pieces.next()) else {
            return None;
        };
        Some((index, lent.payloads.strict_len(index)?))
    }

    /// Runs `f` on the first `chars` characters of the payload behind
    /// placeholder `index` (`None` as for [`Lending::with_resolved`]'s
    /// lookups).
    pub fn with_payload_prefix<R>(
        &self,
        index: usize,
        chars: usize,
        f: impl FnOnce(Option<&str>) -> R,
    ) -> R {
        self.with_payload_upto(index, chars, f)
    }

    /// Runs `f` on `text` with its placeholders replaced by their payloads
    /// (no copy when the text is one placeholder, none when nothing is lent).
    pub fn with_resolved<R>(&self, text: &str, f: impl FnOnce(&str) -> R) -> R {
        if !self.is_lending() || !text.contains(OPEN) {
            return f(text);
        }
        let mut pieces = pieces(text);
        if let (Some(Piece::Lent(index)), None) = (pieces.next(), pieces.next()) {
            return self.with_payload(index, |payload| f(payload.unwrap_or(text)));
        }
        let mut whole = String::with_capacity(text.len());
        for piece in self::pieces(text) {
            match piece {
                Piece::Text(part) => whole.push_str(part),
                Piece::Lent(index) => self.with_payload(index, |payload| {
                    whole.push_str(payload.unwrap_or("\u{FFFD}"));
                }),
            }
        }
        f(&whole)
    }

    /// The length of `text` with its placeholders resolved (nothing is read).
    pub fn resolved_len(&self, text: &str) -> usize {
        if !self.is_lending() || !text.contains(OPEN) {
            return text.len();
        }
        pieces(text)
            .map(|piece| match piece {
                Piece::Text(part) => part.len(),
                Piece::Lent(index) => self.payload_range(index).map_or(0, |range| range.len()),
            })
            .sum()
    }

    /// `text` with its placeholders resolved, copied when it holds any.
    pub fn resolved<'t>(&self, text: &'t str) -> Cow<'t, str> {
        if !self.is_lending() || !text.contains(OPEN) {
            return Cow::Borrowed(text);
        }
        Cow::Owned(self.with_resolved(text, str::to_string))
    }

    /// `value` with the placeholders in its strings resolved, copied when it
    /// holds any: for checks that read strings as they are (a tool call's
    /// arguments against its schema).
    pub fn resolved_value<'v>(&self, value: &'v Value) -> Cow<'v, Value> {
        fn holds(value: &Value) -> bool {
            match value {
                Value::String(text) => text.contains(OPEN),
                Value::Array(items) => items.iter().any(holds),
                Value::Object(members) => members.iter().any(|(k, v)| k.contains(OPEN) || holds(v)),
                _ => false,
            }
        }
        fn resolve(lending: &Lending, value: &Value) -> Value {
            match value {
                Value::String(text) => Value::String(lending.resolved(text).into_owned()),
                Value::Array(items) => {
                    Value::Array(items.iter().map(|item| resolve(lending, item)).collect())
                }
                Value::Object(members) => Value::Object(
                    members
                        .iter()
                        .map(|(k, v)| (lending.resolved(k).into_owned(), resolve(lending, v)))
                        .collect(),
                ),
                other => other.clone(),
            }
        }
        if !self.is_lending() || !holds(value) {
            return Cow::Borrowed(value);
        }
        Cow::Owned(resolve(self, value))
    }

    /// Writes the payload behind placeholder `index` to `out` (the
    /// placeholder itself when nothing is lent under that index).
    pub fn write_payload<W: Write>(&self, out: &mut W, index: usize) -> io::Result<()> {
        self.with_payload(index, |payload| match payload {
            Some(payload) => out.write_all(payload.as_bytes()),
            None => write!(out, "{OPEN}{index:x}{CLOSE}"),
        })
    }
}
/// One piece of a string that may hold placeholders.
#[derive(Debug, PartialEq, Eq)]
pub enum Piece<'a> {
    Text(&'a str),
    /// A placeholder: the payload's index.
    Lent(usize),
}

/// The pieces of `text`: text, and placeholders (a malformed one is text).
pub fn pieces(text: &str) -> impl Iterator<Item = Piece<'_>> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let Some(open) = rest.find(OPEN) else {
            return Some(Piece::Text(std::mem::take(&mut rest)));
        };
        if open > 0 {
            let (text, after) = rest.split_at(open);
            rest = after;
            return Some(Piece::Text(text));
        }
        let inner = &rest[OPEN.len_utf8()..];
        let parsed = inner.find(CLOSE).and_then(|close| {
            let hex = &inner[..close];
            let valid = !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit());
            let index = usize::from_str_radix(hex, 16).ok().filter(|_| valid)?;
            Some((index, close + CLOSE.len_utf8()))
        });
        Some(match parsed {
            Some((index, len)) => {
                rest = &inner[len..];
                Piece::Lent(index)
            }
            None => {
                let (text, after) = rest.split_at(OPEN.len_utf8());
                rest = after;
                Piece::Text(text)
            }
        })
    })
}
