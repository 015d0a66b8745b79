//! Tool exchanges in every shape, from one description: the per-shape writer
//! the tool rules' tests build their conversations with.

use serde_json::{json, Value};

use super::findings::{case, Case};
use super::shapes::*;

/// A call's arguments: a JSON value, or a string written as it is (the
/// OpenAI shapes' arguments string; a string value elsewhere).
#[derive(Clone)]
pub enum Args {
    Value(Value),
    Raw(&'static str),
}

/// One message of a conversation, in no shape yet.
#[derive(Clone)]
pub enum Turn {
    User(&'static str),
    Assistant(&'static str),
    /// An assistant turn of calls: (id, name, arguments); `None`: no id field.
    Calls(Vec<(Option<&'static str>, &'static str, Args)>),
    /// Tool results: (call id, tool name, text).
    Results(Vec<(Option<&'static str>, &'static str, &'static str)>),
}

pub use Turn::{Assistant, Calls, Results, User};

pub fn value(args: Value) -> Args {
    Args::Value(args)
}

/// A call with an id and an arguments object.
pub fn call(
    id: &'static str,
    name: &'static str,
    args: Value,
) -> (Option<&'static str>, &'static str, Args) {
    (Some(id), name, Args::Value(args))
}

pub fn result(
    id: &'static str,
    name: &'static str,
    text: &'static str,
) -> (Option<&'static str>, &'static str, &'static str) {
    (Some(id), name, text)
}

/// A conversation written in one shape, with where its calls and results stand.
pub struct Built {
    pub shape: &'static str,
    pub doc: Value,
    pub calls: Vec<String>,
    pub results: Vec<String>,
}

impl Built {
    /// The `--from` a case needs: canonical is not told from its parts.
    pub fn args(&self) -> &'static [&'static str] {
        if self.shape == "canonical" {
            &["--from", "canonical"]
        } else {
            &[]
        }
    }

    pub fn call(&self, n: usize) -> &str {
        &self.calls[n]
    }

    pub fn result(&self, n: usize) -> &str {
        &self.results[n]
    }
}

/// Declares tools (name, schema) in `shape`.
pub fn declare(shape: &str, tools: &[(&str, Option<Value>)]) -> Value {
    let list: Vec<Value> = tools
        .iter()
        .map(|(name, schema)| match shape {
            "openai-chat" => chat_tool(name, schema.clone()),
            "openai-responses" => responses_tool(name, schema.clone()),
            "anthropic" => anthropic_tool(
                name,
                schema
                    .clone()
                    .unwrap_or(json!({"type": "object", "properties": {}})),
            ),
            "gemini" => gemini_tool(name, schema.clone()),
            "bedrock" => bedrock_tool(
                name,
                schema
                    .clone()
                    .unwrap_or(json!({"type": "object", "properties": {}})),
            ),
            _ => canonical_tool(name, schema.clone()),
        })
        .collect();
    json!(list)
}

// Long: one match over (shape, turn), an arm or two for each; split by shape,
// how the shapes differ would no longer read side by side.
/// Writes `turns` (and the `tools`, if any) in `shape`.
pub fn build(
    shape: &'static str,
    tools: Option<&[(&str, Option<Value>)]>,
    turns: &[Turn],
) -> Built {
    let string_args = |args: &Args| match args {
        Args::Value(v) => v.to_string(),
        Args::Raw(raw) => raw.to_string(),
    };
    let object_args = |args: &Args| match args {
        Args::Value(v) => v.clone(),
        Args::Raw(raw) => json!(raw),
    };
    let with_id = |mut object: Value, key: &str, id: Option<&str>| {
        if let Some(id) = id {
            object[key] = json!(id);
        }
        object
    };
    let (mut messages, mut calls, mut results) = (Vec::new(), Vec::new(), Vec::new());
    let base = match shape {
        "openai-responses" => "/input",
        "gemini" => "/contents",
        _ => "/messages",
    };
    for turn in turns {
        let at = format!("{base}/{}", messages.len());
        match (shape, turn) {
            ("openai-chat" | "openai-responses" | "anthropic", User(words)) => {
                messages.push(json!({"role": "user", "content": words}))
            }
            ("openai-chat" | "openai-responses" | "anthropic", Assistant(words)) => {
                messages.push(json!({"role": "assistant", "content": words}))
            }
            ("gemini", User(words)) => messages.push(gemini_user(words)),
            ("gemini", Assistant(words)) => {
                messages.push(gemini_parts("model", vec![json!({"text": words})]))
            }
            ("bedrock", User(words)) => messages.push(bedrock_user(words)),
            ("bedrock", Assistant(words)) => {
                messages.push(bedrock_blocks("assistant", vec![json!({"text": words})]))
            }
            (_, User(words)) => messages.push(canonical_user(words)),
            (_, Assistant(words)) => {
                messages.push(canonical_blocks("assistant", vec![text(words)]))
            }
            ("openai-chat", Calls(list)) => {
                let mut written = Vec::new();
                for (j, (id, name, args)) in list.iter().enumerate() {
                    calls.push(format!("{at}/tool_calls/{j}"));
                    written.push(with_id(
                        json!({"type": "function", "function": {"name": name, "arguments": string_args(args)}}),
                        "id",
                        *id,
                    ));
                }
                messages.push(chat_calls(written));
            }
            ("openai-chat", Results(list)) => {
                for (id, _, words) in list {
                    results.push(format!("{base}/{}", messages.len()));
                    messages.push(with_id(
                        json!({"role": "tool", "content": words}),
                        "tool_call_id",
                        *id,
                    ));
                }
            }
            ("openai-responses", Calls(list)) => {
                for (id, name, args) in list {
                    calls.push(format!("{base}/{}", messages.len()));
                    messages.push(with_id(
                        json!({"type": "function_call", "name": name, "arguments": string_args(args)}),
                        "call_id",
                        *id,
                    ));
                }
            }
            ("openai-responses", Results(list)) => {
                for (id, _, words) in list {
                    results.push(format!("{base}/{}", messages.len()));
                    messages.push(with_id(
                        json!({"type": "function_call_output", "output": words}),
                        "call_id",
                        *id,
                    ));
                }
            }
            ("anthropic", Calls(list)) => {
                let mut blocks = Vec::new();
                for (j, (id, name, args)) in list.iter().enumerate() {
                    calls.push(format!("{at}/content/{j}"));
                    blocks.push(with_id(
                        json!({"type": "tool_use", "name": name, "input": object_args(args)}),
                        "id",
                        *id,
                    ));
                }
                messages.push(anthropic_blocks("assistant", blocks));
            }
            ("anthropic", Results(list)) => {
                let mut blocks = Vec::new();
                for (j, (id, _, words)) in list.iter().enumerate() {
                    results.push(format!("{at}/content/{j}"));
                    blocks.push(with_id(
                        json!({"type": "tool_result", "content": words}),
                        "tool_use_id",
                        *id,
                    ));
                }
                messages.push(anthropic_blocks("user", blocks));
            }
            ("gemini", Calls(list)) => {
                let mut parts = Vec::new();
                for (j, (id, name, args)) in list.iter().enumerate() {
                    calls.push(format!("{at}/parts/{j}/functionCall"));
                    parts.push(json!({"functionCall": with_id(json!({"name": name, "args": object_args(args)}), "id", *id)}));
                }
                messages.push(gemini_parts("model", parts));
            }
            ("gemini", Results(list)) => {
                let mut parts = Vec::new();
                for (j, (id, name, words)) in list.iter().enumerate() {
                    results.push(format!("{at}/parts/{j}/functionResponse"));
                    parts.push(json!({"functionResponse": with_id(
                        json!({"name": name, "response": {"output": words}}), "id", *id)}));
                }
                messages.push(gemini_parts("user", parts));
            }
            ("bedrock", Calls(list)) => {
                let mut blocks = Vec::new();
                for (j, (id, name, args)) in list.iter().enumerate() {
                    calls.push(format!("{at}/content/{j}/toolUse"));
                    blocks.push(json!({"toolUse": with_id(json!({"name": name, "input": object_args(args)}), "toolUseId", *id)}));
                }
                messages.push(bedrock_blocks("assistant", blocks));
            }
            ("bedrock", Results(list)) => {
                let mut blocks = Vec::new();
                for (j, (id, _, words)) in list.iter().enumerate() {
                    results.push(format!("{at}/content/{j}/toolResult"));
                    blocks.push(json!({"toolResult": with_id(json!({"content": [{"text": words}]}), "toolUseId", *id)}));
                }
                messages.push(bedrock_blocks("user", blocks));
            }
            (_, Calls(list)) => {
                let mut blocks = Vec::new();
                for (j, (id, name, args)) in list.iter().enumerate() {
                    calls.push(format!("{at}/content/{j}"));
                    blocks.push(with_id(
                        json!({"type": "tool_call", "name": name, "arguments": object_args(args)}),
                        "id",
                        *id,
                    ));
                }
                messages.push(canonical_blocks("assistant", blocks));
            }
            (_, Results(list)) => {
                let mut blocks = Vec::new();
                for (j, (id, name, words)) in list.iter().enumerate() {
                    results.push(format!("{at}/content/{j}"));
                    blocks.push(with_id(
                        json!({"type": "tool_result", "name": name, "is_error": false, "content": [text(words)]}),
                        "call_id",
                        *id,
                    ));
                }
                messages.push(canonical_results(blocks));
            }
        }
    }
    let messages = Value::Array(messages);
    let doc = match (shape, tools) {
        ("openai-chat", None) => chat(messages),
        ("openai-chat", Some(tools)) => chat_with_tools(declare(shape, tools), messages),
        ("openai-responses", None) => responses(messages),
        ("openai-responses", Some(tools)) => responses_with_tools(declare(shape, tools), messages),
        ("anthropic", None) => anthropic(messages),
        ("anthropic", Some(tools)) => anthropic_with_tools(declare(shape, tools), messages),
        ("gemini", None) => gemini(messages),
        ("gemini", Some(tools)) => gemini_with_tools(declare(shape, tools), messages),
        ("bedrock", None) => bedrock(messages),
        ("bedrock", Some(tools)) => bedrock_with_tools(declare(shape, tools), messages),
        (_, None) => canonical(messages),
        (_, Some(tools)) => canonical_with_tools(declare(shape, tools), messages),
    };
    Built {
        shape,
        doc,
        calls,
        results,
    }
}

/// `rest` in `shape`, after the opening most pairing cases share: the user
/// asks for a chart of Paris and the assistant calls get_chart once (call_1).
pub fn chart_paris(shape: &'static str, rest: &[Turn]) -> Built {
    let mut turns = vec![
        User("Chart Paris."),
        Calls(vec![call("call_1", "get_chart", json!({"city": "Paris"}))]),
    ];
    turns.extend_from_slice(rest);
    build(shape, None, &turns)
}

/// A case from a built conversation.
pub fn built(what: &str, built: &Built, want: &[(&'static str, &str, &str)]) -> Case {
    case(
        &format!("{}: {what}", built.shape),
        built.args(),
        built.doc.clone(),
        want,
    )
}

/// The shapes whose reader takes a missing id (and writes none): there
/// an absent id pairs by name and order.
pub fn ids_optional(shape: &str) -> bool {
    matches!(shape, "gemini" | "canonical")
}

/// Where tool `n` of the `tools` that [`declare`] writes stands in `shape`.
pub fn tool_at(shape: &str, n: usize) -> String {
    match shape {
        "openai-chat" => format!("/tools/{n}/function"),
        "gemini" => format!("/tools/0/functionDeclarations/{n}"),
        "bedrock" => format!("/toolConfig/tools/{n}/toolSpec"),
        _ => format!("/tools/{n}"),
    }
}

/// Where the schema of tool `n` stands.
pub fn schema_at(shape: &str, n: usize) -> String {
    let member = match shape {
        "anthropic" => "input_schema",
        "gemini" => "parametersJsonSchema",
        "bedrock" => "inputSchema/json",
        _ => "parameters",
    };
    format!("{}/{member}", tool_at(shape, n))
}
