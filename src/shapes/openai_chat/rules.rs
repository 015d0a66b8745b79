//! What `validate` asks of OpenAI Chat documents: media only in user
//! messages, no empty content or tool_calls lists, and where its calls and
//! results stand.

use crate::contract::rules::{article, blocks, empty_content, issue, kind, messages};
use crate::contract::rules::{Issue, ToolObject, ValidateFacts};
use crate::json::{Node, Object};

/// A request needs `messages`.
pub const FACTS: ValidateFacts = ValidateFacts {
    request_list: Some("messages"),
    acceptance: super::acceptance::ACCEPTANCE,
    results_mark_errors: false,
    ..ValidateFacts::DEFAULT
};

/// A function entry of `tool_calls` is a call; a `tool` message is a result.
pub fn tool_object<O: Object>(object: &O, key: Option<&str>) -> Option<ToolObject> {
    let kind = object.get("type").and_then(Node::as_str);
    if key == Some("tool_calls")
        && matches!(kind, None | Some("function"))
        && object.get("function").is_some_and(Node::is_object)
    {
        Some(ToolObject::Call)
    } else if object.get("role").and_then(Node::as_str) == Some("tool") {
        Some(ToolObject::Result)
    } else {
        None
    }
}

/// The reader refuses a tool message without `tool_call_id`.
pub fn required_id_field<O: Object>(object: &O, _key: Option<&str>) -> Option<&'static str> {
    (object.get("role").and_then(Node::as_str) == Some("tool")).then_some("tool_call_id")
}

/// The raw rules: no empty content or tool_calls lists, media only in user
/// messages.
pub fn check<N: Node>(value: &N) -> Vec<Issue> {
    let mut issues = Vec::new();
    for (at, message) in messages(value, &["messages"]) {
        empty_content(&at, message, "OpenAI Chat", &mut issues);
        let role = message.get("role").and_then(Node::as_str).unwrap_or("");
        // The API answers 400 "Invalid 'messages[1].tool_calls': empty array.
        // Expected an array with minimum length 1"; `null` it reads as absent.
        if matches!(message.get("tool_calls").and_then(Node::as_array), Some(calls) if calls.is_empty())
        {
            issues.push(issue(
                "shape-field",
                format!("{at}/tool_calls"),
                "OpenAI Chat refuses an empty tool_calls list (leave it out, or null)",
            ));
        }
        for (i, block) in blocks(message, "content") {
            let media = matches!(kind(block), "image_url" | "input_audio" | "file");
            if media && role != "user" {
                issues.push(issue(
                    "media-placement",
                    format!("{at}/content/{i}"),
                    format!(
                        "{} {} part in {} {role} message: Chat Completions carries media only in user messages (deliver tool media in a following user message)",
                        article(kind(block)),
                        kind(block),
                        article(role),
                    ),
                ));
            }
        }
    }
    issues
}
