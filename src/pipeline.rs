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

use std::sync::{mpsc, Arc};

use rayon::prelude::*;

use crate::accounting::Flow;
use crate::error::{Error, Result};
use crate::io::{Documents, Slot};
use crate::shared::SharedBytes;

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
    documents: Vec<(usize, Slot)>,
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
                    .map(|range| work(*line, &SharedBytes::of(&batch.bytes, range)))
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
                        (&batch.bytes[range], Item::Document(result))
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
            // A batch that held one huge document gives its memory back.
            if batch.bytes.capacity() > 4 * BATCH_BYTES {
                batch.bytes = Arc::default();
            }
            let _ = empty_tx.send(batch);
        }
        outcome
    })
}

/// Reads documents into `batch` until its budget is used; returns whether the
/// input may hold more.
fn fill(documents: &mut Documents, batch: &mut Batch) -> Result<bool> {
    let Batch {
        bytes,
        documents: read,
    } = batch;
    let bytes = batch_buffer(bytes);
    if documents.reads_lines() {
        return documents.fill_lines(bytes, read, BATCH_BYTES, BATCH_LINES);
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
