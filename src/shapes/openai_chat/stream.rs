//! OpenAI Chat Completions streamed: `chat.completion.chunk` objects, each
//! with a `delta` per choice. A choice's content (and refusal, and any other
//! text a compatible server streams, such as `reasoning_content`) is joined;
//! its `tool_calls` deltas are matched by `index`, their `arguments`
//! fragments joined (as are the legacy `function_call`'s); the last `finish_reason` and the usage chunk (empty
//! `choices`) are kept. The stream ends with `data: [DONE]`, or (where a
//! recording lost it) once every choice has its `finish_reason`.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::contract::{append_text, unknown_event, Assembly, StreamAssembler};
use crate::stream::{Events, StreamProblem};

pub struct Stream;

/// OpenAI Chat's stream assembler.
pub static STREAM: Stream = Stream;

const CHUNK: &str = "chat.completion.chunk";

#[derive(Default)]
struct Choice {
    message: Map<String, Value>,
    calls: BTreeMap<u64, Map<String, Value>>,
    finish_reason: Option<Value>,
    logprobs: Option<Value>,
}

impl StreamAssembler for Stream {
    fn claims(&self, events: &Events) -> bool {
        events
            .events
            .iter()
            .any(|event| event.data.get("object").and_then(Value::as_str) == Some(CHUNK))
    }

    fn opens(&self, event: &Value) -> bool {
        // A choice with a `delta` is a chunk's (a completion's has a
        // `message`), whatever `object` says (Azure leaves it empty).
        let deltas = event
            .get("choices")
            .and_then(Value::as_array)
            .is_some_and(|choices| choices.iter().any(|c| c.get("delta").is_some()));
        event.get("object").and_then(Value::as_str) == Some(CHUNK) || deltas
    }

    fn assemble(&self, events: &Events) -> Result<Assembly, StreamProblem> {
        let mut response = Map::new();
        let mut choices: BTreeMap<u64, Choice> = BTreeMap::new();
        let mut notes = Vec::new();
        for (at, event) in events.events.iter().enumerate() {
            let data = &event.data;
            if !is_chunk(data) {
                if let Some(message) = data.pointer("/error/message").and_then(Value::as_str) {
                    return Err(StreamProblem::Failed {
                        event: at,
                        message: message.to_string(),
                    });
                }
                notes.push(unknown_event(at, event.kind()));
                continue;
            }
            for key in [
                "id",
                "created",
                "model",
                "system_fingerprint",
                "service_tier",
            ] {
                if let Some(value) = data.get(key).filter(|value| !value.is_null()) {
                    response.insert(key.to_string(), value.clone());
                }
            }
            if let Some(usage) = data.get("usage").filter(|usage| !usage.is_null()) {
                response.insert("usage".into(), usage.clone());
            }
            let Some(Value::Array(list)) = data.get("choices") else {
                continue;
            };
            for (position, delta_choice) in list.iter().enumerate() {
                let index = delta_choice
                    .get("index")
                    .and_then(Value::as_u64)
                    .unwrap_or(position as u64);
                let choice = choices.entry(index).or_default();
                if let Some(reason) = delta_choice.get("finish_reason").filter(|r| !r.is_null()) {
                    choice.finish_reason = Some(reason.clone());
                }
                if let Some(logprobs) = delta_choice.get("logprobs").filter(|l| !l.is_null()) {
                    choice.logprobs = Some(logprobs.clone());
                }
                let Some(Value::Object(delta)) = delta_choice.get("delta") else {
                    continue;
                };
                for (key, value) in delta {
                    match (key.as_str(), value) {
                        ("tool_calls", Value::Array(calls)) => {
                            for (position, call) in calls.iter().enumerate() {
                                let index = call
                                    .get("index")
                                    .and_then(Value::as_u64)
                                    .unwrap_or(position as u64);
                                merge_call(choice.calls.entry(index).or_default(), call);
                            }
                        }
                        ("role", Value::String(_)) => {
                            choice.message.insert(key.clone(), value.clone());
                        }
                        (_, Value::String(piece)) => append_text(&mut choice.message, key, piece),
                        (_, Value::Null) => {}
                        // The legacy `function_call` (and `audio`): its
                        // text members come in fragments too.
                        (_, Value::Object(pieces)) => {
                            let whole = choice
                                .message
                                .entry(key.clone())
                                .or_insert_with(|| Value::Object(Map::new()));
                            if let Value::Object(whole) = whole {
                                for (member, value) in pieces {
                                    match value {
                                        Value::String(piece) => append_text(whole, member, piece),
                                        other => {
                                            whole.insert(member.clone(), other.clone());
                                        }
                                    }
                                }
                            }
                        }
                        _ => {
                            choice.message.insert(key.clone(), value.clone());
                        }
                    }
                }
            }
        }
        let finished = !choices.is_empty() && choices.values().all(|c| c.finish_reason.is_some());
        if !events.done && !finished {
            return Err(StreamProblem::Unfinished {
                expected: "`[DONE]` and no finish_reason",
                events: events.events.len(),
            });
        }
        response.insert("object".into(), Value::String("chat.completion".into()));
        let choices = choices
            .into_iter()
            .map(|(index, choice)| {
                let mut message = choice.message;
                message
                    .entry("role")
                    .or_insert_with(|| Value::String("assistant".into()));
                message.entry("content").or_insert(Value::Null);
                if !choice.calls.is_empty() {
                    let calls = choice.calls.into_values().map(Value::Object).collect();
                    message.insert("tool_calls".into(), Value::Array(calls));
                }
                let mut out = Map::new();
                out.insert("index".into(), Value::from(index));
                out.insert("message".into(), Value::Object(message));
                if let Some(logprobs) = choice.logprobs {
                    out.insert("logprobs".into(), logprobs);
                }
                out.insert(
                    "finish_reason".into(),
                    choice.finish_reason.unwrap_or(Value::Null),
                );
                Value::Object(out)
            })
            .collect();
        response.insert("choices".into(), Value::Array(choices));
        // `object`, `id`, … first, as a response writes them.
        let mut ordered = Map::new();
        for key in ["id", "object", "created", "model", "choices", "usage"] {
            if let Some(value) = response.shift_remove(key) {
                ordered.insert(key.to_string(), value);
            }
        }
        ordered.extend(response);
        Ok(Assembly {
            response: Value::Object(ordered),
            notes,
        })
    }
}

/// A chunk: its `object` says so, or (as Azure's first chunk, which holds
/// only the prompt's filter results) is empty beside a `choices` list.
fn is_chunk(data: &Value) -> bool {
    match data.get("object").and_then(Value::as_str) {
        Some(CHUNK) => true,
        Some("") | None => data.get("choices").is_some_and(Value::is_array),
        Some(_) => false,
    }
}

/// One `tool_calls` delta into the call it belongs to: `id` and `type` are
/// set, the function's `name` and `arguments` joined.
fn merge_call(call: &mut Map<String, Value>, delta: &Value) {
    for key in ["id", "type"] {
        if let Some(value) = delta.get(key).filter(|value| !value.is_null()) {
            call.insert(key.to_string(), value.clone());
        }
    }
    let function = call
        .entry("function")
        .or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(function) = function else {
        return;
    };
    for key in ["name", "arguments"] {
        if let Some(piece) = delta
            .pointer(&format!("/function/{key}"))
            .and_then(Value::as_str)
        {
            append_text(function, key, piece);
        }
    }
    function
        .entry("arguments")
        .or_insert_with(|| Value::String(String::new()));
}
