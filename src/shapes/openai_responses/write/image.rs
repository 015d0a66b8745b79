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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::contract::convert::ConvertOptions;
    use crate::contract::{Context, Form};
    use crate::part::Part;
    use crate::shapes::openai_responses::{read, write, SHAPE};
    use crate::shapes::Registered;
    use crate::transcript::{Block, Message, Role, Transcript};

    /// Reads `value` as Responses and writes it back, byte for byte.
    fn round_trip(value: &serde_json::Value) -> Transcript {
        let mut context = Context::new(ConvertOptions::default(), SHAPE, SHAPE.dialect());
        let (form, transcript) = read(value, &mut context).expect("read");
        let written = write(&transcript, form, &mut context).expect("write");
        assert_eq!(written.to_string(), value.to_string());
        assert_eq!(context.finish(), Vec::<String>::new());
        transcript
    }

    fn response(output: serde_json::Value) -> serde_json::Value {
        json!({"id": "resp_1", "object": "response", "status": "completed", "model": "gpt-5",
               "output": output})
    }

    #[test]
    fn a_response_with_a_made_image_comes_back_byte_for_byte() {
        let value = response(json!([
            {"id": "rs_1", "type": "reasoning", "summary": []},
            {"id": "ig_1", "type": "image_generation_call", "status": "completed",
             "background": "opaque", "output_format": "webp", "quality": "low",
             "result": "UklGRiQAAABXRUJQVlA4IBgAAAAwAQCdASoBAAEAAwA0JaQAA3AA/vuUAAA=",
             "revised_prompt": "an echidna", "size": "1536x1024", "partial_images": 0},
            {"type": "message", "id": "msg_1", "status": "completed", "role": "assistant",
             "content": [{"type": "output_text", "text": "Here it is.", "annotations": []}]}
        ]));
        let transcript = round_trip(&value);
        let [message] = transcript.messages.as_slice() else {
            panic!("one message: {:?}", transcript.messages)
        };
        assert_eq!(message.role, Role::Assistant);
        assert!(matches!(
            &message.content[1],
            Block::Part { part: Part::Media(media), .. } if media.mime_type == "image/webp"
        ));
    }

    #[test]
    fn items_in_another_order_and_in_an_input_list_come_back() {
        round_trip(&json!([
            {"role": "user", "content": "draw"},
            {"type": "image_generation_call", "result": "iVBORw0KGgo=", "id": "ig_2",
             "status": "completed"},
            {"type": "image_generation_call", "id": "ig_3", "status": "completed",
             "output_format": "png", "result": "iVBORw0KGgo="},
            {"role": "assistant", "content": "done"}
        ]));
    }

    #[test]
    fn an_item_without_its_image_stays_opaque() {
        let value = response(json!([
            {"id": "ig_1", "type": "image_generation_call", "status": "in_progress"},
            {"type": "message", "id": "msg_1", "status": "completed", "role": "assistant",
             "content": [{"type": "output_text", "text": "", "annotations": []}]}
        ]));
        let transcript = round_trip(&value);
        assert!(matches!(
            &transcript.messages[0].content[0],
            Block::Opaque(_)
        ));
    }

    #[test]
    fn an_assistant_image_from_another_shape_is_refused() {
        let image = Part::Media(crate::part::MediaPart {
            kind: crate::media::MediaKind::Image,
            mime_type: "image/png".into(),
            source: crate::part::Source::Data("iVBORw0KGgo=".into()),
            name: None,
        });
        let transcript = Transcript {
            messages: vec![Message::new(
                Role::Assistant,
                vec![Block::Part {
                    part: image,
                    extensions: Default::default(),
                }],
            )],
            ..Transcript::default()
        };
        let mut context = Context::new(
            ConvertOptions::default(),
            crate::shapes::Shape::Gemini,
            SHAPE.dialect(),
        );
        let error = write(&transcript, Form::Response, &mut context).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("assistant messages carry only text"),
            "{error}"
        );
    }
}
