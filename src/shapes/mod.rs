//! Provider wire shapes. Each shape module holds the writer (and, with `convert`,
//! the reader) between the canonical model and that shape's blocks; nothing
//! converts between two provider shapes directly.

pub mod anthropic;
pub mod bedrock;
pub mod canonical;
pub mod gemini;
pub(crate) mod kit;
pub mod mcp;
pub mod nemo_gym;
pub mod openai_chat;
pub mod openai_responses;

use std::fmt;

use serde_json::{Map, Value};

use crate::part::{MediaPart, Part};
use crate::transcript::ToolResult;

/// The canonical model's own shape: the hub every conversion passes through
/// (a reader's target, a writer's source, the key of the model's own
/// extension hints).
pub const HUB: Shape = Shape::Canonical;

/// A wire shape partkit reads and writes. The default is partkit's own
/// canonical form, the hub every conversion passes through.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Shape {
    /// partkit's own canonical parts and transcripts.
    #[default]
    Canonical,
    /// OpenAI Chat Completions.
    OpenaiChat,
    /// OpenAI Responses.
    OpenaiResponses,
    /// Anthropic Messages.
    Anthropic,
    /// Google Gemini generateContent (REST, camelCase).
    Gemini,
    /// AWS Bedrock Converse.
    Bedrock,
    /// MCP `CallToolResult`.
    Mcp,
    /// A NeMo Gym tool reply; at the part level, a `ToolOutputImage` entry.
    NemoGym,
}

impl Shape {
    /// The name used on the command line and in messages.
    /// The name of the blocks a part becomes at the part level, where it
    /// differs from the shape (a NeMo Gym reply's parts are `tool-output-image`
    /// entries).
    pub fn block_name(self) -> &'static str {
        match self {
            Shape::NemoGym => "tool-output-image",
            other => other.name(),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Shape::Canonical => "canonical",
            Shape::OpenaiChat => "openai-chat",
            Shape::OpenaiResponses => "openai-responses",
            Shape::Anthropic => "anthropic",
            Shape::Gemini => "gemini",
            Shape::Bedrock => "bedrock",
            Shape::Mcp => "mcp",
            Shape::NemoGym => "nemo-gym",
        }
    }
}

impl Shape {
    /// Every shape, in the order help lists them.
    pub const ALL: [Shape; 8] = [
        Shape::Canonical,
        Shape::OpenaiChat,
        Shape::OpenaiResponses,
        Shape::Anthropic,
        Shape::Gemini,
        Shape::Bedrock,
        Shape::Mcp,
        Shape::NemoGym,
    ];

    /// The order the shapes are asked whether an object is one of their media
    /// blocks (`scan::find_media`), the order the checks have
    /// always had: blocks with a `type` first (canonical parts before the OpenAI
    /// Chat `file` and Anthropic `image`/`document` blocks that share their type
    /// names), then Gemini and Bedrock blocks, which have no `type`, then a bare
    /// NeMo Gym entry, which has no `type` either (so no earlier shape can have
    /// called it `Empty`).
    pub const SCAN_ORDER: [Shape; 8] = [
        Shape::Canonical,
        Shape::OpenaiChat,
        Shape::OpenaiResponses,
        Shape::Anthropic,
        Shape::Mcp,
        Shape::Gemini,
        Shape::Bedrock,
        Shape::NemoGym,
    ];

    /// The shape called `name` (as [`Shape::name`] spells it).
    pub fn from_name(name: &str) -> Option<Shape> {
        Shape::ALL.into_iter().find(|shape| shape.name() == name)
    }
}

/// What the command line says of a shape (the descriptions of its `--to`
/// and `--from` values); each shape's module holds its own.
#[derive(Debug)]
pub struct Facts {
    /// A document of the shape (`convert --to`).
    pub document: &'static str,
    /// One tool result of the shape (`split --to`); `None`: it is not written
    /// as one.
    pub tool_result: Option<&'static str>,
    /// Its parts (`encode --to`, where the shape is named by its block name).
    pub parts: &'static str,
}

impl Shape {
    /// What the command line says of the shape.
    pub fn facts(self) -> &'static Facts {
        self.dialect().facts()
    }

    /// Everything partkit knows of the shape, behind one trait: the one place
    /// that lists the shapes' modules.
    pub fn dialect(self) -> &'static dyn Dialect {
        match self {
            Shape::Canonical => &canonical::Canonical,
            Shape::OpenaiChat => &openai_chat::OpenaiChat,
            Shape::OpenaiResponses => &openai_responses::OpenaiResponses,
            Shape::Anthropic => &anthropic::Anthropic,
            Shape::Gemini => &gemini::Gemini,
            Shape::Bedrock => &bedrock::Bedrock,
            Shape::Mcp => &mcp::Mcp,
            Shape::NemoGym => &nemo_gym::NemoGym,
        }
    }
}

/// The methods every [`Dialect`] implements the same way: its `Shape`
/// variant, and its module's `FACTS`, `read`, `write` and part writer
/// (`$write_part`, a function of the module taking `(part, place)`).
macro_rules! dialect_basics {
    ($variant:ident, $write_part:ident) => {
        fn shape(&self) -> $crate::shapes::Shape {
            $crate::shapes::Shape::$variant
        }

        fn facts(&self) -> &'static $crate::shapes::Facts {
            &FACTS
        }

        fn read(
            &self,
            value: &serde_json::Value,
            context: &mut $crate::convert::Context,
        ) -> Result<
            ($crate::convert::Form, $crate::transcript::Transcript),
            $crate::convert::ConvertError,
        > {
            read(value, context)
        }

        fn write(
            &self,
            transcript: &$crate::transcript::Transcript,
            form: $crate::convert::Form,
            context: &mut $crate::convert::Context,
        ) -> Result<serde_json::Value, $crate::convert::ConvertError> {
            write(transcript, form, context)
        }

        fn write_part(
            &self,
            part: &$crate::part::Part,
            place: $crate::shapes::Place,
        ) -> Result<serde_json::Value, $crate::shapes::Unsupported> {
            $write_part(part, place)
        }
    };
}
pub(crate) use dialect_basics;

/// The methods a [`Dialect`] answers from its folder, each delegated to the
/// function (or the facts) of the shape's own module named beside it, so that
/// every signature is written once: `delegate! { recognize_media => scan::recognize, … }`.
macro_rules! delegate {
    (recognize_media => $f:path) => {
        fn recognize_media<'j>(
            &self,
            value: &'j $crate::json::Json<'j>,
            pointer: &str,
            found: &mut Vec<$crate::scan::Found<'j>>,
        ) -> $crate::scan::Verdict {
            $f(value, pointer, found)
        }
    };
    (detect_document => $f:path) => {
        fn detect_document(
            &self,
            document: &serde_json::Map<String, serde_json::Value>,
        ) -> Option<$crate::convert::detect::Rank> {
            $f(document)
        }
    };
    (detect_evidence => $f:path) => {
        fn detect_evidence(
            &self,
            at: $crate::convert::detect::At<'_>,
            value: &serde_json::Value,
        ) -> u32 {
            $f(at, value)
        }
    };
    (detect_model => $f:path) => {
        fn detect_model(&self, model: &str) -> bool {
            $f(model)
        }
    };
    (conversion => $f:path) => {
        fn conversion(&self) -> &'static $crate::convert::ConvertFacts {
            &$f
        }
    };
    (validate_facts => $f:path) => {
        fn validate_facts(&self) -> &'static $crate::validate::kit::ValidateFacts {
            &$f
        }
    };
    (tool_object => $f:path) => {
        fn tool_object(
            &self,
            object: &serde_json::Map<String, serde_json::Value>,
            key: Option<&str>,
        ) -> Option<$crate::validate::kit::ToolObject> {
            $f(object, key)
        }
    };
    (detect_guess => $f:path) => {
        fn detect_guess(&self, case: $crate::convert::detect::Unsure) -> Option<&'static str> {
            $f(case)
        }
    };
    (file_reference => $f:path) => {
        fn file_reference<'v>(
            &self,
            block: &'v serde_json::Value,
        ) -> Option<($crate::convert::references::Reference, &'v str)> {
            $f(block)
        }
    };
    (validate_rules => $f:path) => {
        fn validate_rules(&self, value: &serde_json::Value) -> Vec<$crate::validate::kit::Issue> {
            $f(value)
        }
    };
    (hosted_call => $f:path) => {
        fn hosted_call(&self, block: &serde_json::Value) -> Option<$crate::validate::kit::HostedCall> {
            $f(block)
        }
    };
    (required_id_field => $f:path) => {
        fn required_id_field(
            &self,
            object: &serde_json::Map<String, serde_json::Value>,
            key: Option<&str>,
        ) -> Option<&'static str> {
            $f(object, key)
        }
    };
    (scan_member => $f:path) => {
        fn scan_member<'j>(
            &self,
            key: &str,
            item: &'j $crate::json::Json<'j>,
            pointer: &str,
            found: &mut Vec<$crate::scan::Found<'j>>,
        ) -> bool {
            $f(key, item, pointer, found)
        }
    };
    ($($method:ident => $f:path),+ $(,)?) => {
        $($crate::shapes::delegate!($method => $f);)+
    };
}
pub(crate) use delegate;

/// One wire shape's knowledge: its reader, its writers and its facts. Each
/// shape's folder (`shapes/<shape>/`) implements it on a unit struct; code
/// outside `shapes/` asks `shape.dialect()` instead of matching on the shape.
pub trait Dialect: Sync {
    /// The shape this is.
    fn shape(&self) -> Shape;

    /// What the command line says of the shape.
    fn facts(&self) -> &'static Facts;

    /// Reads a document of the shape into the canonical model.
    fn read(
        &self,
        value: &Value,
        context: &mut crate::convert::Context,
    ) -> Result<(crate::convert::Form, crate::transcript::Transcript), crate::convert::ConvertError>;

    /// Writes the canonical model as a document of the shape, in `form`.
    fn write(
        &self,
        transcript: &crate::transcript::Transcript,
        form: crate::convert::Form,
        context: &mut crate::convert::Context,
    ) -> Result<Value, crate::convert::ConvertError>;

    /// Writes one part as a block of the shape at `place`.
    fn write_part(&self, part: &Part, place: Place) -> Result<Value, Unsupported>;

    // --- scan ---
    /// Recognizes one object of a document as a media block of the shape
    /// (`scan::find_media`), pushing what it holds onto `found`.
    fn recognize_media<'j>(
        &self,
        _value: &'j crate::json::Json<'j>,
        _pointer: &str,
        _found: &mut Vec<crate::scan::Found<'j>>,
    ) -> crate::scan::Verdict {
        crate::scan::Verdict::Other
    }

    /// Scans an object's member (`key`: `item`, at `pointer`) the shape lays
    /// out its own way; whether it did (the scan then does not walk into it).
    fn scan_member<'j>(
        &self,
        _key: &str,
        _item: &'j crate::json::Json<'j>,
        _pointer: &str,
        _found: &mut Vec<crate::scan::Found<'j>>,
    ) -> bool {
        false
    }

    // --- detection and conversion facts (convert) ---

    /// The rank of the first of this shape's rules that tells a whole
    /// document as a single tool result or a response by its own keys, if
    /// any (the lowest rank of all shapes decides, see `convert::detect`).
    fn detect_document(
        &self,
        _document: &Map<String, Value>,
    ) -> Option<crate::convert::detect::Rank> {
        None
    }

    /// How much `value`, standing `at` that place of a document, says the
    /// document is this shape's: [`STRONG`](crate::convert::detect::STRONG)
    /// for what only this shape writes, less for what leans its way, 0 for
    /// nothing (see `convert::detect`).
    fn detect_evidence(&self, _at: crate::convert::detect::At<'_>, _value: &Value) -> u32 {
        0
    }

    /// Whether a document's `model` names one of this shape's provider's own
    /// models (a hint that tips a near tie of evidence).
    fn detect_model(&self, _model: &str) -> bool {
        false
    }

    /// Why this shape is the guess when the evidence leaves `case` open
    /// (for the note), or `None` when it is not.
    fn detect_guess(&self, _case: crate::convert::detect::Unsure) -> Option<&'static str> {
        None
    }

    /// What the conversion engine's shape-independent steps need to know of
    /// the shape (ids, empties, tool media, URLs, shared settings).
    fn conversion(&self) -> &'static crate::convert::ConvertFacts {
        &crate::convert::ConvertFacts::PROVIDER
    }

    /// The media reference into the provider's own file store that one of
    /// its blocks (kept opaque) holds, with the string that names it in the
    /// document (to find the block again); `None` when the block is none.
    fn file_reference<'v>(
        &self,
        _block: &'v Value,
    ) -> Option<(crate::convert::references::Reference, &'v str)> {
        None
    }

    // --- writers ---

    /// Why `encode` leaves `part` out of a message of the shape, with a
    /// warning, rather than writing a block the API refuses (Anthropic's
    /// whitespace-only text); `None` to write it.
    fn leaves_out(&self, _part: &Part) -> Option<&'static str> {
        None
    }

    /// Why one tool result of the shape needs the tool's name (`split --to`
    /// asks for `--name`); `None` when an id is enough.
    fn tool_result_needs_name(&self) -> Option<&'static str> {
        None
    }

    // --- validate ---

    /// The shape's own rules on a raw document (docs/commands/validate.md): media
    /// only where the shape carries it, no empty blocks where its API refuses
    /// them, the fields a block must have, the order of roles.
    fn validate_rules(&self, _value: &Value) -> Vec<crate::validate::kit::Issue> {
        Vec::new()
    }

    /// What `validate`'s transcript checks need to know of the shape.
    fn validate_facts(&self) -> &'static crate::validate::kit::ValidateFacts {
        &crate::validate::kit::ValidateFacts::DEFAULT
    }

    /// Whether an object of a document of the shape is a tool call or a tool
    /// result, as the shape's reader reads them; `key` is the member (or, for
    /// list items, the list's member) the object stands under.
    fn tool_object(
        &self,
        _object: &Map<String, Value>,
        _key: Option<&str>,
    ) -> Option<crate::validate::kit::ToolObject> {
        None
    }

    /// The hosted tool call an opaque block of the shape is, if it is one.
    fn hosted_call(&self, _block: &Value) -> Option<crate::validate::kit::HostedCall> {
        None
    }

    /// The id member a call or result object must have where the shape's
    /// reader refuses one without it (`validate` reports a missing id as a
    /// finding of its own, so it reads it as empty).
    fn required_id_field(
        &self,
        _object: &Map<String, Value>,
        _key: Option<&str>,
    ) -> Option<&'static str> {
        None
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Where a written block will stand: some shapes allow different blocks in a
/// user message than in a tool result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// Content a user (or system) attached to a message.
    User,
    /// Content inside a tool result.
    ToolResult,
}

/// A part that a shape cannot carry where it stands.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{} cannot be carried by {}: {reason}", describe(.part_type, .mime_type), .shape.block_name())]
pub struct Unsupported {
    pub part_type: &'static str,
    pub mime_type: Option<String>,
    pub shape: Shape,
    pub reason: String,
}

fn describe(part_type: &str, mime_type: &Option<String>) -> String {
    match mime_type {
        Some(mime) => format!("{part_type} part ({})", crate::echo::plain(mime)),
        None => format!("{part_type} part"),
    }
}

impl Unsupported {
    /// The refusal of a media part by a shape, with a reason.
    pub fn media(part: &MediaPart, shape: Shape, reason: impl Into<String>) -> Unsupported {
        Unsupported {
            part_type: part.kind.as_str(),
            mime_type: Some(part.mime_type.clone()),
            shape,
            reason: reason.into(),
        }
    }
}

/// The byte lengths of pieces a reader joins into one text, as the hint that
/// lets [`split_joined`] take them apart again.
pub fn lengths_of(pieces: &[&str]) -> Value {
    Value::from(pieces.iter().map(|piece| piece.len()).collect::<Vec<_>>())
}

/// Text split back into the pieces it was joined from with `separator`
/// between them (their byte lengths, from [`lengths_of`]); `None` when the
/// text no longer fits the lengths.
pub fn split_joined<'t>(text: &'t str, lengths: &[Value], separator: &str) -> Option<Vec<&'t str>> {
    let mut pieces = Vec::with_capacity(lengths.len());
    let mut rest = text;
    for (i, length) in lengths.iter().enumerate() {
        let length = usize::try_from(length.as_u64()?).ok()?;
        let head = rest.get(..length)?;
        let tail = &rest[length..];
        pieces.push(head);
        rest = if i + 1 == lengths.len() {
            (tail.is_empty()).then_some(tail)?
        } else {
            tail.strip_prefix(separator)?
        };
    }
    Some(pieces)
}

/// Reads a document of `shape` into the canonical model.
pub fn read(
    shape: Shape,
    value: &Value,
    context: &mut crate::convert::Context,
) -> Result<(crate::convert::Form, crate::transcript::Transcript), crate::convert::ConvertError> {
    shape.dialect().read(value, context)
}

/// Writes the canonical model as a document of `shape`, in `form`.
pub fn write(
    shape: Shape,
    transcript: &crate::transcript::Transcript,
    form: crate::convert::Form,
    context: &mut crate::convert::Context,
) -> Result<Value, crate::convert::ConvertError> {
    let mut value = shape.dialect().write(transcript, form, context)?;
    // A field several shapes spell alike goes across as it is.
    if let Value::Object(body) = &mut value {
        if form == crate::convert::Form::Request
            || body.contains_key("messages")
            || body.contains_key("input")
        {
            crate::convert::ext::carry_shared(&transcript.extensions, shape, body);
        }
    }
    Ok(value)
}

/// Writes one part as a block of `shape` at `place`.
pub fn write_part(shape: Shape, part: &Part, place: Place) -> Result<Value, Unsupported> {
    shape.dialect().write_part(part, place)
}

/// Builds a JSON object from key/value pairs, keeping their order.
pub(crate) fn object<const N: usize>(entries: [(&str, Value); N]) -> Value {
    let mut map = Map::with_capacity(N);
    for (key, value) in entries {
        map.insert(key.to_string(), value);
    }
    Value::Object(map)
}

/// A JSON string value.
pub(crate) fn string(text: &str) -> Value {
    Value::String(text.to_string())
}

/// The image types the big providers accept (OpenAI, Anthropic, Bedrock, NeMo Gym).
pub(crate) const WEB_IMAGE_TYPES: &[&str] = &["image/png", "image/jpeg", "image/gif", "image/webp"];

/// The media type of an image whose type nothing tells (a URL with no
/// extension, `https://picsum.photos/200`).
pub(crate) const UNKNOWN_IMAGE_TYPE: &str = "image/*";

/// Whether `part` is an image by URL whose type nothing tells: the provider
/// fetches the bytes and sniffs them, so only the provider can judge it.
pub(crate) fn is_untyped_url_image(part: &MediaPart) -> bool {
    matches!(part.source, crate::part::Source::Url(_)) && part.mime_type == UNKNOWN_IMAGE_TYPE
}

/// Refuses an image whose type is not in `allowed`. An image by URL whose
/// type nothing tells passes: the provider fetches the bytes and sniffs them
/// (OpenAI accepts `https://picsum.photos/200`), so a writer whose URL form
/// declares no type writes it; a writer whose URL form needs a declared type
/// refuses it itself, with its own reason.
pub(crate) fn check_image_type(
    part: &MediaPart,
    shape: Shape,
    allowed: &[&str],
) -> Result<(), Unsupported> {
    if allowed.contains(&part.mime_type.as_str()) || is_untyped_url_image(part) {
        return Ok(());
    }
    let names: Vec<&str> = allowed
        .iter()
        .map(|m| m.strip_prefix("image/").unwrap_or(m))
        .collect();
    Err(Unsupported::media(
        part,
        shape,
        format!("{shape} accepts only {} images", join_or(&names)),
    ))
}

/// `a, b or c`.
pub(crate) fn join_or(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// A tool result written for a shape, with the notes the writer has for stderr.
#[derive(Debug, Clone, PartialEq)]
pub struct Delivered {
    pub value: Value,
    pub notes: Vec<String>,
}

/// Writes one tool result as `shape` delivers it (docs/conversion.md), through the same
/// writer `convert` uses (a one-message transcript in `Form::ToolResult`):
/// natively where the shape carries media in tool results, by two-message
/// delivery for OpenAI Chat. A part the shape cannot carry there came from a
/// tool, so it degrades to toolnexus's placeholder text with a note.
pub fn write_tool_result(shape: Shape, result: &ToolResult) -> Result<Delivered, Unsupported> {
    use crate::convert::{prepare, Context, ConvertError, ConvertOptions, Form, OnUnsupported};
    use crate::transcript::{Block, Message, Role, Transcript};
    let failed = |reason: String| Unsupported {
        part_type: "tool_result",
        mime_type: None,
        shape,
        reason,
    };
    match shape {
        Shape::NemoGym => {
            return Err(failed(
                "write a NeMo Gym reply with `convert --to nemo-gym`".into(),
            ))
        }
        Shape::Canonical => {
            return Ok(Delivered {
                value: result.to_value(),
                notes: Vec::new(),
            })
        }
        _ => {}
    }
    let transcript = Transcript {
        messages: vec![Message::new(
            Role::Tool,
            vec![Block::ToolResult(result.clone())],
        )],
        ..Transcript::default()
    };
    let options = ConvertOptions {
        on_unsupported: Some(OnUnsupported::Text),
        ..ConvertOptions::default()
    };
    let mut context = Context::new(options, Shape::Canonical, shape);
    let written = prepare::for_target(transcript, &mut context).and_then(|transcript| {
        match shape {
            // A reply's text stays `{"output": …}` (docs/commands/split.md; gemini::write_split).
            Shape::Gemini => gemini::write_split(&transcript, Form::ToolResult, &mut context),
            _ => write(shape, &transcript, Form::ToolResult, &mut context),
        }
    });
    let value = written.map_err(|e: ConvertError| failed(e.to_string()))?;
    Ok(Delivered {
        value,
        notes: context.finish(),
    })
}
