//! Bounded decoding: the header is read first and an image over the pixel
//! budget is refused before any pixel is decoded (a decompression bomb costs
//! nothing), the decoder gets an allocation limit, animated GIFs are decoded
//! frame by frame against the same budget, EXIF orientation is applied, and a
//! JPEG cut short is refused rather than filled in grey.

use std::io::Cursor;

use image::{AnimationDecoder, DynamicImage, ImageDecoder, ImageReader};

use super::raster::Raster;
use super::{jpeg, Format};
use crate::size::group_digits;

/// What decoding may cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecodeLimits {
    /// The most pixels (width x height, summed over an animation's frames).
    pub max_pixels: u64,
    /// The most bytes the decoder may allocate.
    pub max_alloc: u64,
}

impl Default for DecodeLimits {
    /// 100 megapixels, and 8 bytes for each (16-bit RGBA).
    fn default() -> DecodeLimits {
        DecodeLimits {
            max_pixels: 100_000_000,
            max_alloc: 800_000_000,
        }
    }
}

/// Why an image was not decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecodeError {
    /// More pixels than `--max-decode-pixels` allows.
    TooLarge { what: String, max: u64 },
    /// The bytes are not a whole image of their format.
    Corrupt(String),
    /// A format or feature partkit does not decode.
    Unsupported(String),
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DecodeError::TooLarge { what, max } => write!(
                f,
                "{what}, over the decoding limit of {} pixels (--max-decode-pixels); refused as a possible decompression bomb",
                group_digits(*max)
            ),
            DecodeError::Corrupt(why) => write!(f, "image does not decode: {why}"),
            DecodeError::Unsupported(what) => write!(f, "{what}"),
        }
    }
}

/// One frame of a decoded image.
#[derive(Debug, Clone)]
pub struct Frame {
    pub raster: Raster,
    /// How long it shows, as a fraction of milliseconds (numerator, denominator).
    pub delay: (u32, u32),
}

/// A decoded image.
#[derive(Debug, Clone)]
pub struct Decoded {
    /// One frame for a still image, every frame for an animated GIF.
    pub frames: Vec<Frame>,
    /// The colour profile, kept in re-encoded JPEG and PNG files.
    pub icc: Option<Vec<u8>>,
    /// A JPEG's estimated quality.
    pub quality: Option<f32>,
    /// A GIF's loop count (0 = forever), when it has one.
    pub loops: Option<u16>,
}

impl Decoded {
    pub fn width(&self) -> u32 {
        self.frames.first().map_or(0, |f| f.raster.width)
    }

    pub fn height(&self) -> u32 {
        self.frames.first().map_or(0, |f| f.raster.height)
    }
}

fn corrupt(error: impl std::fmt::Display) -> DecodeError {
    let text = error.to_string();
    DecodeError::Corrupt(text.split_whitespace().collect::<Vec<_>>().join(" "))
}

fn image_limits(limits: &DecodeLimits) -> image::Limits {
    let mut out = image::Limits::default();
    out.max_alloc = Some(limits.max_alloc);
    out
}

fn check_pixels(width: u32, height: u32, limits: &DecodeLimits) -> Result<(), DecodeError> {
    let pixels = u64::from(width) * u64::from(height);
    if pixels > limits.max_pixels {
        return Err(DecodeError::TooLarge {
            what: format!("{width}x{height} is {} pixels", group_digits(pixels)),
            max: limits.max_pixels,
        });
    }
    Ok(())
}

/// The dimensions in an image's header (before orientation), without
/// decoding; an image without pixels, or a WebP whose frame is not its
/// canvas's size, does not decode and is refused here already.
pub fn dimensions(bytes: &[u8], format: Format) -> Result<(u32, u32), DecodeError> {
    let (width, height) = ImageReader::with_format(Cursor::new(bytes), format.image_format())
        .into_dimensions()
        .map_err(corrupt)?;
    if width == 0 || height == 0 {
        return Err(DecodeError::Corrupt(format!(
            "the image is {width}x{height}: it has no pixels"
        )));
    }
    if format.image_format() == image::ImageFormat::WebP {
        crate::media::webp::frame_fits_canvas(bytes, (width, height))
            .map_err(DecodeError::Corrupt)?;
    }
    Ok((width, height))
}

/// Whether a GIF has more than one frame (decodes at most two).
pub fn gif_is_animated(bytes: &[u8], limits: &DecodeLimits) -> bool {
    let Ok(mut decoder) = image::codecs::gif::GifDecoder::new(Cursor::new(bytes)) else {
        return false;
    };
    if decoder.set_limits(image_limits(limits)).is_err() {
        return false;
    }
    let (w, h) = decoder.dimensions();
    if check_pixels(w, h, limits).is_err() {
        return false;
    }
    decoder.into_frames().take(2).count() > 1
}

/// Whether a WebP holds an animation (the VP8X animation flag).
pub fn webp_is_animated(bytes: &[u8]) -> bool {
    bytes.len() > 20 && &bytes[12..16] == b"VP8X" && bytes[20] & 0x02 != 0
}

/// Whether a WebP is lossless (a `VP8L` image chunk rather than `VP8 `).
pub fn webp_is_lossless(bytes: &[u8]) -> bool {
    let mut at = 12;
    while at + 8 <= bytes.len() {
        let id = &bytes[at..at + 4];
        if id == b"VP8L" {
            return true;
        }
        if id == b"VP8 " {
            return false;
        }
        let len = u32::from_le_bytes([bytes[at + 4], bytes[at + 5], bytes[at + 6], bytes[at + 7]]);
        at += 8 + len as usize + (len as usize & 1);
    }
    false
}

/// Decodes an image once, within `limits`.
pub fn decode(bytes: &[u8], format: Format, limits: &DecodeLimits) -> Result<Decoded, DecodeError> {
    match format {
        Format::Gif => decode_gif(bytes, limits),
        Format::Webp if webp_is_animated(bytes) => Err(DecodeError::Unsupported(
            "an animated WebP cannot be resized (its frames would be lost)".into(),
        )),
        _ => decode_still(bytes, format, limits),
    }
}

fn decode_still(
    bytes: &[u8],
    format: Format,
    limits: &DecodeLimits,
) -> Result<Decoded, DecodeError> {
    if format == Format::Jpeg {
        jpeg::runs_to_its_end(bytes).map_err(DecodeError::Corrupt)?;
    }
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format.image_format());
    reader.limits(image_limits(limits));
    let mut decoder = reader.into_decoder().map_err(corrupt)?;
    let (width, height) = decoder.dimensions();
    check_pixels(width, height, limits)?;
    let orientation = decoder
        .orientation()
        .unwrap_or(image::metadata::Orientation::NoTransforms);
    let icc = decoder.icc_profile().ok().flatten();
    let mut image = DynamicImage::from_decoder(decoder).map_err(corrupt)?;
    image.apply_orientation(orientation);
    Ok(Decoded {
        frames: vec![Frame {
            raster: Raster::from_dynamic(image),
            delay: (0, 1),
        }],
        icc,
        quality: (format == Format::Jpeg)
            .then(|| jpeg::estimate_quality(bytes))
            .flatten(),
        loops: None,
    })
}

fn decode_gif(bytes: &[u8], limits: &DecodeLimits) -> Result<Decoded, DecodeError> {
    let mut decoder = image::codecs::gif::GifDecoder::new(Cursor::new(bytes)).map_err(corrupt)?;
    decoder.set_limits(image_limits(limits)).map_err(corrupt)?;
    let (width, height) = decoder.dimensions();
    check_pixels(width, height, limits)?;
    let per_frame = u64::from(width) * u64::from(height);
    let mut frames = Vec::new();
    for frame in decoder.into_frames() {
        let frame = frame.map_err(corrupt)?;
        if per_frame * (frames.len() as u64 + 1) > limits.max_pixels {
            return Err(DecodeError::TooLarge {
                what: format!(
                    "{width}x{height} with more than {} frames is over {} pixels",
                    frames.len(),
                    group_digits(limits.max_pixels)
                ),
                max: limits.max_pixels,
            });
        }
        let delay = frame.delay().numer_denom_ms();
        frames.push(Frame {
            raster: Raster::from_dynamic(DynamicImage::ImageRgba8(frame.into_buffer())),
            delay,
        });
    }
    if frames.is_empty() {
        return Err(DecodeError::Corrupt("a GIF without frames".into()));
    }
    Ok(Decoded {
        frames,
        icc: None,
        quality: None,
        loops: gif_loops(bytes),
    })
}

/// The loop count of a GIF's NETSCAPE2.0 extension.
fn gif_loops(bytes: &[u8]) -> Option<u16> {
    let at = memchr::memmem::find(bytes, b"NETSCAPE2.0")?;
    let block = bytes.get(at + 11..at + 15)?;
    (block[0] == 3 && block[1] == 1).then(|| u16::from_le_bytes([block[2], block[3]]))
}
