//! `validate` of a recording (docs/recordings.md): each interaction's
//! request and response body checked as a document, streamed responses
//! through the response they assemble to, and every finding located by the
//! line its body starts on, the interaction and the side. The recorded
//! status is evidence: an error in a body the provider answered with a 2xx
//! says so (a partkit rule too strict, or a cassette older than the
//! provider's rules), and a request it refused that partkit finds clean is
//! noted with the provider's own message.

use super::{record, scope, Finding, InputReport, Status, ValidateOptions};
use crate::io::Input;
use crate::recorded::{self, Content, Probe, RecordedBody, Side};
use crate::recording::Recording;
use crate::shared::SharedBytes;

/// The report of `input` when it is a recording (or a file named as one
/// that is not: passed over, or broken); `None` for a document.
pub fn validate_if_recording(input: &Input, options: &ValidateOptions) -> Option<InputReport> {
    let Input::Path(path) = input else {
        return None;
    };
    match recorded::probe(path, options.max_document) {
        Probe::Plain => None,
        Probe::Broken(error) => Some(InputReport::failed(error)),
        Probe::Other(reason) => Some(InputReport {
            skipped: 1,
            notes: vec![(
                format!("not a recording ({reason}); passed over"),
                format!("{}:1", input.label()),
                1,
            )],
            ..InputReport::default()
        }),
        Probe::Recording(recording) => {
            let mut report = validate_recording(&recording, &input.label(), options);
            if options.check.fix {
                push_note(
                    &mut report,
                    "a recording: --fix writes nothing back into a cassette".to_string(),
                    &input.label(),
                    1,
                );
            }
            Some(report)
        }
    }
}

/// Checks every body of `recording`, named `label` in the findings.
pub fn validate_recording(
    recording: &Recording,
    label: &str,
    options: &ValidateOptions,
) -> InputReport {
    let mut report = InputReport::default();
    for body in recorded::bodies(recording) {
        let before = report.findings.len();
        let errors_before = count_errors(&report.findings);
        check_body(&body, label, options, &mut report);
        for finding in &mut report.findings[before..] {
            finding.within = Some(body.place.clone());
            // A broken stream is the recording's fault, not the provider's
            // word on the body.
            if finding.status == Status::Error && finding.rule != "broken-stream" {
                if let Some(note) = recorded::answered_note(body.place.status) {
                    finding.message.push(' ');
                    finding.message.push_str(&note);
                }
            }
        }
        let clean = count_errors(&report.findings) == errors_before;
        refused_but_clean(recording, &body, clean, label, &mut report);
    }
    report
}

fn count_errors(findings: &[Finding]) -> usize {
    findings
        .iter()
        .filter(|f| f.status == Status::Error)
        .count()
}

/// One body's findings (and counts) added to `report`.
fn check_body(
    body: &RecordedBody<'_>,
    label: &str,
    options: &ValidateOptions,
    report: &mut InputReport,
) {
    let line = body.line;
    match &body.content {
        Content::Empty => {}
        Content::Skipped(why) => {
            report.skipped += 1;
            push_note(
                report,
                format!("{}: {why}; passed over", body.place.describe()),
                label,
                line,
            );
        }
        Content::Json(bytes) => {
            let doc = scope::check(&SharedBytes::new(bytes.to_vec()), &options.check);
            record(report, label, line, doc, options, false);
        }
        Content::Stream { json, .. } => {
            let doc = scope::check(&SharedBytes::new(json.clone()), &options.check);
            record(report, label, line, doc, options, false);
        }
        Content::BrokenStream(problem) => {
            report.documents += 1;
            if !options.ignore.iter().any(|r| r == "broken-stream") {
                report.findings.push(Finding {
                    path: label.to_string(),
                    line,
                    status: Status::Error,
                    rule: "broken-stream",
                    pointer: String::new(),
                    message: format!("the streamed response cannot be assembled: {problem}"),
                    within: None,
                });
            }
        }
    }
}

/// A request the provider refused (4xx) that partkit finds clean: noted,
/// with the provider's own message, since one of the two is wrong.
fn refused_but_clean(
    recording: &Recording,
    body: &RecordedBody<'_>,
    clean: bool,
    label: &str,
    report: &mut InputReport,
) {
    let refused = body.place.status.filter(|s| (400..500).contains(s));
    let checked = matches!(body.content, Content::Json(_));
    let (Some(status), true, true, Side::Request) = (refused, clean, checked, body.place.side)
    else {
        return;
    };
    let interaction = &recording.interactions[body.place.interaction - 1];
    let said = recorded::provider_message(interaction)
        .map(|m| format!(": \"{m}\""))
        .unwrap_or_default();
    push_note(
        report,
        format!(
            "{}: the provider refused it ({status}{said}) but partkit finds it clean",
            body.place.describe()
        ),
        label,
        body.line,
    );
}

fn push_note(report: &mut InputReport, note: String, label: &str, line: usize) {
    report.notes.push((note, format!("{label}:{line}"), 1));
}
