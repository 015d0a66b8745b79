//! The caps an image must meet: bytes (decoded or as base64), the longest side,
//! the pixel count, and the image types a profile accepts.

use crate::b64;
use crate::profile::{Cap, Profile};
use crate::size::group_digits;

/// The image types accepted when no profile names others (the `default` profile's).
pub const WEB_TYPES: &[&str] = &["image/png", "image/jpeg", "image/gif", "image/webp"];

/// The caps in force for every image.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Decoded bytes per image.
    pub max_bytes: Option<u64>,
    /// Characters of canonical base64 per image.
    pub max_encoded_bytes: Option<u64>,
    /// The longest side, in pixels.
    pub max_dim: Option<u32>,
    /// Width times height.
    pub max_pixels: Option<u64>,
    /// The image types that may be written (an image of another type is converted).
    pub image_types: Vec<&'static str>,
    /// Whether an animated GIF counts as a type that is not accepted.
    pub still_gif_only: bool,
    /// A smaller longest side once a document holds more than this many images.
    pub many_images: Option<(usize, u32)>,
    /// The profile the limits come from, for messages.
    pub profile: Option<&'static str>,
}

impl Default for Limits {
    /// The `default` profile: 5,000,000 decoded bytes, png, jpeg, gif and webp.
    fn default() -> Limits {
        Limits {
            max_bytes: Some(5_000_000),
            max_encoded_bytes: None,
            max_dim: None,
            max_pixels: None,
            image_types: WEB_TYPES.to_vec(),
            still_gif_only: false,
            many_images: None,
            profile: None,
        }
    }
}

impl Limits {
    /// The limits a profile sets (docs/limits.md); options given explicitly replace them.
    pub fn from_profile(profile: &'static Profile) -> Limits {
        let (max_bytes, max_encoded_bytes) = match profile.max_image {
            Some(Cap::Decoded(n)) => (Some(n), None),
            Some(Cap::Encoded(n)) => (None, Some(n)),
            None => (None, None),
        };
        Limits {
            max_bytes,
            max_encoded_bytes,
            max_dim: profile.max_dim,
            max_pixels: None,
            image_types: profile.image_types.to_vec(),
            still_gif_only: profile.still_gif_only,
            many_images: profile.many_images,
            profile: Some(profile.name),
        }
    }

    /// The most decoded bytes an image may have: the smaller of the decoded cap
    /// and what fits in the base64 cap.
    pub fn byte_cap(&self) -> Option<u64> {
        let from_encoded = self.max_encoded_bytes.map(|chars| chars / 4 * 3);
        match (self.max_bytes, from_encoded) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// The largest scale (at most 1) that meets the longest-side and pixel caps.
    pub fn max_scale(&self, width: u32, height: u32) -> f64 {
        let mut scale: f64 = 1.0;
        if let Some(max) = self.max_dim {
            scale = scale.min(f64::from(max) / f64::from(width.max(height).max(1)));
        }
        if let Some(max) = self.max_pixels {
            let pixels = f64::from(width) * f64::from(height);
            scale = scale.min((max as f64 / pixels.max(1.0)).sqrt());
        }
        scale
    }

    /// Whether a media type may be written.
    pub fn accepts(&self, media_type: &str, animated: bool) -> bool {
        self.image_types.contains(&media_type)
            && !(animated && self.still_gif_only && media_type == "image/gif")
    }

    /// Every cap an image breaks, as phrases for a report (empty when it fits).
    pub fn broken(&self, bytes: u64, width: u32, height: u32) -> Vec<String> {
        let mut broken = Vec::new();
        if let Some(max) = self.max_bytes.filter(|max| bytes > *max) {
            broken.push(format!("over {} bytes", group_digits(max)));
        }
        if let Some(max) = self.max_encoded_bytes {
            let chars = b64::encoded_len(bytes);
            if chars > max {
                broken.push(format!("over {} base64 characters", group_digits(max)));
            }
        }
        if let Some(max) = self.max_dim.filter(|max| width.max(height) > *max) {
            broken.push(format!("over {max} px on its longest side"));
        }
        if let Some(max) = self.max_pixels {
            if u64::from(width) * u64::from(height) > max {
                broken.push(format!("over {} pixels", group_digits(max)));
            }
        }
        broken
    }

    /// Whether encoded bytes meet the byte caps.
    pub fn bytes_fit(&self, bytes: u64) -> bool {
        self.byte_cap().is_none_or(|cap| bytes <= cap)
    }

    /// The limits for a document holding `images` images: the profile's smaller
    /// longest side once there are more than it allows at full size.
    pub fn for_document(&self, images: usize) -> Limits {
        let mut limits = self.clone();
        if let Some((threshold, side)) = self.many_images {
            if images > threshold {
                limits.max_dim = Some(limits.max_dim.map_or(side, |d| d.min(side)));
            }
        }
        limits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_combine() {
        let limits = Limits {
            max_bytes: Some(5_000_000),
            max_encoded_bytes: Some(5_242_880),
            ..Limits::default()
        };
        assert_eq!(limits.byte_cap(), Some(3_932_160));
        assert!(limits.bytes_fit(3_932_160));
        assert!(!limits.bytes_fit(3_932_161));
        assert_eq!(
            limits.broken(3_932_161, 10, 10),
            ["over 5,242,880 base64 characters"]
        );
        let anthropic = Limits::from_profile(crate::profile::find("anthropic").unwrap());
        assert_eq!(anthropic.byte_cap(), Some(3_932_160));
        assert_eq!(anthropic.max_dim, Some(8000));
        assert_eq!(anthropic.for_document(21).max_dim, Some(2000));
        assert_eq!(anthropic.for_document(20).max_dim, Some(8000));
        let gemini = Limits::from_profile(crate::profile::find("gemini").unwrap());
        assert_eq!(gemini.byte_cap(), None);
        assert!(!gemini.accepts("image/gif", false));
        let openai = Limits::from_profile(crate::profile::find("openai").unwrap());
        assert!(openai.accepts("image/gif", false));
        assert!(!openai.accepts("image/gif", true));
    }

    #[test]
    fn scale_caps() {
        let limits = Limits {
            max_dim: Some(1000),
            max_pixels: Some(500_000),
            ..Limits::default()
        };
        assert_eq!(limits.max_scale(2000, 1000), 0.5);
        assert!((limits.max_scale(1000, 1000) - 0.5f64.sqrt()).abs() < 1e-9);
        assert_eq!(Limits::default().max_scale(10, 10), 1.0);
    }
}
