//! JPEG specifics: encoding at a fractional quality (the IJG tables scaled, so the
//! search over quality is continuous), estimating a file's quality from its
//! tables, and checking that a file runs to its end-of-image marker.

use jpeg_encoder::{ColorType, Encoder, QuantizationTableType, SamplingFactor};

use super::jpeg_strips;
use super::raster::Raster;

/// The luminance table of ITU-T T.81 Annex K, natural order.
const LUMA: [u16; 64] = [
    16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56,
    14, 17, 22, 29, 51, 87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113,
    92, 49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
];

/// The chrominance table of Annex K, natural order.
const CHROMA: [u16; 64] = [
    17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99, 24, 26, 56, 99, 99, 99, 99, 99,
    47, 66, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
    99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
];

/// The IJG scaling factor (percent) for a quality in 1..=100, fractional.
fn ijg_scale(quality: f32) -> f32 {
    let quality = quality.clamp(1.0, 100.0);
    if quality < 50.0 {
        5000.0 / quality
    } else {
        200.0 - 2.0 * quality
    }
}

fn scaled(table: &[u16; 64], quality: f32) -> Box<[u16; 64]> {
    let scale = ijg_scale(quality);
    let mut out = [1u16; 64];
    for (o, &v) in out.iter_mut().zip(table) {
        *o = ((f32::from(v) * scale + 50.0) / 100.0)
            .floor()
            .clamp(1.0, 255.0) as u16;
    }
    Box::new(out)
}

/// Encodes pixels (gray or RGB; alpha is composited on white) as a baseline JPEG
/// at `quality`, 4:2:0 with averaged chroma, in one interleaved scan. No
/// metadata is written but the colour profile, when there is one.
///
/// Optimized Huffman tables would save about a tenth, but jpeg-encoder then
/// writes one scan per component, which zune-jpeg (the `image` crate's JPEG
/// decoder) reads wrongly; the standard tables keep every decoder right.
pub fn encode(raster: &Raster, quality: f32, icc: Option<&[u8]>) -> Result<Vec<u8>, String> {
    encode_on(raster, quality, icc, true)
}

/// [`encode`], a large image in strips encoded in parallel (see
/// `jpeg_strips`) when `strips`, else in one piece (for tests).
pub fn encode_on(
    raster: &Raster,
    quality: f32,
    icc: Option<&[u8]>,
    strips: bool,
) -> Result<Vec<u8>, String> {
    let flat;
    let raster = if raster.has_alpha() {
        flat = raster.without_alpha();
        &flat
    } else {
        raster
    };
    let width = u16::try_from(raster.width).map_err(|_| "wider than 65,535 px")?;
    u16::try_from(raster.height).map_err(|_| "taller than 65,535 px")?;
    let gray = raster.channels == 1;
    let encode_rows = |pixels: &[u8], rows: u32, first: bool| {
        // Checked above: every strip is at most the image's height.
        let rows = rows as u16;
        encode_pixels(pixels, width, rows, gray, quality, icc.filter(|_| first))
    };
    let mcu = if gray { 8 } else { 16 };
    match jpeg_strips::plan(raster.width, raster.height, mcu).filter(|_| strips) {
        Some(plan) => jpeg_strips::encode(
            &raster.data,
            raster.width as usize * usize::from(raster.channels),
            raster.height,
            plan,
            encode_rows,
        ),
        None => encode_rows(&raster.data, raster.height, true),
    }
}

fn encode_pixels(
    pixels: &[u8],
    width: u16,
    height: u16,
    gray: bool,
    quality: f32,
    icc: Option<&[u8]>,
) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(pixels.len() / 8);
    let mut encoder = Encoder::new(&mut out, 90);
    encoder.set_quantization_tables(
        QuantizationTableType::Custom(scaled(&LUMA, quality)),
        QuantizationTableType::Custom(scaled(&CHROMA, quality)),
    );
    encoder.set_sampling_factor(SamplingFactor::F_2_2);
    encoder.set_chroma_subsampling_method(jpeg_encoder::ChromaSubsamplingMethod::Average);
    if let Some(icc) = icc {
        // A profile too large for the segments is left out rather than failing.
        let _ = encoder.add_icc_profile(icc);
    }
    let color = if gray {
        ColorType::Luma
    } else {
        ColorType::Rgb
    };
    encoder
        .encode(pixels, width, height, color)
        .map_err(|e| e.to_string())?;
    Ok(out)
}

/// The quality a JPEG was saved at, estimated from its luminance table the way
/// IJG builds tables (the average scaling of Annex K's table).
pub fn estimate_quality(bytes: &[u8]) -> Option<f32> {
    let mut at = 2;
    while at + 4 <= bytes.len() {
        if bytes[at] != 0xFF {
            return None;
        }
        let marker = bytes[at + 1];
        if marker == 0xFF {
            at += 1;
            continue;
        }
        if marker == 0xDA || marker == 0xD9 {
            return None;
        }
        let length = usize::from(u16::from_be_bytes([bytes[at + 2], bytes[at + 3]]));
        let segment = bytes.get(at + 4..at + 2 + length)?;
        if marker == 0xDB {
            let mut table = segment;
            while let Some((&info, rest)) = table.split_first() {
                let sixteen = info >> 4 == 1;
                let size = if sixteen { 128 } else { 64 };
                let values = rest.get(..size)?;
                if info & 0x0F == 0 {
                    let sum: u32 = if sixteen {
                        values
                            .chunks_exact(2)
                            .map(|v| u32::from(u16::from_be_bytes([v[0], v[1]])))
                            .sum()
                    } else {
                        values.iter().map(|&v| u32::from(v)).sum()
                    };
                    let reference: u32 = LUMA.iter().map(|&v| u32::from(v)).sum();
                    let scale = sum as f32 * 100.0 / reference as f32;
                    let quality = if scale <= 100.0 {
                        (200.0 - scale) / 2.0
                    } else {
                        5000.0 / scale
                    };
                    return Some(quality.clamp(1.0, 100.0));
                }
                table = &rest[size..];
            }
        }
        at += 2 + length;
    }
    None
}

/// Whether a JPEG runs to its end-of-image marker: the decoder fills in a
/// scan that stops short instead of failing, so a cut file is caught here
/// (the same walk `validate` makes).
pub use crate::check::jpeg_runs_to_its_end as runs_to_its_end;

#[cfg(test)]
mod tests {
    use super::*;

    fn gradient(width: u32, height: u32) -> Raster {
        let mut data = Vec::new();
        for y in 0..height {
            for x in 0..width {
                data.extend_from_slice(&[(x * 7) as u8, (y * 5) as u8, ((x ^ y) * 3) as u8]);
            }
        }
        Raster {
            width,
            height,
            channels: 3,
            data,
        }
    }

    #[test]
    fn quality_round_trips_through_the_tables() {
        let raster = gradient(64, 48);
        for quality in [50.0, 75.0, 85.0, 92.0] {
            let bytes = encode(&raster, quality, None).unwrap();
            let estimate = estimate_quality(&bytes).unwrap();
            assert!((estimate - quality).abs() < 1.5, "{quality} → {estimate}");
            assert!(runs_to_its_end(&bytes).is_ok());
            let decoded = image::load_from_memory(&bytes).unwrap();
            assert_eq!((decoded.width(), decoded.height()), (64, 48));
        }
    }

    #[test]
    fn size_grows_with_quality() {
        let raster = gradient(128, 96);
        let low = encode(&raster, 60.0, None).unwrap().len();
        let mid = encode(&raster, 75.5, None).unwrap().len();
        let high = encode(&raster, 90.0, None).unwrap().len();
        assert!(low < mid && mid < high, "{low} {mid} {high}");
    }

    #[test]
    fn strips_joined_by_restarts_decode_to_the_single_encode() {
        // 1,200 x 1,000 is over the strip threshold; 1,000 rows are not whole
        // MCU rows, so the last strip is padded as the single encode is.
        let raster = gradient(1200, 1000);
        let single = encode_on(&raster, 85.0, Some(b"profile"), false).unwrap();
        let strips = encode_on(&raster, 85.0, Some(b"profile"), true).unwrap();
        assert_ne!(single, strips, "four strips, three restart markers");
        // The same bytes on any number of threads.
        for threads in [1, 3] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let again = pool.install(|| encode(&raster, 85.0, Some(b"profile")).unwrap());
            assert_eq!(again, strips, "{threads} threads");
        }
        assert!(runs_to_its_end(&strips).is_ok());
        assert!(
            strips.len() < single.len() + 64,
            "{} {}",
            strips.len(),
            single.len()
        );
        assert_eq!(estimate_quality(&strips), estimate_quality(&single));
        let a = image::load_from_memory(&single).unwrap().to_rgb8();
        let b = image::load_from_memory(&strips).unwrap().to_rgb8();
        assert_eq!((b.width(), b.height()), (1200, 1000));
        assert!(a == b, "the strips decode to other pixels");
        // Gray: MCUs of 8 rows.
        let gray = Raster {
            channels: 1,
            data: raster.data.iter().step_by(3).copied().collect(),
            ..raster
        };
        let single = encode_on(&gray, 80.0, None, false).unwrap();
        let strips = encode_on(&gray, 80.0, None, true).unwrap();
        assert_ne!(single, strips);
        let a = image::load_from_memory(&single).unwrap().to_luma8();
        let b = image::load_from_memory(&strips).unwrap().to_luma8();
        assert!(a == b, "the gray strips decode to other pixels");
    }

    #[test]
    fn a_cut_file_is_caught() {
        let bytes = encode(&gradient(64, 64), 80.0, None).unwrap();
        assert!(runs_to_its_end(&bytes[..bytes.len() / 2]).is_err());
        assert!(runs_to_its_end(b"not a jpeg").is_err());
    }
}
