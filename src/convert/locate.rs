//! Pointers of the canonical model mapped back into the input document, so
//! that a conversion's errors name the input's own coordinates
//! (`/contents/0/parts/1`, not `/messages/0/content/1`).

use serde_json::Value;

use crate::json::pointer_token;
use crate::part::{Part, Source};
use crate::transcript::{Block, Transcript};

/// Where the media part at `pointer` of the canonical transcript stands in the
/// source document: the list item holding its payload.
pub fn part(value: &Value, transcript: &Transcript, pointer: &str) -> Option<String> {
    let mut tokens = pointer.split('/').skip(1);
    let (Some("messages"), Some(m), Some("content"), Some(b)) =
        (tokens.next(), tokens.next(), tokens.next(), tokens.next())
    else {
        return None;
    };
    let mut block = transcript
        .messages
        .get(m.parse::<usize>().ok()?)?
        .content
        .get(b.parse::<usize>().ok()?)?;
    if let Block::ToolResult(result) = block {
        let (Some("content"), Some(i)) = (tokens.next(), tokens.next()) else {
            return None;
        };
        block = result.content.get(i.parse::<usize>().ok()?)?;
    }
    let payload = match block {
        Block::Part {
            part: Part::Media(media),
            ..
        } => match &media.source {
            Source::Data(data) | Source::Url(data) => data.as_str(),
        },
        Block::Opaque(opaque) => super::references::needle(opaque)?,
        _ => return None,
    };
    fn walk(value: &Value, pointer: &mut String, item: &str, payload: &str) -> Option<String> {
        match value {
            Value::String(text) if text == payload || text.ends_with(&format!(",{payload}")) => {
                Some(item.to_string())
            }
            Value::Object(map) => map.iter().find_map(|(key, child)| {
                let len = pointer.len();
                pointer.push('/');
                pointer.push_str(&pointer_token(key));
                let found = walk(child, pointer, item, payload);
                pointer.truncate(len);
                found
            }),
            Value::Array(items) => items.iter().enumerate().find_map(|(index, child)| {
                let len = pointer.len();
                pointer.push_str(&format!("/{index}"));
                let here = pointer.clone();
                let found = walk(child, pointer, &here, payload);
                pointer.truncate(len);
                found
            }),
            _ => None,
        }
    }
    walk(value, &mut String::new(), "", payload).filter(|p| !p.is_empty())
}
