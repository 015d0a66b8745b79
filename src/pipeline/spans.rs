//! The documents of a mapped JSON Lines file through one function, read in
//! spans (docs/large-documents.md#mapping).
//!
//! Each worker cuts the next span of whole lines off the rest of the file,
//! finds its lines and runs the work on each while its bytes are still in
//! that core's cache; the results go back to the calling thread, which hands
//! them to the sink in input order and numbers the lines as it goes. A
//! reader thread that found every line first would read the whole file from
//! memory once more, and the batch barrier of [`super::for_each_document`]
//! would leave a core idle at the end of every batch; here a core that is
//! done takes the next span. Spans are cut only against a permit from the
//! calling thread, so at most [`IN_FLIGHT_PER_WORKER`] spans a worker are
//! cut and not yet handed out, and the pages of each span are given back
//! once its results are.

use std::collections::BTreeMap;
use std::ops::Range;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};

use partkit_core::io::{span_end, span_lines, SpanLine};
use partkit_core::mapped::Mapped;

use super::Item;
use crate::accounting::Flow;
use crate::error::Result;
use crate::io::Documents;
use crate::shared::SharedBytes;

/// How many bytes of lines a span holds (it ends at the first line break
/// past this): small enough that a span's lines stay in a core's cache
/// between finding them and reading them, large enough that a span of short
/// lines is worth a hand-over.
const SPAN_BYTES: usize = 1 << 20;
/// How many spans a worker may have cut ahead of the sink.
const IN_FLIGHT_PER_WORKER: usize = 2;

/// One line of a span: its range (with its line break), what it holds, and
/// the work's result for a document.
type Done<R> = Vec<(Range<usize>, SpanLine, Option<R>)>;

/// What a worker sends back.
enum Message<R> {
    /// The lines of span number `.0`, which is `.1` of the map.
    Span(usize, Range<usize>, Done<R>),
    /// The input is cut up: `.0` spans in all.
    End(usize),
    /// The work panicked.
    Panicked(Box<dyn std::any::Any + Send>),
}

/// Where the next span begins, and how many were cut.
struct Cursor {
    at: usize,
    cut: usize,
}

/// Runs `work` on every document left in `documents`, a mapped input read
/// as JSON Lines from `from`, and passes the results to `sink` as
/// [`super::for_each_document`] does. `blanks` are the numbers of the blank
/// lines read past before the rest, which reach the sink first.
pub(super) fn run<R, W, S>(
    documents: &mut Documents,
    (map, from): (Arc<Mapped>, usize),
    blanks: Vec<usize>,
    work: &W,
    mut sink: S,
) -> Result<()>
where
    R: Send,
    W: Fn(&SharedBytes) -> R + Sync,
    S: FnMut(usize, &[u8], Item<R>) -> Result<Flow>,
{
    for line in blanks {
        if sink(line, &[], Item::Blank)? == Flow::Stop {
            return Ok(());
        }
    }
    documents.rest_taken();
    let workers = rayon::current_num_threads().max(1);
    let limit = documents.limit();
    let (permit_tx, permit_rx) = mpsc::channel::<()>();
    let permits = Mutex::new(permit_rx);
    let cursor = Mutex::new(Cursor { at: from, cut: 0 });
    let (done_tx, done_rx) = mpsc::channel::<Message<R>>();
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        // Owned by this closure, so that the permits end (and with them the
        // workers) when it unwinds too: the scope waits for every worker
        // before it passes a panic on.
        let permit_tx = permit_tx;
        for _ in 0..workers {
            let done_tx = done_tx.clone();
            let (permits, cursor, stop, map) = (&permits, &cursor, &stop, &map);
            scope.spawn(move || loop {
                let permit = permits.lock().map(|permits| permits.recv());
                if !matches!(permit, Ok(Ok(()))) || stop.load(Ordering::Relaxed) {
                    return;
                }
                let cut = cursor.lock().map(|mut cursor| {
                    if cursor.at >= map.len() {
                        return Err(cursor.cut);
                    }
                    let span = cursor.at..span_end(map, cursor.at, SPAN_BYTES);
                    cursor.at = span.end;
                    cursor.cut += 1;
                    Ok((cursor.cut - 1, span))
                });
                let message = match cut {
                    Ok(Ok((seq, span))) => {
                        match panic::catch_unwind(AssertUnwindSafe(|| {
                            lines(map, &span, limit, work)
                        })) {
                            Ok(done) => Message::Span(seq, span, done),
                            Err(panicked) => Message::Panicked(panicked),
                        }
                    }
                    Ok(Err(total)) => Message::End(total),
                    // Another worker panicked holding the cursor.
                    Err(_) => return,
                };
                if done_tx.send(message).is_err() {
                    return;
                }
            });
        }
        drop(done_tx);
        let outcome = hand_out(documents, &map, &permit_tx, &done_rx, workers, &mut sink);
        // The workers end with the permits: the ones not yet used are not.
        stop.store(true, Ordering::Relaxed);
        drop(permit_tx);
        outcome
    })
}

/// The lines of `span` and the work's result on each document.
fn lines<R, W>(map: &Arc<Mapped>, span: &Range<usize>, limit: u64, work: &W) -> Done<R>
where
    W: Fn(&SharedBytes) -> R,
{
    let mut done = Vec::new();
    span_lines(map, span.clone(), limit, |whole, line| {
        let result = match &line {
            SpanLine::Document(range) => Some(work(&SharedBytes::of_mapped(map, range.clone()))),
            _ => None,
        };
        done.push((whole, line, result));
    });
    done
}

/// Gives the workers permits to cut spans and hands their results to `sink`
/// in order.
fn hand_out<R, S>(
    documents: &mut Documents,
    map: &Arc<Mapped>,
    permit_tx: &mpsc::Sender<()>,
    done_rx: &mpsc::Receiver<Message<R>>,
    workers: usize,
    sink: &mut S,
) -> Result<()>
where
    S: FnMut(usize, &[u8], Item<R>) -> Result<Flow>,
{
    for _ in 0..workers * IN_FLIGHT_PER_WORKER {
        let _ = permit_tx.send(());
    }
    let mut arrived: BTreeMap<usize, (Range<usize>, Done<R>)> = BTreeMap::new();
    let mut total = None;
    let mut next = 0;
    let mut released = 0;
    loop {
        let (span, done) = loop {
            if let Some(found) = arrived.remove(&next) {
                break found;
            }
            if total == Some(next) {
                return Ok(());
            }
            match done_rx.recv() {
                Ok(Message::Span(seq, span, done)) => {
                    arrived.insert(seq, (span, done));
                }
                Ok(Message::End(cut)) => total = Some(cut),
                Ok(Message::Panicked(panicked)) => panic::resume_unwind(panicked),
                Err(_) => unreachable!("the workers end only with the permits"),
            }
        };
        next += 1;
        let _ = permit_tx.send(());
        let last = done.last().map(|(whole, _, _)| whole.clone());
        let first = documents.span_done(done.len(), last, map);
        for (line, (_, slot, result)) in (first..).zip(done) {
            let (bytes, item) = match (slot, result) {
                (SpanLine::Document(range), Some(result)) => (&map[range], Item::Document(result)),
                (SpanLine::TooLarge, _) => (&[][..], Item::TooLarge(documents.too_large(line))),
                _ => (&[][..], Item::Blank),
            };
            if sink(line, bytes, item)? == Flow::Stop {
                return Ok(());
            }
        }
        released = map.release(released..span.end);
    }
}

#[cfg(test)]
mod tests {
    use crate::io::{Documents, Input, Layout};

    /// A mapped file of `lines` JSON Lines, each `{"n":N}` padded past 1 MiB
    /// in all.
    fn mapped_lines(lines: usize) -> (tempfile::TempDir, Documents) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("lines.jsonl");
        let pad = "p".repeat(1_000);
        let text: String = (0..lines)
            .map(|n| format!("{{\"n\":{n},\"pad\":\"{pad}\"}}\n"))
            .collect();
        std::fs::write(&path, text).unwrap();
        let documents = Documents::open(&Input::Path(path), Layout::JsonLines, 1 << 20).unwrap();
        assert!(documents.mapped().is_some());
        (dir, documents)
    }

    #[test]
    fn every_line_reaches_the_sink_in_order() {
        let (_dir, mut documents) = mapped_lines(3_000);
        let mut seen = Vec::new();
        super::super::for_each_document_bytes(
            &mut documents,
            |bytes| bytes.len(),
            |line, bytes, item| {
                assert!(matches!(item, super::Item::Document(len) if len == bytes.len()));
                seen.push(line);
                Ok(crate::accounting::Flow::Continue)
            },
        )
        .unwrap();
        assert_eq!(seen, (1..=3_000).collect::<Vec<_>>());
    }

    #[test]
    fn a_panic_in_the_work_is_passed_on_not_waited_for() {
        let (_dir, mut documents) = mapped_lines(3_000);
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            super::super::for_each_document_bytes(
                &mut documents,
                |bytes| assert!(!bytes.starts_with(b"{\"n\":2500,"), "line 2501"),
                |_, _, _| Ok(crate::accounting::Flow::Continue),
            )
        }));
        assert!(outcome.is_err());
    }

    #[test]
    fn a_panic_in_the_sink_is_passed_on_not_waited_for() {
        let (_dir, mut documents) = mapped_lines(3_000);
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            super::super::for_each_document_bytes(
                &mut documents,
                |_| (),
                |line, _, _| {
                    assert!(line < 10, "line {line}");
                    Ok(crate::accounting::Flow::Continue)
                },
            )
        }));
        assert!(outcome.is_err());
    }
}
