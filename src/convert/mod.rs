//! The conversion engine (docs/conversion.md): a reader turns a document of one shape into
//! the canonical transcript, a few shape-independent steps prepare it for the
//! target (ids, media lifted out of tool results), and a writer turns it into
//! the target shape. No two provider shapes are converted into each other
//! directly.

pub mod called_tools;
pub mod detect;
pub mod document;
pub mod ext;
pub mod history;
pub mod labels;
pub mod locate;
pub mod prepare;
pub mod recorded;
pub mod references;
pub mod tool_result;

use std::borrow::Cow;

use serde_json::Value;

pub use crate::contract::convert::*;
use crate::contract::Weighed;
use crate::json::out::Out;
use crate::json::{Json, Reading};
use crate::shapes::Registered;
use crate::shapes::Shape;
use crate::transcript::Transcript;

/// The result of a conversion.
#[derive(Debug, Clone, PartialEq)]
pub struct Converted {
    pub value: Value,
    /// Notes and warnings for stderr.
    pub notes: Vec<String>,
    /// The shape the input was read as.
    pub source: Shape,
}

/// A conversion's output as the tree its writer built
/// (`crate::json::out`): what the engines render or hand to Python.
#[derive(Debug)]
pub struct ConvertedOut {
    pub out: Out,
    /// Notes and warnings for stderr.
    pub notes: Vec<String>,
    /// The shape the input was read as.
    pub source: Shape,
}

impl ConvertedOut {
    /// The output as a `Value`.
    pub fn into_converted(self) -> Converted {
        Converted {
            value: self.out.into_value(),
            notes: self.notes,
            source: self.source,
        }
    }
}

/// Why a document with no `--from` cannot be converted: no shape fits it.
pub(crate) const UNDETECTED: &str = "cannot tell which shape this document is; pass --from";

/// Converts one document. `from` is `None` for auto-detection.
pub fn convert(
    value: &Value,
    from: Option<Shape>,
    to: Shape,
    options: ConvertOptions,
) -> Result<Converted, ConvertError> {
    convert_read(value, from, to, options, &Reading::default())
}

/// [`convert`] of a value read as `reading` says: its placeholders stand for
/// the payloads it lends, and numbers written as text (a call's arguments)
/// are spelled as its input spells them.
pub fn convert_read(
    value: &Value,
    from: Option<Shape>,
    to: Shape,
    options: ConvertOptions,
    reading: &Reading,
) -> Result<Converted, ConvertError> {
    convert_read_out(value, from, to, options, reading).map(ConvertedOut::into_converted)
}

/// [`convert_read`] with the output as the tree its writer built.
pub fn convert_read_out(
    value: &Value,
    from: Option<Shape>,
    to: Shape,
    options: ConvertOptions,
    reading: &Reading,
) -> Result<ConvertedOut, ConvertError> {
    let mut context = detected_context(value, from, to, options, reading)?;
    let (form, transcript) = read_shape(context.source, value, &mut context)?;
    convert_model(form, transcript, context, to, || Cow::Borrowed(value))
}

/// [`convert_read`] of a small document parsed into the borrowed tree (a
/// shape whose reader reads only a `Value` is given the tree as one:
/// [`Dialect::read_tree`]).
///
/// [`Dialect::read_tree`]: crate::contract::Dialect::read_tree
pub fn convert_tree(
    tree: &Json<'_>,
    from: Option<Shape>,
    to: Shape,
    options: ConvertOptions,
    reading: &Reading,
) -> Result<Converted, ConvertError> {
    convert_tree_out(tree, from, to, options, reading).map(ConvertedOut::into_converted)
}

/// [`convert_tree`] with the output as the tree its writer built.
pub fn convert_tree_out(
    tree: &Json<'_>,
    from: Option<Shape>,
    to: Shape,
    options: ConvertOptions,
    reading: &Reading,
) -> Result<ConvertedOut, ConvertError> {
    let mut context = detected_context(tree, from, to, options, reading)?;
    let (form, transcript) = context.source.dialect().read_tree(tree, &mut context)?;
    convert_model(form, transcript, context, to, || {
        Cow::Owned(tree.to_value())
    })
}

/// The context of a conversion from `from`, or from the shape `document`
/// is detected as (with the detection's note).
fn detected_context<N: Weighed>(
    document: &N,
    from: Option<Shape>,
    to: Shape,
    options: ConvertOptions,
    reading: &Reading,
) -> Result<Context, ConvertError> {
    let (source, guess) = match from {
        Some(shape) => (shape, None),
        None => {
            let detected =
                detect::detect(document).ok_or_else(|| ConvertError::invalid("", UNDETECTED))?;
            (detected.shape, detected.note)
        }
    };
    let mut context = Context::new(options, source, to.dialect()).with_reading(reading.clone());
    if let Some(note) = guess {
        context.note(note);
    }
    Ok(context)
}

/// The rest of a conversion, once the document is read: the model prepared
/// for `to` and written. `input` gives the document as a `Value`, for
/// pointing into it when a part cannot be written.
fn convert_model<'v>(
    mut form: Form,
    mut transcript: Transcript,
    mut context: Context,
    to: Shape,
    input: impl FnOnce() -> Cow<'v, Value>,
) -> Result<ConvertedOut, ConvertError> {
    let source = context.source;
    // A response is one assistant turn in every shape but its own; one whose
    // output also holds tool results (NeMo Gym's agents write them there) is
    // written as the message list it is, so that nothing is lost.
    if form == Form::Response
        && source != to
        && !to.dialect().conversion().response_holds_turns
        && transcript.messages.len() > 1
    {
        form = Form::Messages;
        context.note(format!(
            "the {source} response holds more than one turn (tool results after the calls): written as a message list"
        ));
    }
    if form == Form::ToolResult {
        prepare::identify_result(&mut transcript, &context.options);
    }
    let source_is_model = source.dialect().conversion().document_is_model;
    if !source_is_model {
        prepare::mark_empties(&mut transcript, source);
        called_tools::mark(&mut transcript, form, source);
    }
    let in_input = |error: ConvertError, transcript: &Transcript| match error {
        ConvertError::Unsupported {
            pointer,
            unsupported,
        } if !source_is_model => ConvertError::Unsupported {
            pointer: locate::part(&input(), transcript, &pointer).unwrap_or(pointer),
            unsupported,
        },
        other => other,
    };
    if let Err(error) = references::for_target(&mut transcript, &mut context) {
        return Err(in_input(error, &transcript));
    }
    let mut transcript = prepare::for_target(transcript, &mut context)?;
    called_tools::declare(&mut transcript, form, &mut context)?;
    labels::by_bytes(&mut transcript, &mut context);
    let out = write_shape_out(to, &transcript, form, &mut context)
        .map_err(|error| in_input(error, &transcript))?;
    Ok(ConvertedOut {
        out,
        notes: context.finish(),
        source,
    })
}

/// Reads a document into the canonical model (for `validate` and library users).
pub fn read(value: &Value, from: Option<Shape>) -> Result<(Shape, Form, Transcript), ConvertError> {
    let source = match from {
        Some(shape) => shape,
        None => {
            detect::detect(value)
                .ok_or_else(|| {
                    ConvertError::invalid("", "cannot tell which shape this document is")
                })?
                .shape
        }
    };
    let mut context = Context::new(
        ConvertOptions::default(),
        source,
        crate::shapes::HUB.dialect(),
    );
    let (form, transcript) = read_shape(source, value, &mut context)?;
    Ok((source, form, transcript))
}

/// Reads a document of `shape` into the canonical model.
pub fn read_shape(
    shape: Shape,
    value: &Value,
    context: &mut Context,
) -> Result<(Form, crate::transcript::Transcript), ConvertError> {
    shape.dialect().read(value, context)
}

/// Writes the canonical model as a document of `shape`, in `form`.
pub fn write_shape(
    shape: Shape,
    transcript: &crate::transcript::Transcript,
    form: Form,
    context: &mut Context,
) -> Result<Value, ConvertError> {
    write_shape_out(shape, transcript, form, context).map(Out::into_value)
}

/// [`write_shape`] as the tree the shape's writer built.
pub fn write_shape_out(
    shape: Shape,
    transcript: &crate::transcript::Transcript,
    form: Form,
    context: &mut Context,
) -> Result<Out, ConvertError> {
    let mut out = shape.dialect().write_out(transcript, form, context)?;
    // A field several shapes spell alike goes across as it is.
    let body = form == Form::Request || out.contains_key("messages") || out.contains_key("input");
    match &mut out {
        Out::Object(members) if body => {
            ext::carry_shared_out(&transcript.extensions, shape, members)
        }
        Out::Value(Value::Object(map)) if body => {
            ext::carry_shared(&transcript.extensions, shape, map)
        }
        _ => {}
    }
    Ok(out)
}
