//! Checks on whole transcripts (requests, message lists, responses, tool
//! results) in any shape: the document is read into the canonical model with
//! the `convert` reader, then tool exchanges, ids, tool declarations and call
//! arguments are checked there; findings point back into the document.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::arguments;
use super::document::Issue;
use crate::convert::{self, ConvertOptions, OnInvalidArguments};
use crate::json::pointer_token;
use crate::shapes::Shape;
use crate::transcript::{Arguments, Block, Role, Transcript};

fn issue(rule: &'static str, pointer: String, message: String) -> Issue {
    Issue {
        rule,
        pointer,
        message,
        patch: None,
    }
}

/// Reads a transcript of `shape` and checks it. Returns the findings, and the
/// transcript when it could be read.
pub fn check(value: &Value, shape: Shape, target: Option<Shape>) -> Vec<Issue> {
    let mut issues = super::shape_rules::check(value, shape);
    let options = ConvertOptions {
        on_invalid_arguments: OnInvalidArguments::Keep,
        ..ConvertOptions::default()
    };
    let mut context = convert::Context::new(options.clone(), shape, Shape::Canonical);
    let transcript = match crate::shapes::read(shape, value, &mut context) {
        Ok((_, transcript)) => transcript,
        Err(error) => {
            let (pointer, message) = match error {
                convert::ConvertError::Invalid { pointer, message } => (pointer, message),
                other => (String::new(), other.to_string()),
            };
            issues.push(issue(
                "transcript-invalid",
                pointer,
                format!("not a valid {shape} document: {message}"),
            ));
            return issues;
        }
    };
    let locate = Locator { value };
    tools(&transcript, &locate, &mut issues);
    exchanges(&transcript, shape, &locate, &mut issues);
    if let Some(target) = target {
        preflight(value, shape, target, &mut issues);
    }
    issues
}

/// Finds where a call, result or tool stands in the original document.
struct Locator<'v> {
    value: &'v Value,
}

impl Locator<'_> {
    fn find(&self, matches: &dyn Fn(&serde_json::Map<String, Value>) -> bool) -> String {
        fn walk(
            value: &Value,
            pointer: &mut String,
            matches: &dyn Fn(&serde_json::Map<String, Value>) -> bool,
        ) -> bool {
            match value {
                Value::Object(map) => {
                    if matches(map) {
                        return true;
                    }
                    for (key, item) in map {
                        let len = pointer.len();
                        pointer.push('/');
                        pointer.push_str(&pointer_token(key));
                        if walk(item, pointer, matches) {
                            return true;
                        }
                        pointer.truncate(len);
                    }
                    false
                }
                Value::Array(items) => {
                    for (index, item) in items.iter().enumerate() {
                        let len = pointer.len();
                        pointer.push_str(&format!("/{index}"));
                        if walk(item, pointer, matches) {
                            return true;
                        }
                        pointer.truncate(len);
                    }
                    false
                }
                _ => false,
            }
        }
        let mut pointer = String::new();
        if walk(self.value, &mut pointer, matches) {
            pointer
        } else {
            String::new()
        }
    }

    fn call(&self, id: Option<&str>, name: &str) -> String {
        let has = |map: &serde_json::Map<String, Value>, keys: &[&str], want: &str| {
            keys.iter()
                .any(|k| map.get(*k).and_then(Value::as_str) == Some(want))
        };
        match id {
            Some(id) => self.find(&|map| {
                has(map, &["id", "call_id", "toolUseId"], id)
                    && ["name", "function", "input", "args", "arguments"]
                        .iter()
                        .any(|k| map.contains_key(*k))
                    && !map.contains_key("output")
                    && !map.contains_key("content")
            }),
            None => self.find(&|map| has(map, &["name"], name) && map.contains_key("args")),
        }
    }

    fn result(&self, id: Option<&str>, name: Option<&str>) -> String {
        let has = |map: &serde_json::Map<String, Value>, keys: &[&str], want: &str| {
            keys.iter()
                .any(|k| map.get(*k).and_then(Value::as_str) == Some(want))
        };
        match id {
            Some(id) => self.find(&|map| {
                has(
                    map,
                    &["tool_call_id", "tool_use_id", "toolUseId", "call_id", "id"],
                    id,
                ) && ["content", "output", "response", "role"]
                    .iter()
                    .any(|k| map.contains_key(*k))
            }),
            None => match name {
                Some(name) => {
                    self.find(&|map| has(map, &["name"], name) && map.contains_key("response"))
                }
                None => String::new(),
            },
        }
    }

    fn tool(&self, name: &str) -> String {
        self.find(&|map| {
            map.get("name").and_then(Value::as_str) == Some(name)
                && [
                    "parameters",
                    "input_schema",
                    "inputSchema",
                    "parametersJsonSchema",
                    "description",
                    "strict",
                ]
                .iter()
                .any(|k| map.contains_key(*k))
        })
    }
}

/// Tool declarations: duplicate names and schemas that are not JSON Schema.
fn tools(transcript: &Transcript, locate: &Locator<'_>, issues: &mut Vec<Issue>) {
    let Some(tools) = &transcript.tools else {
        return;
    };
    let mut seen: HashSet<&str> = HashSet::new();
    for tool in tools.iter().filter(|t| !t.name.is_empty()) {
        if !seen.insert(&tool.name) {
            issues.push(issue(
                "tool-duplicate-name",
                locate.tool(&tool.name),
                format!("tool {:?} is declared more than once", tool.name),
            ));
        }
        if let Some(problem) = tool.parameters.as_ref().and_then(arguments::check_schema) {
            issues.push(issue(
                problem.rule,
                locate.tool(&tool.name),
                format!("tool {:?}: {}", tool.name, problem.message),
            ));
        }
    }
}

/// A shape's id pattern: how it is written, and the check.
type IdPattern = (&'static str, fn(&str) -> bool);

/// The id patterns a shape allows, where it has one.
fn id_pattern(shape: Shape) -> Option<IdPattern> {
    match shape {
        Shape::Bedrock => Some(("[a-zA-Z0-9_.:-]{1,64}", |id| {
            !id.is_empty()
                && id.len() <= 64
                && id
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_.:-".contains(c))
        })),
        Shape::Anthropic => Some(("[a-zA-Z0-9_-]+", |id| {
            !id.is_empty()
                && id
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_-".contains(c))
        })),
        _ => None,
    }
}

/// Tool exchanges: every call answered by exactly one result with the same id,
/// in the tool messages right after its assistant turn; no result without a
/// call; no missing, empty or duplicate ids; ids the shape allows; arguments
/// that fit the declared tool.
fn exchanges(transcript: &Transcript, shape: Shape, locate: &Locator<'_>, issues: &mut Vec<Issue>) {
    let ids_optional = shape == Shape::Gemini;
    let declared: Option<HashMap<&str, &crate::transcript::Tool>> = transcript
        .tools
        .as_ref()
        .filter(|tools| !tools.is_empty())
        .map(|tools| tools.iter().map(|t| (t.name.as_str(), t)).collect());
    let hosted: HashSet<String> = transcript
        .tools
        .iter()
        .flatten()
        .filter(|t| t.name.is_empty())
        .filter_map(|t| {
            t.extensions.values().find_map(|fields| {
                fields
                    .get("$tool")?
                    .get("type")?
                    .as_str()
                    .map(str::to_string)
            })
        })
        .collect();
    let mut all_calls: HashMap<String, usize> = HashMap::new();
    let mut answered: HashSet<String> = HashSet::new();
    let messages = &transcript.messages;
    let mut index = 0;
    while index < messages.len() {
        let message = &messages[index];
        if message.role != Role::Assistant {
            if message.role == Role::Tool
                || message
                    .content
                    .iter()
                    .any(|b| matches!(b, Block::ToolResult(_)))
            {
                // Results with no assistant turn right before them.
                for block in &message.content {
                    if let Block::ToolResult(result) = block {
                        stray_result(result, &all_calls, &answered, locate, issues);
                    }
                }
            }
            index += 1;
            continue;
        }
        let calls: Vec<&crate::transcript::ToolCall> = message
            .content
            .iter()
            .filter_map(|b| match b {
                Block::ToolCall(call) => Some(call),
                _ => None,
            })
            .collect();
        let mut open: Vec<(Option<String>, &str)> = Vec::new();
        for call in &calls {
            let at = locate.call(call.id.as_deref(), &call.name);
            match call.id.as_deref() {
                None if ids_optional => {}
                None | Some("") => issues.push(issue(
                    "tool-id-missing",
                    at.clone(),
                    format!("call of {} has no id", call.name),
                )),
                Some(id) => {
                    if all_calls.insert(id.to_string(), index).is_some() {
                        issues.push(issue(
                            "tool-id-duplicate",
                            at.clone(),
                            format!("call id {id:?} is used twice"),
                        ));
                    }
                    if let Some((pattern, allowed)) = id_pattern(shape) {
                        if !allowed(id) {
                            issues.push(issue(
                                "tool-id-pattern",
                                at.clone(),
                                format!("call id {id:?} is outside {shape}'s pattern {pattern}"),
                            ));
                        }
                    }
                }
            }
            open.push((
                call.id.clone().filter(|id| !id.is_empty()),
                call.name.as_str(),
            ));
            check_call(call, declared.as_ref(), &hosted, &at, issues);
        }
        index += 1;
        // The results of this turn: the tool messages right after it.
        let mut by_order = 0usize;
        while index < messages.len() && messages[index].role == Role::Tool {
            for block in &messages[index].content {
                let Block::ToolResult(result) = block else {
                    continue;
                };
                let at = locate.result(result.call_id.as_deref(), result.name.as_deref());
                let id = result.call_id.as_deref().filter(|id| !id.is_empty());
                let slot = match id {
                    Some(id) => open
                        .iter()
                        .position(|(call, _)| call.as_deref() == Some(id)),
                    None if ids_optional => {
                        // Id-less results pair with id-less calls by name, in order.
                        let found = open
                            .iter()
                            .enumerate()
                            .skip(by_order)
                            .find(|(_, (call, name))| {
                                call.is_none() && Some(*name) == result.name.as_deref()
                            })
                            .map(|(i, _)| i);
                        by_order = found.map_or(by_order, |i| i + 1);
                        found
                    }
                    None => {
                        issues.push(issue(
                            "tool-id-missing",
                            at,
                            "tool result has no call id".to_string(),
                        ));
                        continue;
                    }
                };
                match slot {
                    Some(slot) => {
                        let (call, _) = open.remove(slot);
                        if let Some(call) = call {
                            answered.insert(call);
                        }
                        if ids_optional && id.is_none() {
                            by_order = by_order.saturating_sub(1);
                        }
                    }
                    None => stray_result(result, &all_calls, &answered, locate, issues),
                }
            }
            index += 1;
        }
        let ended = index >= messages.len();
        for (id, name) in open {
            if ended {
                // The conversation stops at the calls: their results are to come.
                continue;
            }
            let at = locate.call(id.as_deref(), name);
            let which = id.as_deref().map_or_else(
                || format!("call of {name}"),
                |id| format!("call {id} ({name})"),
            );
            issues.push(issue(
                "tool-call-unanswered",
                at,
                format!("{which} has no result in the tool results right after it"),
            ));
        }
    }
}

/// A result that does not answer a call of the turn right before it.
fn stray_result(
    result: &crate::transcript::ToolResult,
    all_calls: &HashMap<String, usize>,
    answered: &HashSet<String>,
    locate: &Locator<'_>,
    issues: &mut Vec<Issue>,
) {
    let at = locate.result(result.call_id.as_deref(), result.name.as_deref());
    let Some(id) = result.call_id.as_deref().filter(|id| !id.is_empty()) else {
        issues.push(issue(
            "tool-id-missing",
            at,
            "tool result has no call id".to_string(),
        ));
        return;
    };
    let (rule, message) = if answered.contains(id) {
        (
            "tool-result-duplicate",
            format!("call {id} is answered more than once"),
        )
    } else if all_calls.contains_key(id) {
        (
            "tool-result-position",
            format!("the result of call {id} is not in the tool results right after its call"),
        )
    } else {
        (
            "tool-result-orphan",
            format!("tool result for {id}, but no call has that id"),
        )
    };
    issues.push(issue(rule, at, message));
}

/// A call's arguments against its declared tool.
fn check_call(
    call: &crate::transcript::ToolCall,
    declared: Option<&HashMap<&str, &crate::transcript::Tool>>,
    hosted: &HashSet<String>,
    at: &str,
    issues: &mut Vec<Issue>,
) {
    let arguments = match &call.arguments {
        Arguments::Raw(raw) => {
            issues.push(issue(
                "tool-arguments-json",
                at.to_string(),
                format!(
                    "arguments of {} are not JSON: {}",
                    call.name,
                    crate::b64::preview(raw)
                ),
            ));
            return;
        }
        Arguments::Value(value) => value,
    };
    let Some(declared) = declared else {
        // No tools declared in this document: only the form can be checked.
        if !arguments.is_object() {
            issues.push(issue(
                "tool-arguments-not-object",
                at.to_string(),
                format!(
                    "arguments of {} must be a JSON object, not {}",
                    call.name,
                    crate::part::json_kind(arguments)
                ),
            ));
        }
        return;
    };
    let Some(tool) = declared.get(call.name.as_str()) else {
        if hosted.contains(&call.name) {
            return;
        }
        issues.push(issue(
            "tool-undeclared",
            at.to_string(),
            format!("call of {}, which the document does not declare", call.name),
        ));
        return;
    };
    for problem in arguments::check_arguments(&call.name, tool.parameters.as_ref(), arguments) {
        issues.push(issue(problem.rule, at.to_string(), problem.message));
    }
}

/// `--target`: what converting the document would refuse or drop.
fn preflight(value: &Value, shape: Shape, target: Shape, issues: &mut Vec<Issue>) {
    let options = ConvertOptions {
        strict: true,
        ..ConvertOptions::default()
    };
    if let Err(error) = convert::convert(value, Some(shape), target, options) {
        issues.push(issue(
            "target-unsupported",
            String::new(),
            format!("as {target}: {error}"),
        ));
    }
}
