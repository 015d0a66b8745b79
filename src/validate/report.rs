//! What checking one document finds: its issues (with the repair `--fix`
//! may apply) and what the document was checked as.

use super::options::DocKind;
use super::rules::Severity;

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
    /// The severity where it is not the rule's own: a finding whose weight
    /// depends on the provider (docs/acceptance.md).
    pub severity: Option<Severity>,
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
    /// How the document's shape was told, when it took a guess.
    pub note: Option<String>,
}
