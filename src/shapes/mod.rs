//! Provider wire shapes. Each shape module holds the writer (and, with `convert`,
//! the reader) between the canonical model and that shape's blocks; nothing
//! converts between two provider shapes directly.

pub mod anthropic;
pub mod bedrock;
pub mod canonical;
pub mod gemini;
pub(crate) mod kit;
pub mod mcp;
pub mod nemo_gym;
pub mod openai_chat;
pub mod openai_responses;
#[cfg(test)]
pub(crate) mod tree_tests;

use std::sync::OnceLock;

use serde_json::{Map, Value};

pub use crate::contract::{
    Dialect, EntryProblem, Envelope, Facts, ImageReply, Order, Place, Shape, SplitReply,
    StreamAssembler, Unsupported, HUB,
};
use crate::part::{MediaPart, Part};
pub(crate) use partkit_core::{delegate, dialect_basics, reads_trees};

/// Every shape's dialect, in [`Shape::ALL`]'s order: the one list of the
/// shapes' folders.
const DIALECTS: [&dyn Dialect; Shape::ALL.len()] = [
    &canonical::Canonical,
    &openai_chat::OpenaiChat,
    &openai_responses::OpenaiResponses,
    &anthropic::Anthropic,
    &gemini::Gemini,
    &bedrock::Bedrock,
    &mcp::Mcp,
    &nemo_gym::NemoGym,
];

/// A shape's place in the registry: its dialect, found from the shape.
/// (`Shape` is defined in the bottom layer, which cannot know the shapes'
/// folders; this trait is how the layer above looks them up.)
pub trait Registered {
    /// What the command line says of the shape.
    fn facts(self) -> &'static Facts;

    /// Everything partkit knows of the shape, behind one trait.
    fn dialect(self) -> &'static dyn Dialect;
}

impl Registered for Shape {
    fn facts(self) -> &'static Facts {
        self.dialect().facts()
    }

    fn dialect(self) -> &'static dyn Dialect {
        DIALECTS[self as usize]
    }
}

/// The shapes in the order the scan asks them about an object
/// ([`Order`]'s `scan`).
pub fn scan_order() -> &'static [Shape] {
    static ORDER: OnceLock<Vec<Shape>> = OnceLock::new();
    ORDER.get_or_init(|| ordered(|order| order.scan))
}

/// The shapes in the order that settles a tie of evidence ([`Order`]'s `ties`).
pub fn tie_order() -> &'static [Shape] {
    static ORDER: OnceLock<Vec<Shape>> = OnceLock::new();
    ORDER.get_or_init(|| ordered(|order| order.ties))
}

/// The envelope `--kind rollout` and a rollout line mean: the one a shape
/// offers (NeMo Gym's rollout; a test checks there is exactly one).
pub fn rollout() -> &'static dyn Envelope {
    offered(|dialect| dialect.envelope(), "the rollout envelope")
}

/// The image reply `--kind reply` means: the one a shape offers (NeMo Gym's
/// `tool_output_images`; a test checks there is exactly one).
pub fn image_reply() -> &'static dyn ImageReply {
    offered(|dialect| dialect.image_reply(), "the image reply")
}

/// What one shape of the registry offers (asked with `ask`): eight calls,
/// cheaper to repeat than to cache.
fn offered<T: ?Sized>(ask: fn(&dyn Dialect) -> Option<&'static T>, what: &str) -> &'static T {
    Shape::ALL
        .iter()
        .find_map(|shape| ask(shape.dialect()))
        .unwrap_or_else(|| panic!("no shape offers {what}"))
}

fn ordered(place: fn(Order) -> u8) -> Vec<Shape> {
    let mut shapes = Shape::ALL.to_vec();
    shapes.sort_by_key(|shape| place(shape.dialect().order()));
    shapes
}

/// The byte lengths of pieces a reader joins into one text, as the hint that
/// lets [`split_joined`] take them apart again.
pub fn lengths_of(pieces: &[&str]) -> Value {
    Value::from(pieces.iter().map(|piece| piece.len()).collect::<Vec<_>>())
}

/// Text split back into the pieces it was joined from with `separator`
/// between them (their byte lengths, from [`lengths_of`]); `None` when the
/// text no longer fits the lengths.
pub fn split_joined<'t>(text: &'t str, lengths: &[Value], separator: &str) -> Option<Vec<&'t str>> {
    let mut pieces = Vec::with_capacity(lengths.len());
    let mut rest = text;
    for (i, length) in lengths.iter().enumerate() {
        let length = usize::try_from(length.as_u64()?).ok()?;
        let head = rest.get(..length)?;
        let tail = &rest[length..];
        pieces.push(head);
        rest = if i + 1 == lengths.len() {
            (tail.is_empty()).then_some(tail)?
        } else {
            tail.strip_prefix(separator)?
        };
    }
    Some(pieces)
}

/// Writes one part as a block of `shape` at `place`.
pub fn write_part(shape: Shape, part: &Part, place: Place) -> Result<Value, Unsupported> {
    shape.dialect().write_part(part, place)
}

/// Builds a JSON object from key/value pairs, keeping their order.
pub(crate) fn object<const N: usize>(entries: [(&str, Value); N]) -> Value {
    let mut map = Map::with_capacity(N);
    for (key, value) in entries {
        map.insert(key.to_string(), value);
    }
    Value::Object(map)
}

/// A JSON string value.
pub(crate) fn string(text: &str) -> Value {
    Value::String(text.to_string())
}

/// The image types the big providers accept (OpenAI, Anthropic, Bedrock, NeMo Gym).
pub(crate) const WEB_IMAGE_TYPES: &[&str] = &["image/png", "image/jpeg", "image/gif", "image/webp"];

/// The media type of an image whose type nothing tells (a URL with no
/// extension, `https://picsum.photos/200`).
pub(crate) const UNKNOWN_IMAGE_TYPE: &str = "image/*";

/// Whether `part` is an image by URL whose type nothing tells: the provider
/// fetches the bytes and sniffs them, so only the provider can judge it.
pub(crate) fn is_untyped_url_image(part: &MediaPart) -> bool {
    matches!(part.source, crate::part::Source::Url(_)) && part.mime_type == UNKNOWN_IMAGE_TYPE
}

/// Refuses an image whose type is not in `allowed`. An image by URL whose
/// type nothing tells passes: the provider fetches the bytes and sniffs them
/// (OpenAI accepts `https://picsum.photos/200`), so a writer whose URL form
/// declares no type writes it; a writer whose URL form needs a declared type
/// refuses it itself, with its own reason.
pub(crate) fn check_image_type(
    part: &MediaPart,
    shape: Shape,
    allowed: &[&str],
) -> Result<(), Unsupported> {
    if allowed.contains(&part.mime_type.as_str()) || is_untyped_url_image(part) {
        return Ok(());
    }
    let names: Vec<&str> = allowed
        .iter()
        .map(|m| m.strip_prefix("image/").unwrap_or(m))
        .collect();
    Err(Unsupported::media(
        part,
        shape,
        format!("{shape} accepts only {} images", join_or(&names)),
    ))
}

/// `a, b or c`.
pub(crate) fn join_or(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_registry_lists_every_shape_once_in_order() {
        for (at, shape) in Shape::ALL.into_iter().enumerate() {
            assert_eq!(DIALECTS[at].shape(), shape);
        }
        for place in [|order: Order| order.scan, |order: Order| order.ties] {
            let mut places: Vec<u8> = Shape::ALL
                .iter()
                .map(|shape| place(shape.dialect().order()))
                .collect();
            places.sort_unstable();
            places.dedup();
            assert_eq!(places.len(), Shape::ALL.len(), "two shapes share a place");
        }
    }

    #[test]
    fn one_shape_offers_the_rollout_and_the_image_reply() {
        let offered = Shape::ALL
            .iter()
            .filter(|shape| shape.dialect().envelope().is_some())
            .count();
        assert_eq!(offered, 1);
        assert_eq!(rollout().name(), "NeMo Gym rollout");
        let replies = Shape::ALL
            .iter()
            .filter(|shape| shape.dialect().image_reply().is_some())
            .count();
        assert_eq!(replies, 1);
        assert_eq!(image_reply().key(), "tool_output_images");
    }

    #[test]
    fn the_orders_are_the_documented_ones() {
        use Shape::*;
        let scan = [
            Canonical,
            OpenaiChat,
            OpenaiResponses,
            Anthropic,
            Mcp,
            Gemini,
            Bedrock,
            NemoGym,
        ];
        assert_eq!(scan_order(), scan);
        let ties = [
            Gemini,
            OpenaiResponses,
            Bedrock,
            Canonical,
            Anthropic,
            OpenaiChat,
            Mcp,
            NemoGym,
        ];
        assert_eq!(tie_order(), ties);
    }
}
