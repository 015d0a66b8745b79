//! Writing the canonical model as Anthropic Messages documents.
//!
//! The hints this writer follows are listed in `read.rs`. Choices made where the
//! other shapes differ from Anthropic:
//!
//! - `temperature` and `top_p`: Anthropic's API version 2026-10-21 (sent by the
//!   current SDKs) rejects them, even at default values, so a transcript from
//!   another shape does not give them to Anthropic: they are dropped with the one
//!   loss warning (`--strict`: exit 1). An Anthropic input that had them
//!   (recorded with an older API version) keeps them: the reader maps them into
//!   the canonical fields, so they still cross to other shapes, and notes which
//!   it had in the `$sampling` hint, so Anthropic → canonical → Anthropic gives
//!   them back. Keeping them only as Anthropic-own fields would lose them on the
//!   way to OpenAI, which has them.
//! - `max_tokens` is required in Anthropic requests. A transcript without one
//!   gets none (a made-up limit would change what the model may answer) and a
//!   note says so, for the user to add one before sending.
//! - A tool without parameters gets `"input_schema": {"type": "object",
//!   "properties": {}}`, which Anthropic requires; an Anthropic tool read
//!   without `input_schema` is written without it (`$input_schema` hint).
//! - Tool-call arguments that are not JSON (kept as a string under
//!   `--on-invalid-arguments keep`) cannot be an Anthropic `input`, which is an
//!   object: that is an error naming the call.
//! - Empty or whitespace-only text parts are left out, with a note (Anthropic
//!   refuses such text blocks), unless the Anthropic input had them (`$blank`).
//! - A canonical tool message is one user message of `tool_result` blocks;
//!   consecutive tool messages share one (all results of a turn belong in the
//!   next message), and a user message after them joins it where the input had
//!   them in one message (`$joined`).

use serde_json::Value;

use crate::contract::ext::Mine;
use crate::contract::pointer;
use crate::contract::{Context, ConvertError, Form};
use crate::json::out::{Members, Out};
use crate::shapes::kit::{drop_foreign, first_tool_result};
use crate::shapes::Shape;
use crate::transcript::{Block, Message, Role, Transcript};

mod content;
mod request;

use content::{write_block, write_content, write_result};
use request::{request, response};

const SHAPE: Shape = Shape::Anthropic;

/// The note for empty text parts left out.
const BLANK_NOTE: &str =
    "left out empty text parts: anthropic rejects text blocks without non-whitespace text";

fn is_blank(text: &str) -> bool {
    text.trim().is_empty()
}

/// Where blocks are written: which parts are allowed, and their provenance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Spot {
    /// The system prompt or a system message: text only.
    System,
    /// A user or assistant message.
    Message,
    /// A user message of media lifted out of tool results (`--tool-media
    /// lift`): its parts came from tools.
    Lifted,
    /// The content of a `tool_result`.
    Result,
}

/// Writes a request body, a message list, a response or a single `tool_result`
/// block, following the form the input had. A message list whose transcript has
/// a system prompt becomes a request body (Anthropic keeps it outside the list).
pub fn write(
    transcript: &Transcript,
    form: Form,
    context: &mut Context,
) -> Result<Value, ConvertError> {
    write_out(transcript, form, context).map(Out::into_value)
}

/// [`write`] as the output tree, which the engines take as it is. The order
/// is every writer's (`kit::Forms::write`): the fields other shapes kept are
/// lost first, their warnings before any of the writer's own, then the form's
/// document is written.
pub fn write_out(
    transcript: &Transcript,
    form: Form,
    context: &mut Context,
) -> Result<Out, ConvertError> {
    drop_foreign(&transcript.extensions, context)?;
    match form {
        Form::Request => request(transcript, true, context),
        // A list has no place for a system prompt: with one, it is a request
        // body without the request's own fields.
        Form::Messages if transcript.system.is_none() => {
            Ok(Out::Array(messages(&transcript.messages, context)?))
        }
        Form::Messages => request(transcript, false, context),
        Form::Response => response(transcript, context),
        // Pointers are the result's own (`/content/1`), as in the input.
        Form::ToolResult => write_result(first_tool_result(transcript)?, "", context),
    }
}

/// Every message. A tool message is a user message of `tool_result` blocks,
/// shared with the tool messages right after it and, where the input had them
/// together, the user message after those.
fn messages(messages: &[Message], context: &mut Context) -> Result<Vec<Out>, ConvertError> {
    let mut out = Vec::with_capacity(messages.len());
    let mut i = 0;
    while i < messages.len() {
        let message = &messages[i];
        drop_foreign(&message.extensions, context)?;
        let mine = Mine::of(&message.extensions, SHAPE);
        // Sized for what a message holds: a list grown from empty allocates
        // again on the way.
        let mut map = Members::with_capacity(4);
        if message.role != Role::Tool {
            map.put("role", message.role.as_str());
            let spot = match message.role {
                Role::System => Spot::System,
                _ if crate::contract::ext::is_lifted(message) => Spot::Lifted,
                _ => Spot::Message,
            };
            if let Some(content) = write_content(
                &message.content,
                mine.hint_str("content"),
                true,
                spot,
                &pointer::member(&pointer::item("/messages", i), "content"),
                context,
            )? {
                map.put("content", content);
            }
            mine.restore_into(&mut map);
            out.push(Out::Object(map));
            i += 1;
            continue;
        }
        map.put("role", "user");
        let mut results = write_each(&message.content, Spot::Message, i, context)?;
        let mut merged = vec![mine];
        i += 1;
        while i < messages.len()
            && messages[i].role == Role::Tool
            && Mine::of(&messages[i].extensions, SHAPE)
                .hint("new_message")
                .is_none()
        {
            drop_foreign(&messages[i].extensions, context)?;
            merged.push(Mine::of(&messages[i].extensions, SHAPE));
            results.extend(write_each(&messages[i].content, Spot::Message, i, context)?);
            i += 1;
        }
        let joined = messages
            .get(i)
            .filter(|m| m.role == Role::User)
            .and_then(|m| Mine::of(&m.extensions, SHAPE).hint("joined"));
        let content: Vec<Option<Out>> = match joined {
            Some(joined) => {
                let user = &messages[i];
                drop_foreign(&user.extensions, context)?;
                merged.push(Mine::of(&user.extensions, SHAPE));
                let others = write_each(&user.content, Spot::Message, i, context)?;
                i += 1;
                interleave(results, others, joined.as_str())
            }
            None => results,
        };
        map.put(
            "content",
            Out::Array(content.into_iter().flatten().collect()),
        );
        for mine in merged {
            mine.restore_into(&mut map);
        }
        out.push(Out::Object(map));
    }
    Ok(out)
}

/// Writes every block of message `index` (`None` for a block left out).
fn write_each(
    blocks: &[Block],
    spot: Spot,
    index: usize,
    context: &mut Context,
) -> Result<Vec<Option<Out>>, ConvertError> {
    let content_at = pointer::member(&pointer::item("/messages", index), "content");
    blocks
        .iter()
        .enumerate()
        .map(|(j, block)| write_block(block, spot, &pointer::item(&content_at, j), context))
        .collect()
}

/// Tool results and the blocks of the user message joined to them, in the
/// input's order (`pattern`: `r` a result, `c` another block) or results first.
fn interleave(
    results: Vec<Option<Out>>,
    others: Vec<Option<Out>>,
    pattern: Option<&str>,
) -> Vec<Option<Out>> {
    let fits = pattern.is_some_and(|p| {
        p.len() == results.len() + others.len()
            && p.bytes().filter(|b| *b == b'r').count() == results.len()
            && p.bytes().all(|b| b == b'r' || b == b'c')
    });
    match pattern {
        Some(pattern) if fits => {
            let mut results = results.into_iter();
            let mut others = others.into_iter();
            pattern
                .bytes()
                .map(|b| match b {
                    b'r' => results.next().flatten(),
                    _ => others.next().flatten(),
                })
                .collect()
        }
        _ => results.into_iter().chain(others).collect(),
    }
}

#[cfg(test)]
mod tests {
    use crate::shapes::Registered;
    use serde_json::json;

    use super::*;
    use crate::contract::convert::ConvertOptions;

    #[test]
    fn canonical_to_anthropic_by_form() {
        let hi = json!({"role": "user", "content": [{"type": "text", "text": "hi"}]});
        let result = json!({"role": "tool", "content": [
            {"type": "tool_result", "call_id": "c1", "content": [{"type": "text", "text": "ok"}]}
        ]});
        let table = [
            (
                json!({"messages": [hi]}),
                Form::Messages,
                json!([{"role": "user", "content": "hi"}]),
            ),
            // A list has no place for the system prompt: a request body.
            (
                json!({"system": [{"type": "text", "text": "be"}], "messages": [hi]}),
                Form::Messages,
                json!({"system": "be", "messages": [{"role": "user", "content": "hi"}]}),
            ),
            (
                json!({"messages": [result]}),
                Form::ToolResult,
                json!({"type": "tool_result", "tool_use_id": "c1",
                       "content": [{"type": "text", "text": "ok"}]}),
            ),
        ];
        for (input, form, expected) in table {
            let transcript = Transcript::from_value(&input).unwrap();
            let mut context = Context::new(
                ConvertOptions::default(),
                Shape::Canonical,
                Shape::Anthropic.dialect(),
            );
            assert_eq!(write(&transcript, form, &mut context).unwrap(), expected);
        }
    }
}
