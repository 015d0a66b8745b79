//! A document's bytes, shared rather than borrowed, so that what is read from
//! them can keep pointing into them ([`crate::json::lent`]) without a copy
//! and without a lifetime on every part of the model.

use std::ops::{Deref, Range};
use std::sync::Arc;

/// A range of a shared buffer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SharedBytes {
    all: Arc<Vec<u8>>,
    range: Range<usize>,
}

impl SharedBytes {
    /// All of `bytes`, shared (no copy).
    pub fn new(bytes: Vec<u8>) -> SharedBytes {
        let range = 0..bytes.len();
        SharedBytes {
            all: Arc::new(bytes),
            range,
        }
    }

    /// `range` of a shared buffer.
    pub fn of(all: &Arc<Vec<u8>>, range: Range<usize>) -> SharedBytes {
        assert!(range.end <= all.len(), "a range within the buffer");
        SharedBytes {
            all: Arc::clone(all),
            range,
        }
    }

    /// `range` (relative to these bytes) of the same buffer.
    pub fn slice(&self, range: Range<usize>) -> SharedBytes {
        assert!(range.end <= self.range.len(), "a range within the bytes");
        let start = self.range.start;
        SharedBytes {
            all: Arc::clone(&self.all),
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
        &self.all[self.range.clone()]
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
        assert!(Arc::ptr_eq(&all.all, &middle.slice(1..3).all));
    }
}
