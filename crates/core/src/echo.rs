//! Values from the input, echoed in messages: escaped and cut to a short
//! prefix (docs/limits.md). A media type, key or id is whatever the input says it
//! is — five megabytes, say — and a message quoting it whole was a
//! five-megabyte line on a terminal or in a CI log.
//!
//! [`quoted`] and [`plain`] are for the places that quote a value;
//! [`bound`] is the last guard every printed message passes through, for a
//! value quoted anywhere else.

use std::borrow::Cow;
use std::fmt;

/// The characters of a value shown before it is cut.
pub const SHOWN: usize = 96;

/// A message longer than this (in bytes) is looked at by [`bound`].
const LONG_MESSAGE: usize = 2_000;

/// A run of text without spaces longer than this is cut by [`bound`].
const LONG_WORD: usize = 200;

/// `value` in double quotes, escaped as Rust's `{:?}` escapes it; cut after
/// [`SHOWN`] characters, marked by `…` after the closing quote (so that the
/// ellipsis cannot be taken for part of the value).
pub fn quoted(value: &str) -> Quoted<'_> {
    Quoted(value)
}

/// `value` without quotes, its control characters escaped; cut after
/// [`SHOWN`] characters, marked by `…`.
pub fn plain(value: &str) -> Plain<'_> {
    Plain(value, SHOWN)
}

/// [`plain`] cut after `max` characters instead: for a phrase that holds a
/// value among words of its own.
pub fn cut(value: &str, max: usize) -> Plain<'_> {
    Plain(value, max)
}

/// A JSON value from the input: a string [`quoted`], anything else as JSON,
/// cut.
pub fn json(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::String(text) => quoted(text).to_string(),
        other => plain(&other.to_string()).to_string(),
    }
}

pub struct Quoted<'a>(&'a str);
pub struct Plain<'a>(&'a str, usize);

/// `value` up to its [`SHOWN`]th character, and whether that cut it.
fn prefix(value: &str) -> (&str, bool) {
    prefix_of(value, SHOWN)
}

fn prefix_of(value: &str, max: usize) -> (&str, bool) {
    match value.char_indices().nth(max) {
        Some((cut, _)) => (&value[..cut], true),
        None => (value, false),
    }
}

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (shown, cut) = prefix(self.0);
        write!(f, "{shown:?}")?;
        if cut {
            f.write_str("…")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for Plain<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (shown, cut) = prefix_of(self.0, self.1);
        for c in shown.chars() {
            if c.is_control() {
                write!(f, "{}", c.escape_default())?;
            } else {
                write!(f, "{c}")?;
            }
        }
        if cut {
            f.write_str("…")?;
        }
        Ok(())
    }
}

/// A message made short enough to print: every run of more than
/// `LONG_WORD` characters without white space is cut to [`SHOWN`]
/// characters, and what is still too long is cut after `LONG_MESSAGE`
/// bytes with a count of what was left out.
pub fn bound(message: &str) -> Cow<'_, str> {
    if message.len() <= LONG_MESSAGE {
        return Cow::Borrowed(message);
    }
    let mut out = String::with_capacity(LONG_MESSAGE + 64);
    let mut rest = message;
    while !rest.is_empty() {
        let word_end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let (word, after) = rest.split_at(word_end);
        let (shown, cut) = match word.char_indices().nth(LONG_WORD) {
            Some(_) => (prefix(word).0, true),
            None => (word, false),
        };
        out.push_str(shown);
        if cut {
            out.push('…');
        }
        let space_end = after
            .find(|c: char| !c.is_whitespace())
            .unwrap_or(after.len());
        out.push_str(&after[..space_end]);
        rest = &after[space_end..];
        if out.len() > LONG_MESSAGE {
            break;
        }
    }
    if out.len() > LONG_MESSAGE || !rest.is_empty() {
        let mut end = LONG_MESSAGE.min(out.len());
        while !out.is_char_boundary(end) {
            end -= 1;
        }
        out.truncate(end);
        out.push_str(&format!(
            "… ({} more bytes not shown)",
            crate::size::group_digits((message.len() - end) as u64)
        ));
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_values_are_quoted_as_debug_quotes_them() {
        assert_eq!(quoted("image/png").to_string(), "\"image/png\"");
        assert_eq!(quoted("a\"b\u{1}").to_string(), "\"a\\\"b\\u{1}\"");
        assert_eq!(plain("a\nb").to_string(), "a\\nb");
    }

    #[test]
    fn long_values_are_cut_to_a_prefix() {
        let long = format!("image/{}", "x".repeat(5_000_000));
        let shown = quoted(&long).to_string();
        assert_eq!(shown, format!("\"image/{}\"…", "x".repeat(SHOWN - 6)));
        assert_eq!(plain(&long).to_string().chars().count(), SHOWN + 1);
        // Cut on a character, not a byte.
        let wide = "é".repeat(100);
        assert_eq!(
            quoted(&wide).to_string(),
            format!("{:?}…", "é".repeat(SHOWN))
        );
    }

    #[test]
    fn messages_are_bounded() {
        assert_eq!(bound("short"), "short");
        let word = "y".repeat(1_000_000);
        let message = format!("unknown key {word} (only image_url and label)");
        let bounded = bound(&message);
        assert_eq!(
            bounded,
            format!(
                "unknown key {}… (only image_url and label)",
                "y".repeat(SHOWN)
            )
        );
        let spaced = "z ".repeat(1_000_000);
        let bounded = bound(&spaced);
        assert!(bounded.len() < LONG_MESSAGE + 64, "{}", bounded.len());
        assert!(bounded.ends_with("more bytes not shown)"));
    }
}
