//! What `validate` asks of Gemini documents: a functionResponse's fields,
//! its optional ids, its base64, and where its calls and results stand.

use serde_json::{Map, Value};

use crate::validate::kit::{blocks, issue, messages};
use crate::validate::kit::{CallIds, Issue, ToolObject, ValidateFacts};

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
pub fn tool_object(_object: &Map<String, Value>, key: Option<&str>) -> Option<ToolObject> {
    match key {
        Some("functionCall" | "function_call") => Some(ToolObject::Call),
        Some("functionResponse" | "function_response") => Some(ToolObject::Result),
        _ => None,
    }
}

fn gemini(value: &Value, issues: &mut Vec<Issue>) {
    // Contents of a request or list, a lone Content, a response's candidates.
    let mut contents = messages(value, &["contents"]);
    if let Some(map) = value.as_object().filter(|m| m.contains_key("parts")) {
        contents.push((String::new(), map));
    }
    if let Some(Value::Array(candidates)) = value.get("candidates") {
        for (k, candidate) in candidates.iter().enumerate() {
            if let Some(content) = candidate.get("content").and_then(Value::as_object) {
                contents.push((format!("/candidates/{k}/content"), content));
            }
        }
    }
    for (at, content) in contents {
        for (i, part) in blocks(content, "parts") {
            let Some((key, response)) = ["functionResponse", "function_response"]
                .iter()
                .find_map(|key| part.get(*key).and_then(Value::as_object).map(|r| (*key, r)))
            else {
                continue;
            };
            let here = format!("{at}/parts/{i}/{key}");
            if !response.contains_key("name") {
                issues.push(issue(
                    "shape-field",
                    here.clone(),
                    "a functionResponse needs a name",
                ));
            }
            match response.get("response") {
                Some(Value::Object(_)) => {}
                Some(other) => issues.push(issue(
                    "shape-field",
                    format!("{here}/response"),
                    format!(
                        "functionResponse.response must be an object ({{\"output\": …}}), not {}",
                        crate::part::json_kind(other)
                    ),
                )),
                None => issues.push(issue(
                    "shape-field",
                    here.clone(),
                    "a functionResponse needs a response object",
                )),
            }
            if let Some(Value::Array(parts)) = response.get("parts") {
                for (j, inner) in parts.iter().enumerate() {
                    let blob = inner.as_object().is_some_and(|inner| {
                        ["inlineData", "inline_data", "fileData", "file_data"]
                            .iter()
                            .any(|k| inner.contains_key(*k))
                    });
                    if !blob {
                        issues.push(issue(
                            "shape-field",
                            format!("{here}/parts/{j}"),
                            "a functionResponse part carries inlineData or fileData only (text belongs in response)",
                        ));
                    }
                }
            }
        }
    }
}

/// The raw rules: the fields of every functionResponse.
pub fn check(value: &Value) -> Vec<Issue> {
    let mut issues = Vec::new();
    gemini(value, &mut issues);
    issues
}
