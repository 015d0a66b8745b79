//! What `validate` asks of OpenAI Responses documents: no audio parts, and
//! where its calls and results stand. (A message image needs no `detail`:
//! the SDK types require one, but the API defaults it to `auto`.)

use serde_json::Value;

use crate::contract::rules::ValidateFacts;
use crate::contract::rules::{blocks, issue, kind, messages, HostedCall, Issue, ToolObject};
use crate::json::{Node, Object};

/// What the provider accepts of the forms whose fate differs between
/// providers; otherwise a provider's defaults.
pub const FACTS: ValidateFacts = ValidateFacts {
    acceptance: super::acceptance::ACCEPTANCE,
    results_mark_errors: false,
    ..ValidateFacts::DEFAULT
};

/// `function_call` and `function_call_output` items.
pub fn tool_object<O: Object>(object: &O, _key: Option<&str>) -> Option<ToolObject> {
    match object.get("type").and_then(Node::as_str) {
        Some("function_call") => Some(ToolObject::Call),
        Some("function_call_output") => Some(ToolObject::Result),
        _ => None,
    }
}

/// A hosted tool's call item (`web_search_call`, `file_search_call`,
/// `computer_call`, `mcp_call`, …): allowed by a declared tool whose type
/// starts with its own (`web_search` allows `web_search_preview`).
pub fn hosted_call(block: &Value) -> Option<HostedCall> {
    let kind = block.get("type").and_then(Value::as_str)?;
    let tool = kind.strip_suffix("_call")?;
    if matches!(tool, "function" | "custom_tool") {
        return None;
    }
    Some(HostedCall {
        what: format!("the {kind} item"),
        tools: vec![tool.to_string()],
    })
}

/// The raw rules: no audio parts.
pub fn check<N: Node>(value: &N) -> Vec<Issue> {
    let mut issues = Vec::new();
    for (at, item) in messages(value, &["input", "output"]) {
        let content_key = if item.get("type").and_then(Node::as_str) == Some("function_call_output")
        {
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
            }
        }
    }
    issues
}
