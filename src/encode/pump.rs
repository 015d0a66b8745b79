//! Base64 of a byte stream, written as it is read: the bytes pass through a
//! few reused buffers of [`CHUNK`] bytes, so memory does not grow with the
//! input. With more than one worker (the run's rayon pool size), each worker
//! reads the next chunk, encodes it, and hands it to the calling thread, which
//! writes the chunks in order, so that reading, encoding and writing overlap.

use std::collections::BTreeMap;
use std::io::{self, Read, Write};
use std::sync::mpsc;
use std::sync::{Mutex, PoisonError};

/// The bytes encoded at a time: a multiple of 3, so that only the last chunk
/// of a stream is padded. Small enough to stay in a core's cache between the
/// read and the encoding.
pub(super) const CHUNK: usize = 3 * 128 * 1024;

/// The base64 characters of a full chunk.
const ENCODED_CHUNK: usize = CHUNK / 3 * 4;

/// Why a stream could not be written out whole.
#[derive(Debug)]
pub(super) enum PumpError {
    Read(io::Error),
    Write(io::Error),
    /// More than the `--max-part-bytes` cap came (a file that grew).
    OverCap,
}

/// The input side: bytes already taken from the stream (`head`), then the
/// stream itself, cut into chunks in order.
pub(super) struct Feed<'a> {
    head: &'a [u8],
    reader: &'a mut (dyn Read + Send),
    limit: Option<u64>,
    total: u64,
    next_seq: u64,
    done: bool,
}

impl<'a> Feed<'a> {
    pub(super) fn new(
        head: &'a [u8],
        reader: &'a mut (dyn Read + Send),
        limit: Option<u64>,
    ) -> Self {
        Feed {
            head,
            reader,
            limit,
            total: 0,
            next_seq: 0,
            done: false,
        }
    }

    /// Fills `buf` with the next chunk: its place in the stream and its length,
    /// or `None` at the end. Only a chunk cut short by the end of the stream
    /// is shorter than `buf`; after it nothing more is read.
    fn next(&mut self, buf: &mut [u8]) -> Result<Option<(u64, usize)>, PumpError> {
        if self.done {
            return Ok(None);
        }
        let filled = self.fill(buf);
        let n = match filled {
            Ok(n) => n,
            Err(error) => {
                self.done = true;
                return Err(PumpError::Read(error));
            }
        };
        if n < buf.len() {
            self.done = true;
        }
        if n == 0 {
            return Ok(None);
        }
        self.total += n as u64;
        if self.limit.is_some_and(|limit| self.total > limit) {
            self.done = true;
            return Err(PumpError::OverCap);
        }
        let seq = self.next_seq;
        self.next_seq += 1;
        Ok(Some((seq, n)))
    }

    fn fill(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let from_head = self.head.len().min(buf.len());
        buf[..from_head].copy_from_slice(&self.head[..from_head]);
        self.head = &self.head[from_head..];
        let mut n = from_head;
        while n < buf.len() {
            match self.reader.read(&mut buf[n..]) {
                Ok(0) => break,
                Ok(read) => n += read,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(error) => return Err(error),
            }
        }
        Ok(n)
    }

    /// Stops the workers at their next chunk.
    fn stop(&mut self) {
        self.done = true;
    }
}

/// Writes the base64 of everything `feed` yields to `out`, on `workers`
/// threads besides the calling one (none: all on the calling thread).
pub(super) fn pump(feed: Feed<'_>, out: &mut dyn Write, workers: usize) -> Result<(), PumpError> {
    if workers <= 1 {
        return pump_here(feed, out);
    }
    let feed = Mutex::new(feed);
    std::thread::scope(|scope| {
        let (done_tx, done_rx) = mpsc::channel();
        let mut returns = Vec::with_capacity(workers);
        for worker in 0..workers {
            let (return_tx, return_rx) = mpsc::channel();
            // Two buffers each: one is encoded into while the other is written.
            for _ in 0..2 {
                let _ = return_tx.send(vec![0u8; ENCODED_CHUNK]);
            }
            returns.push(return_tx);
            let done_tx = done_tx.clone();
            let feed = &feed;
            scope.spawn(move || work(worker, feed, &return_rx, &done_tx));
        }
        drop(done_tx);
        let result = write_in_order(&done_rx, &returns, out);
        // On an error the workers stop: no more chunks, no more buffers.
        lock(&feed).stop();
        drop(returns);
        result
    })
}

/// One chunk encoded by a worker: its place, the worker (to give the buffer
/// back to) and the buffer with its length, or why the stream broke.
type Encoded = (u64, usize, Result<(Vec<u8>, usize), PumpError>);

fn work(
    worker: usize,
    feed: &Mutex<Feed<'_>>,
    buffers: &mpsc::Receiver<Vec<u8>>,
    done: &mpsc::Sender<Encoded>,
) {
    let mut input = vec![0u8; CHUNK];
    while let Ok(mut output) = buffers.recv() {
        let next = lock(feed).next(&mut input);
        let message = match next {
            Ok(None) => return,
            Ok(Some((seq, n))) => {
                let len = encode(&input[..n], &mut output);
                (seq, worker, Ok((output, len)))
            }
            Err(error) => (u64::MAX, worker, Err(error)),
        };
        if done.send(message).is_err() {
            return;
        }
    }
}

fn write_in_order(
    done: &mpsc::Receiver<Encoded>,
    returns: &[mpsc::Sender<Vec<u8>>],
    out: &mut dyn Write,
) -> Result<(), PumpError> {
    let mut waiting = BTreeMap::new();
    let mut next = 0u64;
    for (seq, worker, encoded) in done {
        waiting.insert(seq, (worker, encoded?));
        while let Some((worker, (buffer, len))) = waiting.remove(&next) {
            out.write_all(&buffer[..len]).map_err(PumpError::Write)?;
            let _ = returns[worker].send(buffer);
            next += 1;
        }
    }
    Ok(())
}

fn pump_here(mut feed: Feed<'_>, out: &mut dyn Write) -> Result<(), PumpError> {
    let mut input = vec![0u8; CHUNK];
    let mut output = vec![0u8; ENCODED_CHUNK];
    while let Some((_, n)) = feed.next(&mut input)? {
        let len = encode(&input[..n], &mut output);
        out.write_all(&output[..len]).map_err(PumpError::Write)?;
    }
    Ok(())
}

/// Encodes `bytes` (at most a chunk) into `output`; the length written.
fn encode(bytes: &[u8], output: &mut [u8]) -> usize {
    base64_simd::STANDARD
        .encode(bytes, base64_simd::Out::from_slice(output))
        .len()
}

/// The feed, even after a worker panicked holding it (the calling thread
/// then sees the chunk missing and the scope reports the panic).
fn lock<'m, 'a>(feed: &'m Mutex<Feed<'a>>) -> std::sync::MutexGuard<'m, Feed<'a>> {
    feed.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pumped(bytes: &[u8], head: usize, workers: usize) -> Vec<u8> {
        let mut rest = &bytes[head..];
        let mut out = Vec::new();
        pump(
            Feed::new(&bytes[..head], &mut rest, None),
            &mut out,
            workers,
        )
        .unwrap();
        out
    }

    #[test]
    fn gives_the_base64_of_the_whole_stream_whatever_the_cut() {
        let bytes: Vec<u8> = (0..CHUNK * 3 + 7).map(|i| (i * 31 % 251) as u8).collect();
        for len in [
            1,
            2,
            3,
            CHUNK - 1,
            CHUNK,
            CHUNK + 1,
            CHUNK * 2 + 2,
            bytes.len(),
        ] {
            let expected = crate::b64::encode(&bytes[..len]).into_bytes();
            for (head, workers) in [(0, 1), (0, 2), (1, 3), (len.min(5), 2), (len, 1)] {
                let got = pumped(&bytes[..len], head, workers);
                assert!(got == expected, "len {len}, head {head}, workers {workers}");
            }
        }
    }

    #[test]
    fn a_stream_over_the_limit_is_refused() {
        let bytes = vec![1u8; CHUNK + 10];
        let mut rest = &bytes[..];
        let feed = Feed::new(&[], &mut rest, Some(CHUNK as u64));
        let result = pump(feed, &mut Vec::new(), 2);
        assert!(matches!(result, Err(PumpError::OverCap)));
    }
}
