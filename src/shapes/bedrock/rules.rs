//! What `validate` asks of Bedrock Converse documents: alternating roles, no
//! blank text or empty content, image formats and placement, document names,
//! tool fields, its id pattern, and where its calls and results stand.

use crate::contract::rules::{blocks, empty_content, issue, messages};
use crate::contract::rules::{CallIds, Issue, ToolObject, ValidateFacts};
use crate::json::{Node, Object};

/// Call ids match `[a-zA-Z0-9_.:-]{1,64}`.
pub const FACTS: ValidateFacts = ValidateFacts {
    ids: CallIds {
        pattern: Some(("[a-zA-Z0-9_.:-]{1,64}", |id| {
            !id.is_empty()
                && id.len() <= 64
                && id
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_.:-".contains(c))
        })),
        ..ValidateFacts::DEFAULT.ids
    },
    acceptance: super::acceptance::ACCEPTANCE,
    ..ValidateFacts::DEFAULT
};

/// Blocks are keyed unions: a `toolUse` is a call, a `toolResult` a result.
pub fn tool_object<O: Object>(_object: &O, key: Option<&str>) -> Option<ToolObject> {
    match key {
        Some("toolUse") => Some(ToolObject::Call),
        Some("toolResult") => Some(ToolObject::Result),
        _ => None,
    }
}

/// The reader refuses a `toolResult` without `toolUseId`.
pub fn required_id_field<O: Object>(_object: &O, key: Option<&str>) -> Option<&'static str> {
    (key == Some("toolResult")).then_some("toolUseId")
}

fn bedrock<N: Node>(value: &N, issues: &mut Vec<Issue>) {
    let mut previous: Option<String> = None;
    let mut list = messages(value, &["messages"]);
    // A response's message.
    if let Some(message) = value
        .get("output")
        .and_then(|output| output.get("message"))
        .and_then(Node::as_object)
    {
        list.push(("/output/message".to_string(), message));
    }
    if let Some(tools) = value
        .get("toolConfig")
        .and_then(|config| config.get("tools"))
        .and_then(Node::as_array)
    {
        if tools.is_empty() {
            issues.push(issue(
                "shape-field",
                "/toolConfig/tools".to_string(),
                "toolConfig.tools needs at least one tool (leave toolConfig out instead)",
            ));
        }
        for (i, tool) in tools.iter().enumerate() {
            if let Some(spec) = tool.get("toolSpec").and_then(Node::as_object) {
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
            .and_then(Node::as_str)
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
            if let Some(call) = block.get("toolUse").and_then(Node::as_object) {
                if !call.contains_key("input") {
                    issues.push(issue(
                        "shape-field",
                        format!("{here}/toolUse"),
                        "a toolUse needs input (an object)",
                    ));
                }
            }
            if let Some(result) = block.get("toolResult").and_then(Node::as_object) {
                for (j, inner) in blocks(result, "content") {
                    let inner_at = format!("{here}/toolResult/content/{j}");
                    let refused =
                        ["image", "document", "audio", "video"]
                            .into_iter()
                            .find(|block| {
                                inner.contains_key(block) && !super::formats::in_tool_result(block)
                            });
                    if let Some(block) = refused {
                        issues.push(issue(
                            "media-placement",
                            inner_at.clone(),
                            format!("a toolResult cannot carry {block}"),
                        ));
                    }
                    bedrock_block(inner, &inner_at, "tool", issues);
                }
            }
        }
    }
}

fn bedrock_block<O: Object>(block: &O, at: &str, role: &str, issues: &mut Vec<Issue>) {
    if let Some(text) = block.get("text").and_then(Node::as_str) {
        if text.trim().is_empty() {
            issues.push(issue(
                "text-empty",
                at.to_string(),
                "Converse refuses blank text blocks",
            ));
        }
    }
    if let Some(image) = block.get("image").and_then(Node::as_object) {
        if role == "assistant" {
            issues.push(issue(
                "media-placement",
                at.to_string(),
                "images are allowed only in user messages",
            ));
        }
        let format = image.get("format").and_then(Node::as_str).unwrap_or("");
        if super::formats::media_type("image", format).is_none() {
            issues.push(issue(
                "shape-field",
                format!("{at}/image/format"),
                format!(
                    "image format {format} is not {}",
                    crate::shapes::join_or(&super::formats::tokens("image")),
                    format = crate::echo::quoted(format)
                ),
            ));
        }
    }
    if let Some(document) = block.get("document").and_then(Node::as_object) {
        let name = document.get("name").and_then(Node::as_str).unwrap_or("");
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
                    "document name {name} is outside Bedrock's alphabet (letters, digits, single spaces, hyphens, underscores, parentheses, brackets)", name = crate::echo::quoted(name)),
            ));
        }
    }
}

/// The raw rules: tool config, role order, and every block.
pub fn check<N: Node>(value: &N) -> Vec<Issue> {
    let mut issues = Vec::new();
    bedrock(value, &mut issues);
    issues
}
