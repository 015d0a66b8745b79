//! The documents of a mapped JSON Lines file through one function, read in
//! spans (docs/large-documents.md#mapping).
//!
//! Each worker takes the next span of whole lines, finds its lines and runs
//! the work on each while its bytes are still in that core's cache; the
//! results go back to the calling thread, which hands them to the sink in
//! input order and numbers the lines as it goes. A reader thread that found
//! every line first would read the whole file from memory once more, and the
//! batch barrier of [`super::for_each_document`] would leave a core idle at
//! the end of every batch; here a core that is done takes the next span.
//! At most [`IN_FLIGHT_PER_WORKER`] spans a worker are cut and not yet handed
//! out, and the pages of each span are given back once its results are.

use std::collections::BTreeMap;
use std::ops::Range;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};

use partkit_core::io::{span_lines, SpanLine};
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
const IN_FLIGHT_PER_WORKER: usize = 4;

/// One line of a span: its range (with its line break), what it holds, and
/// the work's result for a document.
type Done<R> = Vec<(Range<usize>, SpanLine, Option<R>)>;
/// A span's result, or the panic of the work on it.
type Outcome<R> = std::thread::Result<Done<R>>;

/// Runs `work` on every document left in `documents`, a mapped input read
/// as JSON Lines, and passes the results to `sink` as
/// [`super::for_each_document`] does. `blanks` are the numbers of the blank
/// lines read past before the rest, which reach the sink first.
pub(super) fn run<R, W, S>(
    documents: &mut Documents,
    map: Arc<Mapped>,
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
    let workers = rayon::current_num_threads().max(1);
    let limit = documents.limit();
    let (job_tx, job_rx) = mpsc::channel::<(usize, Range<usize>)>();
    let job_rx = Mutex::new(job_rx);
    let (done_tx, done_rx) = mpsc::channel::<(usize, Outcome<R>)>();
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let (done_tx, job_rx, stop, map) = (done_tx.clone(), &job_rx, &stop, &map);
            scope.spawn(move || loop {
                let job = job_rx.lock().map(|jobs| jobs.recv());
                let Ok(Ok((seq, span))) = job else {
                    return;
                };
                if stop.load(Ordering::Relaxed) {
                    return;
                }
                let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
                    let mut done = Vec::new();
                    span_lines(map, span, limit, |whole, line| {
                        let result = match &line {
                            SpanLine::Document(range) => {
                                Some(work(&SharedBytes::of_mapped(map, range.clone())))
                            }
                            _ => None,
                        };
                        done.push((whole, line, result));
                    });
                    done
                }));
                if done_tx.send((seq, outcome)).is_err() {
                    return;
                }
            });
        }
        drop(done_tx);
        let mut job_tx = Some(job_tx);
        let outcome = hand_out(documents, &map, &mut job_tx, &done_rx, workers, &mut sink);
        // The workers end with the jobs: the ones queued are skipped.
        stop.store(true, Ordering::Relaxed);
        drop(job_tx);
        outcome
    })
}

/// Cuts spans for the workers and hands their results to `sink` in order.
fn hand_out<R, S>(
    documents: &mut Documents,
    map: &Arc<Mapped>,
    job_tx: &mut Option<mpsc::Sender<(usize, Range<usize>)>>,
    done_rx: &mpsc::Receiver<(usize, Outcome<R>)>,
    workers: usize,
    sink: &mut S,
) -> Result<()>
where
    S: FnMut(usize, &[u8], Item<R>) -> Result<Flow>,
{
    let mut spans: BTreeMap<usize, Range<usize>> = BTreeMap::new();
    let mut arrived: BTreeMap<usize, Done<R>> = BTreeMap::new();
    let (mut cut, mut next) = (0, 0);
    let mut released = 0;
    loop {
        while cut - next < workers * IN_FLIGHT_PER_WORKER {
            let Some(jobs) = job_tx.as_ref() else { break };
            match documents.next_span(SPAN_BYTES) {
                Some(span) => {
                    spans.insert(cut, span.clone());
                    // A worker gone (it panicked) is found when its result is not.
                    let _ = jobs.send((cut, span));
                    cut += 1;
                }
                None => *job_tx = None,
            }
        }
        if next == cut {
            return Ok(());
        }
        let done = loop {
            if let Some(done) = arrived.remove(&next) {
                break done;
            }
            match done_rx.recv() {
                Ok((seq, Ok(done))) => {
                    arrived.insert(seq, done);
                }
                Ok((_, Err(panicked))) => panic::resume_unwind(panicked),
                Err(_) => unreachable!("the workers end only with the jobs"),
            }
        };
        let span = spans.remove(&next).expect("a span cut");
        next += 1;
        let last = done.last().map(|(whole, _, _)| whole.clone());
        let first = documents.span_done(done.len(), last, map);
        for (line, (_, slot, result)) in (first..).zip(done) {
            let (bytes, item) = match (slot, result) {
                (SpanLine::Document(range), Some(result)) => (&map[range], Item::Document(result)),
                (SpanLine::TooLarge, _) => {
                    (&[][..], Item::TooLarge(documents.too_large_error(line)))
                }
                _ => (&[][..], Item::Blank),
            };
            if sink(line, bytes, item)? == Flow::Stop {
                return Ok(());
            }
        }
        released = map.release(released..span.end);
    }
}
