//! What the conversion engine needs to know of Anthropic Messages.

use serde_json::Value;

use crate::contract::ConvertFacts;
use crate::contract::Reference;

pub const FACTS: ConvertFacts = ConvertFacts {
    // `stream` is spelled as OpenAI spells it.
    shared_settings: &["stream"],
    ..ConvertFacts::PROVIDER
};

/// An image or document whose source is a Files API `file_id`.
pub fn file_reference(block: &Value) -> Option<(Reference, &str)> {
    let str_at = |pointer: &str| block.pointer(pointer).and_then(Value::as_str);
    let kind = match str_at("/type")? {
        "image" => "image",
        "document" => "file",
        _ => return None,
    };
    let id = str_at("/source/file_id").filter(|_| str_at("/source/type") == Some("file"))?;
    let reference = Reference {
        kind,
        target: format!("anthropic file {id}"),
    };
    Some((reference, id))
}
