//! NeMo Gym rollouts: one JSON Lines line per episode,
//! `{"responses_create_params": {…Responses request…}, "response": {…Responses
//! response…}, "reward": 1.0, …ids and the environment's own fields…}`.
//!
//! The conversation of a rollout is the request's input followed by the
//! response's output items (NeMo Gym's agents put the tool outputs they ran
//! there too), with the request's tools and settings: one OpenAI Responses
//! request. It is built from the line's own bytes — the request with the
//! output items copied verbatim to the end of its input — so that a finding
//! or a repair inside it maps back to the exact place in the line.

use std::ops::Range;
use std::sync::LazyLock;

use memchr::memmem::Finder;

use crate::contract::{Conversation, Envelope, LineMap};
use crate::json::{self, Json};
use crate::shapes::Shape;

/// NeMo Gym's rollout line, as the engines open it.
#[derive(Debug, Clone, Copy)]
pub struct Rollout;

impl Envelope for Rollout {
    fn name(&self) -> &'static str {
        "NeMo Gym rollout"
    }

    fn conversation_shape(&self) -> Shape {
        CONVERSATION
    }

    fn holds_text(&self, bytes: &[u8]) -> bool {
        is_rollout_text(bytes)
    }

    fn holds(&self, doc: &Json<'_>) -> bool {
        is_rollout(doc)
    }

    fn open(&self, line: &[u8]) -> Option<Conversation> {
        open(line)
    }

    fn not_one(&self) -> &'static str {
        "not a NeMo Gym rollout: no responses_create_params object"
    }
}

/// The shape of a rollout's conversation (the request's input and the
/// response's output, with the request's tools): an OpenAI Responses request.
pub const CONVERSATION: Shape = Shape::OpenaiResponses;

/// The key holding the request.
pub const REQUEST_KEY: &str = "responses_create_params";
/// The key holding the response.
pub const RESPONSE_KEY: &str = "response";

const REQUEST_POINTER: &str = "/responses_create_params";
const OUTPUT_POINTER: &str = "/response/output";

/// Whether a document is a rollout, told from its text without parsing it:
/// its root is an object whose `responses_create_params` is an object. (Task
/// files, without `response`, are rollouts not yet run.)
pub fn is_rollout_text(bytes: &[u8]) -> bool {
    // The key is in the text as written, or spelled with escapes of its
    // characters (`_` and small letters: `\u005f` to `\u007a`): a text with
    // neither (nearly every one that is not a rollout, `\u00e9` in a tool
    // call's arguments included) is not walked.
    // Both searchers are built once: building one costs as much as
    // searching a small document.
    static KEY: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(REQUEST_KEY));
    static ESCAPE: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(br"\u00"));
    let escapes_a_letter = || {
        ESCAPE
            .find_iter(bytes)
            .any(|at| matches!(bytes.get(at + 4), Some(b'5'..=b'7')))
    };
    let may_hold = KEY.find(bytes).is_some() || escapes_a_letter();
    may_hold
        && json::raw_span(bytes, REQUEST_POINTER).is_some_and(|(start, _)| bytes[start] == b'{')
}

/// [`is_rollout_text`] of a document already parsed (the same test: the last
/// `responses_create_params` member of the root object is an object).
pub fn is_rollout(doc: &Json<'_>) -> bool {
    doc.get(REQUEST_KEY)
        .is_some_and(|request| request.as_object().is_some())
}

/// Bytes of the conversation copied from the line: `len` bytes at `from` in
/// the conversation came from `to` in the line.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Segment {
    from: usize,
    len: usize,
    to: usize,
}

/// Where the items of the conversation's `input` came from.
#[derive(Debug, Clone, PartialEq, Eq)]
enum InputOrigin {
    /// The request's input list had this many items; later ones are output items.
    List(usize),
    /// The request's input was a string, wrapped as item 0 (a user message).
    Text,
}

/// How a rollout's conversation (one Responses request) maps back to the
/// line: the stretches copied from it, and where the input items came from.
#[derive(Debug, Clone, PartialEq, Eq)]
struct RolloutMap {
    segments: Vec<Segment>,
    origin: InputOrigin,
}

/// Builds the conversation of the rollout `line` (which must parse as a
/// rollout: see [`is_rollout_text`]); it replaces `responses_create_params`.
pub fn open(line: &[u8]) -> Option<Conversation> {
    let (req_start, req_end) = json::raw_span(line, REQUEST_POINTER)?;
    let request = req_start..req_end;
    let whole = |segments| {
        let map = RolloutMap {
            segments,
            origin: InputOrigin::List(usize::MAX),
        };
        Conversation::new(line[request.clone()].to_vec(), request.clone(), map)
    };
    let verbatim = vec![Segment {
        from: 0,
        len: req_end - req_start,
        to: req_start,
    }];
    let Some(output) = json::raw_span(line, OUTPUT_POINTER)
        .filter(|(s, _)| line[*s] == b'[')
        .map(|(s, e)| inner(line, s, e))
        .filter(|inner| !inner.is_empty())
    else {
        return Some(whole(verbatim));
    };
    let Some((in_start, in_end)) = json::raw_span(line, &format!("{REQUEST_POINTER}/input")) else {
        return Some(whole(verbatim));
    };
    let mut bytes = Vec::with_capacity(req_end - req_start + output.len() + 32);
    let mut segments = Vec::new();
    let mut copy = |bytes: &mut Vec<u8>, range: Range<usize>| {
        segments.push(Segment {
            from: bytes.len(),
            len: range.len(),
            to: range.start,
        });
        bytes.extend_from_slice(&line[range]);
    };
    let origin = match line[in_start] {
        b'[' => {
            let items = inner(line, in_start, in_end);
            let count =
                serde_json::from_slice::<Vec<serde::de::IgnoredAny>>(&line[in_start..in_end])
                    .ok()?
                    .len();
            // Everything up to the input's closing bracket, the output
            // items, then the rest of the request.
            copy(&mut bytes, req_start..in_end - 1);
            if !items.is_empty() {
                bytes.push(b',');
            }
            copy(&mut bytes, output.clone());
            copy(&mut bytes, in_end - 1..req_end);
            InputOrigin::List(count)
        }
        b'"' => {
            copy(&mut bytes, req_start..in_start);
            bytes.extend_from_slice(br#"[{"role":"user","content":"#);
            copy(&mut bytes, in_start..in_end);
            bytes.extend_from_slice(b"},");
            copy(&mut bytes, output.clone());
            bytes.push(b']');
            copy(&mut bytes, in_end..req_end);
            InputOrigin::Text
        }
        _ => return Some(whole(verbatim)),
    };
    Some(Conversation::new(
        bytes,
        request,
        RolloutMap { segments, origin },
    ))
}

impl RolloutMap {
    /// The line's offset of byte `at` of the conversation, when that byte was
    /// copied from the line.
    fn line_offset(&self, at: usize) -> Option<usize> {
        self.segments
            .iter()
            .find(|s| (s.from..s.from + s.len).contains(&at))
            .map(|s| s.to + (at - s.from))
    }
}

impl LineMap for RolloutMap {
    fn line_range(&self, range: Range<usize>) -> Option<Range<usize>> {
        let start = self.line_offset(range.start)?;
        if range.is_empty() {
            return Some(start..start);
        }
        let last = self.line_offset(range.end - 1)?;
        (last + 1 - start == range.len()).then_some(start..last + 1)
    }

    fn line_pointer(&self, pointer: &str) -> String {
        let mut tokens = pointer.strip_prefix('/').map(|p| p.splitn(3, '/'));
        let (first, index, rest) = match tokens.as_mut() {
            Some(tokens) => (tokens.next(), tokens.next(), tokens.next()),
            None => (None, None, None),
        };
        let index = index.and_then(|i| i.parse::<usize>().ok());
        let rest = rest.map(|r| format!("/{r}")).unwrap_or_default();
        match (first, index, &self.origin) {
            (Some("input"), Some(i), InputOrigin::List(count)) if i >= *count => {
                format!("{OUTPUT_POINTER}/{}{rest}", i - count)
            }
            (Some("input"), Some(0), InputOrigin::Text) => {
                // Inside the wrapper: the string itself is the request's input.
                format!("{REQUEST_POINTER}/input")
            }
            (Some("input"), Some(i), InputOrigin::Text) => {
                format!("{OUTPUT_POINTER}/{}{rest}", i - 1)
            }
            _ => format!("{REQUEST_POINTER}{pointer}"),
        }
    }
}

/// The bytes between the brackets of the array at `start..end`, without the
/// white space around them.
fn inner(line: &[u8], start: usize, end: usize) -> Range<usize> {
    let mut from = start + 1;
    let mut to = end - 1;
    while from < to && line[from].is_ascii_whitespace() {
        from += 1;
    }
    while to > from && line[to - 1].is_ascii_whitespace() {
        to -= 1;
    }
    from..to
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    const LINE: &str = r#"{"responses_create_params": {"input": [{"role":"user","content":"hi"} ], "tools": []}, "response": {"id": "r", "output": [ {"type":"function_call","call_id":"c","name":"f","arguments":"{}"}, {"type":"function_call_output","call_id":"c","output":"ok"}]}, "reward": 1.0}"#;

    #[test]
    fn a_rollout_is_told_from_its_text_however_its_key_is_spelled() {
        let escaped = LINE.replacen(
            "responses_create_params",
            r"responses_create_param\u0073",
            1,
        );
        let cases = [
            (LINE.to_string(), true),
            (escaped, true),
            // A near miss, the key holding a list (with an escape elsewhere),
            // no key, the key deeper down: not rollouts.
            (
                LINE.replacen("responses_create_params", "responses_create_paramz", 1),
                false,
            ),
            (
                r#"{"responses_create_params": [], "x": "\u0041"}"#.to_string(),
                false,
            ),
            (r#"{"model": "m", "messages": []}"#.to_string(), false),
            // Escapes that spell no letter of it, then ones that do (in any
            // case of hex digit).
            (LINE.replace("\"hi\"", r#""caf\u00e9 \u00C9""#), true),
            (
                r#"{"model": "m", "messages": [], "x": "caf\u00e9"}"#.to_string(),
                false,
            ),
            (
                LINE.replacen(
                    "responses_create_params",
                    r"\u0052esponses_create_params",
                    1,
                ),
                false,
            ),
            (
                LINE.replacen(
                    "responses_create_params",
                    r"responses_create_p\u0061rams",
                    1,
                ),
                true,
            ),
            (
                LINE.replacen(
                    "responses_create_params",
                    r"responses\u005Fcreate_params",
                    1,
                ),
                true,
            ),
            (
                r#"{"a": {"responses_create_params": {}}}"#.to_string(),
                false,
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(is_rollout_text(text.as_bytes()), expected, "{text}");
            let parsed = crate::json::parse(text.as_bytes()).unwrap();
            assert_eq!(is_rollout(&parsed), expected, "{text}");
        }
    }

    #[test]
    fn the_conversation_is_the_input_then_the_output() {
        let conversation = open(LINE.as_bytes()).unwrap();
        let value: Value = serde_json::from_slice(&conversation.bytes).unwrap();
        let types: Vec<&str> = value["input"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i.get("type").and_then(Value::as_str).unwrap_or("message"))
            .collect();
        assert_eq!(types, ["message", "function_call", "function_call_output"]);
        assert_eq!(value["tools"], json!([]));
        assert_eq!(
            conversation.line_pointer("/input/0/content"),
            "/responses_create_params/input/0/content"
        );
        assert_eq!(
            conversation.line_pointer("/input/2/output"),
            "/response/output/1/output"
        );
        assert_eq!(
            conversation.line_pointer("/tools"),
            "/responses_create_params/tools"
        );
        assert_eq!(conversation.line_pointer(""), "/responses_create_params");
    }

    #[test]
    fn copied_bytes_map_back_to_the_line() {
        let conversation = open(LINE.as_bytes()).unwrap();
        for needle in ["\"hi\"", "\"ok\"", "\"tools\": []"] {
            let at = find(&conversation.bytes, needle.as_bytes());
            let range = conversation.line_range(at..at + needle.len()).unwrap();
            assert_eq!(&LINE.as_bytes()[range], needle.as_bytes());
        }
    }

    #[test]
    fn a_string_input_becomes_a_user_message() {
        let line = r#"{"responses_create_params": {"input": "hello"}, "response": {"output": [{"type":"message","role":"assistant","content":[{"type":"output_text","text":"hey"}]}]}}"#;
        let conversation = open(line.as_bytes()).unwrap();
        let value: Value = serde_json::from_slice(&conversation.bytes).unwrap();
        assert_eq!(
            value["input"][0],
            json!({"role": "user", "content": "hello"})
        );
        assert_eq!(value["input"][1]["role"], "assistant");
        assert_eq!(
            conversation.line_pointer("/input/0/content"),
            "/responses_create_params/input"
        );
        assert_eq!(
            conversation.line_pointer("/input/1/content/0"),
            "/response/output/0/content/0"
        );
    }

    #[test]
    fn without_output_the_conversation_is_the_request() {
        for line in [
            r#"{"responses_create_params": {"input": []}}"#,
            r#"{"responses_create_params": {"input": []}, "response": null}"#,
            r#"{"responses_create_params": {"input": [1]}, "response": {"output": [ ]}}"#,
        ] {
            let conversation = open(line.as_bytes()).unwrap();
            let request = &line.as_bytes()[conversation.replaces.clone()];
            assert_eq!(conversation.bytes, request);
            assert_eq!(
                conversation.line_pointer("/input/0"),
                "/responses_create_params/input/0"
            );
        }
        let empty_input =
            r#"{"responses_create_params": {"input": []}, "response": {"output": [2]}}"#;
        let conversation = open(empty_input.as_bytes()).unwrap();
        assert_eq!(conversation.bytes, br#"{"input": [2]}"#);
        assert_eq!(conversation.line_pointer("/input/0"), "/response/output/0");
    }

    fn find(haystack: &[u8], needle: &[u8]) -> usize {
        haystack
            .windows(needle.len())
            .position(|w| w == needle)
            .unwrap()
    }
}
