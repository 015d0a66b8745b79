use serde_json::json;

use super::*;

#[test]
fn sse_fields_comments_and_line_ends() {
    let body = b": a comment\r\nevent: one\r\nid: 7\r\ndata: {\"a\":\r\ndata: 1}\r\n\r\ndata: plain\n\ndata:[DONE]\n\n";
    let events = parse(body).unwrap();
    assert_eq!(events.framing, Framing::Sse);
    assert!(events.done);
    assert_eq!(events.events.len(), 2);
    assert_eq!(events.events[0].name.as_deref(), Some("one"));
    assert_eq!(events.events[0].id.as_deref(), Some("7"));
    assert_eq!(events.events[0].data, json!({"a": 1}));
    assert!(!events.events[1].json);
    assert_eq!(events.events[1].data, json!("plain"));
}

#[test]
fn sse_last_event_without_a_blank_line_is_kept() {
    let events = parse(b"data: {\"x\":1}\r\rdata: {\"x\":2}").unwrap();
    assert_eq!(events.events.len(), 2);
    assert_eq!(events.events[1].data, json!({"x": 2}));
    assert!(!events.done);
}

#[test]
fn json_array_and_lines() {
    let events = parse(b"[{\"a\":1}\n,\r\n{\"a\":2}\n]").unwrap();
    assert_eq!(events.framing, Framing::JsonArray);
    assert_eq!(events.events.len(), 2);
    let cut = parse(b"[{\"a\":1}\n,\r\n{\"a\":").unwrap_err();
    assert!(matches!(cut, StreamProblem::BadJson { .. }), "{cut}");
    let unclosed = parse(b"[{\"a\":1}\n,").unwrap_err();
    assert!(unclosed.to_string().contains("cut short"), "{unclosed}");
    let lines = parse(b"{\"a\":1}\n{\"a\":2}").unwrap();
    assert_eq!(lines.framing, Framing::JsonLines);
    assert_eq!(lines.events.len(), 2);
}

/// A frame as the service writes one.
pub(crate) fn frame(headers: &[(&str, &str)], payload: &[u8]) -> Vec<u8> {
    let mut head = Vec::new();
    for (name, value) in headers {
        head.push(name.len() as u8);
        head.extend_from_slice(name.as_bytes());
        head.push(7);
        head.extend_from_slice(&(value.len() as u16).to_be_bytes());
        head.extend_from_slice(value.as_bytes());
    }
    let total = 16 + head.len() + payload.len();
    let mut out = Vec::new();
    out.extend_from_slice(&(total as u32).to_be_bytes());
    out.extend_from_slice(&(head.len() as u32).to_be_bytes());
    out.extend_from_slice(&crc32fast::hash(&out).to_be_bytes());
    out.extend_from_slice(&head);
    out.extend_from_slice(payload);
    out.extend_from_slice(&crc32fast::hash(&out).to_be_bytes());
    out
}

#[test]
fn event_stream_frames_are_checked() {
    let one = frame(
        &[(":event-type", "messageStart"), (":message-type", "event")],
        br#"{"role":"assistant"}"#,
    );
    let two = frame(
        &[
            (":exception-type", "throttlingException"),
            (":message-type", "exception"),
        ],
        br#"{"message":"slow down"}"#,
    );
    let body = [one.clone(), two].concat();
    let events = parse(&body).unwrap();
    assert_eq!(events.framing, Framing::EventStream);
    assert_eq!(events.events[0].name.as_deref(), Some("messageStart"));
    assert_eq!(events.events[0].data, json!({"role": "assistant"}));
    assert!(events.events[1].exception);
    assert_eq!(
        events.events[1].name.as_deref(),
        Some("throttlingException")
    );

    let mut bad = one.clone();
    let at = bad.len() - 6;
    bad[at] ^= 1;
    let problem = parse(&bad).unwrap_err();
    assert!(
        matches!(
            problem,
            StreamProblem::BadChecksum {
                which: "message",
                frame: 0,
                ..
            }
        ),
        "{problem}"
    );
    let mut bad_prelude = one.clone();
    bad_prelude[9] ^= 1;
    assert!(matches!(
        parse(&bad_prelude).unwrap_err(),
        StreamProblem::BadChecksum {
            which: "prelude",
            ..
        }
    ));
    let cut = [one.clone(), one[..one.len() - 3].to_vec()].concat();
    let problem = parse(&cut).unwrap_err();
    assert!(
        matches!(problem, StreamProblem::CutFrame { frame: 1, .. }),
        "{problem}"
    );
}
