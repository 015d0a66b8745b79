//! OpenAI Chat Completions: content parts, and (in `read` and `write`) whole
//! requests, message lists, responses and tool messages.

/// What the command line says of this shape.
pub const FACTS: super::Facts = super::Facts {
    document: "OpenAI Chat Completions",
    tool_result: Some("A tool message, plus a user message with the images"),
    parts: "OpenAI Chat Completions content parts",
};

/// This shape's side of [`Dialect`](super::Dialect).
#[derive(Debug, Clone, Copy)]
pub struct OpenaiChat;

impl super::Dialect for OpenaiChat {
    super::dialect_basics!(OpenaiChat, write_part);

    fn order(&self) -> super::Order {
        super::Order { scan: 1, ties: 5 }
    }
    super::delegate! {
        recognize_media => scan::recognize,
        detect_document => detect::document,
        detect_evidence => detect::evidence,
        detect_model => detect::model,
        detect_guess => detect::guess,
        file_reference => conversion::file_reference,
        conversion => conversion::FACTS,
        validate_rules => rules::check,
        validate_facts => rules::FACTS,
        tool_object => rules::tool_object,
        required_id_field => rules::required_id_field,
    }

    fn stream(&self) -> Option<&'static dyn super::StreamAssembler> {
        Some(&stream::STREAM)
    }

    super::reads_trees!();
}

mod acceptance;
mod conversion;
mod detect;
mod read;
mod scan;
mod stream;

mod rules;
mod write;

pub(crate) use read::{media_from_file_data, media_from_url};
pub use read::{parse_arguments, read};
pub use write::write;

use serde_json::Value;

use super::{check_image_type, object, string, Place, Shape, Unsupported, WEB_IMAGE_TYPES};
use crate::dataurl;
use crate::media::MediaKind;
use crate::part::{Part, Source};

const SHAPE: Shape = Shape::OpenaiChat;

/// The filename an unnamed file part gets (as toolnexus writes it).
pub const DEFAULT_FILENAME: &str = "file";

/// Writes one part as a Chat Completions content part. Only user messages carry
/// media; a tool result's media goes by two-message delivery, decided by the caller.
pub fn write_part(part: &Part, place: Place) -> Result<Value, Unsupported> {
    let media = match part {
        Part::Text(text) => return Ok(object([("type", string("text")), ("text", string(text))])),
        Part::Media(media) => media,
    };
    if place == Place::ToolResult {
        return Err(Unsupported::media(
            media,
            SHAPE,
            "tool messages carry only text (deliver media in a following user message)",
        ));
    }
    match media.kind {
        MediaKind::Image => {
            check_image_type(media, SHAPE, WEB_IMAGE_TYPES)?;
            let url = match &media.source {
                Source::Data(data) => dataurl::write(&media.mime_type, data),
                Source::Url(url) => url.clone(),
            };
            Ok(object([
                ("type", string("image_url")),
                ("image_url", object([("url", Value::String(url))])),
            ]))
        }
        MediaKind::Audio => {
            let format = match media.mime_type.as_str() {
                "audio/wav" => "wav",
                "audio/mpeg" => "mp3",
                _ => {
                    return Err(Unsupported::media(
                        media,
                        SHAPE,
                        "input_audio takes only wav or mp3",
                    ))
                }
            };
            let Source::Data(data) = &media.source else {
                return Err(Unsupported::media(
                    media,
                    SHAPE,
                    "input_audio takes inline data, not a URL",
                ));
            };
            Ok(object([
                ("type", string("input_audio")),
                (
                    "input_audio",
                    object([("data", string(data)), ("format", string(format))]),
                ),
            ]))
        }
        MediaKind::File => {
            if media.mime_type != "application/pdf" {
                return Err(Unsupported::media(media, SHAPE, "file parts take only PDF"));
            }
            let Source::Data(data) = &media.source else {
                return Err(Unsupported::media(
                    media,
                    SHAPE,
                    "file parts take inline data; there is no file URL",
                ));
            };
            let filename = media.name.as_deref().unwrap_or(DEFAULT_FILENAME);
            Ok(object([
                ("type", string("file")),
                (
                    "file",
                    object([
                        ("filename", string(filename)),
                        (
                            "file_data",
                            Value::String(dataurl::write(&media.mime_type, data)),
                        ),
                    ]),
                ),
            ]))
        }
    }
}
