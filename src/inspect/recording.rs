//! `inspect` of a recording (docs/commands/inspect.md, "Recordings"): each
//! interaction laid out with its request and response — where each body
//! starts in the file, its shape (a streamed response's assembled shape),
//! its tool calls and media items, and why a body was passed over. Bodies
//! are taken from [`crate::recorded::bodies`], so streams are assembled
//! as `validate` assembles them.
//!
//! Secret headers were never kept by the reader (docs/recordings.md,
//! "Secrets"): they are listed by name with the value `REDACTED`.

use serde_json::{json, Value};

use super::body::{describe_bytes, Described};
use super::{inspect_document, Item};
use crate::recorded::{self, Content, RecordedBody, Side};
use crate::recording::{Headers, Recording};

/// What a secret header's value is shown as.
pub const REDACTED: &str = "REDACTED";

/// One interaction, listed.
#[derive(Debug)]
pub struct Exchange {
    /// From 1.
    pub number: usize,
    pub method: Option<String>,
    /// Already redacted by the reader.
    pub uri: Option<String>,
    pub status: Option<u16>,
    pub reason: Option<String>,
    pub request: Option<Listed>,
    pub response: Option<Listed>,
}

/// One body of an interaction, listed.
#[derive(Debug)]
pub struct Listed {
    pub side: Side,
    /// The line of the file where the body starts.
    pub line: usize,
    pub described: Described,
    /// A streamed response: how many events, and their framing.
    pub streamed: Option<(usize, &'static str)>,
    pub media: Vec<Item>,
    /// Where `--extract` wrote each of [`Listed::media`] (filled in by the
    /// command).
    pub files: Vec<Option<String>>,
    /// Why the body was passed over, what assembling it left out.
    pub notes: Vec<String>,
    /// Name and value; `None` for a secret.
    pub headers: Vec<(String, Option<String>)>,
}

/// Every interaction of `recording`, in the file's order. `extract` keeps
/// the media's bytes for `--extract`.
pub fn list(recording: &Recording, extract: bool) -> Vec<Exchange> {
    let mut bodies = recorded::bodies(recording).into_iter().peekable();
    let mut out = Vec::with_capacity(recording.interactions.len());
    for interaction in &recording.interactions {
        let number = interaction.index + 1;
        let mut exchange = Exchange {
            number,
            method: interaction.request.as_ref().and_then(|r| r.method.clone()),
            uri: interaction.request.as_ref().and_then(|r| r.uri.clone()),
            status: interaction.response.as_ref().and_then(|r| r.status),
            reason: interaction
                .response
                .as_ref()
                .and_then(|r| r.message.clone()),
            request: None,
            response: None,
        };
        let method = exchange.method.as_deref();
        while let Some(body) = bodies.next_if(|b| b.place.interaction == number) {
            match body.place.side {
                Side::Request => {
                    let headers = interaction.request.as_ref().map(|r| &r.headers);
                    exchange.request = Some(listed(&body, headers, method, extract));
                }
                Side::Response => {
                    let headers = interaction.response.as_ref().map(|r| &r.headers);
                    exchange.response = Some(listed(&body, headers, None, extract));
                }
            }
        }
        out.push(exchange);
    }
    out
}

fn listed(
    body: &RecordedBody<'_>,
    headers: Option<&Headers>,
    method: Option<&str>,
    extract: bool,
) -> Listed {
    let mut listed = Listed {
        side: body.place.side,
        line: body.line,
        described: Described::default(),
        streamed: None,
        media: Vec::new(),
        files: Vec::new(),
        notes: Vec::new(),
        headers: headers
            .map(|h| {
                h.0.iter()
                    .map(|h| (h.name.clone(), h.value.clone()))
                    .collect()
            })
            .unwrap_or_default(),
    };
    let json = match &body.content {
        Content::Json(bytes) => {
            listed.described = describe_bytes(bytes, None, method);
            Some(*bytes)
        }
        Content::Stream { assembled, json } => {
            listed.described = describe_bytes(json, Some(assembled.shape), None);
            listed.streamed = Some((assembled.events, assembled.framing.name()));
            listed.notes.extend(assembled.notes.iter().cloned());
            Some(json.as_slice())
        }
        Content::BrokenStream(problem) => {
            listed
                .notes
                .push(format!("a stream that cannot be assembled: {problem}"));
            None
        }
        Content::Empty => {
            listed.notes.push("empty body".to_string());
            None
        }
        Content::Skipped(why) => {
            listed.notes.push(why.clone());
            None
        }
    };
    if let Some(note) = listed.described.note.clone() {
        listed.notes.insert(0, note);
    }
    // A body that does not parse has no media to look for (its note says so).
    let parsed = !listed.notes.iter().any(|n| n.starts_with("not JSON"));
    if let Some(bytes) = json.filter(|_| parsed) {
        match inspect_document(bytes, body.line, extract) {
            Ok(items) => listed.media = items,
            Err(why) => listed.notes.push(why),
        }
    }
    listed.files = vec![None; listed.media.len()];
    listed
}

impl Exchange {
    /// The `--format json` object.
    pub fn to_json(&self, tokens: bool) -> Value {
        json!({
            "interaction": self.number,
            "method": self.method,
            "uri": self.uri,
            "status": self.status,
            "reason": self.reason,
            "request": self.request.as_ref().map(|l| l.to_json(self.number, tokens)),
            "response": self.response.as_ref().map(|l| l.to_json(self.number, tokens)),
        })
    }

    /// The first line of the text block: `interaction 1: POST https://… ->
    /// 200 OK`; what was not recorded is left out.
    pub fn heading(&self) -> String {
        let mut line = format!("interaction {}:", self.number);
        for part in [&self.method, &self.uri].into_iter().flatten() {
            line.push(' ');
            line.push_str(part);
        }
        if self.method.is_none() && self.uri.is_none() {
            line.push_str(" (no request recorded)");
        }
        match (self.status, &self.reason) {
            (Some(status), Some(reason)) => line.push_str(&format!(" -> {status} {reason}")),
            (Some(status), None) => line.push_str(&format!(" -> {status}")),
            (None, _) => {}
        }
        line
    }
}

impl Listed {
    fn to_json(&self, interaction: usize, tokens: bool) -> Value {
        let media: Vec<Value> = self
            .media
            .iter()
            .zip(&self.files)
            .map(|(item, file)| {
                let mut value = match tokens {
                    true => item.to_json_with_tokens(file.as_deref()),
                    false => item.to_json(file.as_deref()),
                };
                if let Value::Object(map) = &mut value {
                    map.insert("interaction".into(), json!(interaction));
                    map.insert("side".into(), json!(self.side.name()));
                }
                value
            })
            .collect();
        json!({
            "line": self.line,
            "shape": self.described.shape,
            "streamed": self.streamed.map(|(events, framing)| json!({"events": events, "framing": framing})),
            "tool_calls": {
                "count": self.described.calls.len(),
                "names": self.described.calls.iter().map(|c| &c.0).collect::<Vec<_>>(),
            },
            "media": media,
            "notes": self.notes,
            "headers": self.headers.iter().map(|(name, value)| json!({
                "name": name,
                "value": value.as_deref().unwrap_or(REDACTED),
            })).collect::<Vec<_>>(),
        })
    }

    /// The body's line of the text block, its notes, and (with `headers`)
    /// its headers, each line indented.
    pub fn text(&self, headers: bool) -> String {
        let mut shape = self
            .described
            .shape
            .clone()
            .unwrap_or_else(|| "-".to_string());
        if let Some((events, framing)) = self.streamed {
            shape.push_str(&format!(
                " (streamed: {events} event{}, {framing})",
                plural(events)
            ));
        }
        let mut line = format!("  {:<8}  line {:<5}  {shape}", self.side.name(), self.line);
        let calls = &self.described.calls;
        if !calls.is_empty() {
            let names: Vec<&str> = calls.iter().map(|c| c.0.as_str()).collect();
            line.push_str(&format!(
                "; {} tool call{}: {}",
                calls.len(),
                plural(calls.len()),
                crate::echo::cut(&names.join(", "), 200)
            ));
        }
        if !self.media.is_empty() {
            line.push_str(&format!(
                "; {} media item{}",
                self.media.len(),
                plural(self.media.len())
            ));
        }
        let mut out = crate::render::sanitize(&line).into_owned();
        out.push('\n');
        for note in &self.notes {
            let note = crate::echo::bound(note);
            out.push_str(&format!("      note: {}\n", crate::render::sanitize(&note)));
        }
        if headers {
            for (name, value) in &self.headers {
                let value = value.as_deref().unwrap_or(REDACTED);
                let header = format!("      {name}: {}", crate::echo::cut(value, 200));
                out.push_str(&crate::render::sanitize(&header));
                out.push('\n');
            }
        }
        out
    }
}

/// `s` for a count other than one.
pub fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
