//! Anthropic's streamed Messages response: `message_start` holds the message
//! with empty content; each block opens with `content_block_start`, grows by
//! `content_block_delta` (`text_delta`, `input_json_delta` whose partial JSON
//! is joined and read at `content_block_stop`, `thinking_delta`,
//! `signature_delta`, `citations_delta`) and closes; `message_delta` brings
//! the stop reason and the final usage; `message_stop` ends the stream.
//! `ping` is ignored; `error` is the service's error.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::contract::{append_text, join_fragments, unknown_event, Assembly, StreamAssembler};
use crate::stream::{Events, StreamProblem};

pub struct Stream;

/// Anthropic's stream assembler.
pub static STREAM: Stream = Stream;

/// A block being built: its value, and its input's JSON fragments so far.
#[derive(Default)]
struct Block {
    value: Map<String, Value>,
    fragments: Option<String>,
}

impl StreamAssembler for Stream {
    fn claims(&self, events: &Events) -> bool {
        events
            .events
            .iter()
            .any(|event| event.data.get("type").and_then(Value::as_str) == Some("message_start"))
    }

    fn opens(&self, event: &Value) -> bool {
        event.get("type").and_then(Value::as_str) == Some("message_start")
    }

    fn assemble(&self, events: &Events) -> Result<Assembly, StreamProblem> {
        let mut message = Map::new();
        let mut blocks: BTreeMap<u64, Block> = BTreeMap::new();
        let mut notes = Vec::new();
        let mut stopped = false;
        for (at, event) in events.events.iter().enumerate() {
            let data = &event.data;
            let index = data.get("index").and_then(Value::as_u64).unwrap_or(0);
            match event.kind() {
                Some("message_start") => {
                    if let Some(Value::Object(start)) = data.get("message") {
                        message = start.clone();
                    }
                }
                Some("content_block_start") => {
                    let value = match data.get("content_block") {
                        Some(Value::Object(block)) => block.clone(),
                        _ => Map::new(),
                    };
                    blocks.insert(
                        index,
                        Block {
                            value,
                            fragments: None,
                        },
                    );
                }
                Some("content_block_delta") => {
                    let block = blocks.entry(index).or_default();
                    let delta = data.get("delta").unwrap_or(&Value::Null);
                    let field = |key: &str| delta.get(key).and_then(Value::as_str).unwrap_or("");
                    match delta.get("type").and_then(Value::as_str) {
                        Some("text_delta") => append_text(&mut block.value, "text", field("text")),
                        Some("input_json_delta") => block
                            .fragments
                            .get_or_insert_with(String::new)
                            .push_str(field("partial_json")),
                        Some("thinking_delta") => {
                            append_text(&mut block.value, "thinking", field("thinking"))
                        }
                        Some("signature_delta") => {
                            block.value.insert(
                                "signature".into(),
                                Value::String(field("signature").to_string()),
                            );
                        }
                        Some("citations_delta") => {
                            let citations = block
                                .value
                                .entry("citations")
                                .or_insert_with(|| Value::Array(Vec::new()));
                            if let (Value::Array(list), Some(citation)) =
                                (citations, delta.get("citation"))
                            {
                                list.push(citation.clone());
                            }
                        }
                        other => notes.push(format!(
                            "event {at}: unknown delta type `{}`, left out",
                            other.unwrap_or("")
                        )),
                    }
                }
                Some("content_block_stop") => {
                    if let Some(block) = blocks.get_mut(&index) {
                        if let Some(fragments) = block.fragments.take() {
                            let input = join_fragments(&fragments, at)?;
                            block.value.insert("input".into(), input);
                        }
                    }
                }
                Some("message_delta") => {
                    if let Some(Value::Object(delta)) = data.get("delta") {
                        for (key, value) in delta {
                            message.insert(key.clone(), value.clone());
                        }
                    }
                    if let Some(Value::Object(usage)) = data.get("usage") {
                        let total = message
                            .entry("usage")
                            .or_insert_with(|| Value::Object(Map::new()));
                        if let Value::Object(total) = total {
                            for (key, value) in usage {
                                total.insert(key.clone(), value.clone());
                            }
                        }
                    }
                }
                Some("message_stop") => stopped = true,
                Some("ping") => {}
                Some("error") => {
                    let message = data
                        .pointer("/error/message")
                        .and_then(Value::as_str)
                        .unwrap_or("no message");
                    return Err(StreamProblem::Failed {
                        event: at,
                        message: message.to_string(),
                    });
                }
                other => notes.push(unknown_event(at, other)),
            }
        }
        if !stopped {
            return Err(StreamProblem::Unfinished {
                expected: "message_stop",
                events: events.events.len(),
            });
        }
        let mut content = Vec::new();
        for (index, block) in blocks {
            let mut value = block.value;
            if let Some(fragments) = block.fragments {
                // A block the stream never closed: its input still has to read.
                let input = join_fragments(&fragments, events.events.len())?;
                value.insert("input".into(), input);
                notes.push(format!("content block {index} was never stopped"));
            }
            content.push(Value::Object(value));
        }
        message.insert("content".into(), Value::Array(content));
        Ok(Assembly {
            response: Value::Object(message),
            notes,
        })
    }
}
