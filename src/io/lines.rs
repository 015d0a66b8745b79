//! JSON Lines read straight into a batch's buffer (issue 12).
//!
//! Why: read line by line, every byte went from the kernel into the read
//! buffer and was then copied into the batch — an eighth of validating a
//! gigabyte of payload lines. Here the reader fills the batch's own buffer
//! (large reads bypass the `BufReader`, whose buffer is then empty) and the
//! lines are found where they landed. Only the bytes read past the batch's
//! budget (a line begun, or lines the batch had no room for) are copied, to
//! the start of the next batch.
//!
//! Lines are numbered, stripped and skipped exactly as [`Documents`] reads
//! them one at a time (blank lines counted, not handed out; `\r` and `\n` at
//! the end removed).

use std::io;
use std::ops::Range;

use super::{max_document, Documents, State, READ_BUFFER};
use crate::error::Result;

impl Documents {
    /// Whether [`Documents::fill_lines`] reads the rest: the input is JSON
    /// Lines and its first document has been handed out.
    pub fn reads_lines(&self) -> bool {
        self.pending.is_none() && matches!(self.state, State::Lines | State::Done)
    }

    /// Reads lines into `arena` until `max_bytes` of it hold lines or
    /// `max_docs` lines were read, and pushes each document's line number and
    /// range in `arena`; returns whether the input may hold more.
    ///
    /// `arena` is used as scratch space: its length only grows (so that a
    /// buffer used again is not zeroed again), and bytes outside the ranges
    /// pushed mean nothing.
    pub fn fill_lines(
        &mut self,
        arena: &mut Vec<u8>,
        docs: &mut Vec<(usize, Range<usize>)>,
        max_bytes: usize,
        max_docs: usize,
    ) -> Result<bool> {
        if self.state == State::Done {
            return Ok(false);
        }
        let mut filled = self.carry.len();
        if arena.len() < filled + READ_BUFFER {
            arena.resize(filled + READ_BUFFER, 0);
        }
        arena[..filled].copy_from_slice(&self.carry);
        self.carry.clear();
        // `start`: where the line being read begins; `scanned`: how far it
        // is known to hold no line break.
        let (mut start, mut scanned) = (0, 0);
        let max = usize::try_from(max_document()).unwrap_or(usize::MAX);
        loop {
            while let Some(found) = memchr::memchr(b'\n', &arena[scanned..filled]) {
                let end = scanned + found + 1;
                self.take_line(arena, start..end, docs);
                (start, scanned) = (end, end);
                if start >= max_bytes || docs.len() >= max_docs {
                    self.carry.extend_from_slice(&arena[start..filled]);
                    return Ok(true);
                }
            }
            scanned = filled;
            // The line being read has no line break yet: no longer than the
            // limit (its line break may follow at `max + 1`).
            if filled - start > max {
                return Err(self.too_large(self.line + 1));
            }
            if arena.len() - filled < READ_BUFFER {
                // A line longer than the buffer: room for another read.
                arena.resize(filled + READ_BUFFER.max(arena.len() / 2), 0);
            }
            // Up to the budget (at least a read buffer's worth, so that the
            // read bypasses the `BufReader`): what is read past it is copied.
            let want =
                (arena.len() - filled).min(max_bytes.saturating_sub(filled).max(READ_BUFFER));
            let read = loop {
                match self.reader.read(&mut arena[filled..filled + want]) {
                    Ok(read) => break read,
                    Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                    Err(error) => return Err(self.read_error(error)),
                }
            };
            if read == 0 {
                if start < filled {
                    self.take_line(arena, start..filled, docs);
                }
                self.state = State::Done;
                return Ok(false);
            }
            filled += read;
        }
    }

    /// Counts the line at `range` of `arena` (with its line break, if any)
    /// and pushes it unless it is blank.
    fn take_line(
        &mut self,
        arena: &[u8],
        range: Range<usize>,
        docs: &mut Vec<(usize, Range<usize>)>,
    ) {
        self.line += 1;
        self.doc_offset = self.offset;
        self.offset += range.len() as u64;
        self.terminated = arena[..range.end].last() == Some(&b'\n');
        let mut end = range.end;
        while end > range.start && matches!(arena[end - 1], b'\n' | b'\r') {
            end -= 1;
        }
        if arena[range.start..end]
            .iter()
            .any(|b| !b.is_ascii_whitespace())
        {
            docs.push((self.line, range.start..end));
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::{BufReader, Cursor};
    use std::path::PathBuf;

    use super::*;
    use crate::io::Layout;

    /// Every document of `text` through `fill_lines` with the given budgets
    /// (after the first, read one at a time as the pipeline does), and
    /// through `next_into`: the same lines and bytes.
    fn same_as_one_at_a_time(text: &str, max_bytes: usize, max_docs: usize, read_buffer: usize) {
        let open = || {
            Documents::from_reader(
                Box::new(BufReader::with_capacity(
                    read_buffer,
                    Cursor::new(text.as_bytes().to_vec()),
                )),
                PathBuf::from("t"),
                Layout::JsonLines,
            )
        };
        let mut expected = Vec::new();
        let mut one = open();
        let mut buf = Vec::new();
        while let Some(line) = one.next_into(&mut buf).unwrap() {
            expected.push((line, buf.clone()));
        }
        let mut got = Vec::new();
        let mut many = open();
        if let Some(line) = many.next_into(&mut buf).unwrap() {
            got.push((line, buf.clone()));
        }
        assert!(many.reads_lines() || expected.is_empty());
        let mut arena = Vec::new();
        let mut rounds = 0;
        loop {
            let mut docs = Vec::new();
            let more = many
                .fill_lines(&mut arena, &mut docs, max_bytes, max_docs)
                .unwrap();
            assert!(docs.len() <= max_docs);
            got.extend(
                docs.into_iter()
                    .map(|(line, range)| (line, arena[range].to_vec())),
            );
            rounds += 1;
            if !more {
                break;
            }
            assert!(rounds < 10_000, "no progress");
        }
        assert_eq!(got, expected, "budgets {max_bytes}/{max_docs}");
    }

    #[test]
    fn lines_are_the_same_in_batches_of_any_budget() {
        let long = "x".repeat(3000);
        let texts = [
            String::new(),
            "{}".to_string(),
            "{}\n".to_string(),
            "{\"a\":1}\r\n\n  \n{\"b\":2}\r\r\n[3]".to_string(),
            format!("\"{long}\"\n\n\"{long}\"\n{{}}\n\"{long}{long}\"\n"),
            (0..200).map(|i| format!("{{\"n\":{i}}}\n")).collect(),
            "\n\n\n{}\n\n".to_string(),
        ];
        for text in &texts {
            for (bytes, docs) in [(1, 1), (10, 3), (100, 1000), (5000, 2), (1 << 20, 1 << 20)] {
                same_as_one_at_a_time(text, bytes, docs, 16);
                same_as_one_at_a_time(text, bytes, docs, 1 << 20);
            }
        }
    }
}
