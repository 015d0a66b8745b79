//! JSON text laid out for a person: a tool output or call arguments that a
//! recorder kept as one long line of JSON, shown indented
//! (docs/commands/view.md#long-texts).
//!
//! The text is re-indented token by token, never parsed into values and
//! written back, so what the page shows is what was recorded: numbers as
//! spelled, keys in their order, duplicate keys, escapes. Long strings are
//! cut as [`super::document`] cuts them (a base64 payload after 100
//! characters, any other string after 2,000), saying how much was left out.

use super::anchors;

/// Two spaces a level.
const STEP: &str = "  ";

/// The characters of a string kept, and of a payload string.
const KEEP: usize = 2_000;
const KEEP_PAYLOAD: usize = 100;

/// `text` indented, when it is one JSON object or array (a scalar, or text
/// that is not JSON, is `None`: it is shown as it is).
pub fn json(text: &str) -> Option<String> {
    let trimmed = text.trim();
    if !(trimmed.starts_with('{') || trimmed.starts_with('[')) {
        return None;
    }
    serde_json::from_str::<serde::de::IgnoredAny>(trimmed).ok()?;
    let mut out = String::with_capacity(trimmed.len() + trimmed.len() / 4);
    let mut depth = 0usize;
    let mut rest = trimmed;
    while let Some(c) = rest.chars().next() {
        match c {
            '"' => {
                let end = string_end(rest);
                push_string(&mut out, &rest[..end]);
                rest = &rest[end..];
                continue;
            }
            '{' | '[' => {
                let close = if c == '{' { '}' } else { ']' };
                let after = rest[1..].trim_start();
                if after.starts_with(close) {
                    // An empty container stays on its line.
                    out.push(c);
                    out.push(close);
                    rest = &after[1..];
                    continue;
                }
                depth += 1;
                out.push(c);
                newline(&mut out, depth);
            }
            '}' | ']' => {
                depth = depth.saturating_sub(1);
                newline(&mut out, depth);
                out.push(c);
            }
            ',' => {
                out.push(',');
                newline(&mut out, depth);
            }
            ':' => out.push_str(": "),
            c if c.is_whitespace() => {}
            c => out.push(c),
        }
        rest = &rest[c.len_utf8()..];
    }
    Some(out)
}

fn newline(out: &mut String, depth: usize) {
    out.push('\n');
    for _ in 0..depth {
        out.push_str(STEP);
    }
}

/// The length in bytes of the JSON string at the start of `text` (which is
/// valid JSON, so the string is closed).
fn string_end(text: &str) -> usize {
    let bytes = text.as_bytes();
    let mut i = 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

/// A JSON string token (quotes included), cut when long.
fn push_string(out: &mut String, token: &str) {
    let inner = &token[1..token.len().saturating_sub(1).max(1)];
    let keep = if anchors::looks_like_payload(inner) {
        KEEP_PAYLOAD
    } else {
        KEEP
    };
    let Some((end, _)) = inner.char_indices().nth(keep) else {
        out.push_str(token);
        return;
    };
    // Never cut inside an escape (`\n`, `\u00e9`): step back to before
    // the last backslash near the cut, and before any run it ends.
    let bytes = inner.as_bytes();
    let window = end.saturating_sub(6);
    let mut end = match bytes[window..end].iter().rposition(|&b| b == b'\\') {
        Some(at) => window + at,
        None => end,
    };
    while end > 0 && bytes[end - 1] == b'\\' {
        end -= 1;
    }
    out.push('"');
    out.push_str(&inner[..end]);
    out.push_str("… (");
    out.push_str(&crate::size::group_digits(
        inner[end..].chars().count() as u64
    ));
    out.push_str(" more characters)\"");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_is_indented_as_recorded() {
        assert_eq!(
            json(r#"{"b":1E5,"a":[1,{"x":"y, z: {"}],"e":{},"f":[ ],"n":12345678901234567890}"#)
                .unwrap(),
            "{\n  \"b\": 1E5,\n  \"a\": [\n    1,\n    {\n      \"x\": \"y, z: {\"\n    }\n  ],\n  \"e\": {},\n  \"f\": [],\n  \"n\": 12345678901234567890\n}"
        );
        assert_eq!(
            json(" [\"a\\\"b\", true] ").unwrap(),
            "[\n  \"a\\\"b\",\n  true\n]"
        );
        // Not an object or an array, or not JSON: shown as it is.
        for text in ["42", "\"s\"", "{not json", "hello", "", "{} trailing"] {
            assert_eq!(json(text), None, "{text}");
        }
    }

    #[test]
    fn long_strings_are_cut() {
        let payload = "QUJD".repeat(1_000);
        let text = format!(r#"{{"data":"{payload}","log":"{}"}}"#, "é".repeat(2_500));
        let out = json(&text).unwrap();
        assert!(out.contains(&format!("\"{}… (3,900 more characters)\"", &payload[..100])));
        assert!(out.contains(&format!("\"{}… (500 more characters)\"", "é".repeat(2_000))));
        // An escape at the cut is not split.
        let escaped = format!(r#"{{"s":"{}\n"}}"#, "a".repeat(1_999));
        let out = json(&escaped).unwrap();
        assert!(
            out.contains(&format!("\"{}… (2 more characters)\"", "a".repeat(1_999))),
            "{out}"
        );
        let unicode = format!(r#"{{"s":"{}\u00e9"}}"#, "a".repeat(1_998));
        let out = json(&unicode).unwrap();
        assert!(
            out.contains(&format!("\"{}… (6 more characters)\"", "a".repeat(1_998))),
            "{out}"
        );
    }
}
