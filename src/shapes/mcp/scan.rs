//! Finding media in a document (`scan`): MCP `resource` and `resource_link`
//! blocks. (MCP `image` and `audio` blocks are spelled like canonical parts;
//! `scan::find_media` relabels those inside a `CallToolResult`.)

use crate::contract::scan::{push, string, Found, Payload, Verdict};
use crate::json::Json;
use crate::shapes::kit::scan::{by_type, Reader};

/// An MCP embedded resource (a `blob` or `text`) or a resource link.
pub(crate) fn recognize<'j>(
    value: &'j Json<'j>,
    pointer: &str,
    found: &mut Vec<Found<'j>>,
) -> Verdict {
    let readers: &[(&str, Reader)] = &[("resource", resource), ("resource_link", resource_link)];
    by_type(value, pointer, found, readers)
}

fn resource_link<'j>(value: &'j Json<'j>, pointer: &str, found: &mut Vec<Found<'j>>) -> Verdict {
    let Some(uri) = string(value, "uri") else {
        return Verdict::Empty;
    };
    push(
        found,
        pointer,
        "mcp resource_link",
        string(value, "mimeType"),
        None,
        Payload::Url(uri),
        string(value, "name"),
    )
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
