//! The search for the largest image under every cap, in few encodes.
//!
//! Lossy output (JPEG, lossy WebP) is first searched by quality at the largest
//! allowed size: an interpolation search on the logarithm of the size, which
//! is close to linear in quality. When even the lowest quality allowed does not
//! fit, or the output is lossless (PNG, GIF, lossless WebP), the scale is
//! searched: the encoded size grows about as a power of the scale, so each
//! encode's size predicts the scale that meets the cap (a secant on the log-log
//! curve), aiming a little under the cap and stopping as soon as a result
//! lands within a few percent of it. Nothing is upscaled.

use super::decode::{Decoded, Frame};
use super::encode::{encode, Encoding};
use super::jpeg;
use super::limits::Limits;
use super::raster::{scaled_dims, Raster};
use super::trial::{Sample, Trials};
use super::Format;

/// The lowest quality the quality search goes to before it scales instead.
pub const MIN_QUALITY: f32 = 70.0;
/// The highest quality written (a JPEG saved higher is re-encoded at this).
pub const MAX_QUALITY: f32 = 92.0;
/// What a search aims at, as a share of the cap.
const AIM: f64 = 0.985;
/// A result at least this share of the cap ends the search.
const GOOD_ENOUGH: f64 = 0.96;
/// The shortest longest side the scale search goes down to.
const MIN_SIDE: u32 = 16;
/// How much the size of a JPEG grows per quality point near the top (log).
pub(super) const SIZE_PER_QUALITY: f64 = 0.06;
/// Encodes one search may spend before it settles for its best result.
const MAX_ENCODES: u32 = 10;
/// The sizes a predicted quality aims at, as shares of the cap: the first
/// full encode anywhere in `FIRST_AIM` (the sample is rarely off by more than
/// a percent), later ones in `AIMS` (corrected by what the last measured).
const FIRST_AIM: (f64, f64) = (0.97, 0.99);
const AIMS: (f64, f64) = (0.965, AIM);
/// Full encodes a predicted quality search spends when the first fits.
const PREDICTED_ENCODES: u32 = 2;
/// Predicted this far over the cap at the lowest quality, the image is
/// scaled without encoding it whole first.
const CLEARLY_OVER: f64 = 1.05;

/// The image the search settled on.
#[derive(Debug, Clone)]
pub struct Found {
    pub bytes: Vec<u8>,
    pub width: u32,
    pub height: u32,
    pub quality: Option<f32>,
    /// Full encodes (of the image at the size tried).
    pub encodes: u32,
    /// Encodes of a sample of the image's rows, to predict the quality.
    pub trials: u32,
}

/// Why nothing fits.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SearchError {
    /// Even the smallest allowed image is over the cap.
    CannotFit {
        width: u32,
        height: u32,
        bytes: u64,
        cap: u64,
    },
    /// The encoder refused.
    Encode(String),
}

/// What the search works on.
pub struct Search<'a> {
    pub decoded: &'a Decoded,
    pub encoding: Encoding,
    pub limits: &'a Limits,
    /// The size of the image at full scale when the output has the input's
    /// format and losslessness (a free first estimate for the scale search).
    pub size_hint: Option<u64>,
    /// The quality to start a quality search from.
    pub top_quality: f32,
}

struct State {
    encodes: u32,
    trials: u32,
    best: Option<Found>,
}

impl Search<'_> {
    fn frames_at(&self, (width, height): (u32, u32)) -> Vec<Frame> {
        use rayon::prelude::*;
        self.decoded
            .frames
            .par_iter()
            .map(|f| Frame {
                raster: f.raster.resized(width, height),
                delay: f.delay,
            })
            .collect()
    }

    fn encode(
        &self,
        state: &mut State,
        frames: &[Frame],
        quality: Option<f32>,
    ) -> Result<Vec<u8>, SearchError> {
        state.encodes += 1;
        encode(
            Encoding {
                quality,
                ..self.encoding
            },
            frames,
            self.decoded.icc.as_deref(),
            self.decoded.loops,
        )
        .map_err(SearchError::Encode)
    }

    fn keep(state: &mut State, found: Found) {
        let better = state
            .best
            .as_ref()
            .is_none_or(|b| (found.width, found.bytes.len()) > (b.width, b.bytes.len()));
        if better {
            state.best = Some(found);
        }
    }

    /// Runs the search.
    pub fn run(&self) -> Result<Found, SearchError> {
        let (width, height) = (self.decoded.width(), self.decoded.height());
        let top = scaled_dims(width, height, self.limits.max_scale(width, height));
        let cap = self.limits.byte_cap();
        let mut state = State {
            encodes: 0,
            trials: 0,
            best: None,
        };
        let lossy = self.encoding.quality.is_some();
        let full = top == (width, height);
        let scaled_frames;
        let frames: &[Frame] = if full {
            &self.decoded.frames
        } else {
            scaled_frames = self.frames_at(top);
            &scaled_frames
        };
        let Some(cap) = cap else {
            // Only the size or the format had to change.
            let quality = lossy.then_some(self.top_quality);
            let bytes = self.encode(&mut state, frames, quality)?;
            return Ok(found(bytes, top, quality, state.encodes));
        };
        let mut known = None;
        let sample = (self.encoding.format == Format::Jpeg && frames.len() == 1)
            .then(|| Sample::of(&frames[0].raster))
            .flatten();
        if let Some(sample) = sample {
            match self.predicted_search(&mut state, &frames[0].raster, &sample, top, cap)? {
                Ok(found) => return Ok(found),
                Err(size) => known = Some((1.0, size)),
            }
        } else if lossy {
            match self.quality_search(&mut state, frames, top, cap)? {
                Some(found) => return Ok(found),
                None => {
                    known = state.best.take().map(|f| (1.0, f.bytes.len() as u64));
                }
            }
        }
        let quality = lossy.then_some(MIN_QUALITY);
        let top_scale = f64::from(top.0.max(top.1)) / f64::from(width.max(height));
        if !lossy {
            known = self.size_hint.map(|hint| {
                let area = top_scale * top_scale;
                (1.0, (hint as f64 * area) as u64)
            });
        }
        self.scale_search(&mut state, frames, top, cap, quality, known)
    }

    /// Searches a JPEG's quality at full size from a sample's predictions
    /// (see `trial`): the first full encode at the predicted quality, a second
    /// at the prediction corrected by what the first measured, and more only
    /// while nothing fits. `Err(size)` when even the lowest quality is over
    /// the cap (its size measured, or predicted when clearly over).
    fn predicted_search(
        &self,
        state: &mut State,
        raster: &Raster,
        sample: &Sample,
        dims: (u32, u32),
        cap: u64,
    ) -> Result<Result<Found, u64>, SearchError> {
        let icc = self.decoded.icc.as_deref();
        let mut trials = Trials::new(sample, icc);
        let top = self.top_quality.max(MIN_QUALITY);
        let result = self.predicted_loop(state, raster, &mut trials, top, dims, cap);
        state.trials += trials.spent();
        let mut found = result?;
        if let Ok(found) = &mut found {
            found.encodes = state.encodes;
            found.trials = state.trials;
        }
        Ok(found)
    }

    fn predicted_loop(
        &self,
        state: &mut State,
        raster: &Raster,
        trials: &mut Trials,
        top: f32,
        dims: (u32, u32),
        cap: u64,
    ) -> Result<Result<Found, u64>, SearchError> {
        let icc = self.decoded.icc.as_deref();
        let cap_f = cap as f64;
        // What the full image measures over what the sample predicts.
        let mut correction = 1.0;
        let mut aim = FIRST_AIM;
        // The largest fitting and the smallest failing quality.
        let mut fits: Option<Found> = None;
        let mut fails = f32::INFINITY;
        loop {
            let floor = fits.as_ref().and_then(|f| f.quality).unwrap_or(MIN_QUALITY);
            let ceiling = if fails.is_finite() {
                (fails - 0.05).max(MIN_QUALITY)
            } else {
                top
            };
            if fits.is_some() && floor >= ceiling {
                break;
            }
            let (least, target) = (cap_f * aim.0 / correction, cap_f * aim.1 / correction);
            let q = trials
                .solve(least, target, floor, ceiling)
                .map_err(SearchError::Encode)?;
            let predicted = trials.at(q).map_err(SearchError::Encode)?;
            if fits.is_some() && q <= floor {
                break;
            }
            if state.encodes == 0 && q <= MIN_QUALITY && predicted > cap_f * CLEARLY_OVER {
                return Ok(Err(predicted as u64));
            }
            state.encodes += 1;
            let bytes = jpeg::encode(raster, q, icc).map_err(SearchError::Encode)?;
            let size = bytes.len() as f64;
            correction = size / predicted;
            aim = AIMS;
            if bytes.len() as u64 <= cap {
                let enough = size >= cap_f * GOOD_ENOUGH || q >= top;
                fits = Some(found(bytes, dims, Some(q), state.encodes));
                if enough {
                    break;
                }
            } else if q <= MIN_QUALITY {
                return Ok(Err(bytes.len() as u64));
            } else {
                fails = q;
            }
            if fits.is_some() && state.encodes >= PREDICTED_ENCODES {
                break;
            }
        }
        fits.map(Ok).ok_or(SearchError::Encode(
            "the quality search found nothing".into(),
        ))
    }

    /// Searches quality at full size; `None` when even the lowest quality is over
    /// the cap (its size then in `state.best`, marked as not fitting).
    fn quality_search(
        &self,
        state: &mut State,
        frames: &[Frame],
        dims: (u32, u32),
        cap: u64,
    ) -> Result<Option<Found>, SearchError> {
        let target = cap as f64 * AIM;
        let mut hi = self.top_quality.max(MIN_QUALITY);
        let bytes = self.encode(state, frames, Some(hi))?;
        if bytes.len() as u64 <= cap {
            return Ok(Some(found(bytes, dims, Some(hi), state.encodes)));
        }
        let mut hi_size = bytes.len() as f64;
        // The smallest failing and the largest fitting quality, with sizes.
        let mut lo: Option<(f32, f64)> = None;
        let mut best: Option<Found> = None;
        // Near the top of the scale a JPEG grows by about 6 % per quality point:
        // the first guess, before two measurements give the real slope.
        let mut guess = hi - ((hi_size / target).ln() / SIZE_PER_QUALITY) as f32;
        let mut last = (hi, hi_size);
        loop {
            let q = guess.clamp(MIN_QUALITY, hi - 0.05);
            let bytes = self.encode(state, frames, Some(q))?;
            let size = bytes.len() as f64;
            if bytes.len() as u64 <= cap {
                lo = Some((q, size));
                best = Some(found(bytes, dims, Some(q), state.encodes));
            } else {
                if q <= MIN_QUALITY {
                    state.best = Some(found(bytes, dims, Some(q), state.encodes));
                    return Ok(None);
                }
                hi = q;
                hi_size = size;
            }
            let settled = best
                .as_ref()
                .is_some_and(|b| b.bytes.len() as f64 >= cap as f64 * GOOD_ENOUGH);
            let narrow = lo.is_some_and(|(l, _)| hi - l <= 0.2);
            if settled || narrow || (state.encodes >= MAX_ENCODES && best.is_some()) {
                break;
            }
            guess = match lo {
                // Inside the bracket: interpolate on the log of the size.
                Some((l, l_size)) => {
                    let t = (target.ln() - l_size.ln()) / (hi_size.ln() - l_size.ln());
                    l + (hi - l) * (t as f32).clamp(0.05, 0.95)
                }
                // Still over the cap: follow the slope of the last two encodes.
                None => {
                    let slope = ((last.1 / size).ln() / f64::from(last.0 - q)).max(0.01);
                    q - ((size / target).ln() / slope) as f32
                }
            };
            last = (q, size);
        }
        let mut best = best.ok_or(SearchError::Encode(
            "the quality search found nothing".into(),
        ))?;
        best.encodes = state.encodes;
        best.trials = state.trials;
        Ok(Some(best))
    }

    /// Searches the scale (below `top`), at a fixed quality for lossy output.
    /// `known` is a (scale relative to `top`, size) point already measured or
    /// estimated.
    ///
    /// (Long, and kept whole: one loop of encode, narrow the bracket, guess
    /// the next scale, whose bracket and last point thread through every
    /// step; split up, each piece would take all of them.)
    fn scale_search(
        &self,
        state: &mut State,
        top_frames: &[Frame],
        top: (u32, u32),
        cap: u64,
        quality: Option<f32>,
        known: Option<(f64, u64)>,
    ) -> Result<Found, SearchError> {
        let target = cap as f64 * AIM;
        let long = top.0.max(top.1);
        let min_scale = (f64::from(MIN_SIDE.min(long)) / f64::from(long)).min(1.0);
        // Measured points: (scale, size); the largest fitting and the smallest
        // failing scales bracket the answer.
        let mut fits: Option<(f64, f64)> = None;
        let mut fails: Option<(f64, f64)> = None;
        let mut last: Option<(f64, f64)> = None;
        let mut guess = match known {
            Some((scale, size)) if size > 0 => {
                if size <= cap && scale >= 1.0 {
                    // The estimate says full size fits: try it.
                    1.0
                } else {
                    scale * (target / size as f64).sqrt()
                }
            }
            _ => {
                // Probe at about a megapixel for bytes per pixel.
                let pixels = f64::from(top.0) * f64::from(top.1);
                (1_000_000.0 / pixels).sqrt().min(1.0)
            }
        };
        loop {
            let scale = guess.clamp(min_scale, 1.0);
            let dims = scaled_dims(top.0, top.1, scale);
            let frames;
            let frames_ref: &[Frame] = if dims == top {
                top_frames
            } else {
                frames = self.frames_at(dims);
                &frames
            };
            let bytes = self.encode(state, frames_ref, quality)?;
            let size = bytes.len() as f64;
            let fit = bytes.len() as u64 <= cap;
            if fit {
                Self::keep(state, found(bytes, dims, quality, state.encodes));
                if fits.is_none_or(|(s, _)| scale > s) {
                    fits = Some((scale, size));
                }
            } else {
                if scale <= min_scale {
                    return Err(SearchError::CannotFit {
                        width: dims.0,
                        height: dims.1,
                        bytes: size as u64,
                        cap,
                    });
                }
                if fails.is_none_or(|(s, _)| scale < s) {
                    fails = Some((scale, size));
                }
            }
            let done = match (fits, fails) {
                (Some((s, size)), _) if size >= cap as f64 * GOOD_ENOUGH || s >= 1.0 => true,
                (Some((lo, _)), Some((hi, _))) => {
                    // Adjacent sizes: no pixel count in between.
                    scaled_dims(top.0, top.1, lo).0 + 1 >= scaled_dims(top.0, top.1, hi).0
                        && scaled_dims(top.0, top.1, lo).1 + 1 >= scaled_dims(top.0, top.1, hi).1
                }
                _ => false,
            };
            if done || (state.encodes >= MAX_ENCODES && fits.is_some()) {
                let mut best = state.best.take().ok_or(SearchError::Encode(
                    "the search ended without a result".into(),
                ))?;
                best.encodes = state.encodes;
                best.trials = state.trials;
                return Ok(best);
            }
            // The exponent from the last two measurements (2 when unknown).
            let exponent = match last {
                Some((s0, f0)) if (s0 - scale).abs() > 1e-6 && f0 > 0.0 => {
                    ((size / f0).ln() / (scale / s0).ln()).clamp(1.0, 3.0)
                }
                _ => 2.0,
            };
            last = Some((scale, size));
            let mut next = scale * (target / size).powf(1.0 / exponent);
            // Stay strictly inside the bracket.
            if let (Some((lo, _)), Some((hi, _))) = (fits, fails) {
                if next <= lo || next >= hi {
                    next = (lo + hi) / 2.0;
                }
            } else if let Some((hi, _)) = fails {
                next = next.min(hi * 0.995);
            } else if let Some((lo, _)) = fits {
                next = next.max(lo * 1.005);
            }
            guess = next;
        }
    }
}

fn found(bytes: Vec<u8>, (width, height): (u32, u32), quality: Option<f32>, encodes: u32) -> Found {
    Found {
        bytes,
        width,
        height,
        quality,
        encodes,
        trials: 0,
    }
}
