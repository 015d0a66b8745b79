//! A document's bytes, shared rather than borrowed, so that what is read from
//! them can keep pointing into them ([`crate::json::lent`]) without a copy
//! and without a lifetime on every part of the model. The buffer is memory
//! of partkit's own or a mapped file (a JSON Lines file is read through its
//! map without a copy, docs/large-documents.md#mapping).

use std::ops::{Deref, Range};
use std::sync::Arc;

use crate::mapped::Mapped;

/// A range of a shared buffer.
#[derive(Clone, Default)]
pub struct SharedBytes {
    all: Buffer,
    range: Range<usize>,
}

/// What a [`SharedBytes`] points into.
#[derive(Clone)]
enum Buffer {
    Owned(Arc<Vec<u8>>),
    Mapped(Arc<Mapped>),
}

impl Default for Buffer {
    fn default() -> Buffer {
        Buffer::Owned(Arc::default())
    }
}

impl Buffer {
    fn bytes(&self) -> &[u8] {
        match self {
            Buffer::Owned(bytes) => bytes,
            Buffer::Mapped(map) => map,
        }
    }
}

impl PartialEq for SharedBytes {
    fn eq(&self, other: &SharedBytes) -> bool {
        **self == **other
    }
}

impl Eq for SharedBytes {}

impl std::fmt::Debug for SharedBytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "SharedBytes({} bytes at {:?})",
            self.range.len(),
            self.range
        )
    }
}

impl SharedBytes {
    /// All of `bytes`, shared (no copy).
    pub fn new(bytes: Vec<u8>) -> SharedBytes {
        let range = 0..bytes.len();
        SharedBytes {
            all: Buffer::Owned(Arc::new(bytes)),
            range,
        }
    }

    /// `range` of a shared buffer.
    pub fn of(all: &Arc<Vec<u8>>, range: Range<usize>) -> SharedBytes {
        assert!(range.end <= all.len(), "a range within the buffer");
        SharedBytes {
            all: Buffer::Owned(Arc::clone(all)),
            range,
        }
    }

    /// `range` of a mapped file.
    pub fn of_mapped(map: &Arc<Mapped>, range: Range<usize>) -> SharedBytes {
        assert!(range.end <= map.len(), "a range within the file");
        SharedBytes {
            all: Buffer::Mapped(Arc::clone(map)),
            range,
        }
    }

    /// `range` (relative to these bytes) of the same buffer.
    pub fn slice(&self, range: Range<usize>) -> SharedBytes {
        assert!(range.end <= self.range.len(), "a range within the bytes");
        let start = self.range.start;
        SharedBytes {
            all: self.all.clone(),
            range: start + range.start..start + range.end,
        }
    }
}

impl From<Vec<u8>> for SharedBytes {
    fn from(bytes: Vec<u8>) -> SharedBytes {
        SharedBytes::new(bytes)
    }
}

impl AsRef<[u8]> for SharedBytes {
    fn as_ref(&self) -> &[u8] {
        self
    }
}

impl Deref for SharedBytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.all.bytes()[self.range.clone()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_share_the_buffer() {
        let all = SharedBytes::new(b"0123456789".to_vec());
        let middle = all.slice(2..8);
        assert_eq!(&*middle, b"234567");
        assert_eq!(&*middle.slice(1..3), b"34");
        let (Buffer::Owned(a), Buffer::Owned(b)) = (&all.all, &middle.slice(1..3).all) else {
            panic!("owned buffers");
        };
        assert!(Arc::ptr_eq(a, b));
    }
}
