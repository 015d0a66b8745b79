//! Finding media in a document (`scan`): canonical parts. MCP image and audio
//! blocks are spelled the same way; `scan::find_media` relabels them inside an
//! MCP `CallToolResult`.

use crate::contract::scan::{push, string, Found, Payload, Verdict};
use crate::json::Json;
use crate::shapes::kit::scan::kind_of;

/// A canonical `image`, `file` or `audio` part: a `mimeType` and `data` or a
/// `url`.
pub(crate) fn recognize<'j>(
    value: &'j Json<'j>,
    pointer: &str,
    found: &mut Vec<Found<'j>>,
) -> Verdict {
    let kinds = [
        ("image", "canonical image"),
        ("audio", "canonical audio"),
        ("file", "canonical file"),
    ];
    let Some(kind) = kind_of(value, &kinds) else {
        return Verdict::Other;
    };
    if !(value.has("mimeType") && (value.has("data") || value.has("url"))) {
        return Verdict::Other;
    }
    let payload = match (string(value, "data"), string(value, "url")) {
        (Some(data), _) => Payload::Base64(data),
        (None, Some(url)) => Payload::Url(url),
        _ => return Verdict::Empty,
    };
    push(
        found,
        pointer,
        kind,
        string(value, "mimeType"),
        None,
        payload,
        string(value, "name"),
    )
}
