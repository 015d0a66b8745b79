//! Gemini generateContent parts (REST, camelCase).

mod read;
mod write;

pub use read::read;
pub use write::write;

use serde_json::{Map, Value};

use super::{check_image_type, object, string, Place, Shape, Unsupported};
use crate::media::MediaKind;
use crate::part::{MediaPart, Part, Source};
use crate::transcript::ToolResult;

const SHAPE: Shape = Shape::Gemini;

/// Image types Gemini documents.
pub const IMAGE_TYPES: &[&str] = &[
    "image/png",
    "image/jpeg",
    "image/webp",
    "image/heic",
    "image/heif",
];

/// Audio types Gemini documents (`audio/mpeg` is partkit's spelling of mp3).
pub const AUDIO_TYPES: &[&str] = &[
    "audio/wav",
    "audio/mpeg",
    "audio/aiff",
    "audio/x-aiff",
    "audio/aac",
    "audio/ogg",
    "audio/flac",
];

/// What a function response may carry in its `parts`: inline PNG, JPEG, WebP,
/// PDF and text/plain.
pub const FUNCTION_RESPONSE_TYPES: &[&str] = &[
    "image/png",
    "image/jpeg",
    "image/webp",
    "application/pdf",
    "text/plain",
];

/// Writes one part as a Gemini `Part`. For a tool result this is one entry of
/// `functionResponse.parts` (inline data only, no text: text goes in `response`).
pub fn write_part(part: &Part, place: Place) -> Result<Value, Unsupported> {
    let media = match part {
        Part::Text(text) if place == Place::User => return Ok(object([("text", string(text))])),
        Part::Text(_) => {
            return Err(Unsupported {
                part_type: "text",
                mime_type: None,
                shape: SHAPE,
                reason: "function response parts carry no text (it belongs in response)".into(),
            })
        }
        Part::Media(media) => media,
    };
    if place == Place::ToolResult {
        if !FUNCTION_RESPONSE_TYPES.contains(&media.mime_type.as_str()) {
            return Err(Unsupported::media(
                media,
                SHAPE,
                "function responses carry only PNG, JPEG, WebP, PDF and text/plain",
            ));
        }
        let Source::Data(data) = &media.source else {
            return Err(Unsupported::media(
                media,
                SHAPE,
                "function responses carry inline data only",
            ));
        };
        let mut blob = object([
            ("mimeType", string(&media.mime_type)),
            ("data", string(data)),
        ]);
        if let (Some(name), Value::Object(map)) = (&media.name, &mut blob) {
            map.insert("displayName".into(), string(name));
        }
        return Ok(object([("inlineData", blob)]));
    }
    check_type(media)?;
    Ok(match &media.source {
        Source::Data(data) => object([(
            "inlineData",
            object([
                ("mimeType", string(&media.mime_type)),
                ("data", string(data)),
            ]),
        )]),
        Source::Url(url) => object([(
            "fileData",
            object([
                ("mimeType", string(&media.mime_type)),
                ("fileUri", string(url)),
            ]),
        )]),
    })
}

fn check_type(media: &MediaPart) -> Result<(), Unsupported> {
    match media.kind {
        MediaKind::Image => check_image_type(media, SHAPE, IMAGE_TYPES),
        MediaKind::Audio if AUDIO_TYPES.contains(&media.mime_type.as_str()) => Ok(()),
        MediaKind::Audio => Err(Unsupported::media(
            media,
            SHAPE,
            "Gemini accepts wav, mp3, aiff, aac, ogg and flac audio",
        )),
        MediaKind::File => {
            let mime = media.mime_type.as_str();
            let documented = mime == "application/pdf"
                || mime.starts_with("text/")
                || mime.starts_with("video/")
                || matches!(mime, "application/json" | "application/xml");
            if documented {
                Ok(())
            } else {
                Err(Unsupported::media(
                    media,
                    SHAPE,
                    "Gemini reads PDF, text and video files",
                ))
            }
        }
    }
}

/// Writes one tool result as a `functionResponse` part: the text parts (joined
/// by blank lines) under `response.output` (`response.error` for an error), the
/// media natively in `parts`. Gemini needs the tool's name.
pub fn write_tool_result(
    result: &ToolResult,
    notes: &mut Vec<String>,
) -> Result<Value, Unsupported> {
    let parts: Vec<Part> = result.parts().cloned().collect();
    let Some(name) = &result.name else {
        return Err(Unsupported {
            part_type: "tool_result",
            mime_type: None,
            shape: SHAPE,
            reason: "a function response needs the tool's name".into(),
        });
    };
    let mut texts = Vec::new();
    let mut media = Vec::new();
    for part in &parts {
        match part {
            Part::Text(text) => texts.push(text.clone()),
            Part::Media(_) => match write_part(part, Place::ToolResult) {
                Ok(block) => media.push(block),
                Err(_) => {
                    let note = format!("{} parts from tools cannot be carried by {SHAPE}; replaced by a placeholder text", part.type_name());
                    if !notes.contains(&note) {
                        notes.push(note);
                    }
                    texts.push(crate::transcript::unsupported_placeholder(part));
                }
            },
        }
    }
    let key = if result.is_error { "error" } else { "output" };
    let mut response = Map::new();
    response.insert(key.into(), Value::String(texts.join("\n\n")));
    let mut call = Map::new();
    if let Some(id) = &result.call_id {
        call.insert("id".into(), string(id));
    }
    call.insert("name".into(), string(name));
    call.insert("response".into(), Value::Object(response));
    if !media.is_empty() {
        call.insert("parts".into(), Value::Array(media));
    }
    Ok(object([("functionResponse", Value::Object(call))]))
}
