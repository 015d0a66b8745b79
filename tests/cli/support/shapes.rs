//! Builders for documents in each transcript shape: the vocabulary the
//! validate tests write their cases in.

use serde_json::{json, Value};

use super::media::{b64, data_url};

/// The six shapes a transcript can have, as `--from` spells them.
pub const SHAPES: [&str; 6] = [
    "openai-chat",
    "openai-responses",
    "anthropic",
    "gemini",
    "bedrock",
    "canonical",
];

/// The JSON Schema most tests declare for `get_chart`.
pub fn chart_schema() -> Value {
    json!({"type": "object",
           "properties": {"city": {"type": "string"}, "days": {"type": "integer", "minimum": 1}},
           "required": ["city"]})
}

// OpenAI Chat Completions.

pub fn chat(messages: Value) -> Value {
    json!({"model": "gpt-4o", "messages": messages})
}

pub fn chat_with_tools(tools: Value, messages: Value) -> Value {
    json!({"model": "gpt-4o", "messages": messages, "tools": tools})
}

pub fn chat_tool(name: &str, parameters: Option<Value>) -> Value {
    let mut function = json!({"name": name, "description": format!("The {name} tool")});
    if let Some(parameters) = parameters {
        function["parameters"] = parameters;
    }
    json!({"type": "function", "function": function})
}

pub fn chat_user(text: &str) -> Value {
    json!({"role": "user", "content": text})
}

pub fn chat_call(id: &str, name: &str, arguments: &str) -> Value {
    json!({"id": id, "type": "function", "function": {"name": name, "arguments": arguments}})
}

pub fn chat_calls(calls: Vec<Value>) -> Value {
    json!({"role": "assistant", "content": null, "tool_calls": calls})
}

pub fn chat_result(id: &str, content: &str) -> Value {
    json!({"role": "tool", "tool_call_id": id, "content": content})
}

// OpenAI Responses.

pub fn responses(input: Value) -> Value {
    json!({"model": "gpt-4.1", "input": input})
}

pub fn responses_with_tools(tools: Value, input: Value) -> Value {
    json!({"model": "gpt-4.1", "input": input, "tools": tools})
}

pub fn responses_tool(name: &str, parameters: Option<Value>) -> Value {
    json!({"type": "function", "name": name, "description": format!("The {name} tool"),
           "parameters": parameters, "strict": false})
}

pub fn responses_user(text: &str) -> Value {
    json!({"role": "user", "content": text})
}

pub fn responses_call(id: &str, name: &str, arguments: &str) -> Value {
    json!({"type": "function_call", "call_id": id, "name": name, "arguments": arguments})
}

pub fn responses_result(id: &str, output: &str) -> Value {
    json!({"type": "function_call_output", "call_id": id, "output": output})
}

// Anthropic Messages (a string `system` makes the shape certain).

pub fn anthropic(messages: Value) -> Value {
    json!({"model": "claude-sonnet-4-5", "max_tokens": 1024, "system": "Be terse.", "messages": messages})
}

pub fn anthropic_with_tools(tools: Value, messages: Value) -> Value {
    json!({"model": "claude-sonnet-4-5", "max_tokens": 1024, "system": "Be terse.",
           "tools": tools, "messages": messages})
}

pub fn anthropic_tool(name: &str, schema: Value) -> Value {
    json!({"name": name, "description": format!("The {name} tool"), "input_schema": schema})
}

pub fn anthropic_user(text: &str) -> Value {
    json!({"role": "user", "content": text})
}

pub fn anthropic_blocks(role: &str, blocks: Vec<Value>) -> Value {
    json!({"role": role, "content": blocks})
}

pub fn anthropic_call(id: &str, name: &str, input: Value) -> Value {
    json!({"type": "tool_use", "id": id, "name": name, "input": input})
}

pub fn anthropic_result(id: &str, content: &str) -> Value {
    json!({"type": "tool_result", "tool_use_id": id, "content": content})
}

// Gemini generateContent.

pub fn gemini(contents: Value) -> Value {
    json!({"contents": contents})
}

pub fn gemini_with_tools(declarations: Value, contents: Value) -> Value {
    json!({"contents": contents, "tools": [{"functionDeclarations": declarations}]})
}

pub fn gemini_tool(name: &str, schema: Option<Value>) -> Value {
    let mut declaration = json!({"name": name, "description": format!("The {name} tool")});
    if let Some(schema) = schema {
        declaration["parametersJsonSchema"] = schema;
    }
    declaration
}

pub fn gemini_user(text: &str) -> Value {
    json!({"role": "user", "parts": [{"text": text}]})
}

pub fn gemini_parts(role: &str, parts: Vec<Value>) -> Value {
    json!({"role": role, "parts": parts})
}

pub fn gemini_call(id: Option<&str>, name: &str, args: Value) -> Value {
    let mut call = json!({"name": name, "args": args});
    if let Some(id) = id {
        call = json!({"id": id, "name": name, "args": args});
    }
    json!({"functionCall": call})
}

pub fn gemini_result(id: Option<&str>, name: &str, output: &str) -> Value {
    let mut response = json!({"name": name, "response": {"output": output}});
    if let Some(id) = id {
        response = json!({"id": id, "name": name, "response": {"output": output}});
    }
    json!({"functionResponse": response})
}

// Bedrock Converse (`modelId` makes the shape certain).

pub fn bedrock(messages: Value) -> Value {
    json!({"modelId": "anthropic.claude-3-5-sonnet", "messages": messages})
}

pub fn bedrock_with_tools(tools: Value, messages: Value) -> Value {
    json!({"modelId": "anthropic.claude-3-5-sonnet", "messages": messages, "toolConfig": {"tools": tools}})
}

pub fn bedrock_tool(name: &str, schema: Value) -> Value {
    json!({"toolSpec": {"name": name, "description": format!("The {name} tool"), "inputSchema": {"json": schema}}})
}

pub fn bedrock_blocks(role: &str, blocks: Vec<Value>) -> Value {
    json!({"role": role, "content": blocks})
}

pub fn bedrock_user(text: &str) -> Value {
    bedrock_blocks("user", vec![json!({"text": text})])
}

pub fn bedrock_call(id: &str, name: &str, input: Value) -> Value {
    json!({"toolUse": {"toolUseId": id, "name": name, "input": input}})
}

pub fn bedrock_result(id: &str, text: &str) -> Value {
    json!({"toolResult": {"toolUseId": id, "content": [{"text": text}]}})
}

// Canonical (read with `--from canonical`).

pub fn canonical(messages: Value) -> Value {
    json!({"messages": messages})
}

pub fn canonical_with_tools(tools: Value, messages: Value) -> Value {
    json!({"tools": tools, "messages": messages})
}

pub fn canonical_tool(name: &str, parameters: Option<Value>) -> Value {
    let mut tool = json!({"name": name, "description": format!("The {name} tool")});
    if let Some(parameters) = parameters {
        tool["parameters"] = parameters;
    }
    tool
}

pub fn text(text: &str) -> Value {
    json!({"type": "text", "text": text})
}

pub fn canonical_blocks(role: &str, blocks: Vec<Value>) -> Value {
    json!({"role": role, "content": blocks})
}

pub fn canonical_user(words: &str) -> Value {
    canonical_blocks("user", vec![text(words)])
}

pub fn canonical_call(id: &str, name: &str, arguments: Value) -> Value {
    json!({"type": "tool_call", "id": id, "name": name, "arguments": arguments})
}

pub fn canonical_result(id: &str, name: &str, words: &str) -> Value {
    json!({"type": "tool_result", "call_id": id, "name": name, "is_error": false, "content": [text(words)]})
}

pub fn canonical_results(results: Vec<Value>) -> Value {
    canonical_blocks("tool", results)
}

/// An OpenAI Chat image part holding tiny.png.
pub fn chat_image() -> Value {
    json!({"type": "image_url", "image_url": {"url": data_url("image/png", "tiny.png")}})
}

/// An Anthropic base64 block (`image`, `audio`, …) holding a fixture.
pub fn anthropic_media(kind: &str, mime: &str, name: &str) -> Value {
    json!({"type": kind, "source": {"type": "base64", "media_type": mime, "data": b64(name)}})
}
