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

use serde_json::{Map, Value};

use crate::convert::ext::Mine;
use crate::convert::{Context, ConvertError, Form};
use crate::part::Part;
use crate::shapes::kit::{drop_foreign, first_tool_result, put, Forms};
use crate::shapes::{Place, Shape, Unsupported};
use crate::transcript::{
    Arguments, Block, Extensions, Message, Role, Tool, ToolCall, ToolChoice, ToolResult, Transcript,
};

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
    Documents { context }.write(transcript, form)
}

/// Anthropic's documents, one method a form, for the writers' skeleton.
struct Documents<'c> {
    context: &'c mut Context,
}

impl Forms for Documents<'_> {
    fn context(&mut self) -> &mut Context {
        self.context
    }

    fn request(&mut self, transcript: &Transcript) -> Result<Value, ConvertError> {
        request(transcript, true, self.context)
    }

    /// A list has no place for a system prompt: with one, it is a request
    /// body without the request's own fields.
    fn messages(&mut self, transcript: &Transcript) -> Result<Value, ConvertError> {
        if transcript.system.is_none() {
            Ok(Value::Array(messages(&transcript.messages, self.context)?))
        } else {
            request(transcript, false, self.context)
        }
    }

    fn response(&mut self, transcript: &Transcript) -> Result<Value, ConvertError> {
        response(transcript, self.context)
    }

    fn tool_result(&mut self, transcript: &Transcript) -> Result<Value, ConvertError> {
        // Pointers are the result's own (`/content/1`), as in the input.
        write_result(first_tool_result(transcript)?, "", self.context)
    }
}

fn request(
    transcript: &Transcript,
    is_request: bool,
    context: &mut Context,
) -> Result<Value, ConvertError> {
    let mine = Mine::of(&transcript.extensions, SHAPE);
    let mut map = Map::new();
    if let Some(model) = &transcript.model {
        put(&mut map, "model", Value::String(model.clone()));
    }
    match &transcript.max_tokens {
        Some(tokens) => put(&mut map, "max_tokens", tokens.clone()),
        None if is_request && mine.field("max_tokens").is_none() => context.note(
            "anthropic requests require max_tokens and the input has none; none was written (add one before sending)",
        ),
        None => {}
    }
    if let Some(system) = &transcript.system {
        if let Some(value) = write_content(
            system,
            mine.hint_str("system"),
            true,
            Spot::System,
            "/system",
            context,
        )? {
            put(&mut map, "system", value);
        }
    }
    if mine.hint_str("messages") != Some("absent") || !transcript.messages.is_empty() {
        put(
            &mut map,
            "messages",
            Value::Array(messages(&transcript.messages, context)?),
        );
    }
    let mut tool_count = 0;
    if let Some(tools) = &transcript.tools {
        let mut list = Vec::with_capacity(tools.len());
        for tool in tools {
            if let Some(tool) = write_tool(tool, context)? {
                list.push(tool);
            }
        }
        tool_count = list.len();
        put(&mut map, "tools", Value::Array(list));
    }
    // Anthropic refuses a tool_choice without tools. `auto` with no tools
    // says nothing, so it goes quietly; any other choice is a loss.
    let choice = match &transcript.tool_choice {
        Some(ToolChoice::Auto) if tool_count == 0 => None,
        Some(choice) if tool_count == 0 => {
            let what = match choice {
                ToolChoice::Tool(name) => format!("tool {name}"),
                ToolChoice::Required => "required".into(),
                _ => "none".into(),
            };
            context.lose(format!("tool_choice ({what}) without tools"))?;
            None
        }
        choice => choice.as_ref(),
    };
    if let Some(choice) = choice {
        let value = match choice {
            ToolChoice::Auto => serde_json::json!({"type": "auto"}),
            ToolChoice::Required => serde_json::json!({"type": "any"}),
            ToolChoice::None => serde_json::json!({"type": "none"}),
            ToolChoice::Tool(name) => serde_json::json!({"type": "tool", "name": name}),
        };
        put(&mut map, "tool_choice", value);
    }
    if let Some(stop) = &transcript.stop {
        put(&mut map, "stop_sequences", Value::from(stop.clone()));
    }
    // See the module comment: only an Anthropic input's own sampling settings.
    let sampling: Vec<&str> = mine
        .hint("sampling")
        .and_then(Value::as_array)
        .map(|keys| keys.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    for (key, value) in [
        ("temperature", &transcript.temperature),
        ("top_p", &transcript.top_p),
    ] {
        if let Some(value) = value {
            if sampling.contains(&key) {
                put(&mut map, key, value.clone());
            } else {
                context.lose(key)?;
            }
        }
    }
    restore_request_fields(&transcript.extensions, &mut map);
    Ok(Value::Object(map))
}

/// Restores the request's own fields; `tool_choice.<key>` goes into `tool_choice`.
fn restore_request_fields(extensions: &Extensions, map: &mut Map<String, Value>) {
    let Some(Value::Object(fields)) = extensions.get(SHAPE.name()) else {
        return;
    };
    for (key, value) in fields {
        if key.starts_with('$') {
            continue;
        }
        if let Some(inner) = key.strip_prefix("tool_choice.") {
            if let Some(Value::Object(choice)) = map.get_mut("tool_choice") {
                put(choice, inner, value.clone());
            }
            continue;
        }
        put(map, key, value.clone());
    }
}

fn response(transcript: &Transcript, context: &mut Context) -> Result<Value, ConvertError> {
    let mine = Mine::of(&transcript.extensions, SHAPE);
    let (index, assistant) = transcript
        .messages
        .iter()
        .enumerate()
        .find(|(_, m)| m.role == Role::Assistant)
        .ok_or_else(|| ConvertError::invalid("", "a response needs an assistant message"))?;
    drop_foreign(&assistant.extensions, context)?;
    let message_mine = Mine::of(&assistant.extensions, SHAPE);
    let content = write_content(
        &assistant.content,
        message_mine.hint_str("content"),
        false,
        Spot::Message,
        &format!("/messages/{index}/content"),
        context,
    )?
    .unwrap_or_else(|| Value::Array(Vec::new()));
    let mut envelope = match mine.hint("response") {
        Some(Value::Object(envelope)) => envelope.clone(),
        _ => {
            let calls = assistant
                .content
                .iter()
                .any(|b| matches!(b, Block::ToolCall(_)));
            let mut envelope = Map::new();
            put(&mut envelope, "type", Value::String("message".into()));
            put(&mut envelope, "role", Value::String("assistant".into()));
            put(&mut envelope, "model", Value::Null);
            put(&mut envelope, "content", Value::Null);
            let reason = if calls { "tool_use" } else { "end_turn" };
            put(&mut envelope, "stop_reason", Value::String(reason.into()));
            envelope
        }
    };
    match &transcript.model {
        Some(model) => put(&mut envelope, "model", Value::String(model.clone())),
        None => {
            if envelope.get("model").is_some_and(Value::is_null) {
                envelope.remove("model");
            }
        }
    }
    let empty = content.as_array().is_some_and(Vec::is_empty);
    if envelope.contains_key("content") || !empty {
        put(&mut envelope, "content", content);
    }
    message_mine.restore(&mut envelope);
    Ok(Value::Object(envelope))
}

/// One tool declaration; `None` for a tool another shape kept whole (a hosted
/// or custom tool), which Anthropic cannot declare.
fn write_tool(tool: &Tool, context: &mut Context) -> Result<Option<Value>, ConvertError> {
    let mine = Mine::of(&tool.extensions, SHAPE);
    if let Some(raw) = mine.hint("tool") {
        return Ok(Some(raw.clone()));
    }
    for (shape, fields) in &tool.extensions {
        if let Some(kept) = fields.get("$tool").filter(|_| shape != SHAPE.name()) {
            let kind = kept.get("type").and_then(Value::as_str).unwrap_or("other");
            context.lose(format!("{shape} {kind} tools"))?;
            return Ok(None);
        }
    }
    drop_foreign(&tool.extensions, context)?;
    let mut map = Map::new();
    if let Some(kind) = mine.hint_str("type") {
        put(&mut map, "type", Value::String(kind.into()));
    }
    put(&mut map, "name", Value::String(tool.name.clone()));
    if let Some(description) = &tool.description {
        put(&mut map, "description", Value::String(description.clone()));
    }
    match &tool.parameters {
        Some(schema) => put(&mut map, "input_schema", schema.clone()),
        None if mine.hint_str("input_schema") == Some("absent") => {}
        None => put(
            &mut map,
            "input_schema",
            serde_json::json!({"type": "object", "properties": {}}),
        ),
    }
    if let Some(strict) = tool.strict {
        put(&mut map, "strict", Value::Bool(strict));
    }
    mine.restore(&mut map);
    Ok(Some(Value::Object(map)))
}

/// Every message. A tool message is a user message of `tool_result` blocks,
/// shared with the tool messages right after it and, where the input had them
/// together, the user message after those.
fn messages(messages: &[Message], context: &mut Context) -> Result<Vec<Value>, ConvertError> {
    let mut out = Vec::with_capacity(messages.len());
    let mut i = 0;
    while i < messages.len() {
        let message = &messages[i];
        drop_foreign(&message.extensions, context)?;
        let mine = Mine::of(&message.extensions, SHAPE);
        let mut map = Map::new();
        if message.role != Role::Tool {
            put(
                &mut map,
                "role",
                Value::String(message.role.as_str().into()),
            );
            let spot = match message.role {
                Role::System => Spot::System,
                _ if crate::convert::prepare::is_lifted(message) => Spot::Lifted,
                _ => Spot::Message,
            };
            if let Some(content) = write_content(
                &message.content,
                mine.hint_str("content"),
                true,
                spot,
                &format!("/messages/{i}/content"),
                context,
            )? {
                put(&mut map, "content", content);
            }
            mine.restore(&mut map);
            out.push(Value::Object(map));
            i += 1;
            continue;
        }
        put(&mut map, "role", Value::String("user".into()));
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
        let content: Vec<Option<Value>> = match joined {
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
        put(
            &mut map,
            "content",
            Value::Array(content.into_iter().flatten().collect()),
        );
        for mine in merged {
            mine.restore(&mut map);
        }
        out.push(Value::Object(map));
    }
    Ok(out)
}

/// Writes every block of message `index` (`None` for a block left out).
fn write_each(
    blocks: &[Block],
    spot: Spot,
    index: usize,
    context: &mut Context,
) -> Result<Vec<Option<Value>>, ConvertError> {
    blocks
        .iter()
        .enumerate()
        .map(|(j, block)| {
            write_block(
                block,
                spot,
                &format!("/messages/{index}/content/{j}"),
                context,
            )
        })
        .collect()
}

/// Tool results and the blocks of the user message joined to them, in the
/// input's order (`pattern`: `r` a result, `c` another block) or results first.
fn interleave(
    results: Vec<Option<Value>>,
    others: Vec<Option<Value>>,
    pattern: Option<&str>,
) -> Vec<Option<Value>> {
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

/// Writes a `content`: a string where the input had one (or, where
/// `string_default`, for one plain text part), absent where the input had
/// none, else a list of blocks. `None`: no `content` key.
fn write_content(
    blocks: &[Block],
    hint: Option<&str>,
    string_default: bool,
    spot: Spot,
    at: &str,
    context: &mut Context,
) -> Result<Option<Value>, ConvertError> {
    if hint == Some("absent") && blocks.is_empty() {
        return Ok(None);
    }
    // A string where the input had one (even an empty one: it is the input's).
    if let (
        [Block::Part {
            part: Part::Text(text),
            extensions,
        }],
        Some("string"),
    ) = (blocks, hint)
    {
        drop_foreign(extensions, context)?;
        return Ok(Some(Value::String(text.clone())));
    }
    // What is left out (blocks of other shapes, empty texts) goes first, with
    // its warning or note, so that the form is chosen for what remains.
    let mut kept: Vec<(usize, &Block)> = Vec::with_capacity(blocks.len());
    for (i, block) in blocks.iter().enumerate() {
        if keeps(block, spot, context)? {
            kept.push((i, block));
        }
    }
    if let [(
        _,
        Block::Part {
            part: Part::Text(text),
            extensions,
        },
    )] = kept.as_slice()
    {
        let plain = Mine::of(extensions, SHAPE).is_empty() && !is_blank(text);
        if hint.is_none() && string_default && plain {
            drop_foreign(extensions, context)?;
            return Ok(Some(Value::String(text.clone())));
        }
    }
    let mut list = Vec::with_capacity(kept.len());
    for (i, block) in kept {
        if let Some(value) = write_block(block, spot, &format!("{at}/{i}"), context)? {
            list.push(value);
        }
    }
    Ok(Some(Value::Array(list)))
}

/// Whether a block is written at `spot`; a block left out is reported here (a
/// block of another shape as lost, an empty text with a note).
fn keeps(block: &Block, spot: Spot, context: &mut Context) -> Result<bool, ConvertError> {
    match block {
        Block::Part {
            part: Part::Text(text),
            extensions,
        } if is_blank(text) && Mine::of(extensions, SHAPE).hint("blank").is_none() => {
            drop_foreign(extensions, context)?;
            context.note(BLANK_NOTE);
            Ok(false)
        }
        Block::ToolCall(_) if spot == Spot::Result => {
            context.lose("tool calls inside tool results")?;
            Ok(false)
        }
        Block::ToolResult(_) if spot == Spot::Result => {
            context.lose("tool results inside tool results")?;
            Ok(false)
        }
        Block::Opaque(opaque) if opaque.shape != SHAPE => {
            let kind = crate::shapes::kit::opaque_kind(&opaque.value);
            context.lose(format!("{} {kind} blocks", opaque.shape))?;
            Ok(false)
        }
        _ => Ok(true),
    }
}

/// One block; `None` when it is left out (see [`keeps`]).
fn write_block(
    block: &Block,
    spot: Spot,
    at: &str,
    context: &mut Context,
) -> Result<Option<Value>, ConvertError> {
    if !keeps(block, spot, context)? {
        return Ok(None);
    }
    match block {
        Block::Part { part, extensions } => {
            write_part(part, extensions, spot, at, context).map(Some)
        }
        Block::ToolCall(call) => write_call(call, at, context).map(Some),
        Block::ToolResult(result) => write_result(result, at, context).map(Some),
        Block::Opaque(opaque) => Ok(Some(opaque.value.clone())),
    }
}

/// A system prompt takes text blocks only.
fn system_part(part: &Part) -> Result<Value, Unsupported> {
    match part {
        Part::Text(_) => super::write_part(part, Place::User),
        Part::Media(media) => Err(Unsupported::media(
            media,
            SHAPE,
            "the system prompt takes only text",
        )),
    }
}

/// One part, by the unsupported-part policy, with what Anthropic kept of it.
fn write_part(
    part: &Part,
    extensions: &Extensions,
    spot: Spot,
    at: &str,
    context: &mut Context,
) -> Result<Value, ConvertError> {
    drop_foreign(extensions, context)?;
    let mine = Mine::of(extensions, SHAPE);
    let mut value = match spot {
        Spot::System => context.write_part(part, Place::User, at, system_part)?,
        Spot::Message => {
            context.write_part(part, Place::User, at, |p| super::write_part(p, Place::User))?
        }
        Spot::Lifted | Spot::Result => context.write_part(part, Place::ToolResult, at, |p| {
            super::write_part(p, Place::ToolResult)
        })?,
    };
    let replaced =
        matches!(part, Part::Media(_)) && value.get("type").and_then(Value::as_str) == Some("text");
    if let (false, Value::Object(map)) = (replaced, &mut value) {
        if let Some(Value::Object(source)) = map.get_mut("source") {
            match mine.hint("media_type") {
                Some(Value::Null) => {
                    source.remove("media_type");
                }
                Some(raw) if source.contains_key("media_type") => {
                    put(source, "media_type", raw.clone());
                }
                _ => {}
            }
            if let Some(Value::Object(extra)) = mine.hint("source") {
                for (key, value) in extra {
                    put(source, key, value.clone());
                }
            }
            if let (Some(Value::Array(lengths)), Some(Value::String(text))) =
                (mine.hint("content"), source.get("data"))
            {
                if let Some(blocks) = crate::shapes::split_joined(text, lengths, "\n") {
                    let blocks = blocks
                        .into_iter()
                        .map(|t| serde_json::json!({"type": "text", "text": t}))
                        .collect();
                    source.clear();
                    put(source, "type", Value::String("content".into()));
                    put(source, "content", Value::Array(blocks));
                }
            }
        }
        mine.restore(map);
    }
    Ok(value)
}

fn write_call(call: &ToolCall, at: &str, context: &mut Context) -> Result<Value, ConvertError> {
    drop_foreign(&call.extensions, context)?;
    let mine = Mine::of(&call.extensions, SHAPE);
    let id = call
        .id
        .as_deref()
        .ok_or_else(|| ConvertError::invalid(at, format!("tool call {} has no id", call.name)))?;
    let input = match (&call.arguments, mine.hint_str("input")) {
        (Arguments::Value(Value::Object(map)), Some("absent")) if map.is_empty() => None,
        (Arguments::Value(value @ Value::Object(_)), _) => Some(value.clone()),
        (Arguments::Value(value), Some("value")) => Some(value.clone()),
        (Arguments::Value(value), _) => {
            return Err(ConvertError::invalid(
                at,
                format!(
                    "tool call {} ({id}): its arguments are {}, and an Anthropic tool_use input must be an object",
                    call.name,
                    crate::part::json_kind(value)
                ),
            ))
        }
        (Arguments::Raw(_), _) => {
            return Err(ConvertError::invalid(
                at,
                format!(
                    "tool call {} ({id}): its arguments are not JSON (kept as a string), and an Anthropic tool_use input must be an object",
                    call.name
                ),
            ))
        }
    };
    let mut map = Map::new();
    put(&mut map, "type", Value::String("tool_use".into()));
    put(&mut map, "id", Value::String(id.to_string()));
    put(&mut map, "name", Value::String(call.name.clone()));
    if let Some(input) = input {
        put(&mut map, "input", input);
    }
    mine.restore(&mut map);
    Ok(Value::Object(map))
}

/// One `tool_result` block. No empty text block: an image-only result has no
/// text block at all.
fn write_result(
    result: &ToolResult,
    at: &str,
    context: &mut Context,
) -> Result<Value, ConvertError> {
    drop_foreign(&result.extensions, context)?;
    let mine = Mine::of(&result.extensions, SHAPE);
    let id = result.call_id.as_deref().ok_or_else(|| {
        ConvertError::invalid(
            at,
            "a tool result without a call id cannot be an Anthropic tool_result (for a single tool result, pass --call-id)",
        )
    })?;
    let mut map = Map::new();
    put(&mut map, "type", Value::String("tool_result".into()));
    put(&mut map, "tool_use_id", Value::String(id.to_string()));
    if let Some(content) = write_content(
        &result.content,
        mine.hint_str("content"),
        false,
        Spot::Result,
        &format!("{at}/content"),
        context,
    )? {
        put(&mut map, "content", content);
    }
    if result.is_error {
        put(&mut map, "is_error", Value::Bool(true));
    } else if mine.hint("is_error") == Some(&Value::Bool(false)) {
        put(&mut map, "is_error", Value::Bool(false));
    }
    mine.restore(&mut map);
    Ok(Value::Object(map))
}
