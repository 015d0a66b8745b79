//! The canonical part (docs/model.md): the currency of the toolkit.
//!
//! Wire form, keys in this order:
//! `{"type":"text","text":…}` or
//! `{"type":"image"|"file"|"audio","mimeType":…,"data"|"url":…,"name":…}`.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::json::lent::Lending;
use crate::json::Json;
use crate::media::{self, MediaKind};

/// Where a media part's bytes are: inline as canonical base64, or at a URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// Standard padded base64 of the bytes.
    Data(String),
    /// A URL the receiver fetches (`https://…`, `gs://…`, …).
    Url(String),
}

/// An image, file or audio part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MediaPart {
    pub kind: MediaKind,
    /// The normalized media type.
    pub mime_type: String,
    pub source: Source,
    /// A label for people and models, never a path to open.
    pub name: Option<String>,
}

impl MediaPart {
    /// The decoded size of inline data, from its length and padding; `None` for a
    /// URL part or for data whose length is not a multiple of four.
    pub fn decoded_len(&self) -> Option<u64> {
        self.decoded_len_lent(&Lending::NONE)
    }

    /// [`MediaPart::decoded_len`] of a part read from a document that lends
    /// `lending` (its data may be a placeholder).
    pub fn decoded_len_lent(&self, lending: &Lending) -> Option<u64> {
        match &self.source {
            Source::Data(data) => crate::check::decoded_len(data, lending),
            Source::Url(_) => None,
        }
    }

    /// The inline base64 data, if the part has any.
    pub fn data(&self) -> Option<&str> {
        match &self.source {
            Source::Data(data) => Some(data),
            Source::Url(_) => None,
        }
    }

    /// The URL, if the part is one.
    pub fn url(&self) -> Option<&str> {
        match &self.source {
            Source::Url(url) => Some(url),
            Source::Data(_) => None,
        }
    }
}

/// One content part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    Text(String),
    Media(MediaPart),
}

impl Part {
    /// The `type` string of the part.
    pub fn type_name(&self) -> &'static str {
        match self {
            Part::Text(_) => "text",
            Part::Media(media) => media.kind.as_str(),
        }
    }

    /// The canonical wire form, keys in the documented order.
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("type".into(), Value::String(self.type_name().into()));
        match self {
            Part::Text(text) => {
                map.insert("text".into(), Value::String(text.clone()));
            }
            Part::Media(media) => {
                map.insert("mimeType".into(), Value::String(media.mime_type.clone()));
                match &media.source {
                    Source::Data(data) => map.insert("data".into(), Value::String(data.clone())),
                    Source::Url(url) => map.insert("url".into(), Value::String(url.clone())),
                };
                if let Some(name) = &media.name {
                    map.insert("name".into(), Value::String(name.clone()));
                }
            }
        }
        Value::Object(map)
    }

    /// Reads a canonical part, checking its structure (docs/model.md). The content of
    /// `data` is not decoded here; see `validate` for that.
    pub fn from_value(value: &Value) -> Result<Part, PartError> {
        PartView::read(value).map(|view| view.to_part())
    }
}

/// Read access to a JSON value, so that one set of part rules serves both
/// `serde_json::Value` and the borrowed `Json` tree.
pub trait JsonLike {
    fn member(&self, key: &str) -> Option<&Self>;
    fn is_object(&self) -> bool;
    fn string(&self) -> Option<&str>;
    fn is_null(&self) -> bool;
    /// `a string`, `an array`, … for messages.
    fn kind_name(&self) -> &'static str;
}

impl JsonLike for Value {
    fn member(&self, key: &str) -> Option<&Value> {
        self.get(key)
    }
    fn is_object(&self) -> bool {
        self.is_object()
    }
    fn string(&self) -> Option<&str> {
        self.as_str()
    }
    fn is_null(&self) -> bool {
        self.is_null()
    }
    fn kind_name(&self) -> &'static str {
        json_kind(self)
    }
}

impl JsonLike for Json<'_> {
    fn member(&self, key: &str) -> Option<&Self> {
        self.get(key)
    }
    fn is_object(&self) -> bool {
        matches!(self, Json::Object(_))
    }
    fn string(&self) -> Option<&str> {
        self.as_str()
    }
    fn is_null(&self) -> bool {
        matches!(self, Json::Null)
    }
    fn kind_name(&self) -> &'static str {
        self.kind()
    }
}

/// A canonical part read without copying: its strings borrow from the document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PartView<'j> {
    Text(&'j str),
    Media(MediaView<'j>),
}

/// The fields of a media part, borrowed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MediaView<'j> {
    pub kind: MediaKind,
    /// `mimeType` as written.
    pub declared: &'j str,
    /// `mimeType` normalized.
    pub mime_type: String,
    pub data: Option<&'j str>,
    pub url: Option<&'j str>,
    pub name: Option<&'j str>,
}

impl<'j> PartView<'j> {
    /// Reads a canonical part, checking its structure (docs/model.md).
    pub fn read<J: JsonLike>(value: &'j J) -> Result<PartView<'j>, PartError> {
        if !value.is_object() {
            return Err(PartError::new(
                "",
                format!("a part must be an object, not {}", value.kind_name()),
            ));
        }
        let kind = match value.member("type") {
            Some(kind) => match kind.string() {
                Some(kind) => kind,
                None => {
                    return Err(PartError::new(
                        "/type",
                        format!("type must be a string, not {}", kind.kind_name()),
                    ))
                }
            },
            None => return Err(PartError::new("", "missing type")),
        };
        let media_kind = match kind {
            "text" => {
                return match value.member("text") {
                    Some(text) => text.string().map(PartView::Text).ok_or_else(|| {
                        PartError::new(
                            "/text",
                            format!("text must be a string, not {}", text.kind_name()),
                        )
                    }),
                    None => Err(PartError::new("", "text part has no text")),
                };
            }
            "image" => MediaKind::Image,
            "file" => MediaKind::File,
            "audio" => MediaKind::Audio,
            other => {
                return Err(PartError::new(
                    "/type",
                    format!(
                        "unknown part type {other} (expected text, image, file or audio)",
                        other = crate::echo::quoted(other)
                    ),
                ))
            }
        };
        let Some(declared) = optional_string(value, "mimeType")? else {
            return Err(PartError::new("", format!("{kind} part has no mimeType")));
        };
        let mime_type = media::normalize(declared).ok_or_else(|| {
            PartError::new(
                "/mimeType",
                format!(
                    "{declared} is not a media type",
                    declared = crate::echo::quoted(declared)
                ),
            )
        })?;
        let data = optional_string(value, "data")?;
        let url = optional_string(value, "url")?;
        match (data, url) {
            (Some(_), Some(_)) => {
                return Err(PartError::new(
                    "",
                    format!("{kind} part has both data and url"),
                ))
            }
            (None, None) => {
                return Err(PartError::new(
                    "",
                    format!("{kind} part has neither data nor url"),
                ))
            }
            _ => {}
        }
        Ok(PartView::Media(MediaView {
            kind: media_kind,
            declared,
            mime_type,
            data,
            url,
            name: optional_string(value, "name")?,
        }))
    }

    /// An owned part.
    pub fn to_part(&self) -> Part {
        match self {
            PartView::Text(text) => Part::Text((*text).to_string()),
            PartView::Media(media) => Part::Media(MediaPart {
                kind: media.kind,
                mime_type: media.mime_type.clone(),
                source: match (media.data, media.url) {
                    (Some(data), _) => Source::Data(data.to_string()),
                    (None, url) => Source::Url(url.unwrap_or_default().to_string()),
                },
                name: media.name.map(str::to_string),
            }),
        }
    }
}

fn optional_string<'j, J: JsonLike>(
    object: &'j J,
    key: &str,
) -> Result<Option<&'j str>, PartError> {
    match object.member(key) {
        None => Ok(None),
        Some(value) if value.is_null() => Ok(None),
        Some(value) => value.string().map(Some).ok_or_else(|| {
            PartError::new(
                &format!("/{key}"),
                format!("{key} must be a string, not {}", value.kind_name()),
            )
        }),
    }
}

/// A name for the JSON type of a value, for messages.
pub fn json_kind<N: crate::json::Node>(value: &N) -> &'static str {
    use crate::json::View;
    match value.view() {
        View::Null => "null",
        View::Bool(_) => "a boolean",
        View::Number => "a number",
        View::String(_) => "a string",
        View::Array(_) => "an array",
        View::Object(_) => "an object",
    }
}

/// A structural problem with a part, located by a JSON pointer relative to it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct PartError {
    pub pointer: String,
    pub message: String,
}

impl PartError {
    fn new(pointer: &str, message: impl Into<String>) -> PartError {
        PartError {
            pointer: pointer.to_string(),
            message: message.into(),
        }
    }
}

impl Serialize for Part {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_value().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Part {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        Part::from_value(&value).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn image(data: &str) -> Part {
        Part::Media(MediaPart {
            kind: MediaKind::Image,
            mime_type: "image/png".into(),
            source: Source::Data(data.into()),
            name: Some("shot.png".into()),
        })
    }

    #[test]
    fn wire_form_has_the_documented_key_order() {
        let text = serde_json::to_string(&image("iVBORw0KGgo=")).unwrap();
        assert_eq!(
            text,
            r#"{"type":"image","mimeType":"image/png","data":"iVBORw0KGgo=","name":"shot.png"}"#
        );
        let text = serde_json::to_string(&Part::Text("hi".into())).unwrap();
        assert_eq!(text, r#"{"type":"text","text":"hi"}"#);
        let url = Part::Media(MediaPart {
            kind: MediaKind::File,
            mime_type: "application/pdf".into(),
            source: Source::Url("https://example.com/a.pdf".into()),
            name: None,
        });
        assert_eq!(
            serde_json::to_string(&url).unwrap(),
            r#"{"type":"file","mimeType":"application/pdf","url":"https://example.com/a.pdf"}"#
        );
    }

    #[test]
    fn reads_back_what_it_writes() {
        let part = image("iVBORw0KGgo=");
        assert_eq!(Part::from_value(&part.to_value()), Ok(part));
    }

    #[test]
    fn normalizes_the_declared_type_on_read() {
        let part = Part::from_value(&json!({"type":"image","mimeType":"IMAGE/JPG","data":"AAAA"}))
            .unwrap();
        let Part::Media(media) = part else { panic!() };
        assert_eq!(media.mime_type, "image/jpeg");
        assert_eq!(media.decoded_len(), Some(3));
    }

    #[test]
    fn declared_types_are_read_liberally() {
        // Parameters are set aside; a bare `text` is plain text; the view
        // keeps the spelling for validate's warning.
        let charset = json!({"type":"file","mimeType":"text/plain; charset=utf-8","data":"YQ=="});
        let bare = json!({"type":"file","mimeType":"text","data":"YQ=="});
        for value in [&charset, &bare] {
            let Ok(PartView::Media(media)) = PartView::read(value) else {
                panic!("{value}")
            };
            assert_eq!(media.mime_type, "text/plain");
            assert_eq!(Some(media.declared), value["mimeType"].as_str());
        }
    }

    #[test]
    fn structural_errors_are_located() {
        let cases = [
            (json!("text"), "", "a part must be an object, not a string"),
            (json!({}), "", "missing type"),
            (
                json!({"type": 3}),
                "/type",
                "type must be a string, not a number",
            ),
            (
                json!({"type": "video"}),
                "/type",
                "unknown part type \"video\" (expected text, image, file or audio)",
            ),
            (json!({"type": "text"}), "", "text part has no text"),
            (
                json!({"type": "text", "text": 1}),
                "/text",
                "text must be a string, not a number",
            ),
            (
                json!({"type": "image", "data": "AAAA"}),
                "",
                "image part has no mimeType",
            ),
            (
                json!({"type": "image", "mimeType": "png", "data": "AAAA"}),
                "/mimeType",
                "\"png\" is not a media type",
            ),
            (
                json!({"type": "image", "mimeType": "image/png"}),
                "",
                "image part has neither data nor url",
            ),
            (
                json!({"type": "image", "mimeType": "image/png", "data": "AAAA", "url": "https://x"}),
                "",
                "image part has both data and url",
            ),
            (
                json!({"type": "audio", "mimeType": "audio/wav", "data": ["A"]}),
                "/data",
                "data must be a string, not an array",
            ),
        ];
        for (value, pointer, message) in cases {
            let error = Part::from_value(&value).unwrap_err();
            assert_eq!(
                (error.pointer.as_str(), error.message.as_str()),
                (pointer, message),
                "{value}"
            );
        }
    }

    #[test]
    fn null_optional_fields_count_as_absent() {
        let part = Part::from_value(&json!({"type":"file","mimeType":"application/pdf","url":"https://x/a.pdf","data":null,"name":null})).unwrap();
        assert_eq!(part.type_name(), "file");
    }
}
