//! Output with holes where lent payloads go, filled from the input (in
//! memory, or the file) as it is written.

use std::fs::File;
use std::io::{self, Write};
use std::ops::Range;
use std::os::unix::fs::FileExt;
use std::path::Path;

use super::lend::Lending;
use crate::error::ReadFault;

/// Output text with holes where lent payloads go, filled from the input as
/// it is written.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Lent {
    /// Where each hole is in the output text, and the payload's range in the
    /// input.
    holes: Vec<(usize, Range<usize>)>,
}

impl Lent {
    /// A hole at `at` in the output for placeholder `index` of `lending`;
    /// false when nothing is lent under that index (the caller writes the
    /// placeholder).
    pub fn hole(&mut self, at: usize, index: usize, lending: &Lending) -> bool {
        match lending.payload_range(index) {
            Some(range) => {
                self.holes.push((at, range));
                true
            }
            None => false,
        }
    }

    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.holes.is_empty()
    }

    /// The output's length once the holes are filled.
    pub fn filled_len(&self, text: &[u8]) -> usize {
        text.len() + self.holes.iter().map(|(_, r)| r.len()).sum::<usize>()
    }

    /// Writes `text` with the holes filled from `input` (the bytes the
    /// payloads were lent from).
    pub fn write_to<W: Write>(&self, out: &mut W, text: &[u8], input: &[u8]) -> io::Result<()> {
        let mut at = 0;
        for (hole, range) in &self.holes {
            out.write_all(&text[at..*hole])?;
            out.write_all(&input[range.clone()])?;
            at = *hole;
        }
        out.write_all(&text[at..])
    }

    /// Writes `text` with the holes filled from `file` (the file the payloads
    /// were lent from), a piece at a time. A failed read is the file's error,
    /// not the output's ([`ReadFault`]).
    pub fn write_from_file<W: Write>(
        &self,
        out: &mut W,
        text: &[u8],
        file: &File,
        path: &Path,
    ) -> io::Result<()> {
        const PIECE: usize = 256 * 1024;
        let mut buffer =
            vec![0; PIECE.min(self.holes.iter().map(|(_, r)| r.len()).max().unwrap_or(0))];
        let mut at = 0;
        for (hole, range) in &self.holes {
            out.write_all(&text[at..*hole])?;
            let mut from = range.start;
            while from < range.end {
                let piece = &mut buffer[..PIECE.min(range.end - from)];
                file.read_exact_at(piece, from as u64)
                    .map_err(|e| ReadFault::into_io(path, e))?;
                out.write_all(piece)?;
                from += piece.len();
            }
            at = *hole;
        }
        out.write_all(&text[at..])
    }

    /// `text` with the holes filled, in memory.
    pub fn fill(&self, text: Vec<u8>, input: &[u8]) -> Vec<u8> {
        if self.holes.is_empty() {
            return text;
        }
        let mut out = Vec::with_capacity(self.filled_len(&text));
        self.write_to(&mut out, &text, input)
            .expect("writing to memory cannot fail");
        out
    }
}
