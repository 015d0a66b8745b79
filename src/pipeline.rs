//! Many documents through one function, in parallel, results in input order.
//!
//! A reader thread fills batches (one buffer holding up to a budget of
//! documents) while the documents of the previous batch are processed across
//! all cores; each result goes to a sink in the order the documents were read.
//! Memory stays bounded by three batches (each its budget plus at most one
//! document over it): one processed, one read and waiting, one being read.
//! The waiting one is there because a batch ends with its slowest document:
//! while one core finishes it, the other reads on instead of idling (on 2
//! cores, a third less time validating a gigabyte of payload lines than with
//! two batches of twice the budget, in less memory).
//!
//! A mapped JSON Lines file (docs/large-documents.md#mapping) is not copied
//! into batches: a batch is then a list of ranges of the map, and the pages
//! of each batch are given back once its results are written, so that the
//! memory in use stays that of a few batches.

use std::sync::{mpsc, Arc};

use rayon::prelude::*;

use crate::accounting::Flow;
use crate::error::{Error, Result};
use crate::io::{Documents, Slot};
use crate::shared::SharedBytes;
use partkit_core::mapped::Mapped;

mod spans;

/// How many bytes of documents one batch holds before it is processed.
pub const BATCH_BYTES: usize = 3 << 20;
/// How many documents one batch holds.
pub const BATCH_DOCUMENTS: usize = 1024;
/// How many JSON Lines one batch holds: more than [`BATCH_DOCUMENTS`], as the
/// lines read past a batch's budget are copied to the next one (a budget of
/// short lines would otherwise copy most of what was read).
const BATCH_LINES: usize = 1 << 16;

/// Documents read together: their bytes in one buffer (shared, so that a
/// result may point into it until it is written), and each line's number and
/// slot (a document's range in the buffer, a blank line, a line too large).
#[derive(Default)]
struct Batch {
    bytes: Arc<Vec<u8>>,
    /// The mapped file the ranges are of, instead of `bytes`, and where in
    /// it the batch ends.
    mapped: Option<(Arc<Mapped>, usize)>,
    documents: Vec<(usize, Slot)>,
}

impl Batch {
    /// The bytes the ranges of the documents are of.
    fn all(&self) -> &[u8] {
        match &self.mapped {
            Some((map, _)) => map,
            None => &self.bytes,
        }
    }

    /// One document's bytes, shared.
    fn shared(&self, range: std::ops::Range<usize>) -> SharedBytes {
        match &self.mapped {
            Some((map, _)) => SharedBytes::of_mapped(map, range),
            None => SharedBytes::of(&self.bytes, range),
        }
    }
}

/// What the sink gets for one line of the input.
#[derive(Debug)]
pub enum Item<R> {
    /// A document's result.
    Document(R),
    /// A blank line of JSON Lines (no document; `--on-error null` gives it
    /// a `null` line of its own).
    Blank,
    /// A JSON Lines line longer than the document size limit: not read, so
    /// it fails alone.
    TooLarge(Error),
}

/// The buffer of a batch to fill: this one when nothing points into it any
/// more (its contents then mean nothing), else a new one.
fn batch_buffer(bytes: &mut Arc<Vec<u8>>) -> &mut Vec<u8> {
    if Arc::get_mut(bytes).is_none() {
        *bytes = Arc::default();
    }
    Arc::get_mut(bytes).expect("a buffer nothing else holds")
}

/// Runs `work` on every document of `documents` (in parallel) and passes each
/// result, with the document's line and bytes, to `sink` in input order; a
/// JSON Lines line that holds no document reaches `sink` as what it is, with
/// no bytes. The run ends early when `sink` says [`Flow::Stop`] (nothing
/// after that line reaches it) or fails.
pub fn for_each_document<R, W, S>(documents: &mut Documents, work: W, mut sink: S) -> Result<()>
where
    R: Send,
    W: Fn(usize, &SharedBytes) -> R + Sync,
    S: FnMut(usize, &[u8], Item<R>) -> Result<Flow>,
{
    // One batch waits in the channel, no more.
    let (full_tx, full_rx) = mpsc::sync_channel::<Result<Batch>>(1);
    let (empty_tx, empty_rx) = mpsc::channel::<Batch>();
    std::thread::scope(|scope| {
        scope.spawn(move || loop {
            let mut batch = empty_rx.try_recv().unwrap_or_default();
            batch.documents.clear();
            let filled = fill(documents, &mut batch);
            let last = !matches!(filled, Ok(true));
            if full_tx.send(filled.map(|_| batch)).is_err() || last {
                return;
            }
        });
        let mut outcome = Ok(());
        let mut stopped = false;
        // How far the pages of a mapped input were given back.
        let mut released = 0;
        for batch in full_rx {
            let batch = match batch {
                Ok(batch) => batch,
                Err(error) => {
                    outcome = Err(error);
                    break;
                }
            };
            let run = |(line, slot): &(usize, Slot)| {
                slot.document()
                    .map(|range| work(*line, &batch.shared(range)))
            };
            let results: Vec<Option<R>> = if batch.documents.len() == 1 {
                vec![run(&batch.documents[0])]
            } else {
                batch.documents.par_iter().map(run).collect()
            };
            let mut batch = batch;
            let slots = std::mem::take(&mut batch.documents);
            for ((line, slot), result) in slots.into_iter().zip(results) {
                let (bytes, item) = match (slot, result) {
                    (Slot::Document(range), Some(result)) => {
                        (&batch.all()[range], Item::Document(result))
                    }
                    (Slot::TooLarge(error), _) => (&[][..], Item::TooLarge(error)),
                    _ => (&[][..], Item::Blank),
                };
                match sink(line, bytes, item) {
                    Ok(Flow::Continue) => {}
                    Ok(Flow::Stop) => {
                        stopped = true;
                        break;
                    }
                    Err(error) => {
                        outcome = Err(error);
                        break;
                    }
                }
            }
            if outcome.is_err() || stopped {
                break;
            }
            if let Some((map, end)) = batch.mapped.take() {
                released = map.release(released..end);
            }
            // A batch that held one huge document gives its memory back.
            if batch.bytes.capacity() > 4 * BATCH_BYTES {
                batch.bytes = Arc::default();
            }
            let _ = empty_tx.send(batch);
        }
        outcome
    })
}

/// As [`for_each_document`], for work that does not need the line number
/// (it reaches the sink all the same): the rest of a mapped JSON Lines file
/// is then read in spans by the workers themselves ([`spans`]), the fastest
/// way through a large file.
pub fn for_each_document_bytes<R, W, S>(
    documents: &mut Documents,
    work: W,
    mut sink: S,
) -> Result<()>
where
    R: Send,
    W: Fn(&SharedBytes) -> R + Sync,
    S: FnMut(usize, &[u8], Item<R>) -> Result<Flow>,
{
    if documents.mapped().is_none() {
        return for_each_document(documents, |_, bytes| work(bytes), sink);
    }
    // What comes before the lines (a single document, or the first line
    // read to tell JSON Lines) is read one document at a time.
    let mut blanks = Vec::new();
    let mut first = Vec::new();
    while !documents.reads_lines() {
        let Some(line) = documents.next_into(&mut first)? else {
            return Ok(());
        };
        documents.push_blanks_before(line, &mut blanks);
        for (blank, _) in blanks.drain(..) {
            if sink(blank, &[], Item::Blank)? == Flow::Stop {
                return Ok(());
            }
        }
        let bytes = SharedBytes::new(std::mem::take(&mut first));
        let result = work(&bytes);
        if sink(line, &bytes, Item::Document(result))? == Flow::Stop {
            return Ok(());
        }
    }
    let mut numbers = Vec::new();
    let Some(rest) = documents.mapped_rest(&mut numbers) else {
        return Ok(());
    };
    spans::run(documents, rest, numbers, &work, sink)
}

/// Reads documents into `batch` until its budget is used; returns whether the
/// input may hold more.
fn fill(documents: &mut Documents, batch: &mut Batch) -> Result<bool> {
    let Batch {
        bytes,
        mapped,
        documents: read,
    } = batch;
    let bytes = batch_buffer(bytes);
    *mapped = None;
    if documents.reads_lines() {
        let more = documents.fill_lines(bytes, read, BATCH_BYTES, BATCH_LINES)?;
        *mapped = documents.mapped().map(|(map, end)| (Arc::clone(map), end));
        return Ok(more);
    }
    bytes.clear();
    while read.len() < BATCH_DOCUMENTS && bytes.len() < BATCH_BYTES {
        let start = bytes.len();
        match documents.next_append(bytes)? {
            Some(line) => {
                documents.push_blanks_before(line, read);
                read.push((line, Slot::Document(start..bytes.len())));
            }
            None => return Ok(false),
        }
        if documents.reads_lines() {
            // The rest of JSON Lines goes into the batch as lines.
            break;
        }
    }
    Ok(true)
}
