//! What one JSON body of a recording is, for `inspect`: its shape and form
//! told as `convert` tells them ([`crate::convert::read`], which detects
//! the shape by docs/detection.md's rules), and the tool calls it holds as
//! the shape's own reader reads them.

use serde_json::Value;

use crate::contract::Form;
use crate::shapes::Shape;
use crate::transcript::{Arguments, Block, Transcript};

/// A body's shape and the tool calls it holds.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Described {
    /// `anthropic request`, `gemini response`, `mcp tool result`; `None`
    /// when no shape fits.
    pub shape: Option<String>,
    /// Each tool call: its name and its arguments as JSON text.
    pub calls: Vec<(String, String)>,
    /// Why the body has no shape, or does not read as the one it seems.
    pub note: Option<String>,
}

/// Describes `value`, read as `shape` when given (an assembled stream's),
/// else as the shape detected from it.
pub fn describe(value: &Value, shape: Option<Shape>) -> Described {
    if let Some(described) = json_rpc(value) {
        return described;
    }
    match crate::convert::read(value, shape) {
        Ok((shape, form, transcript)) => Described {
            shape: Some(format!("{shape} {}", form_name(form))),
            calls: calls(&transcript),
            note: None,
        },
        Err(error) => {
            match shape.or_else(|| crate::convert::detect::detect(value).map(|d| d.shape)) {
                Some(shape) => Described {
                    shape: Some(shape.to_string()),
                    calls: Vec::new(),
                    note: Some(format!(
                        "does not read as {shape}: {}",
                        crate::echo::bound(&error.to_string())
                    )),
                },
                None => Described {
                    shape: None,
                    calls: Vec::new(),
                    note: Some("JSON of no shape partkit knows".to_string()),
                },
            }
        }
    }
}

/// Describes a body's bytes, which should be JSON. `method` is the
/// recorded request's: an MCP interview records each call as the `params`
/// of a `tools/call` (docs/recordings.md), which is read as one.
pub fn describe_bytes(bytes: &[u8], shape: Option<Shape>, method: Option<&str>) -> Described {
    match serde_json::from_slice::<Value>(bytes) {
        Ok(value) if method == Some("tools/call") && value.get("name").is_some() => json_rpc(
            &serde_json::json!({"jsonrpc": "2.0", "method": "tools/call", "params": value}),
        )
        .unwrap_or_default(),
        Ok(value) => describe(&value, shape),
        Err(error) => Described {
            shape: None,
            calls: Vec::new(),
            note: Some(format!("not JSON: {error}")),
        },
    }
}

fn form_name(form: Form) -> &'static str {
    match form {
        Form::Request => "request",
        Form::Messages => "messages",
        Form::Response => "response",
        Form::ToolResult => "tool result",
    }
}

/// The tool calls of every turn, in order (a request's history included).
fn calls(transcript: &Transcript) -> Vec<(String, String)> {
    transcript
        .messages
        .iter()
        .flat_map(|message| &message.content)
        .filter_map(|block| match block {
            Block::ToolCall(call) => Some((
                call.name.clone(),
                match &call.arguments {
                    Arguments::Value(value) => value.to_string(),
                    Arguments::Raw(text) => text.clone(),
                },
            )),
            _ => None,
        })
        .collect()
}

/// An MCP JSON-RPC message that is no tool result (MCP's reader reads
/// only a `CallToolResult`): a request, named by its method (a `tools/call`
/// holds one tool call), or an answer of another kind (`initialize`,
/// `tools/list`). `None` for anything else.
fn json_rpc(value: &Value) -> Option<Described> {
    value.get("jsonrpc")?;
    if let Some(method) = value.get("method").and_then(Value::as_str) {
        let params = value.get("params");
        let name = params.and_then(|p| p.get("name")).and_then(Value::as_str);
        let calls = match (method, name) {
            ("tools/call", Some(name)) => vec![(
                name.to_string(),
                params
                    .and_then(|p| p.get("arguments"))
                    .map_or_else(|| "{}".to_string(), Value::to_string),
            )],
            _ => Vec::new(),
        };
        let method = crate::echo::cut(method, 60);
        return Some(Described {
            shape: Some(format!("mcp {method} request")),
            calls,
            note: None,
        });
    }
    let result = value.get("result");
    if result.is_some_and(|r| r.get("content").is_some()) {
        return None;
    }
    let what = if result.is_some() { "result" } else { "error" };
    Some(Described {
        shape: Some(format!("mcp {what}")),
        calls: Vec::new(),
        note: None,
    })
}
