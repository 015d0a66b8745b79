//! The checks behind `partkit validate` (docs/commands/validate.md): pre-commit checks on
//! fixtures and recordings. [`ValidateOptions`] in, one [`InputReport`] of
//! [`Finding`]s per input out ([`validate_inputs`]); one document alone is
//! [`check_document`]. The command line only maps its arguments to the options
//! and prints.
//!
//! Each input is read document by document (JSON Lines one line at a time);
//! files are checked in parallel, and findings come back in input order.

pub mod acceptance;
mod arguments;
mod compiled;
mod document;
mod exchanges;
mod formats;
pub mod kit;
mod locate;
mod media;
mod options;
mod recorded;
mod report;
pub mod rules;
pub mod sarif;
mod scope;
mod transcript;

use std::fs;
use std::io::{BufRead, Cursor};
use std::path::{Path, PathBuf};

use rayon::prelude::*;

pub use document::{check_document, check_shared, recognize};
pub use options::{CheckOptions, DocKind, KindChoice, Limits};
pub use report::{DocReport, Issue, Patch};
pub use rules::{Rule, Severity, RULES};

use crate::document::{Document, Open};
use crate::error::{Error, Result};
use crate::io::{Documents, Input, Layout};
use crate::pipeline::Item;

/// Everything `validate` needs to know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidateOptions {
    pub check: CheckOptions,
    pub layout: Layout,
    /// Rule ids not to report.
    pub ignore: Vec<String>,
    /// The most bytes one document may have (`--max-document-size`,
    /// docs/limits.md).
    pub max_document: u64,
}

/// How a reported finding stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Error,
    Warning,
    /// Repaired by `--fix`.
    Fixed,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Error => "error",
            Status::Warning => "warning",
            Status::Fixed => "fixed",
        }
    }
}

/// One finding, located.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub path: String,
    /// The line the document starts on.
    pub line: usize,
    pub status: Status,
    pub rule: &'static str,
    pub pointer: String,
    pub message: String,
    /// Where in a recording the document is (a cassette's interaction and
    /// side, with the status it was answered), when it came from one.
    pub within: Option<crate::recorded::Place>,
}

impl Finding {
    /// `path:line: error[rule-id] /json/pointer: message` (no pointer for the
    /// document as a whole).
    pub fn to_line(&self) -> String {
        let pointer = if self.pointer.is_empty() {
            String::new()
        } else {
            format!(" {}", self.pointer)
        };
        let within = self
            .within
            .as_ref()
            .map(|place| format!(" {}", place.describe()))
            .unwrap_or_default();
        format!(
            "{}:{}: {}[{}]{within}{pointer}: {}",
            self.path,
            self.line,
            self.status.as_str(),
            self.rule,
            self.message
        )
    }

    /// The `--format json` object.
    pub fn to_json(&self) -> serde_json::Value {
        let mut value = serde_json::json!({
            "path": self.path,
            "line": self.line,
            "severity": self.status.as_str(),
            "rule": self.rule,
            "pointer": self.pointer,
            "message": crate::echo::bound(&self.message),
        });
        if let (Some(place), serde_json::Value::Object(map)) = (&self.within, &mut value) {
            map.insert("interaction".into(), place.interaction.into());
            map.insert("side".into(), place.side.name().into());
            map.insert("status".into(), place.status.into());
        }
        value
    }
}

/// What checking one input found.
#[derive(Debug, Default)]
pub struct InputReport {
    pub documents: usize,
    pub skipped: usize,
    pub images: usize,
    pub findings: Vec<Finding>,
    /// How documents' shapes were told where it took a guess: the note, the
    /// first document it concerns (`path:line`) and how many it concerns.
    pub notes: Vec<(String, String, usize)>,
    /// The input could not be read (or written back by `--fix`).
    pub error: Option<Error>,
    /// JSON Lines lines over the document size limit, passed over (the
    /// lines around them are checked): each one's error.
    pub too_large: Vec<Error>,
}

impl InputReport {
    pub(crate) fn failed(error: Error) -> InputReport {
        InputReport {
            error: Some(error),
            ..InputReport::default()
        }
    }
}

/// Which files a folder walk takes, and which folders it enters: a caller's
/// include and exclude rules (the command line's config file).
pub trait Selection: Send + Sync {
    /// Whether to walk into this folder (met in a walk, below a named folder).
    fn enter(&self, dir: &Path) -> bool;
    /// Whether to check this file, met in a walk.
    fn take(&self, file: &Path) -> bool;
}

/// The walk without rules: every folder, every `*.json` and `*.jsonl` file.
pub struct JsonFiles;

impl Selection for JsonFiles {
    fn enter(&self, _dir: &Path) -> bool {
        true
    }
    fn take(&self, file: &Path) -> bool {
        is_json_name(file)
    }
}

/// Whether a folder walk takes the file by its name: `.json` and `.jsonl`
/// documents, and the names recordings are kept under (`.yaml`, `.yml`,
/// `.har`, gzipped or not: [`crate::recorded::is_recording_name`]), in any
/// case.
pub fn is_json_name(path: &Path) -> bool {
    path.extension()
        .is_some_and(|ext| ext.eq_ignore_ascii_case("json") || ext.eq_ignore_ascii_case("jsonl"))
        || crate::recorded::is_recording_name(path)
}

/// Expands the paths to check: files as given, directories walked for `*.json`
/// and `*.jsonl` (honouring `.gitignore`, sorted by name), `-` for stdin.
/// Paths that do not exist come back as errors, in place.
pub fn collect_inputs(paths: &[PathBuf]) -> Vec<Result<Input>> {
    collect_inputs_with(paths, std::sync::Arc::new(JsonFiles))
}

/// [`collect_inputs`], walking folders as `selection` says. Named files are
/// taken as they are: a caller filters them first.
pub fn collect_inputs_with(
    paths: &[PathBuf],
    selection: std::sync::Arc<dyn Selection>,
) -> Vec<Result<Input>> {
    if paths.is_empty() {
        return vec![Ok(Input::Stdin)];
    }
    let mut inputs = Vec::new();
    for path in paths {
        if path.as_os_str() == "-" {
            inputs.push(Ok(Input::Stdin));
            continue;
        }
        match fs::metadata(path) {
            Err(source) => inputs.push(Err(Error::Read {
                path: path.clone(),
                source,
            })),
            Ok(metadata) if metadata.is_dir() => walk(path, &selection, &mut inputs),
            Ok(_) => inputs.push(Ok(Input::Path(path.clone()))),
        }
    }
    inputs
}

fn walk(dir: &Path, selection: &std::sync::Arc<dyn Selection>, inputs: &mut Vec<Result<Input>>) {
    let entering = selection.clone();
    let top = dir.to_path_buf();
    let walker = ignore::WalkBuilder::new(dir)
        .require_git(false)
        .sort_by_file_name(|a, b| a.cmp(b))
        .filter_entry(move |entry| {
            let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
            !is_dir || entry.path() == top || entering.enter(entry.path())
        })
        .build();
    for entry in walker {
        match entry {
            Ok(entry) => {
                let path = entry.path();
                let is_file = entry.file_type().is_some_and(|t| t.is_file());
                if is_file && selection.take(path) {
                    inputs.push(Ok(Input::Path(path.to_path_buf())));
                }
            }
            Err(error) => inputs.push(Err(Error::Read {
                path: dir.to_path_buf(),
                source: std::io::Error::other(error.to_string()),
            })),
        }
    }
}

/// Checks every input, in parallel, returning one report per input in order.
pub fn validate_inputs(
    inputs: &[Input],
    options: &ValidateOptions,
    on_done: impl Fn() + Sync,
) -> Vec<InputReport> {
    validate_inputs_with(inputs, |_| options, on_done)
}

/// [`validate_inputs`] with options of each input's own (`options_of(i)` for
/// `inputs[i]`): per-path settings.
pub fn validate_inputs_with<'o>(
    inputs: &[Input],
    options_of: impl Fn(usize) -> &'o ValidateOptions + Sync,
    on_done: impl Fn() + Sync,
) -> Vec<InputReport> {
    inputs
        .par_iter()
        .enumerate()
        .map(|(index, input)| {
            let options = options_of(index);
            let report = if options.check.fix {
                fix_input(input, options)
            } else {
                validate_input(input, options)
            };
            on_done();
            report
        })
        .collect()
}

/// Checks one input, document by document, without keeping more than a batch of
/// documents in memory.
pub fn validate_input(input: &Input, options: &ValidateOptions) -> InputReport {
    if let Some(report) = recorded::validate_if_recording(input, options) {
        return report;
    }
    if let Some(report) = validate_large_file(input, options) {
        return report;
    }
    let documents = match Documents::open(input, options.layout, options.max_document) {
        Ok(documents) => documents,
        Err(error) => return InputReport::failed(error),
    };
    let mut report = check_documents(documents, &input.label(), options);
    empty_json_file(input, &mut report);
    report
}

/// Checks documents a caller holds in memory (JSON, or JSON Lines), named
/// `label` in the findings: the Python package's documents.
pub fn validate_bytes(bytes: Vec<u8>, label: &str, options: &ValidateOptions) -> InputReport {
    let reader = Box::new(std::io::Cursor::new(bytes));
    let documents =
        Documents::from_reader(reader, label.into(), options.layout, options.max_document);
    check_documents(documents, label, options)
}

/// Checks every document of `documents`, in parallel, in input order.
fn check_documents(
    mut documents: Documents,
    label: &str,
    options: &ValidateOptions,
) -> InputReport {
    let mut report = InputReport::default();
    let outcome = crate::pipeline::for_each_document_bytes(
        &mut documents,
        |bytes| scope::check(bytes, &options.check),
        |line, _, item| {
            match item {
                Item::Document(doc) => record(&mut report, label, line, doc, options, false),
                Item::TooLarge(error) => report.too_large.push(error),
                Item::Blank => {}
            }
            Ok(crate::accounting::Flow::Continue)
        },
    );
    if let Err(error) = outcome {
        report.error = Some(error);
    }
    report
}

/// An empty (or blank) `.json` file is not JSON: a finding, with or without
/// `--fix` (an empty `.jsonl` file holds no lines, which is fine).
fn empty_json_file(input: &Input, report: &mut InputReport) {
    let is_json = matches!(input, Input::Path(path) if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("json")));
    if is_json && report.error.is_none() && report.documents + report.skipped == 0 {
        report.documents = 1;
        report.findings.push(Finding {
            path: input.label(),
            line: 1,
            status: Status::Error,
            rule: "invalid-json",
            pointer: String::new(),
            message: "the file holds no JSON document".to_string(),
            within: None,
        });
    }
}

/// A large file holding one document, checked without holding it
/// ([`document::check_lent`]); `None` where the usual way checks it.
fn validate_large_file(input: &Input, options: &ValidateOptions) -> Option<InputReport> {
    let Input::Path(path) = input else {
        return None;
    };
    let open = Open {
        whole: options.layout != Layout::JsonLines && document::takes_whole(&options.check),
        max_document: options.max_document,
    };
    let Document::Lent(file) = Document::open(Some(path), open) else {
        return None;
    };
    let doc = document::check_lent(file, &options.check)?;
    let mut report = InputReport::default();
    record(&mut report, &input.label(), 1, doc, options, false);
    Some(report)
}

/// Checks one file and writes the repairs back, atomically.
pub fn fix_input(input: &Input, options: &ValidateOptions) -> InputReport {
    if let Some(report) = recorded::validate_if_recording(input, options) {
        return report;
    }
    let Input::Path(path) = input else {
        return InputReport::failed(Error::usage(
            "--fix needs files to write back; it cannot fix stdin",
        ));
    };
    // A regular file (or a link to one, whose target is fixed), and what it
    // was before it is read: a change made meanwhile is not written over.
    let (target, seen) = match crate::io::replace::in_place_target(path) {
        Ok(found) => found,
        Err(error) => return InputReport::failed(error),
    };
    let bytes = match input.read_all(None, options.max_document) {
        Ok(bytes) => bytes,
        Err(error) => return InputReport::failed(error),
    };
    let label = input.label();
    let shared = crate::shared::SharedBytes::new(bytes);
    let bytes: &[u8] = &shared;
    let reader: Box<dyn BufRead + Send> = Box::new(Cursor::new(shared.clone()));
    let mut documents =
        Documents::from_reader(reader, path.clone(), options.layout, options.max_document);
    let mut report = InputReport::default();
    let mut patches: Vec<Patch> = Vec::new();
    let mut buffer = Vec::new();
    loop {
        let line = match documents.next_into(&mut buffer) {
            Ok(Some(line)) => line,
            Ok(None) => break,
            Err(error) => return InputReport::failed(error),
        };
        let start = documents.document_offset() as usize;
        let end = if documents.is_json_lines() {
            start + buffer.len()
        } else {
            bytes.len()
        };
        let doc = scope::check(&shared.slice(start..end), &options.check);
        for issue in &doc.issues {
            if let (Some(patch), false) = (&issue.patch, ignored(issue.rule, options)) {
                patches.push(Patch {
                    start: start + patch.start,
                    end: start + patch.end,
                    replacement: patch.replacement.clone(),
                });
            }
        }
        record(&mut report, &label, line, doc, options, true);
    }
    empty_json_file(input, &mut report);
    if !patches.is_empty() {
        patches.sort_by_key(|p| p.start);
        let mut fixed = Vec::with_capacity(bytes.len());
        let mut at = 0;
        for patch in &patches {
            if patch.start < at {
                continue;
            }
            fixed.extend_from_slice(&bytes[at..patch.start]);
            fixed.extend_from_slice(patch.replacement.as_bytes());
            at = patch.end;
        }
        fixed.extend_from_slice(&bytes[at..]);
        if let Err(error) = write_fixed(&target, seen, &fixed) {
            // Nothing was fixed: the findings are what they were.
            for finding in &mut report.findings {
                if finding.status == Status::Fixed {
                    finding.status = match rules::get(finding.rule).severity {
                        Severity::Error => Status::Error,
                        Severity::Warning => Status::Warning,
                    };
                }
            }
            report.error = Some(error);
        }
    }
    report
}

/// Writes a fixed file over `target`, if it is still as it was read.
fn write_fixed(target: &Path, seen: crate::io::replace::Seen, bytes: &[u8]) -> Result<(), Error> {
    crate::io::replace::Replacement::in_place(target, seen)?.write_whole(bytes)
}

fn ignored(rule: &str, options: &ValidateOptions) -> bool {
    options.ignore.iter().any(|r| r == rule)
}

pub(crate) fn record(
    report: &mut InputReport,
    label: &str,
    line: usize,
    doc: DocReport,
    options: &ValidateOptions,
    fixing: bool,
) {
    if doc.skipped {
        // Not checked, but what it still reports (a duplicate key) counts.
        report.skipped += 1;
    } else {
        report.documents += 1;
    }
    if let Some(note) = doc.note {
        match report.notes.iter_mut().find(|(seen, _, _)| *seen == note) {
            Some((_, _, count)) => *count += 1,
            None => report.notes.push((note, format!("{label}:{line}"), 1)),
        }
    }
    report.images += doc.images;
    for issue in doc.issues {
        if ignored(issue.rule, options) {
            continue;
        }
        let status = if fixing && issue.patch.is_some() {
            Status::Fixed
        } else {
            match issue.severity.unwrap_or(rules::get(issue.rule).severity) {
                Severity::Error => Status::Error,
                Severity::Warning => Status::Warning,
            }
        };
        report.findings.push(Finding {
            path: label.to_string(),
            line,
            status,
            rule: issue.rule,
            pointer: issue.pointer,
            message: issue.message,
            within: None,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_in_memory_are_checked_as_a_file_s_are() {
        let options = ValidateOptions {
            check: CheckOptions::default(),
            layout: Layout::Auto,
            ignore: Vec::new(),
            max_document: crate::io::DEFAULT_MAX_DOCUMENT,
        };
        let lines = concat!(
            r#"{"tool_output_images": []}"#,
            "\n",
            r#"{"tool_output_images": [{"image_url": "data:image/png;base64,AAAA"}]}"#,
            "\n{\n"
        );
        let report = validate_bytes(lines.as_bytes().to_vec(), "<document>", &options);
        let found: Vec<(&str, usize, &str, &str)> = report
            .findings
            .iter()
            .map(|f| (f.path.as_str(), f.line, f.rule, f.pointer.as_str()))
            .collect();
        assert_eq!(
            found,
            [
                (
                    "<document>",
                    2,
                    "media-type-mismatch",
                    "/tool_output_images/0/image_url"
                ),
                ("<document>", 3, "invalid-json", ""),
            ]
        );
        assert_eq!(report.documents, 3);
        assert!(report.error.is_none());
    }
}
