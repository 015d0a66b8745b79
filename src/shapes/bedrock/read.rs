//! Reading Bedrock Converse documents (the `converse` call's parameters, a bare
//! message list, a response, or one `toolResult` block) into the canonical model.

use serde_json::{Map, Value};

use crate::contract::ext::{says_nothing, Own};
use crate::contract::{Context, ConvertError, Form};
use crate::json::{Node, Object, Reading, View};
use crate::media::MediaKind;
use crate::part::{MediaPart, Part, Source};
use crate::shapes::kit::{invalid, read_list, string_list};
use crate::shapes::Shape;
use crate::transcript::{
    Arguments, Block, Extensions, Message, Opaque, Role, Tool, ToolCall, ToolChoice, ToolResult,
    Transcript,
};

const SHAPE: Shape = Shape::Bedrock;

const REQUEST_KEYS: &[&str] = &[
    "modelId",
    "system",
    "messages",
    "toolConfig",
    "inferenceConfig",
];

/// Reads a Converse document, from a `Value` or the borrowed tree.
pub fn read<N: Node>(value: &N, context: &mut Context) -> Result<(Form, Transcript), ConvertError> {
    let reading = context.reading();
    let mut transcript = Transcript::default();
    let mut own = Own::new();
    let form = match value.view() {
        View::Array(messages) => {
            read_messages(messages, "", &mut transcript, reading)?;
            Form::Messages
        }
        View::Object(map) if map.contains_key("toolResult") => {
            let result = read_tool_result(
                map.get("toolResult").expect("checked above"),
                "/toolResult",
                reading,
            )?;
            own.keep_unknown(map, &["toolResult"]);
            transcript
                .messages
                .push(Message::new(Role::Tool, vec![Block::ToolResult(result)]));
            Form::ToolResult
        }
        View::Object(map) if map.contains_key("output") => {
            let message = map
                .get("output")
                .and_then(|o| o.get("message"))
                .ok_or_else(|| {
                    invalid(
                        "/output/message",
                        "a Converse response needs output.message",
                    )
                })?;
            read_messages(
                std::slice::from_ref(message),
                "/output/message",
                &mut transcript,
                reading,
            )?;
            // The envelope without the message, which is the turn read above.
            let envelope: Map<String, Value> = map
                .members()
                .map(|(key, value)| match value.as_object() {
                    Some(output) if key == "output" => (
                        key.to_string(),
                        Value::Object(rest_of(output, &["message"])),
                    ),
                    _ => (key.to_string(), value.to_value()),
                })
                .collect();
            own.hint("response", Value::Object(envelope));
            Form::Response
        }
        View::Object(map) => {
            read_request(map, &mut transcript, &mut own, reading)?;
            Form::Request
        }
        _ => {
            return Err(invalid(
                "",
                "a Converse document is an object or a list of messages",
            ))
        }
    };
    own.store(&mut transcript.extensions, SHAPE);
    Ok((form, transcript))
}

fn read_request<O: Object>(
    map: &O,
    transcript: &mut Transcript,
    own: &mut Own,
    reading: &Reading,
) -> Result<(), ConvertError> {
    own.keep_unknown(map, REQUEST_KEYS);
    match map.get("modelId") {
        Some(model) if model.is_string() => transcript.model = model.as_str().map(str::to_string),
        Some(other) => own.keep("modelId", other),
        None => {}
    }
    // An empty system list (what most SDKs send when there is no system
    // prompt) is no system prompt: kept for this shape only, so that no other
    // shape gets an empty system message.
    match map.get("system") {
        Some(system) if says_nothing(system) => own.keep("system", system),
        Some(system) => {
            let blocks = system
                .as_array()
                .ok_or_else(|| invalid("/system", "system is a list of blocks"))?;
            transcript.system = Some(
                blocks
                    .iter()
                    .enumerate()
                    .map(|(i, b)| read_block(b, &format!("/system/{i}"), reading))
                    .collect::<Result<_, _>>()?,
            );
        }
        None => {}
    }
    if let Some(config) = map.get("inferenceConfig") {
        let config = config
            .as_object()
            .ok_or_else(|| invalid("/inferenceConfig", "inferenceConfig is an object"))?;
        // What is left keeps its place (`shift_remove`; see `rest_of`).
        let mut rest = config.to_map();
        transcript.max_tokens = rest.shift_remove("maxTokens");
        transcript.temperature = rest.shift_remove("temperature");
        transcript.top_p = rest.shift_remove("topP");
        transcript.stop = rest.get("stopSequences").and_then(string_list);
        if transcript.stop.is_some() {
            rest.shift_remove("stopSequences");
        }
        own.hint("inferenceConfig", Value::Object(rest));
    }
    if let Some(config) = map.get("toolConfig") {
        let config = config
            .as_object()
            .ok_or_else(|| invalid("/toolConfig", "toolConfig is an object"))?;
        let mut rest = rest_of(config, &["tools"]);
        if let Some(tools) = config.get("tools") {
            let tools = read_list(tools, "/toolConfig/tools", "tools is a list", read_tool)?;
            transcript.tools = Some(tools);
        }
        transcript.tool_choice = rest.get("toolChoice").and_then(read_tool_choice);
        if transcript.tool_choice.is_some() {
            rest.shift_remove("toolChoice");
        }
        own.hint("toolConfig", Value::Object(rest));
    }
    let messages = match map.get("messages").map(Node::view) {
        Some(View::Array(messages)) => messages,
        Some(_) => return Err(invalid("/messages", "messages is a list")),
        None => {
            own.hint("messages", "absent");
            &[]
        }
    };
    read_messages(messages, "/messages", transcript, reading)
}

fn read_tool<N: Node>(tool: &N, at: &str) -> Result<Tool, ConvertError> {
    let Some(spec) = tool.get("toolSpec").and_then(Node::as_object) else {
        // A cachePoint or a systemTool: kept whole for this shape.
        let mut extensions = Extensions::new();
        let mut own = Own::new();
        own.hint("tool", tool.to_value());
        own.store(&mut extensions, SHAPE);
        return Ok(Tool {
            name: String::new(),
            description: None,
            parameters: None,
            strict: None,
            extensions,
        });
    };
    let name = crate::shapes::kit::required_str(
        spec,
        "name",
        &format!("{at}/toolSpec"),
        "a toolSpec needs a name",
    )?;
    let mut own = Own::new();
    own.keep_unknown(spec, &["name", "description", "inputSchema", "strict"]);
    let parameters = match spec.get("inputSchema") {
        Some(schema)
            if schema
                .as_object()
                .is_some_and(|schema| schema.len() == 1 && schema.contains_key("json")) =>
        {
            schema.get("json").map(Node::to_value)
        }
        Some(other) => {
            own.keep("inputSchema", other);
            None
        }
        None => None,
    };
    if let Some(outer) = tool.as_object() {
        if outer.len() > 1 {
            let extra: Map<String, Value> = outer
                .members()
                .filter(|(k, _)| *k != "toolSpec")
                .map(|(k, v)| (k.to_string(), v.to_value()))
                .collect();
            own.hint("outer", Value::Object(extra));
        }
    }
    let mut extensions = Extensions::new();
    own.store(&mut extensions, SHAPE);
    Ok(Tool {
        name: name.to_string(),
        description: spec
            .get("description")
            .and_then(Node::as_str)
            .map(str::to_string),
        parameters,
        strict: spec.get("strict").and_then(Node::as_bool),
        extensions,
    })
}

fn read_tool_choice<N: Node>(choice: &N) -> Option<ToolChoice> {
    let map = choice.as_object()?;
    if map.len() != 1 {
        return None;
    }
    let (key, inner) = map.members().next()?;
    let inner = inner.as_object()?;
    match key {
        "auto" if inner.is_empty() => Some(ToolChoice::Auto),
        "any" if inner.is_empty() => Some(ToolChoice::Required),
        "tool" if inner.len() == 1 => {
            Some(ToolChoice::Tool(inner.get("name")?.as_str()?.to_string()))
        }
        _ => None,
    }
}

/// Reads messages. A user message holding `toolResult` blocks becomes a tool
/// message with those results, and its other blocks a user message after it;
/// the writer joins them again (Converse roles must alternate anyway).
fn read_messages<N: Node>(
    messages: &[N],
    base: &str,
    transcript: &mut Transcript,
    reading: &Reading,
) -> Result<(), ConvertError> {
    for (index, message) in messages.iter().enumerate() {
        let at = format!("{base}/{index}");
        let map = message
            .as_object()
            .ok_or_else(|| invalid(&at, "a message is an object"))?;
        let role = match map.get("role").and_then(Node::as_str) {
            Some("user") => Role::User,
            Some("assistant") => Role::Assistant,
            _ => return Err(invalid(&format!("{at}/role"), "role is user or assistant")),
        };
        let content = map
            .get("content")
            .and_then(Node::as_array)
            .ok_or_else(|| invalid(&format!("{at}/content"), "content is a list of blocks"))?;
        let mut own = Own::new();
        own.keep_unknown(map, &["role", "content"]);
        let mut results = Vec::new();
        let mut others = Vec::new();
        let mut order = Vec::new();
        for (i, block) in content.iter().enumerate() {
            let here = format!("{at}/content/{i}");
            if let (Role::User, Some(result)) = (role, block.get("toolResult")) {
                results.push(Block::ToolResult(read_tool_result(
                    result,
                    &format!("{here}/toolResult"),
                    reading,
                )?));
                order.push(Value::from("r"));
            } else {
                others.push(read_block(block, &here, reading)?);
                order.push(Value::from("o"));
            }
        }
        if results.is_empty() {
            let mut message = Message::new(role, others);
            own.store(&mut message.extensions, SHAPE);
            transcript.messages.push(message);
            continue;
        }
        let mixed = !others.is_empty();
        let mut tool = Message::new(Role::Tool, results);
        if mixed {
            let mut tool_own = Own::new();
            tool_own.hint("order", Value::Array(order));
            tool_own.store(&mut tool.extensions, SHAPE);
        }
        own.store(&mut tool.extensions, SHAPE);
        transcript.messages.push(tool);
        if mixed {
            let mut user = Message::new(Role::User, others);
            let mut user_own = Own::new();
            user_own.hint("joined", true);
            user_own.store(&mut user.extensions, SHAPE);
            transcript.messages.push(user);
        }
    }
    Ok(())
}

fn read_tool_result<N: Node>(
    result: &N,
    at: &str,
    reading: &Reading,
) -> Result<ToolResult, ConvertError> {
    let map = crate::shapes::kit::object_at(result, at, "toolResult is an object")?;
    let id =
        crate::shapes::kit::required_str(map, "toolUseId", at, "a toolResult needs a toolUseId")?;
    let mut own = Own::new();
    own.keep_unknown(map, &["toolUseId", "content", "status"]);
    let is_error = match map.get("status").and_then(Node::as_str) {
        Some("error") => true,
        Some(other) => {
            own.hint("status", other);
            false
        }
        None => false,
    };
    let content = map
        .get("content")
        .and_then(Node::as_array)
        .ok_or_else(|| {
            invalid(
                &format!("{at}/content"),
                "a toolResult needs a content list",
            )
        })?
        .iter()
        .enumerate()
        .map(|(i, b)| read_block(b, &format!("{at}/content/{i}"), reading))
        .collect::<Result<_, _>>()?;
    let mut extensions = Extensions::new();
    own.store(&mut extensions, SHAPE);
    Ok(ToolResult {
        call_id: Some(id.to_string()),
        name: None,
        is_error,
        content,
        extensions,
    })
}

/// Reads one content block (a union: one key per block).
/// (Long: one arm per block kind, each a few lines; the list of kinds
/// reads best in one place.)
pub(super) fn read_block<N: Node>(
    block: &N,
    at: &str,
    reading: &Reading,
) -> Result<Block, ConvertError> {
    let map = crate::shapes::kit::object_at(block, at, "a content block is an object")?;
    let opaque = || {
        Block::Opaque(Opaque {
            shape: SHAPE,
            value: block.to_value(),
        })
    };
    if map.len() != 1 {
        return Ok(opaque());
    }
    let (key, inner) = map.members().next().expect("one key");
    let mut own = Own::new();
    let part = match (key, inner.view()) {
        ("text", View::String(text)) => Part::Text(text.to_string()),
        ("json", _) => {
            own.hint("json", true);
            Part::Text(reading.text_of(&inner.to_value()))
        }
        // Generated text with its citations: the text is the answer (the
        // blocks one after another); the citations only this shape has.
        ("citationsContent", View::Object(cited)) => {
            let texts: Option<Vec<&str>> = cited
                .get("content")
                .and_then(Node::as_array)
                .and_then(|items| items.iter().map(|i| i.get("text")?.as_str()).collect());
            let (Some(texts), true) = (
                texts,
                cited
                    .members()
                    .all(|(k, _)| k == "content" || k == "citations"),
            ) else {
                return Ok(opaque());
            };
            own.hint("citationsContent", crate::shapes::lengths_of(&texts));
            if let Some(citations) = cited.get("citations") {
                own.keep("citations", citations);
            }
            Part::Text(texts.concat())
        }
        (kind @ ("image" | "document" | "audio" | "video"), View::Object(media)) => {
            let format = media.get("format").and_then(Node::as_str);
            let source = media.get("source").and_then(Node::as_object);
            let name = media.get("name").and_then(Node::as_str);
            let extra = rest_of(media, &["format", "source", "name"]);
            if !extra.is_empty() {
                own.hint("inner", Value::Object(extra));
            }
            let data = match (
                source.and_then(|s| s.get("bytes")).and_then(Node::as_str),
                source.and_then(|s| s.get("text")).and_then(Node::as_str),
            ) {
                (Some(bytes), _) if source.is_some_and(|s| s.len() == 1) => bytes.to_string(),
                (None, Some(text))
                    if kind == "document" && source.is_some_and(|s| s.len() == 1) =>
                {
                    own.hint("text", true);
                    crate::b64::encode(text.as_bytes())
                }
                // A document given as text blocks: a text/plain file of the
                // blocks one per line; the blocks' lengths bring them back.
                _ if kind == "document" && source.is_some_and(|s| s.len() == 1) => {
                    let Some(texts) = source
                        .and_then(|s| s.get("content"))
                        .and_then(Node::as_array)
                        .and_then(|items| {
                            items
                                .iter()
                                .map(|item| match item.as_object() {
                                    Some(block) if block.len() == 1 => block.get("text")?.as_str(),
                                    _ => None,
                                })
                                .collect::<Option<Vec<&str>>>()
                        })
                        .filter(|texts| !texts.is_empty())
                    else {
                        return Ok(opaque());
                    };
                    own.hint("text", true);
                    own.hint("content", crate::shapes::lengths_of(&texts));
                    crate::b64::encode(texts.join("\n").as_bytes())
                }
                // S3 locations and content documents: only this shape has them.
                _ => return Ok(opaque()),
            };
            let mime_type = match format.and_then(|f| super::formats::media_type(kind, f)) {
                Some(mime_type) => mime_type.to_string(),
                None if own_text(&own) => "text/plain".to_string(),
                None => return Ok(opaque()),
            };
            if format.is_none() {
                own.hint("format", "absent");
            }
            let kind = match kind {
                "image" => MediaKind::Image,
                "audio" => MediaKind::Audio,
                _ => MediaKind::File,
            };
            Part::Media(MediaPart {
                kind,
                mime_type,
                source: Source::Data(data),
                name: name.map(str::to_string),
            })
        }
        // Content the model reads inside a wrapper only Converse has.
        ("guardContent", _) => {
            return Ok(super::wrapped::read_guard(inner, at, reading)?.unwrap_or_else(opaque))
        }
        ("searchResult", _) => {
            return Ok(super::wrapped::read_search_result(inner).unwrap_or_else(opaque))
        }
        // A server tool's call (Nova's `systemTool`s): the provider runs it
        // and answers it in the same assistant turn, so, like Anthropic's
        // server_tool_use, it is this shape's own block, not a client call.
        ("toolUse", View::Object(call))
            if call.get("type").and_then(Node::as_str) == Some("server_tool_use") =>
        {
            return Ok(opaque())
        }
        ("toolUse", View::Object(call)) => {
            let id = call.get("toolUseId").and_then(Node::as_str);
            let name = crate::shapes::kit::required_str(
                call,
                "name",
                &format!("{at}/toolUse"),
                "a toolUse needs a name",
            )?;
            let mut own = Own::new();
            own.keep_unknown(call, &["toolUseId", "name", "input"]);
            let mut extensions = Extensions::new();
            own.store(&mut extensions, SHAPE);
            return Ok(Block::ToolCall(ToolCall {
                id: id.map(str::to_string),
                name: name.to_string(),
                arguments: Arguments::Value(
                    call.get("input")
                        .map(Node::to_value)
                        .unwrap_or(Value::Object(Map::new())),
                ),
                extensions,
            }));
        }
        _ => return Ok(opaque()),
    };
    let mut extensions = Extensions::new();
    own.store(&mut extensions, SHAPE);
    Ok(Block::Part { part, extensions })
}

fn own_text(own: &Own) -> bool {
    let mut extensions = Extensions::new();
    own.clone().store(&mut extensions, SHAPE);
    crate::contract::ext::Mine::of(&extensions, SHAPE)
        .hint("text")
        .is_some()
}

/// The members of `object` other than those in `read`, as a `Value` map in
/// document order (kept fields are written back in the order they came;
/// `Map::remove` would move the last member into a removed one's place).
/// The members read are not made into `Value`s only to be dropped.
fn rest_of<O: Object>(object: &O, read: &[&str]) -> Map<String, Value> {
    object
        .members()
        .filter(|(key, _)| !read.contains(key))
        .map(|(key, value)| (key.to_string(), value.to_value()))
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::shapes::tree_tests::cases_read_alike;
    use crate::shapes::Shape;

    /// Documents that fail, or that are read in an unusual way, give the same
    /// transcript, notes and errors from the tree as from a `Value`.
    #[test]
    fn malformed_converse_documents_fail_alike() {
        let cases = [
            r#"[{"role": "user", "content": [{"toolResult": 5}]}]"#,
            r#"{"messages": 5}"#,
            r#"{"messages": [5]}"#,
            r#"{"messages": [{"role": "system", "content": []}]}"#,
            r#"{"messages": [{"role": "user", "content": null}]}"#,
            r#"{"messages": [{"role": "user", "content": [5, {"text": "x"}]}]}"#,
            r#"{"messages": [{"role": "user", "content": [{"toolResult": {"content": []}}]}]}"#,
            r#"{"messages": [{"role": "assistant", "content": [{"toolUse": {"toolUseId": "t", "input": {}}}]}]}"#,
            concat!(
                r#"{"messages": [{"role": "user", "content": [{"mystery": {}}, {"text": 5},"#,
                r#" {"image": {"format": "bmp", "source": {"bytes": "AAAA"}}},"#,
                r#" {"image": {"x": 1, "format": "png", "source": {"bytes": "iVBORw0KGgo="}, "y": 2}},"#,
                r#" {"json": {"n": 1.50}}, {"searchResult": {"content": [{"text": "a"}], "x": 1}},"#,
                r#" {"guardContent": {"image": {"format": "png", "source": {"bytes": "iVBORw0KGgo="}}}},"#,
                r#" {"citationsContent": {"content": [{"text": "a"}], "citations": []}}]}]}"#
            ),
            r#"{"toolResult": {"toolUseId": "t", "content": "x"}}"#,
            r#"{"system": {"text": "x"}, "messages": []}"#,
            r#"{"inferenceConfig": [1], "messages": []}"#,
            r#"{"toolConfig": {"tools": [{"toolSpec": {"inputSchema": {"json": {}}}}]}, "messages": []}"#,
            r#"{"toolConfig": {"tools": {}, "toolChoice": {"auto": {"x": 1}}}}"#,
            r#"{"output": {"stop": true}, "stopReason": "end_turn"}"#,
        ];
        cases_read_alike(Shape::Bedrock, &cases);
    }
}
