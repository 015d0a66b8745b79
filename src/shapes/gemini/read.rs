//! Reading Gemini generateContent documents into the canonical model.

use serde_json::Value;

use crate::convert::{Context, ConvertError, Form};
use crate::transcript::Transcript;

/// Reads a Gemini generateContent document.
pub fn read(_value: &Value, context: &mut Context) -> Result<(Form, Transcript), ConvertError> {
    Err(ConvertError::invalid(
        "",
        format!("reading {} documents is not built yet", context.source),
    ))
}
