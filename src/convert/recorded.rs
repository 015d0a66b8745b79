//! `convert` of a recording (docs/recordings.md): every body that is a
//! document of a shape — a request, a response, a streamed response
//! assembled into the response it stands for — converted as a document of
//! its own, in the file's order. A body of no shape (an MCP handshake, a
//! token endpoint's answer, form data) is passed over with the reason, never
//! a failure: a cassette holds more than conversations.

use serde_json::Value;

use super::document::{convert_document, ConvertRequest, ConvertedDocument};
use super::ConvertError;
use crate::recorded::{bodies, Content, RecordedBody, Side};
use crate::recording::{Interaction, Recording};
use crate::shared::SharedBytes;
use crate::subdoc::{At, AtMissing};

/// What became of one body.
#[derive(Debug)]
pub enum BodyOutcome {
    /// Converted: the output is written from [`Converted::input`].
    Converted(ConvertedDocument),
    /// Passed over, and why (no shape, not JSON, empty).
    Passed(String),
    /// The body cannot be converted (or its stream assembled).
    Failed(String),
}

/// One body's conversion, with the bytes it was converted from (its JSON,
/// or the assembled response's).
#[derive(Debug)]
pub struct Converted<'r> {
    pub body: RecordedBody<'r>,
    pub input: SharedBytes,
    pub outcome: BodyOutcome,
}

/// Converts every body of `recording` as `request` says. Without `--from`,
/// a body is converted only when its shape is told from its content.
pub fn convert_recording<'r>(
    recording: &'r Recording,
    request: &ConvertRequest,
) -> Vec<Converted<'r>> {
    bodies(recording)
        .into_iter()
        .map(|body| {
            let interaction = &recording.interactions[body.place.interaction - 1];
            let answered = recorded_call(interaction, body.place.side, request);
            let request = answered.as_ref().map_or(request, |(r, _)| r);
            let (input, mut outcome) = convert_body(&body, request);
            if let (BodyOutcome::Converted(document), Some((_, note))) = (&mut outcome, answered) {
                document.notes.push(note);
            }
            Converted {
                body,
                input,
                outcome,
            }
        })
        .collect()
}

fn convert_body(body: &RecordedBody<'_>, request: &ConvertRequest) -> (SharedBytes, BodyOutcome) {
    let empty = SharedBytes::new(Vec::new());
    let input = match &body.content {
        Content::Json(bytes) => SharedBytes::new(bytes.to_vec()),
        Content::Stream { json, .. } => SharedBytes::new(json.clone()),
        Content::Empty => return (empty, BodyOutcome::Passed("an empty body".into())),
        Content::Skipped(why) => return (empty, BodyOutcome::Passed(why.clone())),
        Content::BrokenStream(problem) => {
            return (
                empty,
                BodyOutcome::Failed(format!(
                    "the streamed response cannot be assembled: {problem}"
                )),
            )
        }
    };
    let outcome = match convert_document(&input, request) {
        Ok(document) => BodyOutcome::Converted(document),
        // Without --from, a body no shape fits is passed over: a cassette
        // holds more than conversations.
        Err(ConvertError::Invalid { pointer, message })
            if pointer.is_empty() && message == super::UNDETECTED =>
        {
            BodyOutcome::Passed("a JSON body of no shape partkit converts".into())
        }
        Err(error) => BodyOutcome::Failed(error.to_string()),
    };
    (input, outcome)
}

/// For the answer to an MCP `tools/call` (a CallToolResult carries neither
/// the call's id nor the tool's name, which most targets need), the request
/// with both taken from the recorded call, unless the command line gave
/// them: the JSON-RPC id (else `call_N` for interaction N) and the tool
/// name; and the note that says so. Over HTTP the answer is a JSON-RPC
/// message, whose `result` is converted.
fn recorded_call(
    interaction: &Interaction,
    side: Side,
    request: &ConvertRequest,
) -> Option<(ConvertRequest, String)> {
    if side != Side::Response {
        return None;
    }
    let call = interaction.request.as_ref()?;
    let value: Value = serde_json::from_slice(&call.body.bytes).ok()?;
    let json_rpc = value.get("method").and_then(Value::as_str) == Some("tools/call");
    let interview = call.method.as_deref() == Some("tools/call");
    let name = if json_rpc {
        value.pointer("/params/name")
    } else if interview {
        value.get("name")
    } else {
        return None;
    }
    .and_then(Value::as_str)
    .map(str::to_string);
    let id = match value.get("id") {
        Some(Value::String(id)) => id.clone(),
        Some(Value::Number(id)) => id.to_string(),
        _ => format!("call_{}", interaction.index + 1),
    };
    let mut answered = request.clone();
    // Over HTTP the result comes in its JSON-RPC envelope: the
    // CallToolResult inside it is what converts, written alone.
    if json_rpc && !request.at.is_active() {
        answered.at = At::new(&["/result".to_string()], AtMissing::Error).ok()?;
        answered.bare = true;
    }
    let options = &mut answered.options;
    let id_taken = options.call_id.is_none();
    let name_taken = options.tool_name.is_none() && name.is_some();
    options.call_id.get_or_insert(id.clone());
    if name_taken {
        options.tool_name = name.clone();
    }
    let note = match (id_taken, name_taken) {
        (true, true) => format!(
            "the call id `{id}` and tool name `{}` are the recorded tools/call's",
            name.unwrap_or_default()
        ),
        (true, false) => format!("the call id `{id}` is the recorded tools/call's"),
        (false, true) => format!(
            "the tool name `{}` is the recorded tools/call's",
            name.unwrap_or_default()
        ),
        (false, false) => return None,
    };
    Some((answered, note))
}
