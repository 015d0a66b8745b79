//! Writing the canonical model as OpenAI Chat Completions documents.

use serde_json::{Map, Value};

use crate::contract::ext::Mine;
use crate::contract::{Context, ConvertError, Form};
use crate::part::{Part, Source};
use crate::shapes::kit::{
    drop_foreign, kept_for, lose_block, put, write_documents, Documents, Forms,
};
use crate::shapes::{Place, Shape};
use crate::transcript::{Arguments, Block, Message, Role, Tool, ToolResult, Transcript};

const SHAPE: Shape = Shape::OpenaiChat;

/// Writes a request body, a message list, a chat completion or a tool result
/// (as the messages that deliver it), following the form the input had.
pub fn write(
    transcript: &Transcript,
    form: Form,
    context: &mut Context,
) -> Result<Value, ConvertError> {
    write_documents::<super::OpenaiChat>(transcript, form, SHAPE, context)
}

/// OpenaiChat's documents, one method a form, for the writers' skeleton.
impl Forms for Documents<'_, '_, super::OpenaiChat> {
    fn context(&mut self) -> &mut Context {
        self.context
    }

    fn request(&mut self, transcript: &Transcript) -> Result<Value, ConvertError> {
        request(transcript, self.mine, self.context)
    }

    fn messages(&mut self, transcript: &Transcript) -> Result<Value, ConvertError> {
        Ok(Value::Array(messages(transcript, self.mine, self.context)?))
    }

    fn response(&mut self, transcript: &Transcript) -> Result<Value, ConvertError> {
        response(transcript, self.mine, self.context)
    }

    /// A tool result is the messages that deliver it (docs/conversion.md).
    fn tool_result(&mut self, transcript: &Transcript) -> Result<Value, ConvertError> {
        self.messages(transcript)
    }
}

fn request(
    transcript: &Transcript,
    mine: Mine<'_>,
    context: &mut Context,
) -> Result<Value, ConvertError> {
    let mut map = crate::shapes::kit::with_model(transcript, "model");
    if mine.hint_str("messages") != Some("absent")
        || !transcript.messages.is_empty()
        || transcript.system.is_some()
    {
        put(
            &mut map,
            "messages",
            Value::Array(messages(transcript, mine, context)?),
        );
    }
    if let Some(tools) = &transcript.tools {
        let written = crate::shapes::kit::write_tools(tools, |tool| write_tool(tool, context))?;
        // When every tool was dropped, no tool list (an empty one is refused).
        if !written.is_empty() || tools.is_empty() {
            put(&mut map, "tools", Value::Array(written));
        }
    }
    crate::shapes::kit::put_function_choice(
        &mut map,
        transcript.tool_choice.as_ref(),
        |name| serde_json::json!({"type": "function", "function": {"name": name}}),
    );
    if let Some(tokens) = &transcript.max_tokens {
        let key = mine
            .hint_str("max_tokens")
            .unwrap_or("max_completion_tokens");
        put(&mut map, key, tokens.clone());
    }
    if let Some(temperature) = &transcript.temperature {
        put(&mut map, "temperature", temperature.clone());
    }
    if let Some(top_p) = &transcript.top_p {
        put(&mut map, "top_p", top_p.clone());
    }
    if let Some(stop) = &transcript.stop {
        let value = match (mine.hint_str("stop"), stop.as_slice()) {
            (Some("string"), [one]) => Value::String(one.clone()),
            _ => Value::from(stop.clone()),
        };
        put(&mut map, "stop", value);
    }
    mine.restore(&mut map);
    Ok(Value::Object(map))
}

fn response(
    transcript: &Transcript,
    mine: Mine<'_>,
    context: &mut Context,
) -> Result<Value, ConvertError> {
    let assistant = transcript
        .messages
        .iter()
        .find(|m| m.role == Role::Assistant)
        .ok_or_else(|| ConvertError::invalid("", "a response needs an assistant message"))?;
    let mut message = write_assistant(assistant, context)?;
    // A completion's message content is one string (content parts are for
    // requests): text parts, the segments of one answer, are joined.
    if let Some(Value::Array(parts)) = message.get("content") {
        let texts: Option<Vec<&str>> = parts
            .iter()
            .map(|p| {
                (p.get("type")? == "text")
                    .then(|| p.get("text")?.as_str())
                    .flatten()
            })
            .collect();
        if let Some(texts) = texts {
            if texts.len() > 1 {
                context.note(format!(
                    "joined {} text parts into the completion's one content string",
                    texts.len()
                ));
            }
            let joined = texts.concat();
            message["content"] = Value::String(joined);
        }
    }
    let mut envelope = match mine.hint("response") {
        Some(Value::Object(envelope)) => envelope.clone(),
        _ => {
            let calls = crate::shapes::kit::calls_tools(assistant);
            let reason = if calls { "tool_calls" } else { "stop" };
            let mut envelope = Map::new();
            put(
                &mut envelope,
                "object",
                Value::String("chat.completion".into()),
            );
            put(
                &mut envelope,
                "choices",
                serde_json::json!([{"index": 0, "finish_reason": reason}]),
            );
            envelope
        }
    };
    crate::shapes::kit::put_model(&mut envelope, transcript);
    if let Some(Value::Array(choices)) = envelope.get_mut("choices") {
        if let Some(Value::Object(choice)) = choices.first_mut() {
            put(choice, "message", message);
        }
    }
    Ok(Value::Object(envelope))
}

fn write_tool(tool: &Tool, context: &mut Context) -> Result<Option<Value>, ConvertError> {
    let mine = Mine::of(&tool.extensions, SHAPE);
    if let Some(raw) = mine.hint("tool") {
        return Ok(Some(raw.clone()));
    }
    if let Some(what) = crate::contract::ext::foreign_whole_tool(&tool.extensions, SHAPE) {
        context.lose(what)?;
        return Ok(None);
    }
    let mut function = Map::new();
    put(&mut function, "name", Value::String(tool.name.clone()));
    if let Some(description) = &tool.description {
        put(
            &mut function,
            "description",
            Value::String(description.clone()),
        );
    }
    if let Some(parameters) = &tool.parameters {
        put(&mut function, "parameters", parameters.clone());
    }
    if let Some(strict) = tool.strict {
        put(&mut function, "strict", Value::Bool(strict));
    }
    mine.restore(&mut function);
    drop_foreign(&tool.extensions, context)?;
    Ok(Some(
        serde_json::json!({"type": "function", "function": Value::Object(function)}),
    ))
}

/// Every message, the system prompt first.
fn messages(
    transcript: &Transcript,
    mine: Mine<'_>,
    context: &mut Context,
) -> Result<Vec<Value>, ConvertError> {
    let mut out = Vec::with_capacity(transcript.messages.len() + 1);
    if let Some(system) = &transcript.system {
        let hint = mine.hint("system").and_then(Value::as_object);
        out.push(system_message(system, hint, context)?);
    }
    for (index, message) in transcript.messages.iter().enumerate() {
        let at = format!("/messages/{index}");
        match message.role {
            Role::System => {
                let mine = kept_for(&message.extensions, SHAPE, context)?;
                let mut map = Map::new();
                put(
                    &mut map,
                    "role",
                    Value::String(mine.hint_str("role").unwrap_or("system").into()),
                );
                write_content(&mut map, &message.content, mine, Place::User, &at, context)?;
                mine.restore(&mut map);
                out.push(Value::Object(map));
            }
            Role::User => {
                let mine = kept_for(&message.extensions, SHAPE, context)?;
                // Tool results inside a user message (hand-written canonical)
                // become tool messages first.
                for block in &message.content {
                    if let Block::ToolResult(result) = block {
                        out.push(tool_message(result, &at, context)?);
                    }
                }
                let content: Vec<Block> = message
                    .content
                    .iter()
                    .filter(|b| !matches!(b, Block::ToolResult(_)))
                    .cloned()
                    .collect();
                if !content.is_empty() || message.content.is_empty() {
                    let mut map = Map::new();
                    put(&mut map, "role", Value::String("user".into()));
                    let place = if crate::contract::ext::is_lifted(message) {
                        Place::ToolResult
                    } else {
                        Place::User
                    };
                    write_content(&mut map, &content, mine, place, &at, context)?;
                    mine.restore(&mut map);
                    out.push(Value::Object(map));
                }
            }
            Role::Assistant => out.push(write_assistant(message, context)?),
            Role::Tool => {
                for (i, block) in message.content.iter().enumerate() {
                    match block {
                        Block::ToolResult(result) => {
                            out.push(tool_message(result, &format!("{at}/content/{i}"), context)?)
                        }
                        other => lose_block(other, context)?,
                    }
                }
            }
        }
    }
    Ok(out)
}

fn system_message(
    system: &[Block],
    hint: Option<&Map<String, Value>>,
    context: &mut Context,
) -> Result<Value, ConvertError> {
    let mut extensions = crate::transcript::Extensions::new();
    if let Some(hint) = hint {
        extensions.insert(SHAPE.name().to_string(), Value::Object(hint.clone()));
    }
    let mine = Mine::of(&extensions, SHAPE);
    let mut map = Map::new();
    put(
        &mut map,
        "role",
        Value::String(mine.hint_str("role").unwrap_or("system").into()),
    );
    write_content(&mut map, system, mine, Place::User, "/system", context)?;
    mine.restore(&mut map);
    Ok(Value::Object(map))
}

/// Writes `content` as a string (one text part, or as the input had it) or a
/// list of parts.
fn write_content(
    map: &mut Map<String, Value>,
    blocks: &[Block],
    mine: Mine<'_>,
    place: Place,
    at: &str,
    context: &mut Context,
) -> Result<(), ConvertError> {
    // What this shape cannot hold goes first (with the loss warning), so that
    // the form is chosen for what remains.
    let mut kept: Vec<(usize, &Block)> = Vec::with_capacity(blocks.len());
    for (i, block) in blocks.iter().enumerate() {
        match block {
            Block::Part { .. } => kept.push((i, block)),
            Block::Opaque(opaque) if opaque.shape == SHAPE => kept.push((i, block)),
            other => lose_block(other, context)?,
        }
    }
    let form = mine.hint_str("content");
    match (form, kept.as_slice()) {
        (Some("absent"), []) => return Ok(()),
        (Some("null"), []) => {
            put(map, "content", Value::Null);
            return Ok(());
        }
        (Some("empty"), []) => {
            put(map, "content", Value::String(String::new()));
            return Ok(());
        }
        (
            None | Some("string"),
            [(
                _,
                Block::Part {
                    part: Part::Text(text),
                    extensions,
                },
            )],
        ) if Mine::of(extensions, SHAPE).is_empty() => {
            drop_foreign(extensions, context)?;
            put(map, "content", Value::String(text.clone()));
            return Ok(());
        }
        _ => {}
    }
    let mut parts = Vec::with_capacity(kept.len());
    for (i, block) in kept {
        let here = format!("{at}/content/{i}");
        match block {
            Block::Part { part, extensions } => {
                parts.push(write_part(part, extensions, place, &here, context)?)
            }
            Block::Opaque(opaque) => parts.push(opaque.value.clone()),
            _ => {}
        }
    }
    put(map, "content", Value::Array(parts));
    Ok(())
}

/// One content part, with what this shape kept of it restored.
fn write_part(
    part: &Part,
    extensions: &crate::transcript::Extensions,
    place: Place,
    at: &str,
    context: &mut Context,
) -> Result<Value, ConvertError> {
    drop_foreign(extensions, context)?;
    let mine = Mine::of(extensions, SHAPE);
    let mut value = context.write_part(part, place, at, |p| super::write_part(p, Place::User))?;
    let Value::Object(map) = &mut value else {
        return Ok(value);
    };
    if matches!(part, Part::Media(media) if media.name.is_none()) && map.contains_key("file") {
        context.note(format!(
            "named unnamed files {:?} (openai-chat file parts need a filename)",
            super::DEFAULT_FILENAME
        ));
    }
    // The data URL's own header, when the input spelled it another way.
    if let (Some(header), Part::Media(media)) = (mine.hint_str("data_url"), part) {
        if let Source::Data(data) = &media.source {
            let url = format!("{header},{data}");
            if let Some(Value::Object(image)) = map.get_mut("image_url") {
                put(image, "url", Value::String(url.clone()));
            }
            if let Some(Value::Object(file)) = map.get_mut("file") {
                put(file, "file_data", Value::String(url));
            }
        }
    }
    let inner_key = match map.get("type").and_then(Value::as_str) {
        Some("image_url") => "image_url",
        Some("input_audio") => "input_audio",
        Some("file") => "file",
        _ => "",
    };
    if inner_key == "image_url" && mine.hint_str("image_url") == Some("string") {
        let url = map
            .get("image_url")
            .and_then(|i| i.get("url"))
            .cloned()
            .unwrap_or(Value::Null);
        put(map, "image_url", url);
    }
    if let Some(Value::Object(inner)) = map.get_mut(inner_key) {
        if inner_key == "file" {
            if mine.hint_str("filename") == Some("absent") {
                inner.remove("filename");
            }
            if let (Some("raw"), Part::Media(media)) = (mine.hint_str("file_data"), part) {
                if let Source::Data(data) = &media.source {
                    put(inner, "file_data", Value::String(data.clone()));
                }
            }
        }
        if let Some(Value::Object(extra)) = mine.hint("inner") {
            for (key, value) in extra {
                inner.insert(key.clone(), value.clone());
            }
        }
    }
    mine.restore(map);
    Ok(value)
}

fn write_assistant(message: &Message, context: &mut Context) -> Result<Value, ConvertError> {
    let mine = kept_for(&message.extensions, SHAPE, context)?;
    let mut map = Map::new();
    put(&mut map, "role", Value::String("assistant".into()));
    let content: Vec<Block> = message
        .content
        .iter()
        .filter(|b| !matches!(b, Block::ToolCall(_)))
        .cloned()
        .collect();
    let calls: Vec<&Block> = message
        .content
        .iter()
        .filter(|b| matches!(b, Block::ToolCall(_)))
        .collect();
    let writable = content.iter().any(|b| match b {
        Block::Part { .. } => true,
        Block::Opaque(opaque) => opaque.shape == SHAPE,
        _ => false,
    });
    if !writable && mine.hint_str("content").is_none() {
        for block in &content {
            lose_block(block, context)?;
        }
        // A turn of only tool calls: OpenAI writes null content.
        put(&mut map, "content", Value::Null);
    } else {
        write_content(&mut map, &content, mine, Place::User, "/assistant", context)?;
    }
    if !calls.is_empty() || mine.hint_str("tool_calls") == Some("empty") {
        let mut list = Vec::with_capacity(calls.len());
        for block in calls {
            if let Block::ToolCall(call) = block {
                let call_mine = kept_for(&call.extensions, SHAPE, context)?;
                let arguments = match (&call.arguments, call_mine.hint_str("arguments")) {
                    (Arguments::Value(value), Some(raw))
                        if serde_json::from_str::<Value>(raw).ok().as_ref() == Some(value) =>
                    {
                        raw.to_string()
                    }
                    (Arguments::Value(value), _) => context.text_of(value),
                    (Arguments::Raw(raw), _) => raw.clone(),
                };
                let mut function = Map::new();
                put(&mut function, "name", Value::String(call.name.clone()));
                put(&mut function, "arguments", Value::String(arguments));
                let mut item = Map::new();
                if let Some(id) = &call.id {
                    put(&mut item, "id", Value::String(id.clone()));
                }
                if call_mine.hint_str("type") != Some("absent") {
                    put(&mut item, "type", Value::String("function".into()));
                }
                if let Some(Value::Object(extra)) = call_mine.hint("inner") {
                    for (key, value) in extra {
                        function.insert(key.clone(), value.clone());
                    }
                }
                put(&mut item, "function", Value::Object(function));
                call_mine.restore(&mut item);
                list.push(Value::Object(item));
            }
        }
        put(&mut map, "tool_calls", Value::Array(list));
    }
    mine.restore(&mut map);
    Ok(Value::Object(map))
}

fn tool_message(
    result: &ToolResult,
    at: &str,
    context: &mut Context,
) -> Result<Value, ConvertError> {
    let mine = kept_for(&result.extensions, SHAPE, context)?;
    crate::shapes::kit::lose_error_flag(result, Some("tool messages"), context)?;
    let id = result.call_id.clone().ok_or_else(|| {
        ConvertError::invalid(
            at,
            "a tool result without a call id cannot be a tool message (for a single tool result, pass --call-id)",
        )
    })?;
    let mut map = Map::new();
    put(&mut map, "role", Value::String("tool".into()));
    put(&mut map, "tool_call_id", Value::String(id));
    write_content(
        &mut map,
        &result.content,
        mine,
        Place::ToolResult,
        at,
        context,
    )?;
    mine.restore(&mut map);
    Ok(Value::Object(map))
}
