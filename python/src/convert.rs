//! `convert` (one document) and `convert_lines` (many, on every core with
//! the GIL released): [`partkit::convert::document::convert_document`], as
//! `partkit convert` runs it on each document. A document given as Python
//! data is converted as data where it can be (`data.rs`), else as the JSON
//! text the Python side makes of it.

use partkit::convert::document::{convert_document, ConvertRequest, ConvertedValue};
use partkit::convert::ConvertError;
use partkit::SharedBytes;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};
use rayon::prelude::*;

use crate::data::{self, Payloads, Walked};
use crate::document::{self, Kind};
use crate::errors::{rejected, usage};
use crate::options::ConvertArgs;
use crate::pool;

/// One document's output, the name of the shape it was read as, and its notes.
type Converted = (Vec<u8>, Option<&'static str>, Vec<String>);

/// One document's output as Python data, the name of the shape it was read
/// as, and its notes.
type ConvertedData = (Py<PyAny>, &'static str, Vec<String>);

/// Converts one document (JSON text); returns the output text, the source
/// shape's name and the notes.
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

/// Converts one document given as Python data without JSON text: the
/// output as Python data, the source shape's name and the notes; `None`
/// when it must go the text route instead (see `data.rs`).
#[pyfunction]
pub fn convert_data(
    py: Python<'_>,
    doc: &Bound<'_, PyAny>,
    options: ConvertArgs,
) -> PyResult<Option<ConvertedData>> {
    let request = options.request()?;
    let Some(walked) = walked(doc, &request, Payloads::InPlace) else {
        return Ok(None);
    };
    // With the GIL held: the payloads are read where they are, under it
    // (taking it for each read on another thread would queue behind every
    // other Python thread). One document converts in milliseconds.
    let converted = walked.convert(&request).map_err(rejected)?;
    let value = walked.to_python(py, &converted)?;
    Ok(Some((
        value.unbind(),
        converted.source.name(),
        crate::errors::said(converted.notes),
    )))
}

/// `doc` walked, when it is data the request can convert as data.
fn walked(doc: &Bound<'_, PyAny>, request: &ConvertRequest, payloads: Payloads) -> Option<Walked> {
    let data = doc.is_exact_instance_of::<PyDict>() || doc.is_exact_instance_of::<PyList>();
    data.then(|| data::walk(doc, payloads).ok())
        .flatten()
        .filter(|walked| walked.fits(request))
}

/// One line handed over.
enum Line<'a> {
    /// `None` (a null cell of a Spark or pandas column): a failed line, not
    /// a failed batch.
    Missing,
    Text(&'a [u8], Kind),
    Data(Walked),
}

/// One line's output.
enum Output {
    Text(Vec<u8>),
    Data(ConvertedValue),
}

/// Converts every line in parallel: each a document's JSON text (`str` or
/// `bytes`), Python data (`dict` or `list`, converted as data where it can
/// be, else its text as `text_of(line, what)` makes it), or `None`. Returns
/// per line the output (`None` when it failed; data for a line converted as
/// data), and the failures and notes by index.
#[pyfunction]
#[allow(clippy::type_complexity)]
pub fn convert_lines(
    py: Python<'_>,
    lines: &Bound<'_, PyList>,
    options: ConvertArgs,
    threads: Option<usize>,
    text_of: &Bound<'_, PyAny>,
) -> PyResult<(
    Vec<Option<Py<PyAny>>>,
    Vec<(usize, String)>,
    Vec<(usize, Vec<String>)>,
)> {
    let request = options.request()?;
    if threads == Some(0) {
        return Err(usage("threads=0: give at least 1 (or None for every core)"));
    }
    // Hold every line and every text made for one (the list may change
    // under another thread), and borrow the texts for the whole call.
    let items: Vec<Bound<'_, PyAny>> = lines.iter().collect();
    let mut made: Vec<Option<Bound<'_, PyAny>>> = Vec::with_capacity(items.len());
    let mut walks: Vec<Option<Walked>> = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        let walk = walked(item, &request, Payloads::Copied);
        // `str` and `bytes` are text already; whatever else is not walked
        // (other data, other buffers, the wrong type) is the Python side's
        // to turn into text or refuse.
        let text =
            item.is_exact_instance_of::<PyString>() || item.is_exact_instance_of::<PyBytes>();
        made.push(match walk.is_none() && !text && !item.is_none() {
            true => Some(text_of.call1((item, format!("lines[{index}]")))?),
            false => None,
        });
        walks.push(walk);
    }
    let mut texts = Vec::with_capacity(items.len());
    for (index, (item, made)) in items.iter().zip(&made).enumerate() {
        let what = || format!("lines[{index}]");
        texts.push(match made {
            Some(text) => Some(document::text_of(text, &what())?),
            None if item.is_none() || walks[index].is_some() => None,
            None => Some(document::text_of(item, &what())?),
        });
    }
    let mut todo = Vec::with_capacity(items.len());
    for (walk, text) in walks.into_iter().zip(&texts) {
        todo.push(match (walk, text) {
            (Some(walked), _) => Line::Data(walked),
            (None, Some((text, kind))) => Line::Text(text, *kind),
            (None, None) => Line::Missing,
        });
    }
    let outcomes: Vec<Result<(Output, Vec<String>), String>> = py
        .detach(|| {
            pool::run(threads, || {
                todo.par_iter()
                    .map(|line| convert_line(line, &request))
                    .collect()
            })
        })
        .map_err(usage)?;
    let mut outputs = Vec::with_capacity(outcomes.len());
    let mut errors = Vec::new();
    let mut notes = Vec::new();
    for (index, (outcome, line)) in outcomes.into_iter().zip(&todo).enumerate() {
        match outcome {
            Ok((output, said)) => {
                outputs.push(Some(match (output, line) {
                    (Output::Data(converted), Line::Data(walked)) => {
                        walked.to_python(py, &converted)?.unbind()
                    }
                    (Output::Text(text), Line::Text(_, kind)) => {
                        document::to_python(py, &text, *kind)?
                    }
                    _ => unreachable!("a line's output is of its own kind"),
                }));
                if !said.is_empty() {
                    notes.push((index, crate::errors::said(said)));
                }
            }
            Err(message) => {
                outputs.push(None);
                errors.push((index, message));
            }
        }
    }
    Ok((outputs, errors, notes))
}

/// One line, as `partkit convert --jsonl` converts it: a failure is its
/// message.
fn convert_line(
    line: &Line<'_>,
    request: &ConvertRequest,
) -> Result<(Output, Vec<String>), String> {
    let said = |error: ConvertError| partkit::internals::sanitize(&error.to_string()).into_owned();
    match line {
        Line::Missing => Err("None: no document to convert".to_string()),
        Line::Text(text, _) => convert_one(text, request)
            .map(|(output, _, notes)| (Output::Text(output), notes))
            .map_err(said),
        Line::Data(walked) => walked
            .convert(request)
            .map(|mut converted| {
                let notes = std::mem::take(&mut converted.notes);
                (Output::Data(converted), notes)
            })
            .map_err(said),
    }
}

/// One document: the output, the shape it was read as, the notes.
fn convert_one(text: &[u8], request: &ConvertRequest) -> Result<Converted, ConvertError> {
    let input = SharedBytes::new(text.to_vec());
    let mut converted = convert_document(&input, request)?;
    let notes = std::mem::take(&mut converted.notes);
    let source = converted.source.map(|shape| shape.name());
    Ok((converted.into_bytes(&input), source, notes))
}
