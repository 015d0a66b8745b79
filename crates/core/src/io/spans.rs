//! The rest of a mapped JSON Lines input cut into spans of whole lines, for
//! workers that each find the lines of their own span and read them while
//! they are still in that core's cache (docs/large-documents.md#mapping).
//!
//! Why: a reader thread that finds every line first reads the whole file
//! once more than the workers do, and on a mapped file that pass is the one
//! that fetches it from memory; cut into spans, only the few bytes up to the
//! line break after each span's budget are looked at before a worker takes
//! it, by the worker that is about to read them. Line numbers are then known
//! only in input order, which is the order the results are handed out in:
//! [`Documents::span_done`] counts them.

use std::ops::Range;
use std::sync::Arc;

use super::{Documents, Source, State};
use crate::mapped::Mapped;

/// One line of a span.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SpanLine {
    /// A document: its range in the map (without the line break).
    Document(Range<usize>),
    /// A line of nothing but white space.
    Blank,
    /// A line longer than the document size limit.
    TooLarge,
}

impl Documents {
    /// The map and where its unread rest begins, when the input is a mapped
    /// file read as JSON Lines with no document read ahead; the blank lines
    /// read past before the first document are pushed to `blanks` (with
    /// their numbers) first.
    pub fn mapped_rest(&mut self, blanks: &mut Vec<usize>) -> Option<(Arc<Mapped>, usize)> {
        if !self.reads_lines() {
            return None;
        }
        let Source::Mapped { map, at } = &self.reader else {
            return None;
        };
        let rest = (Arc::clone(map), *at);
        if let State::Start(super::Layout::JsonLines) = self.state {
            self.state = State::Lines;
            self.json_lines = true;
        }
        if self.json_lines {
            blanks.extend(self.blank_from..self.line + 1);
        }
        self.blank_from = self.blank_from.max(self.line + 1);
        Some(rest)
    }

    /// Marks the rest of a mapped input as read: its lines are cut into
    /// spans ([`span_end`]) and counted ([`Documents::span_done`]) by the
    /// caller.
    pub fn rest_taken(&mut self) {
        if let Source::Mapped { map, at } = &mut self.reader {
            *at = map.len();
        }
        self.state = State::Done;
    }

    /// Counts a span's lines as handed out, in input order: `lines` lines,
    /// the last of which is `last` (with its line break, if any). Returns
    /// the number of the span's first line.
    pub fn span_done(&mut self, lines: usize, last: Option<Range<usize>>, map: &[u8]) -> usize {
        let first = self.line + 1;
        self.line += lines;
        self.blank_from = self.line + 1;
        if let Some(last) = last {
            self.doc_offset = last.start as u64;
            self.offset = last.end as u64;
            self.terminated = map[..last.end].last() == Some(&b'\n');
        }
        first
    }

    /// The document size limit.
    pub fn limit(&self) -> u64 {
        self.limit
    }
}

/// Where a span of `map` that begins at `start` ends: after the first line
/// break at least `budget` bytes further, or at the end of `map`.
pub fn span_end(map: &[u8], start: usize, budget: usize) -> usize {
    let from = start.saturating_add(budget.max(1) - 1).min(map.len());
    memchr::memchr(b'\n', &map[from..]).map_or(map.len(), |found| from + found + 1)
}

/// Calls `each` on every line of `span` of `map` in order, with the line's
/// range (with its line break) and what it holds, as [`Documents::fill_lines`]
/// tells them apart: a line over `limit` bytes (without its line break) is
/// [`SpanLine::TooLarge`].
pub fn span_lines(
    map: &[u8],
    span: Range<usize>,
    limit: u64,
    mut each: impl FnMut(Range<usize>, SpanLine),
) {
    let max = usize::try_from(limit).unwrap_or(usize::MAX);
    let mut start = span.start;
    while start < span.end {
        let end =
            memchr::memchr(b'\n', &map[start..span.end]).map_or(span.end, |at| start + at + 1);
        let terminated = map[end - 1] == b'\n';
        let content = end - start - usize::from(terminated);
        let line = if content > max {
            SpanLine::TooLarge
        } else {
            let mut last = end;
            while last > start && matches!(map[last - 1], b'\n' | b'\r') {
                last -= 1;
            }
            if map[start..last].iter().any(|b| !b.is_ascii_whitespace()) {
                SpanLine::Document(start..last)
            } else {
                SpanLine::Blank
            }
        };
        each(start..end, line);
        start = end;
    }
}
