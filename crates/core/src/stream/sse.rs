//! Server-sent events, as the HTML standard reads them: lines end with
//! `\r\n`, `\n` or `\r`; a blank line ends an event; a line starting with `:`
//! is a comment; `data:` lines join with `\n`; one space after the colon is
//! not part of the value. Unlike a browser, a last event with no blank line
//! after it is kept (recordings often lose the final newline), and OpenAI's
//! `data: [DONE]` is taken as the end mark, not as an event.

use super::{Event, Events, Framing};

pub(super) fn parse(body: &[u8]) -> Events {
    let text = String::from_utf8_lossy(body);
    let mut events = Vec::new();
    let mut done = false;
    let mut pending = Pending::default();
    for line in lines(&text) {
        if line.is_empty() {
            pending.dispatch(&mut events, &mut done);
            continue;
        }
        if line.starts_with(':') {
            continue;
        }
        let (field, value) = match line.split_once(':') {
            Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
            None => (line, ""),
        };
        match field {
            "event" => pending.name = Some(value.to_string()),
            "data" => {
                let data = pending.data.get_or_insert_with(String::new);
                if !data.is_empty() || pending.lines > 0 {
                    data.push('\n');
                }
                data.push_str(value);
                pending.lines += 1;
            }
            "id" if !value.contains('\0') => pending.id = Some(value.to_string()),
            // `retry:` and unknown fields are ignored, as the standard says.
            _ => {}
        }
    }
    pending.dispatch(&mut events, &mut done);
    Events {
        framing: Framing::Sse,
        events,
        done,
    }
}

#[derive(Default)]
struct Pending {
    name: Option<String>,
    id: Option<String>,
    data: Option<String>,
    lines: usize,
}

impl Pending {
    fn dispatch(&mut self, events: &mut Vec<Event>, done: &mut bool) {
        let pending = std::mem::take(self);
        let Some(data) = pending.data else {
            // An event with no data is not dispatched.
            return;
        };
        if data.trim() == "[DONE]" {
            *done = true;
            return;
        }
        events.push(Event::from_text(pending.name, pending.id, &data));
    }
}

/// The lines of `text`, split at `\r\n`, `\n` or a lone `\r`.
fn lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        match rest.find(['\r', '\n']) {
            Some(at) => {
                let line = &rest[..at];
                let skip = if rest[at..].starts_with("\r\n") { 2 } else { 1 };
                rest = &rest[at + skip..];
                Some(line)
            }
            None => {
                let line = rest;
                rest = "";
                Some(line)
            }
        }
    })
}
