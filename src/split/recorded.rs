//! `split` of a recording (docs/recordings.md): every body that is a tool
//! reply (`image_reply`'s key, NeMo Gym's `tool_output_images`) split as
//! one document, in the file's order. Provider requests and responses are
//! no tool replies: they are passed over with a note pointing to
//! `inspect --extract`, which writes any body's media out.

use super::{split_document, SplitDocument, SplitOptions};
use crate::recorded::{bodies, Content, RecordedBody};
use crate::recording::Recording;
use crate::shapes::image_reply;

/// What became of one body.
#[derive(Debug)]
pub enum SplitOutcome {
    Split(SplitDocument),
    /// Passed over, and why.
    Passed(String),
    /// A tool reply that does not split, or a stream that does not assemble.
    Failed(String),
}

/// Splits every tool reply among `recording`'s bodies.
pub fn split_recording<'r>(
    recording: &'r Recording,
    options: &SplitOptions,
) -> Vec<(RecordedBody<'r>, SplitOutcome)> {
    bodies(recording)
        .into_iter()
        .map(|body| {
            let outcome = split_body(&body, options);
            (body, outcome)
        })
        .collect()
}

fn split_body(body: &RecordedBody<'_>, options: &SplitOptions) -> SplitOutcome {
    let bytes: &[u8] = match &body.content {
        Content::Json(bytes) => bytes,
        Content::Stream { json, .. } => json,
        Content::Empty => return SplitOutcome::Passed("an empty body".into()),
        Content::Skipped(why) => return SplitOutcome::Passed(why.clone()),
        Content::BrokenStream(problem) => {
            return SplitOutcome::Failed(format!(
                "the streamed response cannot be assembled: {problem}"
            ))
        }
    };
    let is_reply = options.at.is_active()
        || serde_json::from_slice::<serde_json::Value>(bytes)
            .ok()
            .is_some_and(|value| value.get(image_reply().key()).is_some());
    if !is_reply {
        return SplitOutcome::Passed(
            "not a tool reply (`inspect --extract DIR` writes a recording's media)".into(),
        );
    }
    match split_document(bytes, options) {
        Ok(document) => SplitOutcome::Split(document),
        Err(error) => SplitOutcome::Failed(error.to_string()),
    }
}
