//! Checks on whole transcripts (requests, message lists, responses, tool
//! results) in any shape: the document is read into the canonical model with
//! the `convert` reader, then tool exchanges, ids, tool declarations and call
//! arguments are checked there; findings point back into the document.

use std::collections::HashMap;

use serde_json::Value;

use super::arguments;
use super::exchanges::{exchanges, lone_results};
use super::kit::article;
use super::locate::Locator;
use super::report::Issue;
use crate::convert::{self, ConvertOptions, OnInvalidArguments};
use crate::json::lent::Lending;
use crate::json::{Json, Reading, TreeObject};
use crate::shapes::Registered;
use crate::shapes::{Dialect, Shape};
use crate::transcript::{Tool, Transcript};

/// An issue with no repair.
pub(super) fn issue(rule: &'static str, pointer: String, message: String) -> Issue {
    super::kit::issue(rule, pointer, message)
}

/// Reads a transcript of `shape` and checks it: the shape's own rules on the
/// raw document, then (when the reader accepts it) tool declarations, tool
/// exchanges and arguments, and with `target` what converting it would refuse
/// or drop.
/// `value`: the document as the borrowed tree, its payloads lent
/// (`json::lent::tree_of`); `lending`: what it lends.
pub(super) fn check(
    value: &Json<'_>,
    shape: Shape,
    target: Option<Shape>,
    lending: &Lending,
) -> Vec<Issue> {
    let mut issues = shape.dialect().validate_rules(value);
    let options = ConvertOptions {
        on_invalid_arguments: OnInvalidArguments::Keep,
        ..ConvertOptions::default()
    };
    let mut context = convert::Context::new(options.clone(), shape, crate::shapes::HUB.dialect())
        .with_reading(Reading::lent(lending.clone()));
    // A missing id is a finding of its own (tool-id-missing), not a document
    // the reader refuses: read it as an empty id.
    let filled = fill_missing_ids(value, shape);
    let read = shape
        .dialect()
        .read_tree(filled.as_ref().unwrap_or(value), &mut context);
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
        let required = shape.dialect().validate_facts().request_list;
        if let Some(key) = required.filter(|key| value.get(key).is_none()) {
            issues.push(issue(
                "shape-field",
                String::new(),
                format!("{} {shape} request needs {key}", article(shape.name())),
            ));
        }
    }
    let locate = Locator::new(value, shape, &transcript);
    tools(&transcript, &locate, &mut issues);
    if form == convert::Form::ToolResult {
        // A single tool result: its call is elsewhere, but it needs an id.
        lone_results(&transcript, shape, &locate, &mut issues);
    } else {
        exchanges(&transcript, shape, form, &locate, lending, &mut issues);
    }
    if let Some(target) = target {
        preflight(
            filled.as_ref().unwrap_or(value),
            shape,
            target,
            lending,
            &mut issues,
        );
    }
    issues
}

/// The document with an empty id written where a call or result has none and
/// the shape's reader refuses that (the shape's
/// [`Dialect::required_id_field`]); `None` when nothing is missing.
fn fill_missing_ids<'a>(value: &Json<'a>, shape: Shape) -> Option<Json<'a>> {
    /// The id member `map` lacks, which the reader requires.
    fn missing(
        dialect: &dyn Dialect,
        map: &TreeObject<'_>,
        key: Option<&str>,
    ) -> Option<&'static str> {
        dialect
            .required_id_field(map, key)
            .filter(|field| !map.iter().any(|(k, _)| k == field))
    }
    /// Whether anything lacks its id (so that a clean document is not copied).
    fn lacks(value: &Json<'_>, dialect: &dyn Dialect, key: Option<&str>) -> bool {
        match value {
            Json::Object(map) => {
                missing(dialect, map, key).is_some()
                    || map
                        .iter()
                        .any(|(key, item)| lacks(item, dialect, Some(key.as_ref())))
            }
            Json::Array(items) => items.iter().any(|item| lacks(item, dialect, key)),
            _ => false,
        }
    }
    fn fill(value: &mut Json<'_>, dialect: &dyn Dialect, key: Option<&str>) {
        match value {
            Json::Object(map) => {
                // Added last, as a `Value`'s map adds a new key.
                if let Some(field) = missing(dialect, map, key) {
                    map.push((field.into(), Json::String("".into())));
                }
                for (key, item) in map.iter_mut() {
                    fill(item, dialect, Some(key.as_ref()));
                }
            }
            Json::Array(items) => {
                for item in items {
                    fill(item, dialect, key);
                }
            }
            _ => {}
        }
    }
    let dialect = shape.dialect();
    if !lacks(value, dialect, None) {
        return None;
    }
    let mut copy = value.clone();
    fill(&mut copy, dialect, None);
    Some(copy)
}

/// Whether a tool is hosted (a provider's tool known by its type, kept whole
/// by the reader: Responses `web_search`, an Anthropic server tool): such a
/// tool carries no schema of its own and is allow-list only.
pub(super) fn hosted_type(tool: &Tool) -> Option<&str> {
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
                    "tool {} is declared more than once (first at {})",
                    crate::echo::quoted(&tool.name),
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
                format!(
                    "tool {}: {}",
                    crate::echo::quoted(&tool.name),
                    problem.message
                ),
            ));
        }
    }
}

/// `--target`: what converting the document would refuse or drop. A part the
/// target refuses is reported where it stands; each warning about something
/// dropped (or degraded to a placeholder, or missing for the target) is one
/// finding on the document.
fn preflight(
    value: &Json<'_>,
    shape: Shape,
    target: Shape,
    lending: &Lending,
    issues: &mut Vec<Issue>,
) {
    let reading = Reading::lent(lending.clone());
    match convert::convert_tree(
        value,
        Some(shape),
        target,
        ConvertOptions::default(),
        &reading,
    ) {
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
