//! Checks on embedded media payloads, shared by `split`, `validate` and `inspect`:
//! strict base64, content against the declared type, the image header.

use crate::b64::{self, Base64Error};
use crate::media;

/// How far to look into a payload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Depth {
    /// Strict base64, magic bytes against the declared type, the image header.
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
}

impl PayloadProblem {
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
        }
    }
}

/// Checks a base64 payload declared as `declared` (a normalized media type).
/// `scratch` holds the decoded bytes afterwards (reused between calls).
pub fn check_payload(
    payload: &str,
    declared: &str,
    scratch: &mut Vec<u8>,
    depth: Depth,
) -> Result<PayloadInfo, PayloadProblem> {
    if payload.is_empty() {
        return Err(PayloadProblem::Empty);
    }
    let decoded_len = match b64::check_strict(payload, scratch) {
        Ok(len) => len as u64,
        Err(error) => {
            let lenient = b64::decode_lenient(payload).is_ok();
            return Err(PayloadProblem::Base64 { error, lenient });
        }
    };
    check_bytes(scratch, declared, depth).map(|(sniffed, dimensions)| PayloadInfo {
        decoded_len,
        sniffed,
        dimensions,
    })
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
            Some(image_dimensions(bytes, format, depth)?)
        }
        None => None,
    };
    Ok((sniffed, dimensions))
}

/// The `image` crate's format for the image types partkit decodes.
pub fn image_format(media_type: &str) -> Option<image::ImageFormat> {
    match media_type {
        "image/png" => Some(image::ImageFormat::Png),
        "image/jpeg" => Some(image::ImageFormat::Jpeg),
        "image/gif" => Some(image::ImageFormat::Gif),
        "image/webp" => Some(image::ImageFormat::WebP),
        _ => None,
    }
}

/// Reads an image's dimensions from its header, or decodes it fully for
/// [`Depth::Full`].
pub fn image_dimensions(
    bytes: &[u8],
    format: image::ImageFormat,
    depth: Depth,
) -> Result<(u32, u32), PayloadProblem> {
    let reader = image::ImageReader::with_format(std::io::Cursor::new(bytes), format);
    match depth {
        Depth::Header => reader
            .into_dimensions()
            .map_err(|e| PayloadProblem::Header(e.to_string())),
        Depth::Full => {
            let mut reader = reader;
            reader.limits(image::Limits::default());
            let decoded = reader
                .decode()
                .map_err(|e| PayloadProblem::Truncated(e.to_string()))?;
            Ok((decoded.width(), decoded.height()))
        }
    }
}
