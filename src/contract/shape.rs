//! The shapes themselves: which wire shapes there are, where a written block
//! stands, and a part a shape cannot carry. The knowledge of each shape is
//! behind [`super::Dialect`], implemented in its folder under `src/shapes/`.

use std::fmt;

use crate::part::MediaPart;

/// The canonical model's own shape: the hub every conversion passes through
/// (a reader's target, a writer's source, the key of the model's own
/// extension hints).
pub const HUB: Shape = Shape::Canonical;

/// A wire shape partkit reads and writes. The default is partkit's own
/// canonical form, the hub every conversion passes through.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Shape {
    /// partkit's own canonical parts and transcripts.
    #[default]
    Canonical,
    /// OpenAI Chat Completions.
    OpenaiChat,
    /// OpenAI Responses.
    OpenaiResponses,
    /// Anthropic Messages.
    Anthropic,
    /// Google Gemini generateContent (REST, camelCase).
    Gemini,
    /// AWS Bedrock Converse.
    Bedrock,
    /// MCP `CallToolResult`.
    Mcp,
    /// A NeMo Gym tool reply; at the part level, a `ToolOutputImage` entry.
    NemoGym,
}

impl Shape {
    /// The name used on the command line and in messages.
    /// The name of the blocks a part becomes at the part level, where it
    /// differs from the shape (a NeMo Gym reply's parts are `tool-output-image`
    /// entries).
    pub fn block_name(self) -> &'static str {
        match self {
            Shape::NemoGym => "tool-output-image",
            other => other.name(),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Shape::Canonical => "canonical",
            Shape::OpenaiChat => "openai-chat",
            Shape::OpenaiResponses => "openai-responses",
            Shape::Anthropic => "anthropic",
            Shape::Gemini => "gemini",
            Shape::Bedrock => "bedrock",
            Shape::Mcp => "mcp",
            Shape::NemoGym => "nemo-gym",
        }
    }
}

impl Shape {
    /// Every shape, in the order help lists them.
    pub const ALL: [Shape; 8] = [
        Shape::Canonical,
        Shape::OpenaiChat,
        Shape::OpenaiResponses,
        Shape::Anthropic,
        Shape::Gemini,
        Shape::Bedrock,
        Shape::Mcp,
        Shape::NemoGym,
    ];

    /// The order the shapes are asked whether an object is one of their media
    /// blocks (`scan::find_media`), the order the checks have
    /// always had: blocks with a `type` first (canonical parts before the OpenAI
    /// Chat `file` and Anthropic `image`/`document` blocks that share their type
    /// names), then Gemini and Bedrock blocks, which have no `type`, then a bare
    /// NeMo Gym entry, which has no `type` either (so no earlier shape can have
    /// called it `Empty`).
    pub const SCAN_ORDER: [Shape; 8] = [
        Shape::Canonical,
        Shape::OpenaiChat,
        Shape::OpenaiResponses,
        Shape::Anthropic,
        Shape::Mcp,
        Shape::Gemini,
        Shape::Bedrock,
        Shape::NemoGym,
    ];

    /// The shape called `name` (as [`Shape::name`] spells it).
    pub fn from_name(name: &str) -> Option<Shape> {
        Shape::ALL.into_iter().find(|shape| shape.name() == name)
    }
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
