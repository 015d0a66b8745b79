//! Splitting a NeMo Gym tool reply (docs/commands/split.md, `split_tool_output_images`): the
//! reply without its `tool_output_images`, and those images, checked.

use std::borrow::Cow;

use super::{read_image_list_with, EntryProblem, ImageList, TOOL_OUTPUT_IMAGES_KEY};
use crate::b64;
use crate::check::{self, Depth};
pub use crate::contract::{SplitImage, SplitReply};
use crate::json::lent::Lending;
use crate::json::Json;

/// Splits a reply by NeMo Gym's rules: a reply that is not an object, or has no
/// `tool_output_images` key, comes back unchanged with no images; `null` means
/// no images (the key is removed); a malformed list is refused, naming the entry
/// and the reason. A payload may be the placeholder of one `lending` lends
/// (a reply read for a conversion); it is checked as what it stands for.
pub fn split_reply<'r>(
    mut reply: Json<'r>,
    keep_bytes: bool,
    lending: &Lending,
) -> Result<SplitReply<'r>, EntryProblem> {
    let mut scratch = Vec::new();
    // Payloads are checked entry by entry as the list is read, so the problem
    // reported is the first one in list order.
    let mut checked = Vec::new();
    let found = read_image_list_with(&reply, |entry| {
        check::check_payload(
            entry.payload,
            &entry.media_type,
            &mut scratch,
            Depth::Header,
            lending,
        )
        .map_err(|problem| EntryProblem {
            index: Some(entry.index),
            pointer: format!("/{TOOL_OUTPUT_IMAGES_KEY}/{}/image_url", entry.index),
            rule: "reply-image-payload",
            message: problem.message(),
        })?;
        let bytes = keep_bytes.then(|| {
            lending
                .with_resolved(entry.payload, b64::decode_strict)
                .unwrap_or_default()
        });
        checked.push((entry.media_type.clone(), entry.payload.len(), bytes));
        Ok(())
    })?;
    let entries = match found {
        ImageList::Absent => {
            return Ok(SplitReply {
                rest: reply,
                images: Vec::new(),
            })
        }
        ImageList::Null | ImageList::Entries(_) => checked,
    };
    // The list is well formed: take it out of the reply and keep its strings.
    let Json::Object(members) = &mut reply else {
        unreachable!("a reply with the key is an object")
    };
    let mut list = Json::Null;
    members.retain_mut(|(key, value)| {
        if key == TOOL_OUTPUT_IMAGES_KEY {
            list = std::mem::replace(value, Json::Null);
            false
        } else {
            true
        }
    });
    let items = match list {
        Json::Array(items) => items,
        _ => Vec::new(),
    };
    let images = items
        .into_iter()
        .zip(entries)
        .map(|(item, (media_type, payload_len, bytes))| {
            let (url, label) = take_url_and_label(item);
            SplitImage {
                media_type,
                payload: tail(url, payload_len),
                label,
                bytes,
            }
        })
        .collect();
    Ok(SplitReply {
        rest: reply,
        images,
    })
}

fn take_url_and_label(item: Json<'_>) -> (Cow<'_, str>, Option<Cow<'_, str>>) {
    let mut url = Cow::Borrowed("");
    let mut label = None;
    if let Json::Object(members) = item {
        for (key, value) in members {
            match (key.as_ref(), value) {
                ("image_url", Json::String(s)) => url = s,
                ("label", Json::String(s)) => label = Some(s),
                ("label", _) => label = None,
                _ => {}
            }
        }
    }
    (url, label)
}

/// The last `len` bytes of a string, borrowed when the string is.
fn tail(text: Cow<'_, str>, len: usize) -> Cow<'_, str> {
    match text {
        Cow::Borrowed(s) => Cow::Borrowed(&s[s.len() - len..]),
        Cow::Owned(s) => Cow::Owned(s[s.len() - len..].to_string()),
    }
}

/// The rest of a reply as the compact JSON text the model gets as tool output.
pub fn rest_text(rest: &Json<'_>) -> String {
    serde_json::to_string(rest).expect("a parsed JSON tree serializes")
}

/// The default output: canonical parts in the order a model receives them.
pub fn canonical_parts<'s>(split: &'s SplitReply<'_>) -> Json<'s> {
    let text = |text: Cow<'s, str>| {
        Json::Object(vec![
            (Cow::Borrowed("type"), Json::String(Cow::Borrowed("text"))),
            (Cow::Borrowed("text"), Json::String(text)),
        ])
    };
    let mut parts = vec![text(Cow::Owned(rest_text(&split.rest)))];
    for image in &split.images {
        if let Some(label) = image.label.as_deref().filter(|l| !l.is_empty()) {
            parts.push(text(Cow::Borrowed(label)));
        }
        parts.push(Json::Object(vec![
            (Cow::Borrowed("type"), Json::String(Cow::Borrowed("image"))),
            (
                Cow::Borrowed("mimeType"),
                Json::String(Cow::Borrowed(&image.media_type)),
            ),
            (
                Cow::Borrowed("data"),
                Json::String(Cow::Borrowed(&image.payload)),
            ),
        ]));
    }
    Json::Array(parts)
}
