//! Failures as the package's exceptions (defined in `partkit/_errors.py`),
//! with the command line's one-line messages.

use pyo3::prelude::*;
use pyo3::PyErr;

pyo3::import_exception!(partkit._errors, RejectedError);
pyo3::import_exception!(partkit._errors, UsageError);

/// What the CLI's exit 1 is: the input was read but is refused.
pub fn rejected(message: impl std::fmt::Display) -> PyErr {
    RejectedError::new_err(one_line(&message.to_string()))
}

/// What the CLI's exit 2 is: it could not run as asked.
pub fn usage(message: impl std::fmt::Display) -> PyErr {
    UsageError::new_err(one_line(&message.to_string()))
}

/// A library error as the exception of its exit code, worded as the CLI
/// prints it (after `partkit: error: `).
pub fn of_error(error: partkit::Error) -> PyErr {
    let code = error.exit_code();
    let message = format!("{:#}", anyhow::Error::from(error));
    if code == 1 {
        rejected(message)
    } else {
        usage(message)
    }
}

/// Warnings the library gave, made safe to print as the command line prints
/// them (escaped, and cut where a value from the input runs long).
pub fn said(messages: Vec<String>) -> Vec<String> {
    messages.iter().map(|message| one_line(message)).collect()
}

/// `_native.bound`: a message of the Python side's own made safe to print,
/// by the rule every message of the command line follows.
#[pyfunction]
pub fn bound(message: &str) -> String {
    one_line(message)
}

/// `_native.max_document_size`: the most bytes one document (a source to
/// encode) may have: the default of the command line's
/// `--max-document-size`, which every call of the package is given.
#[pyfunction]
pub fn max_document_size() -> u64 {
    partkit::DEFAULT_MAX_DOCUMENT
}

/// Made safe to print, as every message the CLI prints is.
fn one_line(message: &str) -> String {
    partkit::internals::sanitize(message).into_owned()
}
