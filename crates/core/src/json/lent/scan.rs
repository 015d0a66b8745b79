//! Finding the payloads of a JSON text a chunk at a time, and writing the
//! text to parse with a placeholder in each one's place (the shadow).
//!
//! One scanner serves a document in memory (one chunk) and a file read
//! through a small reused buffer, so that a file's payloads are never all in
//! memory at once. A string is copied into the shadow when it is decided
//! about: a payload becomes its placeholder; anything else is copied, from
//! the chunk at hand, or read again from the input when it began in a chunk
//! already gone (a string longer than a chunk, or one cut by a chunk's end).
//!
//! The scanner also refuses what it cannot lend safely: a text holding a
//! placeholder character (raw or escaped), and a text that is not one object
//! or array (JSON Lines, a bare scalar, trailing content, a truncation) —
//! the caller then reads the input as before.

use std::io;
use std::io::Write as _;
use std::ops::Range;

use super::strict::Strict;
use super::{is_base64, payload_offset, CLOSE, MAX_HEADER, MIN_PAYLOAD, OPEN, PAYLOAD_KEYS};

/// The most white space a document lent from may begin with.
const MAX_LEADING_SPACE: usize = 1 << 20;

/// The input's bytes again, for a string decided about after its chunk.
pub(super) trait Reread {
    fn reread(&mut self, range: Range<usize>, into: &mut Vec<u8>) -> io::Result<()>;
}

impl Reread for &[u8] {
    fn reread(&mut self, range: Range<usize>, into: &mut Vec<u8>) -> io::Result<()> {
        into.extend_from_slice(&self[range]);
        Ok(())
    }
}

/// What scanning found.
#[derive(Debug, Default)]
pub(super) struct Scanned {
    pub shadow: Vec<u8>,
    pub payloads: Vec<Range<usize>>,
    /// Each payload's decoded size, when it is strict base64.
    pub strict: Vec<Option<u64>>,
}

/// A string being read.
#[derive(Debug)]
struct Open {
    /// Where its content starts in the input.
    start: usize,
    escaped: bool,
    /// Whether it follows a key that holds base64.
    keyed: bool,
    /// Its first [`MAX_HEADER`] bytes.
    head: Vec<u8>,
    len: usize,
    /// Where its base64 starts, once known; `None` while undecided.
    payload_at: Option<usize>,
    /// Whether it can still be a payload.
    candidate: bool,
    /// Its base64 checked as it goes by.
    strict: Strict,
}

/// A string read to its end, waiting for the next byte to tell a key.
#[derive(Debug)]
struct Ended {
    content: Range<usize>,
    escaped: bool,
    head: Vec<u8>,
    /// Where its payload is, if it is one (when it is not a key).
    payload: Option<Range<usize>>,
    /// The payload's decoded size, when it is strict base64.
    strict: Option<u64>,
}

/// The scanner's state between chunks.
#[derive(Debug, Default)]
pub(super) struct Scanner {
    found: Scanned,
    /// The input before this offset is in the shadow (or lent).
    copied: usize,
    string: Option<Open>,
    /// The last chunk ended inside a string, right after a backslash.
    backslash: bool,
    ended: Option<Ended>,
    /// The next string follows a key that holds base64.
    keyed_next: bool,
    depth: usize,
    /// Where the one top-level value ends, once it has.
    value_end: Option<usize>,
    started: bool,
    refused: bool,
    /// The last byte seen outside strings (white space aside).
    last_outside: u8,
    /// Whether an `e` or `E` followed a digit outside strings: a number with
    /// an exponent, which serde_json may spell otherwise.
    exponent: bool,
    /// The head buffer of the last string decided about, kept for the next
    /// one: a document holds hundreds of short strings, and an allocation
    /// each cost small documents a few per cent of their conversion.
    spare_head: Vec<u8>,
}

impl Scanner {
    /// A scanner that writes its shadow into `shadow` (empty, with room for
    /// a document in memory: it writes about as much shadow as it has text
    /// around its payloads, and a shadow grown by doubling copies it again
    /// each time).
    pub fn with_shadow(shadow: Vec<u8>) -> Scanner {
        debug_assert!(shadow.is_empty());
        let mut scanner = Scanner::default();
        scanner.found.shadow = shadow;
        scanner
    }

    /// Scans the chunk that starts at `base` in the input.
    pub fn chunk(&mut self, base: usize, chunk: &[u8], input: &mut dyn Reread) -> io::Result<()> {
        if self.refused {
            return Ok(());
        }
        if holds_placeholder_bytes(chunk) {
            self.refused = true;
            return Ok(());
        }
        let mut i = 0;
        while i < chunk.len() && !self.refused {
            if self.string.is_some() {
                i = self.in_string(base, chunk, i, input)?;
                continue;
            }
            let byte = chunk[i];
            if let Some(ended) = self.ended.take() {
                if byte.is_ascii_whitespace() {
                    self.ended = Some(ended);
                    i += 1;
                    continue;
                }
                self.decide(ended, byte == b':', base, chunk, input)?;
            }
            self.outside(base + i, byte);
            i += 1;
        }
        // Copy what is decided; a string still open (or waiting) is copied
        // when it is decided about.
        let upto = match (&self.string, &self.ended) {
            (Some(open), _) => open.start,
            (None, Some(ended)) => ended.content.start,
            (None, None) => base + chunk.len(),
        };
        if !self.refused && upto > self.copied {
            // What follows the value is white space (anything else was
            // refused): not needed to parse it, and not held.
            let to = self
                .value_end
                .map_or(upto, |end| end.clamp(self.copied, upto));
            let from = self.copied - base;
            self.found.shadow.extend_from_slice(&chunk[from..to - base]);
            self.copied = upto;
        }
        if !self.started && base + chunk.len() > MAX_LEADING_SPACE {
            // Not a document that starts soon (megabytes of blank lines):
            // the line reader skips them without holding them.
            self.refused = true;
        }
        Ok(())
    }

    /// Whether the text may hold a number serde_json spells otherwise (one
    /// with an exponent), as far as it was scanned: `true` when it was not
    /// scanned to its end.
    pub fn may_respell(&self) -> bool {
        self.exponent || self.refused
    }

    /// The bytes of shadow written so far.
    pub fn held(&self) -> usize {
        self.found.shadow.len()
    }

    /// Whether it has refused the input (nothing after this changes that).
    pub fn refused(&self) -> bool {
        self.refused
    }

    /// The scan of an input of `len` bytes ends: what was found, or `None`
    /// when there is nothing to lend (or it refused to).
    pub fn finish(mut self, len: usize) -> Option<Scanned> {
        let complete = self.string.is_none()
            && self.ended.is_none()
            && self.value_end.is_some()
            && self.copied == len;
        if self.refused || !complete || self.found.payloads.is_empty() {
            // Nothing lent: the shadow is not needed, its buffer is.
            super::spare::give_back(std::mem::take(&mut self.found.shadow));
            return None;
        }
        if self.found.shadow.capacity() > super::spare::KEPT {
            // A large document's: not held longer than it must be.
            self.found.shadow.shrink_to_fit();
        }
        Some(self.found)
    }

    /// A byte outside strings: structure, and the start of a string.
    fn outside(&mut self, at: usize, byte: u8) {
        if byte.is_ascii_whitespace() {
            return;
        }
        if matches!(byte, b'e' | b'E') && self.last_outside.is_ascii_digit() {
            self.exponent = true;
        }
        self.last_outside = byte;
        if self.value_end.is_some() || (!self.started && byte != b'{' && byte != b'[') {
            // More than one value, or not an object or array.
            self.refused = true;
            return;
        }
        self.started = true;
        match byte {
            b'"' => {
                self.string = Some(Open {
                    start: at + 1,
                    escaped: false,
                    keyed: std::mem::take(&mut self.keyed_next),
                    head: std::mem::take(&mut self.spare_head),
                    len: 0,
                    payload_at: None,
                    candidate: true,
                    strict: Strict::default(),
                });
            }
            b'{' | b'[' => self.depth += 1,
            b'}' | b']' => {
                self.depth = self.depth.saturating_sub(1);
                if self.depth == 0 {
                    self.value_end = Some(at + 1);
                }
            }
            _ => {}
        }
    }

    /// Reads a string's content from `i`; returns where to go on.
    fn in_string(
        &mut self,
        base: usize,
        chunk: &[u8],
        i: usize,
        input: &mut dyn Reread,
    ) -> io::Result<usize> {
        let open = self.string.as_mut().expect("in a string");
        if self.backslash {
            self.backslash = false;
            if escapes_placeholder(chunk, i) {
                self.refused = true;
            }
            open.skip(1);
            return Ok(i + 1);
        }
        let Some(found) = memchr::memchr2(b'"', b'\\', &chunk[i..]) else {
            open.feed(&chunk[i..]);
            return Ok(chunk.len());
        };
        let at = i + found;
        open.feed(&chunk[i..at]);
        if chunk[at] == b'\\' {
            open.escaped = true;
            open.candidate = false;
            if at + 1 == chunk.len() {
                self.backslash = true;
                open.skip(1);
                return Ok(at + 1);
            }
            if escapes_placeholder(chunk, at + 1) {
                self.refused = true;
            }
            open.skip(2);
            return Ok(at + 2);
        }
        let open = self.string.take().expect("in a string");
        let end = base + at;
        let payload = open
            .payload_at
            .filter(|&p| open.candidate && !open.escaped && end - p >= MIN_PAYLOAD)
            .map(|p| p..end);
        let ended = Ended {
            content: open.start..end,
            escaped: open.escaped,
            strict: payload.as_ref().and_then(|_| open.strict.finish()),
            head: open.head,
            payload,
        };
        // The byte that tells a key from a value is usually right there.
        match chunk[at + 1..]
            .iter()
            .position(|b| !b.is_ascii_whitespace())
        {
            Some(k) => self.decide(ended, chunk[at + 1 + k] == b':', base, chunk, input)?,
            None => self.ended = Some(ended),
        }
        Ok(at + 1)
    }

    /// A string is a key or a value: lend its payload, or see that its
    /// content gets into the shadow.
    fn decide(
        &mut self,
        ended: Ended,
        is_key: bool,
        base: usize,
        chunk: &[u8],
        input: &mut dyn Reread,
    ) -> io::Result<()> {
        let start = ended.content.start;
        if is_key {
            self.keyed_next = !ended.escaped
                && ended.content.len() == ended.head.len()
                && PAYLOAD_KEYS.contains(&ended.head.as_slice());
        }
        match ended.payload.filter(|_| !is_key) {
            Some(payload) => {
                // What is before the string is in this chunk (or copied);
                // a data URL's header is in the string's head.
                if self.copied < start {
                    let from = self.copied - base;
                    self.found
                        .shadow
                        .extend_from_slice(&chunk[from..start - base]);
                }
                self.found
                    .shadow
                    .extend_from_slice(&ended.head[..payload.start - start]);
                write!(
                    self.found.shadow,
                    "{OPEN}{:x}{CLOSE}",
                    self.found.payloads.len()
                )
                .expect("writing to memory");
                self.found.payloads.push(payload.clone());
                self.found.strict.push(ended.strict);
                self.copied = payload.end;
                if self.copied < base {
                    // The closing quote (and the space after it) went with
                    // the last chunk.
                    input.reread(self.copied..base, &mut self.found.shadow)?;
                    self.copied = base;
                }
            }
            None if self.copied < base => {
                // Began in a chunk already gone: read it again.
                input.reread(self.copied..base, &mut self.found.shadow)?;
                self.copied = base;
            }
            None => {}
        }
        let mut head = ended.head;
        head.clear();
        self.spare_head = head;
        Ok(())
    }
}

impl Open {
    /// Content bytes `piece` (no quote, no backslash).
    fn feed(&mut self, piece: &[u8]) {
        self.len += piece.len();
        if self.head.len() < MAX_HEADER {
            let room = MAX_HEADER - self.head.len();
            self.head.extend_from_slice(&piece[..piece.len().min(room)]);
        }
        if !self.candidate {
            return;
        }
        if self.payload_at.is_none() {
            match self.decide_start() {
                None => return,
                Some(Err(())) => {
                    self.candidate = false;
                    return;
                }
                Some(Ok(at)) => {
                    // Check what was read after the start: in the head, and
                    // past it in this piece.
                    self.payload_at = Some(self.start + at);
                    let head = self.head.len();
                    let in_head = self.head[at.min(head)..self.len.min(head)].to_vec();
                    let mut base64 = self.base64(&in_head);
                    if self.len > head.max(at) {
                        let beyond = &piece[piece.len() - (self.len - head.max(at))..];
                        base64 &= self.base64(beyond);
                    }
                    self.candidate = base64;
                    return;
                }
            }
        }
        self.candidate = self.base64(piece);
    }

    /// Whether the next piece of a payload is base64 characters (checked
    /// as strict base64 too): the strict check covers what it has passed,
    /// so only its held-back bytes (at most 7, all near the piece's end)
    /// are looked at again — unless it failed, when the whole piece is.
    fn base64(&mut self, piece: &[u8]) -> bool {
        self.strict.feed(piece);
        if self.strict.passing() {
            is_base64(&piece[piece.len().saturating_sub(8)..])
        } else {
            is_base64(piece)
        }
    }

    /// An escape's bytes: the string is then neither a payload nor a key
    /// that holds base64, and its head no longer matters.
    fn skip(&mut self, n: usize) {
        self.len += n;
    }

    /// Where the base64 starts in the content: `None` while the head cannot
    /// tell yet, `Err` when it is not a payload.
    fn decide_start(&self) -> Option<Result<usize, ()>> {
        let head = &self.head;
        let data_url = head.len() >= 5 && head[..5].eq_ignore_ascii_case(b"data:");
        let undecided = head.len() < 5
            || (data_url && head.len() < MAX_HEADER && memchr::memchr(b',', head).is_none());
        if undecided {
            return None;
        }
        Some(payload_offset(head, self.keyed).ok_or(()))
    }
}

/// Whether a chunk holds the UTF-8 of U+E000 or U+E001 (0xEE 0x80 0x80/81),
/// or a 0xEE too near its end to tell.
pub(super) fn holds_placeholder_bytes(chunk: &[u8]) -> bool {
    memchr::memchr_iter(0xEE, chunk).any(|at| match chunk.get(at + 1..at + 3) {
        Some(rest) => rest == [0x80, 0x80] || rest == [0x80, 0x81],
        None => true,
    })
}

/// Whether the escape whose letter is at `at` spells U+E000 to U+E00F (or
/// may: the chunk ends first).
fn escapes_placeholder(chunk: &[u8], at: usize) -> bool {
    if chunk.get(at) != Some(&b'u') {
        return false;
    }
    match chunk.get(at + 1..at + 4) {
        Some(hex) => hex.eq_ignore_ascii_case(b"e00"),
        None => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan_in(input: &[u8], chunk: usize) -> Option<Scanned> {
        let mut scanner = Scanner::default();
        let mut again = input;
        for (n, piece) in input.chunks(chunk.max(1)).enumerate() {
            scanner.chunk(n * chunk, piece, &mut again).unwrap();
        }
        scanner.finish(input.len())
    }

    fn documents() -> Vec<String> {
        let b64 = "QUJD".repeat(30);
        vec![
            format!(r#"{{"data":"{b64}","x":[1,2.5e3,{{"data":"{b64}=="}}]}}"#),
            format!(r#"[{{"url":"data:image/png;base64,{b64}"}}, "data:text/plain;base64,{b64}", "data:x;base64,{b64}!"]"#),
            format!("{{\n  \"blob\" : \"{b64}\",\n  \"t\": \"a\\\"b\\\\{b64}\",\n  \"bytes\": [\"{b64}\", \"{b64}\"]\n}}"),
            format!(r#"{{"data":{{"data":"{b64}"}},"file_data":"{b64}","{b64}":"{b64}","data":"é{b64}"}}"#),
            format!(r#"{{"data": "{b64}" , "text": "{}" }}"#, "word ".repeat(40)),
            // Base64 characters, not all strict base64.
            format!(r#"{{"data":"{b64}QUI","blob":"{b64}QR==","bytes":"{b64}QUI=","file_data":"QUI={b64}","d":"data:a/b;base64,{b64}Q==="}}"#),
        ]
    }

    #[test]
    fn chunks_of_any_size_find_what_one_chunk_finds() {
        for doc in documents() {
            let whole = scan_in(doc.as_bytes(), doc.len()).expect("something to lend");
            for size in (1..70).chain([97, 128, 255, 256, 1000]) {
                let chunked = scan_in(doc.as_bytes(), size).expect("something to lend");
                assert_eq!(
                    chunked.payloads, whole.payloads,
                    "{doc} in chunks of {size}"
                );
                assert_eq!(chunked.shadow, whole.shadow, "{doc} in chunks of {size}");
                assert_eq!(chunked.strict, whole.strict, "{doc} in chunks of {size}");
            }
        }
    }

    #[test]
    fn the_shadow_is_the_input_with_placeholders() {
        for doc in documents() {
            let found = scan_in(doc.as_bytes(), 7).unwrap();
            let mut back = String::from_utf8(found.shadow.clone()).unwrap();
            for (index, range) in found.payloads.iter().enumerate() {
                back = back.replacen(&format!("{OPEN}{index:x}{CLOSE}"), &doc[range.clone()], 1);
            }
            assert_eq!(back, doc);
            for (range, strict) in found.payloads.iter().zip(&found.strict) {
                let payload = &doc.as_bytes()[range.clone()];
                assert!(is_base64(payload) && range.len() >= MIN_PAYLOAD);
                let whole = base64_simd::STANDARD
                    .check(payload)
                    .ok()
                    .map(|()| base64_simd::STANDARD.decode_to_vec(payload).unwrap().len() as u64);
                assert_eq!(*strict, whole, "{doc}");
            }
        }
    }

    #[test]
    fn refuses_what_it_cannot_lend() {
        let b64 = "QUJD".repeat(30);
        for doc in [
            format!("{{\"data\":\"{b64}\"}}\n{{\"data\":\"{b64}\"}}"),
            format!("\"data:a/b;base64,{b64}\""),
            format!("{{\"data\":\"{b64}\""),
            format!("{{\"data\":\"{b64}\",\"t\":\"\u{E001}\"}}"),
            format!("{{\"data\":\"{b64}\",\"t\":\"\\uE000\"}}"),
            format!("{{\"t\":\"{b64}\"}}"),
        ] {
            for size in [1, 3, 64, doc.len()] {
                assert!(
                    scan_in(doc.as_bytes(), size).is_none(),
                    "{doc} in chunks of {size}"
                );
            }
        }
    }
}
