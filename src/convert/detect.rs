//! Telling a document's shape from its keys (`convert --from auto`).
//!
//! Each shape says what its keys look like (`shapes/<shape>/detect.rs`, asked
//! through [`Dialect`]); this module only asks them all
//! and combines the answers. A document (an object) is decided by the first
//! rule that fits, in this order, which the [`Rank`]s the shapes give their
//! rules keep:
//!
//! 1. single tool results ([`Tier::ToolResult`]): NeMo Gym `tool_output_images` (0);
//!    an Anthropic `tool_result` with `tool_use_id` (1); any other `tool_result`,
//!    canonical (2); a Responses `function_call_output` (3); a Chat `tool`
//!    message with `tool_call_id` (4); a lone Gemini Content with `parts` (5); a
//!    Gemini `functionResponse` (6); a Bedrock `toolResult` (7);
//! 2. responses ([`Tier::Response`]): Chat `choices` (0); Gemini `candidates` (1);
//!    an Anthropic assistant `message` (2); a Responses `response` object (3);
//!    Bedrock `output` with `stopReason` (4);
//! 3. requests ([`Tier::Request`]): Gemini's keys (0); Responses' (1); Bedrock's
//!    (2); an MCP `content` list without a role (3);
//! 4. bodies with a `messages` list ([`Tier::Body`]): canonical `extensions` or
//!    system blocks (0); Anthropic's own settings (1);
//! 5. otherwise a `messages` list decides by its system prompt and its messages
//!    (here: `system_body`, `detect_messages`);
//! 6. last ([`Tier::Loose`]): canonical, by `messages`, `tools` or `system` (0).
//!
//! One message (or item) is decided by its own keys first (ranked like the
//! rules above: Gemini 0, Responses 1, Chat 2, canonical 3, a Chat system
//! message with string content 4), then by the first content block some shape
//! claims (Bedrock's untyped blocks 0, Chat's 1, Responses' 2, a canonical
//! `tool_result` 3, Anthropic's blocks 4 and sourced images 5, canonical calls
//! and opaque blocks 6 and media 7).

use serde_json::{Map, Value};

use crate::shapes::{Dialect, Shape};

/// A detected shape, with a note when close candidates had to be told apart
/// by a guess.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Detected {
    pub shape: Shape,
    pub note: Option<String>,
}

/// The stage of detection a document rule belongs to, in the order they are
/// tried: a single tool result is told first, since its keys are the fewest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Tier {
    ToolResult,
    Response,
    Request,
    /// A body with a `messages` list and keys of its own.
    Body,
    /// Keys that fit only when nothing else did.
    Loose,
}

/// Where a document rule stands in the order of all shapes' rules (see the
/// module): the lowest rank that fits decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Rank {
    pub tier: Tier,
    pub order: u8,
}

impl Rank {
    pub const fn new(tier: Tier, order: u8) -> Rank {
        Rank { tier, order }
    }
}

/// Evidence that leaves more than one shape open; one shape is the guess.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unsure {
    /// Messages with nothing but text.
    PlainMessages,
    /// A body with `system` and `messages` whose blocks tell nothing.
    SystemBody,
}

fn sure(shape: Shape) -> Option<Detected> {
    Some(Detected { shape, note: None })
}

fn guessed(shape: Shape, why: &str) -> Option<Detected> {
    Some(Detected {
        shape,
        note: Some(format!(
            "read the input as {shape} ({why}); pass --from to choose"
        )),
    })
}

/// The shape whose answer ranks lowest (the first in [`Shape::ALL`] on a tie,
/// which the ranks avoid).
fn lowest<R: Ord>(ask: impl Fn(&dyn Dialect) -> Option<R>) -> Option<(R, Shape)> {
    Shape::ALL
        .into_iter()
        .filter_map(|shape| Some((ask(shape.dialect())?, shape)))
        .min()
}

/// The shape that guesses when the evidence leaves `case` open, and why.
fn guess(case: Unsure) -> Option<Detected> {
    Shape::ALL
        .into_iter()
        .find_map(|shape| guessed(shape, shape.dialect().detect_guess(case)?))
}

/// Detects the shape of a document, or `None` when nothing fits.
pub fn detect(value: &Value) -> Option<Detected> {
    match value {
        Value::Object(map) => detect_document(map),
        Value::Array(items) => detect_messages(items),
        _ => None,
    }
}

fn detect_document(map: &Map<String, Value>) -> Option<Detected> {
    let ranked = lowest(|dialect| dialect.detect_document(map));
    if let Some((rank, shape)) = ranked {
        if rank.tier <= Tier::Body {
            return sure(shape);
        }
    }
    if let Some(messages) = map.get("messages").and_then(Value::as_array) {
        return match map.get("system") {
            Some(system) => system_body(system, messages),
            None => detect_messages(messages),
        };
    }
    ranked.and_then(|(_, shape)| sure(shape))
}

/// A body with `messages` and `system`, which Anthropic and Bedrock both
/// have: the blocks tell them apart, the system prompt's first (as the shapes
/// judge it, [`Dialect::detect_system_prompt`]), then the messages'.
fn system_body(system: &Value, messages: &[Value]) -> Option<Detected> {
    let by_messages = detect_messages(messages).filter(|d| d.note.is_none());
    let by_system = Shape::ALL
        .into_iter()
        .find(|shape| shape.dialect().detect_system_prompt(system));
    let by_messages = by_messages.map(|d| d.shape);
    match (by_system, by_messages) {
        (Some(a), Some(b)) if a != b => guessed(
            b,
            "its system prompt and its messages look like different shapes",
        ),
        (Some(shape), _) | (None, Some(shape)) => sure(shape),
        (None, None) => guess(Unsure::SystemBody),
    }
}

/// Detects the shape of a bare list of messages (or items).
fn detect_messages(items: &[Value]) -> Option<Detected> {
    let votes: Vec<Shape> = items.iter().filter_map(message_shape).collect();
    let Some(&first) = votes.first() else {
        // Content that is a string or a list of text blocks fits Chat,
        // Anthropic and canonical alike.
        let text_only = |content: &Value| match content {
            Value::String(_) => true,
            Value::Array(blocks) => blocks.iter().all(|b| {
                b.get("type").and_then(Value::as_str) == Some("text")
                    && b.as_object()
                        .is_some_and(|o| o.keys().all(|k| k == "type" || k == "text"))
            }),
            _ => false,
        };
        let plain = !items.is_empty()
            && items.iter().all(|m| {
                m.get("role").is_some_and(Value::is_string)
                    && m.get("content").is_some_and(text_only)
            });
        return if plain {
            guess(Unsure::PlainMessages)
        } else {
            None
        };
    };
    if votes.iter().all(|shape| *shape == first) {
        return sure(first);
    }
    // Mixed evidence: the most frequent wins, and says so.
    let mut best = first;
    let mut best_count = 0;
    for shape in Shape::ALL {
        let count = votes.iter().filter(|s| **s == shape).count();
        if count > best_count {
            best = shape;
            best_count = count;
        }
    }
    guessed(best, "its messages look like more than one shape")
}

/// What one message (or Responses item) says about its shape: its own keys,
/// else the first of its content blocks that a shape claims.
fn message_shape(item: &Value) -> Option<Shape> {
    let map = item.as_object()?;
    if let Some((_, shape)) = lowest(|dialect| dialect.detect_message(map)) {
        return Some(shape);
    }
    let role = map.get("role").and_then(Value::as_str);
    let blocks = map.get("content")?.as_array()?;
    blocks
        .iter()
        .filter_map(Value::as_object)
        .find_map(|block| lowest(|dialect| dialect.detect_block(block, role)))
        .map(|(_, shape)| shape)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn shape(value: Value) -> Shape {
        detect(&value).expect("detected").shape
    }

    #[test]
    fn detects_requests_responses_and_tool_results() {
        assert_eq!(
            shape(json!({"model": "m", "messages": [{"role": "user", "content": "hi"}]})),
            Shape::OpenaiChat
        );
        assert_eq!(
            shape(json!({"model": "m", "system": "s", "messages": []})),
            Shape::Anthropic
        );
        assert_eq!(shape(json!({"contents": []})), Shape::Gemini);
        assert_eq!(shape(json!({"input": "hi"})), Shape::OpenaiResponses);
        assert_eq!(
            shape(json!({"messages": [], "inferenceConfig": {}})),
            Shape::Bedrock
        );
        assert_eq!(shape(json!({"choices": []})), Shape::OpenaiChat);
        assert_eq!(
            shape(json!({"type": "message", "role": "assistant", "content": []})),
            Shape::Anthropic
        );
        assert_eq!(
            shape(json!({"role": "tool", "tool_call_id": "c", "content": "x"})),
            Shape::OpenaiChat
        );
        assert_eq!(
            shape(json!({"type": "tool_result", "tool_use_id": "t"})),
            Shape::Anthropic
        );
        assert_eq!(
            shape(json!({"type": "tool_result", "call_id": "t"})),
            Shape::Canonical
        );
        assert_eq!(
            shape(json!({"content": [{"type": "text", "text": "x"}]})),
            Shape::Mcp
        );
        assert_eq!(shape(json!({"tool_output_images": null})), Shape::NemoGym);
    }

    #[test]
    fn detects_bare_message_lists() {
        assert_eq!(
            shape(
                json!([{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "x"}}]}])
            ),
            Shape::OpenaiChat
        );
        assert_eq!(
            shape(json!([{"role": "model", "parts": []}])),
            Shape::Gemini
        );
        assert_eq!(
            shape(json!([{"role": "user", "content": [{"text": "hi"}]}])),
            Shape::Bedrock
        );
        assert_eq!(
            shape(json!([{"type": "function_call", "call_id": "c"}])),
            Shape::OpenaiResponses
        );
        let plain = detect(&json!([{"role": "user", "content": "hi"}])).unwrap();
        assert_eq!(plain.shape, Shape::OpenaiChat);
        assert!(plain.note.is_some());
        assert!(detect(&json!([1, 2])).is_none());
        let mixed = detect(&json!([
            {"role": "assistant", "tool_calls": []},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t"}]},
            {"role": "tool", "tool_call_id": "c"}
        ]))
        .unwrap();
        assert_eq!(mixed.shape, Shape::OpenaiChat);
        assert!(mixed.note.unwrap().contains("pass --from"));
    }

    /// Where two shapes' rules both fit, the order of checks (the ranks the
    /// shapes give their rules) decides.
    #[test]
    fn overlapping_rules_keep_the_order_of_checks() {
        let nemo = json!({"tool_output_images": [], "type": "tool_result", "tool_use_id": "t"});
        assert_eq!(shape(nemo), Shape::NemoGym);
        let chat_tool = json!({"role": "tool", "tool_call_id": "c", "parts": []});
        assert_eq!(shape(chat_tool), Shape::OpenaiChat);
        assert_eq!(
            shape(json!({"choices": [], "candidates": []})),
            Shape::OpenaiChat
        );
        assert_eq!(shape(json!({"contents": [], "input": "x"})), Shape::Gemini);
        let mcp = json!({"content": [{"type": "text", "text": "x"}], "messages": []});
        assert_eq!(shape(mcp), Shape::Mcp);
        let canonical = json!({"messages": [], "extensions": {}, "stop_sequences": []});
        assert_eq!(shape(canonical), Shape::Canonical);
        assert_eq!(shape(json!({"tools": []})), Shape::Canonical);
        // Anthropic and Bedrock bodies: the system prompt, then the messages.
        let bedrock = json!({"system": [{"text": "s"}], "messages": [{"role": "user", "content": [{"text": "hi"}]}]});
        assert_eq!(shape(bedrock), Shape::Bedrock);
        let open = detect(&json!({"system": [], "messages": [{"role": "user", "content": "hi"}]}));
        let open = open.unwrap();
        assert_eq!(open.shape, Shape::Anthropic);
        assert!(open.note.unwrap().contains("fit Anthropic and Bedrock"));
        // A tool_result block is canonical in a tool message, else Anthropic's.
        let block = json!({"type": "tool_result", "tool_use_id": "t", "content": "x"});
        assert_eq!(
            shape(json!([{"role": "user", "content": [block.clone()]}])),
            Shape::Anthropic
        );
        assert_eq!(
            shape(json!([{"role": "tool", "content": [block]}])),
            Shape::Canonical
        );
        let image = json!({"type": "image", "source": {}, "mimeType": "image/png"});
        assert_eq!(
            shape(json!([{"role": "user", "content": [image]}])),
            Shape::Anthropic
        );
        assert_eq!(
            shape(json!([{"role": "system", "content": "s"}])),
            Shape::OpenaiChat
        );
    }
}
