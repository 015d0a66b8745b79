//! JSON values written out by hand, for the documents `convert` writes.
//!
//! serde_json's writer escapes strings one byte at a time, and a converted
//! transcript is mostly base64 strings that need no escaping at all: looking
//! for the bytes JSON escapes eight at a time lets such a string go out in
//! one copy. The text written is exactly serde_json's (the same layouts, the
//! same escapes); numbers are spelled as the input spells them (the
//! [`Reading`] given), so no second pass over the output is needed.

use std::io::{self, Write};

use serde_json::Value;

use crate::json::lent::{self, Lending, Lent, Piece};
use crate::json::out::Out;
use crate::json::{words, Reading, Spellings};

/// Writes `value`, read as `reading` says, into memory, pretty (two-space
/// indent, as serde_json's pretty printer) or compact: numbers spelled as
/// the input spells them, and a hole where each payload lent from the input
/// goes ([`crate::json::lent`]; they are written from the input later:
/// [`Lent::write_to`]).
pub fn write_value_lent(out: &mut Vec<u8>, value: &Value, pretty: bool, reading: &Reading) -> Lent {
    with_holes(out, pretty, reading, |writer| {
        writer.value(value, reading.spellings())
    })
}

/// [`write_value_lent`] of a writer's output tree ([`crate::json::out`]).
pub fn write_out_lent(out: &mut Vec<u8>, value: &Out, pretty: bool, reading: &Reading) -> Lent {
    with_holes(out, pretty, reading, |writer| {
        writer.out(value, reading.spellings())
    })
}

/// Runs `write` with a writer into `out` that leaves a hole for each
/// payload `reading` lends; the holes it left.
fn with_holes(
    out: &mut Vec<u8>,
    pretty: bool,
    reading: &Reading,
    write: impl FnOnce(&mut Writer<'_, Holes<'_>>) -> io::Result<()>,
) -> Lent {
    let mut holes = Holes {
        out,
        lent: Lent::default(),
        lending: reading.lending(),
    };
    let mut writer = Writer {
        out: &mut holes,
        pretty,
        depth: 0,
    };
    write(&mut writer).expect("writing JSON into memory cannot fail");
    holes.lent
}

/// Where a writer's text goes, and what it does with a lent payload.
trait Sink: Write {
    /// What placeholders stand for.
    fn lending(&self) -> &Lending;
    fn payload(&mut self, index: usize) -> io::Result<()>;
}

/// Payloads written where they stand (nothing is lent: a placeholder is
/// text).
struct Inline<'w, W: Write>(&'w mut W);

impl<W: Write> Write for Inline<'_, W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf)
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.0.write_all(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

impl<W: Write> Sink for Inline<'_, W> {
    fn lending(&self) -> &Lending {
        &Lending::NONE
    }
    fn payload(&mut self, index: usize) -> io::Result<()> {
        Lending::NONE.write_payload(self.0, index)
    }
}

/// Payloads left as holes in memory.
struct Holes<'w> {
    out: &'w mut Vec<u8>,
    lent: Lent,
    lending: &'w Lending,
}

impl Write for Holes<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.out.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.out.extend_from_slice(buf);
        Ok(())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Sink for Holes<'_> {
    fn lending(&self) -> &Lending {
        self.lending
    }
    fn payload(&mut self, index: usize) -> io::Result<()> {
        if self.lent.hole(self.out.len(), index, self.lending) {
            Ok(())
        } else {
            self.lending.write_payload(self.out, index)
        }
    }
}

struct Writer<'w, S: Sink> {
    out: &'w mut S,
    pretty: bool,
    depth: usize,
}

impl<S: Sink> Writer<'_, S> {
    fn value(&mut self, value: &Value, spell: &Spellings) -> io::Result<()> {
        match value {
            Value::Null => self.out.write_all(b"null"),
            Value::Bool(true) => self.out.write_all(b"true"),
            Value::Bool(false) => self.out.write_all(b"false"),
            Value::Number(number) => {
                let text = number.as_str();
                self.out
                    .write_all(spell.spelling(text).unwrap_or(text).as_bytes())
            }
            Value::String(text) => write_str_lent(self.out, text),
            Value::Array(items) => self.array(items, |w, item| w.value(item, spell)),
            Value::Object(members) => self.object(
                members
                    .iter()
                    .map(|(key, member)| (key.as_str(), false, member)),
                members.is_empty(),
                |w, member| w.value(member, spell),
            ),
        }
    }

    /// The output tree, laid out as the `Value` it stands for would be.
    fn out(&mut self, value: &Out, spell: &Spellings) -> io::Result<()> {
        match value {
            Out::Null => self.out.write_all(b"null"),
            Out::Bool(true) => self.out.write_all(b"true"),
            Out::Bool(false) => self.out.write_all(b"false"),
            Out::Str(text) => write_str_lent(self.out, text),
            Out::Array(items) => self.array(items, |w, item| w.out(item, spell)),
            Out::Object(members) => {
                self.object(members.iter_words(), members.is_empty(), |w, member| {
                    w.out(member, spell)
                })
            }
            Out::Value(value) => self.value(value, spell),
        }
    }

    /// An array, each item written by `item`.
    fn array<T>(
        &mut self,
        items: &[T],
        mut item: impl FnMut(&mut Self, &T) -> io::Result<()>,
    ) -> io::Result<()> {
        if items.is_empty() {
            return self.out.write_all(b"[]");
        }
        self.out.write_all(b"[")?;
        self.depth += 1;
        for (n, each) in items.iter().enumerate() {
            self.separator(n)?;
            item(self, each)?;
        }
        self.close(b"]")
    }

    /// An object of `members` (key, whether the key is a word of the
    /// writer's own, value), each value written by `member`.
    fn object<'m, T: 'm>(
        &mut self,
        members: impl Iterator<Item = (&'m str, bool, &'m T)>,
        empty: bool,
        mut member: impl FnMut(&mut Self, &T) -> io::Result<()>,
    ) -> io::Result<()> {
        if empty {
            return self.out.write_all(b"{}");
        }
        self.out.write_all(b"{")?;
        self.depth += 1;
        for (n, (key, word, value)) in members.enumerate() {
            self.separator(n)?;
            if word {
                // A word of the writer's own: nothing to escape.
                self.out.write_all(b"\"")?;
                self.out.write_all(key.as_bytes())?;
                self.out.write_all(b"\"")?;
            } else {
                write_str_lent(self.out, key)?;
            }
            self.out.write_all(if self.pretty { b": " } else { b":" })?;
            member(self, value)?;
        }
        self.close(b"}")
    }

    /// What goes before the `n`th entry of an array or object.
    fn separator(&mut self, n: usize) -> io::Result<()> {
        if n > 0 {
            self.out.write_all(b",")?;
        }
        if self.pretty {
            self.newline()?;
        }
        Ok(())
    }

    fn close(&mut self, bracket: &[u8]) -> io::Result<()> {
        self.depth -= 1;
        if self.pretty {
            self.newline()?;
        }
        self.out.write_all(bracket)
    }

    fn newline(&mut self) -> io::Result<()> {
        self.out.write_all(b"\n")?;
        for _ in 0..self.depth {
            self.out.write_all(b"  ")?;
        }
        Ok(())
    }
}

/// A JSON string: runs that need no escaping are copied whole.
pub fn write_str<W: Write>(out: &mut W, text: &str) -> io::Result<()> {
    write_str_lent(&mut Inline(out), text)
}

/// A JSON string whose lent payloads go to the sink's `payload`.
fn write_str_lent<S: Sink>(out: &mut S, text: &str) -> io::Result<()> {
    out.write_all(b"\"")?;
    if !out.lending().is_lending() {
        escape_until::<_, false>(out, text)?;
        return out.write_all(b"\"");
    }
    // A placeholder's first byte (0xEE) is looked for in the pass that looks
    // for the bytes to escape: a string without one, nearly every string,
    // is read once.
    let at = escape_until::<_, true>(out, text)?;
    for piece in lent::pieces(&text[at..]) {
        match piece {
            Piece::Text(text) => escape_until::<_, false>(out, text).map(|_| ())?,
            // Base64: nothing in it to escape.
            Piece::Lent(index) => out.payload(index)?,
        }
    }
    out.write_all(b"\"")
}

/// How much of a long run with nothing to escape is scanned before it is
/// copied: the copy then reads what the scan just brought into the cache
/// (a whole payload scanned first was read from memory twice; `split`'s
/// output is nearly all payloads).
const PIECE: usize = 16 << 10;

/// Writes `text` escaped up to where a placeholder starts (with
/// `PLACEHOLDERS`), or to its end: the index it stopped at.
fn escape_until<W: Write, const PLACEHOLDERS: bool>(out: &mut W, text: &str) -> io::Result<usize> {
    const OPEN: &[u8] = "\u{E000}".as_bytes();
    let bytes = text.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        let piece = &bytes[at..bytes.len().min(at + PIECE)];
        let clean = first_special::<PLACEHOLDERS>(piece);
        out.write_all(&piece[..clean])?;
        at += clean;
        if clean == piece.len() {
            continue;
        }
        let byte = bytes[at];
        if PLACEHOLDERS && byte == 0xEE {
            if bytes[at..].starts_with(OPEN) {
                return Ok(at);
            }
            // Another character of that block: written as it is.
            out.write_all(&[byte])?;
        } else {
            write_escape(out, byte)?;
        }
        at += 1;
    }
    Ok(bytes.len())
}

fn write_escape<W: Write>(out: &mut W, byte: u8) -> io::Result<()> {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    match byte {
        b'"' => out.write_all(b"\\\""),
        b'\\' => out.write_all(b"\\\\"),
        b'\n' => out.write_all(b"\\n"),
        b'\r' => out.write_all(b"\\r"),
        b'\t' => out.write_all(b"\\t"),
        0x08 => out.write_all(b"\\b"),
        0x0c => out.write_all(b"\\f"),
        _ => out.write_all(&[
            b'\\',
            b'u',
            b'0',
            b'0',
            HEX[usize::from(byte >> 4)],
            HEX[usize::from(byte & 0xf)],
        ]),
    }
}

/// The index of the first byte JSON escapes in a string (a quote, a backslash
/// or a control character), or the length when there is none.
#[cfg(test)]
fn first_to_escape(bytes: &[u8]) -> usize {
    first_special::<false>(bytes)
}

/// The index of the first byte JSON escapes (a quote, a backslash or a
/// control character) or, with `PLACEHOLDERS`, a placeholder's first byte
/// (0xEE); the length when there is none. Blocks of 32 bytes are tested with
/// a loop the compiler turns into vector compares; the rest, most of a key or
/// a short value, eight bytes at a time in a word.
fn first_special<const PLACEHOLDERS: bool>(bytes: &[u8]) -> usize {
    let mut blocks = bytes.chunks_exact(32);
    let mut at = 0;
    for block in &mut blocks {
        // `|`, not `||`: no branch per byte, so the loop vectorizes.
        let hits = block.iter().fold(0u8, |hits, &b| {
            hits | u8::from(b == b'"')
                | u8::from(b == b'\\')
                | u8::from(b < 0x20)
                | u8::from(PLACEHOLDERS && b == 0xEE)
        });
        if hits != 0 {
            break;
        }
        at += 32;
    }
    let word = |at: usize| words::special::<PLACEHOLDERS>(words::at(bytes, at));
    while at + 8 <= bytes.len() {
        let hits = word(at);
        if hits != 0 {
            return at + words::first(hits);
        }
        at += 8;
    }
    if at == bytes.len() {
        return at;
    }
    if bytes.len() >= 8 {
        // The last eight bytes, overlapping ones already found clean.
        let from = bytes.len() - 8;
        let hits = word(from);
        return match hits {
            0 => bytes.len(),
            _ => from + words::first(hits),
        };
    }
    // Shorter than a word: filled out with spaces, which nothing escapes.
    let mut word = [b' '; 8];
    word[..bytes.len()].copy_from_slice(bytes);
    match words::special::<PLACEHOLDERS>(u64::from_le_bytes(word)) {
        0 => bytes.len(),
        hits => words::first(hits),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn long_strings_are_escaped_across_pieces() {
        let run = "QUJD".repeat(PIECE / 4);
        let cases = [
            run.clone(),
            format!("{run}{run}A"),
            // Escapes just before, at and after a piece's end.
            format!("{}\"{run}", &run[..PIECE - 1]),
            format!("{run}\\{run}"),
            format!("{run}\u{1}"),
            format!("{}\n\t{}", &run[..PIECE - 2], &run[..100]),
            // A character cut by a piece's end.
            format!("{}é€{}\"", &run[..PIECE - 1], &run[..PIECE - 3]),
        ];
        for text in &cases {
            let mut out = Vec::new();
            write_str(&mut out, text).unwrap();
            assert_eq!(
                String::from_utf8(out).unwrap(),
                serde_json::to_string(text).unwrap()
            );
        }
    }

    fn ours(value: &Value, pretty: bool) -> String {
        let mut out = Vec::new();
        assert!(write_value_lent(&mut out, value, pretty, &Reading::default()).is_empty());
        String::from_utf8(out).unwrap()
    }

    fn serde_s(value: &Value, pretty: bool) -> String {
        let mut out = Vec::new();
        super::super::write_json(&mut out, value, pretty).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn writes_what_serde_json_writes() {
        let every_byte: String = (0u8..128).map(char::from).collect();
        let values = [
            json!(null),
            json!([]),
            json!({}),
            json!({"a": [], "b": {}, "c": [1, -2.5, 1e300, "x"], "d": {"e": {"f": [true, false, null]}}}),
            json!([[[]], [{}], {"k": [{"deep": [1]}]}]),
            json!({"esc\"ape\\": every_byte, "é ü 😀": "\u{7f}\u{2028}"}),
            json!([
                "a\"b",
                "12345678\"",
                "1234567\n",
                "\u{1f}abcdefgh",
                "abcdefgh\\",
                ""
            ]),
            serde_json::from_str::<Value>("[123456789012345678901234567890, 1.50, -0]").unwrap(),
        ];
        for value in &values {
            for pretty in [false, true] {
                assert_eq!(ours(value, pretty), serde_s(value, pretty), "{value}");
                // The output tree that stands for it, built member by member,
                // and with a `Value` inside.
                for tree in [as_out(value), Out::Array(vec![Out::Value(value.clone())])] {
                    let mut out = Vec::new();
                    write_out_lent(&mut out, &tree, pretty, &Reading::default());
                    let expected = Out::into_value(tree);
                    assert_eq!(String::from_utf8(out).unwrap(), serde_s(&expected, pretty));
                }
            }
        }
    }

    #[test]
    fn a_writers_own_keys_are_written_as_they_are() {
        use crate::json::out::Members;
        let mut inner = Members::new();
        inner.put("media_type", "image/png");
        inner.insert("k\"ept\n".to_string().into(), Out::str("v"));
        let mut members = Members::new();
        members.put("type", "image");
        members.put("source", inner);
        let tree = Out::Object(members);
        for pretty in [false, true] {
            let mut out = Vec::new();
            write_out_lent(&mut out, &tree, pretty, &Reading::default());
            let expected = serde_s(&tree.clone().into_value(), pretty);
            assert_eq!(String::from_utf8(out).unwrap(), expected);
        }
    }

    /// `value` as an output tree of objects, lists and strings of its own.
    fn as_out(value: &Value) -> Out {
        use crate::json::out::Members;
        match value {
            Value::Null => Out::Null,
            Value::Bool(flag) => Out::Bool(*flag),
            Value::String(text) => Out::str(text.as_str()),
            Value::Array(items) => Out::Array(items.iter().map(as_out).collect()),
            Value::Object(map) => {
                let mut members = Members::new();
                for (key, member) in map {
                    members.insert(key.clone().into(), as_out(member));
                }
                Out::Object(members)
            }
            Value::Number(_) => Out::Value(value.clone()),
        }
    }

    #[test]
    fn finds_the_first_byte_to_escape_in_every_lane() {
        for len in 0..70 {
            for at in 0..len {
                for byte in [b'"', b'\\', 0u8, 0x1f, b'\n'] {
                    let mut text = vec![b'A'; len];
                    text[at] = byte;
                    if at + 1 < len {
                        text[at + 1] = b'"';
                    }
                    assert_eq!(first_to_escape(&text), at, "{len} {at} {byte}");
                }
            }
            assert_eq!(first_to_escape(&vec![b' '; len]), len);
            assert_eq!(first_to_escape(&vec![0xff; len]), len);
        }
    }

    /// Every byte value in every lane, after every other: the first byte to
    /// escape (or 0xEE, when placeholders are looked for) is found, and no
    /// other byte is taken for one.
    #[test]
    fn tells_every_byte_in_every_lane() {
        let special = |b: u8, placeholders: bool| {
            b == b'"' || b == b'\\' || b < 0x20 || (placeholders && b == 0xEE)
        };
        for len in [1, 7, 8, 9, 31, 32, 33, 41] {
            for at in 0..len {
                for byte in 0..=255u8 {
                    for before in [b'A', 0x80, 0xff, 0x20, 0x21, 0x7f] {
                        let mut text = vec![before; len];
                        text[at] = byte;
                        for placeholders in [false, true] {
                            let found = match placeholders {
                                true => first_special::<true>(&text),
                                false => first_special::<false>(&text),
                            };
                            let expected = text
                                .iter()
                                .position(|&b| special(b, placeholders))
                                .unwrap_or(len);
                            assert_eq!(found, expected, "{len} {at} {byte:#x} {before:#x}");
                        }
                    }
                }
            }
        }
    }

    /// A string with escapes around placeholders, and a character of the
    /// placeholders' block that is not one, written with its payload lent.
    #[test]
    fn placeholders_are_found_after_escapes() {
        let payload = "QUJD".repeat(40);
        let input =
            format!(r#"{{"a":"x\"y\n{{}}data:image/png;base64,{payload}","b":"\ue123 \u0001"}}"#);
        let parsed = lent::parse(input.as_bytes()).unwrap();
        let shared = crate::shared::SharedBytes::new(input.as_bytes().to_vec());
        let reading = parsed.reading(&shared);
        for pretty in [false, true] {
            let mut out = Vec::new();
            let holes = write_value_lent(&mut out, &parsed.value, pretty, &reading);
            let written = holes.fill(out, input.as_bytes());
            let value: Value = serde_json::from_str(&input).unwrap();
            assert_eq!(String::from_utf8(written).unwrap(), serde_s(&value, pretty));
        }
    }
}
