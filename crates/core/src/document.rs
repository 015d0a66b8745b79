//! Opening an input for one operation: the one place that decides whether
//! its document is read into memory, or read with its payloads left in the
//! file (docs/large-documents.md). Every operation that takes a file
//! (`validate`, `convert`, `inspect`, `resize`) opens it here, so a library
//! caller gets the same route as the command line.

use std::fs::File;
use std::path::Path;
use std::sync::Arc;

use crate::json::lent::{self, FileScan, Lending, Source};
use crate::json::Parsed;
use crate::shared::SharedBytes;

/// What an operation asks of [`Document::open`].
#[derive(Debug, Clone, Copy)]
pub struct Open {
    /// Whether the operation takes the input as one whole document: not as
    /// JSON Lines, not values at `--at` pointers, not a rollout line, not a
    /// file written back with repairs. Only then may its payloads stay in
    /// the file.
    pub whole: bool,
    /// The most bytes one document may hold in memory (docs/limits.md).
    pub max_document: u64,
}

/// An input, opened.
#[derive(Debug)]
pub enum Document {
    /// A large regular file holding one JSON object or array, scanned: its
    /// text without the payloads is held, the payloads stay in the file and
    /// are read again where they are needed.
    Lent(LentFile),
    /// Anything else (stdin, a small file, JSON Lines, nothing to lend): the
    /// operation reads it the usual way, document by document. A file that
    /// does not open is read that way too, which then says why.
    Read,
}

impl Document {
    /// Opens the input at `path` (`None` or `-`: stdin) for an operation
    /// that asks `open`.
    pub fn open(path: Option<&Path>, open: Open) -> Document {
        if !open.whole {
            return Document::Read;
        }
        let Some((_, file)) = crate::io::large_file(path) else {
            return Document::Read;
        };
        match lent::scan_file(&file, open.max_document) {
            Ok(Some(scan)) => Document::Lent(LentFile {
                file: Arc::new(file),
                scan,
            }),
            _ => Document::Read,
        }
    }
}

/// A large file's one document with its payloads found ([`Document::Lent`]).
#[derive(Debug)]
pub struct LentFile {
    file: Arc<File>,
    scan: FileScan,
}

impl LentFile {
    /// The file.
    pub fn file(&self) -> &Arc<File> {
        &self.file
    }

    /// The document's text, each payload replaced by a placeholder.
    pub fn text(&self) -> &[u8] {
        &self.scan.shadow
    }

    /// Whether the file still is what was scanned (a file rewritten since
    /// would lend other bytes).
    pub fn unchanged(&self) -> bool {
        self.scan.unchanged(&self.file)
    }

    /// Runs `f` on the document parsed from its text, with the text and what
    /// it lends. `None` when the text is not JSON, `f` gives up, or the file
    /// changed meanwhile: the caller then reads the file as any input.
    pub fn with_document<R>(
        self,
        f: impl FnOnce(&Parsed<'_>, &SharedBytes, &Lending) -> Option<R>,
    ) -> Option<R> {
        let LentFile { file, mut scan } = self;
        let shadow = SharedBytes::new(std::mem::take(&mut scan.shadow));
        let parsed = crate::json::parse_counted(&shadow).ok()?;
        let source = Source::File(Arc::clone(&file));
        let lending = Lending::new(source, std::mem::take(&mut scan.payloads));
        let result = f(&parsed, &shadow, &lending)?;
        scan.unchanged(&file).then_some(result)
    }

    /// The file and its scan, for an operation that keeps both (`convert`
    /// writes its output with the payloads read from the file).
    pub fn into_parts(self) -> (Arc<File>, FileScan) {
        (self.file, self.scan)
    }
}
