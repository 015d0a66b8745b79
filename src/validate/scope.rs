//! What part of a document is checked: the values at `--at` pointers, and the
//! conversation of a rollout (an envelope: `contract::envelope`). Either way the checks run on the part
//! alone and their findings (and repairs) are moved back into the document's
//! own coordinates: full pointers from its root, byte ranges of its text.

use super::document::{check_shared, duplicate_keys};
use super::options::{CheckOptions, DocKind, KindChoice};
use super::report::{DocReport, Issue};
use crate::shapes::rollout;
use crate::shared::SharedBytes;
use crate::subdoc::{join, LocateError, MISSING};

/// Checks one document: the whole of it, or the values at the `--at` pointers.
pub fn check(bytes: &SharedBytes, options: &CheckOptions) -> DocReport {
    if !options.at.is_active() {
        return check_shared(bytes, options);
    }
    let located = match options.at.locate(bytes) {
        Ok(located) => located,
        Err(error) => {
            let (rule, pointer) = match &error {
                LocateError::InvalidJson(_) => ("invalid-json", String::new()),
                LocateError::Missing(pointer) => ("at-missing", pointer.clone()),
            };
            let message = match &error {
                LocateError::InvalidJson(message) => message.clone(),
                LocateError::Missing(_) => MISSING.into(),
            };
            return DocReport {
                issues: vec![Issue {
                    rule,
                    pointer,
                    message,
                    patch: None,
                    severity: None,
                }],
                ..DocReport::default()
            };
        }
    };
    let mut report = DocReport {
        skipped: true,
        ..DocReport::default()
    };
    for value in located {
        let part = check_shared(&bytes.slice(value.range.clone()), options);
        // A part of none of the kinds still reports its duplicate keys.
        if !part.skipped {
            report.skipped = false;
            report.kind = report.kind.or(part.kind);
            report.note = report.note.or(part.note);
            report.images += part.images;
        }
        report
            .issues
            .extend(part.issues.into_iter().map(|mut issue| {
                issue.pointer = join(&value.pointer, &issue.pointer);
                if let Some(patch) = issue.patch.as_mut() {
                    patch.start += value.range.start;
                    patch.end += value.range.start;
                }
                issue
            }));
    }
    report
}

/// Checks a rollout line: its conversation (for a NeMo Gym rollout, the
/// request's input and the response's output, with the request's tools, as
/// one OpenAI Responses request), with every rule that applies to one; and, where parsing the line
/// counted `duplicates`, the keys written twice anywhere in it (the
/// conversation's own are among them).
pub fn check_rollout(bytes: &SharedBytes, options: &CheckOptions, duplicates: bool) -> DocReport {
    let line_duplicates = || -> Vec<Issue> {
        match duplicates {
            true => duplicate_keys(bytes).collect(),
            false => Vec::new(),
        }
    };
    let envelope = rollout();
    let Some(conversation) = envelope.open(bytes) else {
        let mut issues = vec![Issue {
            rule: "transcript-invalid",
            pointer: String::new(),
            message: envelope.not_one().into(),
            patch: None,
            severity: None,
        }];
        issues.extend(line_duplicates());
        return DocReport {
            kind: Some(DocKind::Rollout),
            issues,
            ..DocReport::default()
        };
    };
    let inner = CheckOptions {
        kind: KindChoice::Transcript(Some(envelope.conversation_shape())),
        ..options.clone()
    };
    let mut report = check_shared(&SharedBytes::new(conversation.bytes.clone()), &inner);
    report.kind = Some(DocKind::Rollout);
    report.issues.retain(|issue| issue.rule != "duplicate-key");
    for issue in &mut report.issues {
        issue.pointer = conversation.line_pointer(&issue.pointer);
        issue.patch = issue.patch.take().and_then(|mut patch| {
            let range = conversation.line_range(patch.start..patch.end)?;
            patch.start = range.start;
            patch.end = range.end;
            Some(patch)
        });
    }
    report.issues.extend(line_duplicates());
    report
}
