//! Writing canonical messages as Gemini contents: user and model Contents,
//! their parts, function calls.

use serde_json::{Map, Value};

use super::{restore_kept, restore_part, Content, Writer};
use crate::contract::ext::is_lifted;
use crate::contract::ConvertError;
use crate::part::Part;
use crate::shapes::gemini::read::joins_by_default;
use crate::shapes::gemini::{hint, hint_str, mine, repeated, restore_at, SHAPE};
use crate::shapes::kit::{drop_foreign, invalid, lose_block, put};
use crate::shapes::{string, Place};
use crate::transcript::{Arguments, Block, Extensions, Message, Role, ToolCall};

impl Writer<'_> {
    /// Writes messages as Contents: assistant → `model`; user and tool → `user`.
    /// The results of one turn and the user parts that follow them share one
    /// user Content (unless a `$join` hint from a Gemini input says otherwise).
    /// System messages inside the conversation have no place in `contents`:
    /// their blocks are returned, for `systemInstruction`. A Content's `parts`
    /// come before its `role` in responses (as the API sends them), after it
    /// elsewhere (as the API documentation writes requests).
    pub(super) fn contents(
        &mut self,
        messages: &[Message],
        first_index: usize,
        parts_first: bool,
    ) -> Result<(Vec<Value>, Vec<Block>), ConvertError> {
        let mut out: Vec<Content> = Vec::new();
        let mut moved = Vec::new();
        let mut previous: Option<Role> = None;
        for (offset, message) in messages.iter().enumerate() {
            let at = format!("/messages/{}", first_index + offset);
            drop_foreign(&message.extensions, self.context)?;
            if message.role == Role::System {
                self.context.note(
                    "gemini has no system messages inside contents; moved them to systemInstruction",
                );
                moved.extend(message.content.iter().cloned());
                continue;
            }
            let user = message.role != Role::Assistant;
            let join = hint(&message.extensions, "join")
                .and_then(Value::as_bool)
                .unwrap_or_else(|| joins_by_default(previous, message.role));
            let parts = self.message_parts(message, &at)?;
            previous = Some(message.role);
            if let Some(last) = out.last_mut().filter(|last| join && last.user == user) {
                match last.map.get_mut("parts") {
                    Some(Value::Array(list)) => list.extend(parts),
                    _ => put(&mut last.map, "parts", Value::Array(parts)),
                }
                continue;
            }
            let mut map = Map::new();
            let absent =
                parts.is_empty() && hint_str(&message.extensions, "parts") == Some("absent");
            let mut parts = Some(parts).filter(|_| !absent);
            if parts_first {
                if let Some(parts) = parts.take() {
                    put(&mut map, "parts", Value::Array(parts));
                }
            }
            match hint_str(&message.extensions, "role") {
                Some("absent") => {}
                Some(role) => put(&mut map, "role", string(role)),
                None => put(
                    &mut map,
                    "role",
                    string(if user { "user" } else { "model" }),
                ),
            }
            if let Some(parts) = parts {
                put(&mut map, "parts", Value::Array(parts));
            }
            if let Some(kept) = mine(&message.extensions) {
                for (key, value) in kept {
                    if !key.starts_with('$') {
                        restore_at(&mut map, key, value);
                    }
                }
            }
            out.push(Content {
                user,
                map,
                singles: repeated::paths(&message.extensions),
            });
        }
        // Single values only once every message has joined its Content.
        let contents = out
            .into_iter()
            .map(|mut content| {
                repeated::restore(&mut content.map, &content.singles);
                Value::Object(content.map)
            })
            .collect();
        Ok((contents, moved))
    }

    pub(super) fn message_parts(
        &mut self,
        message: &Message,
        at: &str,
    ) -> Result<Vec<Value>, ConvertError> {
        let mut parts = Vec::with_capacity(message.content.len());
        let assistant = message.role == Role::Assistant;
        // Media lifted out of tool results still came from tools.
        let provenance = if is_lifted(message) {
            Place::ToolResult
        } else {
            Place::User
        };
        for (i, block) in message.content.iter().enumerate() {
            let here = format!("{at}/content/{i}");
            match block {
                Block::Part { part, extensions } => {
                    parts.push(self.user_part(part, extensions, provenance, &here)?)
                }
                Block::ToolCall(call) if assistant => parts.push(self.function_call(call, &here)?),
                Block::ToolResult(result) if !assistant => {
                    parts.push(self.function_response(result, &here)?)
                }
                Block::Opaque(opaque) if opaque.shape == SHAPE => parts.push(opaque.value.clone()),
                other => lose_block(other, self.context)?,
            }
        }
        Ok(parts)
    }

    /// A part of user, model or system content; `provenance` is where it came
    /// from, for the unsupported-part rule (`ToolResult` for lifted media).
    pub(super) fn user_part(
        &mut self,
        part: &Part,
        extensions: &Extensions,
        provenance: Place,
        at: &str,
    ) -> Result<Value, ConvertError> {
        drop_foreign(extensions, self.context)?;
        let unchecked = hint(extensions, "unchecked") == Some(&Value::Bool(true));
        let mut value = self.context.write_part(part, provenance, at, |p| {
            if unchecked {
                crate::shapes::gemini::unchecked_part(p, Place::User)
            } else {
                crate::shapes::gemini::write_part(p, Place::User)
            }
        })?;
        restore_part(&mut value, part, extensions, self.context.lending());
        // The Gemini API takes no displayName outside function responses: a
        // name another shape gave an attached part has no place here.
        let named = matches!(part, Part::Media(media) if media.name.is_some());
        let restored = hint(extensions, "displayName") == Some(&Value::Bool(true));
        let carried = value.pointer("/inlineData/displayName").is_some()
            || value.pointer("/fileData/displayName").is_some();
        if named && !restored && !carried {
            self.context.lose("the names of attached files")?;
        }
        Ok(value)
    }

    pub(super) fn function_call(
        &mut self,
        call: &ToolCall,
        at: &str,
    ) -> Result<Value, ConvertError> {
        drop_foreign(&call.extensions, self.context)?;
        let args = match &call.arguments {
            Arguments::Value(value) => value.clone(),
            Arguments::Raw(_) => {
                return Err(invalid(
                    at,
                    "arguments that are not JSON cannot be Gemini args (an object)",
                ))
            }
        };
        let mut inner = Map::new();
        if let Some(id) = &call.id {
            put(&mut inner, "id", string(id));
        }
        put(&mut inner, "name", string(&call.name));
        let empty = args.as_object().is_some_and(Map::is_empty);
        if !(empty && hint_str(&call.extensions, "args") == Some("absent")) {
            put(&mut inner, "args", args);
        }
        let mut part = Map::new();
        put(&mut part, "functionCall", Value::Object(inner));
        restore_kept(&mut part, &call.extensions);
        Ok(Value::Object(part))
    }
}
