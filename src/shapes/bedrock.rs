//! Bedrock Converse content blocks.

use serde_json::Value;

use super::{check_image_type, object, string, Place, Shape, Unsupported, WEB_IMAGE_TYPES};
use crate::media::MediaKind;
use crate::part::{MediaPart, Part, Source};

const SHAPE: Shape = Shape::Bedrock;

/// The name a document gets when its part has none, or none survives sanitizing.
pub const DEFAULT_DOCUMENT_NAME: &str = "document";

/// Writes one part as a Converse `ContentBlock` (or `ToolResultContentBlock`).
/// Bedrock carries no URL media, and no audio inside tool results.
pub fn write_part(part: &Part, place: Place) -> Result<Value, Unsupported> {
    let media = match part {
        Part::Text(text) => return Ok(object([("text", string(text))])),
        Part::Media(media) => media,
    };
    let Source::Data(data) = &media.source else {
        return Err(Unsupported::media(
            media,
            SHAPE,
            "Bedrock carries inline bytes or S3 locations, not URLs",
        ));
    };
    let bytes = || object([("bytes", string(data))]);
    match media.kind {
        MediaKind::Image => {
            check_image_type(media, SHAPE, WEB_IMAGE_TYPES)?;
            let format = media.mime_type.trim_start_matches("image/");
            Ok(object([(
                "image",
                object([("format", string(format)), ("source", bytes())]),
            )]))
        }
        MediaKind::Audio => {
            if place == Place::ToolResult {
                return Err(Unsupported::media(
                    media,
                    SHAPE,
                    "tool results carry no audio",
                ));
            }
            let format = audio_format(media)?;
            Ok(object([(
                "audio",
                object([("format", string(format)), ("source", bytes())]),
            )]))
        }
        MediaKind::File if media.mime_type.starts_with("video/") => {
            let format = video_format(media)?;
            Ok(object([(
                "video",
                object([("format", string(format)), ("source", bytes())]),
            )]))
        }
        MediaKind::File => {
            let format = document_format(media)?;
            let name = document_name(media.name.as_deref().unwrap_or(""));
            Ok(object([(
                "document",
                object([
                    ("format", string(format)),
                    ("name", Value::String(name)),
                    ("source", bytes()),
                ]),
            )]))
        }
    }
}

/// The `DocumentFormat` token for a file's media type.
pub fn document_format(media: &MediaPart) -> Result<&'static str, Unsupported> {
    Ok(match media.mime_type.as_str() {
        "application/pdf" => "pdf",
        "text/csv" => "csv",
        "application/msword" => "doc",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document" => "docx",
        "application/vnd.ms-excel" => "xls",
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" => "xlsx",
        "text/html" => "html",
        "text/plain" => "txt",
        "text/markdown" => "md",
        _ => {
            return Err(Unsupported::media(
                media,
                SHAPE,
                "documents must be pdf, csv, doc, docx, xls, xlsx, html, txt or md",
            ))
        }
    })
}

fn audio_format(media: &MediaPart) -> Result<&'static str, Unsupported> {
    Ok(match media.mime_type.as_str() {
        "audio/mpeg" => "mp3",
        "audio/wav" => "wav",
        "audio/aac" => "aac",
        "audio/flac" => "flac",
        "audio/ogg" => "ogg",
        "audio/mp4" => "m4a",
        "audio/opus" => "opus",
        "audio/webm" => "webm",
        _ => {
            return Err(Unsupported::media(
                media,
                SHAPE,
                "no Converse audio format matches",
            ))
        }
    })
}

fn video_format(media: &MediaPart) -> Result<&'static str, Unsupported> {
    Ok(match media.mime_type.as_str() {
        "video/mp4" => "mp4",
        "video/webm" => "webm",
        "video/quicktime" => "mov",
        "video/x-matroska" => "mkv",
        "video/x-flv" => "flv",
        "video/mpeg" => "mpeg",
        "video/x-ms-wmv" => "wmv",
        "video/3gpp" => "three_gp",
        _ => {
            return Err(Unsupported::media(
                media,
                SHAPE,
                "no Converse video format matches",
            ))
        }
    })
}

/// Reduces a file name to Bedrock's document-name alphabet: ASCII letters and
/// digits, single spaces, hyphens, parentheses and square brackets, at most 200
/// characters. The extension is dropped; every other character becomes a space.
pub fn document_name(name: &str) -> String {
    let stem = match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() && !ext.contains(' ') => stem,
        _ => name,
    };
    let mut out = String::with_capacity(stem.len());
    for c in stem.chars() {
        let keep = c.is_ascii_alphanumeric() || matches!(c, '-' | '(' | ')' | '[' | ']');
        if keep {
            out.push(c);
        } else if !out.ends_with(' ') {
            out.push(' ');
        }
    }
    let trimmed = out.trim();
    let cut: String = trimmed.chars().take(200).collect();
    let cut = cut.trim_end();
    if cut.is_empty() {
        DEFAULT_DOCUMENT_NAME.to_string()
    } else {
        cut.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn document_names_use_the_bedrock_alphabet() {
        assert_eq!(document_name("report.pdf"), "report");
        assert_eq!(
            document_name("Q3  report (final).v2.pdf"),
            "Q3 report (final) v2"
        );
        assert_eq!(document_name("it's #1 & best.txt"), "it s 1 best");
        assert_eq!(document_name("café.pdf"), "caf");
        assert_eq!(document_name("slack-file://F0123"), "slack-file F0123");
        assert_eq!(document_name("..."), DEFAULT_DOCUMENT_NAME);
        assert_eq!(document_name(""), DEFAULT_DOCUMENT_NAME);
        assert_eq!(document_name(&"a".repeat(300)).len(), 200);
    }
}
