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
use std::ops::Deref;
use std::path::Path;

/// Files smaller than this are read: mapping costs more than it saves.
const MIN_MAPPED: u64 = 1 << 20;

/// A file's bytes: mapped, or read.
pub enum FileBytes {
    Mapped(memmap2::Mmap),
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
    let meta = file.metadata()?;
    if meta.is_file() && meta.len() >= MIN_MAPPED {
        // SAFETY: the map is read only and lives no longer than the returned
        // value; the file is not written by partkit while it is mapped. Another
        // process truncating it is the documented risk above (SIGBUS).
        if let Ok(map) = unsafe { memmap2::Mmap::map(&file) } {
            #[cfg(unix)]
            let _ = map.advise(memmap2::Advice::Sequential);
            return Ok(FileBytes::Mapped(map));
        }
    }
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
