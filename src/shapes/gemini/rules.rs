//! What `validate` asks of Gemini documents: a functionResponse's fields,
//! its optional ids, its base64, and where its calls and results stand.

use crate::contract::rules::issue;
use crate::contract::rules::{CallIds, Issue, ToolObject, ValidateFacts};
use crate::json::{Node, Object, View};
use crate::part::json_kind;

/// A request needs `contents`; ids are optional, and (proto3) an empty id is
/// an absent one; either base64 alphabet, padded or not, is legal (protobuf's
/// JSON mapping).
pub const FACTS: ValidateFacts = ValidateFacts {
    url_safe_base64: true,
    request_list: Some("contents"),
    ids: CallIds {
        optional: true,
        empty_is_absent: true,
        ..ValidateFacts::DEFAULT.ids
    },
    acceptance: super::acceptance::ACCEPTANCE,
    ..ValidateFacts::DEFAULT
};

/// Parts are keyed unions: a `functionCall` is a call, a `functionResponse`
/// a result.
pub fn tool_object<O: Object>(_object: &O, key: Option<&str>) -> Option<ToolObject> {
    match key {
        Some("functionCall" | "function_call") => Some(ToolObject::Call),
        Some("functionResponse" | "function_response") => Some(ToolObject::Result),
        _ => None,
    }
}

/// The objects of a repeated field of `map` (a list, or one value written in
/// its place: Google's JSON parser takes either), with their pointers.
fn objects<'v, O: Object>(map: &'v O, key: &str, at: &str) -> Vec<(String, &'v O)> {
    map.get(key)
        .map(|field| super::repeated::items(field, &format!("{at}/{key}")).0)
        .into_iter()
        .flatten()
        .filter_map(|(at, item)| Some((at, item.as_object()?)))
        .collect()
}

fn gemini<N: Node>(value: &N, issues: &mut Vec<Issue>) {
    // Contents of a request or list, a lone Content, a response's candidates.
    let mut contents = match value.view() {
        View::Array(_) => super::repeated::items(value, "")
            .0
            .into_iter()
            .filter_map(|(at, item)| Some((at, item.as_object()?)))
            .collect(),
        View::Object(map) => objects(map, "contents", ""),
        _ => Vec::new(),
    };
    if let Some(map) = value.as_object().filter(|m| m.contains_key("parts")) {
        contents.push((String::new(), map));
    }
    if let Some(map) = value.as_object() {
        for (at, candidate) in objects(map, "candidates", "") {
            if let Some(content) = candidate.get("content").and_then(Node::as_object) {
                contents.push((format!("{at}/content"), content));
            }
        }
    }
    for (at, content) in contents {
        role(content, &at, issues);
        for (at, part) in objects(content, "parts", &at) {
            let Some((key, response)) = ["functionResponse", "function_response"]
                .iter()
                .find_map(|key| part.get(key).and_then(Node::as_object).map(|r| (*key, r)))
            else {
                continue;
            };
            let here = format!("{at}/{key}");
            if !response.contains_key("name") {
                issues.push(issue(
                    "shape-field",
                    here.clone(),
                    "a functionResponse needs a name",
                ));
            }
            match response.get("response") {
                Some(object) if object.is_object() => {}
                Some(other) => issues.push(issue(
                    "shape-field",
                    format!("{here}/response"),
                    format!(
                        "functionResponse.response must be an object ({{\"output\": …}}), not {}",
                        json_kind(other)
                    ),
                )),
                None => issues.push(issue(
                    "shape-field",
                    here.clone(),
                    "a functionResponse needs a response object",
                )),
            }
            if let Some(parts) = response.get("parts") {
                for (there, inner) in super::repeated::items(parts, &format!("{here}/parts")).0 {
                    let blob = inner.as_object().is_some_and(|inner| {
                        ["inlineData", "inline_data", "fileData", "file_data"]
                            .iter()
                            .any(|k| inner.contains_key(k))
                    });
                    if !blob {
                        issues.push(issue(
                            "shape-field",
                            there,
                            "a functionResponse part carries inlineData or fileData only (text belongs in response)",
                        ));
                    }
                }
            }
        }
    }
}

/// A Content's role: `user` or `model` (blank or absent is unset, and older
/// examples' `function` is taken); any other is refused — "Please use a
/// valid role: user, model." (realworld2/gemini/otel-contrib-02.json, HTTP 400).
fn role<O: Object>(content: &O, at: &str, issues: &mut Vec<Issue>) {
    let Some((key, role)) = ["role"]
        .iter()
        .find_map(|key| content.get(key).map(|role| (*key, role)))
    else {
        return;
    };
    if !matches!(role.as_str(), Some("user" | "model" | "function" | "")) {
        issues.push(issue(
            "shape-field",
            format!("{at}/{key}"),
            format!(
                "role {} is not \"user\" or \"model\": Gemini refuses it",
                crate::echo::json(&role.to_value())
            ),
        ));
    }
}

/// The raw rules: every Content's role, the fields of every functionResponse.
pub fn check<N: Node>(value: &N) -> Vec<Issue> {
    let mut issues = Vec::new();
    gemini(value, &mut issues);
    issues
}
