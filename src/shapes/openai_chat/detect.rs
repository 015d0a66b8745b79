//! What tells an OpenAI Chat Completions document apart (`convert --from
//! auto`): a single `tool` message and a response by their keys, any other
//! document by the evidence below (weighed in `convert::detect`).

use crate::json::{Node, Object};

use crate::contract::detect::{At, Rank, Tier, Unsure, HINT, STRONG, WEAK};

pub fn document<O: Object>(map: &O) -> Option<Rank> {
    if map.get("role").and_then(Node::as_str) == Some("tool") && map.contains_key("tool_call_id") {
        return Some(Rank::new(Tier::ToolResult, 4));
    }
    if map.contains_key("choices") {
        return Some(Rank::new(Tier::Response, 0));
    }
    None
}

/// Request settings only Chat Completions has.
const SETTINGS: &[&str] = &[
    "max_completion_tokens",
    "response_format",
    "functions",
    "function_call",
    "logit_bias",
    "logprobs",
    "n",
    "prediction",
    "web_search_options",
    "reasoning_effort",
    "stream_options",
    "modalities",
    "audio",
];

pub fn evidence<N: Node>(at: At<'_>, value: &N) -> u32 {
    let Some(map) = value.as_object() else {
        return 0;
    };
    let has = |key: &str| map.contains_key(key);
    let kind = map.get("type").and_then(Node::as_str);
    match at {
        At::Document => u32::from(SETTINGS.iter().any(|key| has(key))) * STRONG,
        At::Message => {
            let role = map.get("role").and_then(Node::as_str);
            if has("tool_calls") || has("tool_call_id") || role == Some("function") {
                STRONG
            } else if matches!(role, Some("system" | "developer"))
                && map.get("content").is_some_and(|c| !c.is_array())
            {
                // Anthropic and Bedrock have no system messages; canonical
                // writes their content as a list.
                WEAK
            } else {
                u32::from(has("name") && has("role")) * HINT
            }
        }
        At::Block {
            list: "content", ..
        } => match kind {
            Some("image_url" | "input_audio" | "refusal") => STRONG,
            Some("file") if has("file") => STRONG,
            _ => 0,
        },
        // `{"type": "function", "function": {…}}`.
        At::Tool => u32::from(has("function")) * STRONG,
        _ => 0,
    }
}

/// Messages of plain text fit Chat, Anthropic and canonical alike, and a
/// list of messages nothing tells apart is most often Chat's: Chat is the
/// common case.
pub fn guess(case: Unsure) -> Option<&'static str> {
    match case {
        Unsure::PlainMessages => Some("plain text messages fit several shapes"),
        Unsure::Messages => Some("nothing in its messages tells the shape"),
        Unsure::SystemBody => None,
    }
}

/// OpenAI's models, as a body sent to OpenAI names them. A body with a
/// list of messages that names one is Chat's (a Responses body has `input`).
pub fn model(model: &str) -> bool {
    ["gpt-", "chatgpt-", "o1", "o3", "o4-"]
        .iter()
        .any(|prefix| model.starts_with(prefix))
}
