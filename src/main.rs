//! The doorway: the command line's arguments in, its exit code out (the
//! library's [`partkit::main_exit_code`], which the Python package's
//! `partkit` command runs too).

use std::process::ExitCode;

/// Small blocks from mimalloc, large ones from the system (docs/speed.md#the-allocator).
#[cfg(feature = "alloc")]
#[global_allocator]
static ALLOCATOR: partkit_core::alloc::Hybrid = partkit_core::alloc::Hybrid;

fn main() -> ExitCode {
    ExitCode::from(partkit::main_exit_code(std::env::args_os()))
}
