//! The skeleton every document writer shares: which of its methods writes
//! which form, after the one warning for what other shapes kept.

use std::marker::PhantomData;

use serde_json::{Map, Value};

use super::drop_foreign;
use crate::contract::ext::Mine;
use crate::contract::{Context, ConvertError, Form};
use crate::json::out::Members;
use crate::shapes::Shape;
use crate::transcript::{Block, Extensions, Message, Tool, ToolChoice, ToolResult, Transcript};

/// A shape's writer of whole documents, one method a form. [`Forms::write`]
/// is the order every shape follows, written once; a shape overrides a form's
/// method where its documents differ. (Anthropic's writer, which builds the
/// output tree rather than a `Value`, follows the same order in its own
/// `write_out`.)
pub(crate) trait Forms {
    /// The conversion's context (warnings, notes, options).
    fn context(&mut self) -> &mut Context;

    /// A request body.
    fn request(&mut self, transcript: &Transcript) -> Result<Value, ConvertError>;

    /// A bare list of messages (or items, or contents).
    fn messages(&mut self, transcript: &Transcript) -> Result<Value, ConvertError>;

    /// A response: the assistant turn in the shape's envelope.
    fn response(&mut self, transcript: &Transcript) -> Result<Value, ConvertError>;

    /// A single tool result, as the shape delivers one.
    fn tool_result(&mut self, transcript: &Transcript) -> Result<Value, ConvertError>;

    /// Writes `transcript` in `form`: the fields other shapes kept are lost
    /// first (their warnings come before any of the writer's own), then the
    /// form's method writes the document.
    fn write(&mut self, transcript: &Transcript, form: Form) -> Result<Value, ConvertError> {
        drop_foreign(&transcript.extensions, self.context())?;
        match form {
            Form::Request => self.request(transcript),
            Form::Messages => self.messages(transcript),
            Form::Response => self.response(transcript),
            Form::ToolResult => self.tool_result(transcript),
        }
    }
}

/// The documents of a shape that restores what it kept in a transcript
/// (`mine`): one struct for every such shape, `S` (the shape's root type)
/// telling apart whose [`Forms`] it is.
pub(crate) struct Documents<'t, 'c, S> {
    pub(crate) mine: Mine<'t>,
    pub(crate) context: &'c mut Context,
    shape: PhantomData<S>,
}

/// Writes `transcript` in `form` as `shape`'s documents (`S`'s [`Forms`]),
/// with what `shape` kept in the transcript at hand.
pub(crate) fn write_documents<S>(
    transcript: &Transcript,
    form: Form,
    shape: Shape,
    context: &mut Context,
) -> Result<Value, ConvertError>
where
    for<'t, 'c> Documents<'t, 'c, S>: Forms,
{
    let mine = Mine::of(&transcript.extensions, shape);
    let mut documents = Documents {
        mine,
        context,
        shape: PhantomData::<S>,
    };
    documents.write(transcript, form)
}

/// A request object begun with the transcript's model at `key` (where it
/// has one).
pub(crate) fn with_model(transcript: &Transcript, key: &str) -> Map<String, Value> {
    // Room for a request's usual members (a map grown from empty allocates
    // again and rehashes on the way).
    let mut map = Map::with_capacity(8);
    if let Some(model) = &transcript.model {
        super::put(&mut map, key, Value::String(model.clone()));
    }
    map
}

/// [`with_model`] for a writer that builds the output tree.
pub(crate) fn with_model_out(transcript: &Transcript, key: &'static str) -> Members {
    // Room for a request's usual members, as in `with_model`.
    let mut members = Members::with_capacity(8);
    if let Some(model) = &transcript.model {
        members.put(key, model.as_str());
    }
    members
}

/// Puts the transcript's model into a response's kept envelope, in the place
/// its `model` had (`keep_response_envelope` left it there); takes that out
/// when the transcript no longer has a model.
pub(crate) fn put_model(envelope: &mut Map<String, Value>, transcript: &Transcript) {
    match &transcript.model {
        Some(model) => super::put(envelope, "model", Value::String(model.clone())),
        None => {
            if envelope.get("model").is_some_and(Value::is_string) {
                envelope.shift_remove("model");
            }
        }
    }
}

/// Puts a tool choice as both OpenAI shapes spell it: the mode's word, or
/// the tool as `named` spells it.
pub(crate) fn put_function_choice(
    map: &mut Map<String, Value>,
    choice: Option<&ToolChoice>,
    named: impl FnOnce(&str) -> Value,
) {
    let Some(choice) = choice else {
        return;
    };
    let value = match choice {
        ToolChoice::Auto => Value::String("auto".into()),
        ToolChoice::None => Value::String("none".into()),
        ToolChoice::Required => Value::String("required".into()),
        ToolChoice::Tool(name) => named(name),
    };
    super::put(map, "tool_choice", value);
}

/// A tool result's error flag, which a shape without one loses; `plain`
/// names where its errors are plain text instead, if anywhere.
pub(crate) fn lose_error_flag(
    result: &ToolResult,
    plain: Option<&str>,
    context: &mut Context,
) -> Result<(), ConvertError> {
    if !result.is_error {
        return Ok(());
    }
    match plain {
        Some(place) => context.lose(format!(
            "the error flag of tool results (errors are plain text in {place})"
        )),
        None => context.lose("the error flag of tool results"),
    }
}

/// Each tool as `write_tool` writes it, those it drops left out.
pub(crate) fn write_tools(
    tools: &[Tool],
    mut write_tool: impl FnMut(&Tool) -> Result<Option<Value>, ConvertError>,
) -> Result<Vec<Value>, ConvertError> {
    let mut written = Vec::with_capacity(tools.len());
    for tool in tools {
        written.extend(write_tool(tool)?);
    }
    Ok(written)
}

/// Whether a message calls tools (a response's stop reason says so).
pub(crate) fn calls_tools(message: &Message) -> bool {
    message
        .content
        .iter()
        .any(|b| matches!(b, Block::ToolCall(_)))
}

/// Every tool result of a transcript, in order.
pub(crate) fn tool_results(transcript: &Transcript) -> Vec<&ToolResult> {
    transcript
        .messages
        .iter()
        .flat_map(|m| &m.content)
        .filter_map(|block| match block {
            Block::ToolResult(result) => Some(result),
            _ => None,
        })
        .collect()
}

/// The first tool result of a transcript, for a writer of one tool result.
pub(crate) fn first_tool_result(transcript: &Transcript) -> Result<&ToolResult, ConvertError> {
    tool_results(transcript)
        .into_iter()
        .next()
        .ok_or_else(|| ConvertError::invalid("", "no tool result to write"))
}

/// The one tool result of a transcript, for a shape that holds nothing else
/// (MCP, NeMo Gym); anything else is refused with `refusal`.
pub(crate) fn only_tool_result<'t>(
    transcript: &'t Transcript,
    form: Form,
    refusal: &str,
) -> Result<&'t ToolResult, ConvertError> {
    match (form, tool_results(transcript).as_slice()) {
        (Form::ToolResult, [result]) => Ok(result),
        _ => Err(ConvertError::invalid("", refusal)),
    }
}

/// What `shape` kept in `extensions`, for restoring on the object written
/// from them, after the warnings for what other shapes kept there.
pub(crate) fn kept_for<'e>(
    extensions: &'e Extensions,
    shape: Shape,
    context: &mut Context,
) -> Result<Mine<'e>, ConvertError> {
    drop_foreign(extensions, context)?;
    Ok(Mine::of(extensions, shape))
}

#[cfg(test)]
mod tests {
    use crate::shapes::Registered;
    use serde_json::json;

    use super::*;
    use crate::contract::convert::ConvertOptions;

    /// A writer that answers each form with that form's name.
    struct Names<'c>(&'c mut Context);

    impl Forms for Names<'_> {
        fn context(&mut self) -> &mut Context {
            self.0
        }
        fn request(&mut self, _: &Transcript) -> Result<Value, ConvertError> {
            Ok(json!("request"))
        }
        fn messages(&mut self, _: &Transcript) -> Result<Value, ConvertError> {
            Ok(json!("messages"))
        }
        fn response(&mut self, _: &Transcript) -> Result<Value, ConvertError> {
            Ok(json!("response"))
        }
        fn tool_result(&mut self, _: &Transcript) -> Result<Value, ConvertError> {
            Ok(json!("tool_result"))
        }
    }

    fn transcript(value: Value) -> Transcript {
        Transcript::from_value(&value).unwrap()
    }

    #[test]
    fn each_form_goes_to_its_method() {
        let mut context = Context::new(
            ConvertOptions::default(),
            Shape::Canonical,
            Shape::Mcp.dialect(),
        );
        let empty = Transcript::default();
        for (form, expected) in [
            (Form::Request, "request"),
            (Form::Messages, "messages"),
            (Form::Response, "response"),
            (Form::ToolResult, "tool_result"),
        ] {
            let written = Names(&mut context).write(&empty, form).unwrap();
            assert_eq!(written, json!(expected));
        }
    }

    #[test]
    fn one_tool_result_or_a_refusal() {
        let result = json!({"type": "tool_result", "call_id": "c1", "content": []});
        let message = |content: Value| json!({"role": "tool", "content": content});
        let table = [
            (
                json!({"messages": [message(json!([result]))]}),
                Form::ToolResult,
                Some("c1"),
            ),
            (
                json!({"messages": [message(json!([result]))]}),
                Form::Messages,
                None,
            ),
            (
                json!({"messages": [message(json!([result, result]))]}),
                Form::ToolResult,
                None,
            ),
            (json!({"messages": []}), Form::ToolResult, None),
        ];
        for (input, form, expected) in table {
            let transcript = transcript(input);
            let found = only_tool_result(&transcript, form, "refused");
            match expected {
                Some(id) => assert_eq!(found.unwrap().call_id.as_deref(), Some(id)),
                None => assert_eq!(found.unwrap_err().to_string(), "refused"),
            }
        }
    }
}
