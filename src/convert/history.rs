//! Earlier turns kept on the provider's server. A Responses request chained
//! by `previous_response_id` (or held in a `conversation`) answers the calls
//! of the previous response, which the body itself does not hold: its
//! `function_call_output` items have no call in the document, and the
//! provider accepts them so. A target without such a chain refuses a result
//! without its call (OpenAI Chat, Anthropic, Bedrock) or cannot write one
//! (Gemini needs the tool's name, which only the call has), so each such
//! result is delivered there as text in a user message instead, introduced
//! by its call id, with one warning — or, under `--on-unsupported error`,
//! the conversion stops.

use std::collections::HashSet;

use serde_json::Value;

use super::ext::says_nothing;
use super::{Context, ConvertError, OnUnsupported};
use crate::shapes::Registered;
use crate::shapes::{Shape, Unsupported};
use crate::transcript::{moved_result_label, Block, Message, Role, ToolResult, Transcript};

/// The setting that puts a transcript's earlier turns on a server.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ServerHistory<'t> {
    /// The shape that has the setting.
    pub shape: Shape,
    /// Its key (`previous_response_id`).
    pub key: &'static str,
    /// Its value, as the input wrote it.
    pub value: &'t Value,
}

impl ServerHistory<'_> {
    /// `openai-responses previous_response_id "resp_…"`, for messages.
    pub fn describe(&self) -> String {
        // A conversation is an id or an object holding one.
        let id = self.value.get("id").unwrap_or(self.value);
        format!(
            "{} {} {}",
            self.shape,
            self.key,
            crate::echo::cut(&crate::echo::json(id), 80)
        )
    }
}

/// The setting of `transcript` (kept in any shape's extensions) that puts its
/// earlier turns on the provider's server, if it has one that says something
/// (NeMo Gym writes an unset `previous_response_id` as null).
pub fn server_history(transcript: &Transcript) -> Option<ServerHistory<'_>> {
    Shape::ALL.into_iter().find_map(|shape| {
        let fields = transcript.extensions.get(shape.name())?;
        let keys = shape.dialect().conversion().server_history;
        keys.iter().find_map(|&key| {
            let value = fields.get(key).filter(|value| !says_nothing(*value))?;
            Some(ServerHistory { shape, key, value })
        })
    })
}

/// The ids of the calls the transcript holds.
fn call_ids(transcript: &Transcript) -> HashSet<String> {
    transcript
        .messages
        .iter()
        .flat_map(|message| &message.content)
        .filter_map(|block| match block {
            Block::ToolCall(call) => call.id.clone(),
            _ => None,
        })
        .collect()
}

/// Whether `result` answers a call the transcript does not hold.
fn answers_earlier(result: &ToolResult, calls: &HashSet<String>) -> bool {
    result
        .call_id
        .as_deref()
        .is_some_and(|id| !id.is_empty() && !calls.contains(id))
}

/// Delivers the results whose call lives in an earlier, server-held turn to a
/// target that has no place for them: each becomes its label
/// (`Output of tool call <id>:`) and its content in one user message, standing
/// after the tool messages it came from (where those held nothing else, in
/// their place). The message's parts still count as coming from tools.
pub fn deliver_earlier_results(
    transcript: &mut Transcript,
    context: &mut Context,
) -> Result<(), ConvertError> {
    let facts = context.target.dialect().conversion();
    let Some(history) = server_history(transcript) else {
        return Ok(());
    };
    if facts.holds_lone_results || facts.server_history.contains(&history.key) {
        return Ok(());
    }
    let described = history.describe();
    let calls = call_ids(transcript);
    let mut delivered: Vec<String> = Vec::new();
    let mut i = 0;
    while i < transcript.messages.len() {
        if transcript.messages[i].role != Role::Tool {
            i += 1;
            continue;
        }
        let mut end = i;
        while end < transcript.messages.len() && transcript.messages[end].role == Role::Tool {
            end += 1;
        }
        let mut moved: Vec<Block> = Vec::new();
        for message in &mut transcript.messages[i..end] {
            let mut kept = Vec::with_capacity(message.content.len());
            for block in std::mem::take(&mut message.content) {
                match block {
                    Block::ToolResult(result) if answers_earlier(&result, &calls) => {
                        let id = result.call_id.clone().unwrap_or_default();
                        if context.options.on_unsupported == Some(OnUnsupported::Error) {
                            return Err(refusal(context.target, &id, &described));
                        }
                        moved.push(Block::text(moved_result_label(
                            result.name.as_deref(),
                            Some(&id),
                        )));
                        moved.extend(result.content);
                        delivered.push(id);
                    }
                    other => kept.push(other),
                }
            }
            message.content = kept;
        }
        // Tool messages that held only such results are gone.
        let run: Vec<Message> = transcript
            .messages
            .drain(i..end)
            .filter(|message| !message.content.is_empty())
            .collect();
        end = i + run.len();
        transcript.messages.splice(i..i, run);
        if !moved.is_empty() {
            let mut message = Message::new(Role::User, moved);
            super::prepare::mark_lifted(&mut message);
            transcript.messages.insert(end, message);
            end += 1;
        }
        i = end;
    }
    if !delivered.is_empty() {
        context.note(format!(
            "{target} has no place for a tool result without its call: {n} result{s} answer{v} call{s} made in the earlier turns of {described}, which the input does not hold ({ids}); delivered as text in a user message, each introduced by its call id",
            n = delivered.len(),
            s = if delivered.len() == 1 { "" } else { "s" },
            v = if delivered.len() == 1 { "s" } else { "" },
            target = context.target,
            ids = crate::echo::cut(&delivered.join(", "), 200),
        ));
    }
    Ok(())
}

/// The refusal under `--on-unsupported error`.
fn refusal(target: Shape, id: &str, described: &str) -> ConvertError {
    ConvertError::Unsupported {
        pointer: String::new(),
        unsupported: Unsupported {
            part_type: "tool_result",
            mime_type: None,
            shape: target,
            reason: format!(
                "the result of call {} answers a call the input does not hold (it is in the earlier turns of {described}; --on-unsupported text delivers it as text)",
                crate::echo::quoted(id)
            ),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn with(fields: Value) -> Transcript {
        let mut transcript = Transcript::default();
        transcript
            .extensions
            .insert(Shape::OpenaiResponses.name().to_string(), fields);
        transcript
    }

    #[test]
    fn the_settings_that_chain_a_request() {
        let chained = with(json!({"previous_response_id": "resp_1"}));
        let found = server_history(&chained).unwrap();
        assert_eq!(
            found.describe(),
            "openai-responses previous_response_id \"resp_1\""
        );
        let held = with(json!({"conversation": {"id": "conv_1"}}));
        assert_eq!(
            server_history(&held).unwrap().describe(),
            "openai-responses conversation \"conv_1\""
        );
        // Null (an unset field), a setting no shape chains by, no extensions.
        assert_eq!(
            server_history(&with(json!({"previous_response_id": null}))),
            None
        );
        assert_eq!(server_history(&with(json!({"store": true}))), None);
        assert_eq!(server_history(&Transcript::default()), None);
    }
}
