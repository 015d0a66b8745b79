//! One shadow buffer a thread keeps from one document to the next.
//!
//! Why: converting thousands of small documents allocated a shadow of a
//! kilobyte or two for each. With glibc, every allocation of 1 KiB or more
//! first merges the small blocks freed since (the last document's tree), so
//! that the next document's small allocations were then served the slow way
//! (6 % of a small document's conversion, by callgrind). A buffer kept for
//! the next document allocates nothing. Only small buffers are kept, so a
//! thread holds at most [`KEPT`] bytes here.

use std::cell::Cell;

/// The largest buffer kept, and the most room asked of one.
pub(super) const KEPT: usize = 1 << 16;

thread_local! {
    static SPARE: Cell<Vec<u8>> = const { Cell::new(Vec::new()) };
}

/// An empty buffer with room for `len` bytes: the one given back last, if
/// any.
pub(super) fn take(len: usize) -> Vec<u8> {
    let mut buffer = SPARE.with(Cell::take);
    buffer.reserve(len);
    buffer
}

/// Keeps `buffer` for the next [`take`] on this thread, if it is small.
pub(super) fn give_back(mut buffer: Vec<u8>) {
    if buffer.capacity() <= KEPT {
        buffer.clear();
        SPARE.with(|spare| spare.set(buffer));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_buffer_is_used_again_and_a_large_one_is_not_kept() {
        let mut buffer = take(100);
        buffer.extend_from_slice(b"shadow");
        let at = buffer.as_ptr();
        give_back(buffer);
        let again = take(50);
        assert!(again.is_empty());
        assert_eq!(again.as_ptr(), at, "the buffer given back");
        give_back(Vec::with_capacity(KEPT + 1));
        assert_eq!(take(0).capacity(), 0, "nothing kept");
    }

    #[test]
    fn documents_parsed_one_after_another_do_not_see_each_other() {
        let b64 = "QUJD".repeat(40);
        let first = format!(r#"{{"data":"{b64}","text":"first, and longer than the next"}}"#);
        let second = format!(r#"{{"data":"{b64}","t":"2"}}"#);
        let parsed = super::super::parse(first.as_bytes()).unwrap();
        drop(parsed);
        let parsed = super::super::parse(second.as_bytes()).unwrap();
        let expected: serde_json::Value =
            serde_json::from_str(&second.replace(&b64, "\u{E000}0\u{E001}")).unwrap();
        assert_eq!(parsed.value, expected);
    }
}
