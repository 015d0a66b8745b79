//! Finding media in a document (`scan`): OpenAI Responses `input_image` and
//! `input_file` parts (its `input_audio` is OpenAI Chat's spelling, found there).

use crate::dataurl;
use crate::json::Json;
use crate::scan::{ext_type, push, push_data_url, string, Found, Payload, Verdict};

/// An OpenAI Responses media part.
pub(crate) fn recognize<'j>(
    value: &'j Json<'j>,
    pointer: &str,
    found: &mut Vec<Found<'j>>,
) -> Verdict {
    match string(value, "type") {
        Some("input_image") => input_image(value, pointer, found),
        Some("input_file") => input_file(value, pointer, found),
        _ => Verdict::Other,
    }
}

fn input_image<'j>(value: &'j Json<'j>, pointer: &str, found: &mut Vec<Found<'j>>) -> Verdict {
    const KIND: &str = "openai-responses input_image";
    match string(value, "image_url") {
        Some(url) if dataurl::is_data_url(url) => {
            push_data_url(url, pointer.to_string(), KIND, None, found);
            Verdict::Media
        }
        Some(url) => push(
            found,
            pointer,
            KIND,
            None,
            ext_type(url),
            Payload::Url(url),
            None,
        ),
        None => match string(value, "file_id") {
            Some(id) => push(found, pointer, KIND, None, None, Payload::Url(id), None),
            None => Verdict::Empty,
        },
    }
}

fn input_file<'j>(value: &'j Json<'j>, pointer: &str, found: &mut Vec<Found<'j>>) -> Verdict {
    const KIND: &str = "openai-responses input_file";
    let name = string(value, "filename");
    match (string(value, "file_data"), string(value, "file_url")) {
        (Some(data), _) if dataurl::is_data_url(data) => {
            push_data_url(data, pointer.to_string(), KIND, name, found);
            Verdict::Media
        }
        (Some(data), _) => push(
            found,
            pointer,
            KIND,
            None,
            None,
            Payload::Base64(data),
            name,
        ),
        (None, Some(url)) => push(
            found,
            pointer,
            KIND,
            None,
            ext_type(url),
            Payload::Url(url),
            name,
        ),
        _ => match string(value, "file_id") {
            Some(id) => push(found, pointer, KIND, None, None, Payload::Url(id), name),
            None => Verdict::Empty,
        },
    }
}
