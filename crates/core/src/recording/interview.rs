//! An MCP interview report (mcp-interviewer's JSON): not HTTP, but the
//! recorded `tools/call`s of one stdio session, each step's call (tool name
//! and arguments) and the `CallToolResult` that answered it.

use serde_json::{json, Value};

use super::{line_at, Body, Format, Headers, Interaction, Recording, Request, Response, Stored};
use crate::json::raw_span;

use super::span_in;

pub(super) fn read(bytes: &[u8], steps: &[Value]) -> Recording {
    let list = raw_span(bytes, "/functional_test_scorecard/steps");
    let interactions = steps
        .iter()
        .enumerate()
        .map(|(index, step)| {
            let step_span = list.and_then(|list| span_in(bytes, list, &format!("/{index}")));
            let span =
                |field: &str| step_span.and_then(|step| span_in(bytes, step, &format!("/{field}")));
            let call = json!({
                "name": step.get("tool_name").cloned().unwrap_or(Value::Null),
                "arguments": step.get("tool_arguments").cloned().unwrap_or(Value::Null),
            });
            let request = Request {
                method: Some("tools/call".to_string()),
                uri: None,
                headers: Headers::default(),
                body: Body::new(
                    call.to_string().into_bytes(),
                    span("tool_name").map(|(start, _)| line_at(bytes, start)),
                    Stored::Structured,
                    &Headers::default(),
                ),
            };
            let body = match span("tool_output") {
                Some((start, end)) if !step.get("tool_output").is_none_or(Value::is_null) => {
                    Body::new(
                        bytes[start..end].to_vec(),
                        Some(line_at(bytes, start)),
                        Stored::Text,
                        &Headers::default(),
                    )
                }
                _ => {
                    let mut body = Body::absent();
                    if let Some(exception) = step.get("exception").filter(|e| !e.is_null()) {
                        body.note = Some(format!("no result; the call raised {exception}"));
                    }
                    body
                }
            };
            Interaction {
                index,
                request: Some(request),
                response: Some(Response {
                    status: None,
                    message: None,
                    headers: Headers::default(),
                    body,
                }),
            }
        })
        .collect();
    Recording {
        format: Format::McpInterview,
        gzipped: false,
        interactions,
    }
}
