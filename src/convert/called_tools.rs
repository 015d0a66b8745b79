//! Tool calls in a request that declares no tools. OpenAI and Gemini accept
//! such a history (a client that stopped offering tools still sends the calls
//! already made); Anthropic and Bedrock refuse it ("Requests which include
//! `tool_use` or `tool_result` blocks must define tools."). Which target
//! refuses is its acceptance fact `CallsWithoutTools`, not a list kept here.
//! For such a target the request declares one tool per called name, with a
//! schema that accepts any arguments, and one warning says which and why —
//! every call and result is kept, and the provider takes the request.

use serde_json::{json, Value};

use super::{Context, ConvertError, Form};
use crate::contract::acceptance::{verdict, Form as Accepted, Verdict};
use crate::shapes::Registered;
use crate::shapes::Shape;
use crate::transcript::{Block, Tool, Transcript};

/// The schema of a tool declared only because the history calls it: any
/// arguments at all. An object schema without properties that opens no other
/// channel declares no parameters (and takes none), so it opens
/// `additionalProperties`.
pub fn any_arguments() -> Value {
    json!({"type": "object", "additionalProperties": true})
}

/// The hint a body of a refusing shape gets when it holds calls and
/// declares no tools itself: written back as that shape, it stays so
/// (A -> canonical -> A is exact even for a body its provider refuses).
const HINT: &str = "calls_without_tools";

/// Whether `shape`'s provider refuses calls in a request that declares no tools.
fn refuses(shape: Shape) -> bool {
    let acceptance = shape.dialect().validate_facts().acceptance;
    verdict(acceptance, Accepted::CallsWithoutTools) == Some(Verdict::Refuses)
}

/// The names the tools would get, when the transcript holds calls and
/// declares no tools; empty otherwise.
fn undeclared(transcript: &Transcript) -> Vec<String> {
    let declares = transcript.tools.as_ref().is_some_and(|t| !t.is_empty());
    if declares {
        return Vec::new();
    }
    called_names(transcript)
}

/// Marks a request read from `source` that holds calls without declaring
/// tools, where `source` refuses that: writing `source` again declares
/// nothing the body did not.
pub fn mark(transcript: &mut Transcript, form: Form, source: Shape) {
    if form == Form::Request && refuses(source) && !undeclared(transcript).is_empty() {
        super::ext::add_hint(&mut transcript.extensions, source, HINT, true.into());
    }
}

/// Declares the tools a request's calls name, where the target
/// refuses calls in a request that declares no tools and the transcript
/// declares none. A body the target's own shape wrote so (its hint) is left
/// as it came, and a bare message list has no place for tools. Under
/// `--strict` the request is not changed: the conversion stops.
pub fn declare(
    transcript: &mut Transcript,
    form: Form,
    context: &mut Context,
) -> Result<(), ConvertError> {
    let target = context.target;
    if form != Form::Request || !refuses(target) {
        return Ok(());
    }
    let own = super::ext::Mine::of(&transcript.extensions, target);
    if own.hint(HINT).is_some() {
        return Ok(());
    }
    let names = undeclared(transcript);
    if names.is_empty() {
        return Ok(());
    }
    let list = names.join(", ");
    if context.options.strict {
        return Err(ConvertError::Loss(format!(
            "{target} refuses tool calls in a request that declares no tools, and declaring {list} would add to the request"
        )));
    }
    transcript.tools = Some(
        names
            .iter()
            .map(|name| Tool {
                name: name.clone(),
                description: None,
                parameters: Some(any_arguments()),
                strict: None,
                extensions: Default::default(),
            })
            .collect(),
    );
    context.note(format!(
        "{target} refuses tool calls in a request that declares no tools: declared {list} with any arguments (the model may call {} in the next turn)",
        if names.len() == 1 { "it" } else { "them" }
    ));
    Ok(())
}

/// The names of the tools the transcript's calls call, in order of first
/// call. A result whose call is not in the request names no tool to declare:
/// every provider that refuses calls without tools refuses such a result
/// too, declared or not.
fn called_names(transcript: &Transcript) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for block in transcript.messages.iter().flat_map(|m| &m.content) {
        if let Block::ToolCall(call) = block {
            if !call.name.is_empty() && !names.contains(&call.name) {
                names.push(call.name.clone());
            }
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::convert::{ConvertOptions, Form};
    use crate::transcript::{Arguments, Message, Role, ToolCall, ToolResult};

    fn calls(names: &[&str]) -> Transcript {
        let mut content = Vec::new();
        let mut results = Vec::new();
        for (n, name) in names.iter().enumerate() {
            content.push(Block::ToolCall(ToolCall {
                id: Some(format!("c{n}")),
                name: (*name).to_string(),
                arguments: Arguments::Value(json!({"city": "Paris"})),
                extensions: Default::default(),
            }));
            results.push(Block::ToolResult(ToolResult {
                call_id: Some(format!("c{n}")),
                name: Some((*name).to_string()),
                content: vec![Block::text("sunny")],
                ..ToolResult::default()
            }));
        }
        Transcript {
            messages: vec![
                Message::new(Role::User, vec![Block::text("weather?")]),
                Message::new(Role::Assistant, content),
                Message::new(Role::Tool, results),
            ],
            ..Transcript::default()
        }
    }

    fn context(to: Shape, strict: bool) -> Context {
        let options = ConvertOptions {
            strict,
            ..ConvertOptions::default()
        };
        Context::new(options, Shape::OpenaiChat, to.dialect())
    }

    #[test]
    fn a_refusing_target_gets_one_tool_per_called_name() {
        let mut transcript = calls(&["weather", "time", "weather"]);
        let mut context = context(Shape::Anthropic, false);
        declare(&mut transcript, Form::Request, &mut context).unwrap();
        let tools = transcript.tools.unwrap();
        let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["weather", "time"]);
        assert!(tools.iter().all(|t| t.parameters == Some(any_arguments())));
        assert_eq!(
            context.finish(),
            ["anthropic refuses tool calls in a request that declares no tools: declared weather, time with any arguments (the model may call them in the next turn)"]
        );
    }

    #[test]
    fn an_accepting_target_a_message_list_or_declared_tools_are_left_alone() {
        for (to, form) in [
            (Shape::Gemini, Form::Request),
            (Shape::OpenaiResponses, Form::Request),
            (Shape::Anthropic, Form::Messages),
            (Shape::Bedrock, Form::Response),
        ] {
            let mut transcript = calls(&["weather"]);
            declare(&mut transcript, form, &mut context(to, true)).unwrap();
            assert_eq!(transcript.tools, None, "{to} {form:?}");
        }
        let mut transcript = calls(&["weather"]);
        let declared = vec![Tool {
            name: "other".into(),
            description: None,
            parameters: None,
            strict: None,
            extensions: Default::default(),
        }];
        transcript.tools = Some(declared.clone());
        declare(
            &mut transcript,
            Form::Request,
            &mut context(Shape::Bedrock, true),
        )
        .unwrap();
        assert_eq!(transcript.tools, Some(declared));
    }

    #[test]
    fn results_without_their_calls_declare_nothing() {
        let mut transcript = calls(&["weather"]);
        transcript.messages.remove(1);
        let mut context = context(Shape::Bedrock, false);
        declare(&mut transcript, Form::Request, &mut context).unwrap();
        assert_eq!(transcript.tools, None);
        assert!(context.finish().is_empty());
    }

    #[test]
    fn a_body_of_the_refusing_shape_itself_is_written_back_as_it_was() {
        let mut transcript = calls(&["weather"]);
        mark(&mut transcript, Form::Request, Shape::Anthropic);
        let mut from_canonical = Context::new(
            ConvertOptions::default(),
            Shape::Canonical,
            Shape::Anthropic.dialect(),
        );
        declare(&mut transcript, Form::Request, &mut from_canonical).unwrap();
        assert_eq!(transcript.tools, None);
        // Another refusing target still gets them.
        let mut bedrock = context(Shape::Bedrock, false);
        declare(&mut transcript, Form::Request, &mut bedrock).unwrap();
        assert_eq!(transcript.tools.unwrap()[0].name, "weather");
    }

    #[test]
    fn strict_stops_instead() {
        let mut transcript = calls(&["weather"]);
        let error = declare(
            &mut transcript,
            Form::Request,
            &mut context(Shape::Bedrock, true),
        )
        .unwrap_err();
        assert_eq!(
            error.to_string(),
            "--strict: bedrock refuses tool calls in a request that declares no tools, and declaring weather would add to the request"
        );
        assert_eq!(transcript.tools, None);
    }
}
