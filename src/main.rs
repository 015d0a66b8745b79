//! The doorway: the command line's arguments in, its exit code out (the
//! library's [`partkit::main_exit_code`], which the Python package's
//! `partkit` command runs too).

use std::process::ExitCode;

fn main() -> ExitCode {
    ExitCode::from(partkit::main_exit_code(std::env::args_os()))
}
