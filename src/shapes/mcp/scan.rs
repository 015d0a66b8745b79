//! Finding media in a document (`scan`): MCP `resource` and `resource_link`
//! blocks. (MCP `image` and `audio` blocks are spelled like canonical parts;
//! `scan::find_media` relabels those inside a `CallToolResult`.)

use crate::json::Json;
use crate::scan::{push, string, Found, Payload, Verdict};

/// An MCP embedded resource (a `blob` or `text`) or a resource link.
pub(crate) fn recognize<'j>(
    value: &'j Json<'j>,
    pointer: &str,
    found: &mut Vec<Found<'j>>,
) -> Verdict {
    match string(value, "type") {
        Some("resource") => resource(value, pointer, found),
        Some("resource_link") => match string(value, "uri") {
            Some(uri) => push(
                found,
                pointer,
                "mcp resource_link",
                string(value, "mimeType"),
                None,
                Payload::Url(uri),
                string(value, "name"),
            ),
            None => Verdict::Empty,
        },
        _ => Verdict::Other,
    }
}

fn resource<'j>(value: &'j Json<'j>, pointer: &str, found: &mut Vec<Found<'j>>) -> Verdict {
    let Some(resource) = value.get("resource") else {
        return Verdict::Empty;
    };
    let payload = match (string(resource, "blob"), string(resource, "text")) {
        (Some(blob), _) => Payload::Base64(blob),
        (None, Some(text)) => Payload::Text(text),
        _ => return Verdict::Empty,
    };
    push(
        found,
        pointer,
        "mcp resource",
        string(resource, "mimeType"),
        None,
        payload,
        string(resource, "uri"),
    )
}
