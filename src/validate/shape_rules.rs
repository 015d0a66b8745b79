//! What each provider shape allows where (research/providers.md): media only in
//! the messages that may carry it, no empty text blocks where the API refuses
//! them, the fields a block must have, the order of roles.

use serde_json::{Map, Value};

use super::document::Issue;
use crate::shapes::Shape;

fn issue(rule: &'static str, pointer: String, message: impl Into<String>) -> Issue {
    Issue {
        rule,
        pointer,
        message: message.into(),
        patch: None,
    }
}

/// The messages of a request, list or response, with their pointers.
fn messages<'v>(value: &'v Value, keys: &[&str]) -> Vec<(String, &'v Map<String, Value>)> {
    let (list, base) = match value {
        Value::Array(items) => (items, String::new()),
        Value::Object(map) => match keys
            .iter()
            .find_map(|k| map.get(*k).and_then(Value::as_array).map(|l| (l, *k)))
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

fn blocks<'m>(message: &'m Map<String, Value>, key: &str) -> Vec<(usize, &'m Map<String, Value>)> {
    message
        .get(key)
        .and_then(Value::as_array)
        .map(|items| {
            items
                .iter()
                .enumerate()
                .filter_map(|(i, b)| b.as_object().map(|b| (i, b)))
                .collect()
        })
        .unwrap_or_default()
}

fn kind(block: &Map<String, Value>) -> &str {
    block.get("type").and_then(Value::as_str).unwrap_or("")
}

/// `a` or `an`, for a word read out in English.
pub(super) fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

fn blank_text(block: &Map<String, Value>) -> bool {
    block
        .get("text")
        .and_then(Value::as_str)
        .is_some_and(|t| t.trim().is_empty())
}

/// The shape's own rules on the raw document.
pub fn check(value: &Value, shape: Shape) -> Vec<Issue> {
    let mut issues = Vec::new();
    match shape {
        Shape::OpenaiChat => openai_chat(value, &mut issues),
        Shape::OpenaiResponses => openai_responses(value, &mut issues),
        Shape::Anthropic => anthropic(value, &mut issues),
        Shape::Gemini => gemini(value, &mut issues),
        Shape::Bedrock => bedrock(value, &mut issues),
        _ => {}
    }
    issues
}

/// A message whose content is an empty list, which `shape` refuses.
fn empty_content(at: &str, message: &Map<String, Value>, shape: &str, issues: &mut Vec<Issue>) {
    if matches!(message.get("content"), Some(Value::Array(items)) if items.is_empty()) {
        issues.push(issue(
            "content-empty",
            format!("{at}/content"),
            format!("{shape} refuses a message whose content is an empty list"),
        ));
    }
}

fn openai_chat(value: &Value, issues: &mut Vec<Issue>) {
    for (at, message) in messages(value, &["messages"]) {
        empty_content(&at, message, "OpenAI Chat", issues);
        let role = message.get("role").and_then(Value::as_str).unwrap_or("");
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
}

fn openai_responses(value: &Value, issues: &mut Vec<Issue>) {
    for (at, item) in messages(value, &["input", "output"]) {
        let content_key =
            if item.get("type").and_then(Value::as_str) == Some("function_call_output") {
                "output"
            } else {
                "content"
            };
        for (i, block) in blocks(item, content_key) {
            let here = format!("{at}/{content_key}/{i}");
            if kind(block) == "input_audio" {
                issues.push(issue(
                    "media-placement",
                    here,
                    "Responses input has no audio parts",
                ));
            } else if kind(block) == "input_image"
                && content_key == "content"
                && !block.contains_key("detail")
            {
                issues.push(issue(
                    "shape-field",
                    here,
                    "an input_image in a message needs detail",
                ));
            }
        }
    }
}

const ANTHROPIC_BLANK: &str = "Anthropic refuses text blocks without non-whitespace text";

/// Whether a text block is one Anthropic refuses: an empty one always; a
/// whitespace-only one when nothing else in its list (a message's content, a
/// tool result's) has substance — beside other content Anthropic accepts it.
fn anthropic_refuses_text<'b>(
    block: &Map<String, Value>,
    list: impl IntoIterator<Item = &'b Map<String, Value>>,
) -> bool {
    let empty = block.get("text").and_then(Value::as_str) == Some("");
    let substance = || {
        list.into_iter()
            .any(|b| !(kind(b) == "text" && blank_text(b)))
    };
    blank_text(block) && (empty || !substance())
}

/// Anthropic blocks of a message (or the system prompt) with `role`.
fn anthropic_blocks(
    at: &str,
    list: Vec<(usize, &Map<String, Value>)>,
    role: &str,
    issues: &mut Vec<Issue>,
) {
    let all: Vec<&Map<String, Value>> = list.iter().map(|(_, block)| *block).collect();
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
                let inside: Vec<&Map<String, Value>> = blocks(block, "content")
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

fn anthropic(value: &Value, issues: &mut Vec<Issue>) {
    if let Some(Value::Array(system)) = value.get("system") {
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
        let role = message.get("role").and_then(Value::as_str).unwrap_or("");
        if let Some(Value::String(text)) = message.get("content") {
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
    if value.get("type").and_then(Value::as_str) == Some("message") {
        if let Some(map) = value.as_object() {
            anthropic_blocks("/content", blocks(map, "content"), "assistant", issues);
        }
    }
}

fn gemini(value: &Value, issues: &mut Vec<Issue>) {
    // Contents of a request or list, a lone Content, a response's candidates.
    let mut contents = messages(value, &["contents"]);
    if let Some(map) = value.as_object().filter(|m| m.contains_key("parts")) {
        contents.push((String::new(), map));
    }
    if let Some(Value::Array(candidates)) = value.get("candidates") {
        for (k, candidate) in candidates.iter().enumerate() {
            if let Some(content) = candidate.get("content").and_then(Value::as_object) {
                contents.push((format!("/candidates/{k}/content"), content));
            }
        }
    }
    for (at, content) in contents {
        for (i, part) in blocks(content, "parts") {
            let Some((key, response)) = ["functionResponse", "function_response"]
                .iter()
                .find_map(|key| part.get(*key).and_then(Value::as_object).map(|r| (*key, r)))
            else {
                continue;
            };
            let here = format!("{at}/parts/{i}/{key}");
            if !response.contains_key("name") {
                issues.push(issue(
                    "shape-field",
                    here.clone(),
                    "a functionResponse needs a name",
                ));
            }
            match response.get("response") {
                Some(Value::Object(_)) => {}
                Some(other) => issues.push(issue(
                    "shape-field",
                    format!("{here}/response"),
                    format!(
                        "functionResponse.response must be an object ({{\"output\": …}}), not {}",
                        crate::part::json_kind(other)
                    ),
                )),
                None => issues.push(issue(
                    "shape-field",
                    here.clone(),
                    "a functionResponse needs a response object",
                )),
            }
            if let Some(Value::Array(parts)) = response.get("parts") {
                for (j, inner) in parts.iter().enumerate() {
                    let blob = inner.as_object().is_some_and(|inner| {
                        ["inlineData", "inline_data", "fileData", "file_data"]
                            .iter()
                            .any(|k| inner.contains_key(*k))
                    });
                    if !blob {
                        issues.push(issue(
                            "shape-field",
                            format!("{here}/parts/{j}"),
                            "a functionResponse part carries inlineData or fileData only (text belongs in response)",
                        ));
                    }
                }
            }
        }
    }
}

fn bedrock(value: &Value, issues: &mut Vec<Issue>) {
    let mut previous: Option<String> = None;
    let mut list = messages(value, &["messages"]);
    // A response's message.
    if let Some(message) = value.pointer("/output/message").and_then(Value::as_object) {
        list.push(("/output/message".to_string(), message));
    }
    if let Some(Value::Array(tools)) = value.pointer("/toolConfig/tools") {
        if tools.is_empty() {
            issues.push(issue(
                "shape-field",
                "/toolConfig/tools".to_string(),
                "toolConfig.tools needs at least one tool (leave toolConfig out instead)",
            ));
        }
        for (i, tool) in tools.iter().enumerate() {
            if let Some(spec) = tool.get("toolSpec").and_then(Value::as_object) {
                if !spec.contains_key("inputSchema") {
                    issues.push(issue(
                        "shape-field",
                        format!("/toolConfig/tools/{i}/toolSpec"),
                        "a toolSpec needs an inputSchema",
                    ));
                }
            }
        }
    }
    for (at, message) in list {
        empty_content(&at, message, "Bedrock", issues);
        let role = message
            .get("role")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        if previous.as_deref() == Some(role.as_str()) {
            issues.push(issue(
                "shape-order",
                format!("{at}/role"),
                format!("two {role} messages in a row: Converse roles alternate"),
            ));
        }
        previous = Some(role.clone());
        for (i, block) in blocks(message, "content") {
            let here = format!("{at}/content/{i}");
            bedrock_block(block, &here, &role, issues);
            if let Some(call) = block.get("toolUse").and_then(Value::as_object) {
                if !call.contains_key("input") {
                    issues.push(issue(
                        "shape-field",
                        format!("{here}/toolUse"),
                        "a toolUse needs input (an object)",
                    ));
                }
            }
            if let Some(result) = block.get("toolResult").and_then(Value::as_object) {
                for (j, inner) in blocks(result, "content") {
                    let inner_at = format!("{here}/toolResult/content/{j}");
                    if inner.contains_key("audio") {
                        issues.push(issue(
                            "media-placement",
                            inner_at.clone(),
                            "a toolResult cannot carry audio",
                        ));
                    }
                    bedrock_block(inner, &inner_at, "tool", issues);
                }
            }
        }
    }
}

fn bedrock_block(block: &Map<String, Value>, at: &str, role: &str, issues: &mut Vec<Issue>) {
    if let Some(Value::String(text)) = block.get("text") {
        if text.trim().is_empty() {
            issues.push(issue(
                "text-empty",
                at.to_string(),
                "Converse refuses blank text blocks",
            ));
        }
    }
    if let Some(image) = block.get("image").and_then(Value::as_object) {
        if role == "assistant" {
            issues.push(issue(
                "media-placement",
                at.to_string(),
                "images are allowed only in user messages",
            ));
        }
        let format = image.get("format").and_then(Value::as_str).unwrap_or("");
        if !matches!(format, "png" | "jpeg" | "gif" | "webp") {
            issues.push(issue(
                "shape-field",
                format!("{at}/image/format"),
                format!("image format {format:?} is not png, jpeg, gif or webp"),
            ));
        }
    }
    if let Some(document) = block.get("document").and_then(Value::as_object) {
        let name = document.get("name").and_then(Value::as_str).unwrap_or("");
        let valid = !name.is_empty()
            && name.len() <= 200
            && !name.contains("  ")
            && name.chars().all(|c| {
                c.is_ascii_alphanumeric() || matches!(c, ' ' | '-' | '_' | '(' | ')' | '[' | ']')
            });
        if !valid {
            issues.push(issue(
                "shape-field",
                format!("{at}/document/name"),
                format!(
                    "document name {name:?} is outside Bedrock's alphabet (letters, digits, single spaces, hyphens, underscores, parentheses, brackets)"
                ),
            ));
        }
    }
}
