//! `resize`: one image's bytes under the caps, through
//! [`partkit::resize::resize_image`] with the CLI's default limits.

use partkit::resize::{Format, FormatChoice, Limits, ResizeOptions};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::errors::{rejected, usage};
use crate::options::{choice, profile};
use crate::pool;

/// The image within the caps: new bytes, or the same ones when it already
/// was (as `partkit resize IMAGE -o OUT` copies it).
#[pyfunction]
#[pyo3(signature = (image, max_bytes, max_dim, format, profile_name))]
pub fn resize<'py>(
    py: Python<'py>,
    image: &Bound<'py, PyBytes>,
    max_bytes: Option<u64>,
    max_dim: Option<u32>,
    format: &str,
    profile_name: Option<&str>,
) -> PyResult<(Bound<'py, PyBytes>, Vec<String>)> {
    let format = match format {
        "keep" => FormatChoice::Keep,
        "png" => FormatChoice::To(Format::Png),
        "jpeg" => FormatChoice::To(Format::Jpeg),
        "webp" => FormatChoice::To(Format::Webp),
        other => return Err(choice("format", other, &["keep", "png", "jpeg", "webp"])),
    };
    let mut limits = match profile_name {
        Some(name) => Limits::from_profile(profile(name)?),
        None => Limits::default(),
    };
    if max_bytes == Some(0) || max_dim == Some(0) {
        return Err(usage("max_bytes and max_dim must be at least 1"));
    }
    limits.max_bytes = max_bytes.or(limits.max_bytes);
    limits.max_dim = max_dim.or(limits.max_dim);
    let options = ResizeOptions {
        limits,
        format,
        ..ResizeOptions::default()
    };
    let bytes = image.as_bytes();
    let resized = py
        .detach(|| pool::run(None, || partkit::resize::resize_image(bytes, &options)))
        .map_err(usage)?
        .map_err(rejected)?;
    // Unchanged (within every cap): the same bytes back.
    let out = resized.bytes.as_deref().unwrap_or(bytes);
    Ok((PyBytes::new(py, out), crate::errors::said(resized.warnings)))
}
