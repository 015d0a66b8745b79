//! Sub-documents (`--at POINTER`): a command works on the values at some JSON
//! pointers of each document, and the document is written back with only
//! those values replaced — every other byte (key order, spacing, number
//! spelling, unknown fields) exactly as it was.
//!
//! Values are found in the document's raw text ([`crate::json::raw_span`]), so
//! a replacement is a byte splice, and a finding inside a value gets the full
//! pointer from the document's root by prefixing the value's own pointer.

use std::fmt;
use std::ops::Range;

use crate::json;

/// What to do with a document that has no value at a pointer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AtMissing {
    /// The document fails, naming the pointer.
    #[default]
    Error,
    /// The pointer is passed over; a document with none of them is left as it is.
    Skip,
}

/// The `--at` pointers of a run.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct At {
    pointers: Vec<String>,
    pub missing: AtMissing,
}

/// Why `--at` pointers cannot be used as given (a usage error).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PointerError {
    #[error("--at {0:?}: a JSON pointer is empty or starts with '/' (RFC 6901)")]
    NoSlash(String),
    #[error("--at {0:?}: '~' must be followed by 0 or 1 (RFC 6901)")]
    BadEscape(String),
    #[error("--at {0} and --at {1} overlap: one value would be replaced twice")]
    Overlap(String, String),
}

/// What is said of a document without a value at an `--at` pointer.
pub const MISSING: &str = "no such value in this document (--at-missing skip passes it over)";

/// Why the sub-documents of one document cannot be found.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum LocateError {
    /// The document is not JSON.
    InvalidJson(String),
    /// The document has no value at this pointer (and `--at-missing` is `error`).
    Missing(String),
}

impl fmt::Display for LocateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LocateError::InvalidJson(message) => write!(f, "invalid JSON: {message}"),
            LocateError::Missing(pointer) => write!(f, "{pointer}: {MISSING}"),
        }
    }
}

impl std::error::Error for LocateError {}

/// One value found at a pointer: the pointer and the value's bytes in the document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located {
    pub pointer: String,
    pub range: Range<usize>,
}

impl At {
    /// Checks the pointers: each one RFC 6901, none inside another.
    pub fn new(pointers: &[String], missing: AtMissing) -> Result<At, PointerError> {
        for pointer in pointers {
            check_pointer(pointer)?;
        }
        for (i, a) in pointers.iter().enumerate() {
            for b in &pointers[i + 1..] {
                if contains(a, b) || contains(b, a) {
                    return Err(PointerError::Overlap(a.clone(), b.clone()));
                }
            }
        }
        Ok(At {
            pointers: pointers.to_vec(),
            missing,
        })
    }

    /// Whether any pointer was given.
    pub fn is_active(&self) -> bool {
        !self.pointers.is_empty()
    }

    pub fn pointers(&self) -> &[String] {
        &self.pointers
    }

    /// Finds the values of `bytes` at the pointers, in the order the pointers
    /// were given. With [`AtMissing::Skip`] absent ones are left out.
    pub fn locate(&self, bytes: &[u8]) -> Result<Vec<Located>, LocateError> {
        serde_json::from_slice::<serde::de::IgnoredAny>(bytes)
            .map_err(|e| LocateError::InvalidJson(e.to_string()))?;
        let mut found = Vec::with_capacity(self.pointers.len());
        for pointer in &self.pointers {
            match json::raw_span(bytes, pointer) {
                Some((start, end)) => found.push(Located {
                    pointer: pointer.clone(),
                    range: start..end,
                }),
                None if self.missing == AtMissing::Skip => {}
                None => return Err(LocateError::Missing(pointer.clone())),
            }
        }
        Ok(found)
    }
}

/// Whether pointer `outer` names `inner` or a value inside it.
fn contains(outer: &str, inner: &str) -> bool {
    inner == outer
        || inner
            .strip_prefix(outer)
            .is_some_and(|r| r.starts_with('/'))
}

fn check_pointer(pointer: &str) -> Result<(), PointerError> {
    if !pointer.is_empty() && !pointer.starts_with('/') {
        return Err(PointerError::NoSlash(pointer.to_string()));
    }
    let mut chars = pointer.chars();
    while let Some(c) = chars.next() {
        if c == '~' && !matches!(chars.next(), Some('0' | '1')) {
            return Err(PointerError::BadEscape(pointer.to_string()));
        }
    }
    Ok(())
}

/// `pointer` (inside a value) seen from the document's root, where the value
/// sits at `base`.
pub fn join(base: &str, pointer: &str) -> String {
    format!("{base}{pointer}")
}

/// The document with each range replaced by its bytes. Ranges must not
/// overlap; they may come in any order.
pub fn splice(bytes: &[u8], replacements: &mut [(Range<usize>, Vec<u8>)]) -> Vec<u8> {
    replacements.sort_by_key(|(range, _)| range.start);
    let grown: usize = replacements.iter().map(|(_, new)| new.len()).sum();
    let mut out = Vec::with_capacity(bytes.len() + grown);
    let mut at = 0;
    for (range, new) in replacements.iter() {
        out.extend_from_slice(&bytes[at..range.start]);
        out.extend_from_slice(new);
        at = range.end;
    }
    out.extend_from_slice(&bytes[at..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(pointers: &[&str], missing: AtMissing) -> Result<At, PointerError> {
        let pointers: Vec<String> = pointers.iter().map(|p| p.to_string()).collect();
        At::new(&pointers, missing)
    }

    #[test]
    fn pointers_are_checked() {
        assert!(at(&["/a", "/b/0", "", "/x~0y~1z"], AtMissing::Error).is_err()); // "" holds /a
        assert!(at(&["/a", "/b/0", "/x~0y~1z"], AtMissing::Error).is_ok());
        assert_eq!(
            at(&["a"], AtMissing::Error),
            Err(PointerError::NoSlash("a".into()))
        );
        assert_eq!(
            at(&["/a~2"], AtMissing::Error),
            Err(PointerError::BadEscape("/a~2".into()))
        );
        assert_eq!(
            at(&["/a", "/a/b"], AtMissing::Error),
            Err(PointerError::Overlap("/a".into(), "/a/b".into()))
        );
        // A common prefix that is not a whole token is no overlap.
        assert!(at(&["/a", "/ab"], AtMissing::Error).is_ok());
    }

    #[test]
    fn values_are_located_and_spliced() {
        let doc = br#"{"x": {"k": 1.0}, "y": [1, 2], "z": 10E2}"#;
        let at = at(&["/y/1", "/x"], AtMissing::Error).unwrap();
        let found = at.locate(doc).unwrap();
        assert_eq!(found[0].pointer, "/y/1");
        assert_eq!(&doc[found[0].range.clone()], b"2");
        assert_eq!(&doc[found[1].range.clone()], br#"{"k": 1.0}"#);
        let mut replacements: Vec<_> = found
            .iter()
            .map(|f| (f.range.clone(), b"null".to_vec()))
            .collect();
        assert_eq!(
            splice(doc, &mut replacements),
            br#"{"x": null, "y": [1, null], "z": 10E2}"#.to_vec()
        );
    }

    #[test]
    fn missing_values_fail_or_are_passed_over() {
        let doc = br#"{"x": 1}"#;
        let strict = at(&["/x", "/nope"], AtMissing::Error).unwrap();
        assert_eq!(
            strict.locate(doc),
            Err(LocateError::Missing("/nope".into()))
        );
        let lenient = at(&["/x", "/nope"], AtMissing::Skip).unwrap();
        assert_eq!(lenient.locate(doc).unwrap().len(), 1);
        assert!(matches!(
            lenient.locate(b"{\"x\":"),
            Err(LocateError::InvalidJson(_))
        ));
    }

    #[test]
    fn the_last_duplicate_key_is_the_value() {
        let doc = br#"{"x": 1, "x": 2}"#;
        let found = at(&["/x"], AtMissing::Error).unwrap().locate(doc).unwrap();
        assert_eq!(&doc[found[0].range.clone()], b"2");
    }
}
