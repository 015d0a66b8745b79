//! Lending from a file: a whole document scanned a chunk at a time through
//! one small buffer, so that its payloads are never all in memory (nor
//! faulted into fresh pages, which on a small machine costs more than
//! reading them); each is read again where it is needed.

use std::fs::File;
use std::io;
use std::ops::Range;
use std::os::unix::fs::FileExt;
use std::time::SystemTime;

use super::scan::{Reread, Scanner};
use super::Payloads;

/// The bytes read at a time.
const CHUNK: usize = 256 * 1024;

/// A file's document with its payloads found: the text to parse and where
/// each payload is in the file.
#[derive(Debug)]
pub struct FileScan {
    pub shadow: Vec<u8>,
    pub payloads: Payloads,
    len: u64,
    modified: Option<SystemTime>,
}

impl FileScan {
    /// Whether the file still has the size and time it had when scanned
    /// (a file rewritten since would lend other bytes).
    pub fn unchanged(&self, file: &File) -> bool {
        file.metadata()
            .is_ok_and(|m| m.len() == self.len && m.modified().ok() == self.modified)
    }
}

struct Again<'f>(&'f File);

impl Reread for Again<'_> {
    fn reread(&mut self, range: Range<usize>, into: &mut Vec<u8>) -> io::Result<()> {
        let start = into.len();
        into.resize(start + range.len(), 0);
        self.0.read_exact_at(&mut into[start..], range.start as u64)
    }
}

/// Scans a regular file holding one JSON object or array. `None` when there
/// is nothing to lend or it cannot be lent (see [`super::scan`]), or when
/// the text left once its payloads are out is more than `max` bytes (the
/// document limit): the caller reads the file as before.
pub fn scan_file(file: &File, max: u64) -> io::Result<Option<FileScan>> {
    let metadata = file.metadata()?;
    let mut scanner = Scanner::default();
    let mut buffer = vec![0; CHUNK];
    let mut at = 0usize;
    loop {
        let n = match file.read_at(&mut buffer, at as u64) {
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if n == 0 {
            break;
        }
        scanner.chunk(at, &buffer[..n], &mut Again(file))?;
        at += n;
        if scanner.refused() || scanner.held() as u64 > max {
            // JSON Lines, say, or more text than a document may hold: read
            // no further (the line reader reports a document too large).
            return Ok(None);
        }
    }
    if at as u64 != metadata.len() {
        return Ok(None);
    }
    Ok(scanner.finish(at).map(|found| FileScan {
        shadow: found.shadow,
        payloads: Payloads {
            ranges: found.payloads,
            strict: found.strict,
        },
        len: metadata.len(),
        modified: metadata.modified().ok(),
    }))
}
