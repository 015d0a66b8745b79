//! What tells a Gemini generateContent document apart (`convert --from
//! auto`): a lone Content, a `functionResponse` and a response by their
//! keys, any other document by the evidence below (weighed in
//! `convert::detect`). Keys count in camelCase and snake_case alike.

use crate::json::{Node, Object};

use super::field;
use crate::contract::detect::{At, Rank, Tier, STRONG};

pub fn document<O: Object>(map: &O) -> Option<Rank> {
    let has = |key: &str| field(map, key).is_some();
    if map.get("parts").is_some_and(Node::is_array) {
        // A lone Content.
        return Some(Rank::new(Tier::ToolResult, 5));
    }
    if has("functionResponse") {
        return Some(Rank::new(Tier::ToolResult, 6));
    }
    if has("candidates") {
        return Some(Rank::new(Tier::Response, 1));
    }
    None
}

/// Request fields only generateContent has.
const SETTINGS: &[&str] = &[
    "contents",
    "systemInstruction",
    "generationConfig",
    "safetySettings",
    "cachedContent",
];

/// What a part holds besides text, only in Gemini.
const PART_KEYS: &[&str] = &[
    "inlineData",
    "fileData",
    "functionCall",
    "functionResponse",
    "thoughtSignature",
    "executableCode",
    "codeExecutionResult",
    "videoMetadata",
];

/// Tool kinds only Gemini declares.
const TOOL_KEYS: &[&str] = &[
    "functionDeclarations",
    "googleSearch",
    "googleSearchRetrieval",
    "codeExecution",
    "urlContext",
    "retrieval",
];

pub fn evidence<N: Node>(at: At<'_>, value: &N) -> u32 {
    let Some(map) = value.as_object() else {
        return 0;
    };
    let has = |key: &str| field(map, key).is_some();
    let own = match at {
        At::Document => {
            SETTINGS.iter().any(|key| has(key))
                // Gemini's toolConfig holds `functionCallingConfig`; Bedrock's, `tools`.
                || field(map, "toolConfig").is_some_and(|(_, c)| {
                    c.as_object()
                        .is_some_and(|c| field(c, "functionCallingConfig").is_some())
                })
        }
        // A Content has `parts`, and the assistant is `model`.
        At::Message => {
            map.contains_key("parts") || map.get("role").and_then(Node::as_str) == Some("model")
        }
        At::Block { list: "parts", .. } => PART_KEYS.iter().any(|key| has(key)),
        At::Tool => TOOL_KEYS.iter().any(|key| has(key)),
        _ => false,
    };
    u32::from(own) * STRONG
}
