//! Telling a document's shape from what it holds (`convert --from auto`,
//! `validate`). The decisions are written down in docs/detection.md.
//!
//! Each shape says what only it writes (`shapes/<shape>/detect.rs`, asked
//! through [`Dialect`]); this module walks the document and weighs the answers.
//!
//! 1. A single tool result or a response is told by its own keys, which are
//!    few and unmistakable ([`Tier`]; the lowest [`Rank`] of all shapes
//!    decides): NeMo Gym `tool_output_images` (0); an Anthropic `tool_result`
//!    with `tool_use_id` (1); any other `tool_result`, canonical (2); a
//!    Responses `function_call_output` (3); a Chat `tool` message with
//!    `tool_call_id` (4); a lone Gemini Content with `parts` (5); a Gemini
//!    `functionResponse` (6); a Bedrock `toolResult` (7); then Chat `choices`
//!    (0), Gemini `candidates` (1), an Anthropic assistant `message` (2), a
//!    Responses `response` object (3), Bedrock `output` with `stopReason` (4).
//! 2. Anything else — a request body or a list of messages — is weighed by
//!    its evidence over the whole document: every top-level key, message,
//!    content block, system block and tool declaration is shown to every
//!    shape, which scores what only it writes ([`STRONG`]) or what leans its
//!    way ([`WEAK`]). The highest total wins; a tie goes by [`tie_order`].
//!    When another shape's evidence is close or strong too, the document is
//!    read as the likelier one and a note says so.
//! 3. With no evidence at all: messages of plain text are read as OpenAI
//!    Chat's, a `system` beside them as Anthropic's, a `messages` list of
//!    messages as Chat's — each with a note; only a model name the shape
//!    owns (`claude-…`) may tip it. A document with no list of messages is
//!    canonical when it has `tools` or `system`, else no shape at all.

use crate::contract::Weighed;
pub use crate::contract::{At, Rank, Tier, Unsure, HINT, STRONG, WEAK};
use crate::json::{Node, Object, View};
use crate::shapes::Registered;
use crate::shapes::{tie_order, Dialect, Shape};

/// A detected shape, with a note when close candidates had to be told apart
/// by a guess.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Detected {
    pub shape: Shape,
    pub note: Option<String>,
    /// The guess is between shapes that read the document alike (messages of
    /// plain text): `validate`, which checks it the same either way, keeps
    /// quiet about it.
    pub alike: bool,
}

fn sure(shape: Shape) -> Option<Detected> {
    Some(Detected {
        shape,
        note: None,
        alike: false,
    })
}

fn guessed(shape: Shape, why: &str) -> Option<Detected> {
    Some(Detected {
        shape,
        note: Some(format!(
            "read the input as {shape} ({why}); pass --from to choose"
        )),
        alike: false,
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

/// Detects the shape of a document (a `Value`, or the borrowed tree of a
/// small one), or `None` when nothing fits.
pub fn detect<N: Weighed>(value: &N) -> Option<Detected> {
    match value.view() {
        View::Object(map) => {
            if let Some((_, shape)) = lowest(|dialect| N::document_rank(dialect, map)) {
                return sure(shape);
            }
            weigh(value, Scores::of_document(value, map))
        }
        View::Array(items) => {
            let mut scores = Scores::default();
            scores.messages(items);
            weigh(value, scores)
        }
        _ => None,
    }
}

/// Every shape's evidence in one document, in [`tie_order`]'s order.
#[derive(Debug, Default)]
struct Scores {
    points: [u32; Shape::ALL.len()],
}

impl Scores {
    fn add<N: Weighed>(&mut self, at: At<'_>, value: &N) {
        for (points, shape) in self.points.iter_mut().zip(tie_order()) {
            *points += N::evidence(shape.dialect(), at, value);
        }
    }

    fn of_document<N: Weighed>(value: &N, map: &N::Object) -> Scores {
        let mut scores = Scores::default();
        scores.add(At::Document, value);
        if let Some(system) = map.get("system") {
            scores.add(At::System, system);
            for block in system.as_array().into_iter().flatten() {
                scores.add(At::SystemBlock, block);
            }
        }
        for key in ["systemInstruction", "system_instruction"] {
            if let Some(parts) = map.get(key).and_then(|s| s.get("parts")) {
                scores.blocks(None, "parts", parts);
            }
        }
        let tools = map.get("tools").and_then(Node::as_array);
        let bedrock_tools = map
            .get("toolConfig")
            .and_then(|c| c.get("tools"))
            .and_then(Node::as_array);
        for tool in tools.into_iter().chain(bedrock_tools).flatten() {
            scores.add(At::Tool, tool);
        }
        for key in ["messages", "contents", "input"] {
            if let Some(items) = map.get(key).and_then(Node::as_array) {
                scores.messages(items);
            }
        }
        scores
    }

    fn messages<N: Weighed>(&mut self, items: &[N]) {
        for item in items {
            self.add(At::Message, item);
            let role = item.get("role").and_then(Node::as_str);
            for list in ["content", "parts"] {
                if let Some(blocks) = item.get(list) {
                    self.blocks(role, list, blocks);
                }
            }
        }
    }

    /// The blocks of a message's `list` (a single block is weighed too:
    /// some clients write one where a list is expected).
    fn blocks<N: Weighed>(&mut self, role: Option<&str>, list: &str, blocks: &N) {
        let one = std::slice::from_ref(blocks);
        let items = match blocks.view() {
            View::Array(items) => items,
            View::Object(_) => one,
            _ => return,
        };
        for block in items {
            self.add(At::Block { role, list }, block);
            for inner in block
                .get("content")
                .and_then(Node::as_array)
                .into_iter()
                .flatten()
            {
                self.add(At::Inner, inner);
            }
        }
    }

    /// The shapes with any evidence, most first (ties in [`tie_order`]).
    fn ranked(&self) -> Vec<(u32, Shape)> {
        let mut ranked: Vec<(u32, usize)> = self
            .points
            .iter()
            .enumerate()
            .filter(|(_, points)| **points > 0)
            .map(|(at, points)| (*points, at))
            .collect();
        ranked.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        ranked
            .into_iter()
            .map(|(points, at)| (points, tie_order()[at]))
            .collect()
    }
}

/// Decides by the evidence, or by the fallbacks when there is none.
fn weigh<N: Node>(value: &N, mut scores: Scores) -> Option<Detected> {
    let owner = value.get("model").and_then(Node::as_str).and_then(|model| {
        Shape::ALL
            .into_iter()
            .find(|shape| shape.dialect().detect_model(model))
    });
    if let Some(at) = owner.and_then(|owner| tie_order().iter().position(|s| *s == owner)) {
        // A model name the shape owns tips a near tie, never more.
        if scores.points[at] > 0 {
            scores.points[at] += WEAK;
        }
    }
    let ranked = scores.ranked();
    let Some(&(first, winner)) = ranked.first() else {
        return fallback(value, owner);
    };
    // Split evidence: the other shape has a form of its own too, or neither
    // has one and the lead is thin. What merely leans another way (a system
    // message, which Responses also takes) does not split a document whose
    // winner has forms of its own.
    match ranked.get(1) {
        Some(&(second, other))
            if second >= STRONG || (first < STRONG && first - second < STRONG) =>
        {
            guessed(
                winner,
                &format!("its forms are mostly {winner}'s, some {other}'s"),
            )
        }
        _ => sure(winner),
    }
}

/// A document in which no shape sees anything of its own.
fn fallback<N: Node>(value: &N, owner: Option<Shape>) -> Option<Detected> {
    let items = match value.view() {
        View::Array(items) => Some(items),
        View::Object(map) => map.get("messages").and_then(Node::as_array),
        _ => None,
    };
    let Some(items) = items else {
        // What is left of a transcript object with no messages.
        let map = value.as_object()?;
        return (map.contains_key("tools") || map.contains_key("system"))
            .then_some(Shape::Canonical)
            .and_then(sure);
    };
    // A list of content blocks is not a list of messages.
    let message_like = |m: &N| m.get("role").is_some_and(Node::is_string);
    if !items.iter().any(message_like) {
        return None;
    }
    if let Some(shape) = owner {
        // Nothing in the messages tells, and the model is the provider's own.
        return sure(shape);
    }
    // Content that is a string or a list of text blocks fits Chat,
    // Anthropic and canonical alike.
    let text_only = |content: &N| match content.view() {
        View::String(_) => true,
        View::Array(blocks) => blocks.iter().all(|b| {
            b.get("type").and_then(Node::as_str) == Some("text")
                && b.as_object()
                    .is_some_and(|o| o.members().all(|(k, _)| k == "type" || k == "text"))
        }),
        _ => false,
    };
    let plain = items.iter().all(|m| {
        m.get("role").is_some_and(Node::is_string) && m.get("content").is_some_and(text_only)
    });
    let alike = |detected: Detected| Detected {
        alike: true,
        ..detected
    };
    if value.get("system").is_some() {
        guess(Unsure::SystemBody).map(alike)
    } else if plain {
        guess(Unsure::PlainMessages).map(alike)
    } else {
        guess(Unsure::Messages)
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

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

    /// Anthropic's own forms anywhere in a body outweigh what it shares with
    /// canonical (typed text in its system prompt) — the classes of bodies
    /// that were read as canonical or skipped.
    #[test]
    fn anthropic_forms_anywhere_decide() {
        let system = json!([{"type": "text", "text": "Be brief."}]);
        let tool_use = json!({"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}});
        let typed_system_and_calls = json!({"model": "m", "max_tokens": 5, "system": system,
            "messages": [{"role": "user", "content": "hi"},
                         {"role": "assistant", "content": [tool_use]}]});
        assert_eq!(shape(typed_system_and_calls), Shape::Anthropic);
        let thinking = json!({"model": "m", "max_tokens": 5, "system": system,
            "thinking": {"type": "enabled", "budget_tokens": 1024},
            "messages": [{"role": "user", "content": "hi"}]});
        assert_eq!(shape(thinking), Shape::Anthropic);
        let server_tool = json!({"model": "m", "messages": [
            {"role": "user", "content": [{"type": "text", "text": "fetch it"}]},
            {"role": "assistant", "content": [
                {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_fetch", "input": {}},
                {"type": "web_fetch_tool_result", "tool_use_id": "srvtoolu_1", "content": {}}]}]});
        assert_eq!(shape(server_tool), Shape::Anthropic);
        let cached = json!({"system": [{"type": "text", "text": "s", "cache_control": {"type": "ephemeral"}}],
            "messages": [{"role": "user", "content": "hi"}]});
        assert_eq!(shape(cached), Shape::Anthropic);
        // Typed text alone in the system prompt is canonical's, as before.
        let canonical = json!({"system": system, "messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}]});
        assert_eq!(detect(&canonical).unwrap(), sure(Shape::Canonical).unwrap());
    }

    #[test]
    fn a_model_name_decides_only_what_the_messages_leave_open() {
        let plain = |model: &str| json!({"model": model, "max_tokens": 9, "messages": [{"role": "user", "content": ""}]});
        assert_eq!(
            detect(&plain("claude-haiku-4-5")).unwrap(),
            sure(Shape::Anthropic).unwrap()
        );
        assert_eq!(
            detect(&plain("gpt-4o")).unwrap(),
            sure(Shape::OpenaiChat).unwrap()
        );
        // A gateway's name for the model is no provider's own.
        let gateway = detect(&plain("anthropic/claude-haiku-4-5")).unwrap();
        assert_eq!((gateway.shape, gateway.alike), (Shape::OpenaiChat, true));
        // A system message, which Anthropic refuses, outweighs the name.
        let chat = json!({"model": "claude-haiku-4-5", "messages": [
            {"role": "system", "content": "s"}, {"role": "user", "content": "hi"}]});
        assert_eq!(shape(chat), Shape::OpenaiChat);
    }

    #[test]
    fn split_evidence_is_read_as_the_likelier_shape_with_a_note() {
        let mixed = json!({"model": "m", "input": [{"role": "user", "content": [
            {"type": "input_text", "text": "Transcribe."},
            {"type": "input_audio", "input_audio": {"data": "", "format": "wav"}}]}]});
        let detected = detect(&mixed).unwrap();
        assert_eq!(detected.shape, Shape::OpenaiResponses);
        assert_eq!(
            detected.note.as_deref(),
            Some("read the input as openai-responses (its forms are mostly openai-responses's, some openai-chat's); pass --from to choose")
        );
        assert!(!detected.alike);
    }

    #[test]
    fn a_list_of_messages_is_never_left_unread() {
        // Nothing in it is any shape's own: read as Chat's, with a note.
        let unknown = json!({"messages": [{"role": "user", "content": [{"type": "mystery"}]}]});
        let detected = detect(&unknown).unwrap();
        assert_eq!(detected.shape, Shape::OpenaiChat);
        assert!(detected
            .note
            .unwrap()
            .contains("nothing in its messages tells the shape"));
        assert!(!detected.alike);
        // A list of content blocks, or of strings, is not a list of messages.
        assert!(detect(&json!([{"type": "text", "text": "x"}, {"type": "mystery"}])).is_none());
        assert!(detect(&json!({"messages": ["a", "b"]})).is_none());
    }

    #[test]
    fn single_values_and_snake_case_count_as_gemini_evidence() {
        let body = json!({"system_instruction": {"parts": {"text": "s"}},
            "contents": [{"role": "user", "parts": {"text": "hi"}}]});
        assert_eq!(detect(&body).unwrap(), sure(Shape::Gemini).unwrap());
        let bedrock_tools = json!({"toolConfig": {"tools": [{"toolSpec": {"name": "f"}}]},
            "messages": [{"role": "user", "content": [{"text": "hi"}]}]});
        assert_eq!(shape(bedrock_tools), Shape::Bedrock);
    }

    /// Detection (`convert --from auto`) tells every document's shape alike
    /// from the tree and from a `Value`, with the same note.
    #[test]
    fn every_recording_and_fixture_is_detected_alike() {
        let mut detected = 0;
        for (name, bytes) in crate::shapes::tree_tests::documents() {
            let Some(tree) = crate::json::lent::parse_tree(&bytes) else {
                continue;
            };
            let value = crate::json::lent::parse(&bytes).expect("the tree took it");
            let from_tree = detect(&tree.json);
            assert_eq!(detect(&value.value), from_tree, "{name}");
            detected += usize::from(from_tree.is_some());
        }
        assert!(detected > 200, "only {detected} documents detected");
    }
}
