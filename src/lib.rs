//! partkit: build, split, validate, convert, resize and inspect the content parts
//! that LLM prompts and tool replies carry.
//!
//! The crate is a library with a thin binary. The operations take an options
//! struct and return values, and never print: [`encode`], [`split`], [`validate`],
//! [`convert`] (one transcript) and [`convert::document`] (a document, its
//! `--at` values, a rollout), [`inspect`] and [`resize`]; each one's options
//! are also at the crate's root. The shared model
//! ([`part`], [`media`], [`dataurl`], [`b64`]) and the provider shapes
//! ([`shapes`]) are usable on their own. The command line (argument parsing,
//! printing, exit codes) is not part of the library's API; [`run_cli`] runs
//! it, for the binary.
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

// The library: the operations and the model they share. Each operation takes
// an options struct and returns values; none of them prints.
pub mod b64;
pub mod check;
pub mod convert;
pub mod dataurl;
pub mod echo;
pub mod encode;
pub mod error;
pub mod fetch;
pub mod inspect;
pub mod io;
pub mod json;
pub mod media;
pub mod part;
pub mod profile;
pub mod resize;
pub mod scan;
pub mod shapes;
pub mod shared;
pub mod split;
pub mod subdoc;
pub mod tokens;
pub mod transcript;
pub mod validate;
pub mod view;

// Plumbing the operations share; of it only `OnError` (what a failed
// document becomes) is part of the API, re-exported below.
mod accounting;
mod pipeline;
mod render;
mod size;

// The command line: binary-only, not public API, and built only with the
// `cli` feature (on by default), which brings clap and indicatif. (`generate`
// stays reachable, hidden, for the test that keeps the generated files
// current.)
#[cfg(feature = "cli")]
mod cli;
#[cfg(feature = "cli")]
mod commands;
#[cfg(feature = "cli")]
mod config;
#[cfg(feature = "cli")]
#[doc(hidden)]
pub mod generate;
#[cfg(feature = "cli")]
mod output;

// Each operation's options, and the types every one of them speaks, at the
// crate's root. (Not the functions: `encode` and `convert` would then name
// both a module and a function, and every doc link to them be ambiguous.)
pub use accounting::OnError;
pub use convert::document::ConvertRequest;
pub use convert::ConvertOptions;
pub use encode::EncodeOptions;
pub use error::{Error, ExitStatus, Result};
pub use part::{MediaPart, Part, Source};
pub use resize::ResizeOptions;
pub use shapes::Shape;
pub use split::SplitOptions;
pub use validate::{CheckOptions, ValidateOptions};

// For the binary (`main` prints its own errors with it).
#[doc(hidden)]
pub use render::sanitize;

/// The config reader on text alone, for the fuzz target.
#[cfg(feature = "cli")]
#[doc(hidden)]
pub use config::from_text as read_config_text;

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
        sanitize(message)
    );
}
