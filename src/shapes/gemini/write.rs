//! Writing the canonical model as Gemini generateContent documents (camelCase):
//! a request body, a list of contents, a response, or a single function
//! response, following the form the input had.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::read::joins_by_default;
use super::{hint, hint_str, mine, restore_at, schema_to_json, spell_base64, spell_snake, SHAPE};
use crate::convert::prepare::is_lifted;
use crate::convert::{Context, ConvertError, Form};
use crate::part::{Part, Source};
use crate::shapes::kit::{drop_foreign, invalid, lose_block, put};
use crate::shapes::{object, string, Place, Unsupported};
use crate::transcript::{
    unsupported_placeholder, Arguments, Block, Extensions, Message, Role, Tool, ToolCall,
    ToolChoice, ToolResult, Transcript,
};

/// How the texts of a tool result are joined in `response.output`.
const TEXT_SEPARATOR: &str = "\n\n";

/// Writes a request body, a list of contents, a response or a function
/// response, following the form the input had. A list whose transcript has a
/// system prompt becomes a request body (Gemini keeps it outside the list).
pub fn write(
    transcript: &Transcript,
    form: Form,
    context: &mut Context,
) -> Result<Value, ConvertError> {
    let mut value = Writer::new(transcript, context, false).document(transcript, form)?;
    // Back in the casing the source used, field by field.
    if let Some(Value::Array(names)) = hint(&transcript.extensions, "snake") {
        let names: Vec<&str> = names.iter().filter_map(Value::as_str).collect();
        spell_snake(&mut value, &names);
    }
    Ok(value)
}

/// Writes a single tool result for `partkit split`: its notes use split's wording.
pub(crate) fn write_split(
    transcript: &Transcript,
    form: Form,
    context: &mut Context,
) -> Result<Value, ConvertError> {
    Writer::new(transcript, context, true).document(transcript, form)
}

/// One Gemini Content being written.
struct Content {
    /// A user Content (holding user parts and function responses), not a model one.
    user: bool,
    map: Map<String, Value>,
}

struct Writer<'c> {
    context: &'c mut Context,
    /// The names of the calls by id, for results that do not carry a name.
    names: HashMap<String, String>,
    /// Writing for `partkit split`.
    split: bool,
    /// Writing a single tool result.
    single: bool,
}

impl<'c> Writer<'c> {
    fn new(transcript: &Transcript, context: &'c mut Context, split: bool) -> Writer<'c> {
        let mut names = HashMap::new();
        for message in &transcript.messages {
            for block in &message.content {
                if let Block::ToolCall(ToolCall {
                    id: Some(id), name, ..
                }) = block
                {
                    names.entry(id.clone()).or_insert_with(|| name.clone());
                }
            }
        }
        Writer {
            context,
            names,
            split,
            single: false,
        }
    }

    fn document(&mut self, transcript: &Transcript, form: Form) -> Result<Value, ConvertError> {
        drop_foreign(&transcript.extensions, self.context)?;
        self.single = form == Form::ToolResult;
        match form {
            Form::ToolResult => self.tool_result(transcript),
            Form::Response => self.response(transcript),
            Form::Messages | Form::Request => {
                let (mut contents, moved) = self.contents(&transcript.messages, 0, false)?;
                super::signature::sign_foreign_calls(&mut contents, self.context);
                if form == Form::Messages && transcript.system.is_none() && moved.is_empty() {
                    Ok(Value::Array(contents))
                } else {
                    self.request(transcript, contents, moved)
                }
            }
        }
    }

    // -----------------------------------------------------------------------
    // Documents

    fn request(
        &mut self,
        transcript: &Transcript,
        contents: Vec<Value>,
        moved: Vec<Block>,
    ) -> Result<Value, ConvertError> {
        let extensions = &transcript.extensions;
        let mut map = Map::new();
        if let Some(model) = &transcript.model {
            if hint_str(extensions, "model") == Some("body") {
                put(&mut map, "model", string(model));
            } else {
                self.context.lose("model")?;
            }
        }
        let mut system = transcript.system.clone();
        if !moved.is_empty() {
            system.get_or_insert_with(Vec::new).extend(moved);
        }
        if let Some(system) = &system {
            let value = self.system_instruction(system, extensions)?;
            put(&mut map, "systemInstruction", value);
        }
        if !(contents.is_empty() && hint_str(extensions, "contents") == Some("absent")) {
            put(&mut map, "contents", Value::Array(contents));
        }
        if let Some(tools) = self.tools(transcript)? {
            put(&mut map, "tools", tools);
        }
        if let Some(choice) = &transcript.tool_choice {
            let calling = match choice {
                ToolChoice::Auto => object([("mode", string("AUTO"))]),
                ToolChoice::None => object([("mode", string("NONE"))]),
                ToolChoice::Required => object([("mode", string("ANY"))]),
                ToolChoice::Tool(name) => object([
                    ("mode", string("ANY")),
                    ("allowedFunctionNames", Value::from(vec![name.clone()])),
                ]),
            };
            put(
                &mut map,
                "toolConfig",
                object([("functionCallingConfig", calling)]),
            );
        }
        let mut generation = Map::new();
        for (key, value) in [
            ("temperature", &transcript.temperature),
            ("topP", &transcript.top_p),
            ("maxOutputTokens", &transcript.max_tokens),
        ] {
            if let Some(value) = value {
                put(&mut generation, key, value.clone());
            }
        }
        if let Some(stop) = &transcript.stop {
            put(&mut generation, "stopSequences", Value::from(stop.clone()));
        }
        if !generation.is_empty() {
            put(&mut map, "generationConfig", Value::Object(generation));
        }
        if let Some(kept) = mine(extensions) {
            for (key, value) in kept {
                if !key.starts_with('$')
                    && !key.starts_with("tools.")
                    && !key.starts_with("systemInstruction.")
                {
                    restore_at(&mut map, key, value);
                }
            }
        }
        if let Some(Value::Array(paths)) = hint(extensions, "empty") {
            for path in paths.iter().filter_map(Value::as_str) {
                restore_at(&mut map, path, &Value::Object(Map::new()));
            }
        }
        Ok(Value::Object(map))
    }

    fn system_instruction(
        &mut self,
        system: &[Block],
        extensions: &Extensions,
    ) -> Result<Value, ConvertError> {
        if hint_str(extensions, "systemInstruction") == Some("string") {
            if let [Block::Part {
                part: Part::Text(text),
                extensions: part_extensions,
            }] = system
            {
                if part_extensions.is_empty() {
                    return Ok(string(text));
                }
            }
        }
        let mut parts = Vec::with_capacity(system.len());
        for (i, block) in system.iter().enumerate() {
            let at = format!("/system/{i}");
            match block {
                Block::Part { part, extensions } => {
                    parts.push(self.user_part(part, extensions, Place::User, &at)?)
                }
                Block::Opaque(opaque) if opaque.shape == SHAPE => parts.push(opaque.value.clone()),
                other => lose_block(other, self.context)?,
            }
        }
        let mut map = Map::new();
        if !(parts.is_empty() && hint_str(extensions, "systemParts") == Some("absent")) {
            put(&mut map, "parts", Value::Array(parts));
        }
        if let Some(role) = hint(extensions, "systemRole") {
            put(&mut map, "role", role.clone());
        }
        if let Some(kept) = mine(extensions) {
            for (key, value) in kept {
                if let Some(path) = key.strip_prefix("systemInstruction.") {
                    restore_at(&mut map, path, value);
                }
            }
        }
        Ok(Value::Object(map))
    }

    /// The response of the first assistant message: its Content is the first
    /// candidate's; the rest of the envelope is the one read, or a minimal one
    /// (`finishReason` STOP). The model is `modelVersion`.
    fn response(&mut self, transcript: &Transcript) -> Result<Value, ConvertError> {
        let index = transcript
            .messages
            .iter()
            .position(|m| m.role == Role::Assistant)
            .ok_or_else(|| invalid("", "a response needs an assistant message"))?;
        let message = &transcript.messages[index];
        let (contents, _) = self.contents(std::slice::from_ref(message), index, true)?;
        let mut envelope = match hint(&transcript.extensions, "response") {
            Some(Value::Object(envelope)) => envelope.clone(),
            _ => {
                let mut envelope = Map::new();
                put(
                    &mut envelope,
                    "candidates",
                    serde_json::json!([{"finishReason": "STOP"}]),
                );
                envelope
            }
        };
        let mut candidate = Map::new();
        let absent = message.content.is_empty()
            && hint_str(&message.extensions, "content") == Some("absent");
        if !absent {
            if let Some(content) = contents.into_iter().next() {
                put(&mut candidate, "content", content);
            }
        }
        if let Some(Value::Array(candidates)) = envelope.get_mut("candidates") {
            if let Some(Value::Object(first)) = candidates.first() {
                for (key, value) in first {
                    if key != "content" {
                        put(&mut candidate, key, value.clone());
                    }
                }
            }
            match candidates.first_mut() {
                Some(first) => *first = Value::Object(candidate),
                None => candidates.push(Value::Object(candidate)),
            }
        }
        match &transcript.model {
            Some(model) => put(&mut envelope, "modelVersion", string(model)),
            None => {
                envelope.shift_remove("modelVersion");
            }
        }
        Ok(Value::Object(envelope))
    }

    /// A single tool result: a `functionResponse` part; a user Content when the
    /// input was one, or when media were lifted next to the response.
    fn tool_result(&mut self, transcript: &Transcript) -> Result<Value, ConvertError> {
        let start = transcript
            .messages
            .iter()
            .position(|m| m.content.iter().any(|b| matches!(b, Block::ToolResult(_))))
            .ok_or_else(|| invalid("", "no tool result to write"))?;
        let wrapper = transcript.messages[start]
            .content
            .iter()
            .find_map(|block| match block {
                Block::ToolResult(result) => hint(&result.extensions, "content"),
                _ => None,
            })
            .and_then(Value::as_object);
        let (contents, _) = self.contents(&transcript.messages[start..], start, false)?;
        let Some(Value::Object(mut content)) = contents.into_iter().next() else {
            return Err(invalid("", "no tool result to write"));
        };
        if let Some(fields) = wrapper {
            let parts = content
                .shift_remove("parts")
                .unwrap_or(Value::Array(Vec::new()));
            let mut wrapped = fields.clone();
            put(&mut wrapped, "parts", parts);
            return Ok(Value::Object(wrapped));
        }
        match content.get("parts") {
            Some(Value::Array(parts)) if parts.len() == 1 => Ok(parts[0].clone()),
            _ => Ok(Value::Object(content)),
        }
    }

    // -----------------------------------------------------------------------
    // Contents

    /// Writes messages as Contents: assistant → `model`; user and tool → `user`.
    /// The results of one turn and the user parts that follow them share one
    /// user Content (unless a `$join` hint from a Gemini input says otherwise).
    /// System messages inside the conversation have no place in `contents`:
    /// their blocks are returned, for `systemInstruction`. A Content's `parts`
    /// come before its `role` in responses (as the API sends them), after it
    /// elsewhere (as the API documentation writes requests).
    fn contents(
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
            out.push(Content { user, map });
        }
        Ok((
            out.into_iter().map(|c| Value::Object(c.map)).collect(),
            moved,
        ))
    }

    fn message_parts(&mut self, message: &Message, at: &str) -> Result<Vec<Value>, ConvertError> {
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

    // -----------------------------------------------------------------------
    // Parts

    /// A part of user, model or system content; `provenance` is where it came
    /// from, for the unsupported-part rule (`ToolResult` for lifted media).
    fn user_part(
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
                raw_part(p, Place::User)
            } else {
                super::write_part(p, Place::User)
            }
        })?;
        restore_part(&mut value, part, extensions);
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

    fn function_call(&mut self, call: &ToolCall, at: &str) -> Result<Value, ConvertError> {
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

    /// A `functionResponse` part: `response` is always an object, the texts
    /// joined by a blank line under `output` (`error` for an error result),
    /// or the value a Gemini input had there; media go natively in `parts`.
    fn function_response(&mut self, result: &ToolResult, at: &str) -> Result<Value, ConvertError> {
        drop_foreign(&result.extensions, self.context)?;
        let name = result
            .name
            .clone()
            .or_else(|| {
                result
                    .call_id
                    .as_ref()
                    .and_then(|id| self.names.get(id).cloned())
            })
            .ok_or_else(|| {
                let call = match &result.call_id {
                    Some(id) => format!("no call with id {id:?} names it"),
                    None => "it has no call id".to_string(),
                };
                let hint = if self.single { " (pass --name)" } else { "" };
                invalid(
                    at,
                    format!("a Gemini functionResponse needs the tool's name, and {call}{hint}"),
                )
            })?;
        let mut texts: Vec<String> = Vec::new();
        let mut parts = Vec::new();
        for (i, block) in result.content.iter().enumerate() {
            let here = format!("{at}/content/{i}");
            match block {
                Block::Part {
                    part: Part::Text(text),
                    extensions,
                } => {
                    drop_foreign(extensions, self.context)?;
                    if !parts.is_empty() && hint(extensions, "response").is_none() {
                        // Text lives in `response`, media in `parts`: text
                        // after media cannot stay after it.
                        self.context.note(
                            "gemini function responses hold their text apart from their media: text that came after media now comes before it",
                        );
                    }
                    texts.push(text.clone());
                }
                Block::Part { part, extensions } => {
                    drop_foreign(extensions, self.context)?;
                    match self.result_part(part, extensions, &here)? {
                        Ok(mut value) => {
                            restore_part(&mut value, part, extensions);
                            parts.push(value);
                        }
                        Err(text) => texts.push(text),
                    }
                }
                Block::Opaque(opaque) if opaque.shape == SHAPE => parts.push(opaque.value.clone()),
                other => lose_block(other, self.context)?,
            }
        }
        let extensions = &result.extensions;
        let text = texts.join(TEXT_SEPARATOR);
        let key = if result.is_error { "error" } else { "output" };
        let parsed = || serde_json::from_str::<Value>(&text).ok();
        let response = match hint_str(extensions, "response") {
            Some("absent") if texts.is_empty() => None,
            Some("object") if !result.is_error => match parsed() {
                Some(object @ Value::Object(_)) => Some(object),
                _ => Some(object([(key, Value::String(text.clone()))])),
            },
            Some(json) if json == format!("{key}-json") => Some(object([(
                key,
                parsed().unwrap_or(Value::String(text.clone())),
            )])),
            // A result that is one JSON object (a structured response that
            // went through a shape whose results are text) is that object
            // again, unless it would read back as something else.
            // (`partkit split` keeps SPEC's `{"output": …}` for a tool's text.)
            None if !result.is_error && !self.split && texts.len() == 1 => match parsed() {
                Some(Value::Object(map))
                    if !map.is_empty()
                        && !(map.len() == 1
                            && (map.contains_key("output") || map.contains_key("error"))) =>
                {
                    Some(Value::Object(map))
                }
                _ => Some(object([(key, Value::String(text.clone()))])),
            },
            _ => Some(object([(key, Value::String(text.clone()))])),
        };
        let mut inner = Map::new();
        if let Some(id) = &result.call_id {
            put(&mut inner, "id", string(id));
        }
        put(&mut inner, "name", Value::String(name));
        if let Some(response) = response {
            put(&mut inner, "response", response);
        }
        if !parts.is_empty() {
            put(&mut inner, "parts", Value::Array(parts));
        }
        let mut part = Map::new();
        put(&mut part, "functionResponse", Value::Object(inner));
        restore_kept(&mut part, extensions);
        Ok(Value::Object(part))
    }

    /// A media part of a tool result as an entry of `functionResponse.parts`, or
    /// the text that replaces it (the unsupported-part rule).
    fn result_part(
        &mut self,
        part: &Part,
        extensions: &Extensions,
        at: &str,
    ) -> Result<Result<Value, String>, ConvertError> {
        let written = if hint(extensions, "unchecked") == Some(&Value::Bool(true)) {
            raw_part(part, Place::ToolResult)
        } else {
            super::write_part(part, Place::ToolResult)
        };
        let unsupported = match written {
            Ok(value) => return Ok(Ok(value)),
            Err(unsupported) => unsupported,
        };
        if self.split {
            self.context.note(format!(
                "{} parts from tools cannot be carried by {SHAPE}; replaced by a placeholder text",
                part.type_name()
            ));
            return Ok(Err(unsupported_placeholder(part)));
        }
        let replacement = self
            .context
            .unsupported(part, Place::ToolResult, at, unsupported)?;
        Ok(Err(match replacement.as_part() {
            Some(Part::Text(text)) => text.clone(),
            _ => unsupported_placeholder(part),
        }))
    }

    // -----------------------------------------------------------------------
    // Tools

    /// `tools`: one object with every function declaration, then one per kept
    /// tool kind; or the grouping a Gemini input had.
    fn tools(&mut self, transcript: &Transcript) -> Result<Option<Value>, ConvertError> {
        let extensions = &transcript.extensions;
        let mut declarations = Vec::new();
        for tool in transcript.tools.iter().flatten() {
            if let Some(declaration) = self.declaration(tool)? {
                declarations.push(declaration);
            }
        }
        let mut kinds: Vec<(String, Value)> = mine(extensions)
            .into_iter()
            .flatten()
            .filter_map(|(key, value)| {
                key.strip_prefix("tools.")
                    .map(|kind| (kind.to_string(), value.clone()))
            })
            .collect();
        let layout = hint(extensions, "tools").and_then(Value::as_array);
        if transcript.tools.is_none() && kinds.is_empty() && layout.is_none() {
            return Ok(None);
        }
        let mut tools = Vec::new();
        let mut declarations = declarations.into_iter();
        for entry in layout.into_iter().flatten() {
            let mut tool = Map::new();
            for (key, value) in entry.as_object().into_iter().flatten() {
                if key == "functionDeclarations" {
                    let count = value.as_u64().unwrap_or(0) as usize;
                    let taken: Vec<Value> = declarations.by_ref().take(count).collect();
                    put(&mut tool, key, Value::Array(taken));
                } else if let Some(at) = kinds.iter().position(|(kind, _)| kind == key) {
                    let (kind, value) = kinds.remove(at);
                    put(&mut tool, &kind, value);
                }
            }
            tools.push(Value::Object(tool));
        }
        let rest: Vec<Value> = declarations.collect();
        if !rest.is_empty() {
            tools.push(object([("functionDeclarations", Value::Array(rest))]));
        }
        for (kind, value) in kinds {
            tools.push(object([(kind.as_str(), value)]));
        }
        Ok(Some(Value::Array(tools)))
    }

    /// A function declaration: the schema as `parametersJsonSchema`, or as
    /// `parameters` when a Gemini input had it there. Gemini has no per-tool
    /// `strict`.
    fn declaration(&mut self, tool: &Tool) -> Result<Option<Value>, ConvertError> {
        drop_foreign(&tool.extensions, self.context)?;
        if tool.name.is_empty() {
            self.context.lose("tools without a name")?;
            return Ok(None);
        }
        if tool.strict == Some(true) {
            self.context.lose("per-tool strict")?;
        }
        let mut map = Map::new();
        put(&mut map, "name", string(&tool.name));
        if let Some(description) = &tool.description {
            put(&mut map, "description", string(description));
        }
        if let Some(parameters) = &tool.parameters {
            match hint(&tool.extensions, "parameters") {
                Some(Value::String(_)) => put(&mut map, "parameters", parameters.clone()),
                Some(original) if &schema_to_json(original) == parameters => {
                    put(&mut map, "parameters", original.clone())
                }
                _ => put(&mut map, "parametersJsonSchema", parameters.clone()),
            }
        }
        restore_kept(&mut map, &tool.extensions);
        Ok(Some(Value::Object(map)))
    }
}

/// Puts back the fields this shape kept (not the hints) on a written object:
/// a dotted path goes inside (`functionCall.willContinue`).
fn restore_kept(map: &mut Map<String, Value>, extensions: &Extensions) {
    if let Some(kept) = mine(extensions) {
        for (key, value) in kept {
            if key.starts_with('$') {
                continue;
            }
            match key.split_once('.') {
                Some((head, _)) if !map.contains_key(head) => {}
                _ => restore_at(map, key, value),
            }
        }
    }
}

/// Puts back what a Gemini input had on a media or text part: kept fields, the
/// media type as it was spelled, `displayName` in user content.
fn restore_part(value: &mut Value, part: &Part, extensions: &Extensions) {
    let Value::Object(map) = value else {
        return;
    };
    restore_kept(map, extensions);
    let Part::Media(media) = part else {
        return;
    };
    let Some(key) = ["inlineData", "fileData"]
        .into_iter()
        .find(|key| map.contains_key(*key))
    else {
        return;
    };
    let Some(Value::Object(inner)) = map.get_mut(key) else {
        return;
    };
    if let (Some(form), Source::Data(data)) = (hint_str(extensions, "base64"), &media.source) {
        put(inner, "data", Value::String(spell_base64(data, form)));
    }
    match hint(extensions, "mimeType") {
        Some(Value::Null) => {
            inner.shift_remove("mimeType");
        }
        Some(Value::String(declared))
            if crate::media::normalize(declared).as_deref() == Some(&media.mime_type) =>
        {
            put(inner, "mimeType", Value::String(declared.clone()));
        }
        _ => {}
    }
    if let (Some(Value::Bool(true)), Some(name)) = (hint(extensions, "displayName"), &media.name) {
        put(inner, "displayName", string(name));
    }
}

/// Writes a part as Gemini without checking what Gemini documents (for media a
/// Gemini input had, written back as Gemini). In a tool result the name is
/// `displayName`; text has no place there.
fn raw_part(part: &Part, place: Place) -> Result<Value, Unsupported> {
    let media = match part {
        Part::Text(text) if place == Place::User => return Ok(object([("text", string(text))])),
        Part::Text(_) => return super::write_part(part, place),
        Part::Media(media) => media,
    };
    let (key, mut blob) = match &media.source {
        Source::Data(data) => (
            "inlineData",
            object([
                ("mimeType", string(&media.mime_type)),
                ("data", string(data)),
            ]),
        ),
        Source::Url(url) => (
            "fileData",
            object([
                ("mimeType", string(&media.mime_type)),
                ("fileUri", string(url)),
            ]),
        ),
    };
    if let (Some(name), Value::Object(map), Place::ToolResult) = (&media.name, &mut blob, place) {
        put(map, "displayName", string(name));
    }
    Ok(object([(key, blob)]))
}
