//! A document handed over from Python: `str` or `bytes` of JSON text (the
//! Python side serializes dicts and lists, and copies other buffers into
//! `bytes`), borrowed without a copy while the call holds it.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

/// Which Python type a document came as, so that a result can go back as
/// the same one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Str,
    Bytes,
}

/// The JSON text of `object` (a `str` or `bytes`), borrowed from it.
pub fn text_of<'a>(object: &'a Bound<'_, PyAny>, what: &str) -> PyResult<(&'a [u8], Kind)> {
    if let Ok(string) = object.cast::<PyString>() {
        // A str Python holds that is no Unicode text (a lone surrogate) is
        // refused as invalid UTF-8 bytes would be.
        let text = string.to_str().map_err(|error| {
            crate::errors::rejected(format!("{what} is not valid Unicode text: {error}"))
        })?;
        return Ok((text.as_bytes(), Kind::Str));
    }
    if let Ok(bytes) = object.cast::<PyBytes>() {
        return Ok((bytes.as_bytes(), Kind::Bytes));
    }
    Err(PyTypeError::new_err(format!(
        "{what} must be str or bytes of JSON text (or a dict or list), not {}",
        object.get_type().name()?
    )))
}

/// `bytes` back to Python as the kind they came as: `str` for `str` (JSON
/// output is UTF-8 whenever its input was).
pub fn to_python(py: Python<'_>, bytes: &[u8], kind: Kind) -> PyResult<Py<PyAny>> {
    Ok(match kind {
        Kind::Bytes => PyBytes::new(py, bytes).into_any().unbind(),
        Kind::Str => PyString::new(py, utf8(bytes)?).into_any().unbind(),
    })
}

/// Output text as `&str`.
pub fn utf8(bytes: &[u8]) -> PyResult<&str> {
    std::str::from_utf8(bytes)
        .map_err(|error| crate::errors::rejected(format!("the output is not UTF-8 text: {error}")))
}
