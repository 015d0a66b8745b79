//! Every command-line definition, in one place. Nothing here does work: the
//! adapters in `commands` turn these "as typed" structs into the library's
//! option structs.

use clap::{Args, Parser, Subcommand};

mod args;
mod values;

pub use args::*;
pub use values::*;

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
    /// The most one document may hold: a JSON file, a JSON Lines line, an image
    /// [default: 512MiB]
    #[arg(long, global = true, value_name = "SIZE", value_parser = crate::size::parse_size, help_heading = "Input")]
    pub max_document_size: Option<u64>,
    /// Read settings from this file instead of the nearest partkit.toml, .partkit.toml or
    /// pyproject.toml [tool.partkit]
    #[arg(
        long,
        global = true,
        value_name = "PATH",
        conflicts_with = "no_config",
        help_heading = "Config"
    )]
    pub config: Option<std::path::PathBuf>,
    /// Ignore config files
    #[arg(long, global = true, help_heading = "Config")]
    pub no_config: bool,
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
    /// Draw a recorded conversation, tool reply or JSON Lines file as one offline HTML page
    #[command(
        long_about = "Draw a recorded conversation, tool reply, canonical parts, rollout or a JSON \
            Lines file of them as one self-contained, offline HTML page: turns, images as \
            thumbnails with their size and estimated tokens, tool calls paired with their \
            results, and validate's findings.\n\n\
            The page loads nothing: no server, no network, no external assets; its policy \
            allows only its own style and script. Recorded text is always shown as text. \
            JSON Lines input gets an index of lines with a search and filters.",
        after_help = "Examples:\n  \
            partkit view transcript.json -o transcript.html\n  \
            partkit view rollouts.jsonl --lines 1-200 -o rollouts.html\n  \
            partkit view recording.json --profile anthropic --target bedrock -o page.html"
    )]
    View(ViewArgs),
    /// Print the settings in effect from the config file, and where each came from
    #[command(
        long_about = "Print the settings in effect for validate, resize and convert, and where \
            each came from: the config file (with its line) or partkit's default.\n\n\
            The config file is the nearest partkit.toml, .partkit.toml or pyproject.toml holding \
            [tool.partkit], from the working folder up; --config PATH names one, --no-config \
            ignores them. The output is itself a config file, each key's source in a comment. \
            `partkit validate --show-config` shows validate's settings with its command line too.",
        after_help = "Examples:\n  \
            partkit config\n  \
            partkit --config ci/partkit.toml config\n  \
            partkit validate --profile openai --show-config"
    )]
    Config(ConfigArgs),
    /// Write completions and man pages (for maintainers)
    #[command(hide = true)]
    Generate(GenerateArgs),
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
