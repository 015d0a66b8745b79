//! Reading MCP `CallToolResult`s (bare, or inside a JSON-RPC response) into the
//! canonical model: one tool result.

use serde_json::{Map, Value};

use super::{order, types};
use crate::contract::ext::Own;
use crate::contract::{Context, ConvertError, Form};
use crate::json::{Node, Object, View};
use crate::media::{self, MediaKind};
use crate::part::{MediaPart, Part, Source};
use crate::shapes::kit::invalid;
use crate::shapes::Shape;
use crate::transcript::{Block, Extensions, Message, Opaque, Role, ToolResult, Transcript};

const SHAPE: Shape = Shape::Mcp;

/// Reads a `CallToolResult` as a single tool result. MCP results carry no call
/// id (the JSON-RPC id correlates them), so the result has none. Reads a
/// `Value` or the borrowed tree.
pub fn read<N: Node>(value: &N, context: &mut Context) -> Result<(Form, Transcript), ConvertError> {
    let map = value
        .as_object()
        .ok_or_else(|| invalid("", "a CallToolResult is an object"))?;
    let mut own = Own::new();
    let (result, base) = match map.get("result").map(Node::view) {
        Some(View::Object(result)) if map.contains_key("jsonrpc") => {
            let envelope: Map<String, Value> = map
                .members()
                .filter(|(key, _)| *key != "result")
                .map(|(key, value)| (key.to_string(), value.to_value()))
                .collect();
            own.hint("jsonrpc", Value::Object(envelope));
            order::record(map, &[], &["result"], "jsonrpcKeys", &mut own);
            (result, "/result")
        }
        _ => (map, ""),
    };
    let content = result
        .get("content")
        .and_then(Node::as_array)
        .ok_or_else(|| {
            invalid(
                &format!("{base}/content"),
                "a CallToolResult needs a content list",
            )
        })?;
    own.keep_unknown(result, &["content", "isError"]);
    order::record(result, &["content", "isError"], &[], "keys", &mut own);
    // A flag that is no boolean is kept as written (validate reports it).
    let is_error = match result.get("isError") {
        Some(flag) => match flag.as_bool() {
            Some(flag) => {
                if !flag {
                    own.hint("isError", false);
                }
                flag
            }
            None => {
                own.keep("isError", flag);
                false
            }
        },
        None => false,
    };
    let blocks = content
        .iter()
        .enumerate()
        .map(|(i, block)| read_block(block, &format!("{base}/content/{i}"), context))
        .collect();
    let mut extensions = Extensions::new();
    own.store(&mut extensions, SHAPE);
    let result = ToolResult {
        call_id: None,
        name: None,
        is_error,
        content: blocks,
        extensions,
    };
    let transcript = Transcript {
        messages: vec![Message::new(Role::Tool, vec![Block::ToolResult(result)])],
        ..Transcript::default()
    };
    Ok((Form::ToolResult, transcript))
}

/// Reads one MCP content block. A block the model has no part for (an
/// unknown type, or a known one missing what makes it one) is carried as it
/// is: MCP gets it back unchanged, another shape drops it with a warning, and
/// `validate` reports the malformed ones.
fn read_block<N: Node>(block: &N, at: &str, context: &mut Context) -> Block {
    let mut own = Own::new();
    let part = block
        .as_object()
        .and_then(|map| read_part(map, at, &mut own, context));
    match part {
        Some(part) => {
            let mut extensions = Extensions::new();
            own.store(&mut extensions, SHAPE);
            Block::Part { part, extensions }
        }
        None => Block::Opaque(Opaque {
            shape: SHAPE,
            value: block.to_value(),
        }),
    }
}

/// The part a block makes, if it makes one: what is left of the block is in
/// `own`.
fn read_part<O: Object>(map: &O, at: &str, own: &mut Own, context: &mut Context) -> Option<Part> {
    let string = |key: &str| map.get(key).and_then(Node::as_str);
    match string("type")? {
        "text" => {
            let text = string("text")?;
            own.keep_unknown(map, &["type", "text"]);
            order::record(map, &["type", "text"], &[], "keys", own);
            Some(Part::Text(text.to_string()))
        }
        kind @ ("image" | "audio") => {
            let data = string("data")?;
            let media_kind = if kind == "image" {
                MediaKind::Image
            } else {
                MediaKind::Audio
            };
            let member = map.get("mimeType");
            let declared = types::read(member, own);
            // Without a type, the bytes say what they are, if they say it.
            let lending = context.lending().clone();
            let sniffed = || {
                lending
                    .with_resolved(data, crate::b64::decode_strict)
                    .ok()
                    .and_then(|bytes| media::sniff(&bytes))
                    .filter(|sniffed| MediaKind::of(sniffed) == media_kind)
            };
            let mime_type = match declared {
                types::Declared::Type(media_type) => media_type,
                types::Declared::Missing => sniffed()?,
                types::Declared::NotAType(written) => {
                    let media_type = sniffed()?;
                    context.note(types::fallback_note(at, &written, &media_type));
                    media_type
                }
            };
            own_fields(map, own, &["type", "data"], member);
            order::record(map, &["type", "data", "mimeType"], &[], "keys", own);
            Some(Part::Media(MediaPart {
                kind: media_kind,
                mime_type,
                source: Source::Data(data.to_string()),
                name: None,
            }))
        }
        "resource" => {
            let resource = map.get("resource")?.as_object()?;
            let part = read_resource(resource, &format!("{at}/resource"), own, context)?;
            own.keep_unknown(map, &["type", "resource"]);
            order::record(map, &["type", "resource"], &[], "keys", own);
            Some(part)
        }
        "resource_link" => {
            let uri = string("uri")?;
            let member = map.get("mimeType");
            let fallback = || {
                media::extension_of_url(uri)
                    .as_deref()
                    .and_then(media::from_extension)
                    .unwrap_or("application/octet-stream")
                    .to_string()
            };
            let mime_type = match types::read(member, own) {
                types::Declared::Type(media_type) => media_type,
                types::Declared::Missing => fallback(),
                types::Declared::NotAType(written) => {
                    let media_type = fallback();
                    context.note(types::fallback_note(at, &written, &media_type));
                    media_type
                }
            };
            let name = match map.get("name").map(Node::view) {
                Some(View::String(name)) => Some(name.to_string()),
                None => {
                    own.hint("name", "absent");
                    None
                }
                // Kept as a field, and written back over the name made up.
                Some(_) => None,
            };
            let mut known = vec!["type", "uri"];
            if name.is_some() {
                known.push("name");
            }
            own_fields(map, own, &known, member);
            let first = ["type", "uri", "name", "mimeType"];
            order::record(map, &first, &[], "keys", own);
            Some(Part::Media(MediaPart {
                kind: MediaKind::of(&mime_type),
                mime_type,
                source: Source::Url(uri.to_string()),
                name,
            }))
        }
        _ => None,
    }
}

/// Keeps the fields of a block the part does not hold: all but `known` and
/// a `mimeType` the type was read from.
fn own_fields<O: Object>(map: &O, own: &mut Own, known: &[&str], member: Option<&O::Node>) {
    let mut known = known.to_vec();
    if types::is_read(member) {
        known.push("mimeType");
    }
    own.keep_unknown(map, &known);
}

/// An embedded resource: a `blob` is the part's data; a `text` resource is
/// carried as its UTF-8 bytes, with a hint to write it back as text. What the
/// part does not hold (a `uri` that is no string, a `text` beside a `blob`,
/// `_meta`) is kept in the `$resource` hint.
fn read_resource<O: Object>(
    resource: &O,
    at: &str,
    own: &mut Own,
    context: &mut Context,
) -> Option<Part> {
    let blob = resource.get("blob").and_then(Node::as_str);
    let text = resource.get("text").and_then(Node::as_str);
    let (data, default_type) = match (blob, text) {
        (Some(blob), _) => {
            let sniffed = context
                .lending()
                .with_resolved(blob, crate::b64::decode_strict)
                .ok()
                .and_then(|bytes| media::sniff(&bytes));
            (
                blob.to_string(),
                sniffed.unwrap_or_else(|| "application/octet-stream".to_string()),
            )
        }
        (None, Some(text)) => {
            own.hint("text", true);
            (
                crate::b64::encode(text.as_bytes()),
                "text/plain".to_string(),
            )
        }
        (None, None) => return None,
    };
    // A `uri` that is no string is kept with the other fields.
    let uri = resource.get("uri").and_then(Node::as_str);
    match (uri, resource.contains_key("uri")) {
        (Some(uri), _) => own.hint("uri", uri),
        (None, false) => own.hint("uri", Value::Null),
        (None, true) => {}
    }
    let member = resource.get("mimeType");
    let mime_type = match types::read(member, own) {
        types::Declared::Type(media_type) => media_type,
        types::Declared::Missing => default_type,
        types::Declared::NotAType(written) => {
            context.note(types::fallback_note(at, &written, &default_type));
            default_type
        }
    };
    let payload_key = if blob.is_some() { "blob" } else { "text" };
    let first = ["uri", "mimeType", payload_key];
    order::record(resource, &first, &[], "resourceKeys", own);
    // What the part and the hints above hold is not kept again.
    let taken = |key: &str| {
        key == payload_key
            || (key == "uri" && uri.is_some())
            || (key == "mimeType" && types::is_read(member))
    };
    let inner: Map<String, Value> = resource
        .members()
        .filter(|(key, _)| !taken(key))
        .map(|(key, value)| (key.to_string(), value.to_value()))
        .collect();
    if !inner.is_empty() {
        own.hint("resource", Value::Object(inner));
    }
    // The resource's own name; else the last segment of its URI.
    let name = match resource.get("name").and_then(Node::as_str) {
        Some(name) if !name.is_empty() => Some(name.to_string()),
        _ => uri
            .unwrap_or("")
            .rsplit('/')
            .next()
            .filter(|n| !n.is_empty())
            .map(crate::dataurl::percent_decode),
    };
    Some(Part::Media(MediaPart {
        kind: MediaKind::of(&mime_type),
        mime_type,
        source: Source::Data(data),
        name,
    }))
}

#[cfg(test)]
mod tests {
    use crate::shapes::Registered;
    use serde_json::json;

    use super::*;
    use crate::contract::convert::ConvertOptions;

    /// Reads a result and writes it back as MCP, checking that it comes
    /// back key for key, in order.
    fn round_trip(value: &Value) -> (Transcript, Value) {
        let mut context = Context::new(ConvertOptions::default(), SHAPE, SHAPE.dialect());
        let (form, transcript) = read(value, &mut context).expect("read");
        let written = super::super::write(&transcript, form, &mut context).expect("write");
        assert_eq!(written.to_string(), value.to_string());
        (transcript, written)
    }

    /// The blocks of the one tool result.
    fn blocks(transcript: &Transcript) -> &[Block] {
        match &transcript.messages[0].content[0] {
            Block::ToolResult(result) => &result.content,
            other => panic!("{other:?}"),
        }
    }

    fn media_type(block: &Block) -> &str {
        match block {
            Block::Part {
                part: Part::Media(media),
                ..
            } => &media.mime_type,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn types_servers_write_read_and_come_back() {
        let result = json!({"content": [
            {"type": "resource", "resource": {"uri": "repo://a/README.md", "mimeType": "text/plain; charset=utf-8", "text": "# a\n"}},
            {"type": "resource", "resource": {"uri": "file:///tmp/a.txt", "mimeType": "text", "text": "a"}},
            {"type": "image", "data": "R0lGODlhAQABAAAAACw=", "mimeType": "IMAGE/GIF"},
            {"type": "resource_link", "uri": "https://x.test/a.pdf", "name": "a.pdf", "mimeType": "not a type"}
        ]});
        let (transcript, written) = round_trip(&result);
        assert_eq!(written, result);
        let types: Vec<&str> = blocks(&transcript).iter().map(media_type).collect();
        // The last falls back on its URL's extension.
        assert_eq!(
            types,
            ["text/plain", "text/plain", "image/gif", "application/pdf"]
        );
    }

    #[test]
    fn optional_fields_stay_absent() {
        let result = json!({"content": [
            {"type": "resource", "resource": {"text": "no uri, no type"}},
            {"type": "resource", "resource": {"uri": "file:///a.bin", "blob": "AAEC"}},
            {"type": "resource_link", "uri": "https://x.test/report"},
            {"type": "image", "data": "R0lGODlhAQABAAAAACw="}
        ]});
        let (transcript, written) = round_trip(&result);
        assert_eq!(written, result);
        let types: Vec<&str> = blocks(&transcript).iter().map(media_type).collect();
        assert_eq!(
            types,
            [
                "text/plain",
                "application/octet-stream",
                "application/octet-stream",
                "image/gif"
            ]
        );
    }

    #[test]
    fn fields_the_model_lacks_pass_through() {
        let result = json!({
            "content": [
                {"type": "text", "text": "hi", "annotations": {"audience": ["user"], "priority": 0.5}, "_meta": {"k": 1}},
                {"type": "resource_link", "uri": "file:///a.md", "name": "a.md", "title": "A", "description": "the a",
                 "mimeType": "text/markdown", "size": 12, "annotations": {"lastModified": "2025-01-01T00:00:00Z"},
                 "icons": [{"src": "https://x.test/i.png"}], "_meta": {"k": 2}},
                {"type": "resource", "resource": {"uri": "file:///b", "mimeType": "text/plain", "text": "b", "_meta": {"k": 3}},
                 "annotations": {"audience": ["assistant"]}}
            ],
            "structuredContent": {"temperature": 22.5},
            "_meta": {"progressToken": 7},
            "isError": false
        });
        let (transcript, written) = round_trip(&result);
        assert_eq!(written, result);
        assert!(blocks(&transcript)
            .iter()
            .all(|block| matches!(block, Block::Part { .. })));
    }

    #[test]
    fn envelopes_and_key_orders_come_back() {
        // The TypeScript SDK writes `result` first; fields in any order.
        let response = json!({"result": {
            "_meta": {"k": 1},
            "isError": false,
            "content": [
                {"text": "hi", "type": "text"},
                {"resource": {"text": "a", "mimeType": "text", "uri": "file:///a"}, "type": "resource"},
                {"mimeType": "image/gif", "type": "image", "data": "R0lGODlhAQABAAAAACw="}
            ]
        }, "jsonrpc": "2.0", "id": 4});
        round_trip(&response);
    }

    #[test]
    fn blocks_it_cannot_model_are_carried_whole() {
        let result = json!({
            "content": [
                {"type": "something_new", "payload": [1, 2]},
                {"type": "text"},
                {"type": "text", "text": null},
                {"type": "image", "mimeType": "image/png"},
                {"type": "audio", "data": "AAAA", "mimeType": "no type"},
                {"type": "resource", "resource": {"uri": "file:///a"}},
                {"type": "resource_link", "name": "no uri"},
                {"no": "type"},
                "a string",
                {"type": "resource", "resource": {"uri": 7, "mimeType": ["text/plain"], "text": "odd fields"}},
                {"type": "resource", "resource": {"uri": "file:///c", "blob": "AAEC", "text": "both"}},
                {"type": "resource_link", "uri": "https://x.test/d", "name": 3, "mimeType": null}
            ],
            "isError": null
        });
        let (transcript, written) = round_trip(&result);
        assert_eq!(written, result);
        let opaque = blocks(&transcript)
            .iter()
            .filter(|block| matches!(block, Block::Opaque(_)))
            .count();
        assert_eq!(opaque, 9);
    }

    #[test]
    fn a_type_that_is_no_type_is_noted() {
        let result = json!({"content": [
            {"type": "resource", "resource": {"uri": "file:///a", "mimeType": "plain", "text": "a"}}
        ]});
        let mut context =
            Context::new(ConvertOptions::default(), SHAPE, Shape::Canonical.dialect());
        let (_, transcript) = read(&result, &mut context).unwrap();
        assert_eq!(media_type(&blocks(&transcript)[0]), "text/plain");
        let notes = context.finish();
        assert!(
            notes
                .iter()
                .any(|note| note.contains("mimeType \"plain\" is not a media type")),
            "{notes:?}"
        );
    }

    /// Results that fail, or whose blocks are carried whole or noted, give
    /// the same transcript, notes and errors from the tree as from a `Value`.
    #[test]
    fn malformed_results_fail_alike() {
        let cases = [
            r#"[{"type": "text", "text": "a list"}]"#,
            r#"{}"#,
            r#"{"content": null}"#,
            r#"{"content": "text"}"#,
            r#"{"jsonrpc": "2.0", "id": 1, "result": {"content": 5}}"#,
            r#"{"jsonrpc": "2.0", "id": 1, "result": 5, "content": []}"#,
            r#"{"result": {"content": []}}"#,
            r#"{"content": [5, "a string", null, {"no": "type"}, {"type": "new", "payload": [1]}]}"#,
            r#"{"content": [{"type": "text"}, {"type": "text", "text": null}, {"type": "image", "mimeType": "image/png"}]}"#,
            r#"{"content": [{"type": "audio", "data": "AAAA", "mimeType": "no type"}, {"type": "image", "data": "R0lGODlhAQABAAAAACw=", "mimeType": "not a type"}]}"#,
            r#"{"content": [{"type": "resource", "resource": {"uri": 7, "mimeType": ["text/plain"], "text": "odd"}}, {"type": "resource", "resource": {"uri": "file:///c", "blob": "AAEC", "text": "both", "_meta": {}}}, {"type": "resource", "resource": 5}]}"#,
            r#"{"content": [{"type": "resource_link", "uri": "https://x.test/d", "name": 3, "mimeType": null}, {"type": "resource_link", "name": "no uri"}, {"type": "resource_link", "uri": "https://x.test/a.pdf", "mimeType": "plain"}]}"#,
            r#"{"content": [], "isError": "yes"}"#,
            r#"{"id": 4, "result": {"_meta": {}, "isError": false, "content": [{"text": "hi", "type": "text"}]}, "jsonrpc": "2.0"}"#,
            r#"{"content": [{"type": "resource", "resource": {"x": 1, "mimeType": "text", "text": "a", "uri": "file:///a/b%20c.txt"}}]}"#,
        ];
        crate::shapes::tree_tests::cases_read_alike(SHAPE, &cases);
    }
}
