//! Anthropic Messages: content blocks, and (in `read` and `write`) whole
//! requests, message lists, responses and single `tool_result` blocks.

/// What the command line says of this shape.
pub const FACTS: super::Facts = super::Facts {
    document: "Anthropic Messages",
    tool_result: Some("A tool_result block"),
    parts: "Anthropic Messages content blocks",
};

/// This shape's side of [`Dialect`](super::Dialect).
#[derive(Debug, Clone, Copy)]
pub struct Anthropic;

impl super::Dialect for Anthropic {
    super::dialect_basics!(Anthropic, write_part);

    fn order(&self) -> super::Order {
        super::Order { scan: 3, ties: 4 }
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
        hosted_call => rules::hosted_call,
        required_id_field => rules::required_id_field,
    }

    fn stream(&self) -> Option<&'static dyn super::StreamAssembler> {
        Some(&stream::STREAM)
    }

    fn leaves_out(&self, part: &crate::part::Part) -> Option<&'static str> {
        is_blank_text(part).then_some(
            "dropped an empty text part: anthropic rejects text blocks without non-whitespace text",
        )
    }

    super::reads_trees!();

    /// The writer builds the output tree; its `write` is this as a `Value`.
    fn write_out(
        &self,
        transcript: &crate::transcript::Transcript,
        form: crate::contract::Form,
        context: &mut crate::contract::Context,
    ) -> Result<crate::json::out::Out, crate::contract::ConvertError> {
        write::write_out(transcript, form, context)
    }
}

mod acceptance;
mod conversion;
mod detect;
mod read;
mod scan;
mod stream;

mod rules;
mod write;

pub use read::read;
pub use write::{write, write_out};

use serde_json::Value;

use super::{check_image_type, Place, Shape, Unsupported, WEB_IMAGE_TYPES};
use crate::b64;
use crate::json::lent::Lending;
use crate::json::out::{Members, Out};
use crate::media::MediaKind;
use crate::part::{Part, Source};

const SHAPE: Shape = Shape::Anthropic;

/// Writes one part as an Anthropic content block. Images of the four web types,
/// PDF documents (base64 or URL) and text/plain documents (a text source); a part
/// name becomes a document's `title`. Empty or whitespace-only text blocks are
/// refused by the API, so callers drop them (see [`is_blank_text`]).
pub fn write_part(part: &Part, place: Place) -> Result<Value, Unsupported> {
    write_part_lent(part, place, &Lending::NONE)
}

/// [`write_part`] of a part read from a document that lends `lending` (a
/// text/plain document's data may be a placeholder).
pub fn write_part_lent(part: &Part, place: Place, lending: &Lending) -> Result<Value, Unsupported> {
    write_part_out(part, place, lending).map(Out::into_value)
}

/// [`write_part_lent`] as the output tree (`json::out`), for the writer.
pub(crate) fn write_part_out(
    part: &Part,
    _place: Place,
    lending: &Lending,
) -> Result<Out, Unsupported> {
    let media = match part {
        Part::Text(text) => {
            return Ok(Out::object([
                ("type", "text".into()),
                ("text", text.as_str().into()),
            ]))
        }
        Part::Media(media) => media,
    };
    match media.kind {
        MediaKind::Image => {
            // A URL image of unknown type passes: Anthropic's URL source
            // declares no type, and the server sniffs the bytes.
            check_image_type(media, SHAPE, WEB_IMAGE_TYPES)?;
            Ok(Out::object([
                ("type", "image".into()),
                ("source", source_out(&media.mime_type, &media.source)),
            ]))
        }
        MediaKind::Audio => Err(Unsupported::media(
            media,
            SHAPE,
            "Anthropic has no audio blocks",
        )),
        MediaKind::File => {
            let source = match (media.mime_type.as_str(), &media.source) {
                ("application/pdf", source) => source_out("application/pdf", source),
                ("text/plain", Source::Data(data)) => {
                    let text = lending
                        .with_resolved(data, b64::decode_lenient)
                        .ok()
                        .and_then(|(bytes, _)| String::from_utf8(bytes).ok())
                        .ok_or_else(|| {
                            Unsupported::media(media, SHAPE, "a text document must be UTF-8")
                        })?;
                    Out::object([
                        ("type", "text".into()),
                        ("media_type", "text/plain".into()),
                        ("data", Out::Str(text)),
                    ])
                }
                ("text/plain", Source::Url(_)) => {
                    return Err(Unsupported::media(
                        media,
                        SHAPE,
                        "URL documents must be PDF",
                    ))
                }
                _ => {
                    return Err(Unsupported::media(
                        media,
                        SHAPE,
                        "documents must be PDF or text/plain",
                    ))
                }
            };
            let mut block = Members::with_capacity(3);
            block.put("type", "document");
            block.put("source", source);
            if let Some(name) = &media.name {
                block.put("title", name.as_str());
            }
            Ok(Out::Object(block))
        }
    }
}

fn source_out(mime_type: &str, source: &Source) -> Out {
    match source {
        Source::Data(data) => Out::object([
            ("type", "base64".into()),
            ("media_type", mime_type.into()),
            ("data", data.as_str().into()),
        ]),
        Source::Url(url) => Out::object([("type", "url".into()), ("url", url.as_str().into())]),
    }
}

/// Whether a part is text with nothing but whitespace, which Anthropic refuses
/// as a text block ("text content blocks must contain non-whitespace text").
pub fn is_blank_text(part: &Part) -> bool {
    matches!(part, Part::Text(text) if text.trim().is_empty())
}
