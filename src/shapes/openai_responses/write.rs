//! Writing the canonical model as OpenAI Responses documents.
//!
//! Defaults where the input was another shape:
//! - the system prompt is `instructions` when it is one text part, else a
//!   leading `system` message item (and always an item in a bare list);
//! - messages are `{"type":"message","role":…,"content":[…]}`;
//! - assistant text is a message item with string content (several text parts
//!   joined by blank lines): an assistant item with `output_text` parts is an
//!   output item, whose `id` and `status` the SDK requires and partkit never
//!   makes up;
//! - message images always carry `detail` (`auto` unless the input said
//!   otherwise); images in `function_call_output` carry it only when given;
//! - function tools always carry `parameters` (`null` for none) and `strict`
//!   (`false` unless the tool is strict: Responses defaults to strict).

use serde_json::{Map, Value};

use super::{default_spans, hinted_spans, Span, SHAPE};
use crate::convert::ext::Mine;
use crate::convert::{Context, ConvertError, Form};
use crate::part::{Part, Source};
use crate::shapes::kit::{drop_foreign, lose_block, put, Forms};
use crate::shapes::{Place, Shape, Unsupported};
use crate::transcript::{
    Arguments, Block, Extensions, Message, Role, Tool, ToolCall, ToolChoice, ToolResult, Transcript,
};

/// Writes a request body, an item list, a response object or a single
/// `function_call_output` item, following the form the input had.
pub fn write(
    transcript: &Transcript,
    form: Form,
    context: &mut Context,
) -> Result<Value, ConvertError> {
    let mine = Mine::of(&transcript.extensions, SHAPE);
    Documents { mine, context }.write(transcript, form)
}

/// OpenAI Responses' documents, one method a form, for the writers' skeleton.
struct Documents<'t, 'c> {
    mine: Mine<'t>,
    context: &'c mut Context,
}

impl Forms for Documents<'_, '_> {
    fn context(&mut self) -> &mut Context {
        self.context
    }

    fn request(&mut self, transcript: &Transcript) -> Result<Value, ConvertError> {
        request(transcript, self.mine, self.context)
    }

    /// A list has no place for settings: a transcript that has some (a
    /// canonical object marked as a list, then edited) is a request.
    fn messages(&mut self, transcript: &Transcript) -> Result<Value, ConvertError> {
        if has_settings(transcript) {
            return self.request(transcript);
        }
        Ok(Value::Array(items(
            transcript,
            self.mine,
            true,
            false,
            self.context,
        )?))
    }

    fn response(&mut self, transcript: &Transcript) -> Result<Value, ConvertError> {
        response(transcript, self.mine, self.context)
    }

    /// One `function_call_output` item; media lifted out of the result
    /// (`--tool-media lift`): the items that deliver it.
    fn tool_result(&mut self, transcript: &Transcript) -> Result<Value, ConvertError> {
        if let [Message { content, .. }] = transcript.messages.as_slice() {
            if let (None, [Block::ToolResult(result)]) = (&transcript.system, content.as_slice()) {
                return output_item(result, "", self.context);
            }
        }
        Ok(Value::Array(items(
            transcript,
            self.mine,
            true,
            false,
            self.context,
        )?))
    }
}

/// Whether a transcript has settings only a request body can carry.
fn has_settings(transcript: &Transcript) -> bool {
    let own_fields = transcript
        .extensions
        .get(SHAPE.name())
        .and_then(Value::as_object)
        .is_some_and(|fields| fields.keys().any(|key| !key.starts_with('$')));
    transcript.model.is_some()
        || transcript.max_tokens.is_some()
        || transcript.temperature.is_some()
        || transcript.top_p.is_some()
        || transcript.stop.is_some()
        || transcript.tool_choice.is_some()
        || transcript.tools.is_some()
        || own_fields
}

/// Mine of a hint object that describes an item (the `$system` hint).
fn extensions_of(hint: Option<&Map<String, Value>>) -> Extensions {
    let mut extensions = Extensions::new();
    if let Some(hint) = hint {
        extensions.insert(SHAPE.name().to_string(), Value::Object(hint.clone()));
    }
    extensions
}

/// The system prompt's text when it goes into `instructions`: one text part,
/// unless the input had it as a message item.
fn instructions<'t>(transcript: &'t Transcript, mine: Mine<'_>) -> Option<&'t Block> {
    if mine.hint("system").is_some() {
        return None;
    }
    match transcript.system.as_deref()? {
        [block @ Block::Part {
            part: Part::Text(_),
            extensions,
        }] if Mine::of(extensions, SHAPE).is_empty() => Some(block),
        _ => None,
    }
}

fn request(
    transcript: &Transcript,
    mine: Mine<'_>,
    context: &mut Context,
) -> Result<Value, ConvertError> {
    let mut map = Map::new();
    if let Some(model) = &transcript.model {
        put(&mut map, "model", Value::String(model.clone()));
    }
    let instructions = instructions(transcript, mine);
    if let Some(Block::Part {
        part: Part::Text(text),
        extensions,
    }) = instructions
    {
        drop_foreign(extensions, context)?;
        put(&mut map, "instructions", Value::String(text.clone()));
    }
    let list = items(transcript, mine, instructions.is_none(), false, context)?;
    match mine.hint_str("input") {
        Some("string") if instructions.is_some() || transcript.system.is_none() => {
            match plain_text_input(transcript) {
                Some(text) => put(&mut map, "input", Value::String(text.to_string())),
                None => put(&mut map, "input", Value::Array(list)),
            }
        }
        Some("absent") if list.is_empty() => {}
        _ => put(&mut map, "input", Value::Array(list)),
    }
    if let Some(tools) = &transcript.tools {
        let mut written = Vec::with_capacity(tools.len());
        for tool in tools {
            if let Some(tool) = write_tool(tool, context)? {
                written.push(tool);
            }
        }
        put(&mut map, "tools", Value::Array(written));
    }
    if let Some(choice) = &transcript.tool_choice {
        put(
            &mut map,
            "tool_choice",
            match choice {
                ToolChoice::Auto => Value::String("auto".into()),
                ToolChoice::None => Value::String("none".into()),
                ToolChoice::Required => Value::String("required".into()),
                ToolChoice::Tool(name) => serde_json::json!({"type": "function", "name": name}),
            },
        );
    }
    if let Some(tokens) = &transcript.max_tokens {
        put(&mut map, "max_output_tokens", tokens.clone());
    }
    if let Some(temperature) = &transcript.temperature {
        put(&mut map, "temperature", temperature.clone());
    }
    if let Some(top_p) = &transcript.top_p {
        put(&mut map, "top_p", top_p.clone());
    }
    if transcript.stop.is_some() {
        context.lose("stop")?;
    }
    mine.restore(&mut map);
    Ok(Value::Object(map))
}

/// The text of a conversation that is one plain user text (an `input` string).
fn plain_text_input(transcript: &Transcript) -> Option<&str> {
    match transcript.messages.as_slice() {
        [message] if message.role == Role::User && message.extensions.is_empty() => {
            match message.content.as_slice() {
                [Block::Part {
                    part: Part::Text(text),
                    extensions,
                }] if extensions.is_empty() => Some(text),
                _ => None,
            }
        }
        _ => None,
    }
}

fn response(
    transcript: &Transcript,
    mine: Mine<'_>,
    context: &mut Context,
) -> Result<Value, ConvertError> {
    let mut envelope = match mine.hint("response") {
        Some(Value::Object(envelope)) => envelope.clone(),
        _ => {
            let mut envelope = Map::new();
            put(&mut envelope, "object", Value::String("response".into()));
            put(&mut envelope, "status", Value::String("completed".into()));
            envelope
        }
    };
    if let Some(model) = &transcript.model {
        put(&mut envelope, "model", Value::String(model.clone()));
    }
    let output = items(transcript, mine, false, true, context)?;
    put(&mut envelope, "output", Value::Array(output));
    Ok(Value::Object(envelope))
}

/// A function tool, flat, with every default explicit; a tool only this shape
/// has, as it was; `None` for a tool only another shape has (dropped).
fn write_tool(tool: &Tool, context: &mut Context) -> Result<Option<Value>, ConvertError> {
    let mine = Mine::of(&tool.extensions, SHAPE);
    drop_foreign(&tool.extensions, context)?;
    if let Some(raw) = mine.hint("tool") {
        return Ok(Some(raw.clone()));
    }
    for (shape, fields) in &tool.extensions {
        if let Some(raw) = fields.get("$tool") {
            let kind = crate::shapes::kit::opaque_kind(raw);
            context.lose(format!("{shape} {kind} tools"))?;
            return Ok(None);
        }
    }
    let mut map = Map::new();
    put(&mut map, "type", Value::String("function".into()));
    put(&mut map, "name", Value::String(tool.name.clone()));
    if let Some(description) = &tool.description {
        put(&mut map, "description", Value::String(description.clone()));
    }
    match (&tool.parameters, mine.hint_str("parameters")) {
        (Some(parameters), _) => put(&mut map, "parameters", parameters.clone()),
        (None, Some("absent")) => {}
        (None, _) => put(&mut map, "parameters", Value::Null),
    }
    match (tool.strict, mine.hint_str("strict")) {
        (Some(true), Some("absent")) => {}
        (strict, _) => put(&mut map, "strict", Value::Bool(strict.unwrap_or(false))),
    }
    mine.restore(&mut map);
    Ok(Some(Value::Object(map)))
}

/// Every message as items, the system prompt first when `with_system`;
/// `in_response` for the output items of a response object.
fn items(
    transcript: &Transcript,
    mine: Mine<'_>,
    with_system: bool,
    in_response: bool,
    context: &mut Context,
) -> Result<Vec<Value>, ConvertError> {
    let mut out = Vec::with_capacity(transcript.messages.len() + 1);
    if let (true, Some(system)) = (with_system, &transcript.system) {
        let extensions = extensions_of(mine.hint("system").and_then(Value::as_object));
        let blocks: Vec<&Block> = system.iter().collect();
        out.push(message_item(
            "system",
            &blocks,
            Mine::of(&extensions, SHAPE),
            PartPlace::Input,
            "/system",
            context,
        )?);
    }
    for (index, message) in transcript.messages.iter().enumerate() {
        let at = format!("/messages/{index}");
        let message_mine = Mine::of(&message.extensions, SHAPE);
        drop_foreign(&message.extensions, context)?;
        match message.role {
            Role::System => {
                let blocks: Vec<&Block> = message.content.iter().collect();
                out.push(message_item(
                    "system",
                    &blocks,
                    message_mine,
                    PartPlace::Input,
                    &at,
                    context,
                )?);
            }
            Role::User => {
                // Tool results inside a user message (as some shapes keep
                // them) become function_call_output items first.
                for (i, block) in message.content.iter().enumerate() {
                    if let Block::ToolResult(result) = block {
                        out.push(output_item(result, &format!("{at}/content/{i}"), context)?);
                    }
                }
                let blocks: Vec<&Block> = message
                    .content
                    .iter()
                    .filter(|b| !matches!(b, Block::ToolResult(_)))
                    .collect();
                if !blocks.is_empty() || message.content.is_empty() {
                    out.push(message_item(
                        "user",
                        &blocks,
                        message_mine,
                        PartPlace::Input,
                        &at,
                        context,
                    )?);
                }
            }
            Role::Assistant => {
                assistant_items(message, message_mine, in_response, &at, &mut out, context)?
            }
            Role::Tool => {
                for (i, block) in message.content.iter().enumerate() {
                    let here = format!("{at}/content/{i}");
                    match block {
                        Block::ToolResult(result) => out.push(output_item(result, &here, context)?),
                        Block::Opaque(opaque) if opaque.shape == SHAPE => {
                            out.push(opaque.value.clone())
                        }
                        Block::Part { part, .. } => context
                            .lose(format!("{} parts outside tool results", part.type_name()))?,
                        other => lose_block(other, context)?,
                    }
                }
            }
        }
    }
    Ok(out)
}

/// The items of an assistant turn: message items, `function_call` items and
/// the items only Responses has, split as the `$items` hint says (else by
/// [`default_spans`]).
fn assistant_items(
    message: &Message,
    mine: Mine<'_>,
    in_response: bool,
    at: &str,
    out: &mut Vec<Value>,
    context: &mut Context,
) -> Result<(), ConvertError> {
    let blocks = &message.content;
    let mut spans = mine
        .hint("items")
        .and_then(|hint| hinted_spans(hint, blocks))
        .unwrap_or_else(|| default_spans(blocks));
    if blocks.is_empty() && spans.is_empty() {
        // An empty turn stays a turn.
        spans.push(Span::Message(Vec::new(), None));
    }
    for span in spans {
        match span {
            Span::Message(indices, hints) => {
                let extensions = extensions_of(hints.as_ref());
                let content: Vec<&Block> = indices.iter().map(|&i| &blocks[i]).collect();
                out.push(message_item(
                    "assistant",
                    &content,
                    Mine::of(&extensions, SHAPE),
                    if in_response {
                        PartPlace::Output
                    } else {
                        PartPlace::History
                    },
                    at,
                    context,
                )?);
            }
            Span::Call(i) => {
                if let Block::ToolCall(call) = &blocks[i] {
                    out.push(call_item(call, context)?);
                }
            }
            Span::Item(i) => {
                if let Block::Opaque(opaque) = &blocks[i] {
                    out.push(opaque.value.clone());
                }
            }
            Span::Lost(i) => lose_block(&blocks[i], context)?,
        }
    }
    Ok(())
}

/// Where a part is written: which text type is the default, whether images
/// need `detail`, whether media is allowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PartPlace {
    /// User, system and developer messages.
    Input,
    /// Assistant messages of a response object: `output_text` parts.
    Output,
    /// Assistant history in a request or list: a string by default.
    History,
    /// A `function_call_output` array.
    ToolOutput,
}

impl PartPlace {
    fn text_type(self) -> &'static str {
        match self {
            PartPlace::Output | PartPlace::History => "output_text",
            _ => "input_text",
        }
    }
}

/// A `message` item: its content a string (where the input had one) or parts.
fn message_item(
    default_role: &str,
    blocks: &[&Block],
    mine: Mine<'_>,
    place: PartPlace,
    at: &str,
    context: &mut Context,
) -> Result<Value, ConvertError> {
    let mut map = Map::new();
    if mine.hint_str("type") != Some("absent") {
        put(&mut map, "type", Value::String("message".into()));
    }
    // Item bookkeeping, kept as hints, in the order the API writes it.
    for key in ["id", "status"] {
        if let Some(value) = mine.hint(key) {
            put(&mut map, key, value.clone());
        }
    }
    put(
        &mut map,
        "role",
        Value::String(mine.hint_str("role").unwrap_or(default_role).into()),
    );
    // Assistant history from another shape: a string. An assistant `message`
    // with parts is an output item, whose `id` and `status` the SDK requires
    // and partkit never makes up; string content needs neither.
    let all_plain_text = !blocks.is_empty()
        && blocks.iter().all(|b| {
            matches!(b, Block::Part { part: Part::Text(_), extensions } if Mine::of(extensions, SHAPE).is_empty())
        });
    let history_string = place == PartPlace::History
        && mine.hint_str("content").is_none()
        && mine.hint("id").is_none()
        && all_plain_text;
    let content = match (mine.hint_str("content"), blocks) {
        (
            Some("string"),
            [Block::Part {
                part: Part::Text(text),
                extensions,
            }],
        ) if Mine::of(extensions, SHAPE).is_empty() => {
            drop_foreign(extensions, context)?;
            Value::String(text.clone())
        }
        _ if history_string => {
            let mut texts = Vec::with_capacity(blocks.len());
            for block in blocks {
                if let Block::Part {
                    part: Part::Text(text),
                    extensions,
                } = block
                {
                    drop_foreign(extensions, context)?;
                    texts.push(text.as_str());
                }
            }
            Value::String(texts.join("\n\n"))
        }
        _ => {
            let mut parts = Vec::with_capacity(blocks.len());
            for (i, block) in blocks.iter().enumerate() {
                let here = format!("{at}/content/{i}");
                match block {
                    Block::Part { part, extensions } => {
                        parts.push(content_part(part, extensions, place, &here, context)?)
                    }
                    Block::Opaque(opaque) if opaque.shape == SHAPE => {
                        parts.push(opaque.value.clone())
                    }
                    other => lose_block(other, context)?,
                }
            }
            Value::Array(parts)
        }
    };
    put(&mut map, "content", content);
    mine.restore(&mut map);
    Ok(Value::Object(map))
}

/// One content part, with what this shape kept of it restored. The `detail` of
/// an OpenAI Chat image (kept by that shape as a hint) carries over: both
/// OpenAI shapes spell it alike.
fn content_part(
    part: &Part,
    extensions: &Extensions,
    place: PartPlace,
    at: &str,
    context: &mut Context,
) -> Result<Value, ConvertError> {
    drop_foreign(extensions, context)?;
    let mine = Mine::of(extensions, SHAPE);
    let chat = Mine::of(extensions, Shape::OpenaiChat);
    let shape_place = match place {
        PartPlace::ToolOutput => Place::ToolResult,
        _ => Place::User,
    };
    let mut value =
        context.write_part(part, shape_place, at, |p| match (place, p) {
            (PartPlace::Output | PartPlace::History, Part::Media(media)) => Err(
                Unsupported::media(media, SHAPE, "assistant messages carry only text"),
            ),
            _ => super::write_part(p, shape_place),
        })?;
    let Value::Object(map) = &mut value else {
        return Ok(value);
    };
    let written = map
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    // A part replaced by the placeholder text keeps none of its own fields.
    let replaced = matches!(part, Part::Media(_)) && written == "input_text";
    if written == "input_file"
        && map.contains_key("file_data")
        && matches!(part, Part::Media(media) if media.name.is_none())
        && mine.is_empty()
    {
        context.note(format!(
            "named unnamed files {:?} (openai-responses file_data needs a filename)",
            crate::shapes::openai_chat::DEFAULT_FILENAME
        ));
    }
    if written == "input_text" {
        let kind = match mine.hint_str("type") {
            Some(kind) if !replaced => kind,
            _ => place.text_type(),
        };
        put(map, "type", Value::String(kind.into()));
        if kind == "output_text" {
            if replaced || mine.hint_str("annotations") != Some("absent") {
                put(map, "annotations", Value::Array(Vec::new()));
            }
            if let (false, Some(logprobs)) = (replaced, mine.hint("logprobs")) {
                put(map, "logprobs", logprobs.clone());
            }
        }
    }
    if replaced {
        return Ok(value);
    }
    if let Part::Media(media) = part {
        if let (Some(header), Source::Data(data)) = (mine.hint_str("data_url"), &media.source) {
            let url = Value::String(format!("{header},{data}"));
            match written.as_str() {
                "input_image" => put(map, "image_url", url),
                "input_file" => put(map, "file_data", url),
                _ => {}
            }
        }
        match written.as_str() {
            "input_image" => {
                let detail = mine
                    .hint("detail")
                    .or_else(|| chat.hint("inner").and_then(|inner| inner.get("detail")));
                if let Some(detail) = detail {
                    put(map, "detail", detail.clone());
                }
            }
            "input_file" => {
                if mine.hint_str("filename") == Some("absent") {
                    map.remove("filename");
                }
                match &media.source {
                    Source::Data(data) if mine.hint_str("file_data") == Some("raw") => {
                        put(map, "file_data", Value::String(data.clone()))
                    }
                    Source::Url(_) => {
                        if let Some(name) = &media.name {
                            put(map, "filename", Value::String(name.clone()));
                        }
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }
    mine.restore(map);
    Ok(value)
}

/// The arguments string of a call: as the input spelled it (this shape's hint,
/// or OpenAI Chat's, which spells arguments alike) when it still says the same.
fn arguments_string(call: &ToolCall, mine: Mine<'_>) -> String {
    match &call.arguments {
        Arguments::Raw(raw) => raw.clone(),
        Arguments::Value(value) => [mine, Mine::of(&call.extensions, Shape::OpenaiChat)]
            .iter()
            .filter_map(|m| m.hint_str("arguments"))
            .find(|raw| serde_json::from_str::<Value>(raw).ok().as_ref() == Some(value))
            .map(str::to_string)
            .unwrap_or_else(|| crate::json::text_of(value)),
    }
}

/// A `function_call` item.
fn call_item(call: &ToolCall, context: &mut Context) -> Result<Value, ConvertError> {
    let mine = Mine::of(&call.extensions, SHAPE);
    drop_foreign(&call.extensions, context)?;
    let mut map = Map::new();
    put(&mut map, "type", Value::String("function_call".into()));
    if let Some(id) = mine.hint("id") {
        put(&mut map, "id", id.clone());
    }
    if let Some(id) = &call.id {
        put(&mut map, "call_id", Value::String(id.clone()));
    }
    put(&mut map, "name", Value::String(call.name.clone()));
    put(
        &mut map,
        "arguments",
        Value::String(arguments_string(call, mine)),
    );
    if let Some(status) = mine.hint("status") {
        put(&mut map, "status", status.clone());
    }
    mine.restore(&mut map);
    Ok(Value::Object(map))
}

/// A `function_call_output` item: `output` a string for one text part, else an
/// array of `input_text` / `input_image` / `input_file` parts.
fn output_item(
    result: &ToolResult,
    at: &str,
    context: &mut Context,
) -> Result<Value, ConvertError> {
    let mine = Mine::of(&result.extensions, SHAPE);
    drop_foreign(&result.extensions, context)?;
    if result.is_error {
        context.lose(
            "the error flag of tool results (errors are plain text in function_call_output)",
        )?;
    }
    let mut map = Map::new();
    put(
        &mut map,
        "type",
        Value::String("function_call_output".into()),
    );
    if let Some(id) = mine.hint("id") {
        put(&mut map, "id", id.clone());
    }
    match &result.call_id {
        Some(id) => put(&mut map, "call_id", Value::String(id.clone())),
        // Responses refuses an output without its call's id, as the other
        // shapes do.
        None if context.source != SHAPE => {
            return Err(ConvertError::invalid(
                at,
                "a tool result without a call id cannot be a Responses function_call_output (for a single tool result, pass --call-id)",
            ))
        }
        None => {}
    }
    let as_parts = mine.hint_str("output") == Some("parts");
    let output = match result.content.as_slice() {
        [Block::Part {
            part: Part::Text(text),
            extensions,
        }] if !as_parts && Mine::of(extensions, SHAPE).is_empty() => {
            drop_foreign(extensions, context)?;
            Value::String(text.clone())
        }
        [] if !as_parts => Value::String(String::new()),
        blocks => {
            let mut parts = Vec::with_capacity(blocks.len());
            for (i, block) in blocks.iter().enumerate() {
                let here = format!("{at}/content/{i}");
                match block {
                    Block::Part { part, extensions } => parts.push(content_part(
                        part,
                        extensions,
                        PartPlace::ToolOutput,
                        &here,
                        context,
                    )?),
                    Block::Opaque(opaque) if opaque.shape == SHAPE => {
                        parts.push(opaque.value.clone())
                    }
                    other => lose_block(other, context)?,
                }
            }
            Value::Array(parts)
        }
    };
    put(&mut map, "output", output);
    if let Some(status) = mine.hint("status") {
        put(&mut map, "status", status.clone());
    }
    mine.restore(&mut map);
    Ok(Value::Object(map))
}
