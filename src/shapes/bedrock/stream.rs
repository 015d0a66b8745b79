//! Bedrock ConverseStream: `messageStart` (the role), per content block
//! `contentBlockStart` (a tool use's id and name), `contentBlockDelta`
//! (`text`, `toolUse.input` fragments joined and read at
//! `contentBlockStop`, `reasoningContent` text, signature or redacted bytes,
//! `citation`), `messageStop` (the stop reason) and `metadata` (usage,
//! metrics). Over the AWS event-stream framing the event's name is its
//! `:event-type` header and the payload its body; decoded streams write each
//! event as a one-member object (`{"messageStart": {…}}`), read the same.
//! The answer is a Converse response; an exception frame is the service's
//! error, and a stream without `messageStop` was cut short.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::contract::{append_text, join_fragments, unknown_event, Assembly, StreamAssembler};
use crate::stream::{Event, Events, StreamProblem};

pub struct Stream;

/// Bedrock's stream assembler.
pub static STREAM: Stream = Stream;

const EVENTS: [&str; 6] = [
    "messageStart",
    "contentBlockStart",
    "contentBlockDelta",
    "contentBlockStop",
    "messageStop",
    "metadata",
];

/// The event's name and body, from its header or its only member.
fn split(event: &Event) -> Option<(&str, &Value)> {
    if let Some(name) = event.name.as_deref() {
        if EVENTS.contains(&name) || event.exception {
            return Some((name, &event.data));
        }
    }
    match &event.data {
        Value::Object(map) if map.len() == 1 => {
            let (name, body) = map.iter().next()?;
            let known = EVENTS.contains(&name.as_str()) || name.ends_with("Exception");
            known.then_some((name.as_str(), body))
        }
        _ => None,
    }
}

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
            .any(|event| split(event).is_some_and(|(name, _)| name == "messageStart"))
    }

    fn opens(&self, event: &Value) -> bool {
        event
            .as_object()
            .is_some_and(|map| map.len() == 1 && map.contains_key("messageStart"))
    }

    fn assemble(&self, events: &Events) -> Result<Assembly, StreamProblem> {
        let mut role = Value::String("assistant".into());
        let mut blocks: BTreeMap<u64, Block> = BTreeMap::new();
        let mut response = Map::new();
        let mut notes = Vec::new();
        let mut stopped = false;
        for (at, event) in events.events.iter().enumerate() {
            let Some((name, body)) = split(event) else {
                notes.push(unknown_event(at, event.kind()));
                continue;
            };
            if event.exception || name.ends_with("Exception") {
                let message = body
                    .get("message")
                    .or(body.get("Message"))
                    .and_then(Value::as_str)
                    .or(body.as_str())
                    .unwrap_or("no message");
                return Err(StreamProblem::Failed {
                    event: at,
                    message: format!("{name}: {message}"),
                });
            }
            let index = body
                .get("contentBlockIndex")
                .and_then(Value::as_u64)
                .unwrap_or(0);
            match name {
                "messageStart" => {
                    if let Some(value) = body.get("role") {
                        role = value.clone();
                    }
                }
                "contentBlockStart" => {
                    let block = blocks.entry(index).or_default();
                    if let Some(Value::Object(tool)) = body.pointer("/start/toolUse") {
                        block
                            .value
                            .insert("toolUse".into(), Value::Object(tool.clone()));
                        block.fragments = Some(String::new());
                    } else if let Some(Value::Object(start)) = body.get("start") {
                        block.value.extend(start.clone());
                    }
                }
                "contentBlockDelta" => {
                    let block = blocks.entry(index).or_default();
                    let Some(Value::Object(delta)) = body.get("delta") else {
                        continue;
                    };
                    for (key, value) in delta {
                        merge_delta(block, key, value, at, &mut notes);
                    }
                }
                "contentBlockStop" => {
                    if let Some(block) = blocks.get_mut(&index) {
                        finish(block, at)?;
                    }
                }
                "messageStop" => {
                    stopped = true;
                    if let Value::Object(stop) = body {
                        response.extend(stop.clone());
                    }
                }
                _ => {
                    // metadata: usage, metrics, trace.
                    if let Value::Object(metadata) = body {
                        response.extend(metadata.clone());
                    }
                }
            }
        }
        if !stopped {
            return Err(StreamProblem::Unfinished {
                expected: "messageStop",
                events: events.events.len(),
            });
        }
        let mut content = Vec::new();
        for (_, mut block) in blocks {
            finish(&mut block, events.events.len())?;
            content.push(Value::Object(block.value));
        }
        let mut message = Map::new();
        message.insert("role".into(), role);
        message.insert("content".into(), Value::Array(content));
        let mut output = Map::new();
        output.insert("message".into(), Value::Object(message));
        let mut ordered = Map::new();
        ordered.insert("output".into(), Value::Object(output));
        ordered.extend(response);
        Ok(Assembly {
            response: Value::Object(ordered),
            notes,
        })
    }
}

/// One member of a `contentBlockDelta`'s `delta` into its block.
fn merge_delta(block: &mut Block, key: &str, value: &Value, at: usize, notes: &mut Vec<String>) {
    match (key, value) {
        ("text", Value::String(piece)) => append_text(&mut block.value, "text", piece),
        ("toolUse", _) => {
            if let Some(piece) = value.get("input").and_then(Value::as_str) {
                block
                    .fragments
                    .get_or_insert_with(String::new)
                    .push_str(piece);
            }
        }
        ("reasoningContent", Value::Object(reasoning)) => {
            let entry = block
                .value
                .entry("reasoningContent")
                .or_insert_with(|| Value::Object(Map::new()));
            let Value::Object(entry) = entry else { return };
            if let Some(redacted) = reasoning.get("redactedContent") {
                entry.insert("redactedContent".into(), redacted.clone());
            }
            let text = reasoning.get("text").and_then(Value::as_str);
            let signature = reasoning.get("signature");
            if text.is_some() || signature.is_some() {
                let inner = entry
                    .entry("reasoningText")
                    .or_insert_with(|| Value::Object(Map::new()));
                if let Value::Object(inner) = inner {
                    if let Some(text) = text {
                        append_text(inner, "text", text);
                    }
                    if let Some(signature) = signature {
                        inner.insert("signature".into(), signature.clone());
                    }
                }
            }
        }
        _ => notes.push(format!(
            "event {at}: unknown content block delta `{key}`, left out"
        )),
    }
}

/// A tool use's joined input fragments, read.
fn finish(block: &mut Block, at: usize) -> Result<(), StreamProblem> {
    if let Some(fragments) = block.fragments.take() {
        let input = join_fragments(&fragments, at)?;
        if let Some(Value::Object(tool)) = block.value.get_mut("toolUse") {
            tool.insert("input".into(), input);
        }
    }
    Ok(())
}
