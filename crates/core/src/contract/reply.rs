//! A tool reply that carries its images as a list of entries beside its other
//! fields (NeMo Gym's `tool_output_images`): `validate` checks such a reply
//! entry by entry, and `split` takes the images out of it, through the shape
//! that knows it ([`ImageReply`], offered through
//! [`super::Dialect::image_reply`]).

use std::borrow::Cow;

use super::Issue;
use crate::json::Json;

/// One kind of image reply.
pub trait ImageReply: Sync {
    /// The member that holds the entries (a document with it is a reply).
    fn key(&self) -> &'static str;

    /// The image types an entry may declare, each exactly as written.
    fn image_types(&self) -> &'static [&'static str];

    /// The entry at `index` of the list, or the finding that says what is
    /// wrong with it (pointed from the reply's root). A declared type that
    /// normalizes to one of [`Self::image_types`] is read; `validate` reports
    /// its spelling apart, with [`Self::inexact_type`].
    fn entry<'j>(&self, index: usize, item: &'j Json<'_>) -> Result<ReplyImage<'j>, Issue>;

    /// The message for a declared type written other than exactly as
    /// `normalized`, one of [`Self::image_types`].
    fn inexact_type(&self, declared: &str, normalized: &str) -> String;

    /// The reply without its image list, and the images, each checked (their
    /// bytes decoded too with `keep_bytes`). A reply without the list comes
    /// back whole with no images; a malformed list is refused, naming the
    /// first entry at fault.
    fn split<'a>(&self, reply: Json<'a>, keep_bytes: bool) -> Result<SplitReply<'a>, EntryProblem>;

    /// A split reply as canonical parts, in the order a model receives them:
    /// the rest as text, then each image after its label.
    fn canonical_parts<'s>(&self, split: &'s SplitReply<'_>) -> Json<'s>;
}

/// One entry of an image reply, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplyImage<'j> {
    /// The declared media type, normalized.
    pub media_type: String,
    /// The declared media type as written.
    pub declared: &'j str,
    /// The base64 payload.
    pub payload: &'j str,
}

/// One image taken out of a reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitImage<'a> {
    /// The normalized media type (checked against the bytes).
    pub media_type: String,
    /// The base64 payload, borrowed from the input when it can be.
    pub payload: Cow<'a, str>,
    pub label: Option<Cow<'a, str>>,
    /// The decoded bytes, when asked for.
    pub bytes: Option<Vec<u8>>,
}

/// A reply without its image list, and those images.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitReply<'a> {
    pub rest: Json<'a>,
    pub images: Vec<SplitImage<'a>>,
}

/// The first thing wrong with a reply's image list, located by a JSON pointer
/// from the reply's root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryProblem {
    /// The entry index, when the problem is inside one entry.
    pub index: Option<usize>,
    pub pointer: String,
    /// A stable rule id (see `validate --list-rules`).
    pub rule: &'static str,
    pub message: String,
}

impl std::fmt::Display for EntryProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The pointer's first token is the key that holds the list.
        let key = self
            .pointer
            .get(1..)
            .unwrap_or_default()
            .split('/')
            .next()
            .unwrap_or_default();
        match self.index {
            Some(index) => write!(f, "{key}[{index}]: {}", self.message),
            None => write!(f, "{key}: {}", self.message),
        }
    }
}
