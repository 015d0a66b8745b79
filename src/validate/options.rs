//! How to check documents: the kind to check them as, the limits in force,
//! the depth of the image checks, `--fix`, `--target` and `--at`.

use crate::check::Depth;
use crate::profile::Profile;
use crate::shapes::Shape;
use crate::subdoc::At;

/// What a document was recognized as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocKind {
    /// A tool reply (an object with `tool_output_images`).
    Reply,
    /// Canonical parts (one part, or a list of them).
    Parts,
    /// A transcript, request, response or tool result of a shape.
    Transcript(Shape),
    /// A NeMo Gym rollout (its conversation checked as an OpenAI Responses request).
    Rollout,
}

/// Which kind to check documents as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum KindChoice {
    /// Recognize each document; skip what is none of the kinds.
    #[default]
    Auto,
    Reply,
    Parts,
    /// A transcript of the given shape (`None`: detect it).
    Transcript(Option<Shape>),
    /// A NeMo Gym rollout line.
    Rollout,
}

/// The limits in force, from `--profile` and the explicit options.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Limits {
    /// The profile the limits come from, for messages.
    pub profile: Option<&'static Profile>,
    /// `--max-bytes`: decoded bytes per media part.
    pub max_bytes: Option<u64>,
    /// `--max-dim` or the profile's longest side.
    pub max_dim: Option<u32>,
    /// `--max-images` or the profile's count.
    pub max_images: Option<usize>,
}

impl Limits {
    /// The limits of `profile` (if any), each explicit one over the profile's.
    pub fn with_profile(
        profile: Option<&'static Profile>,
        max_bytes: Option<u64>,
        max_dim: Option<u32>,
        max_images: Option<usize>,
    ) -> Limits {
        Limits {
            profile,
            max_bytes,
            max_dim: max_dim.or(profile.and_then(|p| p.max_dim)),
            max_images: max_images.or(profile.and_then(|p| p.max_images)),
        }
    }
}

/// How to check documents. The default is `validate` with no options:
/// recognize the kind, header-deep image checks, no limits beyond the
/// built-in ones, no repairs, no target, whole documents.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CheckOptions {
    pub kind: KindChoice,
    pub depth: Depth,
    pub limits: Limits,
    /// Compute repairs (and go on checking past a repaired problem).
    pub fix: bool,
    /// `--target`: pre-flight transcripts for conversion to this shape.
    pub target: Option<Shape>,
    /// `--at`: check the values at these pointers instead of whole documents.
    pub at: At,
}
