//! Reading MCP `CallToolResult`s (bare, or inside a JSON-RPC response) into the
//! canonical model: one tool result.

use serde_json::{Map, Value};

use crate::convert::ext::Own;
use crate::convert::{Context, ConvertError, Form};
use crate::media::{self, MediaKind};
use crate::part::{MediaPart, Part, Source};
use crate::shapes::kit::invalid;
use crate::shapes::Shape;
use crate::transcript::{Block, Extensions, Message, Opaque, Role, ToolResult, Transcript};

const SHAPE: Shape = Shape::Mcp;

/// Reads a `CallToolResult` as a single tool result. MCP results carry no call
/// id (the JSON-RPC id correlates them), so the result has none.
pub fn read(value: &Value, _context: &mut Context) -> Result<(Form, Transcript), ConvertError> {
    let map = value
        .as_object()
        .ok_or_else(|| invalid("", "a CallToolResult is an object"))?;
    let mut own = Own::new();
    let (result, base) = match map.get("result") {
        Some(Value::Object(result)) if map.contains_key("jsonrpc") => {
            let mut envelope = map.clone();
            envelope.remove("result");
            own.hint("jsonrpc", Value::Object(envelope));
            (result, "/result")
        }
        _ => (map, ""),
    };
    let content = result
        .get("content")
        .and_then(Value::as_array)
        .ok_or_else(|| {
            invalid(
                &format!("{base}/content"),
                "a CallToolResult needs a content list",
            )
        })?;
    own.keep_unknown(result, &["content", "isError"]);
    let is_error = match result.get("isError") {
        Some(Value::Bool(flag)) => {
            if !flag {
                own.hint("isError", false);
            }
            *flag
        }
        Some(other) => {
            return Err(invalid(
                &format!("{base}/isError"),
                format!("isError must be a boolean, not {other}"),
            ))
        }
        None => false,
    };
    let blocks = content
        .iter()
        .enumerate()
        .map(|(i, block)| read_block(block, &format!("{base}/content/{i}")))
        .collect::<Result<Vec<_>, _>>()?;
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

/// Reads one MCP content block. (Long: one arm per block type, each a
/// few lines; the list of types reads best in one place.)
fn read_block(block: &Value, at: &str) -> Result<Block, ConvertError> {
    let map = crate::shapes::kit::object_at(block, at, "a content block is an object")?;
    let mut own = Own::new();
    let string = |key: &str| map.get(key).and_then(Value::as_str);
    let part = match string("type") {
        Some("text") => {
            own.keep_unknown(map, &["type", "text"]);
            Part::Text(
                string("text")
                    .ok_or_else(|| invalid(&format!("{at}/text"), "a text block needs text"))?
                    .to_string(),
            )
        }
        Some(kind @ ("image" | "audio")) => {
            own.keep_unknown(map, &["type", "data", "mimeType"]);
            let data = string("data").ok_or_else(|| {
                invalid(&format!("{at}/data"), format!("an {kind} block needs data"))
            })?;
            let mime_type = declared(string("mimeType"), &format!("{at}/mimeType"))?;
            Part::Media(MediaPart {
                kind: if kind == "image" {
                    MediaKind::Image
                } else {
                    MediaKind::Audio
                },
                mime_type,
                source: Source::Data(data.to_string()),
                name: None,
            })
        }
        Some("resource") => {
            let resource = map
                .get("resource")
                .and_then(Value::as_object)
                .ok_or_else(|| {
                    invalid(
                        &format!("{at}/resource"),
                        "a resource block needs a resource",
                    )
                })?;
            own.keep_unknown(map, &["type", "resource"]);
            read_resource(resource, at, &mut own)?
        }
        Some("resource_link") => {
            own.keep_unknown(map, &["type", "uri", "name", "mimeType"]);
            let uri = string("uri")
                .ok_or_else(|| invalid(&format!("{at}/uri"), "a resource_link needs a uri"))?;
            let mime_type = match string("mimeType") {
                Some(declared_type) => declared(Some(declared_type), &format!("{at}/mimeType"))?,
                None => {
                    own.hint("mimeType", "absent");
                    media::extension_of_url(uri)
                        .as_deref()
                        .and_then(media::from_extension)
                        .unwrap_or("application/octet-stream")
                        .to_string()
                }
            };
            let name = string("name");
            if name.is_none() {
                own.hint("name", "absent");
            }
            Part::Media(MediaPart {
                kind: MediaKind::of(&mime_type),
                mime_type,
                source: Source::Url(uri.to_string()),
                name: name.map(str::to_string),
            })
        }
        _ => {
            return Ok(Block::Opaque(Opaque {
                shape: SHAPE,
                value: block.clone(),
            }))
        }
    };
    let mut extensions = Extensions::new();
    own.store(&mut extensions, SHAPE);
    Ok(Block::Part { part, extensions })
}

/// An embedded resource: a `blob` is the part's data; a `text` resource is
/// carried as its UTF-8 bytes, with a hint to write it back as text.
fn read_resource(
    resource: &Map<String, Value>,
    at: &str,
    own: &mut Own,
) -> Result<Part, ConvertError> {
    let uri = resource.get("uri").and_then(Value::as_str).unwrap_or("");
    own.hint("uri", uri);
    let mut inner = resource.clone();
    for key in ["uri", "mimeType", "blob", "text"] {
        inner.remove(key);
    }
    if !inner.is_empty() {
        own.hint("resource", Value::Object(inner));
    }
    let declared_type = resource.get("mimeType").and_then(Value::as_str);
    if declared_type.is_none() {
        own.hint("mimeType", "absent");
    }
    let (data, default_type) = match (
        resource.get("blob").and_then(Value::as_str),
        resource.get("text").and_then(Value::as_str),
    ) {
        (Some(blob), _) => {
            let sniffed = crate::b64::decode_strict(blob)
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
        _ => {
            return Err(invalid(
                &format!("{at}/resource"),
                "a resource needs a blob or a text",
            ))
        }
    };
    let mime_type = match declared_type {
        Some(declared_type) => declared(Some(declared_type), &format!("{at}/resource/mimeType"))?,
        None => default_type,
    };
    // The resource's own name; else the last segment of its URI.
    let name = match resource.get("name").and_then(Value::as_str) {
        Some(name) if !name.is_empty() => Some(name.to_string()),
        _ => uri
            .rsplit('/')
            .next()
            .filter(|n| !n.is_empty())
            .map(crate::dataurl::percent_decode),
    };
    Ok(Part::Media(MediaPart {
        kind: MediaKind::of(&mime_type),
        mime_type,
        source: Source::Data(data),
        name,
    }))
}

fn declared(declared: Option<&str>, at: &str) -> Result<String, ConvertError> {
    let declared = declared.ok_or_else(|| invalid(at, "a mimeType is required"))?;
    let normalized = media::normalize(declared).ok_or_else(|| {
        invalid(
            at,
            format!(
                "{declared} is not a media type",
                declared = crate::echo::quoted(declared)
            ),
        )
    })?;
    if normalized != declared {
        return Err(invalid(
            at,
            format!("media type {declared} is not in normalized form ({normalized}); run partkit validate --fix", declared = crate::echo::quoted(declared)),
        ));
    }
    Ok(normalized)
}
