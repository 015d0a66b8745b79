//! The tool-exchange checks on a transcript: every call answered once, right
//! after its turn, with ids the shape allows and arguments that fit the
//! declared tool.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::arguments;
use super::locate::Locator;
use super::report::Issue;
use super::transcript::{hosted_type, issue};
use crate::convert;
use crate::json::lent::Lending;
use crate::shapes::Registered;
use crate::shapes::Shape;
use crate::transcript::{Arguments, Block, Role, Tool, ToolCall, ToolResult, Transcript};
use crate::validate::acceptance::{self, Fact, Form};
use crate::validate::kit::IdPattern;
use crate::validate::rules::Severity;

/// How a call is named in messages: `call c1 (get_chart)`, or `call of
/// get_chart` when it has no id.
fn which(id: Option<&str>, name: &str) -> String {
    match id {
        Some(id) => format!("call {id} ({name})"),
        None => format!("call of {name}"),
    }
}

/// A document that is a single tool result: its call is elsewhere.
pub(super) fn lone_results(
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
    let ids = shape.dialect().validate_facts().ids;
    let missing = match result.call_id.as_deref() {
        _ if !ids.in_results => false,
        None => !ids.optional,
        Some(id) => id.is_empty() && !ids.empty_is_absent,
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
/// saw it), and providers accept such histories, so it is a warning. In a
/// shape whose results cannot say they are errors (OpenAI's), any answer may
/// be that error: a warning too (docs/acceptance.md).
fn caught(issues: &mut [Issue], findings: std::ops::Range<usize>, how: &str) {
    for issue in &mut issues[findings] {
        // A finding whose weight is the provider's (calls without declared
        // tools: Anthropic refuses them whatever the answer, OpenAI takes
        // them) stays as it is.
        let provider_s = issue.severity.is_some();
        if matches!(issue.rule, "tool-undeclared" | "tool-arguments-schema") && !provider_s {
            issue.rule = "tool-call-caught";
            issue.message.push_str(how);
        }
    }
}

/// How a result that answered a call that broke its declaration may show
/// the mistake caught, if it may.
fn answered_how(result: &ToolResult, shape: Shape) -> Option<String> {
    if result.is_error {
        Some(" — answered by an error result".to_string())
    } else if !shape.dialect().validate_facts().results_mark_errors {
        Some(format!(
            " — answered by a result, which {shape} cannot mark as an error"
        ))
    } else {
        None
    }
}

/// Tool exchanges: every call answered by exactly one result with the same id,
/// in the tool messages right after its assistant turn; no result without a
/// call; no missing, empty or duplicate ids; ids the shape allows; arguments
/// that fit the declared tool. A bare message list may start inside a
/// conversation: results before its first assistant message answer calls
/// before the list (so a tool result written as a list of messages is clean).
///
/// Long because it is the one pass over the messages, turn by turn, that
/// decides which results answer which calls; the work on each call and each
/// result is in `State`'s methods.
pub(super) fn exchanges(
    transcript: &Transcript,
    shape: Shape,
    form: convert::Form,
    locate: &Locator<'_>,
    lending: &Lending,
    issues: &mut Vec<Issue>,
) {
    // Gemini and canonical ids are optional: id-less results pair with id-less
    // calls of the same name, in order. Gemini (proto3) reads an empty id as
    // absent; elsewhere an empty id is a missing one.
    let facts = shape.dialect().validate_facts();
    let mut seen_assistant = false;
    // A provider's request body declares every tool it may call, so one that
    // declares none and carries calls calls undeclared tools; a bare message
    // list cannot declare tools, and canonical transcripts need not.
    let declares_all = form == convert::Form::Request && facts.request_declares_tools;
    let (declared, hosted) = declarations(transcript, declares_all);
    let mut state = State {
        locate,
        shape,
        ids_optional: facts.ids.optional,
        empty_is_absent: facts.ids.empty_is_absent,
        pattern: facts.ids.pattern,
        all_calls: HashMap::new(),
        answered: HashSet::new(),
        turn_names: HashSet::new(),
        misplaced: HashSet::new(),
        unanswered: Vec::new(),
        earlier_on_server: convert::history::server_history(transcript).is_some(),
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
            let call = match block {
                Block::ToolCall(call) => call,
                Block::Opaque(kept) if kept.shape == shape => {
                    if let Some(declared) = &declared {
                        hosted_call(&kept.value, declared, &hosted, (shape, locate), issues);
                    }
                    continue;
                }
                _ => continue,
            };
            let at = locate.call((index, b), call);
            let id = state.call_id(call, &at, issues);
            state.turn_names.insert(call.name.as_str());
            let before = issues.len();
            check_call(
                call,
                declared.as_ref(),
                &hosted,
                &at,
                facts.acceptance,
                lending,
                issues,
            );
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
                state.answer((index, b), result, &mut open, issues);
            }
            index += 1;
        }
        if index >= messages.len() {
            // The conversation stops at the calls: their results are to come.
            continue;
        }
        state.unanswered(open, issues);
    }
    state.finish(issues);
}

/// The tools calls are checked against, by name (`None`: the document does
/// not say which tools there are), and the hosted tools, allow-listed by name
/// and by type.
fn declarations(
    transcript: &Transcript,
    declares_all: bool,
) -> (Option<HashMap<&str, &Tool>>, HashSet<&str>) {
    let declared = match transcript.tools.as_ref().filter(|tools| !tools.is_empty()) {
        Some(tools) => Some(
            tools
                .iter()
                .filter(|t| hosted_type(t).is_none())
                .map(|t| (t.name.as_str(), t))
                .collect(),
        ),
        None => declares_all.then(HashMap::new),
    };
    let hosted = transcript
        .tools
        .iter()
        .flatten()
        .filter_map(|t| hosted_type(t).map(|kind| [t.name.as_str(), kind]))
        .flatten()
        .filter(|name| !name.is_empty())
        .collect();
    (declared, hosted)
}

/// What the exchange checks remember across turns.
struct State<'l, 'v, 't> {
    locate: &'l Locator<'v>,
    shape: Shape,
    /// Ids are optional in the shape (Gemini, canonical): id-less results pair by name.
    ids_optional: bool,
    /// An empty id is an absent one (Gemini).
    empty_is_absent: bool,
    /// The pattern call ids must match, where the shape has one.
    pattern: Option<IdPattern>,
    /// Every call id seen so far, with where its call stands.
    all_calls: HashMap<String, String>,
    answered: HashSet<String>,
    /// The tools the current assistant turn called.
    turn_names: HashSet<&'t str>,
    /// Calls whose result stands somewhere else than right after them.
    misplaced: HashSet<String>,
    /// `tool-call-unanswered` findings (their index in the findings), by call id.
    unanswered: Vec<(usize, Option<String>)>,
    /// The document's earlier turns are on the provider's server (a
    /// Responses `previous_response_id` or `conversation`): a result whose
    /// call it does not hold answers a call made there.
    earlier_on_server: bool,
}

impl State<'_, '_, '_> {
    /// The calls of a turn that no result right after it answers.
    fn unanswered(&mut self, open: Vec<Open<'_>>, issues: &mut Vec<Issue>) {
        for call in open {
            let message = format!(
                "{} has no result in the tool results right after it",
                which(call.id.as_deref(), call.name)
            );
            self.unanswered.push((issues.len(), call.id));
            issues.push(issue("tool-call-unanswered", call.at, message));
        }
    }

    /// A call whose result stands elsewhere is reported once, at the result:
    /// its `tool-call-unanswered` finding goes.
    fn finish(self, issues: &mut Vec<Issue>) {
        let drop: HashSet<usize> = self
            .unanswered
            .iter()
            .filter(|(_, id)| id.as_ref().is_some_and(|id| self.misplaced.contains(id)))
            .map(|(at, _)| *at)
            .collect();
        let mut at = 0;
        issues.retain(|_| {
            at += 1;
            !drop.contains(&(at - 1))
        });
    }

    /// Checks the id of a call: missing, duplicate, outside the shape's
    /// pattern. Returns the id (`None` for an absent one).
    fn call_id<'c>(
        &mut self,
        call: &'c ToolCall,
        at: &str,
        issues: &mut Vec<Issue>,
    ) -> Option<&'c str> {
        let id = call
            .id
            .as_deref()
            .filter(|id| !(self.empty_is_absent && id.is_empty()));
        match id {
            None if self.ids_optional => {}
            None | Some("") => issues.push(issue(
                "tool-id-missing",
                at.to_string(),
                format!("call of {} has no id", call.name),
            )),
            Some(id) => {
                if let Some(first) = self.all_calls.get(id) {
                    issues.push(issue(
                        "tool-id-duplicate",
                        at.to_string(),
                        format!(
                            "call id {id} is used twice (first by the call at {first})",
                            id = crate::echo::quoted(id)
                        ),
                    ));
                } else {
                    self.all_calls.insert(id.to_string(), at.to_string());
                }
                if let Some((pattern, allowed)) = self.pattern {
                    if !allowed(id) {
                        issues.push(issue(
                            "tool-id-pattern",
                            at.to_string(),
                            format!(
                                "call id {id} is outside {}'s pattern {pattern}",
                                self.shape,
                                id = crate::echo::quoted(id)
                            ),
                        ));
                    }
                }
            }
        }
        id
    }

    /// Pairs a result of the tool messages right after an assistant turn with
    /// the turn's open call it answers, or reports it.
    fn answer(
        &mut self,
        (index, b): (usize, usize),
        result: &ToolResult,
        open: &mut Vec<Open<'_>>,
        issues: &mut Vec<Issue>,
    ) {
        let id = result
            .call_id
            .as_deref()
            .filter(|id| !(self.empty_is_absent && id.is_empty()));
        let slot = match id {
            Some("") => None,
            Some(id) => open.iter().position(|call| call.id.as_deref() == Some(id)),
            // Id-less results pair with id-less calls of their name
            // (any name when the result has none), in order.
            None if self.ids_optional => open.iter().position(|call| {
                call.id.is_none() && result.name.as_deref().is_none_or(|n| n == call.name)
            }),
            None => None,
        };
        // An id-less result for a call that has an id: it answers that
        // call, but must echo its id.
        let echo = match (slot, id) {
            (None, None) if self.ids_optional => open.iter().position(|call| {
                call.id.is_some() && result.name.as_deref().is_none_or(|n| n == call.name)
            }),
            _ => None,
        };
        match (slot, echo) {
            (Some(slot), _) => {
                let call = open.remove(slot);
                if let Some(how) = answered_how(result, self.shape) {
                    caught(issues, call.findings, &how);
                }
                if let Some(id) = call.id {
                    self.answered.insert(id);
                }
            }
            (None, Some(slot)) => {
                let call = open.remove(slot);
                if let Some(how) = answered_how(result, self.shape) {
                    caught(issues, call.findings.clone(), &how);
                }
                let id = call.id.unwrap_or_default();
                issues.push(issue(
                    "tool-id-missing",
                    self.locate.result((index, b), result),
                    format!(
                        "the result of {} has no call id; it must echo the call's id {id}",
                        which(Some(&id), call.name)
                    ),
                ));
                self.answered.insert(id);
            }
            (None, None) => self.stray((index, b), result, issues),
        }
    }

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
        } else if self.earlier_on_server {
            // The provider holds the call; a second result for it is still
            // a duplicate.
            self.answered.insert(id.to_string());
            return;
        } else {
            (
                "tool-result-orphan",
                format!("tool result for {id}, but no call has that id"),
            )
        };
        issues.push(issue(rule, pointer, message));
    }
}

/// A `tool-undeclared` finding, as severe as the provider's verdict on
/// `form` (docs/acceptance.md): an error where it refuses the request, a
/// warning where it accepts it.
fn undeclared(at: String, message: String, acceptance: &[Fact], form: Form) -> Issue {
    let mut found = issue("tool-undeclared", at, message);
    found.severity = acceptance::severity(acceptance, form);
    if found.severity == Some(Severity::Warning) {
        found.message.push_str(" (the provider accepts this)");
    }
    found
}

/// A hosted tool's call kept whole by the reader (a Responses
/// `web_search_call`, an Anthropic `server_tool_use`): the request must
/// declare that hosted tool, by name or by type.
fn hosted_call(
    value: &Value,
    declared: &HashMap<&str, &Tool>,
    hosted: &HashSet<&str>,
    (shape, locate): (Shape, &Locator<'_>),
    issues: &mut Vec<Issue>,
) {
    let Some(call) = shape.dialect().hosted_call(value) else {
        return;
    };
    let known = call.tools.iter().any(|tool| {
        hosted
            .iter()
            .any(|name| name == tool || name.starts_with(&format!("{tool}_")))
    });
    if known {
        return;
    }
    let mut names: Vec<&str> = declared
        .keys()
        .chain(hosted.iter())
        .copied()
        .filter(|n| !n.is_empty())
        .collect();
    names.sort_unstable();
    names.dedup();
    let (form, message) = if names.is_empty() {
        (
            Form::CallsWithoutTools,
            format!(
                "{} calls a hosted tool, and the request declares no tools",
                call.what
            ),
        )
    } else {
        (
            Form::HostedCallUndeclared,
            format!(
                "{} calls a hosted tool the request does not declare (declared: {})",
                call.what,
                names.join(", ")
            ),
        )
    };
    let at = locate.block(value);
    issues.push(undeclared(
        at,
        message,
        shape.dialect().validate_facts().acceptance,
        form,
    ));
}

/// A call's arguments against its declared tool (strings in them may be
/// placeholders `lending` lends).
fn check_call(
    call: &ToolCall,
    declared: Option<&HashMap<&str, &Tool>>,
    hosted: &HashSet<&str>,
    at: &str,
    acceptance: &[Fact],
    lending: &Lending,
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
                        lending.with_resolved(raw, crate::b64::preview)
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
        // With no tools declared the severity is the provider's (some take
        // such a history); a call of a tool missing from a declared list is
        // broken data whatever the provider takes (docs/acceptance.md).
        let found = if names.is_empty() {
            let message = format!("{who} calls a tool, and the request declares no tools");
            undeclared(at.to_string(), message, acceptance, Form::CallsWithoutTools)
        } else {
            let message = format!(
                "{who} calls a tool the document does not declare (declared: {})",
                names.join(", ")
            );
            issue("tool-undeclared", at.to_string(), message)
        };
        issues.push(found);
        return;
    };
    let schema = tool.parameters.as_ref();
    for problem in arguments::check_arguments(&call.name, id, schema, arguments, lending) {
        issues.push(issue(problem.rule, at.to_string(), problem.message));
    }
}
