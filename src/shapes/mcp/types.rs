//! The `mimeType` of MCP blocks and resources. Servers write what they
//! like here: `text/plain; charset=utf-8` (github-mcp-server), the bare
//! `text` (every server built on the Rust SDK's `embedded_text`). The reader
//! takes the type by the general rule ([`media::read`]), keeps the spelling
//! as the `$mimeType` hint so that the block is written back as it came, and
//! falls back on what the block holds when the member is absent or no media
//! type at all; converting to another shape writes the normalized type.

use serde_json::{Map, Value};

use crate::contract::ext::{Mine, Own};
use crate::json::{Node, View};
use crate::media;

/// The hint's value for a block that had no `mimeType`.
const ABSENT: &str = "absent";

/// What a `mimeType` member says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Declared {
    /// A media type (normalized).
    Type(String),
    /// No type: absent, or not a string (which the caller keeps as a field).
    Missing,
    /// A string that is no media type, as written.
    NotAType(String),
}

/// Reads a `mimeType` member, recording how it was written: `absent`, or
/// the spelling when it is not the normalized type.
pub(super) fn read<N: Node>(member: Option<&N>, own: &mut Own) -> Declared {
    match member.map(Node::view) {
        None => {
            own.hint("mimeType", ABSENT);
            Declared::Missing
        }
        Some(View::String(written)) => {
            let normalized = media::normalize(written);
            if normalized.as_deref() != Some(written) {
                own.hint("mimeType", written);
            }
            match normalized {
                Some(media_type) => Declared::Type(media_type),
                None => Declared::NotAType(written.to_string()),
            }
        }
        Some(_) => Declared::Missing,
    }
}

/// Whether a member is one [`read`] takes (a string, or absent); any other
/// value is kept as a field of the block.
pub(super) fn is_read<N: Node>(member: Option<&N>) -> bool {
    member.is_none_or(Node::is_string)
}

/// The message of a conversion note for a type that is no media type.
pub(super) fn fallback_note(at: &str, written: &str, media_type: &str) -> String {
    format!(
        "{at}: mimeType {} is not a media type; read as {media_type}",
        crate::echo::quoted(written)
    )
}

/// Writes `mimeType` into `target` as the block spelled it: removed when it
/// had none, its spelling while the part still has the type read from it
/// (a spelling that is no media type stands for the type read in its place).
pub(super) fn restore(target: &mut Map<String, Value>, part_type: &str, mine: Mine<'_>) {
    match mine.hint_str("mimeType") {
        Some(ABSENT) => {
            target.shift_remove("mimeType");
        }
        Some(written) if media::normalize(written).is_none_or(|read| read == part_type) => {
            target.insert("mimeType".into(), Value::String(written.to_string()));
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::shapes::Shape;
    use crate::transcript::Extensions;

    /// Reads a member and writes it back over the normalized type.
    fn round_trip(member: Option<Value>) -> (Declared, Option<Value>) {
        let mut own = Own::new();
        let declared = read(member.as_ref(), &mut own);
        let mut extensions = Extensions::new();
        own.store(&mut extensions, Shape::Mcp);
        let part_type = match &declared {
            Declared::Type(media_type) => media_type.clone(),
            _ => "application/octet-stream".to_string(),
        };
        let mut target = Map::new();
        target.insert("mimeType".into(), Value::String(part_type.clone()));
        restore(&mut target, &part_type, Mine::of(&extensions, Shape::Mcp));
        (declared, target.get("mimeType").cloned())
    }

    #[test]
    fn spellings_read_liberally_and_write_back() {
        let cases = [
            (json!("text/plain"), Declared::Type("text/plain".into())),
            (
                json!("text/plain; charset=utf-8"),
                Declared::Type("text/plain".into()),
            ),
            (json!("text"), Declared::Type("text/plain".into())),
            (json!("IMAGE/PNG"), Declared::Type("image/png".into())),
            (json!("no type"), Declared::NotAType("no type".into())),
        ];
        for (written, expected) in cases {
            let (declared, back) = round_trip(Some(written.clone()));
            assert_eq!(declared, expected, "{written}");
            assert_eq!(back, Some(written));
        }
        assert_eq!(round_trip(None), (Declared::Missing, None));
    }

    #[test]
    fn a_stale_spelling_gives_way_to_the_parts_type() {
        let mut own = Own::new();
        read(Some(&json!("image/jpg")), &mut own);
        let mut extensions = Extensions::new();
        own.store(&mut extensions, Shape::Mcp);
        let mut target = Map::new();
        target.insert("mimeType".into(), json!("image/png"));
        restore(&mut target, "image/png", Mine::of(&extensions, Shape::Mcp));
        assert_eq!(target["mimeType"], "image/png");
    }
}
