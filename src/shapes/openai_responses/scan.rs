//! Finding media in a document (`scan`): OpenAI Responses `input_image` and
//! `input_file` parts (its `input_audio` is OpenAI Chat's spelling, found there).

use crate::contract::scan::{string, Found, Verdict};
use crate::json::Json;
use crate::shapes::kit::scan::{by_type, Block, Reader};

/// An OpenAI Responses media part.
pub(crate) fn recognize<'j>(
    value: &'j Json<'j>,
    pointer: &str,
    found: &mut Vec<Found<'j>>,
) -> Verdict {
    let readers: &[(&str, Reader)] = &[("input_image", input_image), ("input_file", input_file)];
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
