//! Every command-line definition, in one place. Nothing here does work: the
//! adapters in `commands` turn these "as typed" structs into the library's
//! option structs.

use std::path::PathBuf;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::media::MediaKind;
use crate::shapes::Shape;
use crate::size::parse_size;

/// Build and inspect the content parts of LLM prompts and tool replies.
#[derive(Debug, Parser)]
#[command(
    name = "partkit",
    version,
    propagate_version = true,
    max_term_width = 100,
    after_help = "Exit codes: 0 success; 1 input read but rejected; 2 could not run as asked."
)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
}

/// Options every subcommand takes.
#[derive(Debug, Args)]
pub struct GlobalArgs {
    /// Pretty-print JSON output (the default when stdout is a terminal)
    #[arg(
        long,
        global = true,
        conflicts_with = "compact",
        help_heading = "Output"
    )]
    pub pretty: bool,
    /// Print JSON compactly, one document per line (the default otherwise)
    #[arg(long, global = true, help_heading = "Output")]
    pub compact: bool,
    /// Silence warnings
    #[arg(short, long, global = true, help_heading = "Output")]
    pub quiet: bool,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Turn files, stdin, data: URLs and http(s) URLs into content parts
    #[command(
        long_about = "Turn files, stdin, data: URLs and http(s) URLs into content parts.\n\n\
            Prints a JSON array of parts in command-line order. Paths and stdin are read and \
            base64-encoded; the media type is sniffed from the content, with the file \
            extension as the fallback. An http(s) URL stays a URL part unless --fetch is given.",
        after_help = "Examples:\n  \
            partkit encode shot.png\n  \
            partkit encode -t 'What is in this image?' shot.png --to openai-chat\n  \
            cat report.pdf | partkit encode - --name report.pdf --to anthropic\n  \
            partkit encode https://example.com/a.pdf --fetch --max-part-bytes 5MB"
    )]
    Encode(EncodeArgs),
    /// Split a tool reply into text plus images (NeMo Gym's tool_output_images)
    #[command(
        long_about = "Split a tool reply into text plus images (NeMo Gym's tool_output_images).\n\n\
            Prints the reply without its tool_output_images as a text part, then each image's \
            label (as a text part) and the image, as canonical parts in the order a model \
            receives them. A malformed image list is exit 1, naming the entry and the reason; \
            nothing is printed for that reply. JSON Lines input gives one output per line.",
        after_help = "Examples:\n  \
            partkit split reply.json\n  \
            partkit split reply.json --rest\n  \
            partkit split replies.jsonl --images-dir shots/\n  \
            partkit split reply.json --to openai-chat --call-id call_1 --name screenshot"
    )]
    Split(SplitArgs),
    /// Check tool replies, canonical parts, transcripts and rollouts (a pre-commit check)
    #[command(
        long_about = "Check tool replies, canonical parts, provider transcripts in every shape and \
            NeMo Gym rollouts: a pre-commit check for fixtures and recordings.\n\n\
            Directories are walked for *.json and *.jsonl files (honouring .gitignore). Each JSON \
            document (or JSON Lines line) is recognized as a tool reply (an object with \
            tool_output_images), canonical parts, a transcript of any shape convert reads, or a \
            NeMo Gym rollout (its conversation checked as an OpenAI Responses request); other \
            documents are counted as skipped. --at POINTER checks the value at a pointer instead. \
            Findings print one per line as `path:line: error[rule-id] /json/pointer: message`; \
            the summary goes to stderr. Exit 0 when clean, 1 on findings, 2 when a path cannot be read.",
        after_help = "Examples:\n  \
            partkit validate fixtures/\n  \
            partkit validate replies.jsonl --profile anthropic --deep\n  \
            partkit validate fixtures/ --fix\n  \
            partkit validate --list-rules"
    )]
    Validate(ValidateArgs),
    /// List every media item in a recorded document of any shape
    #[command(
        long_about = "List every media item in a recorded document of any shape: canonical parts, \
            tool_output_images, OpenAI, Anthropic, Gemini, Bedrock and MCP blocks, and bare data: \
            URLs inside strings.\n\n\
            Prints a table (JSON pointer, kind, declared type, sniffed type, decoded bytes, \
            dimensions, name, problems), or JSON Lines with --format json. --extract writes the \
            media out under safe names.",
        after_help = "Examples:\n  \
            partkit inspect recording.json\n  \
            partkit inspect transcript.json --format json | jq 'select(.problems != [])'\n  \
            partkit inspect reply.json --extract media/"
    )]
    Inspect(InspectArgs),
    /// Bring images under a byte cap: image files, or every image in JSON documents
    #[command(
        long_about = "Bring images under a byte cap (and optionally a longest side and a pixel \
            count): image files, or every image embedded in JSON documents of any shape.\n\n\
            An image within every cap comes back byte for byte. Any other is decoded once, \
            searched for the largest version that fits (JPEG and WebP by quality, then by scale; \
            PNG and GIF by scale), re-encoded without metadata and checked again. In a JSON \
            document only the resized images (and their declared types) change. One report line \
            per image goes to stderr. Exit 1 when an image cannot fit.",
        after_help = "Examples:\n  \
            partkit resize shot.png -o small.png\n  \
            partkit resize --in-place --max-bytes 4MB shots/*.png\n  \
            partkit resize --profile anthropic transcript.json > fitted.json\n  \
            partkit resize --max-dim 2000 --format jpeg --out-dir small/ *.png --report json"
    )]
    Resize(ResizeArgs),
    /// Convert transcripts between provider shapes
    #[command(
        long_about = "Convert a transcript between provider shapes: OpenAI Chat Completions, OpenAI \
            Responses, Anthropic Messages, Gemini, Bedrock Converse and partkit's canonical form \
            (and, for single tool results, MCP and NeMo Gym replies).\n\n\
            The input is a request body, a bare message list, a provider response (read as one \
            assistant turn) or a single tool result; the output has the same form in the target \
            shape. Tool-call ids, arguments and media survive; what the target has no place for \
            is dropped with one warning naming it (--strict: exit 1).\n\n\
            A NeMo Gym rollout line comes back with responses_create_params replaced by its \
            converted conversation (the request's input, then the response's output) and every \
            other field as it was; --bare prints the conversation alone. --at POINTER converts the \
            value at a pointer of each document and leaves the rest of it byte for byte.",
        after_help = "Examples:\n  \
            partkit convert --from openai-chat --to anthropic request.json\n  \
            partkit convert --to canonical recording.jsonl\n  \
            partkit convert --to openai-chat --on-unsupported text transcript.json\n  \
            partkit convert --to anthropic rollouts.jsonl\n  \
            partkit convert --at /request --to gemini --on-error null -j 1 records.jsonl"
    )]
    Convert(ConvertArgs),
    /// Write completions and man pages (for maintainers)
    #[command(hide = true)]
    Generate(GenerateArgs),
}

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
#[derive(Debug, Args)]
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
    /// How to print findings
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = FindingFormat::Text, help_heading = "Output")]
    pub format: FindingFormat,
    /// Print the rules (id, severity, fixable, what it checks) and exit
    #[arg(long, help_heading = "Output")]
    pub list_rules: bool,
    /// Do not report this rule (repeatable)
    #[arg(long, value_name = "RULE")]
    pub ignore: Vec<String>,
    /// Fail on warnings too
    #[arg(long)]
    pub deny_warnings: bool,
    /// Decode every image fully (catches truncated images)
    #[arg(long)]
    pub deep: bool,
    /// Repair, in place, what has exactly one right answer: a declared type that
    /// disagrees with the bytes, media-type aliases, non-canonical base64
    #[arg(long)]
    pub fix: bool,
    /// Refuse a media part over this many decoded bytes (e.g. 5MB)
    #[arg(long, value_name = "SIZE", value_parser = parse_size, help_heading = "Limits")]
    pub max_bytes: Option<u64>,
    /// Refuse an image whose longest side is over this many pixels
    #[arg(long, value_name = "PX", help_heading = "Limits")]
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
    /// A JSON or JSON Lines document; `-` or nothing for stdin
    #[arg(value_name = "FILE")]
    pub input: Option<PathBuf>,
    /// How to print the items
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = ItemFormat::Text, help_heading = "Output")]
    pub format: ItemFormat,
    /// Also write every inline item into DIR as NNN.<ext> or NNN-<name>.<ext>
    #[arg(long, value_name = "DIR")]
    pub extract: Option<PathBuf>,
    /// Overwrite existing files in --extract
    #[arg(long, requires = "extract")]
    pub force: bool,
    /// Read the input as JSON Lines even if it looks like one document
    #[arg(long)]
    pub jsonl: bool,
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
    #[arg(long)]
    pub strict: bool,
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

/// `--at`: sub-documents.
#[derive(Debug, Args)]
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
#[derive(Debug, Args)]
pub struct ThreadsArgs {
    /// Worker threads [default: RAYON_NUM_THREADS, else one per core]
    #[arg(short = 'j', long = "threads", value_name = "N", value_parser = clap::value_parser!(u16).range(1..), help_heading = "Pipelines")]
    pub threads: Option<u16>,
}

/// `validate --format` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FindingFormat {
    /// One line per finding: path:line: severity[rule] /pointer: message
    Text,
    /// JSON Lines, one object per finding
    Json,
}

/// `inspect --format` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ItemFormat {
    /// A table: one row per media item (pointer, kind, types, size, dimensions, name, problems)
    Text,
    /// JSON Lines, one object per media item
    Json,
}

/// `--profile` values (SPEC §11).
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

/// Arguments of the hidden `partkit generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// The repository root to write `completions/` and `man/` into
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub dir: PathBuf,
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

fn parse_mime_type(text: &str) -> Result<String, String> {
    crate::media::normalize(text)
        .ok_or_else(|| format!("{text:?} is not a media type of the form type/subtype"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn definitions_are_consistent() {
        Cli::command().debug_assert();
    }
}

// ---------------------------------------------------------------------------
// Shape values, from the shapes' own facts

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
fn shape_parser(usage: ShapeUse) -> impl TypedValueParser<Value = Shape> {
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

fn from_parser() -> impl TypedValueParser<Value = FromArg> {
    let auto =
        PossibleValue::new("auto").help("Detect the shape (and say so when it had to guess)");
    let values =
        std::iter::once(auto).chain(Shape::ALL.map(|shape| PossibleValue::new(shape.name())));
    PossibleValuesParser::new(values).map(|name| FromArg(Shape::from_name(&name)))
}

#[cfg(test)]
mod shape_value_tests {
    use super::*;

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
