//! The shape-independent steps between reading and writing: results of
//! server-held turns delivered as text (`history`), ids for calls that have
//! none, and media lifted out of tool results for targets (or gateways) that
//! cannot carry it there.

use std::collections::HashSet;

use crate::part::Part;
use crate::shapes::Registered;
use crate::shapes::Shape;
use crate::transcript::{moved_result_label, Block, Message, Role, Transcript, MEDIA_MOVED_TEXT};

use super::{Context, ConvertError, ConvertOptions, ToolMedia};

/// Prepares a transcript read from `context.source` for `context.target`.
pub fn for_target(
    mut transcript: Transcript,
    context: &mut Context,
) -> Result<Transcript, ConvertError> {
    let facts = context.target.dialect().conversion();
    super::history::deliver_earlier_results(&mut transcript, context)?;
    if facts.needs_call_ids {
        assign_ids(&mut transcript, context);
    }
    if facts.refuses_empty_messages {
        leave_out_empties(&mut transcript, context)?;
    }
    if facts.text_files_as_text {
        text_files_as_text(&mut transcript, context);
    }
    let lift = !facts.tool_results_carry_media
        || (context.options.tool_media == ToolMedia::Lift && facts.lifts_tool_media_on_request);
    if lift {
        lift_tool_media(&mut transcript);
    }
    Ok(transcript)
}

/// Marks the messages of a document of `source` that are empty or hold an
/// empty text part (`$empty`), so that writing `source` again gives them
/// back as they were while other shapes leave the empties out
/// (`leave_out_empties`).
pub fn mark_empties(transcript: &mut Transcript, source: Shape) {
    for message in &mut transcript.messages {
        if message.role == Role::Tool {
            continue;
        }
        let empty_text = message
            .content
            .iter()
            .any(|block| matches!(block.as_part(), Some(Part::Text(text)) if text.is_empty()));
        if message.content.is_empty() || empty_text {
            super::ext::add_hint(&mut message.extensions, source, "empty", true.into());
        }
    }
}

/// Empty text parts, and messages left with nothing in them, carry nothing,
/// and most shapes refuse them (Anthropic and Bedrock an empty content list,
/// Gemini a Content without parts, Responses an empty assistant message): they
/// are left out, said in one note — unless the target wrote them itself (its
/// own extensions are on them), so that A -> canonical -> A stays exact. A
/// message that holds only blocks of another shape the target has no place
/// for (a Responses turn that is one `reasoning` or `item_reference` item)
/// would be written empty: it is left out too, its blocks named in the
/// dropped-content warning as the writer names them.
fn leave_out_empties(
    transcript: &mut Transcript,
    context: &mut Context,
) -> Result<(), ConvertError> {
    let target = context.target;
    let carries_opaque = target.dialect().conversion().carries_opaque_blocks;
    let foreign = |block: &Block| matches!(block, Block::Opaque(opaque) if !carries_opaque && opaque.shape != target);
    let mut left_out = 0usize;
    let mut lost: Vec<Block> = Vec::new();
    transcript.messages.retain_mut(|message| {
        if message.extensions.contains_key(target.name()) {
            return true;
        }
        if message.role == Role::Tool {
            // A tool message of only such blocks (a Responses
            // `custom_tool_call_output`) is left out too; other empties stay.
            if message.content.is_empty() || !message.content.iter().all(foreign) {
                return true;
            }
        }
        message.content.retain(|block| {
            !matches!(block, Block::Part { part: Part::Text(text), extensions }
                if text.is_empty() && !extensions.contains_key(target.name()))
        });
        let keep = !message.content.iter().all(foreign);
        if !keep {
            lost.append(&mut message.content);
        }
        left_out += usize::from(!keep);
        keep
    });
    for block in &lost {
        crate::shapes::kit::lose_block(block, context)?;
    }
    if left_out > 0 {
        context.note(format!(
            "left out {left_out} empty message{}: {} refuses messages with no content",
            if left_out == 1 { "" } else { "s" },
            context.target
        ));
    }
    Ok(())
}

/// A target whose file parts take only PDF (Chat Completions'): a text file
/// is text a model reads as well in a text part, so it is delivered so,
/// introduced by its name (`File notes.txt (text/plain):`), wherever it stands.
fn text_files_as_text(transcript: &mut Transcript, context: &mut Context) {
    let mut delivered = Vec::new();
    let lending = context.lending().clone();
    let mut convert = |block: &mut Block| {
        let Block::Part {
            part: Part::Media(media),
            ..
        } = block
        else {
            return;
        };
        let textual = media.mime_type.starts_with("text/")
            || matches!(
                media.mime_type.as_str(),
                "application/json" | "application/xml"
            );
        let crate::part::Source::Data(data) = &media.source else {
            return;
        };
        if !textual || media.kind != crate::media::MediaKind::File {
            return;
        }
        let Some(text) = lending
            .with_resolved(data, crate::b64::decode_strict)
            .ok()
            .and_then(|b| String::from_utf8(b).ok())
        else {
            return;
        };
        let label = match &media.name {
            Some(name) => format!("File {name} ({}):", media.mime_type),
            None => format!("File ({}):", media.mime_type),
        };
        if !delivered.contains(&media.mime_type) {
            delivered.push(media.mime_type.clone());
        }
        *block = Block::text(format!("{label}\n{text}"));
    };
    for message in &mut transcript.messages {
        for block in &mut message.content {
            if let Block::ToolResult(result) = block {
                result.content.iter_mut().for_each(&mut convert);
            } else {
                convert(block);
            }
        }
    }
    if let Some(system) = &mut transcript.system {
        system.iter_mut().for_each(&mut convert);
    }
    if !delivered.is_empty() {
        context.note(format!(
            "{} files delivered to {} as text parts (its file parts take only PDF)",
            delivered.join(", "),
            context.target
        ));
    }
}

/// Gives every id-less call a deterministic id (`call_1`, `call_2`, … unique in
/// the transcript) and its result the same one: results pair with id-less calls
/// by name and order.
pub fn assign_ids(transcript: &mut Transcript, context: &mut Context) {
    let mut taken: HashSet<String> = HashSet::new();
    for message in &transcript.messages {
        for block in &message.content {
            match block {
                Block::ToolCall(call) => taken.extend(call.id.clone()),
                Block::ToolResult(result) => taken.extend(result.call_id.clone()),
                _ => {}
            }
        }
    }
    let mut counter = 0usize;
    let mut pending: Vec<(String, String)> = Vec::new();
    let mut made = Vec::new();
    for message in &mut transcript.messages {
        for block in &mut message.content {
            match block {
                Block::ToolCall(call) if call.id.is_none() => {
                    let id = loop {
                        counter += 1;
                        let candidate = format!("call_{counter}");
                        if !taken.contains(&candidate) {
                            break candidate;
                        }
                    };
                    taken.insert(id.clone());
                    pending.push((call.name.clone(), id.clone()));
                    made.push(id.clone());
                    call.id = Some(id);
                }
                Block::ToolResult(result) if result.call_id.is_none() => {
                    let at = match &result.name {
                        Some(name) => pending.iter().position(|(n, _)| n == name),
                        None => None,
                    }
                    .or(if pending.is_empty() { None } else { Some(0) });
                    if let Some(at) = at {
                        let (name, id) = pending.remove(at);
                        result.call_id = Some(id);
                        result.name.get_or_insert(name);
                    }
                }
                _ => {}
            }
        }
    }
    if !made.is_empty() {
        context.note(format!(
            "{} tool call{} had no id; made {} (results paired by order)",
            made.len(),
            if made.len() == 1 { "" } else { "s" },
            made.join(", ")
        ));
    }
}

/// Two-message delivery (docs/conversion.md): the tool messages of one turn stay together;
/// each result that carries media keeps its first part when that is text (else
/// a pointer to the next message), and everything after moves, in order, to one
/// user message after the turn's last tool message, introduced per result by
/// `Output of tool <name> (<id>):`, in the order of the calls (results may come
/// back in another order; the model reads the media as answers to its calls).
pub fn lift_tool_media(transcript: &mut Transcript) {
    // Results that do not carry their tool's name (Bedrock's) are labeled
    // with the name of the call they answer; each call's place orders the media.
    let calls: std::collections::HashMap<String, (usize, String)> = transcript
        .messages
        .iter()
        .flat_map(|m| &m.content)
        .filter_map(|b| match b {
            Block::ToolCall(call) => Some((call.id.clone()?, call.name.clone())),
            _ => None,
        })
        .enumerate()
        .map(|(place, (id, name))| (id, (place, name)))
        .collect();
    let mut i = 0;
    while i < transcript.messages.len() {
        if transcript.messages[i].role != Role::Tool {
            i += 1;
            continue;
        }
        let mut end = i;
        while end < transcript.messages.len() && transcript.messages[end].role == Role::Tool {
            end += 1;
        }
        // Per result with media: the place of its call, and the blocks that move.
        let mut groups: Vec<(Option<usize>, Vec<Block>)> = Vec::new();
        for message in &mut transcript.messages[i..end] {
            for block in &mut message.content {
                let Block::ToolResult(result) = block else {
                    continue;
                };
                let has_media = result
                    .content
                    .iter()
                    .any(|b| matches!(b.as_part(), Some(Part::Media(_))));
                if !has_media {
                    continue;
                }
                let first_is_text = matches!(
                    result.content.first().and_then(Block::as_part),
                    Some(Part::Text(_))
                );
                let rest = if first_is_text {
                    result.content.split_off(1)
                } else {
                    std::mem::replace(&mut result.content, vec![Block::text(MEDIA_MOVED_TEXT)])
                };
                let call = result.call_id.as_deref().and_then(|id| calls.get(id));
                let name = result
                    .name
                    .as_deref()
                    .or_else(|| call.map(|(_, name)| name.as_str()));
                let mut group = vec![Block::text(moved_result_label(
                    name,
                    result.call_id.as_deref(),
                ))];
                group.extend(rest);
                groups.push((call.map(|(place, _)| *place), group));
            }
        }
        // Results that cannot all be placed keep the order they came in.
        if groups.iter().all(|(place, _)| place.is_some()) {
            groups.sort_by_key(|(place, _)| *place);
        }
        let moved: Vec<Block> = groups.into_iter().flat_map(|(_, group)| group).collect();
        if !moved.is_empty() {
            let mut message = Message::new(Role::User, moved);
            mark_lifted(&mut message);
            transcript.messages.insert(end, message);
            end += 1;
        }
        i = end;
    }
}

/// Gives a single tool result the call id and tool name asked for
/// (`--call-id`, `--name`) where its own shape carried none.
pub fn identify_result(transcript: &mut Transcript, options: &ConvertOptions) {
    for message in &mut transcript.messages {
        for block in &mut message.content {
            if let Block::ToolResult(result) = block {
                if result.call_id.is_none() {
                    result.call_id.clone_from(&options.call_id);
                }
                if result.name.is_none() {
                    result.name.clone_from(&options.tool_name);
                }
            }
        }
    }
}

/// Marks a user message as holding what came out of tool results: the
/// unsupported-part rule goes by that provenance.
pub fn mark_lifted(message: &mut Message) {
    message.extensions.insert(
        crate::shapes::HUB.name().to_string(),
        serde_json::json!({ "$lifted": true }),
    );
}

pub use crate::contract::ext::is_lifted;
