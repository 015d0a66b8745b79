//! Checks on embedded media payloads, shared by `split`, `validate` and `inspect`:
//! strict base64, content against the declared type, the image header.

use crate::b64::{self, Base64Error};
use crate::json::lent::Lending;
use crate::media;

/// How far to look into a payload.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Depth {
    /// Strict base64, magic bytes against the declared type, the image header.
    #[default]
    Header,
    /// Also decode every image fully (catches truncation).
    Full,
}

/// What a payload turned out to be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PayloadInfo {
    pub decoded_len: u64,
    pub sniffed: Option<String>,
    /// Width and height, for images whose header parsed.
    pub dimensions: Option<(u32, u32)>,
}

/// The first thing wrong with a payload.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum PayloadProblem {
    /// Not strict base64; `lenient` is true when lenient reading would accept it.
    Base64 { error: Base64Error, lenient: bool },
    /// No bytes at all.
    Empty,
    /// The bytes are another type than declared (`content` is `None` when the
    /// bytes match no known type).
    Mismatch {
        content: Option<String>,
        declared: String,
    },
    /// The image header does not parse.
    Header(String),
    /// The image does not decode in full.
    Truncated(String),
    /// The image was not decoded in full because decoding it needs more
    /// memory than the decoder's limit: nothing is known to be wrong with
    /// it, and what its header says is `info`.
    NotDecoded { why: String, info: BytesInfo },
}

impl PayloadProblem {
    /// The id of the rule `validate` reports the problem under.
    pub fn rule(&self) -> &'static str {
        match self {
            PayloadProblem::Empty => "media-empty",
            PayloadProblem::Header(_) => "image-header",
            PayloadProblem::Truncated(_) => "image-truncated",
            PayloadProblem::NotDecoded { .. } => "image-not-decoded",
            PayloadProblem::Mismatch { .. } => "media-type-mismatch",
            PayloadProblem::Base64 { .. } => "base64-invalid",
        }
    }

    /// A one-line description (never showing more than a payload's prefix).
    pub fn message(&self) -> String {
        match self {
            PayloadProblem::Base64 {
                error,
                lenient: true,
            } => {
                format!("{error} (not canonical base64, but readable leniently)")
            }
            PayloadProblem::Base64 { error, .. } => error.to_string(),
            PayloadProblem::Empty => "no bytes (a media part must carry bytes)".to_string(),
            PayloadProblem::Mismatch {
                content: Some(content),
                declared,
            } => media::mismatch_message(content, declared),
            PayloadProblem::Mismatch {
                content: None,
                declared,
            } => {
                format!("content is not {declared} (no known type matches its first bytes)")
            }
            PayloadProblem::Header(why) => format!("image header does not parse: {why}"),
            PayloadProblem::Truncated(why) => format!("image does not decode: {why}"),
            PayloadProblem::NotDecoded { why, .. } => not_decoded_message(why),
        }
    }
}

/// The message of [`PayloadProblem::NotDecoded`].
pub fn not_decoded_message(why: &str) -> String {
    format!(
        "image not decoded in full, so not checked past its header: decoding it would take more memory than the decoder may use ({why})"
    )
}

/// How many decoded bytes a header check looks at before decoding the rest: the
/// magic numbers and headers of PNG, GIF and WebP sit at the start, and a JPEG's
/// frame header nearly always within this.
pub const PREFIX_BYTES: usize = 64 * 1024;
/// The base64 characters of [`PREFIX_BYTES`].
const PREFIX_CHARS: usize = PREFIX_BYTES / 3 * 4;
/// The first bytes [`decode_strict_head`] decodes: the magic numbers and
/// headers of PNG, GIF and WebP, and the frame header of most JPEGs. When
/// the header needs more, [`check_decoded`] decodes [`PREFIX_BYTES`], then
/// all: validating a gigabyte of replies decoded a quarter of it for 64 KiB
/// prefixes (docs/speed.md#validate).
const HEAD_BYTES: usize = 4 * 1024;
/// The base64 characters of [`HEAD_BYTES`].
const HEAD_CHARS: usize = HEAD_BYTES / 3 * 4;

/// Checks a base64 payload declared as `declared` (a normalized media type).
/// `scratch` holds decoded bytes afterwards (reused between calls): all of them
/// for [`Depth::Full`], else at least a prefix. A placeholder is checked as
/// the payload `lending` lends under it.
pub fn check_payload(
    payload: &str,
    declared: &str,
    scratch: &mut Vec<u8>,
    depth: Depth,
    lending: &Lending,
) -> Result<PayloadInfo, PayloadProblem> {
    let decoded_len = decode_strict_head(payload, scratch, depth, lending)?;
    check_decoded(payload, scratch, decoded_len, declared, depth, lending).map(
        |(sniffed, dimensions)| PayloadInfo {
            decoded_len,
            sniffed,
            dimensions,
        },
    )
}

/// The decoded size of a canonical payload, which may be the placeholder of
/// one `lending` lends ([`b64::decoded_len`] of what it stands for; known
/// without reading it when the scan found it strict).
pub fn decoded_len(payload: &str, lending: &Lending) -> Option<u64> {
    if let Some((_, len)) = lending.strict_payload(payload) {
        return Some(len);
    }
    lending.with_resolved(payload, b64::decoded_len)
}

/// Validates a whole payload as strict base64 (fast, without writing the
/// decoded bytes) and decodes into `scratch` what a check at `depth` needs.
/// Returns the decoded size. A placeholder is checked as the payload
/// `lending` lends under it.
pub fn decode_strict_prefix(
    payload: &str,
    scratch: &mut Vec<u8>,
    depth: Depth,
    lending: &Lending,
) -> Result<u64, PayloadProblem> {
    decode_strict_first(payload, scratch, depth, lending, PREFIX_CHARS)
}

/// As [`decode_strict_prefix`], decoding only the first [`HEAD_BYTES`]
/// (at [`Depth::Header`]): for a caller that then checks the bytes with
/// [`check_decoded`], which decodes more when the header needs it.
pub fn decode_strict_head(
    payload: &str,
    scratch: &mut Vec<u8>,
    depth: Depth,
    lending: &Lending,
) -> Result<u64, PayloadProblem> {
    let total = decode_strict_first(payload, scratch, depth, lending, HEAD_CHARS)?;
    if (scratch.len() as u64) < total && !head_suffices(scratch) {
        decode_checked_prefix(payload, scratch, lending, PREFIX_CHARS);
    }
    Ok(total)
}

/// Whether the first bytes of a payload say all a check of the usual prefix
/// would: a PNG, JPEG or GIF is told by its first bytes, and its header is
/// read again from more when it does not parse ([`check_decoded`]). Anything
/// else — a ZIP whose entries name the format, a WebP whose frames are
/// checked against its canvas, a text — gets the usual prefix, so that what
/// is said of it does not depend on the head's length.
fn head_suffices(head: &[u8]) -> bool {
    matches!(
        media::sniff(head).as_deref(),
        Some("image/png" | "image/jpeg" | "image/gif")
    )
}

fn decode_strict_first(
    payload: &str,
    scratch: &mut Vec<u8>,
    depth: Depth,
    lending: &Lending,
    first: usize,
) -> Result<u64, PayloadProblem> {
    if depth == Depth::Header {
        if let Some(total) = decode_lent_prefix(payload, scratch, lending, first) {
            return Ok(total);
        }
    }
    // A payload lent from the input is checked there.
    lending.with_resolved(payload, |payload| {
        decode_resolved_prefix(payload, scratch, depth, first)
    })
}

/// A lent payload the scan found strict: decodes only its first `chars`
/// into `scratch`, read again from the file where it is one, and returns its
/// decoded size. `None` for any other payload.
fn decode_lent_prefix(
    payload: &str,
    scratch: &mut Vec<u8>,
    lending: &Lending,
    chars: usize,
) -> Option<u64> {
    let (index, total) = lending.strict_payload(payload)?;
    lending
        .with_payload_prefix(index, chars, |prefix| {
            prefix.map(|prefix| decode_into(prefix, scratch))
        })
        .map(|_| total)
}

/// Decodes the first `chars` of a payload already checked strict into
/// `scratch`.
fn decode_checked_prefix(payload: &str, scratch: &mut Vec<u8>, lending: &Lending, chars: usize) {
    if decode_lent_prefix(payload, scratch, lending, chars).is_some() {
        return;
    }
    lending.with_resolved(payload, |payload| {
        decode_into(&payload[..chars.min(payload.len())], scratch)
    });
}

fn decode_resolved_prefix(
    payload: &str,
    scratch: &mut Vec<u8>,
    depth: Depth,
    first: usize,
) -> Result<u64, PayloadProblem> {
    if payload.is_empty() {
        return Err(PayloadProblem::Empty);
    }
    let engine = base64_simd::STANDARD;
    if engine.check(payload.as_bytes()).is_err() {
        // The slow decoder says where and why.
        let error = b64::check_strict(payload, scratch)
            .err()
            .unwrap_or(b64::Base64Error::Padding);
        let lenient = b64::decode_lenient(payload).is_ok();
        return Err(PayloadProblem::Base64 { error, lenient });
    }
    let total = b64::decoded_len(payload).unwrap_or(0);
    let chars = if depth == Depth::Full || payload.len() <= first {
        payload.len()
    } else {
        first
    };
    decode_into(&payload[..chars], scratch);
    if total == 0 {
        return Err(PayloadProblem::Empty);
    }
    Ok(total)
}

fn decode_into(chars: &str, scratch: &mut Vec<u8>) {
    // Appending decodes straight into the spare capacity (no zero-filling of
    // a buffer the decoder overwrites anyway).
    scratch.clear();
    if base64_simd::STANDARD
        .decode_append(chars.as_bytes(), scratch)
        .is_err()
    {
        scratch.clear();
    }
}

/// Checks decoded bytes (all of them, or a prefix of a `total`-byte payload)
/// against a declared type, decoding the rest of `payload` (a placeholder:
/// what `lending` lends under it) when the header needs it.
pub fn check_decoded(
    payload: &str,
    scratch: &mut Vec<u8>,
    total: u64,
    declared: &str,
    depth: Depth,
    lending: &Lending,
) -> Result<BytesInfo, PayloadProblem> {
    let mut checked = check_bytes(scratch, declared, depth);
    if matches!(checked, Err(PayloadProblem::Header(_)))
        && scratch.len() < PREFIX_BYTES
        && (scratch.len() as u64) < total
    {
        // A head too short for the header: the usual prefix first.
        decode_checked_prefix(payload, scratch, lending, PREFIX_CHARS);
        checked = check_bytes(scratch, declared, depth);
    }
    match checked {
        Err(PayloadProblem::Header(_)) if (scratch.len() as u64) < total => {
            lending.with_resolved(payload, |payload| decode_into(payload, scratch));
            check_bytes(scratch, declared, depth)
        }
        result => result,
    }
}

/// What decoded bytes turned out to be: the sniffed type and, for images, the
/// dimensions.
pub type BytesInfo = (Option<String>, Option<(u32, u32)>);

/// Checks decoded bytes against a declared type.
pub fn check_bytes(
    bytes: &[u8],
    declared: &str,
    depth: Depth,
) -> Result<BytesInfo, PayloadProblem> {
    if bytes.is_empty() {
        return Err(PayloadProblem::Empty);
    }
    let sniffed = media::sniff(bytes);
    let claim = media::Claim {
        media_type: declared.to_string(),
        source: media::ClaimSource::Declared,
    };
    let decision = media::decide(sniffed.as_deref(), std::slice::from_ref(&claim));
    if let Some(decision) = decision {
        if decision.mismatch.is_some() {
            return Err(PayloadProblem::Mismatch {
                content: sniffed,
                declared: declared.to_string(),
            });
        }
    }
    let dimensions = match image_format(declared) {
        Some(format) => {
            if sniffed.is_none() {
                return Err(PayloadProblem::Mismatch {
                    content: None,
                    declared: declared.to_string(),
                });
            }
            match image_dimensions(bytes, format, depth) {
                Ok(dimensions) => Some(dimensions),
                Err(DimensionsProblem::Problem(problem)) => return Err(problem),
                Err(DimensionsProblem::OverLimit { why, header }) => {
                    return Err(PayloadProblem::NotDecoded {
                        why,
                        info: (sniffed, Some(header)),
                    })
                }
            }
        }
        None => None,
    };
    Ok((sniffed, dimensions))
}

/// The `image` crate's format for the image types partkit decodes: the
/// types `resize` reads, so that a part `validate --deep` passes is one
/// `resize` can decode.
pub fn image_format(media_type: &str) -> Option<image::ImageFormat> {
    match media_type {
        "image/png" => Some(image::ImageFormat::Png),
        "image/jpeg" => Some(image::ImageFormat::Jpeg),
        "image/gif" => Some(image::ImageFormat::Gif),
        "image/webp" => Some(image::ImageFormat::WebP),
        "image/bmp" => Some(image::ImageFormat::Bmp),
        "image/tiff" => Some(image::ImageFormat::Tiff),
        _ => None,
    }
}

/// Why [`image_dimensions`] gave no dimensions.
pub enum DimensionsProblem {
    Problem(PayloadProblem),
    /// A full decode would pass the decoder's memory limit; the header
    /// gave `header`.
    OverLimit {
        why: String,
        header: (u32, u32),
    },
}

impl From<PayloadProblem> for DimensionsProblem {
    fn from(problem: PayloadProblem) -> DimensionsProblem {
        DimensionsProblem::Problem(problem)
    }
}

/// Reads an image's dimensions from its header, or decodes it fully for
/// [`Depth::Full`].
pub fn image_dimensions(
    bytes: &[u8],
    format: image::ImageFormat,
    depth: Depth,
) -> Result<(u32, u32), DimensionsProblem> {
    let reader = || image::ImageReader::with_format(std::io::Cursor::new(bytes), format);
    // The header first, at either depth: an image whose header does not parse is
    // that, not a truncated one.
    let dimensions = reader()
        .into_dimensions()
        .map_err(|e| PayloadProblem::Header(one_line(&e)))?;
    if dimensions.0 == 0 || dimensions.1 == 0 {
        return Err(PayloadProblem::Header(format!(
            "the image is {}x{}: it has no pixels",
            dimensions.0, dimensions.1
        ))
        .into());
    }
    if format == image::ImageFormat::WebP {
        crate::media::webp::frame_fits_canvas(bytes, dimensions).map_err(PayloadProblem::Header)?;
    }
    if depth == Depth::Header {
        return Ok(dimensions);
    }
    let mut reader = reader();
    reader.limits(image::Limits::default());
    let decoded = reader.decode().map_err(|e| match e {
        // Too large for the decoder's memory limit: not known to be broken.
        image::ImageError::Limits(_) => DimensionsProblem::OverLimit {
            why: one_line(&e),
            header: dimensions,
        },
        e => PayloadProblem::Truncated(one_line(&e)).into(),
    })?;
    if format == image::ImageFormat::Jpeg {
        // The JPEG decoder fills in a scan that stops short instead of failing.
        jpeg_runs_to_its_end(bytes).map_err(PayloadProblem::Truncated)?;
    }
    Ok((decoded.width(), decoded.height()))
}

/// A decoder's error as one line (some end theirs with a line break).
fn one_line(error: &impl std::fmt::Display) -> String {
    let text = error.to_string();
    let words: Vec<&str> = text.split_whitespace().collect();
    words.join(" ")
}

/// Walks a JPEG's segments to its end-of-image marker (`FF D9`), through the
/// entropy-coded data of each scan (where `FF 00` is a stuffed byte and
/// `FF D0`–`FF D7` restart markers). Bytes after the marker are not looked at.
/// Image decoders fill in a scan that stops short instead of failing, so a
/// cut file is caught here (`validate`, and `resize` before it decodes).
pub fn jpeg_runs_to_its_end(bytes: &[u8]) -> Result<(), String> {
    let cut = || "the JPEG data ends before its end-of-image marker".to_string();
    if !bytes.starts_with(&[0xFF, 0xD8]) {
        return Err("no JPEG start-of-image marker".to_string());
    }
    let mut at = 2;
    loop {
        // The next marker: `FF` (fill bytes may repeat it), then its code.
        at += memchr::memchr(0xFF, bytes.get(at..).ok_or_else(cut)?).ok_or_else(cut)?;
        while bytes.get(at) == Some(&0xFF) {
            at += 1;
        }
        let marker = *bytes.get(at).ok_or_else(cut)?;
        at += 1;
        match marker {
            0xD9 => return Ok(()),
            0x00 | 0x01 | 0xD0..=0xD7 => continue,
            _ => {}
        }
        let length = bytes.get(at..at + 2).ok_or_else(cut)?;
        let length = u16::from_be_bytes([length[0], length[1]]) as usize;
        if length < 2 {
            return Err(format!("a JPEG segment at offset {at} has length {length}"));
        }
        at += length;
        if at > bytes.len() {
            return Err(cut());
        }
        if marker == 0xDA {
            // Entropy-coded data, up to the first marker that is not a stuffed
            // byte or a restart marker.
            loop {
                at += memchr::memchr(0xFF, &bytes[at..]).ok_or_else(cut)?;
                match bytes.get(at + 1) {
                    None => return Err(cut()),
                    Some(0x00 | 0xD0..=0xD7) => at += 2,
                    Some(0xFF) => at += 1,
                    Some(_) => break,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A JPEG of `width`×`height` whose frame header follows a `pad`-byte
    /// APP1 segment.
    fn jpeg_with_app(width: u32, height: u32, pad: usize) -> Vec<u8> {
        let pixels = vec![128u8; (width * height * 3) as usize];
        let mut jpeg = Vec::new();
        image::codecs::jpeg::JpegEncoder::new(&mut jpeg)
            .encode(&pixels, width, height, image::ExtendedColorType::Rgb8)
            .unwrap();
        let mut app = vec![0xFF, 0xE1];
        app.extend_from_slice(&((pad + 2) as u16).to_be_bytes());
        app.extend(std::iter::repeat_n(b'e', pad));
        jpeg.splice(2..2, app);
        jpeg
    }

    #[test]
    fn a_jpeg_header_past_the_head_is_read_from_more() {
        let payload = b64::encode(&jpeg_with_app(33, 21, 10_000));
        let mut scratch = Vec::new();
        let total =
            decode_strict_head(&payload, &mut scratch, Depth::Header, &Lending::NONE).unwrap();
        assert_eq!(
            scratch.len(),
            HEAD_CHARS / 4 * 3,
            "only the head for a JPEG"
        );
        let (sniffed, dimensions) = check_decoded(
            &payload,
            &mut scratch,
            total,
            "image/jpeg",
            Depth::Header,
            &Lending::NONE,
        )
        .unwrap();
        assert_eq!(sniffed.as_deref(), Some("image/jpeg"));
        assert_eq!(dimensions, Some((33, 21)));
        assert!(scratch.len() > HEAD_BYTES);
    }

    #[test]
    fn a_zip_is_told_from_the_usual_prefix_not_the_head() {
        let filler = vec![b'x'; 6_000];
        let docx = media::zip::build::stored(
            &[
                ("[Content_Types].xml", &filler),
                ("word/document.xml", b"<w/>"),
            ],
            false,
        );
        assert_eq!(
            media::sniff(&docx[..HEAD_BYTES]).as_deref(),
            Some("application/zip")
        );
        let payload = b64::encode(&docx);
        let mut scratch = Vec::new();
        decode_strict_head(&payload, &mut scratch, Depth::Header, &Lending::NONE).unwrap();
        assert_eq!(scratch, docx);
        assert_eq!(
            media::sniff(&scratch).as_deref(),
            Some("application/vnd.openxmlformats-officedocument.wordprocessingml.document")
        );
    }
}
