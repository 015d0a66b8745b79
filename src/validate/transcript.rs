//! Checks on whole transcripts (requests, message lists, responses, tool
//! results) in any shape: the document is read into the canonical model with
//! the `convert` reader, then tool exchanges, ids, tool declarations and call
//! arguments are checked there; findings point back into the document.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use super::arguments;
use super::document::Issue;
use crate::convert::{self, ConvertOptions, OnInvalidArguments};
use crate::json::pointer_token;

use crate::shapes::Shape;
use crate::transcript::{Arguments, Block, Role, Tool, ToolCall, ToolResult, Transcript};

fn issue(rule: &'static str, pointer: String, message: String) -> Issue {
    Issue {
        rule,
        pointer,
        message,
        patch: None,
    }
}

/// Reads a transcript of `shape` and checks it: the shape's own rules on the
/// raw document, then (when the reader accepts it) tool declarations, tool
/// exchanges and arguments, and with `target` what converting it would refuse
/// or drop.
pub fn check(value: &Value, shape: Shape, target: Option<Shape>) -> Vec<Issue> {
    let mut issues = super::shape_rules::check(value, shape);
    let options = ConvertOptions {
        on_invalid_arguments: OnInvalidArguments::Keep,
        ..ConvertOptions::default()
    };
    let mut context = convert::Context::new(options.clone(), shape, Shape::Canonical);
    // A missing id is a finding of its own (tool-id-missing), not a document
    // the reader refuses: read it as an empty id.
    let filled = fill_missing_ids(value, shape);
    let read = crate::shapes::read(shape, filled.as_ref().unwrap_or(value), &mut context);
    let (form, transcript) = match read {
        Ok(read) => read,
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
    if form == convert::Form::Request {
        // The list the shape's API requires in a request (the readers keep a
        // document without it, for round trips).
        let required = match shape {
            Shape::OpenaiChat | Shape::Anthropic => Some("messages"),
            Shape::Gemini => Some("contents"),
            _ => None,
        };
        if let Some(key) = required.filter(|key| value.get(*key).is_none()) {
            issues.push(issue(
                "shape-field",
                String::new(),
                format!(
                    "{} {shape} request needs {key}",
                    super::shape_rules::article(shape.name())
                ),
            ));
        }
    }
    let locate = Locator::new(value, shape, &transcript);
    tools(&transcript, &locate, &mut issues);
    if form == convert::Form::ToolResult {
        // A single tool result: its call is elsewhere, but it needs an id.
        lone_results(&transcript, shape, &locate, &mut issues);
    } else {
        exchanges(&transcript, shape, form, &locate, &mut issues);
    }
    if let Some(target) = target {
        preflight(filled.as_ref().unwrap_or(value), shape, target, &mut issues);
    }
    issues
}

/// The document with an empty id written where a call or result has none and
/// the shape's reader refuses that (Anthropic `tool_use.id` and
/// `tool_result.tool_use_id`, an OpenAI Chat tool message's `tool_call_id`, a
/// Bedrock `toolResult.toolUseId`); `None` when nothing is missing.
fn fill_missing_ids(value: &Value, shape: Shape) -> Option<Value> {
    fn walk(value: &mut Value, shape: Shape, key: Option<&str>, changed: &mut bool) {
        match value {
            Value::Object(map) => {
                let kind = map.get("type").and_then(Value::as_str);
                let role = map.get("role").and_then(Value::as_str);
                let missing = match shape {
                    Shape::Anthropic if kind == Some("tool_use") => Some("id"),
                    Shape::Anthropic if kind == Some("tool_result") => Some("tool_use_id"),
                    Shape::OpenaiChat if role == Some("tool") => Some("tool_call_id"),
                    Shape::Bedrock if key == Some("toolResult") => Some("toolUseId"),
                    _ => None,
                };
                if let Some(field) = missing.filter(|f| !map.contains_key(*f)) {
                    map.insert(field.to_string(), Value::String(String::new()));
                    *changed = true;
                }
                for (key, item) in map.iter_mut() {
                    walk(item, shape, Some(key), changed);
                }
            }
            Value::Array(items) => {
                for item in items {
                    walk(item, shape, key, changed);
                }
            }
            _ => {}
        }
    }
    if !matches!(shape, Shape::Anthropic | Shape::OpenaiChat | Shape::Bedrock) {
        return None;
    }
    let mut copy = value.clone();
    let mut changed = false;
    walk(&mut copy, shape, None, &mut changed);
    changed.then_some(copy)
}

/// What a document object is to the tool-exchange checks.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Found {
    Call,
    Result,
}

/// Which object of a document of `shape` is a tool call or a tool result, as
/// the shape's reader reads them; `key` is the member (or, for list items, the
/// list's member) the object stands under.
fn classify(shape: Shape, map: &Map<String, Value>, key: Option<&str>) -> Option<Found> {
    let kind = map.get("type").and_then(Value::as_str);
    match shape {
        Shape::Canonical => match kind {
            Some("tool_call") => Some(Found::Call),
            Some("tool_result") => Some(Found::Result),
            _ => None,
        },
        Shape::OpenaiChat => {
            if key == Some("tool_calls")
                && matches!(kind, None | Some("function"))
                && map.get("function").is_some_and(Value::is_object)
            {
                Some(Found::Call)
            } else if map.get("role").and_then(Value::as_str) == Some("tool") {
                Some(Found::Result)
            } else {
                None
            }
        }
        Shape::OpenaiResponses => match kind {
            Some("function_call") => Some(Found::Call),
            Some("function_call_output") => Some(Found::Result),
            _ => None,
        },
        Shape::Anthropic => match kind {
            Some("tool_use") => Some(Found::Call),
            Some("tool_result") => Some(Found::Result),
            _ => None,
        },
        Shape::Gemini => match key {
            Some("functionCall" | "function_call") => Some(Found::Call),
            Some("functionResponse" | "function_response") => Some(Found::Result),
            _ => None,
        },
        Shape::Bedrock => match key {
            Some("toolUse") => Some(Found::Call),
            Some("toolResult") => Some(Found::Result),
            _ => None,
        },
        Shape::Mcp | Shape::NemoGym => None,
    }
}

/// Finds where a call, result or tool stands in the original document.
struct Locator<'v> {
    value: &'v Value,
    /// The pointers of the document's calls and results in document order,
    /// when there are exactly as many as the reader read (so the n-th call of
    /// the transcript is the n-th call of the document).
    calls: Option<Vec<String>>,
    results: Option<Vec<String>>,
    /// The transcript's calls and results, by (message, block), numbered in order.
    call_numbers: HashMap<(usize, usize), usize>,
    result_numbers: HashMap<(usize, usize), usize>,
}

impl<'v> Locator<'v> {
    fn new(value: &'v Value, shape: Shape, transcript: &Transcript) -> Locator<'v> {
        fn walk(
            value: &Value,
            shape: Shape,
            key: Option<&str>,
            pointer: &mut String,
            calls: &mut Vec<String>,
            results: &mut Vec<String>,
        ) {
            match value {
                Value::Object(map) => {
                    match classify(shape, map, key) {
                        Some(Found::Call) => return calls.push(pointer.clone()),
                        Some(Found::Result) => return results.push(pointer.clone()),
                        None => {}
                    }
                    for (key, item) in map {
                        let len = pointer.len();
                        pointer.push('/');
                        pointer.push_str(&pointer_token(key));
                        walk(item, shape, Some(key), pointer, calls, results);
                        pointer.truncate(len);
                    }
                }
                Value::Array(items) => {
                    for (index, item) in items.iter().enumerate() {
                        let len = pointer.len();
                        pointer.push_str(&format!("/{index}"));
                        walk(item, shape, key, pointer, calls, results);
                        pointer.truncate(len);
                    }
                }
                _ => {}
            }
        }
        let (mut calls, mut results) = (Vec::new(), Vec::new());
        walk(
            value,
            shape,
            None,
            &mut String::new(),
            &mut calls,
            &mut results,
        );
        let mut call_numbers = HashMap::new();
        let mut result_numbers = HashMap::new();
        for (m, message) in transcript.messages.iter().enumerate() {
            for (b, block) in message.content.iter().enumerate() {
                match block {
                    Block::ToolCall(_) => {
                        call_numbers.insert((m, b), call_numbers.len());
                    }
                    Block::ToolResult(_) => {
                        result_numbers.insert((m, b), result_numbers.len());
                    }
                    _ => {}
                }
            }
        }
        Locator {
            value,
            calls: (calls.len() == call_numbers.len()).then_some(calls),
            results: (results.len() == result_numbers.len()).then_some(results),
            call_numbers,
            result_numbers,
        }
    }

    /// The pointer of the first object (depth first, in document order) that
    /// `matches`, or "".
    fn find(&self, matches: &dyn Fn(&Map<String, Value>) -> bool) -> String {
        fn walk(
            value: &Value,
            pointer: &mut String,
            matches: &dyn Fn(&Map<String, Value>) -> bool,
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

    /// The call that is block `at` (message, block) of the transcript.
    fn call(&self, at: (usize, usize), call: &ToolCall) -> String {
        if let (Some(calls), Some(n)) = (&self.calls, self.call_numbers.get(&at)) {
            return calls[*n].clone();
        }
        let has = |map: &Map<String, Value>, keys: &[&str], want: &str| {
            keys.iter()
                .any(|k| map.get(*k).and_then(Value::as_str) == Some(want))
        };
        match call.id.as_deref() {
            Some(id) => self.find(&|map| {
                has(map, &["id", "call_id", "toolUseId"], id)
                    && ["name", "function", "input", "args", "arguments"]
                        .iter()
                        .any(|k| map.contains_key(*k))
                    && !map.contains_key("output")
                    && !map.contains_key("content")
            }),
            None => self.find(&|map| has(map, &["name"], &call.name) && map.contains_key("args")),
        }
    }

    /// The result that is block `at` (message, block) of the transcript.
    fn result(&self, at: (usize, usize), result: &ToolResult) -> String {
        if let (Some(results), Some(n)) = (&self.results, self.result_numbers.get(&at)) {
            return results[*n].clone();
        }
        let has = |map: &Map<String, Value>, keys: &[&str], want: &str| {
            keys.iter()
                .any(|k| map.get(*k).and_then(Value::as_str) == Some(want))
        };
        match (result.call_id.as_deref(), result.name.as_deref()) {
            (Some(id), _) => self.find(&|map| {
                has(
                    map,
                    &["tool_call_id", "tool_use_id", "toolUseId", "call_id", "id"],
                    id,
                ) && ["content", "output", "response", "role"]
                    .iter()
                    .any(|k| map.contains_key(*k))
            }),
            (None, Some(name)) => {
                self.find(&|map| has(map, &["name"], name) && map.contains_key("response"))
            }
            (None, None) => String::new(),
        }
    }

    /// The declaration of the `nth` (from 0) tool named `name`, and the member
    /// holding its schema (empty when it has none).
    fn tool(&self, name: &str, nth: usize) -> (String, String) {
        fn walk(value: &Value, pointer: &mut String, name: &str, found: &mut Vec<String>) {
            match value {
                Value::Object(map) => {
                    if map.get("name").and_then(Value::as_str) == Some(name) {
                        found.push(pointer.clone());
                        return;
                    }
                    for (key, item) in map {
                        let len = pointer.len();
                        pointer.push('/');
                        pointer.push_str(&pointer_token(key));
                        walk(item, pointer, name, found);
                        pointer.truncate(len);
                    }
                }
                Value::Array(items) => {
                    for (index, item) in items.iter().enumerate() {
                        let len = pointer.len();
                        pointer.push_str(&format!("/{index}"));
                        walk(item, pointer, name, found);
                        pointer.truncate(len);
                    }
                }
                _ => {}
            }
        }
        // Tools are declared under `tools` (Bedrock: `toolConfig.tools`).
        let mut found = Vec::new();
        for base in ["/tools", "/toolConfig/tools"] {
            if let Some(tools) = self.value.pointer(base) {
                let mut pointer = base.to_string();
                walk(tools, &mut pointer, name, &mut found);
            }
        }
        let Some(at) = found.get(nth).or(found.last()).cloned() else {
            return (String::new(), String::new());
        };
        let declaration = self.value.pointer(&at);
        let schema = [
            "parameters",
            "input_schema",
            "parametersJsonSchema",
            "parameters_json_schema",
        ]
        .iter()
        .find(|key| declaration.and_then(|d| d.get(**key)).is_some())
        .map(|key| format!("{at}/{key}"))
        .or_else(|| {
            declaration
                .and_then(|d| d.get("inputSchema"))
                .map(|schema| match schema.get("json") {
                    Some(_) => format!("{at}/inputSchema/json"),
                    None => format!("{at}/inputSchema"),
                })
        })
        .unwrap_or_default();
        (at, schema)
    }
}

/// Whether a tool is hosted (a provider's tool known by its type, kept whole
/// by the reader: Responses `web_search`, an Anthropic server tool): such a
/// tool carries no schema of its own and is allow-list only.
fn hosted_type(tool: &Tool) -> Option<&str> {
    tool.extensions.values().find_map(|fields| {
        let kept = fields.get("$tool")?;
        Some(kept.get("type").and_then(Value::as_str).unwrap_or(""))
    })
}

/// Tool declarations: duplicate names and schemas that are not JSON Schema.
fn tools(transcript: &Transcript, locate: &Locator<'_>, issues: &mut Vec<Issue>) {
    let Some(tools) = &transcript.tools else {
        return;
    };
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for tool in tools.iter().filter(|t| !t.name.is_empty()) {
        let count = seen.entry(&tool.name).or_insert(0);
        let nth = *count;
        *count += 1;
        let (at, schema_at) = locate.tool(&tool.name, nth);
        if nth > 0 {
            let (first, _) = locate.tool(&tool.name, 0);
            issues.push(issue(
                "tool-duplicate-name",
                at.clone(),
                format!(
                    "tool {:?} is declared more than once (first at {})",
                    tool.name,
                    if first.is_empty() {
                        "an earlier tool"
                    } else {
                        &first
                    }
                ),
            ));
        }
        if let Some(problem) = tool.parameters.as_ref().and_then(arguments::check_schema) {
            let pointer = if schema_at.is_empty() {
                at
            } else {
                format!("{schema_at}{}", problem.at)
            };
            issues.push(issue(
                problem.rule,
                pointer,
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

/// How a call is named in messages: `call c1 (get_chart)`, or `call of
/// get_chart` when it has no id.
fn which(id: Option<&str>, name: &str) -> String {
    match id {
        Some(id) => format!("call {id} ({name})"),
        None => format!("call of {name}"),
    }
}

/// A document that is a single tool result: its call is elsewhere.
fn lone_results(
    transcript: &Transcript,
    shape: Shape,
    locate: &Locator<'_>,
    issues: &mut Vec<Issue>,
) {
    for (m, message) in transcript.messages.iter().enumerate() {
        for (b, block) in message.content.iter().enumerate() {
            if let Block::ToolResult(result) = block {
                lone_result((m, b), result, shape, locate, issues);
            }
        }
    }
}

/// A result whose call is outside the document: it needs a call id where the
/// shape has one (Gemini's and canonical's are optional, but canonical's is
/// not empty; MCP and NeMo Gym results carry none).
fn lone_result(
    at: (usize, usize),
    result: &ToolResult,
    shape: Shape,
    locate: &Locator<'_>,
    issues: &mut Vec<Issue>,
) {
    let missing = match result.call_id.as_deref() {
        _ if matches!(shape, Shape::Gemini | Shape::Mcp | Shape::NemoGym) => false,
        None => shape != Shape::Canonical,
        Some(id) => id.is_empty(),
    };
    if missing {
        issues.push(issue(
            "tool-id-missing",
            locate.result(at, result),
            "tool result has no call id".to_string(),
        ));
    }
}

/// A call still waiting for its result.
struct Open<'t> {
    id: Option<String>,
    name: &'t str,
    at: String,
    /// The findings its checks made (indexes into the issues).
    findings: std::ops::Range<usize>,
}

/// A call that breaks its declaration, answered by an error result: the
/// recording shows the mistake caught (the tool runner said so, and the model
/// saw it), and providers accept such histories, so it is a warning.
fn caught(issues: &mut [Issue], findings: std::ops::Range<usize>) {
    for issue in &mut issues[findings] {
        if matches!(issue.rule, "tool-undeclared" | "tool-arguments-schema") {
            issue.rule = "tool-call-caught";
            issue.message.push_str(" — answered by an error result");
        }
    }
}

/// Tool exchanges: every call answered by exactly one result with the same id,
/// in the tool messages right after its assistant turn; no result without a
/// call; no missing, empty or duplicate ids; ids the shape allows; arguments
/// that fit the declared tool. A bare message list may start inside a
/// conversation: results before its first assistant message answer calls
/// before the list (so a tool result written as a list of messages is clean).
fn exchanges(
    transcript: &Transcript,
    shape: Shape,
    form: convert::Form,
    locate: &Locator<'_>,
    issues: &mut Vec<Issue>,
) {
    // Gemini and canonical ids are optional: id-less results pair with id-less
    // calls of the same name, in order. Gemini (proto3) reads an empty id as
    // absent; elsewhere an empty id is a missing one.
    let ids_optional = matches!(shape, Shape::Gemini | Shape::Canonical);
    let empty_is_absent = shape == Shape::Gemini;
    let mut seen_assistant = false;
    // A provider's request body declares every tool it may call, so one that
    // declares none and carries calls calls undeclared tools; a bare message
    // list cannot declare tools, and canonical transcripts need not.
    let declares_all = form == convert::Form::Request && shape != Shape::Canonical;
    let no_tools = Vec::new();
    let declared: Option<HashMap<&str, &Tool>> = transcript
        .tools
        .as_ref()
        .filter(|tools| !tools.is_empty())
        .or(declares_all.then_some(&no_tools))
        .map(|tools| {
            tools
                .iter()
                .filter(|t| hosted_type(t).is_none())
                .map(|t| (t.name.as_str(), t))
                .collect()
        });
    // Hosted tools are allow-listed by name and by type.
    let hosted: HashSet<&str> = transcript
        .tools
        .iter()
        .flatten()
        .filter_map(|t| hosted_type(t).map(|kind| [t.name.as_str(), kind]))
        .flatten()
        .filter(|name| !name.is_empty())
        .collect();
    let mut state = State {
        locate,
        ids_optional,
        empty_is_absent,
        all_calls: HashMap::new(),
        answered: HashSet::new(),
        turn_names: HashSet::new(),
        misplaced: HashSet::new(),
        unanswered: Vec::new(),
    };
    let messages = &transcript.messages;
    let mut index = 0;
    while index < messages.len() {
        let message = &messages[index];
        if message.role != Role::Assistant {
            if message.role != Role::Tool {
                state.turn_names.clear();
            }
            // Results with no assistant turn right before them.
            for (b, block) in message.content.iter().enumerate() {
                if let Block::ToolResult(result) = block {
                    if form == convert::Form::Messages && !seen_assistant {
                        lone_result((index, b), result, shape, locate, issues);
                    } else {
                        state.stray((index, b), result, issues);
                    }
                }
            }
            index += 1;
            continue;
        }
        seen_assistant = true;
        let mut open: Vec<Open<'_>> = Vec::new();
        state.turn_names.clear();
        for (b, block) in message.content.iter().enumerate() {
            let Block::ToolCall(call) = block else {
                continue;
            };
            let at = locate.call((index, b), call);
            let id = call
                .id
                .as_deref()
                .filter(|id| !(empty_is_absent && id.is_empty()));
            match id {
                None if ids_optional => {}
                None | Some("") => issues.push(issue(
                    "tool-id-missing",
                    at.clone(),
                    format!("call of {} has no id", call.name),
                )),
                Some(id) => {
                    if let Some(first) = state.all_calls.get(id) {
                        issues.push(issue(
                            "tool-id-duplicate",
                            at.clone(),
                            format!("call id {id:?} is used twice (first by the call at {first})"),
                        ));
                    } else {
                        state.all_calls.insert(id.to_string(), at.clone());
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
            state.turn_names.insert(call.name.as_str());
            let before = issues.len();
            check_call(call, declared.as_ref(), &hosted, &at, issues);
            open.push(Open {
                id: id.filter(|id| !id.is_empty()).map(str::to_string),
                name: call.name.as_str(),
                at,
                findings: before..issues.len(),
            });
        }
        index += 1;
        // The results of this turn: the tool messages right after it.
        while index < messages.len() && messages[index].role == Role::Tool {
            for (b, block) in messages[index].content.iter().enumerate() {
                let Block::ToolResult(result) = block else {
                    continue;
                };
                let id = result
                    .call_id
                    .as_deref()
                    .filter(|id| !(empty_is_absent && id.is_empty()));
                let slot = match id {
                    Some("") => None,
                    Some(id) => open.iter().position(|call| call.id.as_deref() == Some(id)),
                    // Id-less results pair with id-less calls of their name
                    // (any name when the result has none), in order.
                    None if ids_optional => open.iter().position(|call| {
                        call.id.is_none() && result.name.as_deref().is_none_or(|n| n == call.name)
                    }),
                    None => None,
                };
                // An id-less result for a call that has an id: it answers that
                // call, but must echo its id.
                let echo = match (slot, id) {
                    (None, None) if ids_optional => open.iter().position(|call| {
                        call.id.is_some() && result.name.as_deref().is_none_or(|n| n == call.name)
                    }),
                    _ => None,
                };
                match (slot, echo) {
                    (Some(slot), _) => {
                        let call = open.remove(slot);
                        if result.is_error {
                            caught(issues, call.findings);
                        }
                        if let Some(id) = call.id {
                            state.answered.insert(id);
                        }
                    }
                    (None, Some(slot)) => {
                        let call = open.remove(slot);
                        if result.is_error {
                            caught(issues, call.findings.clone());
                        }
                        let id = call.id.unwrap_or_default();
                        issues.push(issue(
                            "tool-id-missing",
                            locate.result((index, b), result),
                            format!(
                                "the result of {} has no call id; it must echo the call's id {id}",
                                which(Some(&id), call.name)
                            ),
                        ));
                        state.answered.insert(id);
                    }
                    (None, None) => state.stray((index, b), result, issues),
                }
            }
            index += 1;
        }
        if index >= messages.len() {
            // The conversation stops at the calls: their results are to come.
            continue;
        }
        for call in open {
            let message = format!(
                "{} has no result in the tool results right after it",
                which(call.id.as_deref(), call.name)
            );
            state.unanswered.push((issues.len(), call.id));
            issues.push(issue("tool-call-unanswered", call.at, message));
        }
    }
    // A call whose result stands elsewhere is reported once, at the result.
    let drop: HashSet<usize> = state
        .unanswered
        .iter()
        .filter(|(_, id)| id.as_ref().is_some_and(|id| state.misplaced.contains(id)))
        .map(|(at, _)| *at)
        .collect();
    let mut at = 0;
    issues.retain(|_| {
        at += 1;
        !drop.contains(&(at - 1))
    });
}

/// What the exchange checks remember across turns.
struct State<'l, 'v, 't> {
    locate: &'l Locator<'v>,
    /// Ids are optional in the shape (Gemini, canonical): id-less results pair by name.
    ids_optional: bool,
    /// An empty id is an absent one (Gemini).
    empty_is_absent: bool,
    /// Every call id seen so far, with where its call stands.
    all_calls: HashMap<String, String>,
    answered: HashSet<String>,
    /// The tools the current assistant turn called.
    turn_names: HashSet<&'t str>,
    /// Calls whose result stands somewhere else than right after them.
    misplaced: HashSet<String>,
    /// `tool-call-unanswered` findings (their index in the findings), by call id.
    unanswered: Vec<(usize, Option<String>)>,
}

impl State<'_, '_, '_> {
    /// A result that does not answer an open call of the turn right before it.
    fn stray(&mut self, at: (usize, usize), result: &ToolResult, issues: &mut Vec<Issue>) {
        let pointer = self.locate.result(at, result);
        let absent = match result.call_id.as_deref() {
            None => true,
            Some("") => self.empty_is_absent,
            Some(_) => false,
        };
        if absent && self.ids_optional {
            // A result paired by name and order that finds no call left.
            let (rule, message) = match result.name.as_deref() {
                Some(name) if self.turn_names.contains(name) => (
                    "tool-result-duplicate",
                    format!("every call of {name} in the turn before already has its result; this one answers a call a second time"),
                ),
                Some(name) => (
                    "tool-result-orphan",
                    format!("result of {name}, but the turn before has no unanswered call of {name}"),
                ),
                None => (
                    "tool-result-orphan",
                    "a result without a call id, but the turn before has no unanswered call without an id".to_string(),
                ),
            };
            issues.push(issue(rule, pointer, message));
            return;
        }
        let Some(id) = result.call_id.as_deref().filter(|id| !id.is_empty()) else {
            issues.push(issue(
                "tool-id-missing",
                pointer,
                "tool result has no call id".to_string(),
            ));
            return;
        };
        let (rule, message) = if self.answered.contains(id) {
            (
                "tool-result-duplicate",
                format!("call {id} is answered more than once"),
            )
        } else if let Some(call_at) = self.all_calls.get(id) {
            self.misplaced.insert(id.to_string());
            (
                "tool-result-position",
                format!("the result of call {id} is not in the tool results right after its call (at {call_at})"),
            )
        } else {
            (
                "tool-result-orphan",
                format!("tool result for {id}, but no call has that id"),
            )
        };
        issues.push(issue(rule, pointer, message));
    }
}

/// A call's arguments against its declared tool.
fn check_call(
    call: &ToolCall,
    declared: Option<&HashMap<&str, &Tool>>,
    hosted: &HashSet<&str>,
    at: &str,
    issues: &mut Vec<Issue>,
) {
    let id = call.id.as_deref().filter(|id| !id.is_empty());
    let who = which(id, &call.name);
    let arguments = match &call.arguments {
        Arguments::Raw(raw) => {
            let (rule, message) = if raw.trim().is_empty() {
                (
                    "tool-arguments-json",
                    format!("arguments of {who} are an empty string, not JSON"),
                )
            } else if serde_json::from_str::<Value>(raw).is_ok() {
                // A shape whose arguments are an object holds a string.
                (
                    "tool-arguments-not-object",
                    format!("arguments of {who} must be a JSON object, not a string"),
                )
            } else {
                (
                    "tool-arguments-json",
                    format!(
                        "arguments of {who} are not JSON: {}",
                        crate::b64::preview(raw)
                    ),
                )
            };
            issues.push(issue(rule, at.to_string(), message));
            return;
        }
        Arguments::Value(value) => value,
    };
    if hosted.contains(call.name.as_str()) {
        // A hosted tool: the provider owns the call's shape.
        return;
    }
    let known = declared.and_then(|declared| declared.get(call.name.as_str()));
    if known.is_none() {
        // No declaration to check against: only the form can be checked.
        if !arguments.is_object() {
            issues.push(issue(
                "tool-arguments-not-object",
                at.to_string(),
                format!(
                    "arguments of {who} must be a JSON object, not {}",
                    crate::part::json_kind(arguments)
                ),
            ));
        }
    }
    let Some(declared) = declared else {
        return;
    };
    let Some(tool) = known else {
        let mut names: Vec<&str> = declared.keys().copied().filter(|n| !n.is_empty()).collect();
        names.extend(hosted.iter().copied());
        names.sort_unstable();
        names.dedup();
        let message = if names.is_empty() {
            format!("{who} calls a tool, and the request declares no tools")
        } else {
            format!(
                "{who} calls a tool the document does not declare (declared: {})",
                names.join(", ")
            )
        };
        issues.push(issue("tool-undeclared", at.to_string(), message));
        return;
    };
    for problem in arguments::check_arguments(&call.name, id, tool.parameters.as_ref(), arguments) {
        issues.push(issue(problem.rule, at.to_string(), problem.message));
    }
}

/// `--target`: what converting the document would refuse or drop. A part the
/// target refuses is reported where it stands; each warning about something
/// dropped (or degraded to a placeholder, or missing for the target) is one
/// finding on the document.
fn preflight(value: &Value, shape: Shape, target: Shape, issues: &mut Vec<Issue>) {
    match convert::convert(value, Some(shape), target, ConvertOptions::default()) {
        Err(convert::ConvertError::Unsupported {
            pointer,
            unsupported,
        }) => {
            // The conversion names the input's own pointer where it can.
            let located = Some(pointer.clone()).filter(|p| value.pointer(p).is_some());
            let message = match located {
                Some(_) => format!("as {target}: {unsupported}"),
                None => format!("as {target}: {pointer}: {unsupported}"),
            };
            issues.push(issue(
                "target-unsupported",
                located.unwrap_or_default(),
                message,
            ));
        }
        Err(error) => issues.push(issue(
            "target-unsupported",
            String::new(),
            format!("as {target}: {error}"),
        )),
        Ok(converted) => {
            for note in converted.notes.iter().filter(|note| {
                note.ends_with("; dropped")
                    || note.contains("replaced by a placeholder text")
                    || note.contains("(add one before sending)")
            }) {
                issues.push(issue(
                    "target-unsupported",
                    String::new(),
                    format!("as {target}: {note}"),
                ));
            }
        }
    }
}
