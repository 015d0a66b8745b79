//! What checking one document finds: its issues (with the repair `--fix`
//! may apply) and what the document was checked as.

use super::options::DocKind;
pub use crate::contract::rules::{Issue, Patch};

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
