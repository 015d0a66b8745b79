//! partkit: build, split, validate, convert, resize and inspect the content parts
//! that LLM prompts and tool replies carry.
//!
//! The crate is a library with a thin binary. The operations take an options
//! struct and return values ([`encode`], [`convert`]; the others still live in
//! [`commands`] while they move out); the shared model ([`part`], [`media`],
//! [`dataurl`], [`b64`]) and the provider shapes ([`shapes`]) are usable on
//! their own.
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

pub mod accounting;
pub mod b64;
pub mod check;
pub mod cli;
pub mod commands;
pub mod convert;
pub mod dataurl;
pub mod encode;
pub mod error;
pub mod fetch;
pub mod generate;
pub mod io;
pub mod json;
pub mod media;
pub mod output;
pub mod part;
pub mod pipeline;
pub mod profile;
pub mod resize;
pub mod scan;
pub mod shapes;
pub mod size;
pub mod subdoc;
pub mod transcript;
pub mod validate;

pub use error::{Error, ExitStatus, Result};
pub use part::{MediaPart, Part, Source};
pub use shapes::Shape;

use std::ffi::OsString;

use clap::{CommandFactory, FromArgMatches};

/// How a run of the command line ended, for `main` to turn into an exit code.
pub enum Outcome {
    /// The command ran; exit with this status.
    Status(ExitStatus),
    /// clap printed help or a version (exit 0), or a usage error (exit 2).
    Clap(clap::Error),
    /// The command failed.
    Failed(Error),
}

/// Parses `args` and runs the command.
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
