//! A tool reply that carries its images as a list of entries beside its other
//! fields (NeMo Gym's `tool_output_images`): `validate` checks such a reply
//! entry by entry, through the shape that knows it ([`ImageReply`], offered
//! through [`super::Dialect::image_reply`]).

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
