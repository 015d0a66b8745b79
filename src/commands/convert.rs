//! `partkit convert`: transcripts between provider shapes (SPEC §7).

use serde_json::Value;

use crate::convert::{self, ConvertError, ConvertOptions};
use crate::output;
use crate::shapes::Shape;

/// Everything `convert` needs to know about one document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConvertRequest {
    /// `None`: detect the shape.
    pub from: Option<Shape>,
    pub to: Shape,
    pub options: ConvertOptions,
    pub pretty: bool,
}

/// One converted document: its serialized output and the notes for stderr.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConvertedDocument {
    pub output: Vec<u8>,
    pub notes: Vec<String>,
}

/// Converts one JSON document.
pub fn convert_document(
    bytes: &[u8],
    request: &ConvertRequest,
) -> Result<ConvertedDocument, ConvertError> {
    let value: Value = serde_json::from_slice(bytes)
        .map_err(|e| ConvertError::invalid("", format!("invalid JSON: {e}")))?;
    let converted = convert::convert(&value, request.from, request.to, request.options.clone())?;
    let mut out = Vec::new();
    output::write_json(&mut out, &converted.value, request.pretty)
        .expect("writing JSON into memory cannot fail");
    Ok(ConvertedDocument {
        output: out,
        notes: converted.notes,
    })
}
