//! Finding media in a document (`scan`): OpenAI Responses `input_image` and
//! `input_file` parts (its `input_audio` is OpenAI Chat's spelling, found there)
//! and the images `image_generation_call` items hold.

use crate::contract::scan::{push, string, Found, Payload, Verdict};
use crate::json::Json;
use crate::shapes::kit::scan::{by_type, Block, Reader};

/// An OpenAI Responses media part.
pub(crate) fn recognize<'j>(
    value: &'j Json<'j>,
    pointer: &str,
    found: &mut Vec<Found<'j>>,
) -> Verdict {
    let readers: &[(&str, Reader)] = &[
        ("input_image", input_image),
        ("input_file", input_file),
        ("image_generation_call", image_generation_call),
    ];
    by_type(value, pointer, found, readers)
}

fn input_image<'j>(value: &'j Json<'j>, pointer: &str, found: &mut Vec<Found<'j>>) -> Verdict {
    let block = Block::new(pointer, "openai-responses input_image", None);
    match string(value, "image_url") {
        Some(image) => block.url(image, found),
        None => block.file_id(value, found),
    }
}

fn input_file<'j>(value: &'j Json<'j>, pointer: &str, found: &mut Vec<Found<'j>>) -> Verdict {
    let block = Block::new(
        pointer,
        "openai-responses input_file",
        string(value, "filename"),
    );
    // Unlike `file_data`, a `file_url` is never read as a data URL.
    match (string(value, "file_data"), string(value, "file_url")) {
        (Some(bytes), _) => block.data(bytes, found),
        (None, Some(address)) => block.link(address, found),
        _ => block.file_id(value, found),
    }
}

/// The image an `image_generation_call` made: base64 in `result` (the found
/// item points at it), its type the one `output_format` names (`png` when
/// absent, as the API). An item still in progress, or failed, has none.
fn image_generation_call<'j>(
    value: &'j Json<'j>,
    pointer: &str,
    found: &mut Vec<Found<'j>>,
) -> Verdict {
    let Some(data) = string(value, "result") else {
        return Verdict::Empty;
    };
    let format = string(value, "output_format");
    let declared = format!(
        "image/{}",
        format.map_or("png".to_string(), str::to_ascii_lowercase)
    );
    push(
        found,
        &format!("{pointer}/result"),
        "openai-responses image_generation_call",
        format,
        crate::media::normalize(&declared),
        Payload::Base64(data),
        None,
    )
}
