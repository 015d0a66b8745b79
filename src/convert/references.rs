//! File references: media a provider holds in its own store (an Anthropic
//! Files API `file_id`, a Responses `file_id`, a Bedrock `s3Location`). They are
//! kept as the source shape's own blocks, since no other provider can open them;
//! written to another shape they follow the unsupported-part policy like any
//! part it cannot carry: in a tool result they become a placeholder text that
//! names the reference (a result never comes out empty), attached by a user
//! they are an error unless `--on-unsupported text` asks for the placeholder.

use super::{Context, ConvertError, OnUnsupported};
pub use crate::contract::Reference;
use crate::shapes::Registered;
use crate::shapes::Unsupported;
use crate::transcript::{Block, Opaque, Role, Transcript};

/// The media reference an opaque block holds, if it is one (as its shape
/// reads its own blocks, [`Dialect::file_reference`](crate::shapes::Dialect::file_reference)).
pub fn reference(opaque: &Opaque) -> Option<Reference> {
    let (found, _) = opaque.shape.dialect().file_reference(&opaque.value)?;
    Some(found)
}

/// The string that names a reference in its document (the file id, the S3
/// URI), for finding the block again.
pub fn needle(opaque: &Opaque) -> Option<&str> {
    let (_, needle) = opaque.shape.dialect().file_reference(&opaque.value)?;
    Some(needle)
}

/// Replaces the references of other shapes by the policy (see the module).
pub fn for_target(transcript: &mut Transcript, context: &mut Context) -> Result<(), ConvertError> {
    let target = context.target;
    if target.dialect().conversion().carries_opaque_blocks {
        return Ok(());
    }
    for (m, message) in transcript.messages.iter_mut().enumerate() {
        let attached = message.role != Role::Tool && !super::prepare::is_lifted(message);
        for (b, block) in message.content.iter_mut().enumerate() {
            match block {
                Block::ToolResult(result) => {
                    for inner in &mut result.content {
                        replace(inner, false, (m, b), context)?;
                    }
                }
                other => replace(other, attached, (m, b), context)?,
            }
        }
    }
    Ok(())
}

/// Replaces one block, if it is a reference; `(message, block)` are its
/// indexes, spelled as a pointer only for an error (most blocks are not
/// references, and a pointer made for each cost small documents time).
fn replace(
    block: &mut Block,
    attached: bool,
    (message, index): (usize, usize),
    context: &mut Context,
) -> Result<(), ConvertError> {
    let Block::Opaque(opaque) = block else {
        return Ok(());
    };
    if opaque.shape == context.target {
        return Ok(());
    }
    let Some(found) = reference(opaque) else {
        return Ok(());
    };
    let policy = context.options.on_unsupported.unwrap_or(if attached {
        OnUnsupported::Error
    } else {
        OnUnsupported::Text
    });
    if policy == OnUnsupported::Error {
        return Err(ConvertError::Unsupported {
            pointer: format!("/messages/{message}/content/{index}"),
            unsupported: Unsupported {
                part_type: found.kind,
                mime_type: None,
                shape: context.target,
                reason: format!(
                    "{} is a reference into another provider's file store, which {} cannot open",
                    found.target, context.target
                ),
            },
        });
    }
    context.note(format!(
        "{} file references cannot be carried by {}; replaced by a placeholder text naming them",
        opaque.shape, context.target
    ));
    *block = Block::text(found.placeholder());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shapes::Shape;
    use serde_json::json;
    use serde_json::Value;

    fn found(shape: Shape, value: Value) -> Option<String> {
        reference(&Opaque { shape, value }).map(|r| r.placeholder())
    }

    #[test]
    fn references_are_named_by_what_they_point_at() {
        let anthropic = json!({"type": "image", "source": {"type": "file", "file_id": "file_01"}});
        assert_eq!(
            found(Shape::Anthropic, anthropic).as_deref(),
            Some("[unsupported image part (anthropic file file_01)]")
        );
        let responses = json!({"type": "input_file", "file_id": "file-abc"});
        assert_eq!(
            found(Shape::OpenaiResponses, responses).as_deref(),
            Some("[unsupported file part (openai file file-abc)]")
        );
        let bedrock =
            json!({"image": {"format": "png", "source": {"s3Location": {"uri": "s3://b/k.png"}}}});
        assert_eq!(
            found(Shape::Bedrock, bedrock).as_deref(),
            Some("[unsupported image part (s3://b/k.png)]")
        );
        // Other opaque blocks are not references.
        let thinking = json!({"type": "thinking", "thinking": "…", "signature": "s"});
        assert_eq!(found(Shape::Anthropic, thinking), None);
    }
}
