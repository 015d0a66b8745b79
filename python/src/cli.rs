//! The `partkit` command the wheel installs: the binary's own `main`, run
//! in-process with the arguments Python was given. The one user of the
//! library's `cli` feature here (python/Cargo.toml turns it on for it).

use pyo3::prelude::*;

/// Runs the command line on `args` (the program's name first) and returns
/// its exit code. The GIL is released: the command may run for long, and
/// Python threads (none, from the `partkit` script) go on meanwhile.
#[pyfunction]
pub fn main(py: Python<'_>, args: Vec<std::ffi::OsString>) -> u8 {
    py.detach(|| partkit::main_exit_code(args))
}
