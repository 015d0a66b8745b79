//! The values options take: the enums behind `--format`, `--profile` and
//! the like, and the shape values, listed from the shapes' own facts.

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::ValueEnum;

use crate::media::MediaKind;
use crate::shapes::Registered;
use crate::shapes::Shape;

/// `resize --format` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ImageFormatArg {
    /// The input's format (PNG when the profile does not accept it, as for BMP and TIFF)
    Keep,
    /// PNG (lossless; searched by scale)
    Png,
    /// JPEG (searched by quality, then by scale)
    Jpeg,
    /// Lossy WebP (searched by quality, then by scale)
    Webp,
    /// Not an image format: the report's style is --report
    #[value(hide = true)]
    Json,
    #[value(hide = true)]
    Text,
}

/// `resize --report` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ReportStyleArg {
    /// One line per image a person reads
    Text,
    /// One JSON object per image (JSON Lines)
    Json,
}

/// `--on-unsupported` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum UnsupportedArg {
    /// Exit 1, naming the part and the shape
    Error,
    /// Replace the part by the text `[unsupported <type> part (<mimeType>, <bytes> bytes)]`
    Text,
}

/// `--tool-media` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ToolMediaArg {
    /// Inside tool results wherever the target allows it
    Native,
    /// In a user message after the turn's tool results (for gateways and older models)
    Lift,
}

/// `--on-invalid-arguments` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum InvalidArgumentsArg {
    /// Exit 1, naming the call
    Error,
    /// Keep the string as written
    Keep,
}

/// `validate --kind` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DocKindArg {
    /// A tool reply with tool_output_images
    Reply,
    /// One canonical part or a list of them
    Parts,
    /// A transcript, request, response or tool result of a provider shape (or canonical)
    Transcript,
    /// A NeMo Gym rollout line (responses_create_params + response + reward and ids)
    Rollout,
}

/// `convert --kind` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ConvertKindArg {
    /// A transcript, request, response or tool result (never read as a rollout)
    Transcript,
    /// A NeMo Gym rollout line: its conversation is converted
    Rollout,
}

/// `--at-missing` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AtMissingArg {
    /// The document fails, naming the pointer
    Error,
    /// The pointer is passed over; a document without any is passed through unchanged
    Skip,
}

/// `--on-error` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OnErrorArg {
    /// Leave the failed document out (error on stderr with file and line; exit 1)
    Skip,
    /// Write `null` in its place, so output line N is input line N (error on stderr; exit 0)
    Null,
    /// Stop at the first failed document (exit 1; nothing after it is printed)
    Stop,
}

/// `validate --format` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FindingFormat {
    /// One line per finding: path:line: severity[rule] /pointer: message
    Text,
    /// JSON Lines, one object per finding
    Json,
    /// GitHub Actions workflow commands (::error file=PATH,line=N,title=RULE::MESSAGE): annotations in CI
    Github,
    /// One SARIF 2.1.0 log of every finding, for code scanning tools
    Sarif,
}

/// `inspect --format` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ItemFormat {
    /// A table: one row per media item (pointer, kind, types, size, dimensions, name, problems)
    Text,
    /// JSON Lines, one object per media item
    Json,
}

/// `--profile` values (docs/limits.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ProfileArg {
    /// NeMo Gym / PraisonAI: png, jpeg, gif, webp; 5,000,000 bytes per image
    Default,
    /// 20 MB per image; 500 images and 50 MB of images per request
    Openai,
    /// 5,242,880 base64 characters per image; 8000 px (2000 px past 20 images); 100 images
    Anthropic,
    /// png, jpeg, webp, heic, heif; 100 MB inline per request
    Gemini,
    /// 3,932,160 bytes per image; 8000 px; 20 images
    Bedrock,
}

impl ProfileArg {
    /// The profile's entry in the table.
    pub fn profile(self) -> &'static crate::profile::Profile {
        let name = match self {
            ProfileArg::Default => "default",
            ProfileArg::Openai => "openai",
            ProfileArg::Anthropic => "anthropic",
            ProfileArg::Gemini => "gemini",
            ProfileArg::Bedrock => "bedrock",
        };
        crate::profile::find(name).expect("every profile argument is in the table")
    }
}

/// `--type` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PartTypeArg {
    Image,
    File,
    Audio,
}

impl From<PartTypeArg> for MediaKind {
    fn from(arg: PartTypeArg) -> MediaKind {
        match arg {
            PartTypeArg::Image => MediaKind::Image,
            PartTypeArg::File => MediaKind::File,
            PartTypeArg::Audio => MediaKind::Audio,
        }
    }
}

pub(super) fn parse_mime_type(text: &str) -> Result<String, String> {
    crate::media::normalize(text)
        .ok_or_else(|| format!("{text:?} is not a media type of the form type/subtype"))
}

/// Which of a shape's descriptions a `--to` value shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShapeUse {
    /// A whole document (`convert --to`, `validate --target`).
    Document,
    /// One tool result (`split --to`): the shapes that write one.
    ToolResult,
    /// Parts (`encode --to`), the shape named by its block name.
    Parts,
}

/// The command-line name and description of `shape` for `usage`; `None` when
/// the shape is not a value there.
fn shape_value(shape: Shape, usage: ShapeUse) -> Option<(&'static str, &'static str)> {
    let facts = shape.facts();
    match usage {
        ShapeUse::Document => Some((shape.name(), facts.document)),
        ShapeUse::ToolResult => Some((shape.name(), facts.tool_result?)),
        ShapeUse::Parts => Some((shape.block_name(), facts.parts)),
    }
}

/// Parses a shape among those `usage` offers, listed as `Shape::ALL` orders them.
pub(super) fn shape_parser(usage: ShapeUse) -> impl TypedValueParser<Value = Shape> {
    let values = Shape::ALL
        .into_iter()
        .filter_map(move |shape| shape_value(shape, usage))
        .map(|(name, help)| PossibleValue::new(name).help(help));
    PossibleValuesParser::new(values).map(move |name| {
        Shape::ALL
            .into_iter()
            .find(|&shape| shape_value(shape, usage).is_some_and(|(n, _)| n == name))
            .expect("the parser only takes listed names")
    })
}

/// A `--from` value: a shape, or `auto` to detect it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FromArg(pub Option<Shape>);

impl FromArg {
    /// The shape, or `None` for auto-detection.
    pub fn shape(self) -> Option<Shape> {
        self.0
    }
}

pub(super) fn from_parser() -> impl TypedValueParser<Value = FromArg> {
    let auto =
        PossibleValue::new("auto").help("Detect the shape (and say so when it had to guess)");
    let values =
        std::iter::once(auto).chain(Shape::ALL.map(|shape| PossibleValue::new(shape.name())));
    PossibleValuesParser::new(values).map(|name| FromArg(Shape::from_name(&name)))
}

#[cfg(test)]
mod shape_value_tests {
    use super::*;
    use crate::cli::{Cli, Command};
    use clap::Parser;

    #[test]
    fn shape_values_come_from_the_shapes_facts() {
        let names = |usage| -> Vec<&str> {
            Shape::ALL
                .into_iter()
                .filter_map(|shape| shape_value(shape, usage).map(|(name, _)| name))
                .collect()
        };
        assert_eq!(names(ShapeUse::Document).len(), Shape::ALL.len());
        assert!(!names(ShapeUse::ToolResult).contains(&"nemo-gym"));
        assert_eq!(names(ShapeUse::Parts).last(), Some(&"tool-output-image"));
        let cli =
            Cli::try_parse_from(["partkit", "encode", "--to", "tool-output-image", "x"]).unwrap();
        let Command::Encode(args) = cli.command else {
            panic!("not encode")
        };
        assert_eq!(args.to, Shape::NemoGym);
    }
}
