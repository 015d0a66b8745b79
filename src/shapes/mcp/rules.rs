//! What `validate` asks of MCP documents. The reader carries a malformed
//! block as it is rather than refusing the result, so the faults it passes
//! over are reported here: a known block missing what makes it one, an
//! `isError` that is no boolean, a `mimeType` that is no media type. The
//! spelling of a type that reads is the media checks' business where they
//! see the bytes (`image`, `audio`, a resource's `blob`); a text resource
//! and a resource link are checked here.

use crate::contract::rules::{issue, CallIds, Issue, ValidateFacts};
use crate::json::{Node, Object};
use crate::media;
use crate::part::json_kind;

/// A `CallToolResult` carries no call id.
pub const FACTS: ValidateFacts = ValidateFacts {
    ids: CallIds {
        in_results: false,
        ..ValidateFacts::DEFAULT.ids
    },
    ..ValidateFacts::DEFAULT
};

/// The findings on a `CallToolResult` (bare, or a JSON-RPC response's `result`).
pub fn check<N: Node>(value: &N) -> Vec<Issue> {
    let mut issues = Vec::new();
    let (result, base) = match value.get("result").and_then(Node::as_object) {
        Some(result) if value.get("jsonrpc").is_some() => (result, "/result"),
        _ => match value.as_object() {
            Some(map) => (map, ""),
            None => return issues,
        },
    };
    if let Some(flag) = result
        .get("isError")
        .filter(|flag| flag.as_bool().is_none())
    {
        issues.push(issue(
            "shape-field",
            format!("{base}/isError"),
            format!("isError must be a boolean, not {}", json_kind(flag)),
        ));
    }
    let Some(content) = result.get("content").and_then(Node::as_array) else {
        return issues;
    };
    for (i, block) in content.iter().enumerate() {
        let at = format!("{base}/content/{i}");
        match block.as_object() {
            Some(map) => check_block(map, &at, &mut issues),
            None => issues.push(issue(
                "shape-field",
                at,
                format!("a content block is an object, not {}", json_kind(block)),
            )),
        }
    }
    issues
}

/// One content block: what its type needs.
fn check_block<O: Object>(map: &O, at: &str, issues: &mut Vec<Issue>) {
    let mut needs = |key: &str, what: &str| {
        if !map.get(key).is_some_and(Node::is_string) {
            issues.push(issue(
                "shape-field",
                format!("{at}/{key}"),
                what.to_string(),
            ));
        }
    };
    match map.get("type").and_then(Node::as_str) {
        Some("text") => needs("text", "a text block needs text (a string)"),
        Some(kind @ ("image" | "audio")) => {
            needs("data", &format!("an {kind} block needs data (base64)"));
            // Required here, and checked against the bytes by the media checks.
            match map.get("mimeType") {
                None => issues.push(issue(
                    "shape-field",
                    format!("{at}/mimeType"),
                    format!("an {kind} block needs a mimeType"),
                )),
                Some(member) => declared_type(member, &format!("{at}/mimeType"), false, issues),
            }
        }
        Some("resource") => match map.get("resource").and_then(Node::as_object) {
            Some(resource) => {
                let blob = resource.get("blob").is_some_and(Node::is_string);
                let text = resource.get("text").is_some_and(Node::is_string);
                if !blob && !text {
                    issues.push(issue(
                        "shape-field",
                        format!("{at}/resource"),
                        "a resource needs a blob or a text (a string)",
                    ));
                }
                if let Some(member) = resource.get("mimeType") {
                    let spelling = !blob && text;
                    declared_type(member, &format!("{at}/resource/mimeType"), spelling, issues);
                }
            }
            _ => issues.push(issue(
                "shape-field",
                format!("{at}/resource"),
                "a resource block needs a resource (an object)",
            )),
        },
        Some("resource_link") => {
            needs("uri", "a resource_link needs a uri (a string)");
            if let Some(member) = map.get("mimeType") {
                declared_type(member, &format!("{at}/mimeType"), true, issues);
            }
        }
        _ => {}
    }
}

/// A declared `mimeType`: an error when it is no media type; with
/// `spelling`, the warning for a type written other than in normalized form.
fn declared_type<N: Node>(member: &N, at: &str, spelling: bool, issues: &mut Vec<Issue>) {
    let Some(written) = member.as_str() else {
        issues.push(issue(
            "shape-field",
            at.to_string(),
            format!("mimeType must be a string, not {}", json_kind(member)),
        ));
        return;
    };
    match media::read(written) {
        None => issues.push(issue(
            "shape-field",
            at.to_string(),
            format!(
                "mimeType {} is not a media type",
                crate::echo::quoted(written)
            ),
        )),
        Some(reading) if spelling && reading.departure.is_some() => issues.push(issue(
            "media-type-alias",
            at.to_string(),
            media::departure_message(written, &reading),
        )),
        Some(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use super::*;

    fn findings(value: Value) -> Vec<(&'static str, String)> {
        check(&value)
            .into_iter()
            .map(|issue| (issue.rule, issue.pointer))
            .collect()
    }

    #[test]
    fn malformed_blocks_are_findings() {
        let result = json!({"isError": "yes", "content": [
            "loose text",
            {"type": "text"},
            {"type": "image", "data": "AAAA"},
            {"type": "audio", "mimeType": "audio/wav"},
            {"type": "resource"},
            {"type": "resource", "resource": {"uri": "file:///a"}},
            {"type": "resource_link", "name": "a"},
            {"type": "something_new", "anything": 1}
        ]});
        assert_eq!(
            findings(result),
            [
                ("shape-field", "/isError".to_string()),
                ("shape-field", "/content/0".to_string()),
                ("shape-field", "/content/1/text".to_string()),
                ("shape-field", "/content/2/mimeType".to_string()),
                ("shape-field", "/content/3/data".to_string()),
                ("shape-field", "/content/4/resource".to_string()),
                ("shape-field", "/content/5/resource".to_string()),
                ("shape-field", "/content/6/uri".to_string()),
            ]
        );
    }

    #[test]
    fn types_are_read_liberally() {
        let text = |mime: &str| {
            json!({"jsonrpc": "2.0", "id": 1, "result": {"content": [
                {"type": "resource", "resource": {"uri": "file:///a", "mimeType": mime, "text": "a"}}
            ]}})
        };
        assert_eq!(findings(text("text/plain; charset=utf-8")), []);
        assert_eq!(
            findings(text("text")),
            [(
                "media-type-alias",
                "/result/content/0/resource/mimeType".to_string()
            )]
        );
        assert_eq!(
            findings(text("plain text")),
            [(
                "shape-field",
                "/result/content/0/resource/mimeType".to_string()
            )]
        );
        // A blob's spelling is the media checks' (they see its bytes).
        let blob = json!({"content": [
            {"type": "resource", "resource": {"uri": "file:///a", "mimeType": "text", "blob": "YQ=="}},
            {"type": "resource_link", "uri": "https://x.test/a.png", "name": "a", "mimeType": "IMAGE/PNG"}
        ]});
        assert_eq!(
            findings(blob),
            [("media-type-alias", "/content/1/mimeType".to_string())]
        );
    }
}
