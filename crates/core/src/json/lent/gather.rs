//! Payloads lent from a document that is not text: one whose strings are
//! handed over one at a time as its value is built (Python data, walked by
//! the Python package without a `json.dumps`). The strings [`super::scan`]
//! would lend from the document's text are lent here too, so a conversion
//! sees the same placeholders either way; the payloads stay in the strings
//! that hold them (a [`Held`]), read where they are needed, never copied
//! into a buffer of their own.

use std::ops::Range;
use std::sync::Arc;

use super::{holds_base64, payload_start, placeholder, Payloads};
use super::{Held, Lending, Source};

/// The payloads lent so far, and whether some string held a placeholder
/// character (then nothing may be lent: see [`Gathered::clash`]).
#[derive(Debug, Default)]
pub struct Gathered {
    /// Each payload's range in the payloads laid end to end: only their
    /// lengths matter (nothing is read through them).
    ranges: Vec<Range<usize>>,
    /// Each one's decoded size when it is strict base64 (as the scan finds
    /// it): a check then decodes only its head.
    strict: Vec<Option<u64>>,
    clash: bool,
}

/// A payload lent from a string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loan {
    /// What stands in the value for the string.
    pub placeholder: String,
    /// Where the payload starts in the string (after a data URL's comma).
    pub offset: usize,
}

impl Gathered {
    /// What to put in the value for `text`, whose member's name is `key`
    /// (`None` for an item of an array: the scan of a text looks only at
    /// the name right before a string): its [`Loan`] when its payload is
    /// lent, the payload's index being the number of loans before it;
    /// `None` where `text` stays as it is. Names go through
    /// [`Gathered::key`].
    pub fn lend(&mut self, text: &str, key: Option<&str>) -> Option<Loan> {
        if let Some((offset, strict)) = payload_start(text.as_bytes(), holds_base64(key)) {
            let index = self.ranges.len();
            let start = self.ranges.last().map_or(0, |range| range.end);
            self.ranges.push(start..start + text.len() - offset);
            self.strict.push(strict);
            return Some(Loan {
                placeholder: placeholder(&text[..offset], index),
                offset,
            });
        }
        self.note(text);
        None
    }

    /// A member's name, which is never lent (only looked at).
    pub fn key(&mut self, name: &str) {
        self.note(name);
    }

    fn note(&mut self, text: &str) {
        if !self.clash && super::scan::holds_placeholder_bytes(text.as_bytes()) {
            self.clash = true;
        }
    }

    /// Whether a string held a placeholder character: the value would then
    /// read wrongly through the lending (a string of the document would
    /// pass for a payload), so build it again without lending anything.
    pub fn clash(&self) -> bool {
        self.clash
    }

    /// What sees through the placeholders handed out, reading payload `i`
    /// from `held` (the strings of the loans, in order, each from its
    /// loan's offset).
    pub fn into_lending(self, held: Arc<dyn Held>) -> Lending {
        let payloads = Payloads {
            ranges: self.ranges,
            strict: self.strict,
        };
        Lending::new(Source::Held(held), payloads)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Payloads held as owned strings.
    #[derive(Debug)]
    struct Strings(Vec<(String, usize)>);

    impl Held for Strings {
        fn with_payload(&self, index: usize, f: &mut dyn FnMut(Option<&str>)) {
            f(self.0.get(index).map(|(text, at)| &text[*at..]))
        }
    }

    #[test]
    fn lends_what_the_scan_of_the_text_would() {
        let long = "QUJD".repeat(20);
        let url = format!("data:image/png;base64,{long}");
        let text = format!(
            r#"{{"url":"{url}","data":"{long}","text":"{long}","blob":"AAAA","bytes":"{long}!"}}"#
        );
        let scanned = super::super::parse(text.as_bytes()).unwrap();
        let mut gathered = Gathered::default();
        let handed = [
            (url.clone(), Some("url")),
            (long.clone(), Some("data")),
            (long.clone(), Some("text")),
            ("AAAA".to_string(), Some("blob")),
            (format!("{long}!"), Some("bytes")),
        ];
        let mut held = Vec::new();
        let mut got = Vec::new();
        for (text, key) in &handed {
            let loan = gathered.lend(text, *key);
            if let Some(loan) = &loan {
                held.push((text.clone(), loan.offset));
            }
            got.push(loan.map(|loan| loan.placeholder));
        }
        assert_eq!(got[0].as_deref(), scanned.value["url"].as_str());
        assert_eq!(got[1].as_deref(), scanned.value["data"].as_str());
        assert_eq!(got[2..], [None, None, None]);
        assert!(!gathered.clash());
        let lending = gathered.into_lending(Arc::new(Strings(held)));
        assert_eq!(lending.resolved(got[0].as_deref().unwrap()), url);
        assert_eq!(lending.resolved(got[1].as_deref().unwrap()), long);
        assert_eq!(lending.resolved_len(got[0].as_deref().unwrap()), url.len());
        lending.with_payload_prefix(0, 4, |head| assert_eq!(head, Some("QUJD")));
        lending.with_payload_prefix(9, 4, |head| assert_eq!(head, None));
        // Strict base64 is known by its decoded size, as the scan knows it.
        assert_eq!(
            lending.strict_payload(got[1].as_deref().unwrap()),
            Some((1, 60))
        );
    }

    #[test]
    fn a_placeholder_character_anywhere_is_a_clash() {
        for (text, key) in [("a\u{E000}", false), ("\u{E001}", true)] {
            let mut gathered = Gathered::default();
            gathered.lend(&"QUJD".repeat(20), Some("data"));
            match key {
                true => gathered.key(text),
                false => assert_eq!(gathered.lend(text, None), None),
            }
            assert!(gathered.clash(), "{text:?}");
        }
    }
}
