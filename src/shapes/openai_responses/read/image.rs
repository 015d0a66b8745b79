//! Reading an `image_generation_call` item that holds its image (a string
//! `result`) as an assistant image block (docs/conversion.md, images the
//! model made). One still in progress, or failed, has no image: the caller
//! keeps it opaque.

use super::content::quiet;
use crate::contract::ext::Own;
use crate::json::{Node, Object, View};
use crate::media::MediaKind;
use crate::part::{MediaPart, Part, Source};
use crate::shapes::openai_responses::image_call::{default_order, FORMATS, KIND};
use crate::shapes::openai_responses::SHAPE;
use crate::transcript::{Block, Extensions};

/// The image block of an `image_generation_call` item, or `None` when the
/// item has no image (no string `result`) or a format partkit cannot name.
///
/// `id`, `status` and `output_format` (which the media type says again) are
/// hints, so no warning names them; `revised_prompt`, `size`, `background`,
/// `quality` and unknown members are kept fields, reported dropped where
/// another shape has no place for them. The payload stays the string read
/// (a placeholder when the document lends it), checked by `validate`.
pub(super) fn read_image_call<O: Object>(map: &O) -> Option<Block> {
    let data = map.get("result")?.as_str()?;
    let mime_type = match map.get("output_format").map(Node::view) {
        None => "image/png",
        Some(View::String(format)) => FORMATS.iter().find(|(f, _)| *f == format)?.1,
        Some(_) => return None,
    };
    let mut own = Own::new();
    own.hint("item", KIND);
    quiet(&mut own, map, &["id", "status", "output_format"]);
    own.keep_unknown(map, &["type", "result", "id", "status", "output_format"]);
    let keys: Vec<&str> = map.members().map(|(key, _)| key).collect();
    if default_order(keys.iter().copied()) != keys {
        own.hint("order", keys);
    }
    let mut extensions = Extensions::new();
    own.store(&mut extensions, SHAPE);
    Some(Block::Part {
        part: Part::Media(MediaPart {
            kind: MediaKind::Image,
            mime_type: mime_type.to_string(),
            source: Source::Data(data.to_string()),
            name: None,
        }),
        extensions,
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn items_with_an_image_become_image_blocks() {
        let table = [
            // The API's order: no `$order`; bookkeeping as hints, the rest kept.
            (
                json!({"id": "ig_1", "type": "image_generation_call", "status": "completed",
                       "background": "opaque", "output_format": "webp", "quality": "low",
                       "result": "UklGRg==", "revised_prompt": "an echidna", "size": "1536x1024"}),
                Some(
                    json!({"type": "image", "mimeType": "image/webp", "data": "UklGRg==",
                            "extensions": {"openai-responses": {
                                "$item": "image_generation_call", "$id": "ig_1",
                                "$status": "completed", "$output_format": "webp",
                                "background": "opaque", "quality": "low",
                                "revised_prompt": "an echidna", "size": "1536x1024"}}}),
                ),
            ),
            // No output_format: PNG, the API's default; another order is said.
            (
                json!({"type": "image_generation_call", "result": "iVBORw==", "id": "ig_2"}),
                Some(
                    json!({"type": "image", "mimeType": "image/png", "data": "iVBORw==",
                            "extensions": {"openai-responses": {
                                "$item": "image_generation_call", "$id": "ig_2",
                                "$order": ["type", "result", "id"]}}}),
                ),
            ),
            // No image yet, or none at all: kept opaque by the caller.
            (
                json!({"id": "ig_3", "type": "image_generation_call", "status": "in_progress"}),
                None,
            ),
            (
                json!({"id": "ig_4", "type": "image_generation_call", "status": "failed", "result": null}),
                None,
            ),
            // A format partkit cannot name.
            (
                json!({"type": "image_generation_call", "output_format": "tiff", "result": "AA=="}),
                None,
            ),
        ];
        for (item, expected) in table {
            let block = read_image_call(item.as_object().unwrap()).map(|b| b.to_value());
            assert_eq!(block, expected, "{item}");
        }
    }
}
