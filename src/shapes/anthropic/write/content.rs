//! Writing canonical blocks as Anthropic content: text, media, tool calls
//! and tool results.

use serde_json::Value;

use super::{is_blank, Spot, BLANK_NOTE, SHAPE};
use crate::contract::ext::Mine;
use crate::contract::pointer;
use crate::contract::{Context, ConvertError};
use crate::json::lent::Lending;
use crate::json::out::{Members, Out};
use crate::part::Part;
use crate::shapes::kit::drop_foreign;
use crate::shapes::{Place, Unsupported};
use crate::transcript::{Arguments, Block, Extensions, ToolCall, ToolResult};

/// Writes a `content`: a string where the input had one (or, where
/// `string_default`, for one plain text part), absent where the input had
/// none, else a list of blocks. `None`: no `content` key.
pub(super) fn write_content(
    blocks: &[Block],
    hint: Option<&str>,
    string_default: bool,
    spot: Spot,
    at: &str,
    context: &mut Context,
) -> Result<Option<Out>, ConvertError> {
    if hint == Some("absent") && blocks.is_empty() {
        return Ok(None);
    }
    // A string where the input had one (even an empty one: it is the input's).
    if let (
        [Block::Part {
            part: Part::Text(text),
            extensions,
        }],
        Some("string"),
    ) = (blocks, hint)
    {
        drop_foreign(extensions, context)?;
        return Ok(Some(Out::Str(text.clone())));
    }
    // What is left out (blocks of other shapes, empty texts) goes first, with
    // its warning or note, so that the form is chosen for what remains.
    let mut kept: Vec<(usize, &Block)> = Vec::with_capacity(blocks.len());
    for (i, block) in blocks.iter().enumerate() {
        if keeps(block, spot, context)? {
            kept.push((i, block));
        }
    }
    if let [(
        _,
        Block::Part {
            part: Part::Text(text),
            extensions,
        },
    )] = kept.as_slice()
    {
        let plain = Mine::of(extensions, SHAPE).is_empty() && !is_blank(text);
        if hint.is_none() && string_default && plain {
            drop_foreign(extensions, context)?;
            return Ok(Some(Out::Str(text.clone())));
        }
    }
    let mut list = Vec::with_capacity(kept.len());
    for (i, block) in kept {
        if let Some(value) = write_block(block, spot, &pointer::item(at, i), context)? {
            list.push(value);
        }
    }
    Ok(Some(Out::Array(list)))
}

/// Whether a block is written at `spot`; a block left out is reported here (a
/// block of another shape as lost, an empty text with a note).
pub(super) fn keeps(
    block: &Block,
    spot: Spot,
    context: &mut Context,
) -> Result<bool, ConvertError> {
    match block {
        Block::Part {
            part: Part::Text(text),
            extensions,
        } if is_blank(text) && Mine::of(extensions, SHAPE).hint("blank").is_none() => {
            drop_foreign(extensions, context)?;
            context.note(BLANK_NOTE);
            Ok(false)
        }
        Block::ToolCall(_) if spot == Spot::Result => {
            context.lose("tool calls inside tool results")?;
            Ok(false)
        }
        Block::ToolResult(_) if spot == Spot::Result => {
            context.lose("tool results inside tool results")?;
            Ok(false)
        }
        Block::Opaque(opaque) if opaque.shape != SHAPE => {
            let kind = crate::shapes::kit::opaque_kind(&opaque.value);
            context.lose(format!("{} {kind} blocks", opaque.shape))?;
            Ok(false)
        }
        _ => Ok(true),
    }
}

/// One block; `None` when it is left out (see [`keeps`]).
pub(super) fn write_block(
    block: &Block,
    spot: Spot,
    at: &str,
    context: &mut Context,
) -> Result<Option<Out>, ConvertError> {
    if !keeps(block, spot, context)? {
        return Ok(None);
    }
    match block {
        // A part is the block the part writer gave, with what was kept put
        // into it.
        Block::Part { part, extensions } => {
            write_part(part, extensions, spot, at, context).map(Some)
        }
        Block::ToolCall(call) => write_call(call, at, context).map(Some),
        Block::ToolResult(result) => write_result(result, at, context).map(Some),
        Block::Opaque(opaque) => Ok(Some(Out::Value(opaque.value.clone()))),
    }
}

/// A system prompt takes text blocks only.
pub(super) fn system_part(part: &Part) -> Result<Out, Unsupported> {
    match part {
        Part::Text(_) => {
            crate::shapes::anthropic::write_part_out(part, Place::User, &Lending::NONE)
        }
        Part::Media(media) => Err(Unsupported::media(
            media,
            SHAPE,
            "the system prompt takes only text",
        )),
    }
}

/// One part, by the unsupported-part policy, with what Anthropic kept of it.
pub(super) fn write_part(
    part: &Part,
    extensions: &Extensions,
    spot: Spot,
    at: &str,
    context: &mut Context,
) -> Result<Out, ConvertError> {
    drop_foreign(extensions, context)?;
    let mine = Mine::of(extensions, SHAPE);
    let lending = context.lending().clone();
    let mut block = match spot {
        Spot::System => context.write_part(part, Place::User, at, system_part)?,
        Spot::Message => context.write_part(part, Place::User, at, |p| {
            crate::shapes::anthropic::write_part_out(p, Place::User, &lending)
        })?,
        Spot::Lifted | Spot::Result => context.write_part(part, Place::ToolResult, at, |p| {
            crate::shapes::anthropic::write_part_out(p, Place::ToolResult, &lending)
        })?,
    };
    let Out::Object(map) = &mut block else {
        return Ok(block);
    };
    let replaced = matches!(part, Part::Media(_))
        && matches!(map.get("type"), Some(Out::Str(kind)) if kind == "text");
    if replaced {
        return Ok(block);
    }
    if let Some(Out::Object(source)) = map.get_mut("source") {
        match mine.hint("media_type") {
            Some(Value::Null) => {
                source.swap_remove("media_type");
            }
            Some(raw) if source.contains_key("media_type") => {
                source.put("media_type", Out::Value(raw.clone()));
            }
            _ => {}
        }
        if let Some(Value::Object(extra)) = mine.hint("source") {
            source.extend_from(extra);
        }
        if let (Some(Value::Array(lengths)), Some(Out::Str(text))) =
            (mine.hint("content"), source.get("data"))
        {
            if let Some(blocks) = crate::shapes::split_joined(text, lengths, "\n") {
                let blocks = blocks
                    .into_iter()
                    .map(|t| Out::object([("type", "text".into()), ("text", t.into())]))
                    .collect();
                source.clear();
                source.put("type", "content");
                source.put("content", Out::Array(blocks));
            }
        }
    }
    mine.restore_into(map);
    Ok(block)
}

pub(super) fn write_call(
    call: &ToolCall,
    at: &str,
    context: &mut Context,
) -> Result<Out, ConvertError> {
    drop_foreign(&call.extensions, context)?;
    let mine = Mine::of(&call.extensions, SHAPE);
    let id = call
        .id
        .as_deref()
        .ok_or_else(|| ConvertError::invalid(at, format!("tool call {} has no id", call.name)))?;
    let input = match (&call.arguments, mine.hint_str("input")) {
        (Arguments::Value(Value::Object(map)), Some("absent")) if map.is_empty() => None,
        (Arguments::Value(value @ Value::Object(_)), _) => Some(value.clone()),
        (Arguments::Value(value), Some("value")) => Some(value.clone()),
        (Arguments::Value(value), _) => {
            return Err(ConvertError::invalid(
                at,
                format!(
                    "tool call {} ({id}): its arguments are {}, and an Anthropic tool_use input must be an object",
                    call.name,
                    crate::part::json_kind(value)
                ),
            ))
        }
        (Arguments::Raw(_), _) => {
            return Err(ConvertError::invalid(
                at,
                format!(
                    "tool call {} ({id}): its arguments are not JSON (kept as a string), and an Anthropic tool_use input must be an object",
                    call.name
                ),
            ))
        }
    };
    let mut map = Members::with_capacity(4);
    map.put("type", "tool_use");
    map.put("id", id);
    map.put("name", call.name.as_str());
    if let Some(input) = input {
        map.put("input", input);
    }
    mine.restore_into(&mut map);
    Ok(Out::Object(map))
}

/// One `tool_result` block. No empty text block: an image-only result has no
/// text block at all.
pub(super) fn write_result(
    result: &ToolResult,
    at: &str,
    context: &mut Context,
) -> Result<Out, ConvertError> {
    drop_foreign(&result.extensions, context)?;
    let mine = Mine::of(&result.extensions, SHAPE);
    let id = result.call_id.as_deref().ok_or_else(|| {
        ConvertError::invalid(
            at,
            "a tool result without a call id cannot be an Anthropic tool_result (for a single tool result, pass --call-id)",
        )
    })?;
    let mut map = Members::with_capacity(4);
    map.put("type", "tool_result");
    map.put("tool_use_id", id);
    if let Some(content) = write_content(
        &result.content,
        mine.hint_str("content"),
        false,
        Spot::Result,
        &pointer::member(at, "content"),
        context,
    )? {
        map.put("content", content);
    }
    if result.is_error {
        map.put("is_error", true);
    } else if mine.hint("is_error") == Some(&Value::Bool(false)) {
        map.put("is_error", false);
    }
    mine.restore_into(&mut map);
    Ok(Out::Object(map))
}
