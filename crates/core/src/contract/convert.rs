//! What a conversion step needs in a shape's reader and writer: the form of a
//! document, the options, the error, the running [`Context`] (notes, losses,
//! the unsupported-part policy) and the facts each shape gives the engine
//! ([`ConvertFacts`]).

use serde_json::Value;

use super::{Dialect, Place, Shape, Unsupported};
use crate::json::lent::Lending;
use crate::json::Reading;
use crate::part::{MediaPart, Part, Source};
use crate::transcript::Block;

/// What a document is, independent of its shape; the output keeps the form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// A request body (messages plus system prompt, tools and parameters).
    Request,
    /// A bare list of messages.
    Messages,
    /// A provider response, read as one assistant turn.
    Response,
    /// A single tool result.
    ToolResult,
}

/// What to do with a part the target cannot carry (`--on-unsupported`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnUnsupported {
    Error,
    Text,
}

/// Where media in tool results goes (`--tool-media`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ToolMedia {
    /// Natively wherever the target carries it (two-message delivery for OpenAI Chat).
    #[default]
    Native,
    /// Two-message delivery on any target.
    Lift,
}

/// What to do with an arguments string that is not JSON (`--on-invalid-arguments`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OnInvalidArguments {
    #[default]
    Error,
    Keep,
}

/// How to convert.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ConvertOptions {
    /// `None`: by provenance (attached parts are an error, tool parts degrade).
    pub on_unsupported: Option<OnUnsupported>,
    pub tool_media: ToolMedia,
    pub on_invalid_arguments: OnInvalidArguments,
    /// Any loss (a dropped setting or block) is an error.
    pub strict: bool,
    /// The call id of a single tool result whose shape carries none (MCP, NeMo Gym).
    pub call_id: Option<String>,
    /// The tool name of a single tool result whose shape carries none.
    pub tool_name: Option<String>,
}

/// Why a conversion failed (exit 1: the input was read but cannot be converted).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ConvertError {
    /// The input is not a valid document of its shape.
    #[error("{}{message}", pointer_prefix(.pointer))]
    Invalid { pointer: String, message: String },
    /// A part the target cannot carry, under the error policy.
    #[error("{}{unsupported}", pointer_prefix(.pointer))]
    Unsupported {
        pointer: String,
        unsupported: Unsupported,
    },
    /// Something would be lost, under `--strict`.
    #[error("--strict: {0}")]
    Loss(String),
}

fn pointer_prefix(pointer: &str) -> String {
    if pointer.is_empty() {
        String::new()
    } else {
        format!("{pointer}: ")
    }
}

impl ConvertError {
    /// The error with its pointer mapped (into the document that encloses
    /// the one converted, say).
    pub fn map_pointer(self, map: impl Fn(&str) -> String) -> ConvertError {
        match self {
            ConvertError::Invalid { pointer, message } => ConvertError::Invalid {
                pointer: map(&pointer),
                message,
            },
            ConvertError::Unsupported {
                pointer,
                unsupported,
            } => ConvertError::Unsupported {
                pointer: map(&pointer),
                unsupported,
            },
            loss @ ConvertError::Loss(_) => loss,
        }
    }

    /// An invalid-input error at a JSON pointer.
    pub fn invalid(pointer: impl Into<String>, message: impl Into<String>) -> ConvertError {
        ConvertError::Invalid {
            pointer: pointer.into(),
            message: message.into(),
        }
    }
}

/// The state of one conversion: options, the target, and the notes for stderr.
#[derive(Debug)]
pub struct Context {
    pub options: ConvertOptions,
    pub source: Shape,
    pub target: Shape,
    /// The target's facts (the URL schemes it fetches).
    target_facts: &'static ConvertFacts,
    /// What the document read lends and how it spells its numbers.
    reading: Reading,
    notes: Vec<String>,
    dropped: Vec<String>,
}

impl Context {
    /// The context of a conversion from `source` into `target` (given as its
    /// dialect, whose facts the part writer consults).
    pub fn new(options: ConvertOptions, source: Shape, target: &'static dyn Dialect) -> Context {
        Context {
            options,
            source,
            target: target.shape(),
            target_facts: target.conversion(),
            reading: Reading::default(),
            notes: Vec::new(),
            dropped: Vec::new(),
        }
    }

    /// This context, for a document read as `reading` says (its lent
    /// payloads, its spellings of numbers); a new context lends nothing.
    pub fn with_reading(mut self, reading: Reading) -> Context {
        self.reading = reading;
        self
    }

    /// What the document lends and how it spells its numbers.
    pub fn reading(&self) -> &Reading {
        &self.reading
    }

    /// What the document lends: the readers and writers see through its
    /// placeholders with it.
    pub fn lending(&self) -> &Lending {
        self.reading.lending()
    }

    /// Compact JSON text of a value read from the document, its numbers
    /// spelled as the document spells them (a tool call's arguments written
    /// as a string).
    pub fn text_of(&self, value: &Value) -> String {
        self.reading.text_of(value)
    }

    /// A note for stderr, said once.
    pub fn note(&mut self, note: impl Into<String>) {
        let note = note.into();
        if !self.notes.contains(&note) {
            self.notes.push(note);
        }
    }

    /// Something the target has no place for: an error under `--strict`, else
    /// listed in one warning at the end.
    pub fn lose(&mut self, what: impl Into<String>) -> Result<(), ConvertError> {
        // Names what the input holds (a block type, a key): cut, as echoed.
        let what = crate::echo::cut(&what.into(), 120).to_string();
        if self.options.strict {
            return Err(ConvertError::Loss(format!(
                "{} cannot carry {what}",
                self.target
            )));
        }
        if !self.dropped.contains(&what) {
            self.dropped.push(what);
        }
        Ok(())
    }

    /// A part `shape` cannot carry at `place`: by the policy, an error or the
    /// placeholder text (noted once per part type). The default goes by
    /// provenance: attached parts are an error, parts from tools degrade.
    pub fn unsupported(
        &mut self,
        part: &Part,
        place: Place,
        pointer: &str,
        unsupported: Unsupported,
    ) -> Result<Block, ConvertError> {
        let policy = self.options.on_unsupported.unwrap_or(match place {
            Place::User => OnUnsupported::Error,
            Place::ToolResult => OnUnsupported::Text,
        });
        match policy {
            OnUnsupported::Error => Err(ConvertError::Unsupported {
                pointer: pointer.to_string(),
                unsupported,
            }),
            OnUnsupported::Text => {
                self.note(format!(
                    "{} parts cannot be carried by {}; replaced by a placeholder text",
                    part.type_name(),
                    unsupported.shape.block_name()
                ));
                Ok(Block::text(crate::transcript::unsupported_placeholder(
                    part,
                    self.lending(),
                )))
            }
        }
    }

    /// Writes a part with `write`, or applies the unsupported-part policy.
    pub fn write_part<T>(
        &mut self,
        part: &Part,
        place: Place,
        pointer: &str,
        write: impl Fn(&Part) -> Result<T, Unsupported>,
    ) -> Result<T, ConvertError> {
        let written = match part {
            // A URL the provider cannot fetch (an MCP `test://` resource, a
            // local `file://`) is not media it can carry.
            Part::Media(
                media @ MediaPart {
                    source: Source::Url(url),
                    ..
                },
            ) if !fetchable(self.target_facts, url) => Err(Unsupported::media(
                media,
                self.target,
                format!("{} fetches only http(s) URLs", self.target),
            )),
            _ => write(part),
        };
        match written {
            Ok(value) => Ok(value),
            Err(unsupported) => {
                let replacement = self.unsupported(part, place, pointer, unsupported)?;
                let text = replacement
                    .as_part()
                    .cloned()
                    .unwrap_or(Part::Text(String::new()));
                write(&text).map_err(|unsupported| ConvertError::Unsupported {
                    pointer: pointer.to_string(),
                    unsupported,
                })
            }
        }
    }

    /// The notes and the one warning about dropped content.
    pub fn finish(mut self) -> Vec<String> {
        if !self.dropped.is_empty() {
            let list = self.dropped.join(", ");
            self.notes
                .push(format!("{} has no place for {list}; dropped", self.target));
        }
        self.notes
    }
}

/// Whether a target with these facts can fetch media at `url` (its
/// [`ConvertFacts::url_schemes`]).
fn fetchable(target: &ConvertFacts, url: &str) -> bool {
    let scheme = url
        .split_once(':')
        .map_or("", |(scheme, _)| scheme)
        .to_ascii_lowercase();
    target
        .url_schemes
        .is_none_or(|schemes| schemes.contains(&scheme.as_str()))
}

/// What the shape-independent steps of a conversion need to know of a shape;
/// each shape's folder holds its own (`shapes/<shape>/conversion.rs`), asked
/// as `shape.dialect().conversion()`.
#[derive(Debug)]
pub struct ConvertFacts {
    /// The API pairs calls and results by id, so every call and result must
    /// carry one: id-less calls get made-up ids (`prepare::assign_ids`).
    pub needs_call_ids: bool,
    /// The API refuses empty messages and empty text parts, so they are left
    /// out (unless the shape wrote them itself).
    pub refuses_empty_messages: bool,
    /// Its file parts take only PDF, so a text file is delivered as a text
    /// part a model reads as well.
    pub text_files_as_text: bool,
    /// Its tool results carry media; where they do not, the media is lifted
    /// out into a user message (two-message delivery, docs/conversion.md).
    pub tool_results_carry_media: bool,
    /// It has user messages to lift tool media into when `--tool-media lift`
    /// asks (not so a shape that is only tool results, or the model itself).
    pub lifts_tool_media_on_request: bool,
    /// The URL schemes the provider fetches media from; `None`: it fetches
    /// nothing and keeps any URI as it is.
    pub url_schemes: Option<&'static [&'static str]>,
    /// A response may hold more than one turn (tool results after the calls)
    /// as it is; other shapes write such a response as a message list.
    pub response_holds_turns: bool,
    /// Its documents are the canonical model written out: a pointer into the
    /// transcript is one into the document, and reading it needs no hints for
    /// writing it back.
    pub document_is_model: bool,
    /// It carries other shapes' opaque blocks as they are, file references
    /// included, so nothing has to replace them.
    pub carries_opaque_blocks: bool,
    /// Request settings it spells as other shapes do (`stream`): kept by one,
    /// they go across to another that has them too.
    pub shared_settings: &'static [&'static str],
    /// Streaming is chosen by the endpoint a body is sent to, not by a field:
    /// leaving `stream` out of its body loses nothing.
    pub streams_by_endpoint: bool,
    /// Fields of another shape's part (its inner object, `(shape, field)`)
    /// that this shape's writer carries over, so they are not lost.
    pub carried_inner_fields: &'static [(Shape, &'static str)],
    /// Field values (`(field, value)`) the shape writes where it has nothing
    /// to say: kept by it, dropping them loses nothing.
    pub placeholders: &'static [(&'static str, &'static str)],
    /// Request settings that put a body's earlier turns on the provider's
    /// server (Responses `previous_response_id`, `conversation`): a body that
    /// has one may answer calls it does not hold (see `convert::history`).
    pub server_history: &'static [&'static str],
    /// It holds a tool result whose call is not in the document as it is
    /// (the model itself, and the shapes that are one tool result); a
    /// provider's request refuses one.
    pub holds_lone_results: bool,
}

impl ConvertFacts {
    /// A provider API's, which most shapes are: ids required, empties
    /// refused, media in tool results, http(s) URLs fetched.
    pub const PROVIDER: ConvertFacts = ConvertFacts {
        needs_call_ids: true,
        refuses_empty_messages: true,
        text_files_as_text: false,
        tool_results_carry_media: true,
        lifts_tool_media_on_request: true,
        url_schemes: Some(&["http", "https"]),
        response_holds_turns: false,
        document_is_model: false,
        carries_opaque_blocks: false,
        shared_settings: &[],
        streams_by_endpoint: false,
        carried_inner_fields: &[],
        placeholders: &[],
        server_history: &[],
        holds_lone_results: false,
    };

    /// A shape that carries whatever it is given as it is (the canonical
    /// model, and the single tool results of MCP and NeMo Gym): nothing is
    /// required, refused or fetched.
    pub const CARRIER: ConvertFacts = ConvertFacts {
        needs_call_ids: false,
        refuses_empty_messages: false,
        lifts_tool_media_on_request: false,
        url_schemes: None,
        holds_lone_results: true,
        ..ConvertFacts::PROVIDER
    };
}
