//! What the conversion engine needs to know of OpenAI Responses.

use serde_json::Value;

use crate::contract::ConvertFacts;
use crate::contract::Reference;
use crate::shapes::Shape;

pub const FACTS: ConvertFacts = ConvertFacts {
    shared_settings: &["stream"],
    // The writer gives a Chat image's `detail` to the input_image.
    carried_inner_fields: &[(Shape::OpenaiChat, "detail")],
    // A chained request's earlier items are on the server.
    server_history: &["previous_response_id", "conversation"],
    ..ConvertFacts::PROVIDER
};

/// An input image or file naming an uploaded file (`file_id`).
pub fn file_reference(block: &Value) -> Option<(Reference, &str)> {
    let kind = match block.get("type").and_then(Value::as_str)? {
        "input_image" => "image",
        "input_file" => "file",
        _ => return None,
    };
    let id = block.get("file_id").and_then(Value::as_str)?;
    let reference = Reference {
        kind,
        target: format!("openai file {id}"),
    };
    Some((reference, id))
}
