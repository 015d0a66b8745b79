//! What checking one document finds: its issues (with the repair `--fix`
//! may apply) and what the document was checked as.

use super::options::DocKind;

/// A repair: replace `bytes[start..end]` of the document with `replacement`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Patch {
    pub start: usize,
    pub end: usize,
    pub replacement: String,
}

/// One finding inside a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issue {
    pub rule: &'static str,
    /// A JSON pointer from the document's root ("" for the whole document).
    pub pointer: String,
    pub message: String,
    /// The repair, for a fixable rule whose text can be patched in place.
    pub patch: Option<Patch>,
}

/// The findings for one document.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DocReport {
    /// What the document was checked as; `None` for a document that is not JSON
    /// or was skipped.
    pub kind: Option<DocKind>,
    /// The document is none of the kinds (and `--kind` did not force one).
    pub skipped: bool,
    pub images: usize,
    pub issues: Vec<Issue>,
}
