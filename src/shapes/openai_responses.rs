//! OpenAI Responses blocks.

mod read;
mod write;

pub use read::read;
pub use write::write;

use serde_json::Value;

use super::{
    check_image_type, object, string, write_result_parts, Place, Shape, Unsupported,
    WEB_IMAGE_TYPES,
};
use crate::dataurl;
use crate::media::MediaKind;
use crate::part::{Part, Source};
use crate::transcript::ToolResult;

const SHAPE: Shape = Shape::OpenaiResponses;

/// The `detail` partkit writes on message images, where the SDK requires one.
pub const DEFAULT_DETAIL: &str = "auto";

/// Writes one part as a Responses input part. In messages `input_image` always
/// carries `detail` (the SDK requires it there); in `function_call_output` it is
/// optional and left out.
pub fn write_part(part: &Part, place: Place) -> Result<Value, Unsupported> {
    let media = match part {
        Part::Text(text) => {
            return Ok(object([
                ("type", string("input_text")),
                ("text", string(text)),
            ]))
        }
        Part::Media(media) => media,
    };
    match media.kind {
        MediaKind::Image => {
            check_image_type(media, SHAPE, WEB_IMAGE_TYPES)?;
            let url = match &media.source {
                Source::Data(data) => dataurl::write(&media.mime_type, data),
                Source::Url(url) => url.clone(),
            };
            Ok(match place {
                Place::User => object([
                    ("type", string("input_image")),
                    ("image_url", Value::String(url)),
                    ("detail", string(DEFAULT_DETAIL)),
                ]),
                Place::ToolResult => object([
                    ("type", string("input_image")),
                    ("image_url", Value::String(url)),
                ]),
            })
        }
        MediaKind::Audio => Err(Unsupported::media(
            media,
            SHAPE,
            "Responses input has no audio parts",
        )),
        MediaKind::File => Ok(match &media.source {
            Source::Data(data) => object([
                ("type", string("input_file")),
                (
                    "filename",
                    string(
                        media
                            .name
                            .as_deref()
                            .unwrap_or(super::openai_chat::DEFAULT_FILENAME),
                    ),
                ),
                (
                    "file_data",
                    Value::String(dataurl::write(&media.mime_type, data)),
                ),
            ]),
            Source::Url(url) => object([("type", string("input_file")), ("file_url", string(url))]),
        }),
    }
}

/// Writes one tool result as a `function_call_output` item: `output` is a string
/// for a single text part, else an array of input parts.
pub fn write_tool_result(
    result: &ToolResult,
    notes: &mut Vec<String>,
) -> Result<Value, Unsupported> {
    let parts: Vec<Part> = result.parts().cloned().collect();
    let output = match parts.as_slice() {
        [Part::Text(text)] => string(text),
        [] => string(""),
        parts => Value::Array(write_result_parts(SHAPE, parts, Place::ToolResult, notes)?),
    };
    Ok(object([
        ("type", string("function_call_output")),
        ("call_id", string(result.call_id.as_deref().unwrap_or(""))),
        ("output", output),
    ]))
}
