//! `partkit validate`: maps the arguments to [`ValidateOptions`], runs the
//! library's checks ([`crate::validate`]) and prints the findings and the
//! summary.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use clap::ArgMatches;

use super::{at_of, set_threads};
use crate::cli::{DocKindArg, FindingFormat, ValidateArgs};
use crate::config::Loaded;
use crate::error::{Error, ExitStatus, Result};
use crate::io::{Input, Layout};
use crate::output::{stdout_error, Printer};
use crate::size::group_digits;
use crate::validate::{
    self, CheckOptions, InputReport, KindChoice, Limits, Status, ValidateOptions,
};

/// Runs `partkit validate`.
pub fn run(
    mut args: ValidateArgs,
    matches: &ArgMatches,
    (loaded, cwd): &(Loaded, PathBuf),
    max_document: u64,
    printer: &Printer,
) -> Result<ExitStatus> {
    let plan = crate::config::apply::validate(&mut args, matches, loaded, cwd);
    if args.show_config {
        return show_config(&plan, loaded, cwd, printer);
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
    let options = options_of(&args, max_document)?;
    set_threads(&args.threads);
    if args.fix && (args.paths.is_empty() || args.paths.iter().any(|p| p.as_os_str() == "-")) {
        return Err(Error::usage("--fix writes files back; it cannot fix stdin"));
    }
    let started = Instant::now();
    let mut unreadable = 0usize;
    // Named files go through the config's include and exclude too, so that a
    // pre-commit hook's list of changed files follows them.
    let (named, left_out): (Vec<PathBuf>, Vec<PathBuf>) = args
        .paths
        .iter()
        .cloned()
        .partition(|path| path.as_os_str() == "-" || !path.is_file() || plan.takes_named(path));
    if !args.paths.is_empty() && named.is_empty() {
        printer.note(&format!(
            "checked nothing: the config's include/exclude leave out every path named ({})",
            crate::config::show::source_name(loaded)
        ));
        return Ok(ExitStatus::Success);
    }
    let mut inputs = Vec::new();
    for input in validate::collect_inputs_with(&named, plan.selection()) {
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
    // Each input's options: the run's, or its overrides' (one set per distinct
    // list of matching overrides).
    let mut sets: Vec<(Vec<usize>, ValidateOptions)> = vec![(Vec::new(), options)];
    let mut which = Vec::with_capacity(inputs.len());
    for input in &inputs {
        let matching = match input {
            Input::Path(path) => plan.overrides_for(path),
            Input::Stdin => Vec::new(),
        };
        let index = match sets.iter().position(|(key, _)| *key == matching) {
            Some(index) => index,
            None => {
                let options = options_of(&plan.with_overrides(&args, &matching), max_document)?;
                sets.push((matching, options));
                sets.len() - 1
            }
        };
        which.push(index);
    }
    let reports = validate::validate_inputs_with(&inputs, |i| &sets[which[i]].1, || bar.inc(1));
    bar.finish_and_clear();
    let totals = print_reports(reports, args.format, printer)?;
    unreadable += totals.unreadable;
    let mut summary = totals.summary(started, unreadable);
    if !left_out.is_empty() {
        summary.push_str(&format!(
            "; {} left out by the include/exclude of {}",
            crate::size::count_of(left_out.len(), "path"),
            crate::config::show::source_name(loaded)
        ));
    }
    printer.note(&summary);
    Ok(if unreadable + totals.unwritable + totals.too_large > 0 {
        ExitStatus::Error
    } else if args.exit_zero {
        ExitStatus::Success
    } else if totals.errors > 0 || (args.deny_warnings && totals.warnings > 0) {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    })
}

/// `--show-config`: the validate settings in effect and their sources.
fn show_config(
    plan: &crate::config::apply::ValidatePlan,
    loaded: &Loaded,
    cwd: &std::path::Path,
    printer: &Printer,
) -> Result<ExitStatus> {
    let mut out = printer.stdout();
    out.write_all(crate::config::show::validate(plan, loaded, cwd).as_bytes())
        .map_err(stdout_error)?;
    out.flush().map_err(stdout_error)?;
    Ok(ExitStatus::Success)
}

/// `--list-rules`: the rule table, one rule a line.
pub(super) fn list_rules(format: FindingFormat, printer: &Printer) -> Result<ExitStatus> {
    let mut out = printer.stdout();
    for rule in validate::RULES {
        let line = match format {
            // The rule table is for people; CI formats print it as text.
            FindingFormat::Text | FindingFormat::Github | FindingFormat::Sarif => format!(
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
    Ok(ExitStatus::Success)
}

/// The library's options, as the arguments ask.
fn options_of(args: &ValidateArgs, max_document: u64) -> Result<ValidateOptions> {
    let profile = args.profile.map(|p| p.profile());
    Ok(ValidateOptions {
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
            limits: Limits::with_profile(profile, args.max_bytes, args.max_dim, args.max_images),
            fix: args.fix,
            at: at_of(&args.at)?,
        },
        layout: if args.jsonl {
            Layout::JsonLines
        } else {
            Layout::Auto
        },
        ignore: args.ignore.clone(),
        max_document,
    })
}

/// What the run found, added up for the summary.
#[derive(Default)]
struct Totals {
    documents: usize,
    skipped: usize,
    images: usize,
    errors: usize,
    warnings: usize,
    fixed: usize,
    /// Inputs that could not be read.
    unreadable: usize,
    /// JSON Lines lines passed over for their size.
    too_large: usize,
    /// Inputs whose fixes could not be written back (`--fix`).
    unwritable: usize,
}

/// Prints every finding (and each input's error, on stderr) in input order.
fn print_reports(
    reports: Vec<InputReport>,
    format: FindingFormat,
    printer: &Printer,
) -> Result<Totals> {
    let mut out = printer.stdout();
    let mut totals = Totals::default();
    // SARIF is one log of every finding, written once all are known.
    let mut sarif: Vec<crate::validate::Finding> = Vec::new();
    // Guesses of a document's shape, once per kind of guess.
    let mut notes: Vec<(String, String, usize)> = Vec::new();
    for report in reports {
        for (note, first, count) in report.notes {
            match notes.iter_mut().find(|(seen, _, _)| *seen == note) {
                Some((_, _, total)) => *total += count,
                None => notes.push((note, first, count)),
            }
        }
        totals.documents += report.documents;
        totals.skipped += report.skipped;
        totals.images += report.images;
        for finding in &report.findings {
            match finding.status {
                Status::Error => totals.errors += 1,
                Status::Warning => totals.warnings += 1,
                Status::Fixed => totals.fixed += 1,
            }
            let line = match format {
                FindingFormat::Text => crate::output::sanitize(&finding.to_line()).into_owned(),
                FindingFormat::Json => finding.to_json().to_string(),
                FindingFormat::Github => finding.to_github(),
                FindingFormat::Sarif => {
                    sarif.push(finding.clone());
                    continue;
                }
            };
            writeln!(out, "{line}").map_err(stdout_error)?;
        }
        if !report.too_large.is_empty() {
            out.flush().map_err(stdout_error)?;
        }
        for error in report.too_large {
            totals.too_large += 1;
            printer.error(&format!("{:#}", anyhow::Error::from(error)));
        }
        if let Some(error) = report.error {
            match error {
                Error::Write { .. } => totals.unwritable += 1,
                _ => totals.unreadable += 1,
            }
            // The error goes to stderr after the findings before it.
            out.flush().map_err(stdout_error)?;
            printer.error(&format!("{:#}", anyhow::Error::from(error)));
        }
    }
    if format == FindingFormat::Sarif {
        let cwd = std::env::current_dir().unwrap_or_default();
        let log = crate::validate::sarif::log(&sarif, &cwd);
        crate::output::write_json(&mut out, &log, printer.is_pretty()).map_err(stdout_error)?;
        writeln!(out).map_err(stdout_error)?;
    }
    out.flush().map_err(stdout_error)?;
    for (note, first, count) in notes {
        let more = match count - 1 {
            0 => String::new(),
            more => format!(
                " (and {} like it)",
                crate::size::count_of(more, "more document")
            ),
        };
        printer.warn(&format!("{first}: {note}{more}"));
    }
    Ok(totals)
}

impl Totals {
    /// `checked 3 documents, 2 images in 0.1 s: 1 error; …`.
    fn summary(&self, started: Instant, unreadable: usize) -> String {
        let plural = crate::size::count_of;
        let mut summary = format!(
            "checked {}, {} in {:.1} s: {}",
            plural(self.documents, "document"),
            plural(self.images, "image"),
            started.elapsed().as_secs_f64(),
            plural(self.errors, "error")
        );
        if self.warnings > 0 {
            summary.push_str(&format!(", {}", plural(self.warnings, "warning")));
        }
        if self.fixed > 0 {
            summary.push_str(&format!(", {} fixed", group_digits(self.fixed as u64)));
        }
        if self.skipped > 0 {
            summary.push_str(&format!(
                "; {} skipped (not a tool reply, canonical parts or a transcript)",
                plural(self.skipped, "document")
            ));
        }
        if self.too_large > 0 {
            summary.push_str(&format!(
                "; {} over --max-document-size, not checked",
                plural(self.too_large, "line")
            ));
        }
        if unreadable > 0 {
            summary.push_str(&format!(
                "; {} could not be read",
                plural(unreadable, "path")
            ));
        }
        if self.unwritable > 0 {
            summary.push_str(&format!(
                "; {} could not be written",
                plural(self.unwritable, "path")
            ));
        }
        summary
    }
}
