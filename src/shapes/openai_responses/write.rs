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
//! - an image in an assistant turn is an error unless it was read from an
//!   `image_generation_call` item, which it is written back as;
//! - message images always carry `detail` (`auto` unless the input said
//!   otherwise, or a Responses input left it out); images in
//!   `function_call_output` carry it only when given;
//! - function tools always carry `parameters` (`null` for none) and `strict`
//!   (`false` unless the tool is strict: Responses defaults to strict).

use serde_json::{Map, Value};

use super::{default_spans, hinted_spans, Span, SHAPE};
use crate::contract::ext::Mine;
use crate::contract::{Context, ConvertError, Form};
use crate::part::{Part, Source};
use crate::shapes::kit::{
    drop_foreign, kept_for, lose_block, put, write_documents, Documents, Forms,
};
use crate::shapes::{Place, Shape, Unsupported};
use crate::transcript::{Block, Extensions, Message, Role, Transcript};

mod calls;
mod image;
mod request;

use calls::{call_item, output_item};
use image::image_call_item;
use request::{extensions_of, has_settings, request, response};

/// Writes a request body, an item list, a response object or a single
/// `function_call_output` item, following the form the input had.
pub fn write(
    transcript: &Transcript,
    form: Form,
    context: &mut Context,
) -> Result<Value, ConvertError> {
    write_documents::<super::OpenaiResponses>(transcript, form, SHAPE, context)
}

impl Documents<'_, '_, super::OpenaiResponses> {
    /// A bare item list, the system prompt first.
    fn list(&mut self, transcript: &Transcript) -> Result<Value, ConvertError> {
        Ok(Value::Array(items(
            transcript,
            self.mine,
            true,
            false,
            self.context,
        )?))
    }
}

/// OpenaiResponses's documents, one method a form, for the writers' skeleton.
impl Forms for Documents<'_, '_, super::OpenaiResponses> {
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
        self.list(transcript)
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
        self.list(transcript)
    }
}

/// Every message as items, the system prompt first when `with_system`;
/// `in_response` for the output items of a response object.
/// (Long: one pass over the messages that keeps the grouping of items
/// the input had; its steps share the pending assistant items.)
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
        let message_mine = kept_for(&message.extensions, SHAPE, context)?;
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
            Span::Image(i) => {
                if let Some((media, data, extensions)) = super::image_call::generated(&blocks[i]) {
                    out.push(image_call_item(media, data, extensions, context)?);
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
/// (Long: one arm per part type, each restoring what this shape kept of
/// it; the list of types reads best in one place.)
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
            // An image the model made comes back as its image_generation_call
            // item (write/image.rs); any other needs an `ig_…` id partkit
            // cannot make up.
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
                match detail {
                    // A message image the input wrote without detail (the API's
                    // default is `auto`).
                    Some(Value::String(detail)) if detail == "absent" => {
                        map.remove("detail");
                    }
                    Some(detail) => put(map, "detail", detail.clone()),
                    None => {}
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
