//! Where on the page a finding goes. Findings point into the document as
//! recorded; the page draws the canonical form, whose coordinates differ by
//! shape. So a finding is tied to what both sides share: the base64 payload
//! of the media item it is about, or the id of the tool call or result it is
//! about. A finding tied to neither stays at the top of its document.

use std::collections::hash_map::DefaultHasher;
use std::collections::HashSet;
use std::hash::{Hash, Hasher};

use serde_json::Value;

/// What a finding is tied to.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Anchor {
    /// A media item, by a hash of its base64 text.
    Payload(u64),
    /// A tool call or result, by its id.
    Id(String),
}

/// The keys that hold a call's id in some shape, the call-specific ones
/// first (a Responses item has an `id` of its own and a `call_id`).
const ID_KEYS: [&str; 5] = ["call_id", "tool_call_id", "tool_use_id", "toolUseId", "id"];

/// The shortest text taken for a payload (shorter strings are names and types).
const MIN_PAYLOAD: usize = 16;

/// The anchor of a payload string (a data URL's base64 part, or the text).
pub fn payload(text: &str) -> Anchor {
    let base64 = match crate::dataurl::parse(text) {
        Ok(url) if url.base64 => url.payload,
        _ => text,
    };
    let mut hasher = DefaultHasher::new();
    base64.hash(&mut hasher);
    Anchor::Payload(hasher.finish())
}

/// The anchor of the value at `pointer` of `doc`: the nearest payload or id
/// at or above it. `ids` are the call and result ids the page draws (an `id`
/// that is none of them, such as a message's, ties nothing).
pub fn of(doc: &Value, pointer: &str, ids: &HashSet<String>) -> Option<Anchor> {
    let mut at = pointer.to_string();
    loop {
        if let Some(value) = doc.pointer(&at) {
            if let Some(anchor) = here(value, ids) {
                return Some(anchor);
            }
        }
        if at.is_empty() {
            return None;
        }
        // Up one level; the messages themselves tie nothing (their findings
        // are about the turn, drawn at the top).
        at.truncate(at.rfind('/').unwrap_or(0));
        if at.matches('/').count() < 3 {
            return None;
        }
    }
}

fn here(value: &Value, ids: &HashSet<String>) -> Option<Anchor> {
    match value {
        Value::String(text) if looks_like_payload(text) => Some(payload(text)),
        Value::Object(map) => {
            for key in ID_KEYS {
                if let Some(Value::String(id)) = map.get(key) {
                    if ids.contains(id) {
                        return Some(Anchor::Id(id.clone()));
                    }
                }
            }
            find_payload(value, 3).map(payload)
        }
        _ => None,
    }
}

/// A long string of base64 characters, or a base64 data URL.
pub fn looks_like_payload(text: &str) -> bool {
    if text.starts_with("data:") {
        return crate::dataurl::parse(text).is_ok_and(|url| url.base64);
    }
    text.len() >= MIN_PAYLOAD
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=' | b'-' | b'_'))
}

/// The first payload string within `depth` levels below `value`.
fn find_payload(value: &Value, depth: usize) -> Option<&str> {
    match value {
        Value::String(text) if looks_like_payload(text) => Some(text),
        Value::Object(map) if depth > 0 => map.values().find_map(|v| find_payload(v, depth - 1)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn findings_tie_to_payloads_and_call_ids() {
        let doc = json!({"messages": [
            {"role": "user", "content": [
                {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgoAAAANSUhEUg=="}}]},
            {"role": "assistant", "id": "msg_1", "content": [
                {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {"q": 1}}]}]});
        let ids: HashSet<String> = ["toolu_1".to_string()].into();
        let image = of(&doc, "/messages/0/content/0", &ids);
        assert_eq!(image, Some(payload("iVBORw0KGgoAAAANSUhEUg==")));
        assert_eq!(
            of(&doc, "/messages/0/content/0/source/media_type", &ids),
            image
        );
        assert_eq!(
            of(&doc, "/messages/1/content/0/input/q", &ids),
            Some(Anchor::Id("toolu_1".into()))
        );
        // The turn as a whole, and a message's own id, tie nothing.
        assert_eq!(of(&doc, "/messages/1", &ids), None);
        assert_eq!(of(&doc, "", &ids), None);
        // A data URL's payload is the base64 part.
        assert_eq!(
            payload("data:image/png;base64,iVBORw0KGgoAAAANSUhEUg=="),
            image.unwrap()
        );
    }
}
