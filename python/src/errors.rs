//! Failures as the package's exceptions (defined in `partkit/_errors.py`),
//! with the command line's one-line messages.

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

/// Made safe to print, as every message the CLI prints is.
fn one_line(message: &str) -> String {
    partkit::sanitize(message).into_owned()
}
