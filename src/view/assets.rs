//! The page's one style sheet and one script, and the Content-Security-Policy
//! that allows exactly them (by hash), `data:` images and `data:` audio, and
//! nothing else: no network, no other script, no frames, no forms.

use base64::Engine;
use sha2::{Digest, Sha256};

pub const STYLE: &str = include_str!("page.css");

/// Filters the index and the sections (documents, or a recording's
/// interactions): a text search over each section's text, and "with
/// findings" / "with images" switches. A row is tied to its section by the
/// section's id (`line-N`, `interaction-N`). Reads the page's own data
/// attributes; writes only class names.
pub const SCRIPT: &str = include_str!("page.js");

/// `sha256-…` of a text, as CSP names an inline script or style.
fn hash(text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    format!(
        "'sha256-{}'",
        base64::engine::general_purpose::STANDARD.encode(digest)
    )
}

/// The policy: the page's own style and script by hash, images and audio
/// only as `data:` URLs, nothing else.
pub fn content_security_policy() -> String {
    format!(
        "default-src 'none'; img-src data:; media-src data:; style-src {}; script-src {}; \
         base-uri 'none'; form-action 'none'",
        hash(STYLE),
        hash(SCRIPT)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_policy_names_the_style_and_the_script_by_hash() {
        let policy = content_security_policy();
        assert!(policy
            .starts_with("default-src 'none'; img-src data:; media-src data:; style-src 'sha256-"));
        // A known value: the hash of an empty text.
        assert_eq!(
            hash(""),
            "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='"
        );
        assert!(!policy.contains("unsafe"));
    }
}
