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
pub mod validate;

use std::io::{self, BufWriter, Write};

use clap::ArgMatches;

use crate::accounting::OnError;
use crate::cli::{AtArgs, Cli, Command, OnErrorArgs, ThreadsArgs, ValidateArgs};
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
    match cli.command {
        Command::Encode(args) => {
            let sub = matches.subcommand_matches("encode").unwrap_or(matches);
            encode::run(args, sub, &printer)
        }
        Command::Split(args) => split::run(args, &printer),
        Command::Validate(args) => run_validate(args, &printer),
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

// Kept under its old name for `run_validate`.
use crate::output::stdout_error;

fn run_validate(args: ValidateArgs, printer: &Printer) -> Result<ExitStatus> {
    use crate::cli::{DocKindArg, FindingFormat};
    use crate::io::Layout;
    use crate::size::group_digits;
    use validate::{CheckOptions, KindChoice, Limits, Status, ValidateOptions};

    let mut out = BufWriter::new(io::stdout().lock());
    if args.list_rules {
        for rule in validate::RULES {
            let line = match args.format {
                FindingFormat::Text => format!(
                    "{:<26} {:<8} {:<8} {}",
                    rule.id,
                    rule.severity.as_str(),
                    if rule.fixable { "fixable" } else { "-" },
                    rule.summary
                ),
                FindingFormat::Json => serde_json::json!({
                    "rule": rule.id,
                    "severity": rule.severity.as_str(),
                    "fixable": rule.fixable,
                    "summary": rule.summary,
                })
                .to_string(),
            };
            writeln!(out, "{line}").map_err(stdout_error)?;
        }
        out.flush().map_err(stdout_error)?;
        return Ok(ExitStatus::Success);
    }
    if let Some(unknown) = args
        .ignore
        .iter()
        .find(|id| validate::rules::find(id).is_none())
    {
        return Err(Error::usage(format!(
            "--ignore {unknown}: no such rule (see partkit validate --list-rules)"
        )));
    }
    let profile = args.profile.map(|p| p.profile());
    let options = ValidateOptions {
        check: CheckOptions {
            kind: match (args.kind, args.from.and_then(|f| f.shape())) {
                (Some(DocKindArg::Reply), _) => KindChoice::Reply,
                (Some(DocKindArg::Parts), _) => KindChoice::Parts,
                (Some(DocKindArg::Rollout), _) => KindChoice::Rollout,
                (Some(DocKindArg::Transcript), shape) | (None, shape @ Some(_)) => {
                    KindChoice::Transcript(shape)
                }
                (None, None) => KindChoice::Auto,
            },
            target: args.target,
            depth: if args.deep {
                crate::check::Depth::Full
            } else {
                crate::check::Depth::Header
            },
            limits: Limits {
                profile,
                max_bytes: args.max_bytes,
                max_dim: args.max_dim.or(profile.and_then(|p| p.max_dim)),
                max_images: args.max_images.or(profile.and_then(|p| p.max_images)),
            },
            fix: args.fix,
            at: at_of(&args.at)?,
        },
        layout: if args.jsonl {
            Layout::JsonLines
        } else {
            Layout::Auto
        },
        ignore: args.ignore.clone(),
    };
    set_threads(&args.threads);
    if args.fix && (args.paths.is_empty() || args.paths.iter().any(|p| p.as_os_str() == "-")) {
        return Err(Error::usage("--fix writes files back; it cannot fix stdin"));
    }
    let started = std::time::Instant::now();
    let mut unreadable = 0usize;
    let mut inputs = Vec::new();
    for input in validate::collect_inputs(&args.paths) {
        match input {
            Ok(input) => inputs.push(input),
            Err(error) => {
                unreadable += 1;
                printer.error(&format!("{:#}", anyhow::Error::from(error)));
            }
        }
    }
    let bar = printer.progress(inputs.len() as u64, "validating");
    if inputs.len() < 2 {
        bar.finish_and_clear();
    }
    let reports = validate::validate_inputs(&inputs, &options, || bar.inc(1));
    bar.finish_and_clear();
    let (mut documents, mut skipped, mut images) = (0, 0, 0);
    let (mut errors, mut warnings, mut fixed) = (0, 0, 0);
    for report in reports {
        documents += report.documents;
        skipped += report.skipped;
        images += report.images;
        for finding in &report.findings {
            match finding.status {
                Status::Error => errors += 1,
                Status::Warning => warnings += 1,
                Status::Fixed => fixed += 1,
            }
            let line = match args.format {
                FindingFormat::Text => crate::output::sanitize(&finding.to_line()).into_owned(),
                FindingFormat::Json => finding.to_json().to_string(),
            };
            writeln!(out, "{line}").map_err(stdout_error)?;
        }
        if let Some(error) = report.error {
            unreadable += 1;
            out.flush().map_err(stdout_error)?;
            printer.error(&format!("{:#}", anyhow::Error::from(error)));
        }
    }
    out.flush().map_err(stdout_error)?;
    let plural = |n: usize, word: &str| {
        format!(
            "{} {word}{}",
            group_digits(n as u64),
            if n == 1 { "" } else { "s" }
        )
    };
    let mut summary = format!(
        "checked {}, {} in {:.1} s: {}",
        plural(documents, "document"),
        plural(images, "image"),
        started.elapsed().as_secs_f64(),
        plural(errors, "error")
    );
    if warnings > 0 {
        summary.push_str(&format!(", {}", plural(warnings, "warning")));
    }
    if fixed > 0 {
        summary.push_str(&format!(", {} fixed", group_digits(fixed as u64)));
    }
    if skipped > 0 {
        summary.push_str(&format!(
            "; {} skipped (not a tool reply, canonical parts or a transcript)",
            plural(skipped, "document")
        ));
    }
    if unreadable > 0 {
        summary.push_str(&format!(
            "; {} could not be read",
            plural(unreadable, "path")
        ));
    }
    printer.note(&summary);
    Ok(if unreadable > 0 {
        ExitStatus::Error
    } else if errors > 0 || (args.deny_warnings && warnings > 0) {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    })
}
