//! MCP `CallToolResult` content blocks.

/// What the command line says of this shape.
pub const FACTS: super::Facts = super::Facts {
    document: "MCP CallToolResult (single tool results)",
    tool_result: Some("A CallToolResult"),
    parts: "MCP content blocks",
};

/// This shape's side of [`Dialect`](super::Dialect).
#[derive(Debug, Clone, Copy)]
pub struct Mcp;

impl super::Dialect for Mcp {
    super::dialect_basics!(Mcp, write_part);

    fn order(&self) -> super::Order {
        super::Order { scan: 4, ties: 6 }
    }
    super::delegate! {
        recognize_media => scan::recognize,
        detect_evidence => detect::evidence,
        conversion => conversion::FACTS,
        validate_rules => rules::check,
        validate_facts => rules::FACTS,
    }

    fn stream(&self) -> Option<&'static dyn super::StreamAssembler> {
        Some(&stream::STREAM)
    }

    super::reads_trees!();
}

mod conversion;
mod detect;
mod order;
mod read;
mod scan;
mod stream;
mod types;

mod rules;
mod write;

pub use read::read;
pub use write::write;

use serde_json::Value;

use super::{object, string, Place, Unsupported};
use crate::media::{self, MediaKind};
use crate::part::{Part, Source};

/// Writes one part as an MCP content block: `text`, `image` and `audio` inline,
/// a file as an embedded `resource` with a `blob`, and any URL as a
/// `resource_link` (MCP image and audio blocks hold data only).
pub fn write_part(part: &Part, _place: Place) -> Result<Value, Unsupported> {
    let media = match part {
        Part::Text(text) => return Ok(object([("type", string("text")), ("text", string(text))])),
        Part::Media(media) => media,
    };
    Ok(match (&media.source, media.kind) {
        (Source::Data(data), MediaKind::Image | MediaKind::Audio) => object([
            ("type", string(media.kind.as_str())),
            ("data", string(data)),
            ("mimeType", string(&media.mime_type)),
        ]),
        (Source::Data(data), MediaKind::File) => {
            let name = media.name.as_deref().unwrap_or("file");
            object([
                ("type", string("resource")),
                (
                    "resource",
                    object([
                        ("uri", Value::String(resource_uri(name))),
                        ("mimeType", string(&media.mime_type)),
                        ("blob", string(data)),
                    ]),
                ),
            ])
        }
        (Source::Url(url), _) => {
            let name = media
                .name
                .clone()
                .or_else(|| media::url_file_name(url).map(crate::dataurl::percent_decode))
                .unwrap_or_else(|| url.clone());
            object([
                ("type", string("resource_link")),
                ("uri", string(url)),
                ("name", Value::String(name)),
                ("mimeType", string(&media.mime_type)),
            ])
        }
    })
}

/// The URI of an embedded file: `file:///<name>`, percent-encoding everything but
/// unreserved characters. The name is a label, never a path that was read.
pub fn resource_uri(name: &str) -> String {
    let mut uri = String::from("file:///");
    for byte in name.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            uri.push(byte as char);
        } else {
            uri.push_str(&format!("%{byte:02X}"));
        }
    }
    uri
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resource_uris_are_escaped() {
        assert_eq!(resource_uri("a b/c.pdf"), "file:///a%20b%2Fc.pdf");
        assert_eq!(resource_uri("été.pdf"), "file:///%C3%A9t%C3%A9.pdf");
    }
}
