//! What a shape's scanner finds in a document (`scan::find_media` walks the
//! document and asks each shape about each object): the items, where their
//! bytes are, the shape's verdict on an object, and the helpers every
//! shape's `scan.rs` shares.

use std::borrow::Cow;

use crate::dataurl;
use crate::json::Json;
use crate::media;

/// Where a found media item's bytes are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Payload<'j> {
    /// Base64, borrowed from the document.
    Base64(&'j str),
    /// A URL (or a provider file reference such as a Gemini file URI).
    Url(&'j str),
    /// Inline plain text (an Anthropic text document, an MCP text resource).
    Text(&'j str),
    /// A document given as text blocks (Anthropic and Bedrock `content`
    /// sources): the list of blocks.
    Blocks(&'j [Json<'j>]),
}

/// One media item found in a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found<'j> {
    /// The JSON pointer of the block (or string) that holds it.
    pub pointer: String,
    /// The shape and block it was recognized as, such as `anthropic image`.
    pub kind: &'static str,
    /// The declared media type, normalized (`None` when none is declared).
    pub declared: Option<String>,
    /// The declared media type as written (or the format token it came from).
    pub declared_raw: Option<&'j str>,
    pub payload: Payload<'j>,
    /// A label or file name, when the block has one (or a data URL's `name=`).
    pub name: Option<Cow<'j, str>>,
}

/// A member's string value.
pub fn string<'j>(value: &'j Json<'j>, key: &str) -> Option<&'j str> {
    value.get(key).and_then(Json::as_str)
}

/// A member under either of two spellings (Gemini's camelCase or snake_case).
pub fn either<'j>(value: &'j Json<'j>, camel: &str, snake: &str) -> Option<&'j Json<'j>> {
    value.get(camel).or_else(|| value.get(snake))
}

/// Pushes the item a data URL (or a URL that fails to parse as one) holds.
pub fn push_data_url<'j>(
    url: &'j str,
    pointer: String,
    kind: &'static str,
    name: Option<&'j str>,
    found: &mut Vec<Found<'j>>,
) {
    let Ok(parsed) = dataurl::parse(url) else {
        found.push(Found {
            pointer,
            kind,
            declared: None,
            declared_raw: None,
            payload: Payload::Url(url),
            name: name.map(Cow::Borrowed),
        });
        return;
    };
    // The whole payload is kept (a data URL in running text is cut where its
    // base64 ends before it gets here), so stray characters are reported.
    let payload = if parsed.base64 {
        Payload::Base64(parsed.payload)
    } else {
        Payload::Text(parsed.payload)
    };
    found.push(Found {
        pointer,
        kind,
        declared: parsed.media_type.clone(),
        declared_raw: Some(parsed.declared).filter(|d| !d.is_empty()),
        payload,
        name: name.map(Cow::Borrowed).or(parsed.name.map(Cow::Owned)),
    });
}

/// What one shape made of an object it was asked about
/// ([`Dialect::recognize_media`](super::Dialect::recognize_media)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// A media block of the shape; it was pushed onto the found items.
    Media,
    /// A block of the shape that holds no media the scan reports: no later
    /// shape is asked, and the walk goes on into its members.
    Empty,
    /// Not a block of the shape: the next shape is asked.
    Other,
}

/// Pushes one block found at `pointer`: its declared type is `declared`, or
/// else `declared_raw` normalized.
pub fn push<'j>(
    found: &mut Vec<Found<'j>>,
    pointer: &str,
    kind: &'static str,
    declared_raw: Option<&'j str>,
    declared: Option<String>,
    payload: Payload<'j>,
    name: Option<&'j str>,
) -> Verdict {
    let declared = declared.or_else(|| declared_raw.and_then(media::normalize));
    found.push(Found {
        pointer: pointer.to_string(),
        kind,
        declared,
        declared_raw,
        payload,
        name: name.map(Cow::Borrowed),
    });
    Verdict::Media
}

/// A `content` list of text blocks (`{"type": "text", "text": …}` or
/// `{"text": …}`).
pub fn text_blocks<'j>(source: &'j Json<'j>) -> Option<&'j [Json<'j>]> {
    let Some(Json::Array(items)) = source.get("content") else {
        return None;
    };
    let texts = !items.is_empty() && items.iter().all(|item| string(item, "text").is_some());
    texts.then_some(items.as_slice())
}

/// The text of a document given as text blocks, one line per block (as the
/// readers join them).
pub fn blocks_text(blocks: &[Json<'_>]) -> String {
    let texts: Vec<&str> = blocks
        .iter()
        .filter_map(|item| string(item, "text"))
        .collect();
    texts.join("\n")
}

/// The media type a URL's extension stands for.
pub fn ext_type(url: &str) -> Option<String> {
    media::extension_of_url(url)
        .as_deref()
        .and_then(media::from_extension)
        .map(str::to_string)
}

/// The engine's walk over a value (at a pointer), for a shape whose member
/// holds values the shape does not recognize itself: they are walked as any
/// value of the document is ([`super::Dialect::scan_member`]).
pub type Walk<'j> = fn(&'j Json<'j>, String, &mut Vec<Found<'j>>);
