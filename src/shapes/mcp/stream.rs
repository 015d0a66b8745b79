//! An MCP streamable-HTTP answer: server-sent events whose data are JSON-RPC
//! messages. The server may send notifications and requests of its own
//! before the one that answers; the answer (a message with an `id` and a
//! `result` or an `error`) is the response, the others are noted. A stream
//! with no answer was cut short.

use serde_json::Value;

use crate::contract::{Assembly, StreamAssembler};
use crate::stream::{Events, StreamProblem};

pub struct Stream;

/// MCP's stream assembler.
pub static STREAM: Stream = Stream;

impl StreamAssembler for Stream {
    fn claims(&self, events: &Events) -> bool {
        events
            .events
            .iter()
            .any(|event| event.data.get("jsonrpc").and_then(Value::as_str) == Some("2.0"))
    }

    fn assemble(&self, events: &Events) -> Result<Assembly, StreamProblem> {
        let mut answer = None;
        let mut notes = Vec::new();
        for (at, event) in events.events.iter().enumerate() {
            let data = &event.data;
            let answers = data.get("id").is_some_and(|id| !id.is_null())
                && (data.get("result").is_some() || data.get("error").is_some());
            if answers {
                if answer.is_some() {
                    notes.push(format!("event {at}: a second answer, the last one is kept"));
                }
                answer = Some(data.clone());
            } else {
                let what = data
                    .get("method")
                    .and_then(Value::as_str)
                    .map_or("a message that is not JSON-RPC".to_string(), |method| {
                        format!("`{method}`")
                    });
                notes.push(format!("event {at}: {what} before the answer, left out"));
            }
        }
        match answer {
            Some(response) => Ok(Assembly { response, notes }),
            None => Err(StreamProblem::Unfinished {
                expected: "JSON-RPC answer",
                events: events.events.len(),
            }),
        }
    }
}
