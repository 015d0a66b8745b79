//! `inspect --events` (docs/commands/inspect.md): a streamed body listed as
//! the events it is cut into ([`crate::assemble::parse`]), each with a short
//! preview of what its delta adds, then what the events assemble to or why
//! they do not (docs/streams.md). Previews are cut
//! ([`crate::echo::cut`]), so no payload is ever printed whole.

use serde_json::{json, Value};

use super::body::{describe, Described};
use super::recording::plural;
use crate::assemble::{self, Event};

/// The characters of a delta shown.
const PREVIEW: usize = 60;

/// The characters of a tool call's assembled arguments shown.
const ARGUMENTS: usize = 400;

/// One event of a stream.
#[derive(Debug, Clone, PartialEq)]
pub struct EventRow {
    /// From 0, as the assembly's notes and problems count them.
    pub index: usize,
    /// The data's `type`, else the event's name.
    pub kind: Option<String>,
    pub id: Option<String>,
    /// The size of its data (compact JSON text when it is JSON).
    pub bytes: usize,
    /// The text a delta adds, up to its [`PREVIEW`]th character.
    pub preview: Option<String>,
    /// Whether [`EventRow::preview`] was cut.
    pub preview_cut: bool,
}

/// What a stream assembled to.
#[derive(Debug, Clone, PartialEq)]
pub struct Assembly {
    pub described: Described,
    pub events: usize,
    pub framing: &'static str,
    pub notes: Vec<String>,
}

/// A stream body listed.
#[derive(Debug, Clone, PartialEq)]
pub struct StreamListing {
    /// The framing, when the body could be cut into events.
    pub framing: Option<&'static str>,
    pub rows: Vec<EventRow>,
    /// What the events assemble to, or the problem that stops them.
    pub result: Result<Assembly, String>,
}

/// Lists the events of `body` and assembles them.
pub fn list(body: &[u8]) -> StreamListing {
    let events = match assemble::parse(body) {
        Ok(events) => events,
        Err(problem) => {
            return StreamListing {
                framing: None,
                rows: Vec::new(),
                result: Err(problem.to_string()),
            }
        }
    };
    let rows = events.events.iter().enumerate().map(row).collect();
    let result = match assemble::assemble(body, None) {
        Ok(assembled) => Ok(Assembly {
            described: describe(&assembled.response, Some(assembled.shape)),
            events: assembled.events,
            framing: assembled.framing.name(),
            notes: assembled.notes,
        }),
        Err(problem) => Err(problem.to_string()),
    };
    StreamListing {
        framing: Some(events.framing.name()),
        rows,
        result,
    }
}

fn row((index, event): (usize, &Event)) -> EventRow {
    let bytes = match &event.data {
        Value::String(text) if !event.json => text.len(),
        data => data.to_string().len(),
    };
    let mut text = String::new();
    deltas(&event.data, false, &mut text);
    let cut = text.char_indices().nth(PREVIEW).map(|(at, _)| at);
    if let Some(at) = cut {
        text.truncate(at);
    }
    EventRow {
        index,
        kind: event
            .kind()
            .or_else(|| untyped_kind(&event.data))
            .map(str::to_string),
        id: event.id.clone(),
        bytes,
        preview: (!text.is_empty()).then_some(text),
        preview_cut: cut.is_some(),
    }
}

/// What an event with neither a `type` nor an SSE event name is, as far as
/// its JSON says: an OpenAI Chat chunk's `object`, or the one member of a
/// Bedrock event written as JSON (`{"messageStart": …}`). A Gemini chunk
/// says nothing of the kind, and is shown as `-`.
fn untyped_kind(data: &Value) -> Option<&str> {
    let object = data.as_object()?;
    if let Some(Value::String(kind)) = object.get("object") {
        return (!kind.is_empty()).then_some(kind.as_str());
    }
    match object.iter().next() {
        Some((key, Value::Object(_))) if object.len() == 1 => Some(key.as_str()),
        _ => None,
    }
}

/// The members whose strings a delta adds to the response.
const TEXTUAL: [&str; 8] = [
    "text",
    "partial_json",
    "arguments",
    "content",
    "thinking",
    "refusal",
    "input",
    "delta",
];

/// Appends to `out` the text `value` adds: the textual strings under a
/// member named `delta` (or `…Delta`, Bedrock's), and a Gemini chunk's part
/// text and function-call arguments. `inside` is whether a delta encloses
/// `value`. Stops once the preview is full.
fn deltas(value: &Value, inside: bool, out: &mut String) {
    if out.len() > PREVIEW * 4 {
        return;
    }
    match value {
        Value::Object(map) => {
            for (key, member) in map {
                let delta = key == "delta" || key.ends_with("Delta");
                match member {
                    Value::String(text) if (inside || delta) && TEXTUAL.contains(&key.as_str()) => {
                        out.push_str(text)
                    }
                    Value::Object(_) if key == "args" => out.push_str(&member.to_string()),
                    _ => deltas(member, inside || delta || gemini_text(key), out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| deltas(item, inside, out)),
        _ => {}
    }
}

/// The members of a Gemini chunk whose text is what the chunk adds.
fn gemini_text(key: &str) -> bool {
    key == "parts"
}

impl StreamListing {
    /// The rows as an indented table, then the result line and its notes.
    pub fn text(&self) -> String {
        let mut rows = vec![["EVENT", "TYPE", "ID", "BYTES", "PREVIEW"].map(str::to_string)];
        for row in &self.rows {
            let dash = || "-".to_string();
            rows.push([
                row.index.to_string(),
                row.kind
                    .as_deref()
                    .map_or_else(dash, |k| crate::echo::cut(k, 60).to_string()),
                row.id
                    .as_deref()
                    .map_or_else(dash, |i| crate::echo::cut(i, 40).to_string()),
                crate::size::group_digits(row.bytes as u64),
                row.preview.as_deref().map_or_else(dash, |p| {
                    // Escaped as Rust's `{:?}` escapes it; a cut marked
                    // after the closing quote.
                    format!("{p:?}{}", if row.preview_cut { "…" } else { "" })
                }),
            ]);
        }
        let mut out = String::new();
        if !self.rows.is_empty() {
            let widths: Vec<usize> = (0..5)
                .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
                .collect();
            for row in rows {
                let mut line = String::from(" ");
                for (c, cell) in row.iter().enumerate() {
                    line.push(' ');
                    line.push_str(cell);
                    if c + 1 < row.len() {
                        line.push_str(&" ".repeat(widths[c] - cell.chars().count() + 1));
                    }
                }
                out.push_str(&crate::render::sanitize(line.trim_end()));
                out.push('\n');
            }
        }
        out.push_str(&crate::render::sanitize(&format!(
            "  {}",
            self.result_line()
        )));
        out.push('\n');
        if let Ok(result) = &self.result {
            for note in &result.notes {
                let note = format!("    note: {}", crate::echo::bound(note));
                out.push_str(&crate::render::sanitize(&note));
                out.push('\n');
            }
        }
        out
    }

    /// `assembled: anthropic response (…); 1 tool call: name {args}`, or
    /// `not assembled: <problem>`.
    pub fn result_line(&self) -> String {
        let result = match &self.result {
            Ok(result) => result,
            Err(problem) => return format!("not assembled: {}", crate::echo::bound(problem)),
        };
        let shape = result
            .described
            .shape
            .as_deref()
            .unwrap_or("no known shape");
        let mut line = format!(
            "assembled: {shape} ({} event{}, {})",
            result.events,
            plural(result.events),
            result.framing
        );
        let calls = &result.described.calls;
        if !calls.is_empty() {
            let shown: Vec<String> = calls
                .iter()
                .map(|(name, arguments)| {
                    format!("{name} {}", crate::echo::cut(arguments, ARGUMENTS))
                })
                .collect();
            line.push_str(&format!(
                "; {} tool call{}: {}",
                calls.len(),
                plural(calls.len()),
                shown.join(", ")
            ));
        }
        line
    }

    /// The `--format json` object, with where the stream is.
    pub fn to_json(&self, place: Value) -> Value {
        let mut value = json!({
            "framing": self.framing,
            "events": self.rows.iter().map(|row| json!({
                "index": row.index,
                "type": row.kind.as_deref().map(|k| crate::echo::cut(k, 200).to_string()),
                "id": row.id.as_deref().map(|i| crate::echo::cut(i, 200).to_string()),
                "bytes": row.bytes,
                "preview": row.preview,
                "preview_cut": row.preview_cut,
            })).collect::<Vec<_>>(),
            "assembled": self.result.as_ref().ok().map(|result| json!({
                "shape": result.described.shape,
                "events": result.events,
                "framing": result.framing,
                "tool_calls": result.described.calls.iter().map(|(name, arguments)| json!({
                    "name": name,
                    "arguments": crate::echo::cut(arguments, ARGUMENTS).to_string(),
                })).collect::<Vec<_>>(),
                "notes": result.notes,
            })),
            "problem": self.result.as_ref().err(),
        });
        if let (Value::Object(map), Value::Object(place)) = (&mut value, place) {
            for (key, member) in place {
                map.insert(key, member);
            }
        }
        value
    }
}
