//! Reading Anthropic image and document blocks into canonical media parts
//! (their source, media type and the fields kept for writing them back).

use serde_json::{Map, Value};

use crate::b64;
use crate::contract::ext::Own;
use crate::json::lent::Lending;
use crate::json::{Node, Object};
use crate::media::{self, MediaKind};
use crate::part::{MediaPart, Part, Source};
use crate::shapes::WEB_IMAGE_TYPES;

/// The fields of a source other than `known`, as the `$source` hint.
pub(super) fn keep_source_extra<O: Object>(own: &mut Own, source: &O, known: &[&str]) {
    let extra: Map<String, Value> = source
        .members()
        .filter(|(key, _)| !known.contains(key))
        .map(|(key, value)| (key.to_string(), value.to_value()))
        .collect();
    if !extra.is_empty() {
        own.hint("source", Value::Object(extra));
    }
}

/// A declared media type, normalized, with the `$media_type` hint when the
/// input spelled it another way.
pub(super) fn media_type(raw: &str, own: &mut Own) -> Option<String> {
    let normalized = media::normalize(raw)?;
    if normalized != raw {
        own.hint("media_type", raw);
    }
    Some(normalized)
}

/// An image block with a base64 or URL source; `None` (kept opaque) for a
/// `file` source (an upload only Anthropic has) or anything unreadable.
pub(super) fn read_image<O: Object>(map: &O, own: &mut Own) -> Option<Part> {
    let source = map.get("source")?.as_object()?;
    let (mime_type, source_value) = match source.get("type")?.as_str()? {
        "base64" => {
            let data = source.get("data")?.as_str()?;
            let mime_type = media_type(source.get("media_type")?.as_str()?, own)?;
            if MediaKind::of(&mime_type) != MediaKind::Image {
                return None;
            }
            keep_source_extra(own, source, &["type", "media_type", "data"]);
            (mime_type, Source::Data(data.to_string()))
        }
        "url" => {
            let url = source.get("url")?.as_str()?;
            // The block declares no type: the URL's extension tells it when it
            // names a type Anthropic takes, else it is unknown (`image/*`).
            let mime_type = media::extension_of_url(url)
                .as_deref()
                .and_then(media::from_extension)
                .filter(|mime| WEB_IMAGE_TYPES.contains(mime))
                .unwrap_or("image/*")
                .to_string();
            keep_source_extra(own, source, &["type", "url"]);
            (mime_type, Source::Url(url.to_string()))
        }
        _ => return None,
    };
    own.keep_unknown(map, &["type", "source"]);
    Some(Part::Media(MediaPart {
        kind: MediaKind::Image,
        mime_type,
        source: source_value,
        name: None,
    }))
}

/// A document block: a PDF (base64 or URL) or plain text (a `text` source,
/// which becomes a text/plain file part holding the base64 of the UTF-8 text);
/// its `title` is the part's name. `None` (kept opaque) for `content` and
/// `file` sources and for base64 documents that are not PDF. `lending`: what
/// the document lends.
pub(super) fn read_document<O: Object>(map: &O, own: &mut Own, lending: &Lending) -> Option<Part> {
    let source = map.get("source")?.as_object()?;
    let (mime_type, source_value) = match source.get("type")?.as_str()? {
        "base64" => {
            let data = source.get("data")?.as_str()?;
            let mime_type = media_type(source.get("media_type")?.as_str()?, own)?;
            if mime_type != "application/pdf" {
                return None;
            }
            keep_source_extra(own, source, &["type", "media_type", "data"]);
            (mime_type, Source::Data(data.to_string()))
        }
        "url" => {
            let url = source.get("url")?.as_str()?;
            keep_source_extra(own, source, &["type", "url"]);
            // Anthropic reads URL documents as PDF.
            ("application/pdf".to_string(), Source::Url(url.to_string()))
        }
        "text" => {
            // Text under a key that usually holds base64: it may have been
            // lent as if it were (crate::json::lent).
            let text = lending.resolved(source.get("data")?.as_str()?);
            match source.get("media_type") {
                None => own.hint("media_type", Value::Null),
                Some(raw) => {
                    if media_type(raw.as_str()?, own)? != "text/plain" {
                        return None;
                    }
                }
            }
            keep_source_extra(own, source, &["type", "media_type", "data"]);
            (
                "text/plain".to_string(),
                Source::Data(b64::encode(text.as_bytes())),
            )
        }
        // Text blocks as the document: a text/plain file of the blocks one
        // per line; their lengths bring the blocks back.
        "content" => {
            let texts: Vec<&str> = source
                .get("content")?
                .as_array()?
                .iter()
                .map(|block| {
                    let block = block.as_object()?;
                    let plain = block.len() == 2 && block.get("type")?.as_str()? == "text";
                    plain.then(|| block.get("text")?.as_str()).flatten()
                })
                .collect::<Option<_>>()?;
            if texts.is_empty() {
                return None;
            }
            keep_source_extra(own, source, &["type", "content"]);
            own.hint("content", crate::shapes::lengths_of(&texts));
            (
                "text/plain".to_string(),
                Source::Data(b64::encode(texts.join("\n").as_bytes())),
            )
        }
        _ => return None,
    };
    let name = map.get("title").and_then(Node::as_str).map(str::to_string);
    let known: &[&str] = if name.is_some() {
        &["type", "source", "title"]
    } else {
        &["type", "source"]
    };
    own.keep_unknown(map, known);
    Some(Part::Media(MediaPart {
        kind: MediaKind::File,
        mime_type,
        source: source_value,
        name,
    }))
}
