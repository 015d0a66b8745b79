//! Finding media in a document (`scan`): OpenAI Chat `image_url`,
//! `input_audio` and `file` parts.

use crate::dataurl;
use crate::json::Json;
use crate::scan::{ext_type, format_type, push, push_data_url, string, Found, Payload, Verdict};

/// An OpenAI Chat media part (`input_audio` is spelled alike in Responses,
/// hence its kind `openai input_audio`).
pub(crate) fn recognize<'j>(
    value: &'j Json<'j>,
    pointer: &str,
    found: &mut Vec<Found<'j>>,
) -> Verdict {
    match string(value, "type") {
        Some("image_url") => image_url(value, pointer, found),
        Some("input_audio") => input_audio(value, pointer, found),
        Some("file")
            if value
                .get("file")
                .is_some_and(|f| matches!(f, Json::Object(_))) =>
        {
            file(value, pointer, found)
        }
        _ => Verdict::Other,
    }
}

fn image_url<'j>(value: &'j Json<'j>, pointer: &str, found: &mut Vec<Found<'j>>) -> Verdict {
    const KIND: &str = "openai-chat image_url";
    let url = value
        .get("image_url")
        .and_then(|u| string(u, "url").or_else(|| u.as_str()));
    match url {
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
        None => Verdict::Empty,
    }
}

fn input_audio<'j>(value: &'j Json<'j>, pointer: &str, found: &mut Vec<Found<'j>>) -> Verdict {
    let Some(audio) = value.get("input_audio") else {
        return Verdict::Empty;
    };
    let format = string(audio, "format");
    let Some(data) = string(audio, "data") else {
        return Verdict::Empty;
    };
    push(
        found,
        pointer,
        "openai input_audio",
        format,
        format.and_then(|f| format_type("audio", f)),
        Payload::Base64(data),
        None,
    )
}

fn file<'j>(value: &'j Json<'j>, pointer: &str, found: &mut Vec<Found<'j>>) -> Verdict {
    const KIND: &str = "openai-chat file";
    let file = value.get("file").unwrap_or(&Json::Null);
    let name = string(file, "filename");
    match string(file, "file_data") {
        Some(data) if dataurl::is_data_url(data) => {
            push_data_url(data, pointer.to_string(), KIND, name, found);
            Verdict::Media
        }
        Some(data) => push(
            found,
            pointer,
            KIND,
            None,
            None,
            Payload::Base64(data),
            name,
        ),
        None => match string(file, "file_id") {
            Some(id) => push(found, pointer, KIND, None, None, Payload::Url(id), name),
            None => Verdict::Empty,
        },
    }
}
