//! `encode`: one source (a path, a `data:` or http(s) URL, or bytes) as one
//! block of a shape, through [`partkit::encode::encode`].

use partkit::encode::{EncodeOptions, SourceSpec};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::errors::{of_error, said, usage};
use crate::options::choice;
use partkit::Shape;

/// The block's JSON text and the warnings met on the way.
#[pyfunction]
#[pyo3(signature = (source, label, to, name, mime_type, max_part_bytes))]
#[allow(clippy::too_many_arguments)]
pub fn encode(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    label: Option<String>,
    to: &str,
    name: Option<String>,
    mime_type: Option<&str>,
    max_part_bytes: Option<u64>,
) -> PyResult<(String, Vec<String>)> {
    let spec = if let Ok(text) = source.cast::<PyString>() {
        match SourceSpec::classify(text.to_str()?) {
            // A Python caller's "-" is a file of that name, not its stdin.
            SourceSpec::Stdin => SourceSpec::Path("-".into()),
            spec => spec,
        }
    } else if let Ok(bytes) = source.cast::<PyBytes>() {
        SourceSpec::Bytes {
            bytes: bytes.as_bytes().to_vec(),
            label,
        }
    } else {
        SourceSpec::Path(source.extract()?)
    };
    let mime_type = match mime_type {
        Some(given) => Some(partkit::media::normalize(given).ok_or_else(|| {
            usage(format!(
                "mime_type={}: not a media type of the form type/subtype",
                partkit::internals::quoted(given)
            ))
        })?),
        None => None,
    };
    let options = EncodeOptions {
        sources: vec![spec],
        mime_type,
        name,
        max_part_bytes,
        to: block_shape(to)?,
        ..EncodeOptions::default()
    };
    let encoded = py
        .detach(|| partkit::encode::encode(&options))
        .map_err(of_error)?;
    let Some(block) = encoded.blocks.first() else {
        return Err(usage("the source made no block"));
    };
    Ok((block.to_string(), said(encoded.warnings)))
}

/// The shape whose blocks to write, by the name `encode --to` gives it (a
/// NeMo Gym part is a `tool-output-image`; `nemo-gym` is taken too).
fn block_shape(name: &str) -> PyResult<Shape> {
    Shape::ALL
        .into_iter()
        .find(|shape| shape.block_name() == name || shape.name() == name)
        .ok_or_else(|| {
            let names: Vec<&str> = Shape::ALL.iter().map(|s| s.block_name()).collect();
            choice("to", name, &names)
        })
}
