//! The memory allocator of the binary and of the Python extension
//! (docs/speed.md#the-allocator): small blocks from mimalloc, large ones from
//! the system's allocator.
//!
//! A small document is a few hundred small blocks, made and freed within
//! microseconds; glibc's malloc spends about a third of such a document's
//! time on them, mimalloc a fraction of that. But mimalloc keeps freed
//! large blocks (a 4 MB JSON Lines line buffer, an image) for reuse, which
//! took `split` past its memory bound. So each block goes by its size: up
//! to [`SMALL`] to mimalloc, above it to the system, which gives large
//! blocks back as today. The size travels with every call (`Layout`), so a
//! block is always freed by the allocator that made it.
//!
//! This module may use `unsafe`: an allocator is `unsafe` to implement. It
//! only forwards each call, unchanged, to one of two allocators, and sets
//! two of mimalloc's defaults before its first block ([`set_defaults`]).
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, Ordering};

use mimalloc::MiMalloc;

/// The largest block mimalloc is asked for. Parsed documents, the model and
/// the output of a small document are made of blocks far below it; line
/// buffers, payload copies and pixel buffers are above it.
pub const SMALL: usize = 64 << 10;

/// Small blocks from mimalloc, the rest from the system (see the module).
pub struct Hybrid;

/// Whether mimalloc's defaults are set ([`set_defaults`]).
static DEFAULTS_SET: AtomicBool = AtomicBool::new(false);

/// mimalloc 3's `mi_option_arena_eager_commit` and `mi_option_arena_reserve`
/// (their places in `mi_option_t`; a test checks them against their
/// documented defaults, so that an upgrade that moves them fails it).
const ARENA_EAGER_COMMIT: libmimalloc_sys::mi_option_t = 4;
const ARENA_RESERVE: libmimalloc_sys::mi_option_t = 23;

/// How much address space mimalloc reserves at a time, in KiB.
const RESERVE_KIB: std::ffi::c_long = 64 << 10;

/// Sets mimalloc's defaults before it hands out its first block (an
/// environment variable, `MIMALLOC_ARENA_RESERVE` and the like, still wins).
///
/// By default mimalloc reserves 1 GiB of address space up front and, where
/// the kernel overcommits, maps it readable and writable at once. Untouched,
/// it costs no memory, but it counts against `ulimit -d` and `ulimit -v`: a
/// run capped at 1.3 GB could no longer hold a 512 MiB line. Reserved 64 MiB
/// at a time and made writable as it is used, it counts what it uses.
///
/// It runs on the first block anyone asks for, which is before `main`: the
/// standard library's start-up allocates.
#[cold]
fn set_defaults() {
    // SAFETY: these calls only store numbers in mimalloc's option table;
    // they allocate nothing. Two threads racing here store the same ones.
    unsafe {
        libmimalloc_sys::mi_option_set_default(ARENA_EAGER_COMMIT, 0);
        libmimalloc_sys::mi_option_set_default(ARENA_RESERVE, RESERVE_KIB);
    }
    DEFAULTS_SET.store(true, Ordering::Release);
}

fn small(size: usize) -> bool {
    size <= SMALL
}

/// The alignment every block mimalloc hands out has: its blocks are whole
/// words (8 bytes on 64-bit targets, a pointer's size) laid end to end from a
/// page start aligned to 16. A block that needs no more is asked of
/// `mi_malloc` itself: `mi_malloc_aligned`, which the `mimalloc` crate
/// always calls, takes a longer path for a block whose size is not a power of
/// two (a `String` of 24 bytes), about twice the instructions
/// (docs/speed.md#the-allocator).
const WORD: usize = std::mem::size_of::<usize>();

fn word_aligned(layout: Layout) -> bool {
    layout.align() <= WORD
}

// SAFETY: every call is passed on unchanged to the allocator chosen by the
// block's size, which is part of the layout the caller gives back on
// `dealloc` and `realloc` (the `GlobalAlloc` contract), so a block is freed
// and resized by the allocator that made it. A `realloc` across `SMALL`
// moves the block: it allocates in the other allocator, copies the smaller
// of the two sizes and frees the old block, as `GlobalAlloc::realloc`'s
// default does.
unsafe impl GlobalAlloc for Hybrid {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if !DEFAULTS_SET.load(Ordering::Acquire) {
            set_defaults();
        }
        if small(layout.size()) {
            if word_aligned(layout) {
                // SAFETY: a block of `mi_malloc` is word-aligned (`WORD`) and
                // at least `size` long; it is freed with `mi_free`, as
                // `MiMalloc::dealloc` frees.
                return unsafe { libmimalloc_sys::mi_malloc(layout.size()) }.cast();
            }
            unsafe { MiMalloc.alloc(layout) }
        } else {
            unsafe { System.alloc(layout) }
        }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if !DEFAULTS_SET.load(Ordering::Acquire) {
            set_defaults();
        }
        if small(layout.size()) {
            if word_aligned(layout) {
                // SAFETY: as in `alloc`, zeroed.
                return unsafe { libmimalloc_sys::mi_zalloc(layout.size()) }.cast();
            }
            unsafe { MiMalloc.alloc_zeroed(layout) }
        } else {
            unsafe { System.alloc_zeroed(layout) }
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if small(layout.size()) {
            unsafe { MiMalloc.dealloc(ptr, layout) }
        } else {
            unsafe { System.dealloc(ptr, layout) }
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        match (small(layout.size()), small(new_size)) {
            (true, true) if word_aligned(layout) => {
                // SAFETY: `ptr` is a block of mimalloc's; `mi_realloc` gives a
                // word-aligned block (as `alloc`) holding its first bytes.
                unsafe { libmimalloc_sys::mi_realloc(ptr.cast(), new_size) }.cast()
            }
            (true, true) => unsafe { MiMalloc.realloc(ptr, layout, new_size) },
            (false, false) => unsafe { System.realloc(ptr, layout, new_size) },
            _ => {
                // SAFETY: the caller promises `new_size`, rounded up to the
                // alignment, does not overflow `isize` (`GlobalAlloc::realloc`).
                let new_layout =
                    unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
                let new = unsafe { self.alloc(new_layout) };
                if !new.is_null() {
                    // SAFETY: both blocks are at least the smaller size long,
                    // and they are distinct blocks.
                    unsafe {
                        std::ptr::copy_nonoverlapping(ptr, new, layout.size().min(new_size));
                        self.dealloc(ptr, layout);
                    }
                }
                new
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fills a block with a pattern that tells each byte's place.
    fn fill(ptr: *mut u8, len: usize) {
        for i in 0..len {
            // SAFETY: `ptr` is a live block of at least `len` bytes.
            unsafe { ptr.add(i).write((i % 251) as u8) };
        }
    }

    fn holds_pattern(ptr: *const u8, len: usize) -> bool {
        // SAFETY: `ptr` is a live block of at least `len` bytes.
        (0..len).all(|i| unsafe { ptr.add(i).read() } == (i % 251) as u8)
    }

    /// A block that grows and shrinks across `SMALL` keeps its bytes, and
    /// each step is freed by the allocator that made it (a wrong one would
    /// abort the test run).
    #[test]
    fn resizing_across_the_line_keeps_the_bytes() {
        for align in [1, 8, 64, 4096] {
            for (from, to) in [
                (1000, SMALL + 1),
                (SMALL, SMALL + 1),
                (SMALL + 1, SMALL),
                (4 << 20, 100),
                (100, 200),
                (SMALL + 10, 8 << 20),
            ] {
                let layout = Layout::from_size_align(from, align).unwrap();
                // SAFETY: the layout is not empty; each block is freed once
                // with the layout it has at that point.
                unsafe {
                    let ptr = Hybrid.alloc(layout);
                    assert!(!ptr.is_null());
                    fill(ptr, from);
                    let grown = Hybrid.realloc(ptr, layout, to);
                    assert!(!grown.is_null());
                    assert_eq!(grown as usize % align, 0, "{from} → {to}, align {align}");
                    assert!(holds_pattern(grown, from.min(to)), "{from} → {to}");
                    Hybrid.dealloc(grown, Layout::from_size_align(to, align).unwrap());
                }
            }
        }
    }

    /// Blocks asked of `mi_malloc` itself (alignment up to a word) are
    /// word-aligned at every size a small block has, made, zeroed and
    /// resized, while many are alive (so that pages fill and blocks sit
    /// anywhere in them).
    #[test]
    fn word_aligned_blocks_are_aligned_at_every_size() {
        let mut live = Vec::new();
        let sizes = (8..=2048)
            .step_by(8)
            .chain([4096 - 8, 24 << 10, SMALL - 8, SMALL]);
        for size in sizes {
            for _ in 0..3 {
                let layout = Layout::from_size_align(size, WORD).unwrap();
                // SAFETY: the layout is not empty; every block is freed once
                // below, with the layout it has then.
                unsafe {
                    let made = Hybrid.alloc(layout);
                    let zeroed = Hybrid.alloc_zeroed(layout);
                    assert!(!made.is_null() && !zeroed.is_null());
                    assert!((0..size).all(|i| zeroed.add(i).read() == 0), "{size}");
                    let resized = Hybrid.realloc(made, layout, size + 24);
                    for ptr in [resized, zeroed] {
                        assert_eq!(ptr as usize % WORD, 0, "{size}");
                    }
                    live.push((resized, size + 24));
                    live.push((zeroed, size));
                }
            }
        }
        for (ptr, size) in live {
            // SAFETY: made above with this size and alignment, freed once.
            unsafe { Hybrid.dealloc(ptr, Layout::from_size_align(size, WORD).unwrap()) };
        }
    }

    /// Zeroed blocks are zero on both sides of the line, and aligned.
    #[test]
    fn zeroed_blocks_are_zero() {
        for size in [16, SMALL, SMALL + 1, 2 << 20] {
            let layout = Layout::from_size_align(size, 4096).unwrap();
            // SAFETY: the layout is not empty; the block is freed once.
            unsafe {
                let ptr = Hybrid.alloc_zeroed(layout);
                assert!(!ptr.is_null());
                assert_eq!(ptr as usize % 4096, 0);
                assert!((0..size).all(|i| ptr.add(i).read() == 0), "{size}");
                Hybrid.dealloc(ptr, layout);
            }
        }
    }

    /// The option numbers are mimalloc 3's: the options next to each hold
    /// the defaults of their neighbours in its `mi_option_t`, and each holds
    /// its own default or the value `set_defaults` gives (an upgrade of
    /// mimalloc that renumbers its options fails here). Unless the
    /// environment sets `MIMALLOC_…` options, which the tests' does not.
    #[test]
    fn the_options_are_the_ones_meant() {
        // SAFETY: reading mimalloc's option table.
        let get = |option| unsafe { libmimalloc_sys::mi_option_get(option) };
        // verbose 0, deprecated_eager_commit 1, …, purge_decommits 1.
        let around = |option| (get(option - 2), get(option - 1), get(option + 1));
        assert_eq!(around(ARENA_EAGER_COMMIT), (0, 1, 1));
        // max_warnings 32, …, destroy_on_exit 0, …, arena_purge_mult 1.
        assert_eq!((get(ARENA_RESERVE - 3), get(ARENA_RESERVE - 1)), (32, 0));
        assert_eq!(get(ARENA_RESERVE + 1), 1);
        // Other tests' blocks may have set the defaults already.
        assert!([2, 0].contains(&get(ARENA_EAGER_COMMIT)));
        assert!([1 << 20, RESERVE_KIB].contains(&get(ARENA_RESERVE)));
        set_defaults();
        assert_eq!(
            (get(ARENA_EAGER_COMMIT), get(ARENA_RESERVE)),
            (0, RESERVE_KIB)
        );
    }

    /// The line is where the module says: a small document's blocks go to
    /// mimalloc, a line buffer to the system.
    #[test]
    fn blocks_go_by_size() {
        assert!(small(0) && small(2_400) && small(SMALL));
        assert!(!small(SMALL + 1) && !small(4 << 20));
    }
}
