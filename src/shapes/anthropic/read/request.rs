//! Reading an Anthropic request body and response envelope around their
//! messages.

use serde_json::Value;

use super::tools::{read_tool, read_tool_choice};
use super::{is_blank, Reader, REQUEST_KEYS, SHAPE};
use crate::contract::ext::{says_nothing, Own};
use crate::contract::ConvertError;
use crate::json::{Node, Object, View};
use crate::shapes::kit::{self, invalid, number_or_keep, string_list, string_or_keep};
use crate::transcript::{Block, Message, Role, Transcript};

impl Reader {
    pub(super) fn request<O: Object>(&mut self, map: &O) -> Result<Transcript, ConvertError> {
        let mut transcript = Transcript::default();
        let mut own = Own::new();
        own.keep_unknown(map, REQUEST_KEYS);
        transcript.model = string_or_keep(map, "model", &mut own);
        number_or_keep(map, "max_tokens", &mut transcript.max_tokens, &mut own);
        // temperature and top_p map across shapes, but the writer gives them to
        // Anthropic only when the Anthropic input had them (`$sampling`).
        let mut sampling = Vec::new();
        for key in ["temperature", "top_p"] {
            let Some(value) = map.get(key) else { continue };
            if !value.is_number() {
                own.keep(key, value);
                continue;
            }
            match key {
                "temperature" => transcript.temperature = Some(value.to_value()),
                _ => transcript.top_p = Some(value.to_value()),
            }
            sampling.push(Value::String(key.to_string()));
        }
        if !sampling.is_empty() {
            own.hint("sampling", Value::Array(sampling));
        }
        if let Some(stop) = map.get("stop_sequences") {
            transcript.stop = string_list(stop);
            if transcript.stop.is_none() {
                own.keep("stop_sequences", stop);
            }
        }
        match map.get("system").map(|system| (system, system.view())) {
            // An empty system is no system prompt (kept for this shape only).
            Some((system, _)) if says_nothing(system) => own.keep("system", system),
            Some((_, View::String(text))) => {
                transcript.system = Some(vec![Block::text(text.to_string())]);
                if is_blank(text) {
                    own.hint("system", "string");
                }
            }
            Some((system, View::Array(_))) => {
                let (blocks, hint) = self.content(Some(system), "/system", true, false)?;
                if let Some(hint) = hint {
                    own.hint("system", hint);
                }
                transcript.system = Some(blocks);
            }
            Some((other, _)) => own.keep("system", other),
            None => {}
        }
        transcript.tools = kit::read_tools(map, read_tool)?;
        if let Some(choice) = map.get("tool_choice") {
            match read_tool_choice(choice) {
                Some((choice, extra)) => {
                    transcript.tool_choice = Some(choice);
                    for (key, value) in extra {
                        own.keep(&format!("tool_choice.{key}"), value);
                    }
                }
                None => own.keep("tool_choice", choice),
            }
        }
        match map.get("messages").map(Node::view) {
            Some(View::Array(messages)) => self.messages(messages, "/messages", &mut transcript)?,
            Some(_) => return Err(invalid("/messages", "messages must be a list")),
            None => own.hint("messages", "absent"),
        }
        own.store(&mut transcript.extensions, SHAPE);
        Ok(transcript)
    }

    /// A response: its content is the assistant turn; the rest of the envelope
    /// is kept, with `null` where `content` and `model` stood.
    pub(super) fn response<O: Object>(&mut self, map: &O) -> Result<Transcript, ConvertError> {
        let mut transcript = Transcript::default();
        let mut envelope = map.to_map();
        let mut message_own = Own::new();
        let content = match map.get("content") {
            Some(content) => {
                let (blocks, hint) = self.content(Some(content), "/content", false, false)?;
                if let Some(hint) = hint {
                    message_own.hint("content", hint);
                }
                blocks
            }
            None => Vec::new(),
        };
        if map.contains_key("content") {
            envelope.insert("content".into(), Value::Null);
        }
        if let Some(model) = map.get("model").and_then(Node::as_str) {
            transcript.model = Some(model.to_string());
            envelope.insert("model".into(), Value::Null);
        }
        let mut message = Message::new(Role::Assistant, content);
        message_own.store(&mut message.extensions, SHAPE);
        transcript.messages.push(message);
        let mut own = Own::new();
        own.hint("response", Value::Object(envelope));
        own.store(&mut transcript.extensions, SHAPE);
        Ok(transcript)
    }
}
