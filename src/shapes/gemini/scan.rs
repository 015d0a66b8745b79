//! Finding media in a document (`scan`): Gemini `inlineData` and `fileData`
//! parts, in either casing (REST camelCase or the SDKs' snake_case).

use std::borrow::Cow;

use crate::contract::scan::{either, string, Found, Payload, Verdict};
use crate::json::Json;
use crate::media;

/// A Gemini part holding inline bytes or a file URI. It carries no `type`
/// key, so a part without either is left to the next shape.
pub(crate) fn recognize<'j>(
    value: &'j Json<'j>,
    pointer: &str,
    found: &mut Vec<Found<'j>>,
) -> Verdict {
    let blob = |camel, snake| either(value, camel, snake).filter(|b| matches!(b, Json::Object(_)));
    if let Some(blob) = blob("inlineData", "inline_data") {
        if let Some(data) = string(blob, "data") {
            found.push(part(
                pointer,
                "gemini inlineData",
                blob,
                Payload::Base64(data),
            ));
            return Verdict::Media;
        }
    }
    if let Some(file) = blob("fileData", "file_data") {
        if let Some(uri) = either(file, "fileUri", "file_uri").and_then(Json::as_str) {
            found.push(part(pointer, "gemini fileData", file, Payload::Url(uri)));
            return Verdict::Media;
        }
    }
    Verdict::Other
}

/// The found item for a part's `inlineData` or `fileData` object, `blob`.
fn part<'j>(
    pointer: &str,
    kind: &'static str,
    blob: &'j Json<'j>,
    payload: Payload<'j>,
) -> Found<'j> {
    let declared_raw = either(blob, "mimeType", "mime_type").and_then(Json::as_str);
    Found {
        pointer: pointer.to_string(),
        kind,
        declared: declared_raw.and_then(media::normalize),
        declared_raw,
        payload,
        name: either(blob, "displayName", "display_name")
            .and_then(Json::as_str)
            .map(Cow::Borrowed),
    }
}
