//! The command layer: adapters only. Each subcommand's module maps clap's "as
//! typed" arguments to a library operation's options, calls it, and prints
//! what it returns through the one [`Printer`]; no knowledge of partkit's
//! formats lives here.

mod convert;
mod encode;
mod inspect;
mod lines;
mod resize;
mod split;
mod validate;

use clap::ArgMatches;

use crate::accounting::OnError;
use crate::cli::{AtArgs, Cli, Command, OnErrorArgs, ThreadsArgs};
use crate::error::{Error, ExitStatus, Result};
use crate::output::{JsonStyle, Printer};
use crate::subdoc::{At, AtMissing};

/// Runs a parsed command line. `matches` is needed where the order of
/// different options matters (`encode -t`).
pub fn run(cli: Cli, matches: &ArgMatches) -> Result<ExitStatus> {
    let style = if cli.global.pretty {
        JsonStyle::Pretty
    } else if cli.global.compact {
        JsonStyle::Compact
    } else {
        JsonStyle::Auto
    };
    let printer = Printer::new(style, cli.global.quiet);
    if let Some(max) = cli.global.max_document_size {
        crate::io::set_max_document(max);
    }
    match cli.command {
        Command::Encode(args) => {
            let sub = matches.subcommand_matches("encode").unwrap_or(matches);
            encode::run(args, sub, &printer)
        }
        Command::Split(args) => split::run(args, &printer),
        Command::Validate(args) => validate::run(args, &printer),
        Command::Inspect(args) => inspect::run(args, &printer),
        Command::Resize(args) => resize::run(args, &printer),
        Command::Convert(args) => convert::run(args, &printer),
        Command::Generate(args) => {
            for path in crate::generate::write_all(&args.dir)? {
                printer.note(&format!("wrote {}", path.display()));
            }
            Ok(ExitStatus::Success)
        }
    }
}

/// The `--at` pointers, checked.
fn at_of(args: &AtArgs) -> Result<At> {
    let missing = match args.at_missing {
        crate::cli::AtMissingArg::Error => AtMissing::Error,
        crate::cli::AtMissingArg::Skip => AtMissing::Skip,
    };
    At::new(&args.at, missing).map_err(|e| Error::usage(e.to_string()))
}

fn on_error_of(args: &OnErrorArgs) -> OnError {
    match args.on_error {
        crate::cli::OnErrorArg::Skip => OnError::Skip,
        crate::cli::OnErrorArg::Null => OnError::Null,
        crate::cli::OnErrorArg::Stop => OnError::Stop,
    }
}

/// Starts the worker pool: `-j N` workers, else as many as
/// `RAYON_NUM_THREADS` says, else one per core. (Started now rather than at
/// the first parallel step, so that a run's threads are known from its start.)
fn set_threads(args: &ThreadsArgs) {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(threads) = args.threads {
        builder = builder.num_threads(usize::from(threads));
    }
    // A second run in one process (a library caller) keeps the first pool.
    let _ = builder.build_global();
}
