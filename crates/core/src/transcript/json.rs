//! The canonical JSON form of the transcript model: writing it (`to_value`)
//! and reading it back (`from_value`), with the pointer of what is wrong.

use serde_json::{Map, Value};

use super::{
    Arguments, Block, Extensions, Message, ModelError, Opaque, Role, Tool, ToolCall, ToolChoice,
    ToolResult, Transcript,
};
use crate::contract::Shape;
use crate::part::{Part, PartError, PartView};

// Canonical JSON: writing

fn put(map: &mut Map<String, Value>, key: &str, value: Value) {
    map.insert(key.to_string(), value);
}

fn put_extensions(map: &mut Map<String, Value>, extensions: &Extensions) {
    if !extensions.is_empty() {
        put(map, "extensions", Value::Object(extensions.clone()));
    }
}

impl Transcript {
    /// The canonical JSON form (every top-level key optional).
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        if let Some(model) = &self.model {
            put(&mut map, "model", Value::String(model.clone()));
        }
        for (key, value) in [
            ("max_tokens", &self.max_tokens),
            ("temperature", &self.temperature),
            ("top_p", &self.top_p),
        ] {
            if let Some(value) = value {
                put(&mut map, key, value.clone());
            }
        }
        if let Some(stop) = &self.stop {
            put(&mut map, "stop", Value::from(stop.clone()));
        }
        if let Some(choice) = &self.tool_choice {
            put(&mut map, "tool_choice", choice.to_value());
        }
        if let Some(system) = &self.system {
            put(&mut map, "system", blocks_value(system));
        }
        if let Some(tools) = &self.tools {
            put(
                &mut map,
                "tools",
                Value::Array(tools.iter().map(Tool::to_value).collect()),
            );
        }
        put(
            &mut map,
            "messages",
            Value::Array(self.messages.iter().map(Message::to_value).collect()),
        );
        put_extensions(&mut map, &self.extensions);
        Value::Object(map)
    }

    /// Reads the canonical JSON form.
    pub fn from_value(value: &Value) -> Result<Transcript, ModelError> {
        let object = value
            .as_object()
            .ok_or_else(|| ModelError::new("", "a canonical transcript is an object"))?;
        let mut transcript = Transcript::default();
        for (key, item) in object {
            let at = format!("/{key}");
            match key.as_str() {
                "model" => transcript.model = Some(string(item, &at)?.to_string()),
                "max_tokens" => transcript.max_tokens = Some(number(item, &at)?),
                "temperature" => transcript.temperature = Some(number(item, &at)?),
                "top_p" => transcript.top_p = Some(number(item, &at)?),
                "stop" => {
                    transcript.stop = Some(match item {
                        Value::String(s) => vec![s.clone()],
                        Value::Array(items) => items
                            .iter()
                            .enumerate()
                            .map(|(i, s)| string(s, &format!("{at}/{i}")).map(str::to_string))
                            .collect::<Result<_, _>>()?,
                        _ => {
                            return Err(ModelError::new(
                                at,
                                "stop must be a string or a list of strings",
                            ))
                        }
                    })
                }
                "tool_choice" => transcript.tool_choice = Some(ToolChoice::from_value(item, &at)?),
                "system" => transcript.system = Some(blocks_from(item, &at)?),
                "tools" => {
                    let items = array(item, &at)?;
                    transcript.tools = Some(
                        items
                            .iter()
                            .enumerate()
                            .map(|(i, t)| Tool::from_value(t, &format!("{at}/{i}")))
                            .collect::<Result<_, _>>()?,
                    );
                }
                "messages" => {
                    let items = array(item, &at)?;
                    transcript.messages = items
                        .iter()
                        .enumerate()
                        .map(|(i, m)| Message::from_value(m, &format!("{at}/{i}")))
                        .collect::<Result<_, _>>()?;
                }
                "extensions" => transcript.extensions = extensions(item, &at)?,
                other => {
                    return Err(ModelError::new(
                        at,
                        format!(
                            "unknown key {other} in a canonical transcript",
                            other = crate::echo::quoted(other)
                        ),
                    ))
                }
            }
        }
        Ok(transcript)
    }
}

impl ToolChoice {
    pub fn to_value(&self) -> Value {
        match self {
            ToolChoice::Auto => Value::String("auto".into()),
            ToolChoice::None => Value::String("none".into()),
            ToolChoice::Required => Value::String("required".into()),
            ToolChoice::Tool(name) => serde_json::json!({ "name": name }),
        }
    }

    fn from_value(value: &Value, at: &str) -> Result<ToolChoice, ModelError> {
        match value {
            Value::String(s) if s == "auto" => Ok(ToolChoice::Auto),
            Value::String(s) if s == "none" => Ok(ToolChoice::None),
            Value::String(s) if s == "required" => Ok(ToolChoice::Required),
            Value::Object(map) => match map.get("name") {
                Some(Value::String(name)) => Ok(ToolChoice::Tool(name.clone())),
                _ => Err(ModelError::new(at, "tool_choice object needs a name")),
            },
            _ => Err(ModelError::new(
                at,
                "tool_choice is \"auto\", \"none\", \"required\" or {\"name\": …}",
            )),
        }
    }
}

impl Tool {
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        put(&mut map, "name", Value::String(self.name.clone()));
        if let Some(description) = &self.description {
            put(&mut map, "description", Value::String(description.clone()));
        }
        if let Some(parameters) = &self.parameters {
            put(&mut map, "parameters", parameters.clone());
        }
        if let Some(strict) = self.strict {
            put(&mut map, "strict", Value::Bool(strict));
        }
        put_extensions(&mut map, &self.extensions);
        Value::Object(map)
    }

    fn from_value(value: &Value, at: &str) -> Result<Tool, ModelError> {
        let object = object(value, at)?;
        let mut tool = Tool {
            name: String::new(),
            description: None,
            parameters: None,
            strict: None,
            extensions: Extensions::new(),
        };
        let mut named = false;
        for (key, item) in object {
            let here = format!("{at}/{key}");
            match key.as_str() {
                "name" => {
                    tool.name = string(item, &here)?.to_string();
                    named = true;
                }
                "description" => tool.description = Some(string(item, &here)?.to_string()),
                "parameters" => tool.parameters = Some(item.clone()).filter(|v| !v.is_null()),
                "strict" => tool.strict = item.as_bool(),
                "extensions" => tool.extensions = extensions(item, &here)?,
                other => {
                    return Err(ModelError::new(
                        here,
                        format!(
                            "unknown key {other} in a tool",
                            other = crate::echo::quoted(other)
                        ),
                    ))
                }
            }
        }
        if !named {
            return Err(ModelError::new(at, "a tool needs a name"));
        }
        Ok(tool)
    }
}

impl Message {
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        put(&mut map, "role", Value::String(self.role.as_str().into()));
        put(&mut map, "content", blocks_value(&self.content));
        put_extensions(&mut map, &self.extensions);
        Value::Object(map)
    }

    pub fn from_value(value: &Value, at: &str) -> Result<Message, ModelError> {
        let object = object(value, at)?;
        let role = object
            .get("role")
            .and_then(Value::as_str)
            .and_then(Role::parse)
            .ok_or_else(|| {
                ModelError::new(
                    format!("{at}/role"),
                    "role is system, user, assistant or tool",
                )
            })?;
        let content = match object.get("content") {
            Some(content) => blocks_from(content, &format!("{at}/content"))?,
            None => Vec::new(),
        };
        let mut message = Message::new(role, content);
        for (key, item) in object {
            match key.as_str() {
                "role" | "content" => {}
                "extensions" => message.extensions = extensions(item, &format!("{at}/extensions"))?,
                other => {
                    return Err(ModelError::new(
                        format!("{at}/{other}"),
                        format!(
                            "unknown key {other} in a message",
                            other = crate::echo::quoted(other)
                        ),
                    ))
                }
            }
        }
        Ok(message)
    }
}

impl Block {
    pub fn to_value(&self) -> Value {
        let (mut value, extensions) = match self {
            Block::Part { part, extensions } => (part.to_value(), Some(extensions)),
            Block::ToolCall(call) => (call.to_value(), Some(&call.extensions)),
            Block::ToolResult(result) => (result.to_value(), None),
            Block::Opaque(opaque) => (
                serde_json::json!({"type": "opaque", "shape": opaque.shape.name(), "value": opaque.value}),
                None,
            ),
        };
        if let (Some(extensions), Value::Object(map)) = (extensions, &mut value) {
            put_extensions(map, extensions);
        }
        value
    }

    pub fn from_value(value: &Value, at: &str) -> Result<Block, ModelError> {
        let kind = value.get("type").and_then(Value::as_str).unwrap_or("");
        let extensions_of = |value: &Value| match value.get("extensions") {
            Some(ext) => extensions(ext, &format!("{at}/extensions")),
            None => Ok(Extensions::new()),
        };
        match kind {
            "tool_call" => {
                let object = object(value, at)?;
                let name = object
                    .get("name")
                    .and_then(Value::as_str)
                    .ok_or_else(|| ModelError::new(at, "a tool_call needs a name"))?;
                let arguments = match object.get("arguments") {
                    None | Some(Value::Null) => Arguments::Value(Value::Object(Map::new())),
                    Some(Value::String(raw)) => Arguments::Raw(raw.clone()),
                    Some(other) => Arguments::Value(other.clone()),
                };
                Ok(Block::ToolCall(ToolCall {
                    id: object.get("id").and_then(Value::as_str).map(str::to_string),
                    name: name.to_string(),
                    arguments,
                    extensions: extensions_of(value)?,
                }))
            }
            "tool_result" => {
                let object = object(value, at)?;
                let content = match object.get("content") {
                    Some(content) => blocks_from(content, &format!("{at}/content"))?,
                    None => Vec::new(),
                };
                Ok(Block::ToolResult(ToolResult {
                    call_id: object
                        .get("call_id")
                        .and_then(Value::as_str)
                        .map(str::to_string),
                    name: object
                        .get("name")
                        .and_then(Value::as_str)
                        .map(str::to_string),
                    is_error: object
                        .get("is_error")
                        .and_then(Value::as_bool)
                        .unwrap_or(false),
                    content,
                    extensions: extensions_of(value)?,
                }))
            }
            "opaque" => {
                let shape = value
                    .get("shape")
                    .and_then(Value::as_str)
                    .and_then(Shape::from_name)
                    .ok_or_else(|| {
                        ModelError::new(format!("{at}/shape"), "an opaque block names its shape")
                    })?;
                Ok(Block::Opaque(Opaque {
                    shape,
                    value: value.get("value").cloned().unwrap_or(Value::Null),
                }))
            }
            _ => {
                let view = PartView::read(value).map_err(|e: PartError| {
                    ModelError::new(format!("{at}{}", e.pointer), e.message)
                })?;
                Ok(Block::Part {
                    part: view.to_part(),
                    extensions: extensions_of(value)?,
                })
            }
        }
    }
}

impl ToolCall {
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        put(&mut map, "type", Value::String("tool_call".into()));
        if let Some(id) = &self.id {
            put(&mut map, "id", Value::String(id.clone()));
        }
        put(&mut map, "name", Value::String(self.name.clone()));
        put(
            &mut map,
            "arguments",
            match &self.arguments {
                Arguments::Value(value) => value.clone(),
                Arguments::Raw(raw) => Value::String(raw.clone()),
            },
        );
        Value::Object(map)
    }
}

impl ToolResult {
    /// The canonical wire form:
    /// `{"type":"tool_result","call_id":…,"name":…,"is_error":false,"content":[…]}`.
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        put(&mut map, "type", Value::String("tool_result".into()));
        if let Some(id) = &self.call_id {
            put(&mut map, "call_id", Value::String(id.clone()));
        }
        if let Some(name) = &self.name {
            put(&mut map, "name", Value::String(name.clone()));
        }
        put(&mut map, "is_error", Value::Bool(self.is_error));
        put(&mut map, "content", blocks_value(&self.content));
        put_extensions(&mut map, &self.extensions);
        Value::Object(map)
    }

    /// The parts of the result (opaque blocks left out).
    pub fn parts(&self) -> impl Iterator<Item = &Part> {
        self.content.iter().filter_map(Block::as_part)
    }
}

fn blocks_value(blocks: &[Block]) -> Value {
    Value::Array(blocks.iter().map(Block::to_value).collect())
}

/// Reads canonical content: a list of blocks, or a string as one text part.
fn blocks_from(value: &Value, at: &str) -> Result<Vec<Block>, ModelError> {
    match value {
        Value::String(text) => Ok(vec![Block::text(text.clone())]),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, item)| Block::from_value(item, &format!("{at}/{i}")))
            .collect(),
        _ => Err(ModelError::new(at, "content is a list of blocks")),
    }
}

fn object<'v>(value: &'v Value, at: &str) -> Result<&'v Map<String, Value>, ModelError> {
    value.as_object().ok_or_else(|| {
        ModelError::new(
            at,
            format!("expected an object, not {}", crate::part::json_kind(value)),
        )
    })
}

fn array<'v>(value: &'v Value, at: &str) -> Result<&'v Vec<Value>, ModelError> {
    value.as_array().ok_or_else(|| {
        ModelError::new(
            at,
            format!("expected a list, not {}", crate::part::json_kind(value)),
        )
    })
}

fn string<'v>(value: &'v Value, at: &str) -> Result<&'v str, ModelError> {
    value.as_str().ok_or_else(|| {
        ModelError::new(
            at,
            format!("expected a string, not {}", crate::part::json_kind(value)),
        )
    })
}

fn number(value: &Value, at: &str) -> Result<Value, ModelError> {
    if value.is_number() {
        Ok(value.clone())
    } else {
        Err(ModelError::new(
            at,
            format!("expected a number, not {}", crate::part::json_kind(value)),
        ))
    }
}

fn extensions(value: &Value, at: &str) -> Result<Extensions, ModelError> {
    let map = object(value, at)?;
    for (shape, fields) in map {
        if Shape::from_name(shape).is_none() {
            return Err(ModelError::new(
                format!("{at}/{shape}"),
                format!("{shape} is not a shape", shape = crate::echo::quoted(shape)),
            ));
        }
        object(fields, &format!("{at}/{shape}"))?;
    }
    Ok(map.clone())
}
