//! OpenAI Responses: content parts, and (in `read` and `write`) whole requests,
//! item lists, response objects and `function_call_output` items.

/// What the command line says of this shape.
pub const FACTS: super::Facts = super::Facts {
    document: "OpenAI Responses",
    tool_result: Some("A function_call_output item"),
    parts: "OpenAI Responses input parts",
};

/// This shape's side of [`Dialect`](super::Dialect).
#[derive(Debug, Clone, Copy)]
pub struct OpenaiResponses;

impl super::Dialect for OpenaiResponses {
    super::dialect_basics!(OpenaiResponses, write_part);

    fn order(&self) -> super::Order {
        super::Order { scan: 2, ties: 1 }
    }
    super::delegate! {
        recognize_media => scan::recognize,
        detect_document => detect::document,
        detect_evidence => detect::evidence,
        file_reference => conversion::file_reference,
        conversion => conversion::FACTS,
        validate_rules => rules::check,
        validate_facts => rules::FACTS,
        tool_object => rules::tool_object,
        hosted_call => rules::hosted_call,
    }

    fn stream(&self) -> Option<&'static dyn super::StreamAssembler> {
        Some(&stream::STREAM)
    }

    super::reads_trees!();
}

mod acceptance;
mod conversion;
mod detect;
mod image_call;
mod read;
mod scan;
mod stream;

mod rules;
mod write;

pub use read::read;
pub use write::write;

use serde_json::Value;

use super::{check_image_type, object, string, Place, Shape, Unsupported, WEB_IMAGE_TYPES};
use crate::dataurl;
use crate::media::MediaKind;
use crate::part::{Part, Source};
use crate::transcript::Block;

const SHAPE: Shape = Shape::OpenaiResponses;

/// The `detail` partkit writes on message images, where the SDK requires one.
pub const DEFAULT_DETAIL: &str = "auto";

/// Writes one part as a Responses input part. In messages `input_image` always
/// carries `detail` (the SDK requires it there); in `function_call_output` it is
/// optional and left out.
pub fn write_part(part: &Part, place: Place) -> Result<Value, Unsupported> {
    let media = match part {
        Part::Text(text) => {
            return Ok(object([
                ("type", string("input_text")),
                ("text", string(text)),
            ]))
        }
        Part::Media(media) => media,
    };
    match media.kind {
        MediaKind::Image => {
            // A URL whose type nothing tells passes: the server sniffs it.
            check_image_type(media, SHAPE, WEB_IMAGE_TYPES)?;
            let url = match &media.source {
                Source::Data(data) => dataurl::write(&media.mime_type, data),
                Source::Url(url) => url.clone(),
            };
            Ok(match place {
                Place::User => object([
                    ("type", string("input_image")),
                    ("image_url", Value::String(url)),
                    ("detail", string(DEFAULT_DETAIL)),
                ]),
                Place::ToolResult => object([
                    ("type", string("input_image")),
                    ("image_url", Value::String(url)),
                ]),
            })
        }
        MediaKind::Audio => Err(Unsupported::media(
            media,
            SHAPE,
            "Responses input has no audio parts",
        )),
        // input_file is for documents; Responses reads no video.
        MediaKind::File if media.mime_type.starts_with("video/") => Err(Unsupported::media(
            media,
            SHAPE,
            "Responses input has no video parts",
        )),
        MediaKind::File => Ok(match &media.source {
            Source::Data(data) => object([
                ("type", string("input_file")),
                (
                    "filename",
                    string(
                        media
                            .name
                            .as_deref()
                            .unwrap_or(super::openai_chat::DEFAULT_FILENAME),
                    ),
                ),
                (
                    "file_data",
                    Value::String(dataurl::write(&media.mime_type, data)),
                ),
            ]),
            Source::Url(url) => object([("type", string("input_file")), ("file_url", string(url))]),
        }),
    }
}

/// One item of an assistant turn, as the `$items` hint counts them: a message
/// item holding this many blocks, a `function_call`, an item only Responses
/// has (an opaque block), or an `image_generation_call` (an image block).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Entry {
    Message(usize),
    Call,
    Item,
    Image,
}

/// How the blocks of an assistant turn become items.
#[derive(Debug, Clone, PartialEq)]
enum Span {
    /// A message item of these blocks, with the item's hints (from `$items`).
    Message(Vec<usize>, Option<serde_json::Map<String, Value>>),
    Call(usize),
    Item(usize),
    /// An image the model made, written back as its `image_generation_call`.
    Image(usize),
    /// A block Responses has no place for in an assistant turn.
    Lost(usize),
}

/// Whether an opaque block of this type is a content part (inside a message)
/// rather than an item of its own.
fn is_content_type(kind: &str) -> bool {
    matches!(
        kind,
        "input_text" | "output_text" | "input_image" | "input_file" | "input_audio" | "refusal"
    )
}

/// Whether an item of this type answers a call (it joins a tool message)
/// rather than being model output (it joins an assistant turn).
fn is_tool_output_item(kind: &str) -> bool {
    kind.ends_with("_output") || kind == "mcp_approval_response"
}

fn opaque_type(block: &Block) -> Option<&str> {
    match block {
        Block::Opaque(opaque) if opaque.shape == SHAPE => Some(
            opaque
                .value
                .get("type")
                .and_then(Value::as_str)
                .unwrap_or(""),
        ),
        _ => None,
    }
}

/// The default split of an assistant turn: runs of parts are one message item,
/// each call a `function_call`, each Responses-only item itself. Blocks of other
/// shapes do not break a run (they are dropped).
fn default_spans(blocks: &[Block]) -> Vec<Span> {
    let mut spans = Vec::new();
    let mut run: Vec<usize> = Vec::new();
    let flush = |run: &mut Vec<usize>, spans: &mut Vec<Span>| {
        if !run.is_empty() {
            spans.push(Span::Message(std::mem::take(run), None));
        }
    };
    for (i, block) in blocks.iter().enumerate() {
        match (block, opaque_type(block)) {
            _ if image_call::is_generated(block) => {
                flush(&mut run, &mut spans);
                spans.push(Span::Image(i));
            }
            (Block::Part { .. }, _) => run.push(i),
            (_, Some(kind)) if is_content_type(kind) => run.push(i),
            (_, Some(_)) => {
                flush(&mut run, &mut spans);
                spans.push(Span::Item(i));
            }
            (Block::ToolCall(_), _) => {
                flush(&mut run, &mut spans);
                spans.push(Span::Call(i));
            }
            _ => spans.push(Span::Lost(i)),
        }
    }
    flush(&mut run, &mut spans);
    spans
}

/// The default split, as `$items` entries count it.
fn default_layout(blocks: &[Block]) -> Vec<Entry> {
    default_spans(blocks)
        .into_iter()
        .filter_map(|span| match span {
            Span::Message(blocks, _) => Some(Entry::Message(blocks.len())),
            Span::Call(_) => Some(Entry::Call),
            Span::Item(_) => Some(Entry::Item),
            Span::Image(_) => Some(Entry::Image),
            Span::Lost(_) => None,
        })
        .collect()
}

/// The split an `$items` hint describes, when it still fits the blocks.
fn hinted_spans(hint: &Value, blocks: &[Block]) -> Option<Vec<Span>> {
    let mut spans = Vec::new();
    let mut next = 0usize;
    for entry in hint.as_array()? {
        match entry {
            Value::Object(fields) => {
                let n = usize::try_from(fields.get("$blocks")?.as_u64()?).ok()?;
                if n > blocks.len() - next {
                    return None;
                }
                let indices: Vec<usize> = (next..next + n).collect();
                for &i in &indices {
                    let block = blocks.get(i)?;
                    if !matches!(block, Block::Part { .. } | Block::Opaque(_))
                        || image_call::is_generated(block)
                    {
                        return None;
                    }
                }
                let mut fields = fields.clone();
                fields.remove("$blocks");
                spans.push(Span::Message(indices, Some(fields)));
                next += n;
            }
            Value::String(kind) if kind == "function_call" => {
                if !matches!(blocks.get(next)?, Block::ToolCall(_)) {
                    return None;
                }
                spans.push(Span::Call(next));
                next += 1;
            }
            Value::String(kind) if kind == "item" => {
                opaque_type(blocks.get(next)?)?;
                spans.push(Span::Item(next));
                next += 1;
            }
            Value::String(kind) if kind == image_call::KIND => {
                if !image_call::is_generated(blocks.get(next)?) {
                    return None;
                }
                spans.push(Span::Image(next));
                next += 1;
            }
            _ => return None,
        }
    }
    (next == blocks.len()).then_some(spans)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::{Arguments, Opaque, ToolCall};
    use serde_json::json;

    fn call() -> Block {
        Block::ToolCall(ToolCall {
            id: Some("c".into()),
            name: "f".into(),
            arguments: Arguments::Value(json!({})),
            extensions: Default::default(),
        })
    }

    fn item(value: Value, shape: Shape) -> Block {
        Block::Opaque(Opaque { shape, value })
    }

    #[test]
    fn the_default_split_groups_parts_and_passes_foreign_blocks() {
        let blocks = vec![
            item(json!({"type": "reasoning"}), SHAPE),
            Block::text("a"),
            item(json!({"type": "thinking"}), Shape::Anthropic),
            item(json!({"type": "refusal", "refusal": "no"}), SHAPE),
            call(),
            call(),
        ];
        assert_eq!(
            default_spans(&blocks),
            vec![
                Span::Item(0),
                Span::Lost(2),
                Span::Message(vec![1, 3], None),
                Span::Call(4),
                Span::Call(5),
            ]
        );
        assert_eq!(
            default_layout(&blocks),
            vec![Entry::Item, Entry::Message(2), Entry::Call, Entry::Call]
        );
    }

    #[test]
    fn a_hint_that_no_longer_fits_is_ignored() {
        let blocks = vec![Block::text("a"), call()];
        let hint = json!([{"$blocks": 1, "$id": "m"}, "function_call"]);
        assert_eq!(
            hinted_spans(&hint, &blocks),
            Some(vec![
                Span::Message(
                    vec![0],
                    Some(json!({"$id": "m"}).as_object().unwrap().clone())
                ),
                Span::Call(1)
            ])
        );
        assert_eq!(
            hinted_spans(&json!(["function_call", "item"]), &blocks),
            None
        );
        assert_eq!(hinted_spans(&json!([{"$blocks": 1}]), &blocks), None);
        assert_eq!(hinted_spans(&json!([{"$blocks": 3}]), &blocks), None);
        assert_eq!(hinted_spans(&json!([{"$blocks": u64::MAX}]), &blocks), None);
    }
}
