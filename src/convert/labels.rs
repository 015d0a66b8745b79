//! Images whose declared type is not the type of their bytes. Gemini reads
//! the bytes whatever the label and took a JPEG labelled `image/png`;
//! Anthropic refuses one ("Image does not match the provided media type").
//! A conversion writes for a target that does not take such a label the
//! type the bytes have, and says so (docs/acceptance.md); the source's own
//! shape keeps what was written, and so does a conversion to or from
//! canonical (the model carries labels as written).

use super::Context;
use crate::contract::acceptance::{verdict, Form, Verdict};
use crate::json::lent::Lending;
use crate::media::MediaKind;
use crate::part::{Part, Source};
use crate::shapes::Registered;
use crate::transcript::{Block, Transcript};

/// The type an image's bytes have, where it is an image type other than the
/// declared one (and not one the declared type merely refines). Only the
/// payload's head is decoded (read again from the input where it is lent):
/// its first 4 KiB when they tell a PNG, JPEG or GIF, which the usual 64 KiB
/// prefix would tell the same, else that prefix.
fn sniffed_type(data: &str, declared: &str, lending: &Lending) -> Option<String> {
    let mut head = Vec::new();
    crate::check::decode_strict_head(data, &mut head, crate::check::Depth::Header, lending).ok()?;
    let sniffed = crate::media::sniff(&head)?;
    let other = sniffed.starts_with("image/")
        && sniffed != declared
        && !crate::media::refines(&sniffed, declared);
    other.then_some(sniffed)
}

/// Relabels the images of `transcript` by their bytes where the target does
/// not take a declared type the bytes do not have.
pub fn by_bytes(transcript: &mut Transcript, context: &mut Context) {
    let target = context.target;
    let acceptance = target.dialect().validate_facts().acceptance;
    // Canonical on either side carries labels as written: it is the model,
    // which validate checks as it is, and A -> canonical -> A stays exact.
    let model = |shape: crate::shapes::Shape| shape.dialect().conversion().document_is_model;
    if target == context.source
        || model(target)
        || model(context.source)
        || verdict(acceptance, Form::MediaTypeMismatch) == Some(Verdict::Accepts)
    {
        return;
    }
    let mut relabelled: Vec<(String, String)> = Vec::new();
    let lending = context.lending().clone();
    let mut relabel = |block: &mut Block| {
        let Block::Part {
            part: Part::Media(media),
            ..
        } = block
        else {
            return;
        };
        let Source::Data(data) = &media.source else {
            return;
        };
        if media.kind != MediaKind::Image {
            return;
        }
        if let Some(sniffed) = sniffed_type(data, &media.mime_type, &lending) {
            let pair = (media.mime_type.clone(), sniffed.clone());
            if !relabelled.contains(&pair) {
                relabelled.push(pair);
            }
            media.mime_type = sniffed;
        }
    };
    for block in transcript.system.iter_mut().flatten() {
        relabel(block);
    }
    for message in &mut transcript.messages {
        for block in &mut message.content {
            if let Block::ToolResult(result) = block {
                result.content.iter_mut().for_each(&mut relabel);
            } else {
                relabel(block);
            }
        }
    }
    if relabelled.is_empty() {
        return;
    }
    let pairs: Vec<String> = relabelled
        .iter()
        .map(|(declared, sniffed)| format!("{declared} holding {sniffed}"))
        .collect();
    context.note(format!(
        "wrote images with the type of their bytes ({}): {target} refuses a declared type the bytes do not have",
        pairs.join(", ")
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_another_image_type_is_a_relabel() {
        let jpeg =
            crate::b64::encode(&[0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10, b'J', b'F', b'I', b'F', 0]);
        assert_eq!(
            sniffed_type(&jpeg, "image/png", &Lending::NONE).as_deref(),
            Some("image/jpeg")
        );
        assert_eq!(sniffed_type(&jpeg, "image/jpeg", &Lending::NONE), None);
        // Bytes no sniffer names, or too short to tell, keep their label.
        assert_eq!(sniffed_type("AAAA", "image/png", &Lending::NONE), None);
        assert_eq!(sniffed_type("", "image/png", &Lending::NONE), None);
    }
}
