//! Provider limits (docs/limits.md), shared by `validate --profile` and `resize --profile`.

/// One provider's published limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Profile {
    pub name: &'static str,
    /// The image media types the provider accepts.
    pub image_types: &'static [&'static str],
    /// Whether an animated GIF is refused (OpenAI: non-animated GIF only).
    pub still_gif_only: bool,
    /// The per-image cap.
    pub max_image: Option<Cap>,
    /// The longest side an image may have, in pixels.
    pub max_dim: Option<u32>,
    /// The longest side once a document holds more than `many_images` images.
    pub many_images: Option<(usize, u32)>,
    /// The most images one document may hold.
    pub max_images: Option<usize>,
    /// The most decoded image bytes one document may hold.
    pub max_total_image_bytes: Option<u64>,
    /// The most inline (decoded) media bytes one document may hold.
    pub max_inline_bytes: Option<u64>,
}

/// A byte cap and the unit it counts in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cap {
    /// Decoded bytes.
    Decoded(u64),
    /// Characters of base64 (Anthropic checks the encoded length).
    Encoded(u64),
}

const WEB: &[&str] = crate::shapes::WEB_IMAGE_TYPES;

/// Every profile, `default` first.
pub const PROFILES: &[Profile] = &[
    Profile {
        name: "default",
        image_types: WEB,
        still_gif_only: false,
        max_image: Some(Cap::Decoded(5_000_000)),
        max_dim: None,
        many_images: None,
        max_images: None,
        max_total_image_bytes: None,
        max_inline_bytes: None,
    },
    Profile {
        name: "openai",
        image_types: WEB,
        still_gif_only: true,
        max_image: Some(Cap::Decoded(20_000_000)),
        max_dim: None,
        many_images: None,
        max_images: Some(500),
        max_total_image_bytes: Some(50_000_000),
        max_inline_bytes: None,
    },
    Profile {
        name: "anthropic",
        image_types: WEB,
        still_gif_only: false,
        max_image: Some(Cap::Encoded(5_242_880)),
        max_dim: Some(8000),
        many_images: Some((20, 2000)),
        max_images: Some(100),
        max_total_image_bytes: None,
        max_inline_bytes: None,
    },
    Profile {
        name: "gemini",
        image_types: crate::shapes::gemini::IMAGE_TYPES,
        still_gif_only: false,
        max_image: None,
        max_dim: None,
        many_images: None,
        max_images: None,
        max_total_image_bytes: None,
        max_inline_bytes: Some(100_000_000),
    },
    Profile {
        name: "bedrock",
        image_types: WEB,
        still_gif_only: false,
        max_image: Some(Cap::Decoded(3_932_160)),
        max_dim: Some(8000),
        many_images: None,
        max_images: Some(20),
        max_total_image_bytes: None,
        max_inline_bytes: None,
    },
];

/// The profile called `name`.
pub fn find(name: &str) -> Option<&'static Profile> {
    PROFILES.iter().find(|p| p.name == name)
}

/// The names of all profiles, for help and errors.
pub fn names() -> Vec<&'static str> {
    PROFILES.iter().map(|p| p.name).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_matches_the_spec() {
        assert_eq!(
            names(),
            ["default", "openai", "anthropic", "gemini", "bedrock"]
        );
        assert_eq!(
            find("default").unwrap().max_image,
            Some(Cap::Decoded(5_000_000))
        );
        assert_eq!(
            find("anthropic").unwrap().max_image,
            Some(Cap::Encoded(5_242_880))
        );
        assert_eq!(find("anthropic").unwrap().many_images, Some((20, 2000)));
        assert_eq!(
            find("bedrock").unwrap().max_image,
            Some(Cap::Decoded(3_932_160))
        );
        assert_eq!(find("bedrock").unwrap().max_images, Some(20));
        assert_eq!(
            find("openai").unwrap().max_total_image_bytes,
            Some(50_000_000)
        );
        assert!(find("gemini").unwrap().image_types.contains(&"image/heic"));
        assert!(!find("gemini").unwrap().image_types.contains(&"image/gif"));
        assert!(find("nope").is_none());
    }
}
