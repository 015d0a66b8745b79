//! `resize` of a recording (docs/recordings.md): every image over a cap in
//! any body (a request, a response, an assembled stream) is resized in
//! memory and reported, located by the line its body starts on, the
//! interaction, the side and the pointer; nothing is written back, for
//! now: a cassette is the recording of what was sent, and rewriting it is
//! for the tool that recorded it.

use super::document::resize_document;
use super::report::{report_image, Emit, Report, Where};
use super::run::RunOptions;
use crate::error::ExitStatus;
use crate::recorded::{bodies, Content};
use crate::recording::Recording;

/// Reports what resizing would change in `recording`, named `label`.
pub(super) fn report_recording(
    recording: &Recording,
    label: &str,
    options: &RunOptions,
    report: Emit<'_>,
) -> ExitStatus {
    let mut status = ExitStatus::Success;
    let mut changed = 0usize;
    for body in bodies(recording) {
        let bytes: &[u8] = match &body.content {
            Content::Json(bytes) => bytes,
            Content::Stream { json, .. } => json,
            Content::BrokenStream(problem) => {
                report(Report::Error(format!(
                    "{label}:{}: {}: the streamed response cannot be assembled: {problem}",
                    body.line,
                    body.place.describe()
                )));
                status = ExitStatus::Failure;
                continue;
            }
            Content::Empty | Content::Skipped(_) => continue,
        };
        let Ok(resized) = resize_document(bytes, &options.resize) else {
            continue;
        };
        for image in &resized.images {
            let pointer = format!("{} {}", body.place.describe(), image.pointer);
            let at = Where {
                label,
                line: Some(body.line),
                pointer: Some(&pointer),
            };
            match &image.result {
                Ok(result) if result.changed() => changed += 1,
                Ok(_) => {}
                Err(_) => status = ExitStatus::Failure,
            }
            report_image(options.report, &at, &image.result, None, true, report);
        }
    }
    report(Report::Note(format!(
        "{label}: a recording: {} would change; nothing is written back into a cassette",
        crate::size::count_of(changed, "image")
    )));
    status
}
