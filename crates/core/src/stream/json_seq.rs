//! Streams of bare JSON values: a JSON array whose items arrive one by one
//! (Gemini's `streamGenerateContent` without `alt=sse`), or one value per
//! line. An array that is not closed is a stream cut short, and reported.

use serde_json::Value;

use super::{Event, Events, Framing, StreamProblem};

fn event(data: Value) -> Event {
    Event {
        name: None,
        id: None,
        data,
        json: true,
        exception: false,
    }
}

fn bad(framing: Framing, offset: usize, message: impl Into<String>) -> StreamProblem {
    StreamProblem::BadJson {
        framing: framing.name(),
        offset,
        message: message.into(),
    }
}

fn skip_space(body: &[u8], mut at: usize) -> usize {
    while body.get(at).is_some_and(u8::is_ascii_whitespace) {
        at += 1;
    }
    at
}

pub(super) fn array(body: &[u8]) -> Result<Events, StreamProblem> {
    let framing = Framing::JsonArray;
    let mut at = skip_space(body, 0) + 1; // past `[`
    let mut events = Vec::new();
    loop {
        at = skip_space(body, at);
        match body.get(at) {
            None => return Err(bad(framing, at, "the array is not closed: cut short")),
            Some(b']') if events.is_empty() => {
                at += 1;
                break;
            }
            _ => {}
        }
        let mut values = serde_json::Deserializer::from_slice(&body[at..]).into_iter::<Value>();
        let value = match values.next() {
            Some(Ok(value)) => value,
            Some(Err(error)) if error.is_eof() => {
                return Err(bad(framing, at, "the last item is cut short"))
            }
            Some(Err(error)) => return Err(bad(framing, at, error.to_string())),
            None => return Err(bad(framing, at, "the array is not closed: cut short")),
        };
        at += values.byte_offset();
        events.push(event(value));
        at = skip_space(body, at);
        match body.get(at) {
            Some(b',') => at += 1,
            Some(b']') => {
                at += 1;
                break;
            }
            None => return Err(bad(framing, at, "the array is not closed: cut short")),
            Some(other) => {
                return Err(bad(
                    framing,
                    at,
                    format!("`{}` where `,` or `]` belongs", char::from(*other)),
                ))
            }
        }
    }
    at = skip_space(body, at);
    if at < body.len() {
        return Err(bad(framing, at, "bytes after the array's end"));
    }
    Ok(Events {
        framing,
        events,
        done: false,
    })
}

pub(super) fn lines(body: &[u8]) -> Result<Events, StreamProblem> {
    let framing = Framing::JsonLines;
    let mut events = Vec::new();
    let mut offset = 0;
    for line in body.split(|byte| *byte == b'\n') {
        let start = offset;
        offset += line.len() + 1;
        if line.trim_ascii().is_empty() {
            continue;
        }
        let value = serde_json::from_slice::<Value>(line)
            .map_err(|error| bad(framing, start, error.to_string()))?;
        events.push(event(value));
    }
    Ok(Events {
        framing,
        events,
        done: false,
    })
}
