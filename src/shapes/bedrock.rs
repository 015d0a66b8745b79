//! Bedrock Converse content blocks.

/// What the command line says of this shape.
pub const FACTS: super::Facts = super::Facts {
    document: "Bedrock Converse",
    tool_result: Some("A toolResult content block"),
    parts: "Bedrock Converse content blocks",
};

/// This shape's side of [`Dialect`](super::Dialect).
#[derive(Debug, Clone, Copy)]
pub struct Bedrock;

impl super::Dialect for Bedrock {
    super::dialect_basics!(Bedrock, write_part);

    fn order(&self) -> super::Order {
        super::Order { scan: 6, ties: 2 }
    }
    super::delegate! {
        recognize_media => scan::recognize,
        detect_document => detect::document,
        detect_evidence => detect::evidence,
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
pub(crate) mod formats;
mod read;
mod scan;
mod stream;

mod rules;
mod wrapped;
mod write;

pub use read::read;
pub use write::write;

use serde_json::Value;

use super::{check_image_type, join_or, object, string, Place, Shape, Unsupported};
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
            check_image_type(media, SHAPE, &formats::media_types("image"))?;
            let format = format_token(media, "image")?;
            Ok(object([(
                "image",
                object([("format", string(format)), ("source", bytes())]),
            )]))
        }
        MediaKind::Audio => {
            if place == Place::ToolResult && !formats::in_tool_result("audio") {
                return Err(Unsupported::media(
                    media,
                    SHAPE,
                    "tool results carry no audio",
                ));
            }
            let format = format_token(media, "audio")?;
            Ok(object([(
                "audio",
                object([("format", string(format)), ("source", bytes())]),
            )]))
        }
        MediaKind::File if media.mime_type.starts_with("video/") => {
            let format = format_token(media, "video")?;
            Ok(object([(
                "video",
                object([("format", string(format)), ("source", bytes())]),
            )]))
        }
        MediaKind::File => {
            let format = format_token(media, "document")?;
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

/// The format token a block of its kind (`document`, `audio`, `video`) gives
/// `media`'s type ([`formats`]), or why it has none.
fn format_token(media: &MediaPart, block: &str) -> Result<&'static str, Unsupported> {
    formats::token(block, &media.mime_type).ok_or_else(|| {
        let reason = match block {
            "document" => format!("documents must be {}", join_or(&formats::tokens(block))),
            _ => format!("no Converse {block} format matches"),
        };
        Unsupported::media(media, SHAPE, reason)
    })
}

/// Reduces a file name to Bedrock's document-name alphabet: ASCII letters and
/// digits, single spaces, hyphens, parentheses and square brackets (the
/// documented set), and underscores (Bedrock accepts them: real recordings
/// send `input_file_0`), at most 200 characters. The extension is dropped; every other character becomes a space.
pub fn document_name(name: &str) -> String {
    let stem = match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() && !ext.contains(' ') => stem,
        _ => name,
    };
    let mut out = String::with_capacity(stem.len());
    for c in stem.chars() {
        let keep = c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '(' | ')' | '[' | ']');
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

/// Maps a call id onto Bedrock's `toolUseId` pattern (`[a-zA-Z0-9_.:-]{1,64}`).
/// A valid id is kept; any other is rewritten deterministically (invalid
/// characters become `_`, and a hash of the original keeps distinct ids distinct).
pub fn tool_use_id(id: &str) -> String {
    let valid = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | ':' | '-');
    if !id.is_empty() && id.len() <= 64 && id.chars().all(valid) {
        return id.to_string();
    }
    let cleaned: String = id
        .chars()
        .map(|c| if valid(c) { c } else { '_' })
        .take(47)
        .collect();
    // FNV-1a: stable across runs and platforms.
    let hash = id.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{cleaned}-{hash:016x}")
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
        assert_eq!(document_name("my_report_2024.pdf"), "my_report_2024");
        assert_eq!(document_name("..."), DEFAULT_DOCUMENT_NAME);
        assert_eq!(document_name(""), DEFAULT_DOCUMENT_NAME);
        assert_eq!(document_name(&"a".repeat(300)).len(), 200);
    }

    #[test]
    fn tool_use_ids_are_mapped_deterministically() {
        assert_eq!(tool_use_id("call_abc-1.2:3"), "call_abc-1.2:3");
        let mapped = tool_use_id("call/abc");
        assert!(mapped.starts_with("call_abc-"));
        assert_eq!(mapped, tool_use_id("call/abc"));
        assert_ne!(tool_use_id("call/abc"), tool_use_id("call+abc"));
        assert!(tool_use_id(&"x".repeat(100)).len() <= 64);
        assert!(!tool_use_id("").is_empty());
    }
}
