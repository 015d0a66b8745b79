//! Number spelling: serde_json reads every exponent as a lower-case `e` with a
//! sign (`1E5` and `1e5` both come back as `1e+5`), so what partkit writes from
//! a parsed number is not what the input said. These put the input's spelling
//! back: a document's [`Spellings`] go along with the values read from it (in
//! a [`super::Reading`]) to whatever writes them as text.

use std::borrow::Cow;
use std::collections::HashMap;

use super::Json;

/// The number tokens of a JSON text, in document order (strings skipped).
fn number_tokens(bytes: &[u8]) -> impl Iterator<Item = (usize, usize)> + '_ {
    let mut at = 0;
    std::iter::from_fn(move || {
        while at < bytes.len() {
            match bytes[at] {
                b'"' => at = super::skip_string(bytes, at).unwrap_or(bytes.len()),
                b'-' | b'0'..=b'9' => {
                    let start = at;
                    while at < bytes.len()
                        && matches!(bytes[at], b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')
                    {
                        at += 1;
                    }
                    return Some((start, at));
                }
                _ => at += 1,
            }
        }
        None
    })
}

/// How serde_json spells a number it read (`1E5` → `1e+5`).
fn normalized(raw: &str) -> Cow<'_, str> {
    match raw.find(['e', 'E']) {
        None => Cow::Borrowed(raw),
        Some(e) => {
            let (mantissa, exponent) = (&raw[..e], &raw[e + 1..]);
            let sign = if exponent.starts_with(['+', '-']) {
                ""
            } else {
                "+"
            };
            Cow::Owned(format!("{mantissa}e{sign}{exponent}"))
        }
    }
}

fn has_exponent(json: &Json<'_>) -> bool {
    match json {
        Json::Number(n) => n.contains('e'),
        Json::Array(items) => items.iter().any(has_exponent),
        Json::Object(members) => members.iter().any(|(_, v)| has_exponent(v)),
        _ => false,
    }
}

/// Gives every number of a tree parsed from `bytes` the spelling it has there.
pub(super) fn respell_tree<'a>(bytes: &'a [u8], json: &mut Json<'a>) {
    if !has_exponent(json) {
        return;
    }
    fn walk<'a>(json: &mut Json<'a>, tokens: &mut dyn Iterator<Item = &'a str>) {
        match json {
            Json::Number(n) => {
                // The tree's numbers and the text's come in the same order; the
                // check only guards against a text that is not the tree's.
                if let Some(raw) = tokens.next() {
                    if n.contains('e') && normalized(raw) == n.as_ref() {
                        *n = Cow::Borrowed(raw);
                    }
                }
            }
            Json::Array(items) => items.iter_mut().for_each(|item| walk(item, tokens)),
            Json::Object(members) => members.iter_mut().for_each(|(_, v)| walk(v, tokens)),
            _ => {}
        }
    }
    let mut tokens =
        number_tokens(bytes).filter_map(|(s, e)| std::str::from_utf8(&bytes[s..e]).ok());
    walk(json, &mut tokens);
}

/// The input's spellings of exponents serde_json spells otherwise: normalized
/// spelling -> the input's, or `None` when the input spells it two ways.
#[derive(Debug, Default)]
pub struct Spellings(HashMap<String, Option<String>>);

impl Spellings {
    pub fn of(input: &[u8]) -> Spellings {
        let mut spellings: HashMap<String, Option<String>> = HashMap::new();
        for (start, end) in number_tokens(input) {
            let Ok(raw) = std::str::from_utf8(&input[start..end]) else {
                continue;
            };
            let key = normalized(raw);
            if key == raw {
                continue;
            }
            spellings
                .entry(key.into_owned())
                .and_modify(|seen| {
                    if seen.as_deref() != Some(raw) {
                        *seen = None
                    }
                })
                .or_insert_with(|| Some(raw.to_string()));
        }
        Spellings(spellings)
    }

    /// How the input spells a number serde_json spells `number`, where it
    /// spells it otherwise (and only one way).
    pub fn spelling(&self, number: &str) -> Option<&str> {
        if self.0.is_empty() {
            return None;
        }
        self.0.get(number)?.as_deref()
    }

    /// Compact JSON text of a value read from the input, its numbers spelled
    /// as the input spells them.
    pub fn text_of(&self, value: &serde_json::Value) -> String {
        let text = self.respell(serde_json::to_vec(value).expect("a JSON value serializes"));
        String::from_utf8(text).expect("respelling keeps UTF-8")
    }

    /// Rewrites the exponents of `output` (JSON written from values read from
    /// the input) as the input spells them; a number the input spells two ways
    /// keeps serde_json's spelling.
    pub fn respell(&self, output: Vec<u8>) -> Vec<u8> {
        if self.0.is_empty() {
            return output;
        }
        let mut out = Vec::with_capacity(output.len());
        let mut at = 0;
        for (start, end) in number_tokens(&output) {
            let token = std::str::from_utf8(&output[start..end]).unwrap_or("");
            if let Some(Some(raw)) = self.0.get(token) {
                out.extend_from_slice(&output[at..start]);
                out.extend_from_slice(raw.as_bytes());
                at = end;
            }
        }
        out.extend_from_slice(&output[at..]);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_skip_strings_and_keys() {
        let text = br#"{"a1":[1E5,"x\"2",-0.5e-3],"b":{"3":true}}"#;
        let tokens: Vec<&str> = number_tokens(text)
            .map(|(s, e)| std::str::from_utf8(&text[s..e]).unwrap())
            .collect();
        assert_eq!(tokens, ["1E5", "-0.5e-3"]);
    }

    #[test]
    fn normalizes_as_serde_json_does() {
        for raw in ["1E5", "1e5", "1e+5", "2.5E-3", "10", "-0.0"] {
            let read: serde_json::Value = serde_json::from_str(raw).unwrap();
            assert_eq!(normalized(raw), read.to_string(), "{raw}");
        }
    }

    #[test]
    fn output_gets_the_input_spelling_unless_it_is_ambiguous() {
        let input = br#"{"a":1E5,"b":2.5e-3,"c":"7e1","d":[3e2,3E2]}"#;
        let output = br#"{"b":2.5e-3,"a":1e+5,"d":[3e+2,3e+2],"n":1e+5}"#.to_vec();
        assert_eq!(
            String::from_utf8(Spellings::of(input).respell(output)).unwrap(),
            r#"{"b":2.5e-3,"a":1E5,"d":[3e+2,3e+2],"n":1E5}"#
        );
        let plain = br#"{"a":1}"#.to_vec();
        assert_eq!(Spellings::of(b"[1e5]").respell(plain.clone()), plain);
    }

    #[test]
    fn text_of_spells_as_the_input_does() {
        let value: serde_json::Value = serde_json::from_str(r#"{"x":1E5}"#).unwrap();
        assert_eq!(Spellings::default().text_of(&value), r#"{"x":1e+5}"#);
        let spellings = Spellings::of(br#"{"x":1E5}"#);
        assert_eq!(spellings.text_of(&value), r#"{"x":1E5}"#);
    }
}
