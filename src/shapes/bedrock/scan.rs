//! Finding media in a document (`scan`): Bedrock `image`, `document`, `audio`
//! and `video` content blocks, by their `source`.

use std::borrow::Cow;

use crate::contract::scan::{string, text_blocks, Found, Payload, Verdict};
use crate::json::Json;
use crate::media;

/// A Bedrock content block (`{"image": {"format": …, "source": …}}`, no
/// `type` key): the found item points at the inner block.
pub(crate) fn recognize<'j>(
    value: &'j Json<'j>,
    pointer: &str,
    found: &mut Vec<Found<'j>>,
) -> Verdict {
    for (block, kind) in [
        ("image", "bedrock image"),
        ("document", "bedrock document"),
        ("audio", "bedrock audio"),
        ("video", "bedrock video"),
    ] {
        let Some(source) = value.get(block).and_then(|inner| inner.get("source")) else {
            continue;
        };
        let inner = value.get(block).unwrap_or(&Json::Null);
        // Inline bytes, a text document, or a reference to an S3 object.
        let payload = if let Some(bytes) = string(source, "bytes") {
            Payload::Base64(bytes)
        } else if let Some(text) = string(source, "text") {
            Payload::Text(text)
        } else if let Some(uri) = source.get("s3Location").and_then(|l| string(l, "uri")) {
            Payload::Url(uri)
        } else if let Some(texts) = text_blocks(source) {
            Payload::Blocks(texts)
        } else {
            continue;
        };
        let format = string(inner, "format");
        found.push(Found {
            pointer: format!("{pointer}/{block}"),
            kind,
            declared: format
                .and_then(|f| declared_type(block, &f.to_ascii_lowercase()))
                .and_then(|t| media::normalize(&t)),
            declared_raw: format,
            payload,
            name: string(inner, "name").map(Cow::Borrowed),
        });
        return Verdict::Media;
    }
    Verdict::Other
}

/// The media type a format token declares: Converse's own ([`super::formats`]),
/// else, for a token Converse does not know, the type it names (`image/jpg`,
/// normalized by the caller) so that `inspect` shows what was declared.
fn declared_type(block: &str, token: &str) -> Option<String> {
    match super::formats::media_type(block, token) {
        Some(media_type) => Some(media_type.to_string()),
        None if matches!(block, "image" | "audio" | "video") => Some(format!("{block}/{token}")),
        None => None,
    }
}
