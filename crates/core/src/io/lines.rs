//! JSON Lines read straight into a batch's buffer (docs/large-documents.md), every line
//! accounted for at any size.
//!
//! Why: read line by line, every byte went from the kernel into the read
//! buffer and was then copied into the batch — an eighth of validating a
//! gigabyte of payload lines. Here the reader fills the batch's own buffer
//! (large reads bypass the `BufReader`, whose buffer is then empty) and the
//! lines are found where they landed. Only the bytes read past the batch's
//! budget (a line begun, or lines the batch had no room for) are copied, to
//! the start of the next batch.
//!
//! Every line of the input is one [`Slot`] in the order read: a document, a
//! blank line (so that `--on-error null` can keep output line N for input
//! line N), or a line over the document size limit — read past unheld,
//! so that it fails alone and the lines around it are read as usual
//! (docs/json-lines.md).

use std::io::{self, Read};
use std::ops::Range;

use super::{Documents, Source, State, READ_BUFFER};
use crate::error::{Error, Result};

/// One line of JSON Lines as a batch holds it.
#[derive(Debug)]
pub enum Slot {
    /// A document: where its bytes lie in the batch's buffer (without the
    /// line break).
    Document(Range<usize>),
    /// A line of nothing but white space.
    Blank,
    /// A line longer than the document size limit: not held, its error.
    TooLarge(Error),
}

impl Slot {
    /// The document's range, for a line that holds one.
    pub fn document(&self) -> Option<Range<usize>> {
        match self {
            Slot::Document(range) => Some(range.clone()),
            _ => None,
        }
    }
}

impl Documents {
    /// Whether [`Documents::fill_lines`] reads the rest: the input is JSON
    /// Lines and any document read ahead has been handed out.
    pub fn reads_lines(&self) -> bool {
        self.pending.is_none()
            && matches!(
                self.state,
                State::Lines | State::Done | State::Start(super::Layout::JsonLines)
            )
    }

    /// Reads lines into `arena` until `max_bytes` of it hold lines or
    /// `max_lines` lines were read, and pushes each line's number and
    /// [`Slot`]; returns whether the input may hold more.
    ///
    /// `arena` is used as scratch space: its length only grows (so that a
    /// buffer used again is not zeroed again), and bytes outside the ranges
    /// pushed mean nothing. A line over the limit is read past in place: the
    /// arena grows to the limit (plus a read) at the most.
    ///
    /// From a mapped file ([`Documents::mapped`]) nothing is copied: `arena`
    /// is not used, and the ranges pushed are ranges of the map.
    pub fn fill_lines(
        &mut self,
        arena: &mut Vec<u8>,
        lines: &mut Vec<(usize, Slot)>,
        max_bytes: usize,
        max_lines: usize,
    ) -> Result<bool> {
        if let State::Start(super::Layout::JsonLines) = self.state {
            self.state = State::Lines;
            self.json_lines = true;
        }
        // Blank lines passed over before the first document was handed out.
        self.push_blanks(self.line + 1, lines);
        if self.state == State::Done {
            return Ok(false);
        }
        if matches!(self.reader, Source::Mapped { .. }) {
            return Ok(self.fill_mapped(lines, max_bytes, max_lines));
        }
        let mut filled = self.carry.len();
        if arena.len() < filled + READ_BUFFER {
            arena.resize(filled + READ_BUFFER, 0);
        }
        arena[..filled].copy_from_slice(&self.carry);
        self.carry.clear();
        // `start`: where the line being read begins; `scanned`: how far it
        // is known to hold no line break; `skipped`: the bytes of an
        // oversize line read past (and dropped) so far, `None` when the
        // line being read is not one.
        let (mut start, mut scanned) = (0, 0);
        let mut skipped: Option<u64> = None;
        let max = usize::try_from(self.limit).unwrap_or(usize::MAX);
        loop {
            while let Some(found) = memchr::memchr(b'\n', &arena[scanned..filled]) {
                let end = scanned + found + 1;
                match skipped.take() {
                    Some(dropped) => self.end_oversize(dropped + (end - start) as u64, true),
                    None => self.take_line(arena, start..end, lines, max),
                }
                (start, scanned) = (end, end);
                if start >= max_bytes || lines.len() >= max_lines {
                    self.carry.extend_from_slice(&arena[start..filled]);
                    return Ok(true);
                }
            }
            scanned = filled;
            // The line being read has no line break yet: no longer than the
            // limit (its line break may follow at `max + 1`), or read past.
            if skipped.is_none() && filled - start > max {
                lines.push((self.line + 1, Slot::TooLarge(self.too_large(self.line + 1))));
                skipped = Some(0);
            }
            if let Some(dropped) = skipped.as_mut() {
                *dropped += (filled - start) as u64;
                (filled, scanned) = (start, start);
            }
            if arena.len() - filled < READ_BUFFER {
                // A line longer than the buffer: room for another read, up
                // to the most a line may hold (and a read past it).
                let grown = filled + READ_BUFFER.max(arena.len() / 2);
                let most = start.saturating_add(max).saturating_add(READ_BUFFER + 1);
                let len = grown.min(most).max(filled + READ_BUFFER);
                // Exactly: a doubled capacity would be twice the limit.
                arena.reserve_exact(len - arena.len());
                arena.resize(len, 0);
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
                match skipped {
                    Some(dropped) => self.end_oversize(dropped, false),
                    None if start < filled => self.take_line(arena, start..filled, lines, max),
                    None => {}
                }
                self.state = State::Done;
                return Ok(false);
            }
            filled += read;
        }
    }

    /// [`Documents::fill_lines`] from a mapped file: the lines are found in
    /// the map, up to `max_bytes` of it or `max_lines` lines.
    fn fill_mapped(
        &mut self,
        lines: &mut Vec<(usize, Slot)>,
        max_bytes: usize,
        max_lines: usize,
    ) -> bool {
        let Source::Mapped { map, at } = &self.reader else {
            unreachable!("called for a mapped source")
        };
        let (map, first) = (std::sync::Arc::clone(map), *at);
        let max = usize::try_from(self.limit).unwrap_or(usize::MAX);
        let mut start = first;
        while start < map.len() {
            let end = memchr::memchr(b'\n', &map[start..]).map_or(map.len(), |at| start + at + 1);
            self.take_line(&map, start..end, lines, max);
            start = end;
            if start - first >= max_bytes || lines.len() >= max_lines {
                break;
            }
        }
        if let Source::Mapped { at, .. } = &mut self.reader {
            *at = start;
        }
        let more = start < map.len();
        if !more {
            self.state = State::Done;
        }
        more
    }

    /// Counts the line at `range` of `arena` (with its line break, if any)
    /// and pushes its slot.
    fn take_line(
        &mut self,
        arena: &[u8],
        range: Range<usize>,
        lines: &mut Vec<(usize, Slot)>,
        max: usize,
    ) {
        self.line += 1;
        self.blank_from = self.line + 1;
        self.doc_offset = self.offset;
        self.offset += range.len() as u64;
        self.terminated = arena[..range.end].last() == Some(&b'\n');
        let content = range.len() - usize::from(self.terminated);
        if content > max {
            lines.push((self.line, Slot::TooLarge(self.too_large(self.line))));
            return;
        }
        let mut end = range.end;
        while end > range.start && matches!(arena[end - 1], b'\n' | b'\r') {
            end -= 1;
        }
        let slot = if arena[range.start..end]
            .iter()
            .any(|b| !b.is_ascii_whitespace())
        {
            Slot::Document(range.start..end)
        } else {
            Slot::Blank
        };
        lines.push((self.line, slot));
    }

    /// Counts a line over the limit that was read past: `bytes` long, with
    /// its line break when `terminated`.
    fn end_oversize(&mut self, bytes: u64, terminated: bool) {
        self.line += 1;
        self.blank_from = self.line + 1;
        self.doc_offset = self.offset;
        self.offset += bytes;
        self.terminated = terminated;
    }

    /// Pushes a blank slot for every line from `blank_from` up to (not
    /// including) `below`: blank lines read past on the way to a document.
    fn push_blanks(&mut self, below: usize, lines: &mut Vec<(usize, Slot)>) {
        if self.json_lines {
            lines.extend((self.blank_from..below).map(|blank| (blank, Slot::Blank)));
        }
        self.blank_from = self.blank_from.max(below);
    }

    /// Pushes the blank lines before `line`, a document handed out one at a
    /// time that the caller pushes next.
    pub fn push_blanks_before(&mut self, line: usize, lines: &mut Vec<(usize, Slot)>) {
        self.push_blanks(line, lines);
        self.blank_from = line + 1;
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
                crate::io::DEFAULT_MAX_DOCUMENT,
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
            assert!(docs.len() <= max_docs.max(blanks_first(&docs)));
            got.extend(docs.into_iter().filter_map(|(line, slot)| {
                slot.document().map(|range| (line, arena[range].to_vec()))
            }));
            rounds += 1;
            if !more {
                break;
            }
            assert!(rounds < 10_000, "no progress");
        }
        assert_eq!(got, expected, "budgets {max_bytes}/{max_docs}");
    }

    /// How many blank slots open a batch (the blank lines read before the
    /// first document handed out, which do not count against its budget).
    fn blanks_first(docs: &[(usize, Slot)]) -> usize {
        docs.iter()
            .take_while(|(_, slot)| matches!(slot, Slot::Blank))
            .count()
            + 1
    }

    /// Every line of `text` read in batches: each line's number and what
    /// it is (`Some(bytes)` for a document, `None` for a blank line, `Err`
    /// for one over the limit).
    fn slots(
        text: &str,
        max_bytes: usize,
        layout: Layout,
        limit: u64,
    ) -> Vec<(usize, Result<Option<String>, ()>)> {
        let mut docs = Documents::from_reader(
            Box::new(Cursor::new(text.as_bytes().to_vec())),
            PathBuf::from("t"),
            layout,
            limit,
        );
        let mut out = Vec::new();
        let mut buf = Vec::new();
        if layout == Layout::Auto {
            docs.detect().unwrap();
            let mut first = Vec::new();
            let line = docs.next_into(&mut buf).unwrap().unwrap();
            docs.push_blanks_before(line, &mut first);
            out.extend(first.into_iter().map(|(line, _)| (line, Ok(None))));
            out.push((line, Ok(Some(String::from_utf8(buf).unwrap()))));
        }
        let mut arena = Vec::new();
        loop {
            let mut lines = Vec::new();
            let more = docs
                .fill_lines(&mut arena, &mut lines, max_bytes, 1000)
                .unwrap();
            for (line, slot) in lines {
                out.push((
                    line,
                    match slot {
                        Slot::Document(range) => {
                            Ok(Some(String::from_utf8(arena[range].to_vec()).unwrap()))
                        }
                        Slot::Blank => Ok(None),
                        Slot::TooLarge(_) => Err(()),
                    },
                ));
            }
            if !more {
                return out;
            }
        }
    }

    #[test]
    fn every_line_has_a_slot_blank_and_oversize_ones_too() {
        let doc = |text: &str| Ok(Some(text.to_string()));
        let text = "\n{\"a\":1}\n \n{\"b\":2}\r\n\n";
        let expected = vec![
            (1, Ok(None)),
            (2, doc("{\"a\":1}")),
            (3, Ok(None)),
            (4, doc("{\"b\":2}")),
            (5, Ok(None)),
        ];
        for budget in [1, 7, 1 << 20] {
            assert_eq!(
                slots(text, budget, Layout::Auto, 1 << 20),
                expected,
                "{budget}"
            );
            assert_eq!(
                slots(text, budget, Layout::JsonLines, 1 << 20),
                expected,
                "{budget}"
            );
        }
    }

    #[test]
    fn a_line_over_the_limit_is_read_past_wherever_it_lies() {
        let long = "x".repeat(250);
        // Inside one read, across reads, first, last, without a line break.
        let text = format!("{{}}\n\"{long}\"\n[1]\n\"{long}\"");
        for budget in [1, 50, 1 << 20] {
            assert_eq!(
                slots(&text, budget, Layout::JsonLines, 100),
                vec![
                    (1, Ok(Some("{}".into()))),
                    (2, Err(())),
                    (3, Ok(Some("[1]".into()))),
                    (4, Err(()))
                ],
                "{budget}"
            );
        }
        // Exactly at the limit (a line break after it) is read.
        let at = format!("\"{}\"\r\n[2]\n", "y".repeat(97));
        assert_eq!(
            slots(&at, 1, Layout::JsonLines, 100)[0].1,
            Ok(Some(format!("\"{}\"", "y".repeat(97))))
        );
        let over = format!("\"{}\"\r\n[2]\n", "y".repeat(98));
        assert_eq!(
            slots(&over, 1, Layout::JsonLines, 100),
            vec![(1, Err(())), (2, Ok(Some("[2]".into())))]
        );
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
