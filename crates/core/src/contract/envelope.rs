//! A document that wraps a conversation with fields of its own: a NeMo Gym
//! rollout line holds a Responses request, the response, a reward and the
//! environment's fields. The shape that knows the envelope opens it
//! ([`Envelope`], offered through [`super::Dialect::envelope`]); the engines
//! check or convert the conversation and put their findings or output back
//! into the line through its [`LineMap`], so that every other byte of the
//! line stays as it was.

use std::fmt::Debug;
use std::ops::Range;

use super::Shape;
use crate::json::Json;

/// One kind of envelope.
pub trait Envelope: Sync {
    /// What it is called in messages (`NeMo Gym rollout`).
    fn name(&self) -> &'static str;

    /// The shape of the conversation it holds.
    fn conversation_shape(&self) -> Shape;

    /// Whether a document's text is one, told without parsing it.
    fn holds_text(&self, bytes: &[u8]) -> bool;

    /// Whether a parsed document is one (the same test as [`Self::holds_text`]).
    fn holds(&self, doc: &Json<'_>) -> bool;

    /// The conversation of `line`, built from its own bytes; `None` when the
    /// line is not one.
    fn open(&self, line: &[u8]) -> Option<Conversation>;

    /// Why a line given as one is not (`not a NeMo Gym rollout: …`).
    fn not_one(&self) -> &'static str;
}

/// How a conversation's bytes and pointers map back to its line.
pub trait LineMap: Debug + Send + Sync {
    /// The line's range of a range of the conversation, when both ends were
    /// copied from one stretch of the line.
    fn line_range(&self, range: Range<usize>) -> Option<Range<usize>>;

    /// The pointer into the line of a pointer into the conversation.
    fn line_pointer(&self, pointer: &str) -> String;
}

/// An envelope's conversation, as a document of its conversation shape.
#[derive(Debug)]
pub struct Conversation {
    /// The conversation's text.
    pub bytes: Vec<u8>,
    /// The part of the line the conversation stands for: a converted
    /// conversation is written in its place.
    pub replaces: Range<usize>,
    map: Box<dyn LineMap>,
}

impl Conversation {
    pub fn new(
        bytes: Vec<u8>,
        replaces: Range<usize>,
        map: impl LineMap + 'static,
    ) -> Conversation {
        Conversation {
            bytes,
            replaces,
            map: Box::new(map),
        }
    }

    /// See [`LineMap::line_range`].
    pub fn line_range(&self, range: Range<usize>) -> Option<Range<usize>> {
        self.map.line_range(range)
    }

    /// See [`LineMap::line_pointer`].
    pub fn line_pointer(&self, pointer: &str) -> String {
        self.map.line_pointer(pointer)
    }
}
