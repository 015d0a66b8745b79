//! Predicting a JPEG's size at any quality from a sample of its rows, so that
//! the quality search spends its trials on a small image and at most two
//! encodes on the whole one.
//!
//! partkit writes baseline JPEGs with the standard Huffman tables: the scan's
//! size is the sum of what each block costs, so a sample of whole MCU rows
//! (a band of 16 rows out of every few, spread over the image) encoded
//! alone, its scan scaled by the share of rows it holds, predicts the whole
//! image's size within the sampling error (a few percent on photos). The
//! first full encode then measures that error, and the second corrects it.
//! See docs/commands/resize.md (how the quality is chosen).

use super::jpeg;
use super::jpeg_strips::scan_start;
use super::raster::Raster;

/// The rows of one band: a whole MCU row at 4:2:0 (two gray ones).
const BAND: u32 = 16;
/// One band of every `stride` is sampled, at most every 16th (a 16th of the
/// rows) and at least every other.
const STRIDES: (u32, u32) = (2, 16);
/// An image with fewer pixels is searched with full encodes (each is quick).
const MIN_PIXELS: u64 = 2_000_000;
/// A sample has at least this many bands (fewer would miss too much).
const MIN_BANDS: u32 = 16;

/// A sample of an image's rows, and the share of the image it holds.
pub struct Sample {
    raster: Raster,
    /// The image's rows per sampled row.
    ratio: f64,
}

impl Sample {
    /// One band of `raster`'s rows from the middle of every stretch of a few,
    /// at least `MIN_BANDS` of them; `None` when the image is small enough to
    /// search whole.
    pub fn of(raster: &Raster) -> Option<Sample> {
        if u64::from(raster.width) * u64::from(raster.height) < MIN_PIXELS {
            return None;
        }
        let stride = (raster.height / BAND / MIN_BANDS).min(STRIDES.1);
        if stride < STRIDES.0 {
            return None;
        }
        let whole = raster.height / BAND;
        let bands = whole / stride;
        let row = raster.width as usize * usize::from(raster.channels);
        let band_bytes = row * BAND as usize;
        let mut data = Vec::with_capacity(band_bytes * bands as usize);
        for i in 0..bands {
            // The middle of the i-th of `bands` equal stretches of the height.
            let band = (2 * i + 1) * whole / (2 * bands);
            let start = band as usize * band_bytes;
            data.extend_from_slice(&raster.data[start..start + band_bytes]);
        }
        let height = bands * BAND;
        Some(Sample {
            raster: Raster {
                width: raster.width,
                height,
                channels: raster.channels,
                data,
            },
            ratio: f64::from(raster.height) / f64::from(height),
        })
    }

    /// The whole image's predicted size at `quality`: the sample's headers
    /// (with the colour profile, as the whole image's), and its scan data
    /// scaled to every row.
    pub fn predict(&self, quality: f32, icc: Option<&[u8]>) -> Result<f64, String> {
        let bytes = jpeg::encode(&self.raster, quality, icc)?;
        let header = scan_start(&bytes).unwrap_or(0) as f64;
        Ok(header + (bytes.len() as f64 - header) * self.ratio)
    }
}

/// What a sample predicted, at each quality tried.
pub struct Trials<'a> {
    sample: &'a Sample,
    icc: Option<&'a [u8]>,
    /// (quality, predicted size)
    points: Vec<(f32, f64)>,
}

/// Qualities this close are not told apart (the tables are whole numbers, so
/// the size is a staircase in the quality).
const NARROW: f32 = 0.25;
/// The most trials one solve spends.
const MAX_TRIALS: usize = 8;

impl<'a> Trials<'a> {
    pub fn new(sample: &'a Sample, icc: Option<&'a [u8]>) -> Trials<'a> {
        Trials {
            sample,
            icc,
            points: Vec::new(),
        }
    }

    /// How many sample encodes were spent.
    pub fn spent(&self) -> u32 {
        self.points.len() as u32
    }

    /// The predicted size at `quality` (encoding the sample once per quality).
    pub fn at(&mut self, quality: f32) -> Result<f64, String> {
        if let Some(&(_, size)) = self.points.iter().find(|(q, _)| *q == quality) {
            return Ok(size);
        }
        let size = self.sample.predict(quality, self.icc)?;
        self.points.push((quality, size));
        Ok(size)
    }

    /// A quality in `low..=high` whose predicted size is in `least..=target`
    /// (or the highest under `target` the trials found; `low` when even it is
    /// over). Interpolates on the logarithm of the size, which is close to
    /// linear in the quality, from the trials made so far; each step cuts the
    /// bracket by at least a sixth, as the size of a re-encoded JPEG is a
    /// staircase whose steps mislead the interpolation.
    pub fn solve(&mut self, least: f64, target: f64, low: f32, high: f32) -> Result<f32, String> {
        for _ in 0..MAX_TRIALS {
            let inside = |&&(q, _): &&(f32, f64)| (low..=high).contains(&q);
            let under = self
                .points
                .iter()
                .filter(inside)
                .filter(|p| p.1 <= target)
                .max_by(|a, b| a.0.total_cmp(&b.0))
                .copied();
            let over = self
                .points
                .iter()
                .filter(inside)
                .filter(|p| p.1 > target)
                .min_by(|a, b| a.0.total_cmp(&b.0))
                .copied();
            let next = match (under, over) {
                (Some((q, size)), _) if size >= least || q >= high => return Ok(q),
                (Some((l, _)), Some((h, _))) if h - l <= NARROW => return Ok(l),
                (None, Some((h, _))) if h <= low => return Ok(low),
                (Some((l, l_size)), Some((h, h_size))) => {
                    let t = (target.ln() - l_size.ln()) / (h_size.ln() - l_size.ln());
                    l + (h - l) * (t as f32).clamp(1.0 / 6.0, 5.0 / 6.0)
                }
                (None, Some((h, h_size))) => {
                    (h - ((h_size / target).ln() / self.slope()) as f32).max(low)
                }
                (Some((l, l_size)), None) => {
                    (l + ((target / l_size).ln() / self.slope()) as f32).min(high)
                }
                (None, None) => high,
            };
            self.at(next)?;
        }
        let under = self
            .points
            .iter()
            .filter(|&&(q, size)| (low..=high).contains(&q) && size <= target)
            .map(|p| p.0)
            .max_by(f32::total_cmp);
        Ok(under.unwrap_or(low))
    }

    /// How much the log of the size grows per quality point, from the two
    /// trials nearest each other (about 6 % before two are made).
    fn slope(&self) -> f64 {
        let mut sorted = self.points.clone();
        sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
        sorted
            .windows(2)
            .filter(|w| w[1].0 - w[0].0 > 0.01)
            .min_by(|a, b| (a[1].0 - a[0].0).total_cmp(&(b[1].0 - b[0].0)))
            .map(|w| ((w[1].1 / w[0].1).ln() / f64::from(w[1].0 - w[0].0)).max(0.01))
            .unwrap_or(super::search::SIZE_PER_QUALITY)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows that differ from top to bottom (a smooth sky, busier towards the
    /// ground), so that a sample taken from one place only would be far off.
    fn scene(width: u32, height: u32) -> Raster {
        let mut state = 0x9E37_79B9_u32;
        let mut data = Vec::with_capacity((width * height * 3) as usize);
        for y in 0..height {
            let amplitude = 1 + 96 * y / height;
            for x in 0..width {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                let noise = (state % amplitude) as u8;
                data.extend_from_slice(&[
                    (x / 8) as u8 ^ noise,
                    ((y / 8) as u8).wrapping_add(noise),
                    100u8.wrapping_add(noise),
                ]);
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
    fn the_sample_predicts_the_whole_size() {
        let raster = scene(1600, 1400);
        let sample = Sample::of(&raster).expect("2.2 MP is sampled");
        assert!(sample.raster.height * 4 <= raster.height, "a small sample");
        for quality in [70.0, 82.5, 92.0] {
            let whole = jpeg::encode(&raster, quality, None).unwrap().len() as f64;
            let predicted = sample.predict(quality, None).unwrap();
            let off = (predicted / whole - 1.0).abs();
            assert!(off < 0.02, "q{quality}: {predicted} for {whole}");
        }
        assert!(
            Sample::of(&scene(1000, 1000)).is_none(),
            "1 MP is searched whole"
        );
    }

    #[test]
    fn solving_lands_in_the_window_in_few_trials() {
        let raster = scene(1600, 1400);
        let sample = Sample::of(&raster).unwrap();
        let mut trials = Trials::new(&sample, None);
        let top = trials.at(92.0).unwrap();
        let (least, target) = (top * 0.6, top * 0.62);
        let q = trials.solve(least, target, 70.0, 92.0).unwrap();
        let size = trials.at(q).unwrap();
        assert!((least..=target).contains(&size), "q{q}: {size}");
        assert!(trials.spent() <= 6, "{} trials", trials.spent());
    }
}
