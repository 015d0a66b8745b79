//! NeMo Gym tool replies: `tool_output_images` entries (`ToolOutputImage`).

/// What the command line says of this shape.
pub const FACTS: super::Facts = super::Facts {
    document: "NeMo Gym tool reply (single tool results)",
    tool_result: None,
    parts: "NeMo Gym ToolOutputImage entries (images only)",
};

/// This shape's side of [`Dialect`](super::Dialect).
#[derive(Debug, Clone, Copy)]
pub struct NemoGym;

impl super::Dialect for NemoGym {
    super::dialect_basics!(NemoGym, write_part);

    fn order(&self) -> super::Order {
        super::Order { scan: 7, ties: 7 }
    }

    fn envelope(&self) -> Option<&'static dyn super::Envelope> {
        Some(&rollout::Rollout)
    }

    fn image_reply(&self) -> Option<&'static dyn super::ImageReply> {
        Some(&ToolOutputImages)
    }
    super::delegate! {
        recognize_media => scan::recognize,
        scan_member => scan::scan_member,
        detect_document => detect::document,
        conversion => conversion::FACTS,
        validate_facts => rules::FACTS,
    }
}

mod conversion;
mod detect;
mod read;
pub mod rollout;
mod scan;

pub mod rules;
pub mod split;
mod write;

pub use read::read;
pub use write::write;

use serde_json::{Map, Value};

use super::{check_image_type, Place, Shape, SplitReply, Unsupported, WEB_IMAGE_TYPES};
use crate::dataurl;
use crate::json::Json;
use crate::media::MediaKind;
use crate::part::{Part, Source};

const SHAPE: Shape = Shape::NemoGym;

/// The key of the image list in a tool reply.
pub const TOOL_OUTPUT_IMAGES_KEY: &str = "tool_output_images";

/// Writes an image part as a `ToolOutputImage` entry:
/// `{"image_url": <data URL>, "label": <name>}` (no label when unnamed). Only
/// inline PNG, JPEG, GIF and WebP images can be entries.
pub fn write_part(part: &Part, _place: Place) -> Result<Value, Unsupported> {
    let media = match part {
        Part::Text(_) => {
            return Err(Unsupported {
                part_type: "text",
                mime_type: None,
                shape: SHAPE,
                reason: "tool_output_images holds images only".into(),
            })
        }
        Part::Media(media) => media,
    };
    if media.kind != MediaKind::Image {
        return Err(Unsupported::media(
            media,
            SHAPE,
            "tool_output_images holds images only",
        ));
    }
    check_image_type(media, SHAPE, WEB_IMAGE_TYPES)?;
    let Source::Data(data) = &media.source else {
        return Err(Unsupported::media(
            media,
            SHAPE,
            "a ToolOutputImage must be a base64 data: URL, not a remote URL",
        ));
    };
    let mut entry = Map::new();
    entry.insert(
        "image_url".into(),
        Value::String(dataurl::write(&media.mime_type, data)),
    );
    if let Some(name) = &media.name {
        entry.insert("label".into(), Value::String(name.clone()));
    }
    Ok(Value::Object(entry))
}

/// The image types a `ToolOutputImage` may declare.
pub const IMAGE_TYPES: &[&str] = WEB_IMAGE_TYPES;

/// One structurally valid `ToolOutputImage` entry, borrowing from the reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageEntry<'j> {
    /// Position in the list, from 0.
    pub index: usize,
    /// The normalized declared media type.
    pub media_type: String,
    /// The declared media type as written in the data URL.
    pub declared: &'j str,
    /// The base64 payload of the data URL.
    pub payload: &'j str,
    pub label: Option<&'j str>,
}

pub use crate::contract::EntryProblem;

/// What a reply's `tool_output_images` key holds, read structurally (payloads are
/// not decoded here; see `check::check_payload`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImageList<'j> {
    /// The reply is not an object, or has no `tool_output_images` key.
    Absent,
    /// `"tool_output_images": null`.
    Null,
    /// A well-formed list (possibly empty).
    Entries(Vec<ImageEntry<'j>>),
}

/// Reads the image list of a tool reply by NeMo Gym's rules: only `image_url` and
/// `label` keys; `image_url` a base64 `data:` URL of PNG, JPEG, GIF or WebP;
/// `label` a string or null.
pub fn read_image_list<'j>(reply: &'j Json<'_>) -> Result<ImageList<'j>, EntryProblem> {
    read_image_list_with(reply, |_| Ok(()))
}

/// Reads the image list like [`read_image_list`], running `check` on each entry
/// as soon as it has been read, so that the problem reported is the first one in
/// list order (a bad payload in entry 0 before an unknown key in entry 1).
pub fn read_image_list_with<'j, F>(
    reply: &'j Json<'_>,
    mut check: F,
) -> Result<ImageList<'j>, EntryProblem>
where
    F: FnMut(&ImageEntry<'j>) -> Result<(), EntryProblem>,
{
    let Some(list) = reply.get(TOOL_OUTPUT_IMAGES_KEY) else {
        return Ok(ImageList::Absent);
    };
    let items = match list {
        Json::Null => return Ok(ImageList::Null),
        Json::Array(items) => items,
        other => {
            return Err(EntryProblem {
                index: None,
                pointer: format!("/{TOOL_OUTPUT_IMAGES_KEY}"),
                rule: "reply-images-not-list",
                message: format!("must be a list or null, not {}", other.kind()),
            })
        }
    };
    let mut entries = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        let entry = read_entry(index, item)?;
        check(&entry)?;
        entries.push(entry);
    }
    Ok(ImageList::Entries(entries))
}

/// Reads one entry of the list structurally (its payload is not decoded), as
/// NeMo Gym does: the declared type is exactly one of [`IMAGE_TYPES`] — an alias
/// (`image/jpg`) or another case is refused. A data URL parameter
/// (`;name=a.png`) is not part of the type.
pub fn read_entry<'j>(index: usize, item: &'j Json<'_>) -> Result<ImageEntry<'j>, EntryProblem> {
    let entry = parse_entry(index, item)?;
    match inexact_type(&entry) {
        None => Ok(entry),
        Some(message) => Err(EntryProblem {
            index: Some(index),
            pointer: format!("/{TOOL_OUTPUT_IMAGES_KEY}/{index}/image_url"),
            rule: "reply-image-type",
            message,
        }),
    }
}

/// Why an entry whose type normalizes to an allowed one is still refused: it
/// is not spelled exactly so.
fn inexact_type(entry: &ImageEntry<'_>) -> Option<String> {
    (entry.declared != entry.media_type)
        .then(|| inexact_type_message(entry.declared, &entry.media_type))
}

/// The message for a declared type that NeMo Gym refuses although it
/// normalizes to `normalized`, one of [`IMAGE_TYPES`].
pub fn inexact_type_message(declared: &str, normalized: &str) -> String {
    format!(
        "{:?} is not one of the exact types NeMo Gym takes; write {normalized}",
        crate::b64::preview(declared),
        normalized = crate::echo::quoted(normalized)
    )
}

/// A reply's `tool_output_images`, as `validate` checks it.
#[derive(Debug, Clone, Copy)]
pub struct ToolOutputImages;

impl super::ImageReply for ToolOutputImages {
    fn key(&self) -> &'static str {
        TOOL_OUTPUT_IMAGES_KEY
    }

    fn image_types(&self) -> &'static [&'static str] {
        IMAGE_TYPES
    }

    fn entry<'j>(
        &self,
        index: usize,
        item: &'j Json<'_>,
    ) -> Result<crate::contract::ReplyImage<'j>, crate::contract::Issue> {
        match parse_entry(index, item) {
            Ok(entry) => Ok(crate::contract::ReplyImage {
                media_type: entry.media_type,
                declared: entry.declared,
                payload: entry.payload,
            }),
            Err(problem) => Err(crate::contract::rules::issue(
                problem.rule,
                problem.pointer,
                problem.message,
            )),
        }
    }

    fn inexact_type(&self, declared: &str, normalized: &str) -> String {
        inexact_type_message(declared, normalized)
    }

    fn split<'a>(&self, reply: Json<'a>, keep_bytes: bool) -> Result<SplitReply<'a>, EntryProblem> {
        split::split_reply(reply, keep_bytes, &crate::json::lent::Lending::NONE)
    }

    fn canonical_parts<'s>(&self, split: &'s SplitReply<'_>) -> Json<'s> {
        split::canonical_parts(split)
    }
}

/// Reads one entry like [`read_entry`], but takes a declared type that
/// normalizes to an allowed one (`validate` reports and fixes the spelling).
pub fn parse_entry<'j>(index: usize, item: &'j Json<'_>) -> Result<ImageEntry<'j>, EntryProblem> {
    let base = format!("/{TOOL_OUTPUT_IMAGES_KEY}/{index}");
    let problem = |suffix: &str, rule: &'static str, message: String| EntryProblem {
        index: Some(index),
        pointer: format!("{base}{suffix}"),
        rule,
        message,
    };
    let Some(members) = item.as_object() else {
        return Err(problem(
            "",
            "reply-image-not-object",
            format!("entry must be an object, not {}", item.kind()),
        ));
    };
    if let Some((key, _)) = members
        .iter()
        .find(|(k, _)| k != "image_url" && k != "label")
    {
        return Err(problem(
            &format!("/{}", crate::json::pointer_token(key)),
            "reply-image-unknown-key",
            format!(
                "unknown key {key} (only image_url and label are allowed)",
                key = crate::echo::quoted(key)
            ),
        ));
    }
    let label = match item.get("label") {
        None | Some(Json::Null) => None,
        Some(Json::String(label)) => Some(label.as_ref()),
        Some(other) => {
            return Err(problem(
                "/label",
                "reply-image-label",
                format!("label must be a string or null, not {}", other.kind()),
            ))
        }
    };
    let url = match item.get("image_url") {
        Some(Json::String(url)) => url.as_ref(),
        Some(other) => {
            return Err(problem(
                "/image_url",
                "reply-image-url-missing",
                format!("image_url must be a string, not {}", other.kind()),
            ))
        }
        None => {
            return Err(problem(
                "",
                "reply-image-url-missing",
                "missing image_url".to_string(),
            ))
        }
    };
    let (media_type, declared, payload) =
        image_data_url(url, |rule, why| problem("/image_url", rule, why))?;
    Ok(ImageEntry {
        index,
        media_type,
        declared,
        payload,
        label,
    })
}

/// An entry's `image_url` checked as ToolOutputImage wants it: a base64 data
/// URL whose media type is one of the four image types, as (normalized type,
/// type as written, payload); the problem (`rule`, message) otherwise, for the
/// caller to locate.
fn image_data_url(
    url: &str,
    problem: impl Fn(&'static str, String) -> EntryProblem,
) -> Result<(String, &str, &str), EntryProblem> {
    let not_data_url = |why: &str| problem("reply-image-not-data-url", why.to_string());
    let parsed = match dataurl::parse(url) {
        Ok(parsed) => parsed,
        Err(_) if dataurl::is_http_url(url) => {
            return Err(not_data_url(
                "image_url is a remote URL; it must be a base64 data: URL",
            ))
        }
        Err(_) => return Err(not_data_url("image_url is not a base64 data: URL")),
    };
    if !parsed.base64 {
        return Err(not_data_url("image_url is a data: URL without ;base64"));
    }
    let Some(media_type) = parsed.media_type else {
        if parsed.declared.is_empty() {
            return Err(not_data_url("image_url's data: URL declares no media type"));
        }
        return Err(not_data_url(&format!(
            "image_url's data: URL media type {:?} is not of the form type/subtype",
            crate::b64::preview(parsed.declared)
        )));
    };
    if !IMAGE_TYPES.contains(&media_type.as_str()) {
        return Err(problem(
            "reply-image-type",
            format!(
                "{} is not allowed (png, jpeg, gif or webp)",
                crate::echo::plain(&media_type)
            ),
        ));
    }
    Ok((media_type, parsed.declared, parsed.payload))
}
