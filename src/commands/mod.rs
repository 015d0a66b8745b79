//! The command layer: adapters only. Each subcommand's module maps clap's "as
//! typed" arguments to a library operation's options, calls it, and prints
//! what it returns through the one [`Printer`]; no knowledge of partkit's
//! formats lives here.

mod config;
mod convert;
mod encode;
mod inspect;
mod lines;
mod recorded;
mod resize;
mod split;
mod validate;
mod view;

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
    // A warning about a file written goes where every warning goes, and a
    // run stopped by a signal removes its temporary files.
    let warner = printer.clone();
    crate::io::replace::for_command_line(move |message| warner.warn(message));
    // The most one document may be, handed to every operation in its
    // options (`--max-document-size`).
    let max_document = cli
        .global
        .max_document_size
        .unwrap_or(crate::io::DEFAULT_MAX_DOCUMENT);
    let sub = matches
        .subcommand()
        .map_or(matches, |(_, sub_matches)| sub_matches);
    // Only the commands with settings read the config: a broken file does
    // not stop `encode`.
    let loaded = || {
        let cwd = std::env::current_dir()
            .map_err(|e| Error::usage(format!("cannot tell the working folder: {e}")))?;
        let loaded = crate::config::load(cli.global.config.as_deref(), cli.global.no_config, &cwd)?;
        Ok::<_, Error>((loaded, cwd))
    };
    match cli.command {
        Command::Encode(args) => encode::run(args, sub, max_document, &printer),
        Command::Split(args) => split::run(args, max_document, &printer),
        Command::Validate(args) if args.list_rules => validate::list_rules(args.format, &printer),
        Command::Validate(args) => validate::run(args, sub, &loaded()?, max_document, &printer),
        Command::Inspect(args) => inspect::run(args, max_document, &printer),
        Command::Resize(mut args) => {
            crate::config::apply::resize(&mut args, sub, &loaded()?.0);
            resize::run(args, max_document, &printer)
        }
        Command::Convert(mut args) => {
            crate::config::apply::convert(&mut args, sub, &loaded()?.0);
            convert::run(args, max_document, &printer)
        }
        Command::View(args) => view::run(args, max_document, &printer),
        Command::Config(_) => config::run(&loaded()?, &printer),
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
