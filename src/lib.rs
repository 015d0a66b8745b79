//! partkit: build, split, validate, convert, resize and inspect the content parts
//! that LLM prompts and tool replies carry.
//!
//! The crate is a library with a thin binary. The operations take an options
//! struct and return values, and never print: [`encode`], [`split`], [`validate`],
//! [`convert`] (one transcript) and [`convert::document`] (a document, its
//! `--at` values, a rollout), [`inspect`] and [`resize`]; each one's options
//! are also at the crate's root. The shared model ([`part`], [`transcript`],
//! [`media`], [`profile`]) and the provider shapes ([`shapes`]) are usable on
//! their own. An operation given a file opens it with [`Document::open`],
//! which decides whether a large file's payloads stay in the file. The command line (argument parsing, printing, exit codes) is
//! not part of the library's API: it is built with the `cli` feature (on by
//! default; `default-features = false` leaves it and clap out), and
//! `run_cli` runs it, for the binary.
//!
//! ```
//! use partkit::encode::{encode, EncodeOptions, SourceSpec};
//! use partkit::shapes::Shape;
//!
//! let options = EncodeOptions {
//!     sources: vec![
//!         SourceSpec::Text("What is in this image?".into()),
//!         SourceSpec::DataUrl("data:image/gif;base64,R0lGODlhAQABAAAAACw=".into()),
//!     ],
//!     to: Shape::Anthropic,
//!     ..EncodeOptions::default()
//! };
//! let encoded = encode(&options).unwrap();
//! assert_eq!(encoded.blocks[1]["source"]["media_type"], "image/gif");
//! ```

// The library's API: the operations, each taking an options struct and
// returning values (none of them prints), and the model they share. Each
// module's own documentation says what it holds.
pub mod assemble;
pub mod convert;
pub mod encode;
pub mod inspect;
pub mod profile;
pub mod recorded;
pub mod resize;
pub mod shapes;
pub mod split;
pub mod validate;

// The bottom layer, a crate of its own (crates/core): the model the API
// names, and under it the contract and the plumbing, reached as `crate::…`
// from every module here as when they lived in this crate.
use partkit_core::{
    b64, check, contract, dataurl, document, echo, error, io, json, recording, render, shared,
    size, stream,
};
pub use partkit_core::{media, part, transcript};

// Plumbing: the helpers the operations are built from. Not part of the API;
// the types of theirs that options and results carry are re-exported below.
mod accounting;
mod fetch;
mod pipeline;
mod scan;
mod subdoc;
mod tokens;

// The command line: binary-only, not public API, and built only with the
// `cli` feature (on by default), which brings clap and indicatif. `view`
// (the page `partkit view` writes) has no caller outside it.
#[cfg(feature = "cli")]
mod cli;
#[cfg(feature = "cli")]
mod commands;
#[cfg(feature = "cli")]
mod config;
#[cfg(feature = "cli")]
mod generate;
#[cfg(feature = "cli")]
mod output;
#[cfg(feature = "cli")]
mod view;

// Each operation's options, and the types every one of them speaks, at the
// crate's root. (Not the functions: `encode` and `convert` would then name
// both a module and a function, and every doc link to them be ambiguous.)
pub use accounting::OnError;
pub use check::Depth;
pub use convert::document::ConvertRequest;
pub use convert::ConvertOptions;
pub use document::{Document, LentFile, Open};
pub use encode::EncodeOptions;
pub use error::{Error, ExitStatus, Result};
pub use fetch::FetchOptions;
pub use io::{Input, Layout, DEFAULT_MAX_DOCUMENT};
pub use part::{MediaPart, Part, Source};
pub use resize::ResizeOptions;
pub use shapes::Shape;
pub use shared::SharedBytes;
pub use split::SplitOptions;
pub use subdoc::{At, AtMissing, PointerError};
pub use validate::{CheckOptions, ValidateOptions};

/// Internals that the fuzz targets, the integration tests and the Python
/// binding reach into: the one place where the crate's plumbing is public.
/// Not part of the API; hidden from the documentation and free to change.
#[doc(hidden)]
pub mod internals {
    pub use crate::check::check_bytes;
    pub use crate::echo::{bound, quoted, SHOWN};
    pub use crate::io::{Documents, Slot};
    /// Payloads lent from Python data as the Python package walks it.
    pub use crate::json::lent::{pieces, Gathered, Held, Lending, Piece};
    pub use crate::render::sanitize;
    pub use crate::subdoc::LocateError;

    /// The config reader on text alone.
    #[cfg(feature = "cli")]
    pub use crate::config::from_text as read_config_text;
    /// The files generated from the command line's definition (man pages,
    /// completions), for the test that keeps the committed ones current.
    #[cfg(feature = "cli")]
    pub use crate::generate::render as generated_files;
    /// `partkit view`'s page writer.
    #[cfg(feature = "cli")]
    pub use crate::view::{write_documents, DocOptions, ViewOptions};

    /// Cassettes and HAR files read into interactions (the commands read
    /// them through [`crate::recorded`]).
    pub use partkit_core::recording;

    /// Base64 as parts carry it.
    pub mod b64 {
        pub use crate::b64::{
            check_strict, decode_lenient, decode_strict, decoded_len, encode, preview,
        };
    }
    /// `data:` URLs.
    pub mod dataurl {
        pub use crate::dataurl::parse;
    }
    /// The borrowed JSON tree and the lending parser.
    pub mod json {
        /// The tree a writer builds its output as (what `convert_data` gives).
        pub use crate::json::out::{Members, Out};
        pub use crate::json::{duplicate_keys, parse, parse_counted, Json, Reading, Spellings};
        /// The lending parser: payload strings left in the input, and what a
        /// document lends (for `convert::convert_read`).
        pub mod lent {
            pub use crate::json::lent::{parse, scan, Lending, Source};
        }
    }
}

#[cfg(feature = "cli")]
use std::ffi::OsString;

#[cfg(feature = "cli")]
use clap::{CommandFactory, FromArgMatches};

/// How a run of the command line ended, for `main` to turn into an exit code.
#[cfg(feature = "cli")]
pub enum Outcome {
    /// The command ran; exit with this status.
    Status(ExitStatus),
    /// clap printed help or a version (exit 0), or a usage error (exit 2).
    Clap(clap::Error),
    /// The command failed.
    Failed(Error),
}

/// Parses `args` and runs the command.
#[cfg(feature = "cli")]
pub fn run_cli<I, T>(args: I) -> Outcome
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let matches = match cli::Cli::command().try_get_matches_from(args) {
        Ok(matches) => matches,
        Err(error) => return Outcome::Clap(error),
    };
    let parsed = match cli::Cli::from_arg_matches(&matches) {
        Ok(parsed) => parsed,
        Err(error) => return Outcome::Clap(error),
    };
    match commands::run(parsed, &matches) {
        Ok(status) => Outcome::Status(status),
        Err(error) => Outcome::Failed(error),
    }
}

/// Runs the command line as the `partkit` binary does: parses `args`, runs
/// the command, prints help, versions and errors (one line on stderr), and
/// returns the exit code (0 success, 1 rejected, 2 could not run).
#[cfg(feature = "cli")]
#[doc(hidden)]
pub fn main_exit_code<I, T>(args: I) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    use clap::error::ErrorKind;
    match run_cli(args) {
        Outcome::Status(status) => status.code(),
        Outcome::Clap(error) => match error.kind() {
            ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                if let Err(source) = error.print() {
                    // Help or a version not written to stdout (a full disk;
                    // a closed pipe ends a run quietly, as for any output).
                    let to_stdout = !error.use_stderr();
                    if to_stdout && source.kind() != std::io::ErrorKind::BrokenPipe {
                        let error = Error::write("<stdout>", source);
                        report_error(&format!("{:#}", anyhow::Error::from(error)));
                        return 2;
                    }
                }
                if error.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                    2
                } else {
                    0
                }
            }
            _ => {
                // clap's message spans several lines: what is wrong, sometimes the
                // arguments it means on the lines after, then tips and usage after a
                // blank line. Keep the first paragraph, on one line.
                let rendered = error.render().to_string();
                let paragraph: Vec<&str> = rendered
                    .lines()
                    .take_while(|line| !line.trim().is_empty())
                    .map(str::trim)
                    .collect();
                let message = paragraph.join(" ");
                let message = message.strip_prefix("error: ").unwrap_or(&message);
                report_error(&format!("{message} (see --help)"));
                2
            }
        },
        Outcome::Failed(error) => {
            if error.is_broken_pipe() {
                return 0;
            }
            let code = error.exit_code();
            report_error(&format!("{:#}", anyhow::Error::from(error)));
            code
        }
    }
}

/// `partkit: error: MESSAGE` on stderr, made safe to print.
#[cfg(feature = "cli")]
fn report_error(message: &str) {
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr().lock(),
        "partkit: error: {}",
        render::sanitize(message)
    );
}
