//! The shapes themselves: which wire shapes there are, where a written block
//! stands, and a part a shape cannot carry. The knowledge of each shape is
//! behind [`super::Dialect`], implemented in its folder under `src/shapes/`.

use std::fmt;

use crate::part::MediaPart;

/// The canonical model's own shape: the hub every conversion passes through
/// (a reader's target, a writer's source, the key of the model's own
/// extension hints).
pub const HUB: Shape = Shape::Canonical;

/// Declares the wire shapes: the enum, each one's name, and the list of
/// all. Adding a shape adds one line here (docs/adding-a-shape.md).
macro_rules! shapes {
    ($($(#[$attr:meta])* $variant:ident => $name:literal, $doc:literal;)+) => {
        /// A wire shape partkit reads and writes. The default is partkit's own
        /// canonical form, the hub every conversion passes through.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
        pub enum Shape {
            $(#[doc = $doc] $(#[$attr])* $variant,)+
        }

        impl Shape {
            /// Every shape, in the order help lists them (and the order of
            /// the registry, `shapes::DIALECTS`).
            pub const ALL: [Shape; [$(Shape::$variant),+].len()] = [$(Shape::$variant),+];

            /// The name used on the command line and in messages.
            pub fn name(self) -> &'static str {
                match self {
                    $(Shape::$variant => $name,)+
                }
            }
        }
    };
}

shapes! {
    #[default]
    Canonical => "canonical", "partkit's own canonical parts and transcripts.";
    OpenaiChat => "openai-chat", "OpenAI Chat Completions.";
    OpenaiResponses => "openai-responses", "OpenAI Responses.";
    Anthropic => "anthropic", "Anthropic Messages.";
    Gemini => "gemini", "Google Gemini generateContent (REST, camelCase).";
    Bedrock => "bedrock", "AWS Bedrock Converse.";
    Mcp => "mcp", "MCP `CallToolResult`.";
    NemoGym => "nemo-gym", "A NeMo Gym tool reply; at the part level, a `ToolOutputImage` entry.";
}

impl Shape {
    /// The name of the blocks a part becomes at the part level, where it
    /// differs from the shape (a NeMo Gym reply's parts are `tool-output-image`
    /// entries).
    pub fn block_name(self) -> &'static str {
        match self {
            Shape::NemoGym => "tool-output-image",
            other => other.name(),
        }
    }

    /// The shape called `name` (as [`Shape::name`] spells it).
    pub fn from_name(name: &str) -> Option<Shape> {
        Shape::ALL.into_iter().find(|shape| shape.name() == name)
    }
}

/// Where a shape stands in the two orders the engines ask every shape in;
/// each shape gives its own place (its `Dialect::order`), and no two shapes
/// share one.
///
/// - `scan`: the order the shapes are asked whether an object is one of their
///   media blocks (`scan::find_media`). Blocks with a `type` come first
///   (canonical parts before the OpenAI Chat `file` and Anthropic
///   `image`/`document` blocks that share their type names, then MCP's), then
///   Gemini and Bedrock blocks, which have no `type`, then a bare NeMo Gym
///   entry, which has no `type` either (so no earlier shape can have called
///   it empty).
/// - `ties`: the order that settles a tie of evidence when a document's shape
///   is told (`convert::detect`, docs/detection.md): request keys of their own
///   first (Gemini, Responses, Bedrock), then canonical's `extensions` before
///   Anthropic's settings, then the message shapes (Chat), then the shapes
///   that are single tool results.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Order {
    pub scan: u8,
    pub ties: u8,
}

/// What the command line says of a shape (the descriptions of its `--to`
/// and `--from` values); each shape's module holds its own.
#[derive(Debug)]
pub struct Facts {
    /// A document of the shape (`convert --to`).
    pub document: &'static str,
    /// One tool result of the shape (`split --to`); `None`: it is not written
    /// as one.
    pub tool_result: Option<&'static str>,
    /// Its parts (`encode --to`, where the shape is named by its block name).
    pub parts: &'static str,
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Where a written block will stand: some shapes allow different blocks in a
/// user message than in a tool result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// Content a user (or system) attached to a message.
    User,
    /// Content inside a tool result.
    ToolResult,
}

/// A part that a shape cannot carry where it stands.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{} cannot be carried by {}: {reason}", describe(.part_type, .mime_type), .shape.block_name())]
pub struct Unsupported {
    pub part_type: &'static str,
    pub mime_type: Option<String>,
    pub shape: Shape,
    pub reason: String,
}

fn describe(part_type: &str, mime_type: &Option<String>) -> String {
    match mime_type {
        Some(mime) => format!("{part_type} part ({})", crate::echo::plain(mime)),
        None => format!("{part_type} part"),
    }
}

impl Unsupported {
    /// The refusal of a media part by a shape, with a reason.
    pub fn media(part: &MediaPart, shape: Shape, reason: impl Into<String>) -> Unsupported {
        Unsupported {
            part_type: part.kind.as_str(),
            mime_type: Some(part.mime_type.clone()),
            shape,
            reason: reason.into(),
        }
    }
}
