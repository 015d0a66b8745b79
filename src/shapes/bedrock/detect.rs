//! What tells a Bedrock Converse document apart (`convert --from auto`): a
//! single `toolResult` and a response by their keys, any other document by
//! the evidence below (weighed in `convert::detect`).

use crate::json::{Node, Object};

use crate::contract::detect::{At, Rank, Tier, STRONG};

pub fn document<O: Object>(map: &O) -> Option<Rank> {
    let has = |key: &str| map.contains_key(key);
    if has("toolResult") {
        return Some(Rank::new(Tier::ToolResult, 7));
    }
    if has("output") && has("stopReason") {
        return Some(Rank::new(Tier::Response, 4));
    }
    None
}

/// Request fields only Converse has.
const SETTINGS: &[&str] = &[
    "modelId",
    "inferenceConfig",
    "additionalModelRequestFields",
    "additionalModelResponseFieldPaths",
    "guardrailConfig",
    "promptVariables",
    "performanceConfig",
    "requestMetadata",
];

/// The keys that name an untyped content block (Converse's blocks have no
/// `type`; each is named by its one key).
const BLOCK_KEYS: &[&str] = &[
    "text",
    "toolUse",
    "toolResult",
    "image",
    "document",
    "video",
    "cachePoint",
    "guardContent",
    "reasoningContent",
    "citationsContent",
    "searchResult",
];

pub fn evidence<N: Node>(at: At<'_>, value: &N) -> u32 {
    let Some(map) = value.as_object() else {
        return 0;
    };
    let untyped = !map.contains_key("type");
    let keyed = || BLOCK_KEYS.iter().any(|key| map.contains_key(key));
    let own = match at {
        At::Document => {
            SETTINGS.iter().any(|key| map.contains_key(key))
                // Bedrock's toolConfig holds `tools`; Gemini's, `functionCallingConfig`.
                || map.get("toolConfig").is_some_and(|c| c.get("tools").is_some())
        }
        // Gemini's parts are untyped too, but stand in `parts`.
        At::Block {
            list: "content", ..
        }
        | At::SystemBlock
        | At::Inner => untyped && keyed(),
        At::Tool => map.contains_key("toolSpec") || (untyped && map.contains_key("cachePoint")),
        _ => false,
    };
    u32::from(own) * STRONG
}
