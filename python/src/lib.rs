//! `partkit._native`: the library's operations for the Python package.
//!
//! The Python side (`python/partkit/`) turns Python data into JSON text
//! (except where `convert` walks a dict or list itself, `data.rs`),
//! builds the result objects and issues warnings; this side adapts its
//! arguments to the library's options, runs the operation (with the GIL
//! released where it takes time) and maps failures to the package's
//! exceptions with the command line's messages. Nothing here converts,
//! checks or encodes by itself.

use pyo3::prelude::*;

/// The extension's blocks: small ones from mimalloc, large ones from the
/// system (docs/speed.md#the-allocator).
#[global_allocator]
static ALLOCATOR: partkit_core::alloc::Hybrid = partkit_core::alloc::Hybrid;

mod cli;
mod convert;
mod data;
mod document;
mod encode;
mod errors;
mod inspect;
mod options;
mod pool;
mod resize;
mod split;
mod validate;

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(convert::convert, m)?)?;
    m.add_function(wrap_pyfunction!(convert::convert_data, m)?)?;
    m.add_function(wrap_pyfunction!(convert::convert_lines, m)?)?;
    m.add_function(wrap_pyfunction!(validate::validate_path, m)?)?;
    m.add_function(wrap_pyfunction!(validate::validate_document, m)?)?;
    m.add_function(wrap_pyfunction!(encode::encode, m)?)?;
    m.add_function(wrap_pyfunction!(split::split, m)?)?;
    m.add_function(wrap_pyfunction!(resize::resize, m)?)?;
    m.add_function(wrap_pyfunction!(inspect::inspect, m)?)?;
    m.add_function(wrap_pyfunction!(cli::main, m)?)?;
    m.add_function(wrap_pyfunction!(errors::bound, m)?)?;
    m.add_function(wrap_pyfunction!(errors::max_document_size, m)?)?;
    Ok(())
}
