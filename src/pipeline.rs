//! Many documents through one function, in parallel, results in input order.
//!
//! A reader thread fills batches (one buffer holding up to a budget of
//! documents) while the documents of the previous batch are processed across
//! all cores; each result goes to a sink in the order the documents were read.
//! Memory stays bounded by two batches (each its budget plus at most one
//! document over it): the reader fills the next batch while one is processed
//! and hands it over only when that one is done.

use std::ops::Range;
use std::sync::{mpsc, Arc};

use rayon::prelude::*;

use crate::accounting::Flow;
use crate::error::Result;
use crate::io::Documents;
use crate::shared::SharedBytes;

/// How many bytes of documents one batch holds before it is processed.
pub const BATCH_BYTES: usize = 8 << 20;
/// How many documents one batch holds.
pub const BATCH_DOCUMENTS: usize = 1024;

/// Documents read together: their bytes in one buffer (shared, so that a
/// result may point into it until it is written), and each one's line and
/// range in it.
#[derive(Default)]
struct Batch {
    bytes: Arc<Vec<u8>>,
    documents: Vec<(usize, Range<usize>)>,
}

impl Batch {
    /// The buffer to fill: this one when nothing points into it any more.
    fn buffer(&mut self) -> &mut Vec<u8> {
        if Arc::get_mut(&mut self.bytes).is_none() {
            self.bytes = Arc::default();
        }
        Arc::get_mut(&mut self.bytes).expect("a buffer nothing else holds")
    }
}

/// Runs `work` on every document of `documents` (in parallel) and passes each
/// result, with the document's line and bytes, to `sink` in input order. The run ends
/// early when `sink` says [`Flow::Stop`] (nothing after that document reaches
/// it) or fails.
pub fn for_each_document<R, W, S>(documents: &mut Documents, work: W, mut sink: S) -> Result<()>
where
    R: Send,
    W: Fn(usize, &SharedBytes) -> R + Sync,
    S: FnMut(usize, &[u8], R) -> Result<Flow>,
{
    // A rendezvous: no third batch waits in the channel.
    let (full_tx, full_rx) = mpsc::sync_channel::<Result<Batch>>(0);
    let (empty_tx, empty_rx) = mpsc::channel::<Batch>();
    std::thread::scope(|scope| {
        scope.spawn(move || loop {
            let mut batch = empty_rx.try_recv().unwrap_or_default();
            batch.buffer().clear();
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
            let results: Vec<R> = if batch.documents.len() == 1 {
                let (line, range) = &batch.documents[0];
                vec![work(*line, &SharedBytes::of(&batch.bytes, range.clone()))]
            } else {
                batch
                    .documents
                    .par_iter()
                    .map(|(line, range)| work(*line, &SharedBytes::of(&batch.bytes, range.clone())))
                    .collect()
            };
            for ((line, range), result) in batch.documents.iter().zip(results) {
                match sink(*line, &batch.bytes[range.clone()], result) {
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
            let mut batch = batch;
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
    let bytes = Arc::get_mut(bytes).expect("a buffer cleared for filling is held only here");
    while read.len() < BATCH_DOCUMENTS && bytes.len() < BATCH_BYTES {
        let start = bytes.len();
        match documents.next_append(bytes)? {
            Some(line) => read.push((line, start..bytes.len())),
            None => return Ok(false),
        }
    }
    Ok(true)
}
