//! Images embedded in a JSON document of any shape (every kind `scan`
//! finds: canonical parts, tool_output_images, OpenAI, Anthropic, Gemini,
//! Bedrock and MCP blocks, data: URLs in strings). Each one over a cap is
//! resized and its base64 replaced in the document's own bytes, together with
//! its declared type when the format changed; every other byte of the document
//! stays as it was (key order, spacing, numbers, escapes).

use rayon::prelude::*;

use super::{resize_image, ResizeError, ResizeOptions, Resized};
use crate::b64;
use crate::check::{self, Depth};
use crate::document::LentFile;
use crate::json::lent::Lending;
use crate::json::{self, pointer_token, Json};
use crate::media::MediaKind;
use crate::scan::{self, Payload};

/// One embedded image and what became of it.
#[derive(Debug, Clone)]
pub struct DocumentImage {
    /// The JSON pointer of the block (or string) that holds it.
    pub pointer: String,
    pub result: Result<Resized, ResizeError>,
    /// The payload was not canonical base64 (read leniently, written canonically).
    pub lenient: bool,
}

/// The result for one document.
#[derive(Debug, Clone)]
pub struct ResizedDocument {
    /// The document with its resized images; `None` when nothing changed.
    pub output: Option<Vec<u8>>,
    /// Every embedded image looked at (changed or not), in document order.
    pub images: Vec<DocumentImage>,
}

impl ResizedDocument {
    /// The images that could not be brought under the caps.
    pub fn failures(&self) -> impl Iterator<Item = (&str, &ResizeError)> {
        self.images
            .iter()
            .filter_map(|i| i.result.as_ref().err().map(|e| (i.pointer.as_str(), e)))
    }
}

/// A replacement of `start..end` in the document's bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Patch {
    start: usize,
    end: usize,
    text: String,
}

/// One base64 payload worth looking at.
struct Item<'j> {
    pointer: String,
    kind: &'static str,
    declared: Option<String>,
    declared_raw: Option<&'j str>,
    payload: &'j str,
}

impl Item<'_> {
    fn declares_image(&self) -> bool {
        self.declared
            .as_deref()
            .is_some_and(|t| MediaKind::of(t) == MediaKind::Image)
    }
}

/// Resizes every embedded image of one JSON document that breaks a cap.
/// Returns an error only for a document that is not JSON.
pub fn resize_document(
    bytes: &[u8],
    options: &ResizeOptions,
) -> Result<ResizedDocument, serde_json::Error> {
    let doc = json::parse(bytes)?;
    let (items, options) = items_of(&doc, options);
    let results: Vec<Option<(DocumentImage, Option<Vec<u8>>)>> = items
        .par_iter()
        .map(|item| look_at(item, &options))
        .collect();
    let mut edits = Vec::new();
    let mut images = Vec::new();
    for (item, result) in items.iter().zip(results) {
        let Some((image, new_bytes)) = result else {
            continue;
        };
        if let (Ok(resized), Some(new_bytes)) = (&image.result, new_bytes) {
            let encoded = b64::encode(&new_bytes);
            edits.extend(edit(bytes, &doc, item.payload, encoded));
            let new_type = resized.after.format.media_type();
            if let Some(raw) = item.declared_raw {
                if item.declared.as_deref() != Some(new_type) {
                    let text = if item.kind.starts_with("bedrock") {
                        resized.after.format.name().to_string()
                    } else {
                        new_type.to_string()
                    };
                    edits.extend(edit(bytes, &doc, raw, text));
                }
            }
        }
        images.push(image);
    }
    let output = (!edits.is_empty()).then(|| apply(bytes, edits));
    Ok(ResizedDocument { output, images })
}

/// The base64 payloads of a document, and the options for it (the caps of
/// a profile may depend on how many images it holds).
fn items_of<'j>(doc: &'j Json<'_>, options: &ResizeOptions) -> (Vec<Item<'j>>, ResizeOptions) {
    let found = scan::find_media(doc);
    let image_count = found
        .iter()
        .filter(|f| {
            f.declared
                .as_deref()
                .is_some_and(|t| t.starts_with("image/"))
        })
        .count();
    let items = found
        .into_iter()
        .filter_map(|f| match f.payload {
            Payload::Base64(payload) => Some(Item {
                pointer: f.pointer,
                kind: f.kind,
                declared: f.declared,
                declared_raw: f.declared_raw,
                payload,
            }),
            _ => None,
        })
        .collect();
    let mut options = options.clone();
    options.limits = options.limits.for_document(image_count);
    (items, options)
}

/// The images of a large JSON file when every one is within every cap, told
/// from the file without holding it: its payloads are lent from the file
/// ([`crate::document::Document::open`]) and each image judged from its
/// first bytes. What [`resize_document`] of the whole file reports then,
/// with the file passing through unchanged. `None` when anything needs more
/// (an image to resize or to decode in full, a payload that is not strict
/// base64, a file that changed): the caller reads the file as usual.
pub(super) fn unchanged_file(
    file: LentFile,
    options: &ResizeOptions,
) -> Option<Vec<DocumentImage>> {
    file.with_document(|parsed, _, lending| {
        let (items, options) = items_of(&parsed.json, options);
        let mut buffer = Vec::new();
        let mut images = Vec::new();
        for item in &items {
            images.extend(judged_from_prefix(item, &options, &mut buffer, lending)?);
        }
        Some(images)
    })
}

/// [`resize_document`] of the values at the `--at` pointers (the whole
/// document when there are none): only those values can change, and image
/// pointers are full pointers from the document's root. `Err` says why the
/// document is not JSON or lacks a value.
pub fn resize_document_at(
    bytes: &[u8],
    at: &crate::subdoc::At,
    options: &ResizeOptions,
) -> Result<ResizedDocument, String> {
    if !at.is_active() {
        return resize_document(bytes, options).map_err(|e| format!("invalid JSON: {e}"));
    }
    let located = at.locate(bytes).map_err(|e| e.to_string())?;
    let mut images = Vec::new();
    let mut replacements = Vec::new();
    for value in located {
        let part = resize_document(&bytes[value.range.clone()], options)
            .map_err(|e| format!("{}: invalid JSON: {e}", value.pointer))?;
        images.extend(part.images.into_iter().map(|mut image| {
            image.pointer = crate::subdoc::join(&value.pointer, &image.pointer);
            image
        }));
        if let Some(output) = part.output {
            replacements.push((value.range, output));
        }
    }
    let output =
        (!replacements.is_empty()).then(|| crate::subdoc::splice(bytes, &mut replacements));
    Ok(ResizedDocument { output, images })
}

/// Decodes one payload and resizes it when it is an image; `None` for a
/// payload that is not an image (and is left alone).
fn look_at(item: &Item<'_>, options: &ResizeOptions) -> Option<(DocumentImage, Option<Vec<u8>>)> {
    // Decoded into a buffer kept per thread: a fresh one per payload cost
    // more in page faults than the decoding (most images pass unchanged).
    thread_local! {
        static DECODED: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    DECODED.with(|buffer| match buffer.try_borrow_mut() {
        Ok(mut buffer) => look_at_decoded(item, options, &mut buffer),
        Err(_) => look_at_decoded(item, options, &mut Vec::new()),
    })
}

fn look_at_decoded(
    item: &Item<'_>,
    options: &ResizeOptions,
    buffer: &mut Vec<u8>,
) -> Option<(DocumentImage, Option<Vec<u8>>)> {
    // A document read whole: nothing is lent.
    if let Some(judged) = judged_from_prefix(item, options, buffer, &Lending::NONE) {
        return judged.map(|image| (image, None));
    }
    let owned;
    let (decoded, lenient): (&[u8], bool) = match b64::decode_strict_into(item.payload, buffer) {
        Ok(()) => (buffer, false),
        Err(_) => match b64::decode_lenient(item.payload) {
            Ok((bytes, _)) => {
                owned = bytes;
                (&owned, true)
            }
            Err(_) => return None,
        },
    };
    let is_image = super::sniff_format(decoded).is_ok();
    if !is_image && !item.declares_image() {
        return None;
    }
    let result = resize_image(decoded, options);
    let too_big = !options.limits.bytes_fit(decoded.len() as u64)
        || options
            .limits
            .max_encoded_bytes
            .is_some_and(|max| item.payload.len() as u64 > max);
    match result {
        // Bytes partkit cannot read are left alone unless they break a byte cap.
        Err(ResizeError::NotAnImage(_)) if !too_big => None,
        Ok(resized) if resized.bytes.is_none() && lenient && too_big => {
            // Within every cap once written canonically.
            let image = DocumentImage {
                pointer: item.pointer.clone(),
                result: Ok(resized),
                lenient,
            };
            Some((image, Some(decoded.to_vec())))
        }
        result => {
            let new_bytes = result.as_ref().ok().and_then(|r| r.bytes.clone());
            Some((
                DocumentImage {
                    pointer: item.pointer.clone(),
                    result,
                    lenient,
                },
                new_bytes,
            ))
        }
    }
}

/// A payload settled from its first bytes (strict base64 only; see
/// [`super::within_caps_from_prefix`]), without decoding the rest:
/// `Some(None)` for one that is not an image (left alone), `Some(image)` for
/// an image within every cap; `None` when the rest must be decoded. The
/// payload may be a placeholder `lending` lends.
fn judged_from_prefix(
    item: &Item<'_>,
    options: &ResizeOptions,
    buffer: &mut Vec<u8>,
    lending: &Lending,
) -> Option<Option<DocumentImage>> {
    let len = check::decode_strict_prefix(item.payload, buffer, Depth::Header, lending).ok()?;
    if !item.declares_image() && super::sniff_format(buffer).is_err() {
        return Some(None);
    }
    let resized = super::within_caps_from_prefix(buffer, len, options)?;
    Some(Some(DocumentImage {
        pointer: item.pointer.clone(),
        result: Ok(resized),
        lenient: false,
    }))
}

/// A change to the document: `text` in place of `sub`, a slice of one of its
/// strings.
struct Edit<'s> {
    /// Where the string's bytes are in the document, when it was borrowed.
    span: Option<(usize, usize)>,
    /// Otherwise (a string with escapes, copied when parsed): its pointer and
    /// text, and where `sub` is in it.
    copied: Option<(String, &'s str, usize)>,
    len: usize,
    text: String,
}

fn edit<'d>(bytes: &[u8], doc: &'d Json<'_>, sub: &str, text: String) -> Option<Edit<'d>> {
    let base = bytes.as_ptr() as usize;
    let at = sub.as_ptr() as usize;
    if at >= base && at + sub.len() <= base + bytes.len() {
        return Some(Edit {
            span: Some((at - base, at - base + sub.len())),
            copied: None,
            len: sub.len(),
            text,
        });
    }
    let (pointer, value) = owner(doc, String::new(), sub)?;
    let offset = at - value.as_ptr() as usize;
    Some(Edit {
        span: None,
        copied: Some((pointer, value, offset)),
        len: sub.len(),
        text,
    })
}

/// The string of the tree whose text holds `sub`, with its pointer.
fn owner<'d>(value: &'d Json<'_>, pointer: String, sub: &str) -> Option<(String, &'d str)> {
    match value {
        Json::String(text) => {
            let (start, at) = (text.as_ptr() as usize, sub.as_ptr() as usize);
            (at >= start && at + sub.len() <= start + text.len()).then(|| (pointer, &**text))
        }
        Json::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, item)| owner(item, format!("{pointer}/{i}"), sub)),
        Json::Object(members) => members
            .iter()
            .find_map(|(key, item)| owner(item, format!("{pointer}/{}", pointer_token(key)), sub)),
        _ => None,
    }
}

/// A replacement of `start..end` in a copied string's text.
type Change = (usize, usize, String);

/// Turns edits into byte patches: a borrowed string is patched where its
/// slice stands; a copied string is written anew, once, with all its edits.
fn patches(bytes: &[u8], edits: Vec<Edit<'_>>) -> Vec<Patch> {
    let mut out = Vec::new();
    let mut copied: Vec<(String, &str, Vec<Change>)> = Vec::new();
    for edit in edits {
        match (edit.span, edit.copied) {
            (Some((start, end)), _) => out.push(Patch {
                start,
                end,
                text: edit.text,
            }),
            (None, Some((pointer, value, offset))) => {
                let change = (offset, offset + edit.len, edit.text);
                match copied.iter_mut().find(|(p, _, _)| *p == pointer) {
                    Some((_, _, changes)) => changes.push(change),
                    None => copied.push((pointer, value, vec![change])),
                }
            }
            (None, None) => {}
        }
    }
    for (pointer, value, mut changes) in copied {
        changes.sort_by_key(|c| c.0);
        let mut text = String::with_capacity(value.len());
        let mut at = 0;
        for (start, end, replacement) in &changes {
            if *start < at {
                continue;
            }
            text.push_str(&value[at..*start]);
            text.push_str(replacement);
            at = *end;
        }
        text.push_str(&value[at..]);
        if let (Some((start, end)), Ok(text)) = (
            json::raw_span(bytes, &pointer),
            serde_json::to_string(&text),
        ) {
            out.push(Patch { start, end, text });
        }
    }
    out
}

/// The document with its edits applied.
fn apply(bytes: &[u8], edits: Vec<Edit<'_>>) -> Vec<u8> {
    let mut patches = patches(bytes, edits);
    patches.sort_by_key(|p| (p.start, p.end));
    let extra: usize = patches.iter().map(|p| p.text.len()).sum();
    let mut out = Vec::with_capacity(bytes.len() + extra);
    let mut at = 0;
    for patch in &patches {
        if patch.start < at {
            continue;
        }
        out.extend_from_slice(&bytes[at..patch.start]);
        out.extend_from_slice(patch.text.as_bytes());
        at = patch.end;
    }
    out.extend_from_slice(&bytes[at..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patches_apply_in_order() {
        let bytes = br#"{"a":"xyz","b":"q"}"#;
        let doc = json::parse(bytes).unwrap();
        let edits = vec![
            edit(
                bytes,
                &doc,
                doc.get("b").unwrap().as_str().unwrap(),
                "r".into(),
            )
            .unwrap(),
            edit(
                bytes,
                &doc,
                doc.get("a").unwrap().as_str().unwrap(),
                "hello".into(),
            )
            .unwrap(),
        ];
        assert_eq!(apply(bytes, edits), br#"{"a":"hello","b":"r"}"#);
    }

    #[test]
    fn escaped_strings_are_rewritten_with_every_change() {
        let bytes = br#"{"u":"data:image\/png;base64,AAAA","n":1.0}"#;
        let doc = json::parse(bytes).unwrap();
        let url = doc.get("u").unwrap().as_str().unwrap();
        let edits = vec![
            edit(bytes, &doc, &url[5..14], "image/jpeg".into()).unwrap(),
            edit(bytes, &doc, &url[22..], "BBBB".into()).unwrap(),
        ];
        assert_eq!(
            String::from_utf8(apply(bytes, edits)).unwrap(),
            r#"{"u":"data:image/jpeg;base64,BBBB","n":1.0}"#
        );
    }
}
