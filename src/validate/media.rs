//! The checks on one embedded media payload (base64, declared type, image
//! header, limits) and on the document's images as a whole.

use super::document::Checker;
use crate::b64;
use crate::check::{self, PayloadProblem};
use crate::media::{self, MediaKind};
use crate::profile::Cap;
use crate::size::group_digits;

/// What is known of one image once it is checked, for the document's limits.
pub(super) struct ImageStat {
    pub(super) pointer: String,
    pub(super) decoded: u64,
    pub(super) dimensions: Option<(u32, u32)>,
    /// Whether the image already has an error (one finding per image).
    pub(super) flagged: bool,
}

/// One embedded media payload to check.
pub(super) struct Media<'j> {
    pub(super) pointer: String,
    /// The string holding the payload (the data URL, or the part's `data`).
    pub(super) payload_in: &'j str,
    /// Where the declared type stands (for type findings).
    pub(super) type_pointer: String,
    /// The string holding the declared type (the data URL, or `mimeType`).
    pub(super) type_in: &'j str,
    pub(super) kind: MediaKind,
    /// The declared type as written.
    pub(super) declared: &'j str,
    /// The declared type normalized.
    pub(super) normalized: String,
    pub(super) payload: &'j str,
    /// The types `--fix` may write for a mismatch (`None`: any of the same kind).
    pub(super) fix_types: Option<&'static [&'static str]>,
    /// The shape takes only the normalized spelling (NeMo Gym's entries): an
    /// alias is the error `reply-image-type`, not a warning.
    pub(super) exact_type: bool,
    /// The declared type is a shape's format token (Bedrock's `png`), not a
    /// media type: no alias finding, and no repair writes a media type there.
    pub(super) token: bool,
}

impl Checker<'_> {
    /// Checks one embedded payload: the first failing rule is its finding; with
    /// `--fix` a repairable problem is repaired and the checks go on.
    pub(super) fn media(&mut self, media: Media<'_>) {
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
        let total = self.decode(&media, &mut scratch);
        let Some(total) = total else {
            self.scratch = scratch;
            return done(self, stat);
        };
        stat.decoded = total;
        self.inline_bytes += stat.decoded;
        let (checked, declared, retyped) = self.check_bytes(&media, &mut scratch, total);
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
            && gif_is_animated(
                &self
                    .lending
                    .with_resolved(media.payload, b64::decode_strict)
                    .unwrap_or_default(),
            );
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
        if !retyped {
            self.type_spelling(&media, &declared);
        }
        done(self, stat);
    }

    /// The warning (or NeMo Gym's error) for a declared type written other
    /// than in normalized form, with its repair.
    fn type_spelling(&mut self, media: &Media<'_>, normalized: &str) {
        let (rule, message, repaired) = if media.exact_type {
            if media.declared == normalized {
                return;
            }
            let message = crate::shapes::image_reply().inexact_type(media.declared, normalized);
            ("reply-image-type", message, normalized.to_string())
        } else {
            // A shape's format token (Bedrock's `png`) reads as no media
            // type; a bare top-level name (`text`) is one read liberally.
            let Some(reading) = media::read(media.declared) else {
                return;
            };
            if reading.departure.is_none() {
                return;
            }
            let message = media::departure_message(media.declared, &reading);
            ("media-type-alias", message, reading.repaired())
        };
        let patch = self.patch(
            media.type_in,
            &media.type_pointer,
            media.declared,
            &repaired,
        );
        self.issue(rule, media.type_pointer.clone(), message, patch);
    }

    /// Decodes a payload's base64 into `scratch`: its decoded length, or
    /// `None` (with the finding) when it is not base64 or (unrepaired) not
    /// canonical base64.
    fn decode(&mut self, media: &Media<'_>, scratch: &mut Vec<u8>) -> Option<u64> {
        let lending = self.lending;
        match check::decode_strict_head(media.payload, scratch, self.options.depth, lending) {
            Ok(total) => Some(total),
            Err(PayloadProblem::Base64 {
                error,
                lenient: true,
            }) => {
                let (bytes, how) = lending
                    .with_resolved(media.payload, b64::decode_lenient)
                    .unwrap_or_default();
                if self.url_safe_base64 && !how.whitespace {
                    // Either alphabet, padded or not, is legal where Gemini
                    // reads it (protobuf's JSON mapping; docs/media-types.md); partkit's
                    // writers re-encode it for every other shape.
                    *scratch = bytes;
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
                    *scratch = bytes;
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
        }
    }

    /// Checks the decoded bytes against the declared type (retyping them once
    /// where `--fix` repairs a mismatch): what the check found (`None` after
    /// a finding), the type in force, and whether it was repaired.
    fn check_bytes(
        &mut self,
        media: &Media<'_>,
        scratch: &mut Vec<u8>,
        total: u64,
    ) -> (Option<check::BytesInfo>, String, bool) {
        let mut declared = media.normalized.clone();
        let mut retyped = false;
        let checked = loop {
            match check::check_decoded(
                media.payload,
                scratch,
                total,
                &declared,
                self.options.depth,
                self.lending,
            ) {
                Err(PayloadProblem::Mismatch { content, .. }) if !retyped => {
                    // The bare container (`application/zip`) is no answer: the
                    // format inside it is not known.
                    let fixable_to = content.filter(|sniffed| {
                        !media.token
                            && !media::zip::is_container(sniffed)
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
                            content: media::sniff(scratch),
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
                Err(PayloadProblem::NotDecoded { why, info }) => {
                    // Not known to be broken: said, and checked by its header.
                    let message = crate::check::not_decoded_message(&why);
                    self.issue("image-not-decoded", media.pointer.clone(), message, None);
                    break Some(info);
                }
                Err(problem) => {
                    let rule = problem.rule();
                    self.issue(rule, media.pointer.clone(), problem.message(), None);
                    break None;
                }
                Ok(info) => break Some(info),
            }
        };
        (checked, declared, retyped)
    }

    /// The first per-part limit a checked payload breaks. Long because it is
    /// one ladder, in the order the limits are reported (the first that
    /// fails is the finding).
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
                Some(Cap::Encoded(max))
                    if self.lending.resolved_len(media.payload) as u64 > max =>
                {
                    return Some((
                        "limit-bytes",
                        format!(
                            "{} base64 characters, over the {} profile's {} per image",
                            group_digits(self.lending.resolved_len(media.payload) as u64),
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
    pub(super) fn document_limits(&mut self) {
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
}

/// Whether a GIF has more than one frame.
fn gif_is_animated(bytes: &[u8]) -> bool {
    use image::AnimationDecoder;
    image::codecs::gif::GifDecoder::new(std::io::Cursor::new(bytes))
        .map(|decoder| decoder.into_frames().take(2).count() > 1)
        .unwrap_or(false)
}
