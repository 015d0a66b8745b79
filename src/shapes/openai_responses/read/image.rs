//! Reading an `image_generation_call` item that holds its image (a string
//! `result`) as an assistant image block (docs/conversion.md, images the
//! model made). One still in progress, or failed, has no image: the caller
//! keeps it opaque.

use serde_json::{Map, Value};

use super::content::quiet;
use crate::contract::ext::Own;
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
pub(super) fn read_image_call(map: &Map<String, Value>) -> Option<Block> {
    let data = map.get("result")?.as_str()?;
    let mime_type = match map.get("output_format") {
        None => "image/png",
        Some(Value::String(format)) => FORMATS.iter().find(|(f, _)| f == format)?.1,
        Some(_) => return None,
    };
    let mut own = Own::new();
    own.hint("item", KIND);
    quiet(&mut own, map, &["id", "status", "output_format"]);
    own.keep_unknown(map, &["type", "result", "id", "status", "output_format"]);
    let keys: Vec<&str> = map.keys().map(String::as_str).collect();
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
