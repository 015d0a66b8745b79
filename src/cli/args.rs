//! The arguments of each command, and the groups of arguments several share.

use std::path::PathBuf;

use clap::Args;

use crate::shapes::Shape;
use crate::size::parse_size;

use super::*;

/// Arguments of `partkit encode`.
#[derive(Debug, Args)]
pub struct EncodeArgs {
    /// Paths, `-` for stdin, data: URLs or http(s) URLs [default: stdin]
    #[arg(value_name = "SOURCE")]
    pub sources: Vec<String>,
    /// Add a text part at this place among the sources (repeatable)
    #[arg(short = 't', long = "text", value_name = "TEXT")]
    pub text: Vec<String>,
    /// The part type, overriding the one the media type implies
    #[arg(long = "type", value_enum, value_name = "TYPE")]
    pub part_type: Option<PartTypeArg>,
    /// The media type, overriding sniffing and the extension
    #[arg(long, value_name = "MIME", value_parser = parse_mime_type)]
    pub mime_type: Option<String>,
    /// The part's name (one source only; defaults to the file's base name)
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// Refuse a part larger than this many decoded bytes (e.g. 5MB, 5MiB)
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub max_part_bytes: Option<u64>,
    /// Treat a disagreement between content and declared type as an error
    #[arg(long)]
    pub strict: bool,
    /// Download http(s) URLs and inline their bytes instead of keeping URL parts
    #[arg(long, help_heading = "Fetching")]
    pub fetch: bool,
    /// Give up on a download after this many seconds
    #[arg(
        long,
        value_name = "SECS",
        default_value_t = 30,
        requires = "fetch",
        help_heading = "Fetching"
    )]
    pub timeout: u64,
    /// Print the parts as blocks of this shape
    #[arg(long, value_parser = shape_parser(ShapeUse::Parts), value_name = "SHAPE", default_value = "canonical", help_heading = "Output")]
    pub to: Shape,
    /// Print one part per line instead of a JSON array
    #[arg(long, help_heading = "Output")]
    pub jsonl: bool,
    /// With --jsonl: what a source that fails becomes (without it, any failure fails the run
    /// and nothing is printed)
    #[arg(
        long,
        value_enum,
        value_name = "POLICY",
        requires = "jsonl",
        help_heading = "Pipelines"
    )]
    pub on_error: Option<OnErrorArg>,
}

/// Arguments of `partkit split`.
#[derive(Debug, Args)]
pub struct SplitArgs {
    /// A tool reply (JSON or JSON Lines); `-` or nothing for stdin
    #[arg(value_name = "FILE")]
    pub input: Option<PathBuf>,
    /// Print only the rest of the reply (the JSON the model gets as tool output)
    #[arg(long, conflicts_with = "to", help_heading = "Output")]
    pub rest: bool,
    /// Print the reply as one tool result of this shape
    #[arg(
        long,
        value_parser = shape_parser(ShapeUse::ToolResult),
        value_name = "SHAPE",
        requires = "call_id",
        help_heading = "Output"
    )]
    pub to: Option<Shape>,
    /// The id of the tool call this reply answers (with --to)
    #[arg(long, value_name = "ID", requires = "to", help_heading = "Output")]
    pub call_id: Option<String>,
    /// The tool's name (with --to; gemini needs it)
    #[arg(long, value_name = "TOOL", requires = "to", help_heading = "Output")]
    pub name: Option<String>,
    /// Also write each image into DIR as NNN.<ext> or NNN-<label>.<ext>
    #[arg(long, value_name = "DIR")]
    pub images_dir: Option<PathBuf>,
    /// Overwrite existing files in --images-dir
    #[arg(long, requires = "images_dir")]
    pub force: bool,
    /// Read the input as JSON Lines even if it looks like one document
    #[arg(long)]
    pub jsonl: bool,
    #[command(flatten)]
    pub pipeline: PipelineArgs,
}

/// Arguments of `partkit validate`.
#[derive(Debug, Clone, Args)]
pub struct ValidateArgs {
    /// Files or directories to check; `-` or nothing for stdin
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Check every document as this kind instead of recognizing it
    #[arg(long, value_enum, value_name = "KIND")]
    pub kind: Option<DocKindArg>,
    /// Read documents as transcripts of this shape (implies --kind transcript)
    #[arg(long, value_parser = from_parser(), value_name = "SHAPE")]
    pub from: Option<FromArg>,
    /// Pre-flight transcripts for conversion to this shape: report what it would refuse or drop
    #[arg(long, value_parser = shape_parser(ShapeUse::Document), value_name = "SHAPE")]
    pub target: Option<Shape>,
    /// How to print findings (the variable lets a CI job switch a pre-commit hook to github)
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = FindingFormat::Text, env = "PARTKIT_VALIDATE_FORMAT", help_heading = "Output")]
    pub format: FindingFormat,
    /// Print the rules (id, severity, fixable, what it checks) and exit
    #[arg(long, help_heading = "Output")]
    pub list_rules: bool,
    /// Print the settings in effect (command line, config file, defaults) and where each
    /// came from, and exit
    #[arg(long, help_heading = "Output")]
    pub show_config: bool,
    /// Do not report this rule (repeatable)
    #[arg(long, value_name = "RULE")]
    pub ignore: Vec<String>,
    /// Fail on warnings too
    #[arg(long, overrides_with = "no_deny_warnings")]
    pub deny_warnings: bool,
    /// Do not fail on warnings (overrides the config file's deny-warnings)
    #[arg(long, overrides_with = "deny_warnings")]
    pub no_deny_warnings: bool,
    /// Report the findings and exit 0 all the same (an input that cannot be read still exits 2)
    #[arg(long, conflicts_with = "deny_warnings")]
    pub exit_zero: bool,
    /// Decode every image fully (catches truncated images)
    #[arg(long, overrides_with = "no_deep")]
    pub deep: bool,
    /// Check image headers only (overrides the config file's deep)
    #[arg(long, overrides_with = "deep")]
    pub no_deep: bool,
    /// Repair, in place, what has exactly one right answer: a declared type that
    /// disagrees with the bytes, media-type aliases, non-canonical base64
    #[arg(long)]
    pub fix: bool,
    /// Refuse a media part over this many decoded bytes (e.g. 5MB)
    #[arg(long, value_name = "SIZE", value_parser = parse_size, help_heading = "Limits")]
    pub max_bytes: Option<u64>,
    /// Refuse an image whose longest side is over this many pixels
    #[arg(long, value_name = "PX", value_parser = clap::value_parser!(u32).range(1..), help_heading = "Limits")]
    pub max_dim: Option<u32>,
    /// Refuse a document with more than this many images
    #[arg(long, value_name = "N", help_heading = "Limits")]
    pub max_images: Option<usize>,
    /// Apply a provider's published limits
    #[arg(long, value_enum, value_name = "NAME", help_heading = "Limits")]
    pub profile: Option<ProfileArg>,
    /// Read inputs as JSON Lines even if they look like one document
    #[arg(long)]
    pub jsonl: bool,
    #[command(flatten)]
    pub at: AtArgs,
    #[command(flatten)]
    pub threads: ThreadsArgs,
}

/// Arguments of `partkit inspect`.
#[derive(Debug, Args)]
pub struct InspectArgs {
    /// A JSON or JSON Lines document, or a recording (cassette, HAR); `-` or nothing for stdin
    #[arg(value_name = "FILE")]
    pub input: Option<PathBuf>,
    /// How to print the items
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = ItemFormat::Text, help_heading = "Output")]
    pub format: ItemFormat,
    /// Also estimate each image's input tokens: OpenAI (high/low detail), Anthropic, Gemini
    #[arg(long, help_heading = "Output")]
    pub tokens: bool,
    /// Also write every inline item into DIR as NNN.<ext> or NNN-<name>.<ext>
    #[arg(long, value_name = "DIR")]
    pub extract: Option<PathBuf>,
    /// Overwrite existing files in --extract
    #[arg(long, requires = "extract")]
    pub force: bool,
    /// Read the input as JSON Lines even if it looks like one document
    #[arg(long)]
    pub jsonl: bool,
    /// With a recording: also list each body's headers (secret values show as REDACTED)
    #[arg(long, help_heading = "Output")]
    pub headers: bool,
    /// List the events of each streamed response (or of FILE read as one stream body)
    #[arg(long, conflicts_with = "extract", help_heading = "Output")]
    pub events: bool,
    #[command(flatten)]
    pub pipeline: PipelineArgs,
}

/// Arguments of `partkit resize`.
#[derive(Debug, Args)]
pub struct ResizeArgs {
    /// Image files or JSON / JSON Lines documents; `-` or nothing for stdin
    #[arg(value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,
    /// Most decoded bytes per image, e.g. 4MB, 5MiB [default: 5MB, or the profile's cap]
    #[arg(long, value_name = "SIZE", value_parser = parse_size, help_heading = "Limits")]
    pub max_bytes: Option<u64>,
    /// Most base64 characters per image (the unit Anthropic counts)
    #[arg(long, value_name = "SIZE", value_parser = parse_size, help_heading = "Limits")]
    pub max_encoded_bytes: Option<u64>,
    /// Most pixels on an image's longest side
    #[arg(long, value_name = "PX", value_parser = clap::value_parser!(u32).range(1..), help_heading = "Limits")]
    pub max_dim: Option<u32>,
    /// Most pixels (width x height) per image
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..), help_heading = "Limits")]
    pub max_pixels: Option<u64>,
    /// Take the caps and accepted image types from a provider's profile (explicit options win)
    #[arg(long, value_enum, value_name = "NAME", help_heading = "Limits")]
    pub profile: Option<ProfileArg>,
    /// The format of re-encoded images (images within every cap are never converted)
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = ImageFormatArg::Keep)]
    pub format: ImageFormatArg,
    /// Write the result to FILE (one input)
    #[arg(short = 'o', long = "output", value_name = "FILE", conflicts_with_all = ["out_dir", "in_place"], help_heading = "Output")]
    pub output: Option<PathBuf>,
    /// Write each result into DIR under its input's name (the extension follows the format)
    #[arg(
        long,
        value_name = "DIR",
        conflicts_with = "in_place",
        help_heading = "Output"
    )]
    pub out_dir: Option<PathBuf>,
    /// Replace each input that changed (a temporary file renamed over it)
    #[arg(long, help_heading = "Output")]
    pub in_place: bool,
    /// How each image is reported on stderr
    #[arg(long, value_enum, value_name = "STYLE", default_value_t = ReportStyleArg::Text, help_heading = "Output")]
    pub report: ReportStyleArg,
    /// Refuse to decode an image of more pixels (all frames together): a decompression bomb
    #[arg(long, value_name = "N", default_value_t = 100_000_000, value_parser = clap::value_parser!(u64).range(1..), help_heading = "Limits")]
    pub max_decode_pixels: u64,
    /// Read JSON inputs as JSON Lines even if they look like one document
    #[arg(long)]
    pub jsonl: bool,
    #[command(flatten)]
    pub pipeline: PipelineArgs,
}

/// Arguments of `partkit convert`.
#[derive(Debug, Args)]
pub struct ConvertArgs {
    /// A transcript, request, response or tool result (JSON or JSON Lines); `-` or nothing for stdin
    #[arg(value_name = "FILE")]
    pub input: Option<PathBuf>,
    /// The input's shape
    #[arg(long, value_parser = from_parser(), value_name = "SHAPE", default_value = "auto")]
    pub from: FromArg,
    /// The output's shape
    #[arg(long, value_parser = shape_parser(ShapeUse::Document), value_name = "SHAPE")]
    pub to: Shape,
    /// What to do with a part the target cannot carry [default: error for parts a user attached, text for parts from tools]
    #[arg(long, value_enum, value_name = "POLICY")]
    pub on_unsupported: Option<UnsupportedArg>,
    /// Where media in tool results goes: natively where the target allows it, or lifted into a following user message
    #[arg(long, value_enum, value_name = "WHERE", default_value_t = ToolMediaArg::Native)]
    pub tool_media: ToolMediaArg,
    /// What to do with tool-call arguments that are not valid JSON
    #[arg(long, value_enum, value_name = "POLICY", default_value_t = InvalidArgumentsArg::Error)]
    pub on_invalid_arguments: InvalidArgumentsArg,
    /// Exit 1 instead of dropping anything the target has no place for
    #[arg(long, overrides_with = "no_strict")]
    pub strict: bool,
    /// Drop with a warning what the target has no place for (overrides the config file's strict)
    #[arg(long, overrides_with = "strict")]
    pub no_strict: bool,
    /// The call id of a single tool result whose shape carries none (mcp, nemo-gym)
    #[arg(long, value_name = "ID")]
    pub call_id: Option<String>,
    /// The tool name of a single tool result whose shape carries none
    #[arg(long, value_name = "TOOL")]
    pub name: Option<String>,
    /// Read the input as JSON Lines even if it looks like one document
    #[arg(long)]
    pub jsonl: bool,
    /// Read documents as this kind instead of recognizing it
    #[arg(long, value_enum, value_name = "KIND")]
    pub kind: Option<ConvertKindArg>,
    /// Print only the converted value (of the one --at pointer, or a rollout's conversation),
    /// not the document around it
    #[arg(long, help_heading = "Output")]
    pub bare: bool,
    #[command(flatten)]
    pub pipeline: PipelineArgs,
}

/// `--at`: sub-documents.
#[derive(Debug, Clone, Args)]
pub struct AtArgs {
    /// Work on the value at this JSON pointer (RFC 6901) of each document, writing the rest
    /// of the document back byte for byte (repeatable)
    #[arg(long = "at", value_name = "POINTER", help_heading = "Pipelines")]
    pub at: Vec<String>,
    /// What a document without a value at an --at pointer gets
    #[arg(long, value_enum, value_name = "WHAT", default_value_t = AtMissingArg::Error, help_heading = "Pipelines")]
    pub at_missing: AtMissingArg,
}

/// `--on-error`: what a failed document becomes.
#[derive(Debug, Args)]
pub struct OnErrorArgs {
    /// What a document that fails becomes in the output
    #[arg(long, value_enum, value_name = "POLICY", default_value_t = OnErrorArg::Skip, help_heading = "Pipelines")]
    pub on_error: OnErrorArg,
}

/// The options of a subcommand that runs over many documents.
#[derive(Debug, Args)]
pub struct PipelineArgs {
    #[command(flatten)]
    pub at: AtArgs,
    #[command(flatten)]
    pub on_error: OnErrorArgs,
    #[command(flatten)]
    pub threads: ThreadsArgs,
}

/// `-j/--threads`: the workers.
#[derive(Debug, Clone, Args)]
pub struct ThreadsArgs {
    /// Worker threads [default: RAYON_NUM_THREADS, else one per core]
    #[arg(short = 'j', long = "threads", value_name = "N", value_parser = clap::value_parser!(u16).range(1..), help_heading = "Pipelines")]
    pub threads: Option<u16>,
}

/// Arguments of `partkit view`.
#[derive(Debug, Args)]
pub struct ViewArgs {
    /// A transcript, tool reply, canonical parts or rollout (JSON or JSON Lines); `-` or nothing for stdin
    #[arg(value_name = "FILE")]
    pub input: Option<PathBuf>,
    /// Write the page to FILE (written whole, then renamed into place) [default: stdout]
    #[arg(
        short = 'o',
        long = "output",
        value_name = "FILE",
        help_heading = "Output"
    )]
    pub output: Option<PathBuf>,
    /// Only the documents starting on these lines: N, N-M, N- or -M
    #[arg(long, value_name = "RANGE", value_parser = parse_lines)]
    pub lines: Option<std::ops::RangeInclusive<usize>>,
    /// Also embed each image's original bytes, shown on a click (the page grows by them)
    #[arg(long, help_heading = "Output")]
    pub full_images: bool,
    /// Check against a provider's published limits, as validate --profile
    #[arg(long, value_enum, value_name = "NAME")]
    pub profile: Option<ProfileArg>,
    /// Report what converting to this shape would refuse or drop, as validate --target
    #[arg(long, value_parser = shape_parser(ShapeUse::Document), value_name = "SHAPE")]
    pub target: Option<Shape>,
    /// Read the input as JSON Lines even if it looks like one document
    #[arg(long)]
    pub jsonl: bool,
    #[command(flatten)]
    pub threads: ThreadsArgs,
}

/// `--lines`: `N`, `N-M`, `N-` or `-M` (1-based, inclusive).
fn parse_lines(text: &str) -> Result<std::ops::RangeInclusive<usize>, String> {
    let number = |part: &str, default: usize| -> Result<usize, String> {
        if part.is_empty() {
            return Ok(default);
        }
        match part.trim().parse::<usize>() {
            Ok(0) | Err(_) => Err(format!(
                "{text:?} is not a line range such as 1-200 (lines count from 1)"
            )),
            Ok(n) => Ok(n),
        }
    };
    let (start, end) = match text.split_once('-') {
        Some((start, end)) => (number(start, 1)?, number(end, usize::MAX)?),
        None => {
            let n = number(text, 0)?;
            (n, n)
        }
    };
    if start > end || (start == 1 && end == usize::MAX && text.trim() == "-") {
        return Err(format!("{text:?} is not a line range such as 1-200"));
    }
    Ok(start..=end)
}

/// Arguments of `partkit config`.
#[derive(Debug, Args)]
pub struct ConfigArgs {}

/// Arguments of the hidden `partkit generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// The repository root to write `completions/` and `man/` into
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub dir: PathBuf,
}
