//! Findings as one SARIF 2.1.0 log (`--format sarif`), the format code
//! scanning tools read: the tool with every rule, then one result per
//! finding, located by file (relative to the working folder), line and JSON
//! pointer.

use std::path::Path;

use serde_json::{json, Value};

use super::{Finding, Status, RULES};
use crate::validate::Severity;

/// Where the tool's documentation lives (SARIF's `informationUri`).
const INFORMATION_URI: &str = "https://github.com/OWNER/partkit";

/// The log for `findings`; paths under `cwd` are given relative to it.
pub fn log(findings: &[Finding], cwd: &Path) -> Value {
    let rules: Vec<Value> = RULES
        .iter()
        .map(|rule| {
            json!({
                "id": rule.id,
                "shortDescription": {"text": rule.summary},
                "defaultConfiguration": {"level": match rule.severity {
                    Severity::Error => "error",
                    Severity::Warning => "warning",
                }},
            })
        })
        .collect();
    let results: Vec<Value> = findings.iter().map(|f| result(f, cwd)).collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "partkit",
                "version": env!("CARGO_PKG_VERSION"),
                "informationUri": INFORMATION_URI,
                "rules": rules,
            }},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    })
}

fn result(finding: &Finding, cwd: &Path) -> Value {
    let mut location = json!({
        "physicalLocation": {
            "artifactLocation": {"uri": uri(&finding.path, cwd)},
            "region": {"startLine": finding.line},
        },
    });
    // Inside a recording, the interaction and side come first: the pointer
    // is inside that one body.
    let within = finding.within.as_ref().map(|place| place.describe());
    let name = match (&within, finding.pointer.is_empty()) {
        (Some(place), true) => Some(place.clone()),
        (Some(place), false) => Some(format!("{place} {}", finding.pointer)),
        (None, false) => Some(finding.pointer.clone()),
        (None, true) => None,
    };
    if let Some(name) = name {
        location["logicalLocations"] = json!([{
            "fullyQualifiedName": name,
            "kind": "member",
        }]);
    }
    let mut result = json!({
        "ruleId": finding.rule,
        "level": match finding.status {
            Status::Error => "error",
            Status::Warning => "warning",
            Status::Fixed => "note",
        },
        "message": {"text": crate::echo::bound(&finding.message)},
        "locations": [location],
    });
    if let Some(index) = RULES.iter().position(|rule| rule.id == finding.rule) {
        result["ruleIndex"] = json!(index);
    }
    let mut properties = serde_json::Map::new();
    if !finding.pointer.is_empty() {
        properties.insert("pointer".into(), json!(finding.pointer));
    }
    if let Some(place) = &finding.within {
        properties.insert("interaction".into(), json!(place.interaction));
        properties.insert("side".into(), json!(place.side.name()));
        properties.insert("status".into(), json!(place.status));
    }
    if !properties.is_empty() {
        result["properties"] = Value::Object(properties);
    }
    result
}

/// A path as a URI reference: relative to `cwd` when it is under it, else
/// a `file://` URI; every byte outside RFC 3986's unreserved set and `/`
/// percent-encoded.
fn uri(path: &str, cwd: &Path) -> String {
    let given = Path::new(path);
    let absolute = given.is_absolute();
    let shown = match given.strip_prefix(cwd) {
        Ok(relative) if absolute => relative.to_string_lossy().into_owned(),
        _ => path.strip_prefix("./").unwrap_or(path).to_string(),
    };
    let encoded = encode(&shown);
    if Path::new(&shown).is_absolute() {
        format!("file://{encoded}")
    } else {
        encoded
    }
}

fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~/".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_become_uri_references_relative_to_the_working_folder() {
        let cwd = Path::new("/work/repo");
        assert_eq!(uri("/work/repo/fixtures/a.json", cwd), "fixtures/a.json");
        assert_eq!(
            uri("fixtures/café ☕.json", cwd),
            "fixtures/caf%C3%A9%20%E2%98%95.json"
        );
        assert_eq!(uri("./a,b:c%.json", cwd), "a%2Cb%3Ac%25.json");
        assert_eq!(uri("/elsewhere/a.json", cwd), "file:///elsewhere/a.json");
        assert_eq!(uri("<stdin>", cwd), "%3Cstdin%3E");
    }
}
