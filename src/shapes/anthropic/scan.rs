//! Finding media in a document (`scan`): Anthropic `image` and `document`
//! blocks, by their `source`.

use crate::contract::scan::{ext_type, push, string, text_blocks, Found, Payload, Verdict};
use crate::json::Json;
use crate::shapes::kit::scan::kind_of;

/// An Anthropic `image` or `document` block whose `source` has a `type`.
pub(crate) fn recognize<'j>(
    value: &'j Json<'j>,
    pointer: &str,
    found: &mut Vec<Found<'j>>,
) -> Verdict {
    let kinds = [
        ("image", "anthropic image"),
        ("document", "anthropic document"),
    ];
    let Some(kind) = kind_of(value, &kinds) else {
        return Verdict::Other;
    };
    let Some(source) = value.get("source").filter(|s| s.has("type")) else {
        return Verdict::Other;
    };
    let media_type = string(source, "media_type");
    // What the source holds: the type it declares (as written, or as guessed
    // from a URL's extension) and its payload.
    let held = match string(source, "type") {
        Some("base64") => {
            string(source, "data").map(|data| (media_type, None, Payload::Base64(data)))
        }
        Some("url") => string(source, "url").map(|url| (None, ext_type(url), Payload::Url(url))),
        // A reference to an upload of the Files API.
        Some("file") => string(source, "file_id").map(|id| (None, None, Payload::Url(id))),
        Some("text") => string(source, "data").map(|text| (media_type, None, Payload::Text(text))),
        Some("content") => text_blocks(source).map(|texts| (None, None, Payload::Blocks(texts))),
        _ => None,
    };
    match held {
        Some((declared_raw, declared, payload)) => push(
            found,
            pointer,
            kind,
            declared_raw,
            declared,
            payload,
            string(value, "title"),
        ),
        None => Verdict::Empty,
    }
}
