//! What the conversion engine needs to know of Bedrock Converse.

use serde_json::Value;

use crate::contract::ConvertFacts;
use crate::contract::Reference;

pub const FACTS: ConvertFacts = ConvertFacts {
    // Streaming is `ConverseStream`, another endpoint.
    streams_by_endpoint: true,
    ..ConvertFacts::PROVIDER
};

/// A media block whose source is an `s3Location`, named by its URI.
pub fn file_reference(block: &Value) -> Option<(Reference, &str)> {
    [
        ("image", "image"),
        ("document", "file"),
        ("video", "video"),
        ("audio", "audio"),
    ]
    .into_iter()
    .find_map(|(key, kind)| {
        let uri = block
            .get(key)?
            .pointer("/source/s3Location/uri")?
            .as_str()?;
        let reference = Reference {
            kind,
            target: uri.to_string(),
        };
        Some((reference, uri))
    })
}
