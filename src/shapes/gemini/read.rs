//! Reading Gemini generateContent documents into the canonical model: a request
//! body, a bare `contents` list, a response (one assistant turn), or a single
//! `functionResponse` part (or a user Content holding one) as a tool result.
//!
//! Keys are read in camelCase or snake_case. What the model has no place for is
//! kept in `extensions["gemini"]` (see the module documentation of `gemini`).

use serde_json::Value;

use super::repeated::{self, Singles};
use super::{add_hint, camel, camelize, camelize_map, field, get, snake_names, SHAPE};
use crate::contract::ext::{says_nothing, Own};
use crate::contract::{Context, ConvertError, Form};
use crate::json::{Node, Object, View};
use crate::shapes::kit::invalid;
use crate::transcript::{Block, Message, Role, ToolResult, Transcript};

mod config;
mod parts;
mod responses;

use config::{read_generation_config, read_tool_config, read_tools};
use parts::{read_content, read_contents, read_part};
use responses::read_response_part;

/// The fields of a request body the model has a place for.
const REQUEST_KEYS: &[&str] = &[
    "model",
    "contents",
    "systemInstruction",
    "tools",
    "toolConfig",
    "generationConfig",
];

/// The fields that say what a part is (a part has exactly one).
const DATA_KEYS: &[&str] = &[
    "text",
    "inlineData",
    "fileData",
    "functionCall",
    "functionResponse",
    "executableCode",
    "codeExecutionResult",
    "toolCall",
    "toolResponse",
];

/// Where a part stands, for which parts are expected there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    System,
    User,
    Model,
}

/// What one Gemini part becomes.
enum Read {
    Block(Block),
    Result(ToolResult),
}

/// Reads a request body, a bare list of contents, a response, or a single
/// function response, from a `Value` or the borrowed tree.
pub fn read<N: Node>(value: &N, context: &mut Context) -> Result<(Form, Transcript), ConvertError> {
    let (form, mut transcript) = read_any(value, context)?;
    // The field names written in snake_case (google-genai and Vertex send
    // them so), for the writer to spell them so again.
    let snake = snake_names(value);
    if !snake.is_empty() {
        add_hint(&mut transcript.extensions, "snake", Value::from(snake));
    }
    Ok((form, transcript))
}

fn read_any<N: Node>(value: &N, context: &mut Context) -> Result<(Form, Transcript), ConvertError> {
    match value.view() {
        View::Array(_) => {
            let mut transcript = Transcript::default();
            read_contents(&repeated::items(value, "").0, &mut transcript, context)?;
            Ok((Form::Messages, transcript))
        }
        View::Object(map) if field(map, "functionResponse").is_some() => {
            let result = match read_part(value, "", Place::User, context)? {
                Read::Result(result) => result,
                Read::Block(_) => {
                    return Err(invalid(
                        "",
                        "a function response part holds only functionResponse",
                    ))
                }
            };
            Ok((Form::ToolResult, single_result(result)))
        }
        View::Object(map) if field(map, "candidates").is_some() => read_response(map, context),
        View::Object(map) if field(map, "parts").is_some() && field(map, "contents").is_none() => {
            read_single_content(value, context).map(|t| (Form::ToolResult, t))
        }
        View::Object(map) => read_request(map, context).map(|t| (Form::Request, t)),
        _ => Err(invalid(
            "",
            "a Gemini document is an object or a list of contents",
        )),
    }
}

/// A single Content, read as the one function response it must hold. The
/// Content's own fields (its role) travel with the result as the `$content`
/// hint, since a single tool result is all that canonical form keeps.
fn read_single_content<N: Node>(
    value: &N,
    context: &mut Context,
) -> Result<Transcript, ConvertError> {
    let mut messages = read_content(value, "", context)?;
    let mut result = match messages.as_mut_slice() {
        [Message {
            role: Role::Tool,
            content,
            ..
        }] if content.len() == 1 => match content.pop() {
            Some(Block::ToolResult(result)) => result,
            _ => unreachable!("a tool message holds results"),
        },
        _ => {
            return Err(invalid(
                "",
                "a single Gemini Content is read as a tool result and must hold exactly one \
                 functionResponse part; give a list of contents or a request body",
            ))
        }
    };
    let mut fields = match camelize(value) {
        Value::Object(fields) => fields,
        _ => unreachable!("an object stays an object"),
    };
    fields.shift_remove("parts");
    add_hint(&mut result.extensions, "content", Value::Object(fields));
    // Its one part written in place of the list: a single tool result is
    // all the canonical form keeps, so the result holds that too.
    if super::repeated::paths(&messages[0].extensions).contains(&"parts".to_string()) {
        add_hint(
            &mut result.extensions,
            "contentParts",
            Value::from("single"),
        );
    }
    Ok(single_result(result))
}

fn single_result(result: ToolResult) -> Transcript {
    Transcript {
        messages: vec![Message::new(Role::Tool, vec![Block::ToolResult(result)])],
        ..Transcript::default()
    }
}

fn read_request<O: Object>(map: &O, context: &mut Context) -> Result<Transcript, ConvertError> {
    let mut transcript = Transcript::default();
    let mut own = Own::new();
    let mut empty: Vec<Value> = Vec::new();
    let mut singles = Singles::default();
    for (key, value) in map.members() {
        let name = camel(key);
        let at = format!("/{key}");
        match name.as_ref() {
            "model" => match value.as_str() {
                // Not part of the REST body, but batch files and gateways carry it.
                Some(model) => {
                    transcript.model = Some(model.to_string());
                    own.hint("model", "body");
                }
                None => own.keep("model", value),
            },
            "contents" => {
                let (contents, single) = repeated::items(value, &at);
                singles.note("contents", single);
                read_contents(&contents, &mut transcript, context)?;
            }
            "systemInstruction" => {
                read_system(value, &at, &mut transcript, &mut own, &mut singles, context)?
            }
            "tools" => read_tools(value, &at, &mut transcript, &mut own, &mut singles)?,
            "toolConfig" => {
                read_tool_config(value, &mut transcript, &mut own, &mut empty, &mut singles)
            }
            "generationConfig" => {
                read_generation_config(value, &mut transcript, &mut own, &mut empty, &mut singles)
            }
            _ => {}
        }
    }
    keep_rest(&mut own, map, REQUEST_KEYS, "");
    if get(map, "contents").is_none() {
        own.hint("contents", "absent");
    }
    if !empty.is_empty() {
        own.hint("empty", Value::Array(empty));
    }
    singles.store(&mut own);
    own.store(&mut transcript.extensions, SHAPE);
    Ok(transcript)
}

/// Keeps every field of `map` whose camelCase name is not in `known`, in
/// camelCase, under `prefix` (a dotted path ending in `.`, or nothing).
fn keep_rest<O: Object>(own: &mut Own, map: &O, known: &[&str], prefix: &str) {
    for (key, value) in map.members() {
        let name = camel(key);
        if !known.contains(&name.as_ref()) {
            own.keep(&format!("{prefix}{name}"), &camelize(value));
        }
    }
}

fn read_system<N: Node>(
    value: &N,
    at: &str,
    transcript: &mut Transcript,
    own: &mut Own,
    singles: &mut Singles,
    context: &mut Context,
) -> Result<(), ConvertError> {
    // An empty system instruction (no parts, or only empty texts: the R
    // client ellmer sends `{"parts": {"text": ""}}`) is no system prompt:
    // other shapes get none and lose nothing, this one gets it back.
    let parts = value.as_object().and_then(|map| field(map, "parts"));
    if says_nothing(value) || parts.is_some_and(|(_, parts)| blank_parts(parts)) {
        own.hint("blankSystem", value.to_value());
        return Ok(());
    }
    match value.view() {
        View::String(text) => {
            own.hint("systemInstruction", "string");
            transcript.system = Some(vec![Block::text(text)]);
        }
        View::Object(map) => {
            if let Some(role) = get(map, "role") {
                own.hint("systemRole", role.to_value());
            }
            keep_rest(own, map, &["role", "parts"], "systemInstruction.");
            let mut blocks = Vec::new();
            if let Some((key, parts)) = field(map, "parts") {
                let (parts, single) = repeated::items(parts, &format!("{at}/{key}"));
                singles.note("systemInstruction.parts", single);
                for (here, part) in parts {
                    match read_part(part, &here, Place::System, context)? {
                        Read::Block(block) => blocks.push(block),
                        Read::Result(_) => unreachable!("results are read only in user content"),
                    }
                }
            } else {
                own.hint("systemParts", "absent");
            }
            transcript.system = Some(blocks);
        }
        _ => {
            return Err(invalid(
                at,
                "systemInstruction must be a Content (an object with parts)",
            ))
        }
    }
    Ok(())
}

/// Whether some parts (a list, or one part written in its place) say
/// nothing: none, or only empty texts.
fn blank_parts<N: Node>(parts: &N) -> bool {
    let blank = |part: &N| {
        part.as_object().is_some_and(|map| {
            map.len() == 1 && get(map, "text").and_then(Node::as_str) == Some("")
        })
    };
    match parts.view() {
        View::Array(list) => list.iter().all(blank),
        _ => says_nothing(parts) || blank(parts),
    }
}

/// Whether a writer puts a message into the Content of the message before it
/// when no hint says otherwise: results and user parts that follow results go
/// into the same user Content (all results of one turn in one Content).
pub(super) fn joins_by_default(previous: Option<Role>, role: Role) -> bool {
    previous == Some(Role::Tool) && matches!(role, Role::Tool | Role::User)
}

/// A response: the first candidate's content is the assistant turn; the rest of
/// the envelope (finish reason, safety ratings, usage, other candidates) is
/// kept as a hint for writing a Gemini response again. `modelVersion` is the
/// model.
fn read_response<O: Object>(
    map: &O,
    context: &mut Context,
) -> Result<(Form, Transcript), ConvertError> {
    let (key, candidates) = field(map, "candidates").expect("checked by the caller");
    let (candidates, single) = repeated::items(candidates, &format!("/{key}"));
    let (first_at, first) = candidates
        .first()
        .and_then(|(at, first)| Some((at, first.as_object()?)))
        .ok_or_else(|| {
            invalid(
                &format!("/{key}"),
                "a response needs at least one candidate",
            )
        })?;
    let mut transcript = Transcript::default();
    match field(first, "content") {
        Some((content_key, content)) => {
            let at = format!("{first_at}/{content_key}");
            for message in read_content(content, &at, context)? {
                transcript.messages.push(message);
            }
        }
        None => {
            let mut message = Message::new(Role::Assistant, Vec::new());
            add_hint(
                &mut message.extensions,
                "content",
                Value::String("absent".into()),
            );
            transcript.messages.push(message);
        }
    }
    if let Some(model) = get(map, "modelVersion").and_then(Node::as_str) {
        transcript.model = Some(model.to_string());
    }
    let mut envelope = camelize_map(map);
    if single {
        // One candidate written in place of the list: the envelope holds the
        // list the writer fills, and the hint gives the one value back.
        if let Some(candidate) = envelope.get_mut("candidates") {
            *candidate = Value::Array(vec![candidate.take()]);
        }
        let mut singles = Singles::default();
        singles.note("candidates", true);
        singles.add_to(&mut transcript.extensions);
    }
    if let Some(Value::Array(candidates)) = envelope.get_mut("candidates") {
        if let Some(Value::Object(candidate)) = candidates.first_mut() {
            candidate.shift_remove("content");
        }
    }
    add_hint(
        &mut transcript.extensions,
        "response",
        Value::Object(envelope),
    );
    Ok((Form::Response, transcript))
}

#[cfg(test)]
mod tests {
    use crate::shapes::tree_tests::cases_read_alike;
    use crate::shapes::Shape;

    #[test]
    fn malformed_gemini_documents_fail_alike() {
        let cases = [
            r#"[{"parts": {"text": "a"}}, "x"]"#,
            r#"{"tools": {"functionDeclarations": [{"parameters": {}}]}}"#,
            r#"{"contents": [{"parts": null}]}"#,
            r#"{"contents": [{"role": 5, "parts": []}]}"#,
            r#"{"contents": [{"role": "robot", "parts": [{"text": "x"}]}]}"#,
            r#"{"contents": [{"parts": [{"inline_data": {"mime_type": "image/png"}}]}]}"#,
            r#"{"contents": [{"parts": [{"fileData": {"fileUri": "gs://b/x", "mimeType": "no type"}}]}]}"#,
            r#"{"contents": [{"role": "model", "parts": [{"functionCall": {"args": {}}}]}]}"#,
            r#"{"contents": [{"parts": [{"text": "a", "inlineData": {}}, {"mystery": 1}, {"text": 5}]}]}"#,
            r#"{"systemInstruction": 5, "contents": []}"#,
            r#"{"system_instruction": {"parts": {"text": ""}}, "systemInstruction": {"role": "system", "parts": [{"text": "s"}]}}"#,
            r#"{"tools": [{"function_declarations": {"name": "f", "parameters": {"type": "object", "minimum": 1.50}}}, {"functionDeclarations": [{"name": "g", "parameters": {"type": 6, "nullable": true}}], "googleSearch": {}}], "contents": []}"#,
            r#"{"generation_config": {"max_output_tokens": 7, "stop_sequences": "END"}, "generationConfig": {"topP": "x"}, "toolConfig": {"functionCallingConfig": {"mode": 2, "allowedFunctionNames": "f"}}}"#,
            r#"{"function_response": {"name": "f", "response": "plain", "parts": [{"inlineData": {"data": "iVBORw0KGgo", "mimeType": "image/png"}}, {"text": "x"}]}}"#,
            r#"{"candidates": {"content": {"role": "model", "parts": []}}, "modelVersion": 5}"#,
        ];
        cases_read_alike(Shape::Gemini, &cases);
    }
}
