//! The checks on one JSON document: what kind it is, then every rule that
//! applies to it. Findings come back with, where `--fix` may apply them, the
//! byte range to replace.

use crate::b64;
use crate::check::{self, Depth, PayloadProblem};
use crate::json::{self, pointer_token, Json};
use crate::media::{self, MediaKind};
use crate::part::PartView;
use crate::profile::{Cap, Profile};
use crate::shapes::nemo_gym::{self, TOOL_OUTPUT_IMAGES_KEY};
use crate::shapes::Shape;
use crate::size::group_digits;
use crate::subdoc::At;

/// A repair: replace `bytes[start..end]` of the document with `replacement`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Patch {
    pub start: usize,
    pub end: usize,
    pub replacement: String,
}

/// One finding inside a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issue {
    pub rule: &'static str,
    /// A JSON pointer from the document's root ("" for the whole document).
    pub pointer: String,
    pub message: String,
    /// The repair, for a fixable rule whose text can be patched in place.
    pub patch: Option<Patch>,
}

/// What a document was recognized as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocKind {
    /// A tool reply (an object with `tool_output_images`).
    Reply,
    /// Canonical parts (one part, or a list of them).
    Parts,
    /// A transcript, request, response or tool result of a shape.
    Transcript(Shape),
    /// A NeMo Gym rollout (its conversation checked as an OpenAI Responses request).
    Rollout,
}

/// Which kind to check documents as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum KindChoice {
    /// Recognize each document; skip what is none of the kinds.
    #[default]
    Auto,
    Reply,
    Parts,
    /// A transcript of the given shape (`None`: detect it).
    Transcript(Option<Shape>),
    /// A NeMo Gym rollout line.
    Rollout,
}

/// The limits in force, from `--profile` and the explicit options.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Limits {
    /// The profile the limits come from, for messages.
    pub profile: Option<&'static Profile>,
    /// `--max-bytes`: decoded bytes per media part.
    pub max_bytes: Option<u64>,
    /// `--max-dim` or the profile's longest side.
    pub max_dim: Option<u32>,
    /// `--max-images` or the profile's count.
    pub max_images: Option<usize>,
}

/// How to check documents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckOptions {
    pub kind: KindChoice,
    pub depth: Depth,
    pub limits: Limits,
    /// Compute repairs (and go on checking past a repaired problem).
    pub fix: bool,
    /// `--target`: pre-flight transcripts for conversion to this shape.
    pub target: Option<Shape>,
    /// `--at`: check the values at these pointers instead of whole documents.
    pub at: At,
}

/// The findings for one document.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DocReport {
    /// What the document was checked as; `None` for a document that is not JSON
    /// or was skipped.
    pub kind: Option<DocKind>,
    /// The document is none of the kinds (and `--kind` did not force one).
    pub skipped: bool,
    pub images: usize,
    pub issues: Vec<Issue>,
}

thread_local! {
    /// The decode buffer, kept per thread so that a run over many documents
    /// allocates it once.
    static SCRATCH: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Checks one document.
pub fn check_document(bytes: &[u8], options: &CheckOptions) -> DocReport {
    // A rollout is recognized before anything else (its request would
    // otherwise pass for a transcript of some shape, or for none), from the
    // text: it is then parsed once, as its conversation. One that is not JSON
    // is reported as any document is, below.
    let rollout = match options.kind {
        KindChoice::Rollout => true,
        KindChoice::Auto => nemo_gym::rollout::is_rollout_text(bytes),
        _ => false,
    };
    if rollout && serde_json::from_slice::<serde::de::IgnoredAny>(bytes).is_ok() {
        return super::scope::check_rollout(bytes, options);
    }
    let doc = match json::parse(bytes) {
        Ok(doc) => doc,
        Err(error) => {
            return DocReport {
                kind: None,
                skipped: false,
                images: 0,
                issues: vec![Issue {
                    rule: "invalid-json",
                    pointer: String::new(),
                    message: error.to_string(),
                    patch: None,
                }],
            }
        }
    };
    let kind = match options.kind {
        // Returned above, or (not JSON) at the parse.
        KindChoice::Rollout => unreachable!("handled above"),
        KindChoice::Reply => Some(DocKind::Reply),
        KindChoice::Parts => Some(DocKind::Parts),
        KindChoice::Transcript(Some(shape)) => Some(DocKind::Transcript(shape)),
        KindChoice::Transcript(None) => {
            recognize_transcript(&doc).or(Some(DocKind::Transcript(Shape::Canonical)))
        }
        KindChoice::Auto => recognize(&doc).or_else(|| recognize_transcript(&doc)),
    };
    let mut checker = Checker {
        options,
        bytes,
        url_safe_base64: false,
        scratch: SCRATCH.with(|cell| cell.take()),
        issues: Vec::new(),
        images: Vec::new(),
        url_images: 0,
        inline_bytes: 0,
    };
    match kind {
        Some(DocKind::Reply) => checker.reply(&doc),
        Some(DocKind::Parts) => checker.parts(&doc),
        Some(DocKind::Transcript(shape)) => checker.transcript(&doc, shape),
        Some(DocKind::Rollout) | None => {
            return DocReport {
                skipped: true,
                ..DocReport::default()
            }
        }
    }
    checker.document_limits();
    let scratch = std::mem::take(&mut checker.scratch);
    SCRATCH.with(|cell| cell.replace(scratch));
    DocReport {
        kind,
        skipped: false,
        images: checker.images.len(),
        issues: checker.issues,
    }
}

/// Recognizes a document: an object with `tool_output_images` is a tool reply;
/// a part, or a non-empty list of typed objects (no `role`) that are all
/// canonical parts or of which one carries the canonical `mimeType` key, is
/// canonical parts (so one part with a wrong type is a finding, not a skip).
/// A canonical part is a `text` part, or an `image`, `file` or `audio` part with
/// at least one of `mimeType`, `data` and `url`: provider blocks that reuse those
/// type names with their own keys (an Anthropic `{"type":"image","source":…}`,
/// an OpenAI Chat `{"type":"file","file":…}`) are not canonical parts.
pub fn recognize(doc: &Json<'_>) -> Option<DocKind> {
    let typed =
        |item: &Json<'_>| item.get("type").and_then(Json::as_str).is_some() && !item.has("role");
    let canonical = |item: &Json<'_>| match item.get("type").and_then(Json::as_str) {
        Some("text") => true,
        Some("image" | "file" | "audio") => {
            item.has("mimeType") || item.has("data") || item.has("url")
        }
        _ => false,
    };
    match doc {
        Json::Object(_) if doc.has(TOOL_OUTPUT_IMAGES_KEY) => Some(DocKind::Reply),
        Json::Object(_) if typed(doc) && canonical(doc) => Some(DocKind::Parts),
        Json::Array(items)
            if !items.is_empty()
                && items.iter().all(typed)
                && (items.iter().all(canonical)
                    || items.iter().any(|i| canonical(i) && i.has("mimeType"))) =>
        {
            Some(DocKind::Parts)
        }
        _ => None,
    }
}

/// Recognizes a transcript (request, message list, response, tool result) of
/// any shape by the keys it has.
fn recognize_transcript(doc: &Json<'_>) -> Option<DocKind> {
    let value = doc.to_value();
    crate::convert::detect::detect(&value)
        .map(|detected| detected.shape)
        .filter(|shape| *shape != Shape::NemoGym)
        .map(DocKind::Transcript)
}

/// What is known of one image once it is checked, for the document's limits.
struct ImageStat {
    pointer: String,
    decoded: u64,
    dimensions: Option<(u32, u32)>,
    /// Whether the image already has an error (one finding per image).
    flagged: bool,
}

/// One embedded media payload to check.
struct Media<'j> {
    pointer: String,
    /// The string holding the payload (the data URL, or the part's `data`).
    payload_in: &'j str,
    /// Where the declared type stands (for type findings).
    type_pointer: String,
    /// The string holding the declared type (the data URL, or `mimeType`).
    type_in: &'j str,
    kind: MediaKind,
    /// The declared type as written.
    declared: &'j str,
    /// The declared type normalized.
    normalized: String,
    payload: &'j str,
    /// The types `--fix` may write for a mismatch (`None`: any of the same kind).
    fix_types: Option<&'static [&'static str]>,
    /// The shape takes only the normalized spelling (NeMo Gym's entries): an
    /// alias is the error `reply-image-type`, not a warning.
    exact_type: bool,
    /// The declared type is a shape's format token (Bedrock's `png`), not a
    /// media type: no alias finding, and no repair writes a media type there.
    token: bool,
}

struct Checker<'o> {
    options: &'o CheckOptions,
    /// The document's text, which borrowed strings point into.
    bytes: &'o [u8],
    scratch: Vec<u8>,
    issues: Vec<Issue>,
    images: Vec<ImageStat>,
    /// Image parts that point at a URL: not checked, but images the document holds.
    url_images: usize,
    inline_bytes: u64,
    /// URL-safe and unpadded base64 are legal here (a Gemini document).
    url_safe_base64: bool,
}

impl Checker<'_> {
    fn issue(
        &mut self,
        rule: &'static str,
        pointer: String,
        message: String,
        patch: Option<Patch>,
    ) {
        self.issues.push(Issue {
            rule,
            pointer,
            message,
            patch,
        });
    }

    /// The byte range of a string borrowed from the document (`None` for a string
    /// that had JSON escapes and so was copied).
    fn span(&self, text: &str) -> Option<(usize, usize)> {
        let base = self.bytes.as_ptr() as usize;
        let at = text.as_ptr() as usize;
        (at >= base && at + text.len() <= base + self.bytes.len())
            .then(|| (at - base, at - base + text.len()))
    }

    /// The repair that replaces `sub`, a slice of the string `container` found at
    /// `pointer`, by `replacement`. It replaces exactly the text that spells `sub`
    /// in the document, even when the string had escapes (and so was copied):
    /// two repairs in one string (a data URL's type and its payload) never
    /// overlap, and the escapes outside `sub` stay as written.
    fn patch(&self, container: &str, pointer: &str, sub: &str, replacement: &str) -> Option<Patch> {
        if !self.options.fix {
            return None;
        }
        if let Some((start, end)) = self.span(sub) {
            return Some(Patch {
                start,
                end,
                replacement: replacement.to_string(),
            });
        }
        let offset = (sub.as_ptr() as usize).checked_sub(container.as_ptr() as usize)?;
        let (token, _) = json::raw_span(self.bytes, pointer)?;
        let (start, end) = raw_range(&self.bytes[token..], offset, offset + sub.len())?;
        let quoted = serde_json::to_string(replacement).ok()?;
        Some(Patch {
            start: token + start,
            end: token + end,
            replacement: quoted[1..quoted.len() - 1].to_string(),
        })
    }

    fn reply(&mut self, reply: &Json<'_>) {
        let Some(members) = reply.as_object() else {
            return self.text_scan(reply, String::new());
        };
        for (key, value) in members {
            let pointer = format!("/{}", pointer_token(key));
            if key != TOOL_OUTPUT_IMAGES_KEY {
                self.text_scan(value, pointer);
                continue;
            }
            match value {
                Json::Null => {}
                Json::Array(items) => {
                    for (index, item) in items.iter().enumerate() {
                        match nemo_gym::parse_entry(index, item) {
                            Err(problem) => {
                                self.issue(problem.rule, problem.pointer, problem.message, None)
                            }
                            Ok(entry) => self.media(Media {
                                pointer: format!("{pointer}/{index}/image_url"),
                                payload_in: item
                                    .get("image_url")
                                    .and_then(Json::as_str)
                                    .unwrap_or_default(),
                                type_pointer: format!("{pointer}/{index}/image_url"),
                                type_in: item
                                    .get("image_url")
                                    .and_then(Json::as_str)
                                    .unwrap_or_default(),
                                kind: MediaKind::Image,
                                declared: entry.declared,
                                normalized: entry.media_type,
                                payload: entry.payload,
                                fix_types: Some(nemo_gym::IMAGE_TYPES),
                                exact_type: true,
                                token: false,
                            }),
                        }
                    }
                }
                other => self.issue(
                    "reply-images-not-list",
                    pointer,
                    format!(
                        "tool_output_images must be a list or null, not {}",
                        other.kind()
                    ),
                    None,
                ),
            }
        }
    }

    /// A transcript: every embedded media item by the media rules, then the
    /// shape's rules and the tool exchanges on the document read as a transcript.
    fn transcript(&mut self, doc: &Json<'_>, shape: Shape) {
        self.url_safe_base64 = shape == Shape::Gemini;
        for found in crate::scan::find_media(doc) {
            let crate::scan::Payload::Base64(payload) = found.payload else {
                continue;
            };
            let Some(normalized) = found.declared.clone() else {
                continue;
            };
            // A data URL pasted into running text, or standing alone where the
            // shape has text (a flattened tool result): the model reads
            // characters, not media.
            let at_text = ["/content", "/text", "/output"]
                .iter()
                .any(|end| found.pointer.ends_with(end));
            if found.kind == "data URL in text" || (found.kind == "data URL" && at_text) {
                self.issue(
                    "base64-in-text",
                    found.pointer.clone(),
                    format!(
                        "text holds a base64 data: URL ({normalized}, {} characters): the model reads it as text, not as media",
                        group_digits(payload.len() as u64)
                    ),
                    None,
                );
                continue;
            }
            let declared = found.declared_raw.unwrap_or("");
            self.media(Media {
                pointer: found.pointer.clone(),
                payload_in: payload,
                type_pointer: found.pointer.clone(),
                type_in: declared,
                kind: MediaKind::of(&normalized),
                declared,
                normalized,
                payload,
                fix_types: None,
                exact_type: false,
                token: !declared.contains('/'),
            });
        }
        let value = doc.to_value();
        self.issues
            .extend(super::transcript::check(&value, shape, self.options.target));
    }

    fn parts(&mut self, doc: &Json<'_>) {
        match doc {
            Json::Array(items) => {
                for (index, item) in items.iter().enumerate() {
                    self.part(item, format!("/{index}"));
                }
            }
            other => self.part(other, String::new()),
        }
    }

    fn part(&mut self, item: &Json<'_>, pointer: String) {
        match PartView::read(item) {
            Err(error) => self.issue(
                "part-invalid",
                format!("{pointer}{}", error.pointer),
                error.message,
                None,
            ),
            Ok(PartView::Text(text)) => self.text_in_string(text, format!("{pointer}/text")),
            Ok(PartView::Media(media)) => {
                if media.data.is_none() && media.kind == MediaKind::Image {
                    self.url_images += 1;
                }
                if let Some(data) = media.data {
                    self.media(Media {
                        pointer: format!("{pointer}/data"),
                        payload_in: data,
                        type_pointer: format!("{pointer}/mimeType"),
                        type_in: media.declared,
                        kind: media.kind,
                        declared: media.declared,
                        normalized: media.mime_type,
                        payload: data,
                        fix_types: None,
                        exact_type: false,
                        token: false,
                    });
                }
            }
        }
    }

    /// Checks one embedded payload: the first failing rule is its finding; with
    /// `--fix` a repairable problem is repaired and the checks go on.
    fn media(&mut self, media: Media<'_>) {
        let mut stat = ImageStat {
            pointer: media.pointer.clone(),
            decoded: 0,
            dimensions: None,
            flagged: true,
        };
        let is_image = media.kind == MediaKind::Image;
        let done = |checker: &mut Self, stat: ImageStat| {
            if is_image {
                checker.images.push(stat);
            }
        };
        if media.payload.is_empty() {
            self.issue(
                "media-empty",
                media.pointer,
                "no bytes (a media part must carry bytes)".into(),
                None,
            );
            return done(self, stat);
        }
        let mut scratch = std::mem::take(&mut self.scratch);
        let depth = self.options.depth;
        let total = match check::decode_strict_prefix(media.payload, &mut scratch, depth) {
            Ok(total) => Some(total),
            Err(PayloadProblem::Base64 {
                error,
                lenient: true,
            }) => {
                let (bytes, how) = b64::decode_lenient(media.payload).unwrap_or_default();
                if self.url_safe_base64 && !how.whitespace {
                    // Either alphabet, padded or not, is legal where Gemini
                    // reads it (protobuf's JSON mapping; SPEC §0); partkit's
                    // writers re-encode it for every other shape.
                    scratch = bytes;
                    Some(scratch.len() as u64)
                } else {
                    let canonical = b64::encode(&bytes);
                    let patch =
                        self.patch(media.payload_in, &media.pointer, media.payload, &canonical);
                    let fixed = patch.is_some();
                    self.issue(
                        "base64-noncanonical",
                        media.pointer.clone(),
                        format!("not canonical base64 ({}): {error}", how.describe()),
                        patch,
                    );
                    scratch = bytes;
                    fixed.then_some(scratch.len() as u64)
                }
            }
            Err(problem) => {
                let rule = match problem {
                    PayloadProblem::Empty => "media-empty",
                    _ => "base64-invalid",
                };
                self.issue(rule, media.pointer.clone(), problem.message(), None);
                None
            }
        };
        let Some(total) = total else {
            self.scratch = scratch;
            return done(self, stat);
        };
        stat.decoded = total;
        self.inline_bytes += stat.decoded;
        let mut declared = media.normalized.clone();
        let mut retyped = false;
        let checked = loop {
            match check::check_decoded(media.payload, &mut scratch, total, &declared, depth) {
                Err(PayloadProblem::Mismatch { content, .. }) if !retyped => {
                    let fixable_to = content.filter(|sniffed| {
                        !media.token
                            && MediaKind::of(sniffed) == media.kind
                            && media
                                .fix_types
                                .is_none_or(|types| types.contains(&sniffed.as_str()))
                    });
                    let patch = fixable_to.as_ref().and_then(|to| {
                        self.patch(media.type_in, &media.type_pointer, media.declared, to)
                    });
                    let message = match &fixable_to {
                        Some(to) => media::mismatch_message(to, &declared),
                        None => PayloadProblem::Mismatch {
                            content: media::sniff(&scratch),
                            declared: declared.clone(),
                        }
                        .message(),
                    };
                    let fixed = patch.is_some();
                    self.issue(
                        "media-type-mismatch",
                        media.type_pointer.clone(),
                        message,
                        patch,
                    );
                    match (fixed, fixable_to) {
                        (true, Some(to)) => {
                            declared = to;
                            retyped = true;
                        }
                        _ => break None,
                    }
                }
                Err(problem) => {
                    let rule = match problem {
                        PayloadProblem::Empty => "media-empty",
                        PayloadProblem::Header(_) => "image-header",
                        PayloadProblem::Truncated(_) => "image-truncated",
                        PayloadProblem::Mismatch { .. } => "media-type-mismatch",
                        PayloadProblem::Base64 { .. } => "base64-invalid",
                    };
                    self.issue(rule, media.pointer.clone(), problem.message(), None);
                    break None;
                }
                Ok(info) => break Some(info),
            }
        };
        // Only a profile that refuses animated GIFs pays for decoding frames.
        let still_only = self
            .options
            .limits
            .profile
            .is_some_and(|p| p.still_gif_only);
        let animated = is_image
            && still_only
            && declared == "image/gif"
            && checked.is_some()
            && gif_is_animated(&b64::decode_strict(media.payload).unwrap_or_default());
        self.scratch = scratch;
        let Some((_, dimensions)) = checked else {
            return done(self, stat);
        };
        stat.dimensions = dimensions;
        if let Some((rule, message)) =
            self.limit_problem(&media, &declared, stat.decoded, dimensions, animated)
        {
            self.issue(rule, media.pointer.clone(), message, None);
            return done(self, stat);
        }
        stat.flagged = false;
        if !retyped && !media.token && media.declared != declared {
            let patch = self.patch(
                media.type_in,
                &media.type_pointer,
                media.declared,
                &declared,
            );
            let (rule, message) = if media.exact_type {
                let message = nemo_gym::inexact_type_message(media.declared, &declared);
                ("reply-image-type", message)
            } else {
                let message = format!(
                    "{:?} is written {declared:?} in normalized form",
                    media.declared
                );
                ("media-type-alias", message)
            };
            self.issue(rule, media.type_pointer.clone(), message, patch);
        }
        done(self, stat);
    }

    /// The first per-part limit a checked payload breaks.
    fn limit_problem(
        &self,
        media: &Media<'_>,
        media_type: &str,
        decoded: u64,
        dimensions: Option<(u32, u32)>,
        animated: bool,
    ) -> Option<(&'static str, String)> {
        let limits = &self.options.limits;
        let profile = limits.profile;
        let is_image = media.kind == MediaKind::Image;
        if let (Some(profile), true) = (profile, is_image) {
            if !profile.image_types.contains(&media_type) {
                let names: Vec<&str> = profile
                    .image_types
                    .iter()
                    .map(|t| t.trim_start_matches("image/"))
                    .collect();
                return Some((
                    "limit-image-type",
                    format!(
                        "{media_type} is not accepted by the {} profile ({})",
                        profile.name,
                        names.join(", ")
                    ),
                ));
            }
            if animated && profile.still_gif_only {
                return Some((
                    "limit-image-type",
                    format!(
                        "an animated GIF is not accepted by the {} profile (still GIFs only)",
                        profile.name
                    ),
                ));
            }
        }
        if let Some(max) = limits.max_bytes {
            if decoded > max {
                return Some((
                    "limit-bytes",
                    format!(
                        "{} bytes, over --max-bytes ({} bytes)",
                        group_digits(decoded),
                        group_digits(max)
                    ),
                ));
            }
        }
        if let (Some(profile), true) = (profile, is_image) {
            match profile.max_image {
                Some(Cap::Decoded(max)) if decoded > max => {
                    return Some((
                        "limit-bytes",
                        format!(
                            "{} bytes, over the {} profile's {} bytes per image",
                            group_digits(decoded),
                            profile.name,
                            group_digits(max)
                        ),
                    ))
                }
                Some(Cap::Encoded(max)) if media.payload.len() as u64 > max => {
                    return Some((
                        "limit-bytes",
                        format!(
                            "{} base64 characters, over the {} profile's {} per image",
                            group_digits(media.payload.len() as u64),
                            profile.name,
                            group_digits(max)
                        ),
                    ))
                }
                _ => {}
            }
        }
        if let (Some(max), Some((width, height))) = (limits.max_dim, dimensions) {
            if width.max(height) > max {
                return Some((
                    "limit-dim",
                    format!("{width}x{height} px, over {max} px on its longest side"),
                ));
            }
        }
        None
    }

    /// The document-level limits: image count, bytes of images, and the smaller
    /// longest side once a document holds many images.
    fn document_limits(&mut self) {
        let limits = self.options.limits.clone();
        let count = self.images.len() + self.url_images;
        if let Some(max) = limits.max_images {
            if count > max {
                self.issue(
                    "limit-images",
                    String::new(),
                    format!("{count} images, more than the {max} allowed"),
                    None,
                );
            }
        }
        let Some(profile) = limits.profile else {
            return;
        };
        if let Some((threshold, side)) = profile.many_images {
            if count > threshold {
                let over: Vec<(String, u32, u32)> = self
                    .images
                    .iter()
                    .filter(|image| !image.flagged)
                    .filter_map(|image| {
                        image.dimensions.map(|(w, h)| (image.pointer.clone(), w, h))
                    })
                    .filter(|(_, w, h)| (*w).max(*h) > side)
                    .collect();
                for (pointer, w, h) in over {
                    self.issue(
                        "limit-dim",
                        pointer,
                        format!(
                            "{w}x{h} px, over {side} px on its longest side, the {} limit once a document holds more than {threshold} images ({count})",
                            profile.name
                        ),
                        None,
                    );
                }
            }
        }
        if let Some(max) = profile.max_total_image_bytes {
            let total: u64 = self.images.iter().map(|image| image.decoded).sum();
            if total > max {
                self.issue(
                    "limit-total-bytes",
                    String::new(),
                    format!(
                        "{} bytes of images, over the {} profile's {} per document",
                        group_digits(total),
                        profile.name,
                        group_digits(max)
                    ),
                    None,
                );
            }
        }
        if let Some(max) = profile.max_inline_bytes {
            if self.inline_bytes > max {
                self.issue(
                    "limit-total-bytes",
                    String::new(),
                    format!(
                        "{} bytes of inline media, over the {} profile's {} per request",
                        group_digits(self.inline_bytes),
                        profile.name,
                        group_digits(max)
                    ),
                    None,
                );
            }
        }
    }

    /// Looks for data URLs pasted into the strings of a value.
    fn text_scan(&mut self, value: &Json<'_>, pointer: String) {
        match value {
            Json::String(text) => self.text_in_string(text, pointer),
            Json::Array(items) => {
                for (index, item) in items.iter().enumerate() {
                    self.text_scan(item, format!("{pointer}/{index}"));
                }
            }
            Json::Object(members) => {
                for (key, item) in members {
                    self.text_scan(item, format!("{pointer}/{}", pointer_token(key)));
                }
            }
            _ => {}
        }
    }

    fn text_in_string(&mut self, text: &str, pointer: String) {
        if let Some((_, media_type, chars)) = crate::scan::find_data_url(text) {
            self.issue(
                "base64-in-text",
                pointer,
                format!(
                    "text holds a base64 data: URL ({media_type}, {} characters): the model reads it as text, not as media",
                    group_digits(chars as u64)
                ),
                None,
            );
        }
    }
}

/// Maps the byte range `start..end` of a JSON string's value to the range of
/// the text that spells it: `raw` starts with the string's opening quote, and
/// the offsets returned count from there. `None` when a bound falls inside an
/// escape or past the string.
fn raw_range(raw: &[u8], start: usize, end: usize) -> Option<(usize, usize)> {
    if raw.first() != Some(&b'"') || start > end {
        return None;
    }
    let hex = |at: usize| -> Option<u32> {
        let digits = std::str::from_utf8(raw.get(at..at + 4)?).ok()?;
        u32::from_str_radix(digits, 16).ok()
    };
    let (mut at, mut decoded, mut raw_start) = (1, 0, None);
    loop {
        if decoded == start && raw_start.is_none() {
            raw_start = Some(at);
        }
        if decoded == end {
            return Some((raw_start?, at));
        }
        if decoded > end || (decoded > start && raw_start.is_none()) {
            return None;
        }
        let (raw_len, value_len) = match *raw.get(at)? {
            b'"' => return None,
            b'\\' => match *raw.get(at + 1)? {
                b'u' => {
                    let code = hex(at + 2)?;
                    if (0xD800..0xDC00).contains(&code) && raw.get(at + 6..at + 8)? == b"\\u" {
                        // A surrogate pair spells one 4-byte character.
                        (12, 4)
                    } else {
                        (6, char::from_u32(code).map_or(3, char::len_utf8))
                    }
                }
                _ => (2, 1),
            },
            _ => (1, 1),
        };
        at += raw_len;
        decoded += value_len;
    }
}

/// Whether a GIF has more than one frame.
fn gif_is_animated(bytes: &[u8]) -> bool {
    use image::AnimationDecoder;
    image::codecs::gif::GifDecoder::new(std::io::Cursor::new(bytes))
        .map(|decoder| decoder.into_frames().take(2).count() > 1)
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_ranges_skip_escapes() {
        // "a\/b\u00e9c\ud83d\ude00d": a / b é c 😀 d
        let raw = br#""a\/b\u00e9c\ud83d\ude00d" tail"#;
        let value: String = serde_json::from_slice(&raw[..raw.len() - 5]).unwrap();
        assert_eq!(value, "a/bécd".replace('d', "\u{1F600}d"));
        let at = |sub: &str| {
            let start = value.find(sub).unwrap();
            raw_range(raw, start, start + sub.len())
        };
        assert_eq!(at("a"), Some((1, 2)));
        assert_eq!(at("/"), Some((2, 4)));
        assert_eq!(at("b"), Some((4, 5)));
        assert_eq!(at("é"), Some((5, 11)));
        assert_eq!(at("\u{1F600}"), Some((12, 24)));
        assert_eq!(at("d"), Some((24, 25)));
        assert_eq!(raw_range(raw, 0, value.len()), Some((1, 25)));
        assert_eq!(raw_range(raw, 0, 99), None);
        assert_eq!(raw_range(b"nope", 0, 1), None);
    }

    #[test]
    fn recognizes_kinds() {
        let kind = |text: &str| recognize(&json::parse(text.as_bytes()).unwrap());
        assert_eq!(kind(r#"{"tool_output_images":null}"#), Some(DocKind::Reply));
        assert_eq!(kind(r#"{"type":"text","text":"x"}"#), Some(DocKind::Parts));
        assert_eq!(
            kind(r#"[{"type":"image","mimeType":"image/png","data":"AAAA"}]"#),
            Some(DocKind::Parts)
        );
        assert_eq!(
            kind(r#"[{"type":"text","text":"x"},{"type":"image_url"}]"#),
            None
        );
        assert_eq!(
            kind(r#"[{"type":"image","mimeType":"image/png","data":"AAAA"},{"type":"video"}]"#),
            Some(DocKind::Parts)
        );
        assert_eq!(kind(r#"[{"role":"user","type":"text"}]"#), None);
        // Provider blocks that reuse canonical type names are not parts.
        assert_eq!(
            kind(
                r#"[{"type":"text","text":"x"},{"type":"image","source":{"type":"url","url":"u"}}]"#
            ),
            None
        );
        assert_eq!(kind(r#"{"type":"image","source":{}}"#), None);
        assert_eq!(kind(r#"[{"type":"file","file":{"file_id":"f"}}]"#), None);
        assert_eq!(
            kind(r#"[{"type":"image","data":"AAAA"}]"#),
            Some(DocKind::Parts)
        );
        assert_eq!(kind("[]"), None);
        assert_eq!(kind(r#"{"a":1}"#), None);
    }
}
