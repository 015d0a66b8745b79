//! OpenAI Responses streamed: `response.*` events. `response.completed`
//! (or `response.incomplete`, `response.failed`) carries the whole final
//! response, which is the answer; where its `output` is empty, the items of
//! the `response.output_item.done` events fill it. The deltas in between add
//! nothing those do not already hold. Without one of the three the stream
//! was cut short; an `error` event is the service's error.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::contract::{unknown_event, Assembly, StreamAssembler};
use crate::stream::{Events, StreamProblem};

pub struct Stream;

/// OpenAI Responses' stream assembler.
pub static STREAM: Stream = Stream;

const ENDS: [&str; 3] = [
    "response.completed",
    "response.incomplete",
    "response.failed",
];

impl StreamAssembler for Stream {
    fn claims(&self, events: &Events) -> bool {
        events.events.iter().any(|event| {
            event
                .data
                .get("type")
                .and_then(Value::as_str)
                .is_some_and(|kind| kind.starts_with("response."))
        })
    }

    fn opens(&self, event: &Value) -> bool {
        // A response object says `object: response`; only events have a
        // `type` of `response.…`.
        event
            .get("type")
            .and_then(Value::as_str)
            .is_some_and(|kind| kind.starts_with("response."))
    }

    fn assemble(&self, events: &Events) -> Result<Assembly, StreamProblem> {
        let mut last = None;
        let mut items = BTreeMap::new();
        let mut notes = Vec::new();
        for (at, event) in events.events.iter().enumerate() {
            match event.kind() {
                Some(kind) if ENDS.contains(&kind) => last = event.data.get("response"),
                Some("response.output_item.done") => {
                    let index = event
                        .data
                        .get("output_index")
                        .and_then(Value::as_u64)
                        .unwrap_or(items.len() as u64);
                    if let Some(item) = event.data.get("item") {
                        items.insert(index, item.clone());
                    }
                }
                Some("error") => {
                    let message = event
                        .data
                        .get("message")
                        .or(event.data.pointer("/error/message"))
                        .and_then(Value::as_str)
                        .unwrap_or("no message");
                    return Err(StreamProblem::Failed {
                        event: at,
                        message: message.to_string(),
                    });
                }
                Some(kind) if kind.starts_with("response.") => {}
                other => notes.push(unknown_event(at, other)),
            }
        }
        let Some(response) = last else {
            return Err(StreamProblem::Unfinished {
                expected: "response.completed",
                events: events.events.len(),
            });
        };
        let mut response = response.clone();
        let empty = response
            .get("output")
            .and_then(Value::as_array)
            .is_none_or(Vec::is_empty);
        if empty && !items.is_empty() {
            response["output"] = Value::Array(items.into_values().collect());
        }
        Ok(Assembly { response, notes })
    }
}
