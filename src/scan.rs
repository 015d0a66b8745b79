//! Finding embedded media in a JSON document of any shape: canonical parts,
//! NeMo Gym `tool_output_images` (and bare `ToolOutputImage` entries), OpenAI
//! Chat and Responses parts, Anthropic sources, Gemini `inlineData`/`fileData`
//! (either casing), Bedrock `source.bytes`/`text`/`s3Location`, MCP
//! image/audio/resource blocks, and bare `data:` URLs inside strings (every one
//! of them in running text). Provider file references (`file_id`) are reported
//! as URL items.
//!
//! Each shape's blocks are recognized in its own folder
//! (`shapes/<shape>/scan.rs`, asked through
//! [`Dialect::recognize_media`](crate::contract::Dialect::recognize_media));
//! this module walks the document, asks the shapes about each object in a
//! fixed order, and finds the data URLs in strings.

use crate::contract::pointer;
use crate::contract::scan::push_data_url;
pub use crate::contract::scan::{blocks_text, Found, Payload, Verdict};
use crate::dataurl;
use crate::json::{pointer_token, Json};
use crate::media;
use crate::shapes::Registered;

/// Finds every media item in a document, in document order.
pub fn find_media<'j>(doc: &'j Json<'j>) -> Vec<Found<'j>> {
    let mut found = Vec::new();
    walk(doc, String::new(), &mut found);
    // MCP content blocks are spelled like canonical parts: in an MCP
    // CallToolResult (a `content` list beside MCP's own fields, or alone; at
    // the root or as a JSON-RPC `result`) they are MCP's.
    let call_tool_result = |value: &Json<'_>| match value {
        Json::Object(members) => {
            let keys: Vec<&str> = members.iter().map(|(k, _)| k.as_ref()).collect();
            keys.contains(&"content")
                && keys.iter().all(|k| {
                    matches!(
                        *k,
                        "content" | "isError" | "structuredContent" | "_meta" | "meta"
                    )
                })
        }
        _ => false,
    };
    let prefix = if call_tool_result(doc) {
        Some("/content/")
    } else if doc.get("jsonrpc").is_some() && doc.get("result").is_some_and(call_tool_result) {
        Some("/result/content/")
    } else {
        None
    };
    if let Some(prefix) = prefix {
        for item in &mut found {
            if item.pointer.starts_with(prefix) {
                item.kind = match item.kind {
                    "canonical image" => "mcp image",
                    "canonical audio" => "mcp audio",
                    other => other,
                };
            }
        }
    }
    found
}

/// Walks one value, asking the shapes about each object (in [`ASKED`] order)
/// and looking for data URLs in each string.
pub(crate) fn walk<'j>(value: &'j Json<'j>, pointer: String, found: &mut Vec<Found<'j>>) {
    match value {
        Json::Object(members) => {
            if recognize(value, &pointer, found) {
                return;
            }
            for (key, item) in members {
                let child = [pointer.as_str(), "/", &pointer_token(key)].concat();
                let walked = crate::shapes::scan_order()
                    .iter()
                    .any(|shape| shape.dialect().scan_member(key, item, &child, found, walk));
                if !walked {
                    walk(item, child, found);
                }
            }
        }
        Json::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                walk(item, pointer::item(&pointer, index), found);
            }
        }
        Json::String(text) => {
            if is_whole_data_url(text) {
                push_data_url(text, pointer, "data URL", None, found);
                return;
            }
            // Every data URL in running text, each once.
            let mut from = 0;
            while let Some((at, _, chars)) = find_data_url(&text[from..]) {
                let start = from + at;
                let payload_start = text[start..].find(',').map_or(start, |c| start + c + 1);
                let end = payload_start + chars;
                push_data_url(
                    &text[start..end],
                    pointer.clone(),
                    "data URL in text",
                    None,
                    found,
                );
                from = end;
            }
        }
        _ => {}
    }
}

/// Whether a whole string is one base64 `data:` URL with a media type (rather
/// than text that starts with one): its payload holds no space or tab. A payload
/// with other non-base64 characters is still the whole string, and is reported
/// as bad base64 rather than cut short.
fn is_whole_data_url(text: &str) -> bool {
    dataurl::parse(text).is_ok_and(|url| {
        url.base64 && url.media_type.is_some() && !url.payload.trim_end().contains([' ', '\t'])
    })
}

/// Finds a base64 `data:` URL inside text: where it starts, its media type and
/// its payload length (at least 16 characters, so a passing mention is not one).
pub fn find_data_url(text: &str) -> Option<(usize, String, usize)> {
    // Built once: making a searcher costs more than searching a short text,
    // and every string of a document is searched.
    static FINDER: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"data:"));
    let bytes = text.as_bytes();
    // `data:`, a comma and 16 characters of payload at the least.
    if bytes.len() < 22 {
        return None;
    }
    let mut from = 0;
    while let Some(found) = FINDER.find(&bytes[from..]) {
        let start = from + found + 5;
        from = start;
        let window = &bytes[start..bytes.len().min(start + 256)];
        let Some(comma) = window.iter().position(|b| *b == b',') else {
            continue;
        };
        let header = &window[..comma];
        if header.iter().any(|b| b.is_ascii_whitespace() || *b == b'"') {
            continue;
        }
        let header = String::from_utf8_lossy(header);
        let mut fields = header.split(';');
        let media_type = fields.next().unwrap_or("");
        if !fields.any(|f| f.eq_ignore_ascii_case("base64")) {
            continue;
        }
        let Some(media_type) = media::normalize(media_type) else {
            continue;
        };
        let payload = &bytes[start + comma + 1..];
        let chars = payload
            .iter()
            .take_while(|b| {
                b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=' | b'-' | b'_')
            })
            .count();
        if chars >= 16 {
            return Some((start - 5, media_type, chars));
        }
    }
    None
}

/// Recognizes one object as a media block; returns whether it was one.
fn recognize<'j>(value: &'j Json<'j>, pointer: &str, found: &mut Vec<Found<'j>>) -> bool {
    for &shape in crate::shapes::scan_order() {
        match shape.dialect().recognize_media(value, pointer, found) {
            Verdict::Media => return true,
            Verdict::Empty => return false,
            Verdict::Other => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn kinds(text: &str) -> Vec<(String, &'static str, Option<String>)> {
        let doc = json::parse(text.as_bytes()).unwrap();
        find_media(&doc)
            .into_iter()
            .map(|f| (f.pointer, f.kind, f.declared))
            .collect()
    }

    #[test]
    fn finds_data_urls_in_text() {
        let payload = "A".repeat(40);
        let text = format!("see data:image/png;base64,{payload} here");
        assert_eq!(find_data_url(&text), Some((4, "image/png".to_string(), 40)));
        assert_eq!(find_data_url("no data: here, base64 at all"), None);
        assert_eq!(find_data_url("data:image/png;base64,AAAA"), None);
        assert_eq!(find_data_url(&format!("data:text/plain,{payload}")), None);
    }

    #[test]
    fn finds_media_in_every_shape() {
        let text = r#"{
          "tool_output_images": [{"image_url": "data:image/png;base64,iVBORw0KGgo=", "label": "a"}],
          "messages": [
            {"content": [{"type": "image_url", "image_url": {"url": "data:image/jpeg;base64,/9j/4AAQ"}},
                         {"type": "input_audio", "input_audio": {"data": "UklGRg==", "format": "wav"}},
                         {"type": "file", "file": {"filename": "a.pdf", "file_data": "data:application/pdf;base64,JVBERi0="}}]},
            {"content": [{"type": "input_image", "image_url": "https://x/y.png", "detail": "auto"},
                         {"type": "input_file", "file_url": "https://x/y.pdf"}]},
            {"content": [{"type": "image", "source": {"type": "base64", "media_type": "image/gif", "data": "R0lGODlh"}},
                         {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "hi"}}]},
            {"parts": [{"inlineData": {"mimeType": "image/webp", "data": "UklGRg=="}},
                       {"file_data": {"mime_type": "application/pdf", "file_uri": "gs://b/a.pdf"}}]},
            {"content": [{"image": {"format": "jpeg", "source": {"bytes": "/9j/4AAQ"}}},
                         {"document": {"format": "pdf", "name": "r", "source": {"bytes": "JVBERi0="}}}]},
            {"content": [{"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"},
                         {"type": "resource", "resource": {"uri": "file:///a.pdf", "mimeType": "application/pdf", "blob": "JVBERi0="}},
                         {"type": "resource_link", "uri": "https://x/r.pdf", "name": "r.pdf", "mimeType": "application/pdf"}]},
            {"content": "see data:image/png;base64,iVBORw0KGgoAAAANSUhEUg== here"}
          ]}"#;
        let found = kinds(text);
        let names: Vec<&str> = found.iter().map(|(_, k, _)| *k).collect();
        assert_eq!(
            names,
            [
                "nemo-gym tool_output_image",
                "openai-chat image_url",
                "openai input_audio",
                "openai-chat file",
                "openai-responses input_image",
                "openai-responses input_file",
                "anthropic image",
                "anthropic document",
                "gemini inlineData",
                "gemini fileData",
                "bedrock image",
                "bedrock document",
                "canonical image",
                "mcp resource",
                "mcp resource_link",
                "data URL in text",
            ]
        );
        assert_eq!(found[0].0, "/tool_output_images/0");
        assert_eq!(found[2].2.as_deref(), Some("audio/wav"));
        assert_eq!(found[10].0, "/messages/4/content/0/image");
        assert_eq!(found[10].2.as_deref(), Some("image/jpeg"));
        assert_eq!(found[15].0, "/messages/6/content");
    }
}
