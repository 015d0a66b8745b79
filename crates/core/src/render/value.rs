//! JSON values written out by hand, for the documents `convert` writes.
//!
//! serde_json's writer escapes strings one byte at a time, and a converted
//! transcript is mostly base64 strings that need no escaping at all: looking
//! for the bytes JSON escapes eight at a time lets such a string go out in
//! one copy. The text written is exactly serde_json's (the same layouts, the
//! same escapes); numbers are spelled as the input spells them (the
//! [`Reading`] given), so no second pass over the output is needed.

use std::io::{self, Write};

use serde_json::{Map, Value};

use crate::json::lent::{self, Lending, Lent, Piece};
use crate::json::{Reading, Spellings};

/// Writes `value`, read as `reading` says, into memory, pretty (two-space
/// indent, as serde_json's pretty printer) or compact: numbers spelled as
/// the input spells them, and a hole where each payload lent from the input
/// goes ([`crate::json::lent`]; they are written from the input later:
/// [`Lent::write_to`]).
pub fn write_value_lent(out: &mut Vec<u8>, value: &Value, pretty: bool, reading: &Reading) -> Lent {
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
    writer
        .value(value, reading.spellings())
        .expect("writing JSON into memory cannot fail");
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
            Value::Array(items) => {
                if items.is_empty() {
                    return self.out.write_all(b"[]");
                }
                self.out.write_all(b"[")?;
                self.depth += 1;
                for (n, item) in items.iter().enumerate() {
                    self.separator(n)?;
                    self.value(item, spell)?;
                }
                self.close(b"]")
            }
            Value::Object(members) => self.object(members, spell),
        }
    }

    fn object(&mut self, members: &Map<String, Value>, spell: &Spellings) -> io::Result<()> {
        if members.is_empty() {
            return self.out.write_all(b"{}");
        }
        self.out.write_all(b"{")?;
        self.depth += 1;
        for (n, (key, member)) in members.iter().enumerate() {
            self.separator(n)?;
            write_str_lent(self.out, key)?;
            self.out.write_all(if self.pretty { b": " } else { b":" })?;
            self.value(member, spell)?;
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
    // A placeholder's first byte (0xEE) looked for first: a string without
    // it, nearly every one, is not searched for the character.
    let placeholder =
        || memchr::memchr(0xEE, text.as_bytes()).is_some() && text.contains('\u{E000}');
    if !out.lending().is_lending() || !placeholder() {
        out.write_all(b"\"")?;
        write_escaped(out, text)?;
        return out.write_all(b"\"");
    }
    out.write_all(b"\"")?;
    for piece in lent::pieces(text) {
        match piece {
            Piece::Text(text) => write_escaped(out, text)?,
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

/// A string's content, escaped.
fn write_escaped<W: Write>(out: &mut W, text: &str) -> io::Result<()> {
    let mut rest = text.as_bytes();
    while !rest.is_empty() {
        let piece = &rest[..rest.len().min(PIECE)];
        let clean = first_to_escape(piece);
        out.write_all(&rest[..clean])?;
        if clean == piece.len() {
            rest = &rest[clean..];
            continue;
        }
        write_escape(out, rest[clean])?;
        rest = &rest[clean + 1..];
    }
    Ok(())
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
/// or a control character), or the length when there is none. Blocks of 32
/// bytes are tested with a loop the compiler turns into vector compares; only
/// a block with a hit is searched byte by byte.
fn first_to_escape(bytes: &[u8]) -> usize {
    let escapes = |b: u8| b == b'"' || b == b'\\' || b < 0x20;
    let mut blocks = bytes.chunks_exact(32);
    let mut at = 0;
    for block in &mut blocks {
        // `|`, not `||`: no branch per byte, so the loop vectorizes.
        let hits = block.iter().fold(0u8, |hits, &b| {
            hits | u8::from(b == b'"') | u8::from(b == b'\\') | u8::from(b < 0x20)
        });
        if hits != 0 {
            break;
        }
        at += 32;
    }
    at + bytes[at..]
        .iter()
        .position(|&b| escapes(b))
        .unwrap_or(bytes.len() - at)
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
            }
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
}
