//! `split`: a NeMo Gym tool reply into its rest and its images, through
//! [`partkit::split::split_apart`].

use pyo3::prelude::*;

use crate::document;
use crate::errors::rejected;

/// `(media_type, base64 data, label)` of one image.
type Image = (String, String, Option<String>);

/// The rest (as the kind the reply came as) and the images.
#[pyfunction]
pub fn split(py: Python<'_>, reply: &Bound<'_, PyAny>) -> PyResult<(Py<PyAny>, Vec<Image>)> {
    let (text, kind) = document::text_of(reply, "reply")?;
    let apart = py
        .detach(|| partkit::split::split_apart(text))
        .map_err(rejected)?;
    let rest = document::to_python(py, &apart.rest, kind)?;
    let images = apart
        .images
        .into_iter()
        .map(|image| (image.media_type, image.data, image.label))
        .collect();
    Ok((rest, images))
}
