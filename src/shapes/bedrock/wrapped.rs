//! Converse blocks that wrap content the model reads: `guardContent` (text
//! or an image a guardrail assesses, in messages and in the system prompt)
//! and `searchResult` (the passages of a search, in messages and in tool
//! results). Each is read as the part it holds, so every other shape gets
//! the text or the image; what only Converse has (a guard's `qualifiers`, a
//! search result's `source` and `title`) is kept under a dotted name, which
//! other shapes name when they drop it, and a `$` hint gives Converse the
//! wrapper back exactly.

use serde_json::{Map, Value};

use super::read::read_block;
use crate::contract::ext::{add_hint, Mine, Own};
use crate::contract::ConvertError;
use crate::json::{Node, Object, Reading, View};
use crate::part::Part;
use crate::shapes::kit::put;
use crate::shapes::{lengths_of, split_joined, Shape};
use crate::transcript::{Block, Extensions};

const SHAPE: Shape = Shape::Bedrock;

/// Separates the passages of a search result in the text other shapes get.
const PASSAGE_SEPARATOR: &str = "\n";

/// Reads a `guardContent` block: its text, with the inner object's key order
/// (`$guardContent`) and its other fields (`guardContent.qualifiers`) kept; or
/// its image, read as an `image` block is, marked `$guardContent: "image"`.
/// `None` for a form this reader does not know (kept opaque).
pub(super) fn read_guard<N: Node>(
    guard: &N,
    at: &str,
    reading: &Reading,
) -> Result<Option<Block>, ConvertError> {
    let Some((kind, inner)) = guard
        .as_object()
        .filter(|guard| guard.len() == 1)
        .and_then(|guard| guard.members().next())
    else {
        return Ok(None);
    };
    match (kind, inner.view()) {
        ("text", View::Object(inner)) => {
            let Some(text) = inner.get("text").and_then(Node::as_str) else {
                return Ok(None);
            };
            let mut own = Own::new();
            let keys: Vec<Value> = inner.members().map(|(key, _)| Value::from(key)).collect();
            own.hint("guardContent", Value::Array(keys));
            for (key, value) in inner.members().filter(|(key, _)| *key != "text") {
                own.keep(&format!("guardContent.{key}"), value);
            }
            let mut extensions = Extensions::new();
            own.store(&mut extensions, SHAPE);
            Ok(Some(Block::Part {
                part: Part::Text(text.to_string()),
                extensions,
            }))
        }
        ("image", View::Object(_)) => {
            // Read as an `image` block is: `read_block` takes a whole block,
            // so one is made around the image (as a `Value`).
            let mut image = Map::new();
            image.insert("image".into(), inner.to_value());
            match read_block(
                &Value::Object(image),
                &format!("{at}/guardContent"),
                reading,
            )? {
                Block::Part {
                    part: part @ Part::Media(_),
                    mut extensions,
                } => {
                    add_hint(&mut extensions, SHAPE, "guardContent", Value::from("image"));
                    Ok(Some(Block::Part { part, extensions }))
                }
                _ => Ok(None),
            }
        }
        _ => Ok(None),
    }
}

/// Reads a `searchResult` block: its passages as one text (one per line),
/// with their lengths and the inner object's key order (`$searchResult`),
/// and its other fields (`searchResult.source`, `.title`, `.citations`)
/// kept. `None` for a form this reader does not know (kept opaque).
pub(super) fn read_search_result<N: Node>(result: &N) -> Option<Block> {
    let inner = result.as_object()?;
    let passages: Vec<&str> = inner
        .get("content")?
        .as_array()?
        .iter()
        .map(|passage| match passage.as_object() {
            Some(passage) if passage.len() == 1 => passage.get("text")?.as_str(),
            _ => None,
        })
        .collect::<Option<_>>()?;
    let mut own = Own::new();
    let keys: Vec<Value> = inner.members().map(|(key, _)| Value::from(key)).collect();
    let mut hint = Map::new();
    hint.insert("keys".into(), Value::Array(keys));
    hint.insert("content".into(), lengths_of(&passages));
    own.hint("searchResult", Value::Object(hint));
    for (key, value) in inner.members().filter(|(key, _)| *key != "content") {
        own.keep(&format!("searchResult.{key}"), value);
    }
    let mut extensions = Extensions::new();
    own.store(&mut extensions, SHAPE);
    Some(Block::Part {
        part: Part::Text(passages.join(PASSAGE_SEPARATOR)),
        extensions,
    })
}

/// A text a Converse input had in a `guardContent` or `searchResult` block,
/// written as that block again; `None` for any other text.
pub(super) fn write_text(text: &str, mine: Mine<'_>) -> Option<Value> {
    if let Some(Value::Array(keys)) = mine.hint("guardContent") {
        let inner = rebuild(keys, "guardContent", mine, |key| {
            (key == "text").then(|| Value::from(text))
        });
        return Some(wrap("guardContent", wrap("text", inner)));
    }
    let Some(Value::Object(hint)) = mine.hint("searchResult") else {
        return None;
    };
    let keys = hint.get("keys").and_then(Value::as_array)?;
    let lengths = hint.get("content").and_then(Value::as_array)?;
    let inner = rebuild(keys, "searchResult", mine, |key| {
        (key == "content").then(|| passages(text, lengths))
    });
    Some(wrap("searchResult", inner))
}

/// An image a Converse input had in a `guardContent` block, written (as an
/// `image` block) into that block again; any other block as it is.
pub(super) fn wrap_image(value: Value, mine: Mine<'_>) -> Value {
    if mine.hint_str("guardContent") == Some("image") && value.get("image").is_some() {
        wrap("guardContent", value)
    } else {
        value
    }
}

/// A wrapper's inner object in the key order the input had: the content
/// (`content(key)`), and the fields kept as `<wrapper>.<key>`.
fn rebuild(
    keys: &[Value],
    wrapper: &str,
    mine: Mine<'_>,
    content: impl Fn(&str) -> Option<Value>,
) -> Value {
    let mut inner = Map::new();
    for key in keys.iter().filter_map(Value::as_str) {
        let value = content(key).or_else(|| mine.field(&format!("{wrapper}.{key}")).cloned());
        if let Some(value) = value {
            put(&mut inner, key, value);
        }
    }
    Value::Object(inner)
}

/// The passages of a search result again, from their lengths; a text that no
/// longer fits them is one passage.
fn passages(text: &str, lengths: &[Value]) -> Value {
    let pieces = split_joined(text, lengths, PASSAGE_SEPARATOR).unwrap_or_else(|| vec![text]);
    Value::Array(
        pieces
            .into_iter()
            .map(|piece| wrap("text", Value::from(piece)))
            .collect(),
    )
}

fn wrap(key: &str, value: Value) -> Value {
    let mut map = Map::new();
    map.insert(key.to_string(), value);
    Value::Object(map)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn round_trip(block: Value) -> (Part, Extensions, Value) {
        let read = match block.as_object().and_then(|b| b.iter().next()) {
            Some((key, inner)) if key == "guardContent" => {
                read_guard(inner, "", &Reading::default()).unwrap()
            }
            Some((key, inner)) if key == "searchResult" => read_search_result(inner),
            _ => None,
        };
        let Some(Block::Part { part, extensions }) = read else {
            panic!("not read: {block}");
        };
        let mine = Mine::of(&extensions, SHAPE);
        let written = match &part {
            Part::Text(text) => write_text(text, mine).unwrap(),
            Part::Media(_) => wrap_image(
                crate::shapes::bedrock::write_part(&part, crate::shapes::Place::User).unwrap(),
                mine,
            ),
        };
        (part, extensions, written)
    }

    #[test]
    fn guarded_text_is_its_text_and_comes_back_whole() {
        let block = json!({"guardContent": {"text": {"qualifiers": ["query"], "text": "Is it?"}}});
        let (part, extensions, written) = round_trip(block.clone());
        assert_eq!(part, Part::Text("Is it?".into()));
        assert_eq!(
            extensions["bedrock"]["guardContent.qualifiers"],
            json!(["query"])
        );
        assert_eq!(written, block);
        assert_eq!(
            serde_json::to_string(&written).unwrap(),
            serde_json::to_string(&block).unwrap(),
            "key order kept"
        );
    }

    #[test]
    fn a_guarded_image_is_an_image() {
        let block = json!({"guardContent": {"image": {"format": "png", "source": {"bytes": "iVBORw0KGgo="}}}});
        let (part, _, written) = round_trip(block.clone());
        assert!(matches!(part, Part::Media(ref media) if media.mime_type == "image/png"));
        assert_eq!(written, block);
    }

    #[test]
    fn a_search_result_is_its_passages() {
        let block = json!({"searchResult": {"source": "https://example.com/a", "title": "A",
            "content": [{"text": "one"}, {"text": "two"}], "citations": {"enabled": true}}});
        let (part, extensions, written) = round_trip(block.clone());
        assert_eq!(part, Part::Text("one\ntwo".into()));
        assert_eq!(extensions["bedrock"]["searchResult.title"], json!("A"));
        assert_eq!(written, block);
    }

    #[test]
    fn unknown_forms_are_not_read() {
        assert!(read_guard(
            &json!({"text": {"qualifiers": []}}),
            "",
            &Reading::default()
        )
        .unwrap()
        .is_none());
        assert!(read_guard(&json!({"video": {}}), "", &Reading::default())
            .unwrap()
            .is_none());
        assert!(read_search_result(&json!({"content": [{"image": {}}]})).is_none());
    }
}
