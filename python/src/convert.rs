//! `convert` (one document) and `convert_lines` (many, on every core with
//! the GIL released): [`partkit::convert::document::convert_document`], as
//! `partkit convert` runs it on each document.

use partkit::convert::document::{convert_document, ConvertRequest};
use partkit::convert::ConvertError;
use partkit::SharedBytes;
use pyo3::prelude::*;
use pyo3::types::PyList;
use rayon::prelude::*;

use crate::document;
use crate::errors::{rejected, usage};
use crate::options::ConvertArgs;
use crate::pool;

/// One document's output and notes, or why it failed.
type Outcome = Result<(Vec<u8>, Vec<String>), String>;

/// One document's output, the name of the shape it was read as, and its notes.
type Converted = (Vec<u8>, Option<&'static str>, Vec<String>);

/// Converts one document (the Python side's JSON text); returns the output
/// text, the source shape's name and the notes.
#[pyfunction]
pub fn convert(
    py: Python<'_>,
    doc: &Bound<'_, PyAny>,
    options: ConvertArgs,
) -> PyResult<(Py<PyAny>, Option<&'static str>, Vec<String>)> {
    let request = options.request()?;
    let (text, kind) = document::text_of(doc, "doc")?;
    let (output, source, notes) = py
        .detach(|| convert_one(text, &request))
        .map_err(rejected)?;
    Ok((
        document::to_python(py, &output, kind)?,
        source,
        crate::errors::said(notes),
    ))
}

/// Converts every line (JSON text each) in parallel; returns per line the
/// output (`None` when it failed), and the failures and notes by index.
#[pyfunction]
#[allow(clippy::type_complexity)]
pub fn convert_lines(
    py: Python<'_>,
    lines: &Bound<'_, PyList>,
    options: ConvertArgs,
    threads: Option<usize>,
) -> PyResult<(
    Vec<Option<Py<PyAny>>>,
    Vec<(usize, String)>,
    Vec<(usize, Vec<String>)>,
)> {
    let request = options.request()?;
    if threads == Some(0) {
        return Err(usage("threads=0: give at least 1 (or None for every core)"));
    }
    // Hold every line (the list may change under another thread) and borrow
    // its text for the whole call.
    let items: Vec<Bound<'_, PyAny>> = lines.iter().collect();
    let mut texts = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        // A missing value (a null cell of a Spark or pandas column) is a
        // failed line, not a failed batch.
        texts.push(match item.is_none() {
            true => None,
            false => Some(document::text_of(item, &format!("lines[{index}]"))?),
        });
    }
    let outcomes: Vec<Outcome> = py
        .detach(|| {
            pool::run(threads, || {
                texts
                    .par_iter()
                    .map(|line| match line {
                        Some((text, _)) => convert_line(text, &request),
                        None => Err("None: no document to convert".to_string()),
                    })
                    .collect()
            })
        })
        .map_err(usage)?;
    let mut outputs = Vec::with_capacity(outcomes.len());
    let mut errors = Vec::new();
    let mut notes = Vec::new();
    for (index, (outcome, line)) in outcomes.into_iter().zip(&texts).enumerate() {
        match (outcome, line) {
            (Ok((output, said)), Some((_, form))) => {
                outputs.push(Some(document::to_python(py, &output, *form)?));
                if !said.is_empty() {
                    notes.push((index, crate::errors::said(said)));
                }
            }
            (Ok(_), None) => unreachable!("a missing line has no output"),
            (Err(message), _) => {
                outputs.push(None);
                errors.push((index, message));
            }
        }
    }
    Ok((outputs, errors, notes))
}

/// One line, as `partkit convert --jsonl` converts it: a failure is its
/// message.
fn convert_line(text: &[u8], request: &ConvertRequest) -> Outcome {
    convert_one(text, request)
        .map(|(output, _, notes)| (output, notes))
        .map_err(|error| partkit::internals::sanitize(&error.to_string()).into_owned())
}

/// One document: the output, the shape it was read as, the notes.
fn convert_one(text: &[u8], request: &ConvertRequest) -> Result<Converted, ConvertError> {
    let input = SharedBytes::new(text.to_vec());
    let mut converted = convert_document(&input, request)?;
    let notes = std::mem::take(&mut converted.notes);
    let source = converted.source.map(|shape| shape.name());
    Ok((converted.into_bytes(&input), source, notes))
}
