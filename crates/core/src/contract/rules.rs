//! What a shape's folder needs to answer `validate` (its side of
//! [`Dialect`](super::Dialect)'s validate block): the facts the
//! transcript checks ask of a shape, and the helpers every shape's raw rules
//! (`shapes/<shape>/rules.rs`) share. No shape's own knowledge lives here.

use crate::json::{Node, Object, View};

pub use super::acceptance::{Fact, Form};

/// How much a finding matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// Fails the run.
    Error,
    /// Reported; fails the run only with `--deny-warnings`.
    Warning,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// A repair: replace `bytes[start..end]` of the document with `replacement`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Patch {
    pub start: usize,
    pub end: usize,
    pub replacement: String,
}

/// One finding inside a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issue {
    pub rule: &'static str,
    /// A JSON pointer from the document's root ("" for the whole document).
    pub pointer: String,
    pub message: String,
    /// The repair, for a fixable rule whose text can be patched in place.
    pub patch: Option<Patch>,
    /// The severity where it is not the rule's own: a finding whose weight
    /// depends on the provider (docs/acceptance.md).
    pub severity: Option<Severity>,
}

/// What the transcript checks need to know of a shape.
#[derive(Debug, Clone, Copy)]
pub struct ValidateFacts {
    /// `validate` checks a document detected as this shape as a transcript
    /// (a NeMo Gym reply is checked as a reply instead).
    pub transcript: bool,
    /// URL-safe and unpadded base64 are legal in its documents (protobuf's
    /// JSON mapping).
    pub url_safe_base64: bool,
    /// The list a request of the shape must have (the readers keep a document
    /// without it, for round trips).
    pub request_list: Option<&'static str>,
    /// A request declares every tool it may call (a canonical transcript
    /// need not).
    pub request_declares_tools: bool,
    /// A tool result can say it is an error (`is_error`, `status: "error"`,
    /// `{"error": …}`); OpenAI's results cannot.
    pub results_mark_errors: bool,
    /// What the shape says of tool-call ids.
    pub ids: CallIds,
    /// What the provider accepts and refuses of the forms whose fate differs
    /// between providers (`shapes/<shape>/acceptance.rs`).
    pub acceptance: &'static [Fact],
}

/// A shape's rules for tool-call ids.
#[derive(Debug, Clone, Copy)]
pub struct CallIds {
    /// Calls and results may have no id: id-less results pair with id-less
    /// calls of the same name, in order.
    pub optional: bool,
    /// An empty id is an absent one (proto3 reads it so).
    pub empty_is_absent: bool,
    /// Its tool results carry a call id at all.
    pub in_results: bool,
    /// The pattern a call id must match, where the shape has one.
    pub pattern: Option<IdPattern>,
}

/// A shape's id pattern: how it is written (for messages), and the check.
pub type IdPattern = (&'static str, fn(&str) -> bool);

impl ValidateFacts {
    /// A provider's shape with required ids and no id pattern: what a shape
    /// says unless it says otherwise.
    pub const DEFAULT: ValidateFacts = ValidateFacts {
        transcript: true,
        url_safe_base64: false,
        request_list: None,
        request_declares_tools: true,
        results_mark_errors: true,
        ids: CallIds {
            optional: false,
            empty_is_absent: false,
            in_results: true,
            pattern: None,
        },
        acceptance: &[],
    };
}

/// A hosted tool's call, as the shape keeps it (an opaque block): what to
/// call it in messages, and the names or types of the tools that allow it
/// (a declared hosted tool whose name is one, or whose type is one or starts
/// with one and `_`, a version).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostedCall {
    pub what: String,
    pub tools: Vec<String>,
}

/// What a document object is to the tool-exchange checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolObject {
    Call,
    Result,
}

/// An issue with no repair.
pub fn issue(rule: &'static str, pointer: String, message: impl Into<String>) -> Issue {
    Issue {
        rule,
        pointer,
        message: message.into(),
        patch: None,
        severity: None,
    }
}

/// The messages of a request, list or response (the first of `keys` that
/// holds a list), with their pointers.
pub fn messages<'v, N: Node>(value: &'v N, keys: &[&str]) -> Vec<(String, &'v N::Object)> {
    let (list, base) = match value.view() {
        View::Array(items) => (items, String::new()),
        View::Object(map) => match keys
            .iter()
            .find_map(|k| map.get(k).and_then(Node::as_array).map(|l| (l, *k)))
        {
            Some((list, key)) => (list, format!("/{key}")),
            None => return Vec::new(),
        },
        _ => return Vec::new(),
    };
    list.iter()
        .enumerate()
        .filter_map(|(i, m)| m.as_object().map(|m| (format!("{base}/{i}"), m)))
        .collect()
}

/// The object blocks of the list at `key` of a message, with their indexes.
pub fn blocks<'m, O: Object>(message: &'m O, key: &str) -> Vec<(usize, &'m O)> {
    message
        .get(key)
        .and_then(Node::as_array)
        .map(|items| {
            items
                .iter()
                .enumerate()
                .filter_map(|(i, b)| b.as_object().map(|b| (i, b)))
                .collect()
        })
        .unwrap_or_default()
}

/// A block's `type` ("" without one).
pub fn kind<O: Object>(block: &O) -> &str {
    block.get("type").and_then(Node::as_str).unwrap_or("")
}

/// `a` or `an`, for a word read out in English.
pub fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

/// Whether a block's `text` is empty or whitespace only.
pub fn blank_text<O: Object>(block: &O) -> bool {
    block
        .get("text")
        .and_then(Node::as_str)
        .is_some_and(|t| t.trim().is_empty())
}

/// A message whose content is an empty list, which `shape` (its name in
/// messages) refuses.
pub fn empty_content<O: Object>(at: &str, message: &O, shape: &str, issues: &mut Vec<Issue>) {
    if matches!(message.get("content").and_then(Node::as_array), Some(items) if items.is_empty()) {
        issues.push(issue(
            "content-empty",
            format!("{at}/content"),
            format!("{shape} refuses a message whose content is an empty list"),
        ));
    }
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;
    use crate::part::json_kind;

    /// What the helpers answer of a document, whichever tree holds it.
    fn answers<N: Node>(value: &N) -> Vec<String> {
        let mut out = Vec::new();
        let mut issues = Vec::new();
        for (at, message) in messages(value, &["missing", "messages", "input"]) {
            empty_content(&at, message, "Shape", &mut issues);
            for (i, block) in blocks(message, "content") {
                out.push(format!(
                    "{at}/content/{i} {} {}",
                    kind(block),
                    blank_text(block)
                ));
            }
            for (key, member) in message.members() {
                out.push(format!("{at}/{key} {}", json_kind(member)));
            }
        }
        out.extend(
            issues
                .into_iter()
                .map(|i| format!("{} {}", i.rule, i.pointer)),
        );
        out
    }

    #[test]
    fn both_trees_answer_alike() {
        let texts = [
            r#"{"messages": [{"role": "user", "content": []}, 3, {"content": [{"type": "text", "text": " "}, "x", {"text": "a"}, {"type": 1}], "n": 1.0, "b": null, "t": true}], "input": []}"#,
            r#"{"missing": {}, "input": [{"content": "text"}]}"#,
            r#"[{"content": [{"type": "image"}]}, []]"#,
            r#""messages""#,
        ];
        for text in texts {
            let value: Value = serde_json::from_str(text).unwrap();
            let tree = crate::json::parse(text.as_bytes()).unwrap();
            assert_eq!(answers(&value), answers(&tree), "{text}");
            assert!(
                !answers(&value).is_empty() || text.starts_with('"'),
                "{text}"
            );
        }
    }
}
