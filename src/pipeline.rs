//! Many documents through one function, in parallel, results in input order.
//!
//! Documents are read in batches bounded by a byte budget, processed across all
//! cores, and handed to a sink one at a time in the order they were read, so
//! memory stays bounded by the budget plus the largest document.

use rayon::prelude::*;

use crate::error::Result;
use crate::io::Documents;

/// How many bytes of documents one batch may hold before it is processed.
pub const BATCH_BYTES: usize = 16 << 20;
/// How many documents one batch may hold.
pub const BATCH_DOCUMENTS: usize = 1024;

/// Runs `work` on every document of `documents` (in parallel) and passes each
/// result, with the document's line, to `sink` in input order.
pub fn for_each_document<R, W, S>(documents: &mut Documents, work: W, mut sink: S) -> Result<()>
where
    R: Send,
    W: Fn(usize, &[u8]) -> R + Sync,
    S: FnMut(usize, R) -> Result<()>,
{
    let mut buffers: Vec<Vec<u8>> = Vec::new();
    let mut lines: Vec<usize> = Vec::new();
    loop {
        let mut used = 0;
        let mut count = 0;
        while count < BATCH_DOCUMENTS && used < BATCH_BYTES {
            if buffers.len() == count {
                buffers.push(Vec::new());
            }
            match documents.next_into(&mut buffers[count])? {
                Some(line) => {
                    used += buffers[count].len();
                    if lines.len() == count {
                        lines.push(line);
                    } else {
                        lines[count] = line;
                    }
                    count += 1;
                }
                None => break,
            }
        }
        if count == 0 {
            return Ok(());
        }
        let results: Vec<R> = if count == 1 {
            vec![work(lines[0], &buffers[0])]
        } else {
            buffers[..count]
                .par_iter()
                .zip(&lines[..count])
                .map(|(bytes, line)| work(*line, bytes))
                .collect()
        };
        for (line, result) in lines[..count].iter().zip(results) {
            sink(*line, result)?;
        }
        // Buffers keep their capacity for the next batch, but not without bound:
        // a few long lines must not leave every slot the size of the longest.
        let capacity: usize = buffers.iter().map(Vec::capacity).sum();
        if capacity > 2 * BATCH_BYTES {
            for buffer in &mut buffers {
                buffer.clear();
                buffer.shrink_to_fit();
            }
        }
        if count < BATCH_DOCUMENTS && used < BATCH_BYTES {
            return Ok(());
        }
    }
}
