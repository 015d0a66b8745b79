//! Where [`Documents`](super::Documents) read from: any buffered reader, or a
//! mapped file, whose JSON Lines are then found in the map itself rather than
//! copied out (docs/large-documents.md#mapping).

use std::io::{self, BufRead, Read};
use std::sync::Arc;

use crate::mapped::Mapped;

/// A reader of documents.
pub(super) enum Source {
    Buffered(Box<dyn BufRead + Send>),
    /// A mapped file and how far it has been consumed.
    Mapped {
        map: Arc<Mapped>,
        at: usize,
    },
}

impl Read for Source {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Source::Buffered(reader) => reader.read(buf),
            Source::Mapped { map, at } => {
                let rest = &map[*at..];
                let n = rest.len().min(buf.len());
                buf[..n].copy_from_slice(&rest[..n]);
                *at += n;
                Ok(n)
            }
        }
    }
}

impl BufRead for Source {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        match self {
            Source::Buffered(reader) => reader.fill_buf(),
            Source::Mapped { map, at } => Ok(&map[*at..]),
        }
    }

    fn consume(&mut self, amount: usize) {
        match self {
            Source::Buffered(reader) => reader.consume(amount),
            Source::Mapped { map, at } => *at = (*at + amount).min(map.len()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mapped_source_reads_and_consumes_like_a_buffered_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("lines.jsonl");
        let text: Vec<u8> = (0..150_000)
            .flat_map(|i| format!("{{\"n\":{i}}}\n").into_bytes())
            .collect();
        std::fs::write(&path, &text).unwrap();
        let map = Mapped::large(&std::fs::File::open(&path).unwrap()).unwrap();
        let mut source = Source::Mapped {
            map: Arc::new(map),
            at: 0,
        };
        let mut first = String::new();
        source.read_line(&mut first).unwrap();
        assert_eq!(first, "{\"n\":0}\n");
        let mut rest = Vec::new();
        source.read_to_end(&mut rest).unwrap();
        assert_eq!(rest, &text[first.len()..]);
        assert!(source.fill_buf().unwrap().is_empty());
    }
}
