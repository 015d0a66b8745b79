//! Values as text, for the library and the command line alike: JSON laid out
//! pretty or compact, and strings made safe to show on a terminal.

use std::borrow::Cow;
use std::io::{self, Write};

use serde::Serialize;
use serde_json::ser::{CompactFormatter, PrettyFormatter, Serializer};

mod value;
pub use value::{write_out_lent, write_str, write_value_lent};

/// Serializes JSON, pretty (two-space indent) or compact.
pub fn write_json<W: Write, T: Serialize + ?Sized>(
    out: &mut W,
    value: &T,
    pretty: bool,
) -> io::Result<()> {
    if pretty {
        let mut serializer =
            Serializer::with_formatter(&mut *out, PrettyFormatter::with_indent(b"  "));
        value.serialize(&mut serializer).map_err(io::Error::from)
    } else {
        let mut serializer = Serializer::with_formatter(&mut *out, CompactFormatter);
        value.serialize(&mut serializer).map_err(io::Error::from)
    }
}

/// Whether a character can change what a terminal shows beyond itself: control
/// characters, and the bidirectional overrides and isolates that reorder text.
fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Escapes control characters and bidirectional overrides so that text copied
/// from recordings (labels, names, keys) cannot move the cursor, recolour a
/// terminal or reorder what it shows.
///
/// A message too long to read is cut as [`crate::echo::bound`] cuts it.
pub fn sanitize(text: &str) -> Cow<'_, str> {
    match crate::echo::bound(text) {
        Cow::Borrowed(text) => escape(text),
        Cow::Owned(text) => Cow::Owned(escape(&text).into_owned()),
    }
}

fn escape(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_unsafe(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(sanitize("plain"), "plain");
        assert_eq!(sanitize("a\x1b[31mb\n"), "a\\u{1b}[31mb\\n");
        assert_eq!(sanitize("a\u{202E}b"), "a\\u{202e}b");
    }

    #[test]
    fn json_styles() {
        let value = serde_json::json!({"a": [1, 2]});
        let mut out = Vec::new();
        write_json(&mut out, &value, false).unwrap();
        assert_eq!(out, br#"{"a":[1,2]}"#);
        out.clear();
        write_json(&mut out, &value, true).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\n  \"a\": [\n    1,\n    2\n  ]\n}"
        );
    }
}
