//! Writing the canonical model as OpenAI Responses documents.

use serde_json::Value;

use crate::convert::{Context, ConvertError, Form};
use crate::transcript::Transcript;

/// Writes a OpenAI Responses document in `form`.
pub fn write(
    _transcript: &Transcript,
    _form: Form,
    context: &mut Context,
) -> Result<Value, ConvertError> {
    Err(ConvertError::invalid(
        "",
        format!("writing {} documents is not built yet", context.target),
    ))
}
