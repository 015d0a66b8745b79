//! `inspect`: the media items of a document (or of every line of JSON Lines
//! text), each as the JSON object a line of `partkit inspect --format json`
//! holds, through [`partkit::inspect::inspect_bytes`].

use pyo3::prelude::*;

use crate::document;
use crate::errors::rejected;

/// The JSON text of each item.
#[pyfunction]
pub fn inspect(py: Python<'_>, doc: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    let (text, _) = document::text_of(doc, "doc")?;
    let items = py
        .detach(|| partkit::inspect::inspect_bytes(text.to_vec(), partkit::DEFAULT_MAX_DOCUMENT))
        .map_err(rejected)?;
    Ok(items
        .iter()
        .map(|item| item.to_json(None).to_string())
        .collect())
}
