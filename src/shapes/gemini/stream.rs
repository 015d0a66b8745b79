//! Gemini's `streamGenerateContent`, over SSE (`alt=sse`) or as a streamed
//! JSON array: each chunk is a GenerateContentResponse holding the next parts
//! of each candidate. A candidate's parts are concatenated in order, a text
//! part joined to the text part before it when both are thoughts or both
//! are not (and the one before carries no `thoughtSignature`); function
//! calls and signatures are kept as they come. The last `finishReason`,
//! `usageMetadata` and the candidate's other members are kept. A stream
//! where no candidate finishes (and no prompt was blocked) was cut short.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::contract::{unknown_event, Assembly, StreamAssembler};
use crate::stream::{Events, StreamProblem};

pub struct Stream;

/// Gemini's stream assembler.
pub static STREAM: Stream = Stream;

#[derive(Default)]
struct Candidate {
    members: Map<String, Value>,
    role: Option<Value>,
    parts: Vec<Map<String, Value>>,
}

fn is_thought(part: &Map<String, Value>) -> bool {
    part.get("thought")
        .and_then(Value::as_bool)
        .unwrap_or(false)
}

impl Candidate {
    fn push(&mut self, part: Map<String, Value>) {
        if let (Some(Value::String(text)), Some(last)) = (part.get("text"), self.parts.last_mut()) {
            let joins = matches!(last.get("text"), Some(Value::String(_)))
                && is_thought(last) == is_thought(&part)
                && !last.contains_key("thoughtSignature")
                && part
                    .keys()
                    .all(|key| matches!(key.as_str(), "text" | "thought" | "thoughtSignature"));
            if joins {
                if let Some(Value::String(joined)) = last.get_mut("text") {
                    joined.push_str(text);
                }
                if let Some(signature) = part.get("thoughtSignature") {
                    last.insert("thoughtSignature".into(), signature.clone());
                }
                return;
            }
        }
        self.parts.push(part);
    }
}

impl StreamAssembler for Stream {
    fn claims(&self, events: &Events) -> bool {
        events
            .events
            .iter()
            .any(|event| event.data.get("candidates").is_some())
    }

    fn continues(&self, first: &Value, second: &Value) -> bool {
        // Every chunk of one answer carries that answer's `responseId`;
        // separate responses never share one.
        fn id(chunk: &Value) -> Option<&str> {
            chunk
                .get("candidates")
                .filter(|candidates| candidates.is_array())
                .and_then(|_| chunk.get("responseId"))
                .and_then(Value::as_str)
                .filter(|id| !id.is_empty())
        }
        id(first).is_some() && id(first) == id(second)
    }

    fn assemble(&self, events: &Events) -> Result<Assembly, StreamProblem> {
        let mut response = Map::new();
        let mut candidates: BTreeMap<u64, Candidate> = BTreeMap::new();
        let mut notes = Vec::new();
        let mut finished = false;
        for (at, event) in events.events.iter().enumerate() {
            let Value::Object(chunk) = &event.data else {
                notes.push(unknown_event(at, event.kind()));
                continue;
            };
            if let Some(message) = event.data.pointer("/error/message").and_then(Value::as_str) {
                return Err(StreamProblem::Failed {
                    event: at,
                    message: message.to_string(),
                });
            }
            if !chunk.contains_key("candidates") && !chunk.contains_key("usageMetadata") {
                notes.push(unknown_event(at, event.kind()));
                continue;
            }
            for (key, value) in chunk {
                if key != "candidates" {
                    response.insert(key.clone(), value.clone());
                }
            }
            if chunk
                .get("promptFeedback")
                .and_then(|f| f.get("blockReason"))
                .is_some()
            {
                finished = true;
            }
            let Some(Value::Array(list)) = chunk.get("candidates") else {
                continue;
            };
            for (position, item) in list.iter().enumerate() {
                let Value::Object(item) = item else { continue };
                let index = item
                    .get("index")
                    .and_then(Value::as_u64)
                    .unwrap_or(position as u64);
                let candidate = candidates.entry(index).or_default();
                for (key, value) in item {
                    match key.as_str() {
                        "content" => {
                            if let Some(role) = value.get("role") {
                                candidate.role = Some(role.clone());
                            }
                            let parts = value.get("parts").and_then(Value::as_array);
                            for part in parts.into_iter().flatten() {
                                if let Value::Object(part) = part {
                                    candidate.push(part.clone());
                                }
                            }
                        }
                        "finishReason" => {
                            finished = true;
                            candidate.members.insert(key.clone(), value.clone());
                        }
                        _ => {
                            candidate.members.insert(key.clone(), value.clone());
                        }
                    }
                }
            }
        }
        if !finished {
            return Err(StreamProblem::Unfinished {
                expected: "finishReason",
                events: events.events.len(),
            });
        }
        let candidates = candidates
            .into_values()
            .map(|candidate| {
                let mut content = Map::new();
                let parts = candidate.parts.into_iter().map(Value::Object).collect();
                content.insert("parts".into(), Value::Array(parts));
                content.insert(
                    "role".into(),
                    candidate.role.unwrap_or(Value::String("model".into())),
                );
                let mut out = Map::new();
                out.insert("content".into(), Value::Object(content));
                out.extend(candidate.members);
                Value::Object(out)
            })
            .collect();
        let mut ordered = Map::new();
        ordered.insert("candidates".into(), Value::Array(candidates));
        ordered.extend(response);
        Ok(Assembly {
            response: Value::Object(ordered),
            notes,
        })
    }
}
