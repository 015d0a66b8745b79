//! Finding media in a document (`scan`): OpenAI Chat `image_url`,
//! `input_audio` and `file` parts.

use crate::contract::scan::{push, string, Found, Payload, Verdict};
use crate::json::Json;
use crate::shapes::kit::scan::{by_type, Block, Reader};

/// An OpenAI Chat media part (`input_audio` is spelled alike in Responses,
/// hence its kind `openai input_audio`).
pub(crate) fn recognize<'j>(
    value: &'j Json<'j>,
    pointer: &str,
    found: &mut Vec<Found<'j>>,
) -> Verdict {
    let readers: &[(&str, Reader)] = &[
        ("image_url", image_url),
        ("input_audio", input_audio),
        ("file", file),
    ];
    by_type(value, pointer, found, readers)
}

fn image_url<'j>(value: &'j Json<'j>, pointer: &str, found: &mut Vec<Found<'j>>) -> Verdict {
    let block = Block::new(pointer, "openai-chat image_url", None);
    match value
        .get("image_url")
        .and_then(|u| string(u, "url").or_else(|| u.as_str()))
    {
        Some(image) => block.url(image, found),
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
        format.and_then(audio_type),
        Payload::Base64(data),
        None,
    )
}

/// A `file` part; one whose `file` is not an object is no media part.
fn file<'j>(value: &'j Json<'j>, pointer: &str, found: &mut Vec<Found<'j>>) -> Verdict {
    let Some(file @ Json::Object(_)) = value.get("file") else {
        return Verdict::Other;
    };
    let block = Block::new(pointer, "openai-chat file", string(file, "filename"));
    match string(file, "file_data") {
        Some(bytes) => block.data(bytes, found),
        None => block.file_id(file, found),
    }
}

/// The media type an `input_audio` format token stands for (`wav`, `mp3`,
/// and the other spellings of their types clients send).
fn audio_type(format: &str) -> Option<String> {
    let media_type = match format {
        "mp3" | "mpeg" | "mpga" => "audio/mpeg",
        "wav" => "audio/wav",
        "m4a" | "mp4" => "audio/mp4",
        "x-aac" => "audio/aac",
        other => return Some(format!("audio/{other}")),
    };
    Some(media_type.to_string())
}
