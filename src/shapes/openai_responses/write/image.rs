//! Writing an image read from an `image_generation_call` item back as that
//! item (docs/conversion.md, images the model made).
//!
//! Only such an image: an assistant image from another shape stays an error
//! (`assistant messages carry only text`), since an `image_generation_call`
//! input item stands for a call the provider made and needs its own `ig_…` id,
//! which partkit never makes up.

use serde_json::{Map, Value};

use crate::contract::{Context, ConvertError};
use crate::part::MediaPart;
use crate::shapes::kit::{kept_for, put};
use crate::shapes::openai_responses::image_call::{default_order, FORMATS, KIND};
use crate::shapes::openai_responses::SHAPE;
use crate::transcript::Extensions;

/// The `image_generation_call` item of an image block that carries the
/// `$item` hint (as `image_call::generated` finds it), `data` its base64: its members
/// in the order the input had them.
pub(super) fn image_call_item(
    media: &MediaPart,
    data: &str,
    extensions: &Extensions,
    context: &mut Context,
) -> Result<Value, ConvertError> {
    let mine = kept_for(extensions, SHAPE, context)?;
    let mut members = Map::new();
    if let Some(id) = mine.hint("id") {
        put(&mut members, "id", id.clone());
    }
    put(&mut members, "type", Value::String(KIND.into()));
    if let Some(status) = mine.hint("status") {
        put(&mut members, "status", status.clone());
    }
    if let Some(declared) = mine.hint("output_format") {
        // The media type says it again; an edited type wins.
        let format = FORMATS
            .iter()
            .find(|(_, mime)| *mime == media.mime_type)
            .map_or_else(|| declared.clone(), |(f, _)| Value::String((*f).into()));
        put(&mut members, "output_format", format);
    }
    put(&mut members, "result", Value::String(data.to_string()));
    mine.restore(&mut members);
    let order: Vec<String> = match mine.hint("order").and_then(Value::as_array) {
        // The input's order, while it still names exactly these members.
        Some(keys)
            if keys.len() == members.len()
                && keys
                    .iter()
                    .all(|k| k.as_str().is_some_and(|k| members.contains_key(k))) =>
        {
            keys.iter()
                .filter_map(Value::as_str)
                .map(String::from)
                .collect()
        }
        _ => default_order(members.keys().map(String::as_str))
            .into_iter()
            .map(String::from)
            .collect(),
    };
    let mut item = Map::new();
    for key in order {
        if let Some(value) = members.remove(&key) {
            item.insert(key, value);
        }
    }
    Ok(Value::Object(item))
}
