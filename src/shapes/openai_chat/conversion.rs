//! What the conversion engine needs to know of OpenAI Chat Completions.

use serde_json::Value;

use crate::contract::ConvertFacts;
use crate::contract::Reference;

pub const FACTS: ConvertFacts = ConvertFacts {
    // Its file parts take only PDF.
    text_files_as_text: true,
    // A tool message holds text only: media goes in a user message after it.
    tool_results_carry_media: false,
    shared_settings: &["stream"],
    ..ConvertFacts::PROVIDER
};

/// A file part naming an uploaded file (`file.file_id`).
pub fn file_reference(block: &Value) -> Option<(Reference, &str)> {
    let id = block
        .pointer("/file/file_id")
        .and_then(Value::as_str)
        .filter(|_| block.get("type").and_then(Value::as_str) == Some("file"))?;
    let reference = Reference {
        kind: "file",
        target: format!("openai file {id}"),
    };
    Some((reference, id))
}
