//! NeMo Gym tool replies: `tool_output_images` entries (`ToolOutputImage`).

use serde_json::{Map, Value};

use super::{check_image_type, Place, Shape, Unsupported, WEB_IMAGE_TYPES};
use crate::dataurl;
use crate::media::MediaKind;
use crate::part::{Part, Source};

const SHAPE: Shape = Shape::NemoGym;

/// The key of the image list in a tool reply.
pub const TOOL_OUTPUT_IMAGES_KEY: &str = "tool_output_images";

/// Writes an image part as a `ToolOutputImage` entry:
/// `{"image_url": <data URL>, "label": <name>}` (no label when unnamed). Only
/// inline PNG, JPEG, GIF and WebP images can be entries.
pub fn write_part(part: &Part, _place: Place) -> Result<Value, Unsupported> {
    let media = match part {
        Part::Text(_) => {
            return Err(Unsupported {
                part_type: "text",
                mime_type: None,
                shape: SHAPE,
                reason: "tool_output_images holds images only".into(),
            })
        }
        Part::Media(media) => media,
    };
    if media.kind != MediaKind::Image {
        return Err(Unsupported::media(
            media,
            SHAPE,
            "tool_output_images holds images only",
        ));
    }
    check_image_type(media, SHAPE, WEB_IMAGE_TYPES)?;
    let Source::Data(data) = &media.source else {
        return Err(Unsupported::media(
            media,
            SHAPE,
            "a ToolOutputImage must be a base64 data: URL, not a remote URL",
        ));
    };
    let mut entry = Map::new();
    entry.insert(
        "image_url".into(),
        Value::String(dataurl::write(&media.mime_type, data)),
    );
    if let Some(name) = &media.name {
        entry.insert("label".into(), Value::String(name.clone()));
    }
    Ok(Value::Object(entry))
}
