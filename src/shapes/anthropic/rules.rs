//! What `validate` asks of Anthropic documents: no empty text blocks or
//! content lists, no audio, images and documents only where Anthropic carries
//! them, the fields a block needs, its id pattern, and where its calls and
//! results stand.

use serde_json::Value;

use crate::contract::rules::{article, blank_text, blocks, empty_content, issue, kind, messages};
use crate::contract::rules::{CallIds, HostedCall, Issue, ToolObject, ValidateFacts};
use crate::json::{Node, Object};

/// A request needs `messages`; call ids match `[a-zA-Z0-9_-]+`.
pub const FACTS: ValidateFacts = ValidateFacts {
    request_list: Some("messages"),
    ids: CallIds {
        pattern: Some(("[a-zA-Z0-9_-]+", |id| {
            !id.is_empty()
                && id
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_-".contains(c))
        })),
        ..ValidateFacts::DEFAULT.ids
    },
    acceptance: super::acceptance::ACCEPTANCE,
    ..ValidateFacts::DEFAULT
};

/// `tool_use` and `tool_result` blocks.
pub fn tool_object<O: Object>(object: &O, _key: Option<&str>) -> Option<ToolObject> {
    match object.get("type").and_then(Node::as_str) {
        Some("tool_use") => Some(ToolObject::Call),
        Some("tool_result") => Some(ToolObject::Result),
        _ => None,
    }
}

/// The reader refuses a `tool_use` without `id` and a `tool_result` without
/// `tool_use_id`.
pub fn required_id_field<O: Object>(object: &O, _key: Option<&str>) -> Option<&'static str> {
    match object.get("type").and_then(Node::as_str) {
        Some("tool_use") => Some("id"),
        Some("tool_result") => Some("tool_use_id"),
        _ => None,
    }
}

/// A `server_tool_use` block: allowed by the declared server tool of its
/// name (`web_search`, `web_fetch`; `bash_code_execution` and
/// `text_editor_code_execution` belong to `code_execution`).
pub fn hosted_call(block: &Value) -> Option<HostedCall> {
    if block.get("type").and_then(Value::as_str) != Some("server_tool_use") {
        return None;
    }
    let name = block.get("name").and_then(Value::as_str).unwrap_or("");
    let mut tools = vec![name.to_string()];
    if name.ends_with("_code_execution") {
        tools.push("code_execution".to_string());
    }
    Some(HostedCall {
        what: format!("server_tool_use of {}", crate::echo::quoted(name)),
        tools,
    })
}

const ANTHROPIC_BLANK: &str = "Anthropic refuses text blocks without non-whitespace text";

/// Whether a text block is one Anthropic refuses: an empty one always; a
/// whitespace-only one when nothing else in its list (a message's content, a
/// tool result's) has substance — beside other content Anthropic accepts it.
fn anthropic_refuses_text<'b, O: Object + 'b>(
    block: &O,
    list: impl IntoIterator<Item = &'b O>,
) -> bool {
    let empty = block.get("text").and_then(Node::as_str) == Some("");
    let substance = || {
        list.into_iter()
            .any(|b| !(kind(b) == "text" && blank_text(b)))
    };
    blank_text(block) && (empty || !substance())
}

/// Anthropic blocks of a message (or the system prompt) with `role`.
fn anthropic_blocks<O: Object>(
    at: &str,
    list: Vec<(usize, &O)>,
    role: &str,
    issues: &mut Vec<Issue>,
) {
    let all: Vec<&O> = list.iter().map(|(_, block)| *block).collect();
    for (i, block) in list {
        let here = format!("{at}/{i}");
        let block_kind = kind(block);
        match block_kind {
            "text" if anthropic_refuses_text(block, all.iter().copied()) => {
                issues.push(issue("text-empty", here, ANTHROPIC_BLANK))
            }
            "audio" | "input_audio" => issues.push(issue(
                "media-placement",
                here,
                "Anthropic has no audio blocks",
            )),
            "image" | "document"
                if role == "system" || role == "assistant" && block_kind == "image" =>
            {
                let what = if block_kind == "image" {
                    "images"
                } else {
                    "documents"
                };
                issues.push(issue(
                    "media-placement",
                    here,
                    format!(
                        "{} {block_kind} block in {} {role} message: Anthropic carries {what} only in user messages and tool results",
                        article(block_kind),
                        article(role),
                    ),
                ))
            }
            "tool_use" if !block.contains_key("input") => issues.push(issue(
                "shape-field",
                here,
                "a tool_use block needs input (an object)",
            )),
            "tool_result" => {
                let inside: Vec<&O> = blocks(block, "content")
                    .into_iter()
                    .map(|(_, b)| b)
                    .collect();
                for (j, inner) in blocks(block, "content") {
                    let inner_at = format!("{here}/content/{j}");
                    match kind(inner) {
                        "text" if anthropic_refuses_text(inner, inside.iter().copied()) => {
                            issues.push(issue("text-empty", inner_at, ANTHROPIC_BLANK))
                        }
                        "tool_use" | "tool_result" => issues.push(issue(
                            "shape-field",
                            inner_at,
                            "a tool_result cannot hold tool calls or results",
                        )),
                        "audio" | "input_audio" => issues.push(issue(
                            "media-placement",
                            inner_at,
                            "Anthropic has no audio blocks",
                        )),
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
}

fn anthropic<N: Node>(value: &N, issues: &mut Vec<Issue>) {
    if let Some(system) = value.get("system").and_then(Node::as_array) {
        let list = system
            .iter()
            .enumerate()
            .filter_map(|(i, b)| b.as_object().map(|b| (i, b)))
            .collect();
        anthropic_blocks("/system", list, "system", issues);
    }
    let list = messages(value, &["messages"]);
    let last = list.len().saturating_sub(1);
    for (i, (at, message)) in list.into_iter().enumerate() {
        empty_content(&at, message, "Anthropic", issues);
        let role = message.get("role").and_then(Node::as_str).unwrap_or("");
        if let Some(text) = message.get("content").and_then(Node::as_str) {
            // Only the final assistant message (a prefill) may be empty.
            let prefill = i == last && role == "assistant" && text.is_empty();
            if text.trim().is_empty() && !prefill {
                issues.push(issue(
                    "text-empty",
                    format!("{at}/content"),
                    "Anthropic refuses messages whose text has no non-whitespace character",
                ));
            }
        }
        anthropic_blocks(
            &format!("{at}/content"),
            blocks(message, "content"),
            role,
            issues,
        );
    }
    // A response's own content.
    if value.get("type").and_then(Node::as_str) == Some("message") {
        if let Some(map) = value.as_object() {
            anthropic_blocks("/content", blocks(map, "content"), "assistant", issues);
        }
    }
}

/// The raw rules: blank text, empty content lists, audio, media placement, tool block fields.
pub fn check<N: Node>(value: &N) -> Vec<Issue> {
    let mut issues = Vec::new();
    anthropic(value, &mut issues);
    issues
}
