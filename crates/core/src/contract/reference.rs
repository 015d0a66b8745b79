//! A media reference into a provider's own file store, as a shape's reader
//! finds it in one of its blocks ([`super::Dialect::file_reference`]); what
//! the engine does with one is in `convert::references`.

/// A media reference found in an opaque block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    /// `image`, `file`, `audio` or `video`.
    pub kind: &'static str,
    /// What it names: `anthropic file file_011…`, `s3://bucket/key`.
    pub target: String,
}

impl Reference {
    /// The text that stands in for it.
    pub fn placeholder(&self) -> String {
        format!("[unsupported {} part ({})]", self.kind, self.target)
    }
}
