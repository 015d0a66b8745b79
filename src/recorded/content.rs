//! What each recorded body is, for the commands that read it.

use super::{Place, Side};
use crate::assemble::{self, Assembled, StreamProblem};
use crate::recording::{Body, BodyKind, Recording};

/// One body of a recording, laid out for a command.
#[derive(Debug)]
pub struct RecordedBody<'r> {
    pub place: Place,
    /// The line of the recording where the body starts (1 when the file
    /// does not say).
    pub line: usize,
    /// The body as the recording holds it.
    pub body: &'r Body,
    pub content: Content<'r>,
}

/// What a body holds.
#[derive(Debug)]
pub enum Content<'r> {
    /// A JSON document: the body's bytes.
    Json(&'r [u8]),
    /// A streamed response, assembled: the response it stands for, as JSON
    /// text, and how it was put together.
    Stream {
        assembled: Box<Assembled>,
        json: Vec<u8>,
    },
    /// A streamed response that cannot be assembled (cut short, a bad
    /// checksum, an error from the service): broken data.
    BrokenStream(StreamProblem),
    /// Nothing was recorded.
    Empty,
    /// Passed over, and why: a body that is not JSON (form data, multipart,
    /// plain text), or a stream of no shape partkit knows.
    Skipped(String),
}

/// Every body of `recording`, request before response, in the file's order.
/// Streams are assembled here, once, for whichever command reads them.
pub fn bodies(recording: &Recording) -> Vec<RecordedBody<'_>> {
    let mut out = Vec::new();
    for interaction in &recording.interactions {
        let status = interaction.response.as_ref().and_then(|r| r.status);
        let place = |side| Place {
            interaction: interaction.index + 1,
            side,
            status,
        };
        if let Some(request) = &interaction.request {
            out.push(laid_out(place(Side::Request), &request.body));
        }
        if let Some(response) = &interaction.response {
            out.push(laid_out(place(Side::Response), &response.body));
        }
    }
    out
}

fn laid_out(place: Place, body: &Body) -> RecordedBody<'_> {
    let content = match body.kind {
        BodyKind::Empty => Content::Empty,
        // A response that is a JSON array may be Gemini's streamed array of
        // chunks; an array that is no stream is a document as any other.
        BodyKind::Json if place.side == Side::Response && opens_array(&body.bytes) => {
            match stream(&body.bytes) {
                Content::Skipped(_) => Content::Json(&body.bytes),
                assembled => assembled,
            }
        }
        BodyKind::Json => Content::Json(&body.bytes),
        BodyKind::EventStream | BodyKind::AwsEventStream | BodyKind::JsonLines
            if place.side == Side::Response =>
        {
            stream(&body.bytes)
        }
        BodyKind::EventStream | BodyKind::AwsEventStream | BodyKind::JsonLines => {
            Content::Skipped("a request body laid out as a stream of events".to_string())
        }
        BodyKind::Other => Content::Skipped(
            body.note
                .clone()
                .unwrap_or_else(|| "a body that is not JSON".to_string()),
        ),
    };
    RecordedBody {
        place,
        line: body.line.unwrap_or(1),
        body,
        content,
    }
}

/// A streamed response assembled, or why it is not.
fn stream(bytes: &[u8]) -> Content<'_> {
    match assemble::assemble(bytes, None) {
        Ok(assembled) => {
            let json = serde_json::to_vec(&assembled.response).unwrap_or_default();
            Content::Stream {
                assembled: Box::new(assembled),
                json,
            }
        }
        Err(StreamProblem::Unrecognized(why)) => {
            Content::Skipped(format!("a stream partkit cannot assemble: {why}"))
        }
        Err(problem) => Content::BrokenStream(problem),
    }
}

fn opens_array(bytes: &[u8]) -> bool {
    bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[')
}
