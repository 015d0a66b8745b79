//! Bringing images under byte, size and pixel caps (docs/commands/resize.md): the engine behind
//! `partkit resize`, for one image's bytes ([`resize_image`]) or every image
//! embedded in a JSON document ([`document::resize_document`]).
//!
//! An image within every cap, in a type the limits accept, comes back
//! unchanged. Any other is decoded once (bounded, EXIF orientation applied),
//! searched for the largest version that fits ([`search`]), re-encoded without
//! metadata, and checked against every cap again before it is returned.
//!
//! ```
//! use partkit::resize::{resize_image, ResizeOptions, Limits};
//!
//! // A 64x64 PNG, capped at 40 pixels on its longest side.
//! let mut png = Vec::new();
//! image::DynamicImage::new_rgb8(64, 64)
//!     .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
//!     .unwrap();
//! let options = ResizeOptions {
//!     limits: Limits { max_dim: Some(40), ..Limits::default() },
//!     ..ResizeOptions::default()
//! };
//! let resized = resize_image(&png, &options).unwrap();
//! assert_eq!((resized.after.width, resized.after.height), (40, 40));
//! assert!(resize_image(resized.bytes.as_ref().unwrap(), &options).unwrap().bytes.is_none());
//! ```

pub mod decode;
pub mod document;
pub mod encode;
pub mod jpeg;
mod jpeg_strips;
pub mod limits;
pub mod png;
pub mod raster;
mod recorded;
pub mod report;
pub mod run;
pub mod search;
mod stream;
mod trial;

use std::time::Instant;

pub use decode::{DecodeError, DecodeLimits};
pub use limits::Limits;
pub use report::{Report, ReportStyle};
pub use run::{
    copy_file, copy_file_to_file, run, Destination, InputFile, Output, RunOptions, Sink,
};

use crate::media;
use crate::size::group_digits;
use encode::Encoding;
use search::{Search, SearchError};

/// The image formats partkit reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    Png,
    Jpeg,
    Gif,
    Webp,
    Bmp,
    Tiff,
}

impl Format {
    /// The format of a (normalized) media type, for the types partkit decodes.
    pub fn from_media_type(media_type: &str) -> Option<Format> {
        Some(match media_type {
            "image/png" => Format::Png,
            "image/jpeg" => Format::Jpeg,
            "image/gif" => Format::Gif,
            "image/webp" => Format::Webp,
            "image/bmp" => Format::Bmp,
            "image/tiff" => Format::Tiff,
            _ => return None,
        })
    }

    pub fn media_type(self) -> &'static str {
        match self {
            Format::Png => "image/png",
            Format::Jpeg => "image/jpeg",
            Format::Gif => "image/gif",
            Format::Webp => "image/webp",
            Format::Bmp => "image/bmp",
            Format::Tiff => "image/tiff",
        }
    }

    /// The short name used in reports (`png`, `jpeg`).
    pub fn name(self) -> &'static str {
        self.media_type().trim_start_matches("image/")
    }

    /// The file extension partkit writes for it.
    pub fn extension(self) -> &'static str {
        media::extension_for(self.media_type()).unwrap_or("img")
    }

    fn image_format(self) -> image::ImageFormat {
        match self {
            Format::Png => image::ImageFormat::Png,
            Format::Jpeg => image::ImageFormat::Jpeg,
            Format::Gif => image::ImageFormat::Gif,
            Format::Webp => image::ImageFormat::WebP,
            Format::Bmp => image::ImageFormat::Bmp,
            Format::Tiff => image::ImageFormat::Tiff,
        }
    }
}

/// Which format a re-encoded image is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FormatChoice {
    /// The input's format, unless the limits do not accept it (then PNG).
    #[default]
    Keep,
    /// This format, for every image that is re-encoded.
    To(Format),
}

/// How to resize.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ResizeOptions {
    pub limits: Limits,
    pub format: FormatChoice,
    pub decode: DecodeLimits,
}

/// What is known of an image before or after resizing.
#[derive(Debug, Clone, PartialEq)]
pub struct ImageFacts {
    pub format: Format,
    pub bytes: u64,
    pub width: u32,
    pub height: u32,
    /// The JPEG or WebP quality (estimated from the tables of an input JPEG).
    pub quality: Option<f32>,
    pub frames: usize,
}

impl ImageFacts {
    /// `6000x4000 jpeg q92 8,472,182 bytes`.
    pub fn describe(&self) -> String {
        let mut text = format!("{}x{} {}", self.width, self.height, self.format.name());
        if let Some(q) = self.quality {
            text.push_str(&format!(" q{q:.0}"));
        }
        if self.frames > 1 {
            text.push_str(&format!(" ({} frames)", self.frames));
        }
        text.push_str(&format!(" {} bytes", group_digits(self.bytes)));
        text
    }

    pub fn to_json(&self) -> serde_json::Value {
        let mut value = serde_json::json!({
            "format": self.format.name(),
            "bytes": self.bytes,
            "width": self.width,
            "height": self.height,
        });
        if let Some(q) = self.quality {
            value["quality"] = serde_json::json!((q * 10.0).round() / 10.0);
        }
        if self.frames > 1 {
            value["frames"] = serde_json::json!(self.frames);
        }
        value
    }
}

/// The result of resizing one image.
#[derive(Debug, Clone)]
pub struct Resized {
    /// The new bytes; `None` when the image was within every cap and is unchanged.
    pub bytes: Option<Vec<u8>>,
    pub before: ImageFacts,
    /// The same as `before` for an unchanged image.
    pub after: ImageFacts,
    /// How many encodes of the whole image the search took.
    pub encodes: u32,
    /// How many encodes of a sample of its rows predicted the quality.
    pub trials: u32,
    pub seconds: f64,
    /// What a person should know (frames dropped by a format change).
    pub warnings: Vec<String>,
    /// Why it had to change (`over 4,000,000 bytes`), empty when unchanged.
    pub reasons: Vec<String>,
}

impl Resized {
    /// An image within every cap, left as it is.
    fn unchanged(facts: ImageFacts, started: Instant) -> Resized {
        Resized {
            bytes: None,
            after: facts.clone(),
            before: facts,
            encodes: 0,
            trials: 0,
            seconds: started.elapsed().as_secs_f64(),
            warnings: Vec::new(),
            reasons: Vec::new(),
        }
    }

    pub fn changed(&self) -> bool {
        self.bytes.is_some()
    }
}

/// Why an image could not be brought under the caps.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ResizeError {
    /// The bytes are no image type partkit reads.
    NotAnImage(Option<String>),
    /// Refused by the decoder, or too large to decode.
    Decode(DecodeError),
    /// Nothing fits, even at the smallest size.
    CannotFit {
        width: u32,
        height: u32,
        bytes: u64,
        cap: u64,
    },
    /// The encoder failed, or its result broke a cap (a bug, reported as such).
    Encode(String),
}

impl std::fmt::Display for ResizeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ResizeError::NotAnImage(Some(kind)) => {
                write!(f, "{kind} is not an image type partkit can resize")
            }
            ResizeError::NotAnImage(None) => write!(f, "not an image partkit recognizes"),
            ResizeError::Decode(error) => write!(f, "{error}"),
            ResizeError::CannotFit {
                width,
                height,
                bytes,
                cap,
            } => write!(
                f,
                "cannot fit under {} bytes: even at {width}x{height} it is {} bytes",
                group_digits(*cap),
                group_digits(*bytes)
            ),
            ResizeError::Encode(why) => write!(f, "cannot encode: {why}"),
        }
    }
}

impl From<DecodeError> for ResizeError {
    fn from(error: DecodeError) -> Self {
        ResizeError::Decode(error)
    }
}

impl From<SearchError> for ResizeError {
    fn from(error: SearchError) -> Self {
        match error {
            SearchError::CannotFit {
                width,
                height,
                bytes,
                cap,
            } => ResizeError::CannotFit {
                width,
                height,
                bytes,
                cap,
            },
            SearchError::Encode(why) => ResizeError::Encode(why),
        }
    }
}

/// The format of an image's bytes, sniffed from its content.
pub fn sniff_format(bytes: &[u8]) -> Result<Format, ResizeError> {
    let sniffed = media::sniff(bytes);
    sniffed
        .as_deref()
        .and_then(Format::from_media_type)
        .ok_or(ResizeError::NotAnImage(sniffed))
}

/// Brings one image (its file bytes) under every cap of `options`.
pub fn resize_image(bytes: &[u8], options: &ResizeOptions) -> Result<Resized, ResizeError> {
    let started = Instant::now();
    let limits = &options.limits;
    let (before, reasons, accepted) = measure(bytes, limits, &options.decode)?;
    let format = before.format;
    if reasons.is_empty() {
        return Ok(Resized::unchanged(before, started));
    }
    let out_format = match options.format {
        FormatChoice::To(to) => to,
        FormatChoice::Keep if accepted => format,
        FormatChoice::Keep => Format::Png,
    };
    let decoded = decode::decode(bytes, format, &options.decode)?;
    let mut warnings = Vec::new();
    let frames = decoded.frames.len();
    let mut decoded = decoded;
    if frames > 1 && out_format != Format::Gif {
        decoded.frames.truncate(1);
        warnings.push(format!(
            "kept only the first of {frames} frames: {} has no animation",
            out_format.name()
        ));
    }
    let mut before = before;
    before.frames = frames;
    // The oriented size (a rotated JPEG swaps its sides).
    (before.width, before.height) = (decoded.width(), decoded.height());
    let lossy = match out_format {
        Format::Jpeg => true,
        Format::Webp => !(format == Format::Webp && decode::webp_is_lossless(bytes)),
        _ => false,
    };
    let top_quality = match decoded.quality {
        Some(q) if out_format == Format::Jpeg => q.clamp(search::MIN_QUALITY, search::MAX_QUALITY),
        _ => 90.0,
    };
    let search = Search {
        decoded: &decoded,
        encoding: Encoding {
            format: out_format,
            quality: lossy.then_some(top_quality),
        },
        limits,
        size_hint: (out_format == format && !lossy).then_some(bytes.len() as u64),
        top_quality,
    };
    let found = search.run()?;
    let after = ImageFacts {
        format: out_format,
        bytes: found.bytes.len() as u64,
        width: found.width,
        height: found.height,
        quality: found.quality,
        frames: decoded.frames.len(),
    };
    verify(&found.bytes, &after, limits)?;
    Ok(Resized {
        bytes: Some(found.bytes),
        before,
        after,
        encodes: found.encodes,
        trials: found.trials,
        seconds: started.elapsed().as_secs_f64(),
        warnings,
        reasons,
    })
}

/// What an image is before anything is done to it (from its headers, not
/// decoded): its facts, the caps it breaks, and whether its type is accepted.
fn measure(
    bytes: &[u8],
    limits: &Limits,
    decode_limits: &DecodeLimits,
) -> Result<(ImageFacts, Vec<String>, bool), ResizeError> {
    let format = sniff_format(bytes)?;
    let (width, height) = decode::dimensions(bytes, format)?;
    let animated = match format {
        Format::Gif if gif_animation_matters(limits) => {
            decode::gif_is_animated(bytes, decode_limits)
        }
        Format::Webp => decode::webp_is_animated(bytes),
        _ => false,
    };
    let quality = (format == Format::Jpeg)
        .then(|| jpeg::estimate_quality(bytes))
        .flatten();
    let size = (format, bytes.len() as u64, width, height);
    Ok(judge(size, animated, quality, limits))
}

/// Whether the caps treat an animated GIF otherwise than a still one (and
/// so all of a GIF must be read to know).
fn gif_animation_matters(limits: &Limits) -> bool {
    limits.still_gif_only || !limits.accepts("image/gif", false)
}

/// An image within every cap, known from its first decoded bytes and its
/// size: what [`resize_image`] of all of it says then, without decoding the
/// rest (most embedded images pass unchanged). `None` when it breaks a cap,
/// or when its first bytes do not settle every fact `measure` reads: the
/// header does not parse in them, a JPEG's quality tables are not in them, a
/// GIF whose frames count.
pub fn within_caps_from_prefix(
    prefix: &[u8],
    len: u64,
    options: &ResizeOptions,
) -> Option<Resized> {
    let started = Instant::now();
    let limits = &options.limits;
    let (before, reasons, _) = if prefix.len() as u64 >= len {
        measure(prefix, limits, &options.decode).ok()?
    } else {
        let format = sniff_format(prefix).ok()?;
        let (width, height) = decode::dimensions(prefix, format).ok()?;
        let animated = match format {
            Format::Gif if gif_animation_matters(limits) => return None,
            Format::Webp => decode::webp_is_animated(prefix),
            _ => false,
        };
        // The estimate stops at the first luma table: found in the prefix,
        // it is the one the whole image gives.
        let quality = match format {
            Format::Jpeg => Some(jpeg::estimate_quality(prefix)?),
            _ => None,
        };
        judge((format, len, width, height), animated, quality, limits)
    };
    reasons
        .is_empty()
        .then(|| Resized::unchanged(before, started))
}

/// An image's facts and the caps it breaks, from its format, size in bytes,
/// width and height, animation and JPEG quality; and whether its type is
/// accepted.
fn judge(
    (format, len, width, height): (Format, u64, u32, u32),
    animated: bool,
    quality: Option<f32>,
    limits: &Limits,
) -> (ImageFacts, Vec<String>, bool) {
    let mut reasons = limits.broken(len, width, height);
    let accepted = limits.accepts(format.media_type(), animated);
    if !accepted {
        reasons.push(match limits.profile {
            Some(profile) if animated && format == Format::Gif => {
                format!("an animated GIF is not accepted by the {profile} profile")
            }
            Some(profile) => format!("{} is not accepted by the {profile} profile", format.name()),
            None => format!("{} is not among the accepted types", format.name()),
        });
    }
    let facts = ImageFacts {
        format,
        bytes: len,
        width,
        height,
        quality,
        frames: 1,
    };
    (facts, reasons, accepted)
}

/// Checks a result against every cap, from its own bytes.
fn verify(bytes: &[u8], after: &ImageFacts, limits: &Limits) -> Result<(), ResizeError> {
    let format = sniff_format(bytes)
        .map_err(|_| ResizeError::Encode("the result is not a recognizable image".into()))?;
    if format != after.format {
        return Err(ResizeError::Encode(format!(
            "the result is {}, not {}",
            format.name(),
            after.format.name()
        )));
    }
    let (width, height) = decode::dimensions(bytes, format)?;
    let broken = limits.broken(bytes.len() as u64, width, height);
    if !broken.is_empty() || (width, height) != (after.width, after.height) {
        return Err(ResizeError::Encode(format!(
            "the result ({width}x{height}, {} bytes) is still {}",
            group_digits(bytes.len() as u64),
            broken.join(", ")
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Noise, so that the encoded images run past the first 64 KiB.
    fn noisy(width: u32, height: u32) -> image::RgbImage {
        let mut state = 0x2545_f491_u32;
        image::RgbImage::from_fn(width, height, |x, y| {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            let [a, b, c, _] = state.to_le_bytes();
            image::Rgb([a / 2 + (x % 128) as u8, b / 2 + (y % 128) as u8, c])
        })
    }

    fn encoded(format: image::ImageFormat, width: u32, height: u32) -> Vec<u8> {
        let mut out = std::io::Cursor::new(Vec::new());
        noisy(width, height).write_to(&mut out, format).unwrap();
        out.into_inner()
    }

    /// What the first 64 KiB settle is what all of the image says; what
    /// they cannot settle (or that breaks a cap) is left to the whole image.
    #[test]
    fn an_image_judged_from_its_first_bytes_is_judged_as_from_all_of_them() {
        let prefix_len = 64 * 1024;
        for format in [image::ImageFormat::Png, image::ImageFormat::Jpeg] {
            let bytes = encoded(format, 500, 400);
            assert!(bytes.len() > 2 * prefix_len, "{format:?}: {}", bytes.len());
            let len = bytes.len() as u64;
            let within = ResizeOptions::default();
            let whole = resize_image(&bytes, &within).unwrap();
            let judged = within_caps_from_prefix(&bytes[..prefix_len], len, &within).unwrap();
            assert!(judged.bytes.is_none() && whole.bytes.is_none());
            assert_eq!(
                (&judged.before, &judged.after),
                (&whole.before, &whole.after)
            );
            assert_eq!(judged.reasons, whole.reasons);
            // All of it: the same again.
            let all = within_caps_from_prefix(&bytes, len, &within).unwrap();
            assert_eq!(all.before, whole.before);
            // Over a cap: resized from all of it, not judged here.
            for limits in [
                Limits {
                    max_bytes: Some(len - 1),
                    ..Limits::default()
                },
                Limits {
                    max_dim: Some(499),
                    ..Limits::default()
                },
                Limits {
                    image_types: vec!["image/webp"],
                    ..Limits::default()
                },
            ] {
                let options = ResizeOptions {
                    limits,
                    ..ResizeOptions::default()
                };
                assert!(within_caps_from_prefix(&bytes[..prefix_len], len, &options).is_none());
            }
            // A header past the prefix: not settled.
            assert!(within_caps_from_prefix(&bytes[..20], len, &within).is_none());
        }
    }
}
