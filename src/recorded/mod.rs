//! Recordings as input (docs/recordings.md): a cassette or HAR file named
//! to (or met in a folder walk by) `validate`, `inspect`, `view`, `convert`
//! or `split` is read into its interactions, and each interaction's request
//! and response body becomes a document of the run, located by the file,
//! the line its body starts on, the interaction and the side.
//!
//! [`probe`] tells a recording from a document by content: only a file
//! whose first bytes could open one ([`recording::may_be`]) is read as a
//! recording at all, so a JSON or JSON Lines input is never parsed twice.
//! [`bodies`] then lays out what each body is for the commands: a JSON
//! document, a streamed response assembled into the response it stands for
//! ([`crate::assemble`]), or something passed over with a note (form data,
//! multipart, an empty body, a stream of no shape partkit knows).

mod content;
mod probe;

pub use content::{bodies, Content, RecordedBody};
pub use probe::{is_recording_name, open, open_input, probe, Probe};

use crate::recording;

/// Which half of an interaction a body is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Request,
    Response,
}

impl Side {
    pub fn name(self) -> &'static str {
        match self {
            Side::Request => "request",
            Side::Response => "response",
        }
    }
}

/// Where in a recording one body is: enough for a person to open it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    /// The interaction's number, from 1 (as a person counts them).
    pub interaction: usize,
    pub side: Side,
    /// The status the recorded response answered with (for both sides: a
    /// request's status is what the provider said of it).
    pub status: Option<u16>,
}

impl Place {
    /// `interaction 3 request`.
    pub fn describe(&self) -> String {
        format!("interaction {} {}", self.interaction, self.side.name())
    }
}

/// What a recorded 2xx status says of an error partkit finds in either body
/// of the interaction: the provider took it, so a partkit rule is stricter
/// than the provider, or the recording is older than its rules. Put after
/// the finding's message.
pub fn answered_note(status: Option<u16>) -> Option<String> {
    let status = status.filter(|s| (200..300).contains(s))?;
    Some(format!(
        "(the provider answered {status}: a partkit rule, or a cassette older than its rules)"
    ))
}

/// What the recorded response of `interaction` says went wrong: the
/// provider's own error message in a 4xx or 5xx JSON body
/// (`error.message`, `message`, `error` as a string), cut to one line.
pub fn provider_message(interaction: &recording::Interaction) -> Option<String> {
    let response = interaction.response.as_ref()?;
    let value: serde_json::Value = serde_json::from_slice(&response.body.bytes).ok()?;
    let message = value
        .pointer("/error/message")
        .or_else(|| value.get("message"))
        .or_else(|| value.get("Message"))
        .or_else(|| value.get("error").filter(|e| e.is_string()))?
        .as_str()?;
    let line = message.lines().next().unwrap_or_default();
    Some(crate::echo::cut(line, 200).to_string())
}
