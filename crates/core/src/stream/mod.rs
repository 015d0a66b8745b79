//! Streamed response bodies cut into their events, with no knowledge of any
//! provider: server-sent events (`text/event-stream`), the AWS event-stream
//! binary framing (Bedrock's ConverseStream), a streamed JSON array (Gemini's
//! `streamGenerateContent` without `alt=sse`) and JSON Lines (one event per
//! line, as some test fixtures keep them). [`parse`] tells the framing from
//! the bytes themselves. Which shape's stream the events are, and the
//! response they add up to, is the shapes' business
//! ([`crate::contract::StreamAssembler`]); docs/streams.md says what each
//! assembles to.

mod eventstream;
mod json_seq;
mod sse;

use serde_json::Value;

pub use eventstream::{frames, Frame, HeaderValue};

/// How a stream's events are laid out in its body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Framing {
    /// `text/event-stream`: `event:`/`data:`/`id:` fields, events apart by a blank line.
    Sse,
    /// `application/vnd.amazon.eventstream`: binary frames with checksums.
    EventStream,
    /// One JSON array whose items are the events (`[{…}\n,\r\n{…}]`).
    JsonArray,
    /// One JSON value per line.
    JsonLines,
}

impl Framing {
    /// The framing's name, for notes.
    pub fn name(self) -> &'static str {
        match self {
            Framing::Sse => "server-sent events",
            Framing::EventStream => "AWS event stream",
            Framing::JsonArray => "JSON array",
            Framing::JsonLines => "JSON Lines",
        }
    }
}

/// One event of a stream.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    /// Its name: SSE's `event:` field, or an event-stream frame's
    /// `:event-type` (`:exception-type` or `:error-code` for a frame that is
    /// not an event). `None` when the framing names none.
    pub name: Option<String>,
    /// SSE's `id:` field.
    pub id: Option<String>,
    /// Its data: the JSON it holds, or (when it is not JSON) its text as a
    /// JSON string, with [`Event::json`] false.
    pub data: Value,
    /// Whether [`Event::data`] was read as JSON.
    pub json: bool,
    /// An event-stream frame whose `:message-type` is `exception` or `error`:
    /// the service ended the stream with an error.
    pub exception: bool,
}

impl Event {
    /// An event holding `data` as written: JSON when it reads as JSON.
    fn from_text(name: Option<String>, id: Option<String>, data: &str) -> Event {
        let (data, json) = match serde_json::from_str::<Value>(data) {
            Ok(value) => (value, true),
            Err(_) => (Value::String(data.to_string()), false),
        };
        Event {
            name,
            id,
            data,
            json,
            exception: false,
        }
    }

    /// The data's `type` member, else the event's name (what most streams
    /// tell their events apart by).
    pub fn kind(&self) -> Option<&str> {
        self.data
            .get("type")
            .and_then(Value::as_str)
            .or(self.name.as_deref())
    }
}

/// A body cut into its events.
#[derive(Debug, Clone, PartialEq)]
pub struct Events {
    pub framing: Framing,
    pub events: Vec<Event>,
    /// Whether the stream ended with SSE's `[DONE]` sentinel (OpenAI's).
    pub done: bool,
}

/// What keeps a stream from being read or assembled. A stream cut short is
/// one of them: it is reported, never assembled as if it were whole.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StreamProblem {
    /// An event-stream frame whose checksum does not match its bytes.
    #[error("frame {frame} (byte {offset}): its {which} checksum is {found:#010x} but its bytes give {computed:#010x}")]
    BadChecksum {
        frame: usize,
        offset: usize,
        which: &'static str,
        found: u32,
        computed: u32,
    },
    /// An event-stream frame that announces more bytes than the body has left.
    #[error(
        "frame {frame} (byte {offset}) is cut short: it announces {needed} bytes, {left} are left"
    )]
    CutFrame {
        frame: usize,
        offset: usize,
        needed: usize,
        left: usize,
    },
    /// An event-stream frame whose lengths or headers do not make sense.
    #[error("frame {frame} (byte {offset}): {message}")]
    BadFrame {
        frame: usize,
        offset: usize,
        message: String,
    },
    /// A JSON array or JSON Lines stream that does not read.
    #[error("the {framing} stream does not read at byte {offset}: {message}")]
    BadJson {
        framing: &'static str,
        offset: usize,
        message: String,
    },
    /// The stream stops before the event that ends it: cut short.
    #[error("the stream is cut short: {events} events, and no {expected}")]
    Unfinished {
        expected: &'static str,
        events: usize,
    },
    /// An event the stream's shape cannot take in.
    #[error("event {event}: {message}")]
    BadEvent { event: usize, message: String },
    /// The stream carries the service's own error.
    #[error("event {event} is an error from the service: {message}")]
    Failed { event: usize, message: String },
    /// The events are no shape's stream (or not the one asked for).
    #[error("{0}")]
    Unrecognized(String),
}

/// Cuts `body` into its events, telling the framing from its first bytes: a
/// zero byte starts an event-stream frame (its length's high byte), `[` a
/// JSON array, `{` JSON Lines, anything else is read as server-sent events.
pub fn parse(body: &[u8]) -> Result<Events, StreamProblem> {
    let body = body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(body);
    if body.first() == Some(&0) {
        let events = frames(body)?.into_iter().map(Frame::into_event).collect();
        return Ok(Events {
            framing: Framing::EventStream,
            events,
            done: false,
        });
    }
    match body.iter().find(|byte| !byte.is_ascii_whitespace()) {
        Some(b'[') => json_seq::array(body),
        Some(b'{') => json_seq::lines(body),
        _ => Ok(sse::parse(body)),
    }
}

#[cfg(test)]
mod tests;
