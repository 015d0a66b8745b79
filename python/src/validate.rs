//! `validate`: a path (a file or a folder walked as the CLI walks it) or an
//! in-memory document, through [`partkit::validate`], findings as tuples.

use std::path::PathBuf;

use partkit::validate::{
    self, CheckOptions, Finding, InputReport, KindChoice, Limits, ValidateOptions,
};
use partkit::{Depth, Layout};
use pyo3::prelude::*;

use crate::document;
use crate::errors::{of_error, usage};
use crate::options::{choice, from_shape, profile, shape, ValidateArgs};
use crate::pool;

/// `(path, line, severity, rule, pointer, message, interaction, side,
/// status)`, as `--format json` has them; the last three for a body of a
/// recording only.
type Row = (
    String,
    usize,
    &'static str,
    &'static str,
    String,
    String,
    Option<usize>,
    Option<&'static str>,
    Option<u16>,
);

/// Checks the files at `path` (a folder: its `*.json` and `*.jsonl`).
#[pyfunction]
pub fn validate_path(py: Python<'_>, path: PathBuf, options: ValidateArgs) -> PyResult<Vec<Row>> {
    let options = options.options()?;
    let reports = py.detach(|| {
        pool::run(None, || {
            let mut inputs = Vec::new();
            for input in validate::collect_inputs(&[path]) {
                inputs.push(input?);
            }
            Ok(validate::validate_inputs(&inputs, &options, || {}))
        })
    });
    rows(reports.map_err(usage)?.map_err(of_error)?)
}

/// Checks a document (or JSON Lines) held in memory.
#[pyfunction]
pub fn validate_document(
    py: Python<'_>,
    doc: &Bound<'_, PyAny>,
    options: ValidateArgs,
) -> PyResult<Vec<Row>> {
    let options = options.options()?;
    let (text, _) = document::text_of(doc, "doc_or_path")?;
    let report = py
        .detach(|| {
            pool::run(None, || {
                validate::validate_bytes(text.to_vec(), "<document>", &options)
            })
        })
        .map_err(usage)?;
    rows(vec![report])
}

/// The findings of every report, or the first input's error.
fn rows(reports: Vec<InputReport>) -> PyResult<Vec<Row>> {
    let mut rows = Vec::new();
    for report in reports {
        if let Some(error) = report.error.or(report.too_large.into_iter().next()) {
            return Err(of_error(error));
        }
        rows.extend(report.findings.into_iter().map(row));
    }
    Ok(rows)
}

fn row(finding: Finding) -> Row {
    let message = partkit::internals::bound(&finding.message).into_owned();
    let within = finding.within.as_ref();
    let (interaction, side, status) = (
        within.map(|place| place.interaction),
        within.map(|place| place.side.name()),
        within.and_then(|place| place.status),
    );
    (
        finding.path,
        finding.line,
        finding.status.as_str(),
        finding.rule,
        finding.pointer,
        message,
        interaction,
        side,
        status,
    )
}

impl ValidateArgs {
    /// The options `partkit validate [--profile P] [--target T] [--kind K]
    /// [--from F] [--deep]` makes.
    fn options(&self) -> PyResult<ValidateOptions> {
        let profile = self.profile.as_deref().map(profile).transpose()?;
        let from = from_shape(&self.from_)?;
        let kind = match (self.kind.as_deref(), from) {
            (Some("reply"), _) => KindChoice::Reply,
            (Some("parts"), _) => KindChoice::Parts,
            (Some("rollout"), _) => KindChoice::Rollout,
            (Some("transcript"), shape) | (None, shape @ Some(_)) => KindChoice::Transcript(shape),
            (None, None) => KindChoice::Auto,
            (Some(other), _) => {
                return Err(choice(
                    "kind",
                    other,
                    &["reply", "parts", "transcript", "rollout"],
                ))
            }
        };
        Ok(ValidateOptions {
            max_document: partkit::DEFAULT_MAX_DOCUMENT,
            check: CheckOptions {
                kind,
                target: self
                    .target
                    .as_deref()
                    .map(|name| shape("target", name))
                    .transpose()?,
                depth: if self.deep {
                    Depth::Full
                } else {
                    Depth::Header
                },
                limits: Limits::with_profile(profile, None, None, None),
                ..CheckOptions::default()
            },
            layout: Layout::Auto,
            ignore: Vec::new(),
        })
    }
}
