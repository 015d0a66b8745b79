//! Writing the canonical model as Bedrock Converse documents.

use std::collections::HashMap;

use serde_json::{Map, Value};

use crate::contract::ext::Mine;
use crate::contract::{Context, ConvertError, Form};
use crate::part::Part;
use crate::shapes::kit::{
    drop_foreign, first_tool_result, kept_for, lose_block, put, write_documents, Documents, Forms,
};
use crate::shapes::{Place, Shape};
use crate::transcript::{
    Arguments, Block, Extensions, Message, Role, Tool, ToolChoice, ToolResult, Transcript,
};

use super::tool_use_id;

const SHAPE: Shape = Shape::Bedrock;

/// Writes a Converse document in the form the input had.
pub fn write(
    transcript: &Transcript,
    form: Form,
    context: &mut Context,
) -> Result<Value, ConvertError> {
    write_documents::<super::Bedrock>(transcript, form, SHAPE, context)
}

impl Documents<'_, '_, super::Bedrock> {
    /// The writer of blocks, with the call ids mapped (its note comes after
    /// the warnings for what other shapes kept).
    fn writer(&mut self, transcript: &Transcript) -> Writer<'_> {
        Writer {
            ids: id_map(transcript, self.context),
            context: self.context,
        }
    }
}

/// Bedrock's documents, one method a form, for the writers' skeleton.
impl Forms for Documents<'_, '_, super::Bedrock> {
    fn context(&mut self) -> &mut Context {
        self.context
    }

    fn request(&mut self, transcript: &Transcript) -> Result<Value, ConvertError> {
        let mine = self.mine;
        self.writer(transcript).request(transcript, mine)
    }

    fn messages(&mut self, transcript: &Transcript) -> Result<Value, ConvertError> {
        Ok(Value::Array(self.writer(transcript).messages(transcript)?))
    }

    /// The assistant message in the envelope the input had, or a new one.
    fn response(&mut self, transcript: &Transcript) -> Result<Value, ConvertError> {
        let messages = self.writer(transcript).messages(transcript)?;
        let message = messages
            .into_iter()
            .find(|m| m.get("role").and_then(Value::as_str) == Some("assistant"))
            .ok_or_else(|| ConvertError::invalid("", "a response needs an assistant message"))?;
        let mut envelope = match self.mine.hint("response") {
            Some(Value::Object(envelope)) => envelope.clone(),
            _ => {
                let calls = message
                    .get("content")
                    .and_then(Value::as_array)
                    .is_some_and(|c| c.iter().any(|b| b.get("toolUse").is_some()));
                let mut envelope = Map::new();
                put(&mut envelope, "output", Value::Object(Map::new()));
                put(
                    &mut envelope,
                    "stopReason",
                    Value::String(if calls { "tool_use" } else { "end_turn" }.into()),
                );
                envelope
            }
        };
        if let Some(Value::Object(output)) = envelope.get_mut("output") {
            put(output, "message", message);
        }
        Ok(Value::Object(envelope))
    }

    fn tool_result(&mut self, transcript: &Transcript) -> Result<Value, ConvertError> {
        let mine = self.mine;
        let mut writer = self.writer(transcript);
        let result = first_tool_result(transcript)?;
        let mut map = Map::new();
        put(
            &mut map,
            "toolResult",
            writer.tool_result(result, "/toolResult")?,
        );
        mine.restore(&mut map);
        Ok(Value::Object(map))
    }
}

/// Call ids mapped onto Converse's `toolUseId` pattern, distinct ids kept
/// distinct (a collision gets a counter), with a note listing the changes.
fn id_map(transcript: &Transcript, context: &mut Context) -> HashMap<String, String> {
    let mut ids: Vec<&str> = Vec::new();
    for block in transcript.messages.iter().flat_map(|m| &m.content) {
        let id = match block {
            Block::ToolCall(call) => call.id.as_deref(),
            Block::ToolResult(result) => result.call_id.as_deref(),
            _ => None,
        };
        if let Some(id) = id {
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
    }
    let mut map = HashMap::new();
    let mut used: Vec<String> = Vec::new();
    let mut changed = Vec::new();
    for id in ids {
        let mut mapped = tool_use_id(id);
        let mut n = 1;
        while used.contains(&mapped) {
            n += 1;
            mapped = format!(
                "{}-{n}",
                tool_use_id(id).chars().take(60).collect::<String>()
            );
        }
        if mapped != id {
            changed.push(format!(
                "{id} → {mapped}",
                id = crate::echo::quoted(id),
                mapped = crate::echo::quoted(&mapped)
            ));
        }
        used.push(mapped.clone());
        map.insert(id.to_string(), mapped);
    }
    if !changed.is_empty() {
        context.note(format!(
            "call ids outside Bedrock's toolUseId alphabet were mapped: {}",
            changed.join(", ")
        ));
    }
    map
}

struct Writer<'c> {
    ids: HashMap<String, String>,
    context: &'c mut Context,
}

impl Writer<'_> {
    fn id(&self, id: Option<&str>, at: &str) -> Result<String, ConvertError> {
        let id = id.ok_or_else(|| {
            ConvertError::invalid(
                at,
                "Bedrock needs a call id (pass --call-id for a single tool result)",
            )
        })?;
        Ok(self.ids.get(id).cloned().unwrap_or_else(|| tool_use_id(id)))
    }

    fn request(&mut self, transcript: &Transcript, mine: Mine<'_>) -> Result<Value, ConvertError> {
        let mut map = crate::shapes::kit::with_model(transcript, "modelId");
        if let Some(system) = &transcript.system {
            let blocks = self.blocks(system, Place::User, "/system")?;
            put(&mut map, "system", Value::Array(blocks));
        }
        if mine.hint_str("messages") != Some("absent") || !transcript.messages.is_empty() {
            put(
                &mut map,
                "messages",
                Value::Array(self.messages(transcript)?),
            );
        }
        let mut tool_config = match mine.hint("toolConfig") {
            Some(Value::Object(kept)) => kept.clone(),
            _ => Map::new(),
        };
        if let Some(tools) = &transcript.tools {
            let written = crate::shapes::kit::write_tools(tools, |tool| self.tool(tool))?;
            // Converse refuses an empty tool list: with no tool (none declared,
            // or every one dropped) there is no tool configuration to write.
            if !written.is_empty() {
                put(&mut tool_config, "tools", Value::Array(written));
            }
        }
        let no_tools = !tool_config.contains_key("tools");
        if let Some(choice) = &transcript.tool_choice {
            let value = match choice {
                ToolChoice::None => {
                    self.context.lose("tool choice none")?;
                    None
                }
                // A choice needs tools; `auto` without any says nothing.
                ToolChoice::Auto if no_tools => None,
                _ if no_tools => {
                    self.context.lose("a tool choice without tools")?;
                    None
                }
                ToolChoice::Auto => Some(serde_json::json!({"auto": {}})),
                ToolChoice::Required => Some(serde_json::json!({"any": {}})),
                ToolChoice::Tool(name) => Some(serde_json::json!({"tool": {"name": name}})),
            };
            if let Some(value) = value {
                put(&mut tool_config, "toolChoice", value);
            }
        }
        if !tool_config.is_empty() || mine.hint("toolConfig").is_some() {
            put(&mut map, "toolConfig", Value::Object(tool_config));
        }
        let mut inference = match mine.hint("inferenceConfig") {
            Some(Value::Object(kept)) => kept.clone(),
            _ => Map::new(),
        };
        for (key, value) in [
            ("maxTokens", &transcript.max_tokens),
            ("temperature", &transcript.temperature),
            ("topP", &transcript.top_p),
        ] {
            if let Some(value) = value {
                put(&mut inference, key, value.clone());
            }
        }
        if let Some(stop) = &transcript.stop {
            put(&mut inference, "stopSequences", Value::from(stop.clone()));
        }
        if !inference.is_empty() || mine.hint("inferenceConfig").is_some() {
            put(&mut map, "inferenceConfig", Value::Object(inference));
        }
        mine.restore(&mut map);
        Ok(Value::Object(map))
    }

    fn tool(&mut self, tool: &Tool) -> Result<Option<Value>, ConvertError> {
        let mine = Mine::of(&tool.extensions, SHAPE);
        if let Some(raw) = mine.hint("tool") {
            return Ok(Some(raw.clone()));
        }
        if let Some(what) = crate::contract::ext::foreign_whole_tool(&tool.extensions, SHAPE) {
            self.context.lose(what)?;
            return Ok(None);
        }
        drop_foreign(&tool.extensions, self.context)?;
        let mut spec = Map::new();
        put(&mut spec, "name", Value::String(tool.name.clone()));
        // boto3 refuses an empty description (its minimum length is 1): an
        // empty one says nothing, so none is sent.
        if let Some(description) = tool.description.as_ref().filter(|d| !d.is_empty()) {
            put(&mut spec, "description", Value::String(description.clone()));
        }
        let schema = tool
            .parameters
            .clone()
            .unwrap_or_else(|| serde_json::json!({"type": "object", "properties": {}}));
        if tool.parameters.is_some() || mine.field("inputSchema").is_none() {
            put(
                &mut spec,
                "inputSchema",
                serde_json::json!({ "json": schema }),
            );
        }
        if let Some(strict) = tool.strict {
            put(&mut spec, "strict", Value::Bool(strict));
        }
        mine.restore(&mut spec);
        let mut outer = Map::new();
        put(&mut outer, "toolSpec", Value::Object(spec));
        if let Some(Value::Object(extra)) = mine.hint("outer") {
            for (key, value) in extra {
                outer.insert(key.clone(), value.clone());
            }
        }
        Ok(Some(Value::Object(outer)))
    }

    /// Messages with alternating roles: tool results and the user content of the
    /// same turn merge into one `user` message.
    fn messages(&mut self, transcript: &Transcript) -> Result<Vec<Value>, ConvertError> {
        let mut out: Vec<(String, Vec<Value>, Map<String, Value>)> = Vec::new();
        let mut pending_order: Option<Vec<Value>> = None;
        for (index, message) in transcript.messages.iter().enumerate() {
            let at = format!("/messages/{index}");
            let mine = kept_for(&message.extensions, SHAPE, self.context)?;
            let (role, blocks) = match message.role {
                Role::System => {
                    self.context
                        .lose("system messages inside the conversation")?;
                    continue;
                }
                Role::User => (
                    "user",
                    self.blocks(&message.content, user_place(message), &at)?,
                ),
                Role::Assistant => (
                    "assistant",
                    self.blocks(&message.content, Place::User, &at)?,
                ),
                Role::Tool => (
                    "user",
                    self.blocks(&message.content, Place::ToolResult, &at)?,
                ),
            };
            let mut kept = Map::new();
            mine.restore(&mut kept);
            match out.last_mut() {
                Some((last_role, last_blocks, last_kept)) if last_role == role => {
                    match (pending_order.take(), message.role) {
                        (Some(order), Role::User) => {
                            // Put the blocks back in the order the input had them.
                            let mut results = std::mem::take(last_blocks).into_iter();
                            let mut others = blocks.into_iter();
                            for slot in order {
                                let next = if slot == "r" {
                                    results.next()
                                } else {
                                    others.next()
                                };
                                last_blocks.extend(next);
                            }
                            last_blocks.extend(results);
                            last_blocks.extend(others);
                        }
                        _ => last_blocks.extend(blocks),
                    }
                    for (key, value) in kept {
                        last_kept.insert(key, value);
                    }
                }
                _ => {
                    pending_order = None;
                    out.push((role.to_string(), blocks, kept));
                }
            }
            if message.role == Role::Tool {
                if let Some(Value::Array(order)) = mine.hint("order") {
                    pending_order = Some(order.clone());
                }
            }
        }
        Ok(out
            .into_iter()
            .map(|(role, blocks, kept)| {
                let mut map = Map::new();
                put(&mut map, "role", Value::String(role));
                put(&mut map, "content", Value::Array(blocks));
                for (key, value) in kept {
                    map.insert(key, value);
                }
                Value::Object(map)
            })
            .collect())
    }

    fn blocks(
        &mut self,
        blocks: &[Block],
        place: Place,
        at: &str,
    ) -> Result<Vec<Value>, ConvertError> {
        let mut out = Vec::with_capacity(blocks.len());
        for (i, block) in blocks.iter().enumerate() {
            let here = format!("{at}/content/{i}");
            match block {
                Block::Part { part, extensions } => {
                    if let Some(value) = self.part(part, extensions, place, &here)? {
                        out.push(value);
                    }
                }
                Block::ToolCall(call) => {
                    let mine = kept_for(&call.extensions, SHAPE, self.context)?;
                    let input = match &call.arguments {
                        Arguments::Value(value) => value.clone(),
                        Arguments::Raw(_) => {
                            return Err(ConvertError::invalid(
                                &here,
                                format!("the arguments of call {} are not JSON, and a Bedrock toolUse input must be an object", crate::echo::quoted(&call.name)),
                            ))
                        }
                    };
                    let mut inner = Map::new();
                    put(
                        &mut inner,
                        "toolUseId",
                        Value::String(self.id(call.id.as_deref(), &here)?),
                    );
                    put(&mut inner, "name", Value::String(call.name.clone()));
                    put(&mut inner, "input", input);
                    mine.restore(&mut inner);
                    out.push(serde_json::json!({ "toolUse": Value::Object(inner) }));
                }
                Block::ToolResult(result) => {
                    out.push(serde_json::json!({ "toolResult": self.tool_result(result, &here)? }));
                }
                Block::Opaque(opaque) if opaque.shape == SHAPE => out.push(opaque.value.clone()),
                other => lose_block(other, self.context)?,
            }
        }
        Ok(out)
    }

    fn tool_result(&mut self, result: &ToolResult, at: &str) -> Result<Value, ConvertError> {
        let mine = kept_for(&result.extensions, SHAPE, self.context)?;
        let mut map = Map::new();
        put(
            &mut map,
            "toolUseId",
            Value::String(self.id(result.call_id.as_deref(), at)?),
        );
        put(
            &mut map,
            "content",
            Value::Array(self.blocks(&result.content, Place::ToolResult, at)?),
        );
        match (result.is_error, mine.hint_str("status")) {
            (true, _) => put(&mut map, "status", Value::String("error".into())),
            (false, Some(status)) => put(&mut map, "status", Value::String(status.into())),
            (false, None) => {}
        }
        mine.restore(&mut map);
        Ok(Value::Object(map))
    }

    /// One part; `None` for an empty text part, which Converse refuses.
    fn part(
        &mut self,
        part: &Part,
        extensions: &Extensions,
        place: Place,
        at: &str,
    ) -> Result<Option<Value>, ConvertError> {
        drop_foreign(extensions, self.context)?;
        let mine = Mine::of(extensions, SHAPE);
        if let Part::Text(text) = part {
            if let Some(block) = super::wrapped::write_text(text, mine) {
                return Ok(Some(block));
            }
            if let Some(Value::Array(lengths)) = mine.hint("citationsContent") {
                let mut cited = Map::new();
                put(&mut cited, "content", text_blocks(text, lengths, ""));
                if let Some(citations) = mine.field("citations") {
                    put(&mut cited, "citations", citations.clone());
                }
                return Ok(Some(serde_json::json!({ "citationsContent": cited })));
            }
            if mine.hint("json").is_some() {
                if let Ok(value) = serde_json::from_str::<Value>(text) {
                    return Ok(Some(serde_json::json!({ "json": value })));
                }
            }
            if text.trim().is_empty() {
                self.context
                    .note("left out empty text blocks (Bedrock refuses them)");
                return Ok(None);
            }
        }
        let mut value = self
            .context
            .write_part(part, place, at, |p| super::write_part(p, place))?;
        if let Value::Object(map) = &mut value {
            if let Some((_, Value::Object(inner))) = map.iter_mut().next() {
                if mine.hint("text").is_some() {
                    if let Some(Value::Object(source)) = inner.get_mut("source") {
                        if let Some(text) = source
                            .remove("bytes")
                            .and_then(|b| {
                                let lending = self.context.lending();
                                b.as_str().and_then(|b| {
                                    lending.with_resolved(b, crate::b64::decode_strict).ok()
                                })
                            })
                            .and_then(|bytes| String::from_utf8(bytes).ok())
                        {
                            match mine.hint("content").and_then(Value::as_array) {
                                Some(lengths) => {
                                    source.insert(
                                        "content".into(),
                                        text_blocks(&text, lengths, "\n"),
                                    );
                                }
                                None => {
                                    source.insert("text".into(), Value::String(text));
                                }
                            }
                        }
                    }
                }
                if mine.hint_str("format") == Some("absent") {
                    inner.remove("format");
                }
                if let Some(Value::Object(extra)) = mine.hint("inner") {
                    for (key, item) in extra {
                        inner.insert(key.clone(), item.clone());
                    }
                }
            }
        }
        Ok(Some(super::wrapped::wrap_image(value, mine)))
    }
}

/// Text split back into the `{"text": …}` blocks a reader joined with
/// `separator` (their byte lengths); text that no longer fits them is one block.
fn text_blocks(text: &str, lengths: &[Value], separator: &str) -> Value {
    let pieces =
        crate::shapes::split_joined(text, lengths, separator).unwrap_or_else(|| vec![text]);
    Value::Array(
        pieces
            .into_iter()
            .map(|piece| serde_json::json!({ "text": piece }))
            .collect(),
    )
}

/// The provenance of a user message's parts (lifted media came from tools).
fn user_place(message: &Message) -> Place {
    if crate::contract::ext::is_lifted(message) {
        Place::ToolResult
    } else {
        Place::User
    }
}
