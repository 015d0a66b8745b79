//! Estimated input tokens of an image, by the formulas the providers
//! publish (docs/commands/inspect.md). Estimates: the providers bill what their servers
//! count, and newer models may count otherwise.
//!
//! - **OpenAI**, tile models (GPT-4o class): `detail: "low"` costs 85;
//!   `"high"` fits the image inside 2048×2048, scales it down so that the short
//!   side is at most 768 px, and costs 85 plus 170 per 512-px tile.
//! - **Anthropic**: width × height / 750, after the image is scaled down
//!   (aspect kept) to at most 1568 px on the long side and about 1,600 tokens.
//! - **Gemini** (2.0 and later): 258 when both sides are at most 384 px;
//!   otherwise 258 per 768×768 tile.

use serde::Serialize;

/// The estimates for one image.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Estimates {
    pub openai_high: u64,
    pub openai_low: u64,
    pub anthropic: u64,
    pub gemini: u64,
}

/// Every provider's estimate for an image of `width` × `height` pixels.
pub fn estimate(width: u32, height: u32) -> Estimates {
    Estimates {
        openai_high: openai_high(width, height),
        openai_low: OPENAI_LOW,
        anthropic: anthropic(width, height),
        gemini: gemini(width, height),
    }
}

/// OpenAI's cost of any image at `detail: "low"`.
pub const OPENAI_LOW: u64 = 85;

/// OpenAI at `detail: "high"`.
pub fn openai_high(width: u32, height: u32) -> u64 {
    let (mut w, mut h) = (f64::from(width.max(1)), f64::from(height.max(1)));
    let long = w.max(h);
    if long > 2048.0 {
        let scale = 2048.0 / long;
        (w, h) = (w * scale, h * scale);
    }
    let short = w.min(h);
    if short > 768.0 {
        let scale = 768.0 / short;
        (w, h) = (w * scale, h * scale);
    }
    let tiles = (w.floor() / 512.0).ceil() * (h.floor() / 512.0).ceil();
    85 + 170 * tiles.max(1.0) as u64
}

/// The longest side Anthropic keeps.
const ANTHROPIC_LONG_SIDE: f64 = 1568.0;
/// The most pixels Anthropic keeps: about 1,600 tokens' worth.
const ANTHROPIC_PIXELS: f64 = 1600.0 * 750.0;

/// Anthropic, after its resize bound.
pub fn anthropic(width: u32, height: u32) -> u64 {
    let (w, h) = (f64::from(width.max(1)), f64::from(height.max(1)));
    let scale = 1f64
        .min(ANTHROPIC_LONG_SIDE / w.max(h))
        .min((ANTHROPIC_PIXELS / (w * h)).sqrt());
    let (w, h) = ((w * scale).floor().max(1.0), (h * scale).floor().max(1.0));
    (w * h / 750.0).ceil() as u64
}

/// Gemini 2.0 and later.
pub fn gemini(width: u32, height: u32) -> u64 {
    if width <= 384 && height <= 384 {
        return 258;
    }
    let tiles = u64::from(width.div_ceil(768).max(1)) * u64::from(height.div_ceil(768).max(1));
    258 * tiles
}

#[cfg(test)]
mod tests {
    use super::*;

    /// OpenAI's vision guide: a 1024×1024 image at high detail is 765 tokens
    /// (scaled to 768×768, four tiles); 2048×4096 at high detail is 1105
    /// (1024×2048, then 768×1536: six tiles); 4096×8192 at low detail is 85.
    #[test]
    fn openai_matches_the_guide_s_worked_examples() {
        assert_eq!(openai_high(1024, 1024), 765);
        assert_eq!(openai_high(2048, 4096), 1105);
        assert_eq!(estimate(4096, 8192).openai_low, 85);
        // Small images are not scaled up: one tile.
        assert_eq!(openai_high(512, 512), 255);
        assert_eq!(openai_high(1, 1), 255);
        assert_eq!(openai_high(513, 100), 425);
    }

    /// Anthropic's vision guide: 200×200 is about 54 tokens, 1000×1000 about
    /// 1334, 1092×1092 about 1590 (the largest square kept as it is).
    #[test]
    fn anthropic_matches_the_guide_s_table() {
        assert_eq!(anthropic(200, 200), 54);
        assert_eq!(anthropic(1000, 1000), 1334);
        assert_eq!(anthropic(1092, 1092), 1590);
        // Larger images are scaled down first: never much over 1,600.
        assert_eq!(anthropic(4000, 4000), 1599);
        assert_eq!(anthropic(3136, 200), anthropic(1568, 100));
    }

    /// Gemini's token guide: both sides at most 384 px is 258 tokens; larger
    /// images are 258 per 768×768 tile.
    #[test]
    fn gemini_counts_258_per_tile() {
        assert_eq!(gemini(384, 384), 258);
        assert_eq!(gemini(100, 20), 258);
        assert_eq!(gemini(385, 100), 258);
        assert_eq!(gemini(768, 768), 258);
        assert_eq!(gemini(1024, 768), 516);
        assert_eq!(gemini(1920, 1080), 258 * 6);
    }
}
