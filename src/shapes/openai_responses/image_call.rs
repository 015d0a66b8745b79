//! An `image_generation_call` item (the image the built-in image tool made)
//! as an assistant image block, and back (docs/conversion.md, images the
//! model made): what the reader and the writer agree on. The block carries
//! the `$item` hint; the item's other members stay in this shape's entries,
//! its key order in `$order` when it is not the API's.

use crate::contract::ext::Mine;
use crate::part::{MediaPart, Part, Source};
use crate::transcript::{Block, Extensions};

use super::SHAPE;

/// The item's `type`, and the `$item` hint of a block read from one.
pub(super) const KIND: &str = "image_generation_call";

/// `output_format` and the media type it stands for; `png` when absent.
pub(super) const FORMATS: [(&str, &str); 3] = [
    ("png", "image/png"),
    ("jpeg", "image/jpeg"),
    ("webp", "image/webp"),
];

/// The order the API writes the item's members in; others follow.
const API_ORDER: [&str; 9] = [
    "id",
    "type",
    "status",
    "background",
    "output_format",
    "quality",
    "result",
    "revised_prompt",
    "size",
];

/// Whether a block is an image read from an `image_generation_call` (and
/// still one that can be written back: base64 data).
pub(super) fn is_generated(block: &Block) -> bool {
    generated(block).is_some()
}

/// An image block read from an `image_generation_call`: its part, its base64
/// and its extensions.
pub(super) fn generated(block: &Block) -> Option<(&MediaPart, &str, &Extensions)> {
    match block {
        Block::Part {
            part: Part::Media(media),
            extensions,
        } if Mine::of(extensions, SHAPE).hint_str("item") == Some(KIND) => match &media.source {
            Source::Data(data) => Some((media, data, extensions)),
            Source::Url(_) => None,
        },
        _ => None,
    }
}

/// The order the writer gives `keys` when no `$order` says otherwise: the
/// API's, then the rest as they come.
pub(super) fn default_order<'k>(keys: impl Iterator<Item = &'k str>) -> Vec<&'k str> {
    let keys: Vec<&str> = keys.collect();
    let mut known: Vec<&str> = keys
        .iter()
        .copied()
        .filter(|k| API_ORDER.contains(k))
        .collect();
    known.sort_by_key(|k| API_ORDER.iter().position(|a| a == k));
    known.extend(keys.iter().copied().filter(|k| !API_ORDER.contains(k)));
    known
}
