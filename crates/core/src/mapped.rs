//! A whole file's bytes, mapped into memory when it is a regular file
//! (docs/large-documents.md#mapping): reading a 40 MB cassette copies it
//! from the page cache into a buffer first, which mapping skips; the
//! kernel reads ahead as the reader walks it.
//!
//! This is the one module of the crate that may use `unsafe`. Anything
//! that cannot be mapped — standard input, a pipe, a FIFO, a device, an
//! empty or small file, a file system that refuses — is read into memory
//! instead, so every caller sees the same bytes either way.
//!
//! A mapped file that another process truncates while partkit reads it
//! makes the read of the missing pages fail with SIGBUS, and partkit dies
//! of it (as ripgrep would, whose reasoning this follows). A file changed
//! in place while mapped is read as it is at each moment; partkit reads
//! its inputs once, front to back, so what it reports stays consistent
//! with what it read unless the file is rewritten under it.
#![allow(unsafe_code)]

use std::fs::File;
use std::io::{self, Read};
use std::ops::{Deref, Range};
use std::path::Path;

/// Files smaller than this are read: mapping costs more than it saves.
const MIN_MAPPED: u64 = 1 << 20;

/// What [`Mapped::release`] rounds to: a multiple of every page size in use
/// (4, 16 and 64 KiB), so that a range rounded inward to it never takes in a
/// page that holds bytes outside the range.
const RELEASE_GRAIN: usize = 64 << 10;

/// A file mapped read only.
pub struct Mapped(memmap2::Mmap);

impl Deref for Mapped {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.0
    }
}

impl std::fmt::Debug for Mapped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Mapped({} bytes)", self.0.len())
    }
}

impl Mapped {
    /// Maps `file` when it is a regular file of at least 1 MiB; `None`
    /// otherwise, or when the system refuses (the caller then reads it).
    pub fn large(file: &File) -> Option<Mapped> {
        let meta = file.metadata().ok()?;
        if !meta.is_file() || meta.len() < MIN_MAPPED {
            return None;
        }
        // SAFETY: the map is read only and lives no longer than the returned
        // value; the file is not written by partkit while it is mapped. Another
        // process truncating it is the documented risk above (SIGBUS).
        let map = unsafe { memmap2::Mmap::map(file) }.ok()?;
        #[cfg(unix)]
        let _ = map.advise(memmap2::Advice::Sequential);
        Some(Mapped(map))
    }

    /// Gives back the memory of the pages wholly inside `range`, which the
    /// caller is done with: they stop counting in the process's resident
    /// size, and reading them again reads the file again (the page cache
    /// keeps them). Without it a scan of a 1 GB file would end with 1 GB
    /// resident (docs/large-documents.md#mapping). Returns where the pages
    /// given back end (rounded down from `range.end`), where the next range
    /// to give back may start so as to leave no page out.
    pub fn release(&self, range: Range<usize>) -> usize {
        let start = range.start.next_multiple_of(RELEASE_GRAIN);
        let end = range.end.min(self.0.len()) / RELEASE_GRAIN * RELEASE_GRAIN;
        if start >= end {
            return range.start;
        }
        #[cfg(unix)]
        // SAFETY: the map is a shared, read-only map of a file: dropping its
        // pages changes no byte a reader sees (they are read from the file
        // again), unlike a private writable map, whose changes it would undo.
        let _ = unsafe {
            self.0
                .unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, start, end - start)
        };
        end
    }
}

/// A file's bytes: mapped, or read.
pub enum FileBytes {
    Mapped(Mapped),
    Read(Vec<u8>),
}

impl Deref for FileBytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            FileBytes::Mapped(map) => map,
            FileBytes::Read(bytes) => bytes,
        }
    }
}

impl FileBytes {
    /// Whether the bytes are mapped (for tests and measurements).
    pub fn is_mapped(&self) -> bool {
        matches!(self, FileBytes::Mapped(_))
    }
}

/// The bytes of the file at `path`, mapped when it is a regular file of at
/// least 1 MiB, else read.
pub fn read(path: &Path) -> io::Result<FileBytes> {
    let mut file = File::open(path)?;
    if let Some(map) = Mapped::large(&file) {
        return Ok(FileBytes::Mapped(map));
    }
    let meta = file.metadata()?;
    let mut bytes = Vec::with_capacity(meta.len().try_into().unwrap_or(0));
    file.read_to_end(&mut bytes)?;
    Ok(FileBytes::Read(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn large_regular_files_are_mapped_and_the_rest_read() {
        let dir = tempfile::tempdir().unwrap();
        let big = dir.path().join("big.bin");
        let content: Vec<u8> = (0..(3u32 << 20)).map(|i| (i % 251) as u8).collect();
        std::fs::write(&big, &content).unwrap();
        let mapped = read(&big).unwrap();
        assert!(mapped.is_mapped());
        assert_eq!(&mapped[..], &content[..]);
        let small = dir.path().join("small.txt");
        std::fs::File::create(&small)
            .unwrap()
            .write_all(b"hello")
            .unwrap();
        let read_small = read(&small).unwrap();
        assert!(!read_small.is_mapped());
        assert_eq!(&read_small[..], b"hello");
        let empty = dir.path().join("empty");
        std::fs::write(&empty, b"").unwrap();
        assert_eq!(read(&empty).unwrap().len(), 0);
        assert!(read(&dir.path().join("missing")).is_err());
    }

    #[test]
    fn released_pages_read_the_same() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.bin");
        let content: Vec<u8> = (0..(3u32 << 20)).map(|i| (i % 241) as u8).collect();
        std::fs::write(&path, &content).unwrap();
        let map = Mapped::large(&std::fs::File::open(&path).unwrap()).unwrap();
        assert_eq!(&map[..], &content[..]);
        // Uneven bounds are rounded inward; past the end is cut to it.
        assert_eq!(map.release(1..(2 << 20) + 7), 2 << 20);
        assert_eq!(map.release(5..9), 5, "nothing to give back");
        map.release((2 << 20)..usize::MAX);
        assert_eq!(&map[..], &content[..]);
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_read_not_mapped() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        rustix::fs::mkfifoat(
            rustix::fs::CWD,
            &fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
        )
        .unwrap();
        let writer = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::write(fifo, b"through a pipe").unwrap())
        };
        let bytes = read(&fifo).unwrap();
        writer.join().unwrap();
        assert!(!bytes.is_mapped());
        assert_eq!(&bytes[..], b"through a pipe");
    }
}
