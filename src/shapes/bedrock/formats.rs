//! Converse's format tokens (`"format": "png"`), the one table of them: the
//! writer picks a block's token from a part's media type, the reader and the
//! scanner read a token back as a media type, the rules check that a token
//! is one Converse knows. Each block kind has its own list, in the order the
//! messages name them.

/// Whether a toolResult's content may hold a media block of this kind
/// (Converse has no audio there).
pub fn in_tool_result(block: &str) -> bool {
    block != "audio"
}

/// A block kind's tokens, each with the media type it stands for.
type Tokens = &'static [(&'static str, &'static str)];

const IMAGE: Tokens = &[
    ("png", "image/png"),
    ("jpeg", "image/jpeg"),
    ("gif", "image/gif"),
    ("webp", "image/webp"),
];

const DOCUMENT: Tokens = &[
    ("pdf", "application/pdf"),
    ("csv", "text/csv"),
    ("doc", "application/msword"),
    (
        "docx",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    ),
    ("xls", "application/vnd.ms-excel"),
    (
        "xlsx",
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    ),
    ("html", "text/html"),
    ("txt", "text/plain"),
    ("md", "text/markdown"),
];

const AUDIO: Tokens = &[
    ("mp3", "audio/mpeg"),
    ("wav", "audio/wav"),
    ("aac", "audio/aac"),
    ("flac", "audio/flac"),
    ("ogg", "audio/ogg"),
    ("m4a", "audio/mp4"),
    ("opus", "audio/opus"),
    ("webm", "audio/webm"),
];

const VIDEO: Tokens = &[
    ("mp4", "video/mp4"),
    ("webm", "video/webm"),
    ("mov", "video/quicktime"),
    ("mkv", "video/x-matroska"),
    ("flv", "video/x-flv"),
    ("mpeg", "video/mpeg"),
    ("wmv", "video/x-ms-wmv"),
    ("three_gp", "video/3gpp"),
];

/// The tokens of a block kind (`image`, `document`, `audio`, `video`); none
/// for any other block.
fn tokens_of(block: &str) -> Tokens {
    match block {
        "image" => IMAGE,
        "document" => DOCUMENT,
        "audio" => AUDIO,
        "video" => VIDEO,
        _ => &[],
    }
}

/// The media type a block's format token stands for (exactly as Converse
/// spells it).
pub fn media_type(block: &str, token: &str) -> Option<&'static str> {
    tokens_of(block)
        .iter()
        .find(|(known, _)| *known == token)
        .map(|(_, media_type)| *media_type)
}

/// The token a block of its kind gives a media type.
pub fn token(block: &str, media_type: &str) -> Option<&'static str> {
    tokens_of(block)
        .iter()
        .find(|(_, known)| *known == media_type)
        .map(|(token, _)| *token)
}

/// Every token of a block kind, in the table's order (for messages).
pub fn tokens(block: &str) -> Vec<&'static str> {
    tokens_of(block).iter().map(|(token, _)| *token).collect()
}

/// The media types of a block kind's tokens.
pub fn media_types(block: &str) -> Vec<&'static str> {
    tokens_of(block)
        .iter()
        .map(|(_, media_type)| *media_type)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_token_reads_back_as_the_type_it_is_written_from() {
        for block in ["image", "document", "audio", "video"] {
            for token_of in tokens(block) {
                let media = media_type(block, token_of).unwrap();
                assert_eq!(token(block, media), Some(token_of), "{block} {token_of}");
            }
        }
        assert_eq!(media_type("video", "three_gp"), Some("video/3gpp"));
        assert_eq!(media_type("image", "jpg"), None);
        assert_eq!(token("audio", "audio/mp4"), Some("m4a"));
        assert!(tokens("text").is_empty());
    }
}
