//! `data:` URLs (RFC 2397): parsing with parameters, and writing.

use crate::media;

/// A parsed `data:` URL. The payload is borrowed from the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataUrl<'a> {
    /// The media type exactly as written (may be empty).
    pub declared: &'a str,
    /// The normalized media type, when one was declared in a valid form.
    pub media_type: Option<String>,
    /// The `name=` parameter, percent-decoded.
    pub name: Option<String>,
    /// Whether the payload is marked `;base64`.
    pub base64: bool,
    /// Everything after the first comma.
    pub payload: &'a str,
}

/// Why a string is not a usable `data:` URL.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DataUrlError {
    #[error("not a data: URL")]
    NotDataUrl,
    #[error("data: URL has no comma before its payload")]
    NoComma,
}

/// Whether a string starts with the `data:` scheme (case-insensitively).
pub fn is_data_url(text: &str) -> bool {
    text.get(..5)
        .is_some_and(|scheme| scheme.eq_ignore_ascii_case("data:"))
}

/// Whether a string is an `http://` or `https://` URL (case-insensitive scheme).
pub fn is_http_url(text: &str) -> bool {
    let lower = text.get(..8).unwrap_or(text).to_ascii_lowercase();
    lower.starts_with("http://") || lower.starts_with("https://")
}

/// Parses a `data:` URL. Parameters other than `name` and `base64` are accepted and
/// ignored; they are never part of the media type.
pub fn parse(text: &str) -> Result<DataUrl<'_>, DataUrlError> {
    if !is_data_url(text) {
        return Err(DataUrlError::NotDataUrl);
    }
    let rest = &text[5..];
    let (header, payload) = rest.split_once(',').ok_or(DataUrlError::NoComma)?;
    let mut fields = header.split(';');
    let declared = fields.next().unwrap_or("").trim();
    let mut name = None;
    let mut base64 = false;
    for field in fields {
        let field = field.trim();
        if field.eq_ignore_ascii_case("base64") {
            base64 = true;
        } else if let Some((key, value)) = field.split_once('=') {
            if key.trim().eq_ignore_ascii_case("name")
                || key.trim().eq_ignore_ascii_case("filename")
            {
                name = Some(percent_decode(value.trim().trim_matches('"')));
            }
        }
    }
    let media_type = if declared.is_empty() {
        None
    } else {
        media::normalize(declared)
    };
    Ok(DataUrl {
        declared,
        media_type,
        name,
        base64,
        payload,
    })
}

/// Writes a base64 `data:` URL: `data:<media type>;base64,<payload>`.
pub fn write(media_type: &str, base64_payload: &str) -> String {
    let mut url = String::with_capacity(13 + media_type.len() + base64_payload.len());
    url.push_str("data:");
    url.push_str(media_type);
    url.push_str(";base64,");
    url.push_str(base64_payload);
    url
}

/// Decodes `%XX` escapes; invalid escapes are kept as written. Bytes that do not
/// form UTF-8 are replaced.
pub fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = |b: u8| (b as char).to_digit(16);
            if let (Some(high), Some(low)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((high * 16 + low) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_plain_base64_url() {
        let url = parse("data:image/png;base64,iVBORw0KGgo=").unwrap();
        assert_eq!(url.media_type.as_deref(), Some("image/png"));
        assert!(url.base64);
        assert_eq!(url.payload, "iVBORw0KGgo=");
        assert_eq!(url.name, None);
    }

    #[test]
    fn parameters_are_not_part_of_the_media_type() {
        let url = parse("data:image/png;name=a%20b.png;base64,AAAA").unwrap();
        assert_eq!(url.media_type.as_deref(), Some("image/png"));
        assert_eq!(url.name.as_deref(), Some("a b.png"));
        assert!(url.base64);
        let url = parse("DATA:Image/JPG;charset=binary;BASE64,AAAA").unwrap();
        assert_eq!(url.media_type.as_deref(), Some("image/jpeg"));
        assert!(url.base64);
        // A bare family name is read as its default, the spelling kept.
        let url = parse("data:text;base64,YQ==").unwrap();
        assert_eq!(url.media_type.as_deref(), Some("text/plain"));
        assert_eq!(url.declared, "text");
    }

    #[test]
    fn non_base64_and_typeless_urls_are_visible() {
        let url = parse("data:image/svg+xml,%3Csvg%3E").unwrap();
        assert!(!url.base64);
        let url = parse("data:;base64,AAAA").unwrap();
        assert_eq!(url.media_type, None);
        let url = parse("data:,hello").unwrap();
        assert_eq!(url.media_type, None);
        assert!(!url.base64);
    }

    #[test]
    fn rejects_non_data_urls() {
        assert_eq!(parse("https://x/y.png"), Err(DataUrlError::NotDataUrl));
        assert_eq!(parse("data:image/png;base64"), Err(DataUrlError::NoComma));
    }

    #[test]
    fn writes_round_trip() {
        let text = write("image/png", "AAAA");
        assert_eq!(text, "data:image/png;base64,AAAA");
        assert_eq!(parse(&text).unwrap().payload, "AAAA");
    }

    #[test]
    fn percent_decoding() {
        assert_eq!(percent_decode("caf%C3%A9.png"), "café.png");
        assert_eq!(percent_decode("100%"), "100%");
        assert_eq!(percent_decode("%zz"), "%zz");
        assert_eq!(percent_decode("a%2"), "a%2");
    }
}
