//! Writing pixels in the output format: PNG and JPEG (see their modules), GIF
//! (every frame, each after the first reduced to the rectangle that changed),
//! and WebP through libwebp (lossy with a quality, or lossless).

use super::decode::Frame;
use super::raster::Raster;
use super::{jpeg, png, Format};

/// What the encoder is asked for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Encoding {
    pub format: Format,
    /// The quality, for JPEG and lossy WebP; `None` for lossless output.
    pub quality: Option<f32>,
}

/// Encodes frames (one unless the output is an animated GIF).
pub fn encode(
    encoding: Encoding,
    frames: &[Frame],
    icc: Option<&[u8]>,
    loops: Option<u16>,
) -> Result<Vec<u8>, String> {
    let first = &frames.first().ok_or("no frame to encode")?.raster;
    match encoding.format {
        Format::Png => Ok(png::encode(&opaque_if_possible(first), icc)),
        Format::Jpeg => jpeg::encode(first, encoding.quality.unwrap_or(85.0), icc),
        Format::Gif => gif(frames, loops),
        Format::Webp => webp(&opaque_if_possible(first), encoding.quality),
        Format::Bmp | Format::Tiff => Err(format!(
            "partkit does not write {}",
            encoding.format.media_type()
        )),
    }
}

/// Drops an alpha channel that holds nothing (every pixel opaque).
fn opaque_if_possible(raster: &Raster) -> std::borrow::Cow<'_, Raster> {
    if raster.has_alpha() && raster.is_opaque() {
        std::borrow::Cow::Owned(raster.without_alpha())
    } else {
        std::borrow::Cow::Borrowed(raster)
    }
}

fn webp(raster: &Raster, quality: Option<f32>) -> Result<Vec<u8>, String> {
    if raster.width > 16383 || raster.height > 16383 {
        return Err("a WebP image is at most 16,383 px on each side".into());
    }
    let color = raster.to_color();
    let layout = if color.channels == 4 {
        webp::PixelLayout::Rgba
    } else {
        webp::PixelLayout::Rgb
    };
    let mut config = webp::WebPConfig::new().map_err(|_| "libwebp did not initialize")?;
    match quality {
        Some(quality) => {
            config.lossless = 0;
            config.quality = quality;
            config.alpha_compression = 1;
            config.method = 2;
        }
        None => {
            config.lossless = 1;
            config.quality = 50.0;
            config.method = 2;
        }
    }
    config.thread_level = 1;
    let encoder = webp::Encoder::new(&color.data, layout, color.width, color.height);
    encoder
        .encode_advanced(&config)
        .map(|memory| memory.to_vec())
        .map_err(|e| format!("libwebp could not encode: {e:?}"))
}

/// The smallest rectangle where two frames differ, as (left, top, width, height).
fn changed_rect(prev: &Raster, next: &Raster) -> Option<(u32, u32, u32, u32)> {
    let stride = next.width as usize * 4;
    let rows: Vec<usize> = (0..next.height as usize)
        .filter(|&y| {
            prev.data[y * stride..(y + 1) * stride] != next.data[y * stride..(y + 1) * stride]
        })
        .collect();
    let (top, bottom) = (*rows.first()?, *rows.last()?);
    let (mut left, mut right) = (next.width as usize, 0);
    for y in top..=bottom {
        let row = y * stride;
        for x in 0..next.width as usize {
            let at = row + x * 4;
            if prev.data[at..at + 4] != next.data[at..at + 4] {
                left = left.min(x);
                right = right.max(x);
            }
        }
    }
    Some((
        left as u32,
        top as u32,
        (right - left + 1) as u32,
        (bottom - top + 1) as u32,
    ))
}

fn crop(raster: &Raster, (left, top, width, height): (u32, u32, u32, u32)) -> Vec<u8> {
    let stride = raster.width as usize * 4;
    let mut out = Vec::with_capacity(width as usize * height as usize * 4);
    for y in top as usize..(top + height) as usize {
        let start = y * stride + left as usize * 4;
        out.extend_from_slice(&raster.data[start..start + width as usize * 4]);
    }
    out
}

fn gif(frames: &[Frame], loops: Option<u16>) -> Result<Vec<u8>, String> {
    let rgba: Vec<Raster> = frames
        .iter()
        .map(|f| {
            let color = f.raster.to_color();
            if color.channels == 4 {
                color
            } else {
                let data = color
                    .data
                    .chunks_exact(3)
                    .flat_map(|p| [p[0], p[1], p[2], 255])
                    .collect();
                Raster {
                    channels: 4,
                    data,
                    ..color
                }
            }
        })
        .collect();
    let first = &rgba[0];
    let (width, height) = (
        u16::try_from(first.width).map_err(|_| "a GIF is at most 65,535 px wide")?,
        u16::try_from(first.height).map_err(|_| "a GIF is at most 65,535 px tall")?,
    );
    // A frame drawn over the one before it may cover only what changed; a frame
    // with transparent pixels must start from a cleared canvas instead.
    let opaque: Vec<bool> = rgba.iter().map(Raster::is_opaque).collect();
    let mut out = Vec::new();
    {
        let mut encoder =
            gif::Encoder::new(&mut out, width, height, &[]).map_err(|e| e.to_string())?;
        if frames.len() > 1 {
            let repeat = match loops {
                Some(0) | None => gif::Repeat::Infinite,
                Some(n) => gif::Repeat::Finite(n),
            };
            if loops.is_some() {
                encoder.set_repeat(repeat).map_err(|e| e.to_string())?;
            }
        }
        for (i, (raster, frame)) in rgba.iter().zip(frames).enumerate() {
            let rect = if i > 0 && opaque[i] {
                changed_rect(&rgba[i - 1], raster).unwrap_or((0, 0, 1, 1))
            } else {
                (0, 0, raster.width, raster.height)
            };
            let mut pixels = crop(raster, rect);
            let mut out_frame =
                gif::Frame::from_rgba_speed(rect.2 as u16, rect.3 as u16, &mut pixels, 10);
            out_frame.left = rect.0 as u16;
            out_frame.top = rect.1 as u16;
            let (numer, denom) = frame.delay;
            out_frame.delay = ((f64::from(numer) / f64::from(denom.max(1))) / 10.0).round() as u16;
            out_frame.dispose = if opaque.get(i + 1).copied().unwrap_or(true) {
                gif::DisposalMethod::Keep
            } else {
                gif::DisposalMethod::Background
            };
            encoder.write_frame(&out_frame).map_err(|e| e.to_string())?;
        }
    }
    Ok(out)
}
