//! The trait every shape implements ([`Dialect`]), with the two macros its
//! implementations are written with. Everything in its signatures is defined
//! in this layer (`crate::contract`), so a shape's folder needs nothing from
//! the engines that call it (docs/architecture.md).

use serde_json::{Map, Value};

use super::{
    At, Context, ConvertError, ConvertFacts, Envelope, Facts, Form, Found, HostedCall, ImageReply,
    Issue, Order, Place, Rank, Reference, Shape, StreamAssembler, ToolObject, Unsupported, Unsure,
    ValidateFacts, Verdict, Walk,
};
use crate::json::out::Out;
use crate::json::{Json, Node, TreeObject};
use crate::part::Part;
use crate::transcript::Transcript;

/// The methods every [`Dialect`] implements the same way: its `Shape`
/// variant, and its module's `FACTS`, `read`, `write` and part writer
/// (`$write_part`, a function of the module taking `(part, place)`).
#[macro_export]
macro_rules! dialect_basics {
    ($variant:ident, $write_part:ident) => {
        fn shape(&self) -> $crate::contract::Shape {
            $crate::contract::Shape::$variant
        }

        fn facts(&self) -> &'static $crate::contract::Facts {
            &FACTS
        }

        fn read(
            &self,
            value: &serde_json::Value,
            context: &mut $crate::contract::Context,
        ) -> Result<
            ($crate::contract::Form, $crate::transcript::Transcript),
            $crate::contract::ConvertError,
        > {
            read(value, context)
        }

        fn write(
            &self,
            transcript: &$crate::transcript::Transcript,
            form: $crate::contract::Form,
            context: &mut $crate::contract::Context,
        ) -> Result<serde_json::Value, $crate::contract::ConvertError> {
            write(transcript, form, context)
        }

        fn write_part(
            &self,
            part: &$crate::part::Part,
            place: $crate::contract::Place,
        ) -> Result<serde_json::Value, $crate::contract::Unsupported> {
            $write_part(part, place)
        }
    };
}

/// The methods a [`Dialect`] answers from its folder, each delegated to the
/// function (or the facts) of the shape's own module named beside it, so that
/// every signature is written once: `delegate! { recognize_media => scan::recognize, … }`.
#[macro_export]
macro_rules! delegate {
    (recognize_media => $f:path) => {
        fn recognize_media<'j>(
            &self,
            value: &'j $crate::json::Json<'j>,
            pointer: &str,
            found: &mut Vec<$crate::contract::Found<'j>>,
        ) -> $crate::contract::Verdict {
            $f(value, pointer, found)
        }
    };
    // The detection rules are one generic function each (`json::Node`),
    // asked of a `Value` or of the borrowed tree.
    (detect_document => $f:path) => {
        fn detect_document(
            &self,
            document: &serde_json::Map<String, serde_json::Value>,
        ) -> Option<$crate::contract::Rank> {
            $f(document)
        }

        fn detect_document_tree(
            &self,
            document: &$crate::json::TreeObject<'_>,
        ) -> Option<$crate::contract::Rank> {
            $f(document)
        }
    };
    (detect_evidence => $f:path) => {
        fn detect_evidence(
            &self,
            at: $crate::contract::At<'_>,
            value: &serde_json::Value,
        ) -> u32 {
            $f(at, value)
        }

        fn detect_evidence_tree(
            &self,
            at: $crate::contract::At<'_>,
            value: &$crate::json::Json<'_>,
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
        fn conversion(&self) -> &'static $crate::contract::ConvertFacts {
            &$f
        }
    };
    (validate_facts => $f:path) => {
        fn validate_facts(&self) -> &'static $crate::contract::ValidateFacts {
            &$f
        }
    };
    (tool_object => $f:path) => {
        fn tool_object(
            &self,
            object: &$crate::json::TreeObject<'_>,
            key: Option<&str>,
        ) -> Option<$crate::contract::ToolObject> {
            $f(object, key)
        }
    };
    (detect_guess => $f:path) => {
        fn detect_guess(&self, case: $crate::contract::Unsure) -> Option<&'static str> {
            $f(case)
        }
    };
    (file_reference => $f:path) => {
        fn file_reference<'v>(
            &self,
            block: &'v serde_json::Value,
        ) -> Option<($crate::contract::Reference, &'v str)> {
            $f(block)
        }
    };
    (validate_rules => $f:path) => {
        fn validate_rules(&self, value: &$crate::json::Json<'_>) -> Vec<$crate::contract::Issue> {
            $f(value)
        }
    };
    (hosted_call => $f:path) => {
        fn hosted_call(&self, block: &serde_json::Value) -> Option<$crate::contract::HostedCall> {
            $f(block)
        }
    };
    (required_id_field => $f:path) => {
        fn required_id_field(
            &self,
            object: &$crate::json::TreeObject<'_>,
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
            found: &mut Vec<$crate::contract::Found<'j>>,
            walk: $crate::contract::Walk<'j>,
        ) -> bool {
            $f(key, item, pointer, found, walk)
        }
    };
    ($($method:ident => $f:path),+ $(,)?) => {
        $($crate::delegate!($method => $f);)+
    };
}

/// The two methods of a [`Dialect`] whose module's `read` is written
/// against `json::Node`, so that it reads the borrowed tree as well as a
/// `Value` (docs/speed.md, "One tree for small documents").
#[macro_export]
macro_rules! reads_trees {
    () => {
        fn read_tree(
            &self,
            tree: &$crate::json::Json<'_>,
            context: &mut $crate::contract::Context,
        ) -> Result<
            ($crate::contract::Form, $crate::transcript::Transcript),
            $crate::contract::ConvertError,
        > {
            read(tree, context)
        }

        fn reads_trees(&self) -> bool {
            true
        }
    };
}

/// One wire shape's knowledge: its reader, its writers and its facts. Each
/// shape's folder (`shapes/<shape>/`) implements it on a unit struct; code
/// outside `shapes/` asks `shape.dialect()` instead of matching on the shape.
pub trait Dialect: Sync {
    /// The shape this is.
    fn shape(&self) -> Shape;

    /// What the command line says of the shape.
    fn facts(&self) -> &'static Facts;

    /// Where the shape stands when the engines ask every shape in turn.
    fn order(&self) -> Order;

    /// Reads a document of the shape into the canonical model.
    fn read(
        &self,
        value: &Value,
        context: &mut Context,
    ) -> Result<(Form, Transcript), ConvertError>;

    /// Reads a small document of the shape from the borrowed tree
    /// (`json::node`), when the shape's reader reads one
    /// ([`Dialect::reads_trees`]); any other gives the tree to
    /// [`Dialect::read`] as a `Value`.
    fn read_tree(
        &self,
        tree: &Json<'_>,
        context: &mut Context,
    ) -> Result<(Form, Transcript), ConvertError> {
        self.read(&tree.to_value(), context)
    }

    /// Whether [`Dialect::read_tree`] reads the tree itself (docs/speed.md,
    /// "One tree for small documents"): the engines then parse a small
    /// document into the tree rather than a `Value`.
    fn reads_trees(&self) -> bool {
        false
    }

    /// Writes the canonical model as a document of the shape, in `form`.
    fn write(
        &self,
        transcript: &Transcript,
        form: Form,
        context: &mut Context,
    ) -> Result<Value, ConvertError>;

    /// [`Dialect::write`] as the output tree ([`crate::json::out`]), which
    /// the engines render or hand to Python without a `Value` in between. A
    /// shape whose writer builds the tree overrides it (and writes its
    /// `Value` from it); the others' `Value` goes inside the tree as it is.
    fn write_out(
        &self,
        transcript: &Transcript,
        form: Form,
        context: &mut Context,
    ) -> Result<Out, ConvertError> {
        self.write(transcript, form, context).map(Out::Value)
    }

    /// Writes one part as a block of the shape at `place`.
    fn write_part(&self, part: &Part, place: Place) -> Result<Value, Unsupported>;

    // --- scan ---
    /// Recognizes one object of a document as a media block of the shape
    /// (`scan::find_media`), pushing what it holds onto `found`.
    fn recognize_media<'j>(
        &self,
        _value: &'j Json<'j>,
        _pointer: &str,
        _found: &mut Vec<Found<'j>>,
    ) -> Verdict {
        Verdict::Other
    }

    /// Scans an object's member (`key`: `item`, at `pointer`) the shape lays
    /// out its own way; whether it did (the scan then does not walk into it).
    /// What the shape does not recognize inside it goes to `walk`.
    fn scan_member<'j>(
        &self,
        _key: &str,
        _item: &'j Json<'j>,
        _pointer: &str,
        _found: &mut Vec<Found<'j>>,
        _walk: Walk<'j>,
    ) -> bool {
        false
    }

    // --- detection and conversion facts (convert) ---

    /// The rank of the first of this shape's rules that tells a whole
    /// document as a single tool result or a response by its own keys, if
    /// any (the lowest rank of all shapes decides, see `convert::detect`).
    fn detect_document(&self, _document: &Map<String, Value>) -> Option<Rank> {
        None
    }

    /// How much `value`, standing `at` that place of a document, says the
    /// document is this shape's: [`STRONG`](super::STRONG)
    /// for what only this shape writes, less for what leans its way, 0 for
    /// nothing (see `convert::detect`).
    fn detect_evidence(&self, _at: At<'_>, _value: &Value) -> u32 {
        0
    }

    /// [`Dialect::detect_document`] of a document parsed into the borrowed
    /// tree (the same rules: `delegate!` writes both).
    fn detect_document_tree(&self, _document: &TreeObject<'_>) -> Option<Rank> {
        None
    }

    /// [`Dialect::detect_evidence`] of a value of the borrowed tree.
    fn detect_evidence_tree(&self, _at: At<'_>, _value: &Json<'_>) -> u32 {
        0
    }

    /// Whether a document's `model` names one of this shape's provider's own
    /// models (a hint that tips a near tie of evidence).
    fn detect_model(&self, _model: &str) -> bool {
        false
    }

    /// Why this shape is the guess when the evidence leaves `case` open
    /// (for the note), or `None` when it is not.
    fn detect_guess(&self, _case: Unsure) -> Option<&'static str> {
        None
    }

    /// What the conversion engine's shape-independent steps need to know of
    /// the shape (ids, empties, tool media, URLs, shared settings).
    fn conversion(&self) -> &'static ConvertFacts {
        &ConvertFacts::PROVIDER
    }

    /// The media reference into the provider's own file store that one of
    /// its blocks (kept opaque) holds, with the string that names it in the
    /// document (to find the block again); `None` when the block is none.
    fn file_reference<'v>(&self, _block: &'v Value) -> Option<(Reference, &'v str)> {
        None
    }

    /// The envelope this shape's documents come wrapped in, if any (NeMo
    /// Gym's rollout lines): the engines open it to reach the conversation.
    fn envelope(&self) -> Option<&'static dyn Envelope> {
        None
    }

    /// The image reply this shape has, if any (NeMo Gym's `tool_output_images`):
    /// `validate` checks its entries.
    fn image_reply(&self) -> Option<&'static dyn ImageReply> {
        None
    }

    /// How this shape's streamed responses are assembled into the response
    /// they stand for (docs/streams.md); `None`, the default, for a shape
    /// that has no streams.
    fn stream(&self) -> Option<&'static dyn StreamAssembler> {
        None
    }

    // --- writers ---

    /// Why `encode` leaves `part` out of a message of the shape, with a
    /// warning, rather than writing a block the API refuses (Anthropic's
    /// whitespace-only text); `None` to write it.
    fn leaves_out(&self, _part: &Part) -> Option<&'static str> {
        None
    }

    /// One tool result of a split reply (`split --to`), written the shape's
    /// own way where that differs from its writer's `Form::ToolResult`;
    /// `None` to use the writer.
    fn write_split_reply(
        &self,
        _transcript: &Transcript,
        _context: &mut Context,
    ) -> Option<Result<Value, ConvertError>> {
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
    /// Asked of the borrowed tree `validate` reads (its payloads lent).
    fn validate_rules(&self, _value: &Json<'_>) -> Vec<Issue> {
        Vec::new()
    }

    /// What `validate`'s transcript checks need to know of the shape.
    fn validate_facts(&self) -> &'static ValidateFacts {
        &ValidateFacts::DEFAULT
    }

    /// Whether an object of a document of the shape is a tool call or a tool
    /// result, as the shape's reader reads them; `key` is the member (or, for
    /// list items, the list's member) the object stands under.
    fn tool_object(&self, _object: &TreeObject<'_>, _key: Option<&str>) -> Option<ToolObject> {
        None
    }

    /// The hosted tool call an opaque block of the shape is, if it is one.
    fn hosted_call(&self, _block: &Value) -> Option<HostedCall> {
        None
    }

    /// The id member a call or result object must have where the shape's
    /// reader refuses one without it (`validate` reports a missing id as a
    /// finding of its own, so it reads it as empty).
    fn required_id_field(
        &self,
        _object: &TreeObject<'_>,
        _key: Option<&str>,
    ) -> Option<&'static str> {
        None
    }
}

/// A tree the detection rules can be asked of: which of a [`Dialect`]'s two
/// methods takes it (`convert::detect` is generic over it).
pub trait Weighed: Node {
    fn document_rank(dialect: &dyn Dialect, document: &Self::Object) -> Option<Rank>;
    fn evidence(dialect: &dyn Dialect, at: At<'_>, value: &Self) -> u32;
}

impl Weighed for Value {
    fn document_rank(dialect: &dyn Dialect, document: &Map<String, Value>) -> Option<Rank> {
        dialect.detect_document(document)
    }

    fn evidence(dialect: &dyn Dialect, at: At<'_>, value: &Value) -> u32 {
        dialect.detect_evidence(at, value)
    }
}

impl<'a> Weighed for Json<'a> {
    fn document_rank(dialect: &dyn Dialect, document: &TreeObject<'a>) -> Option<Rank> {
        dialect.detect_document_tree(document)
    }

    fn evidence(dialect: &dyn Dialect, at: At<'_>, value: &Json<'a>) -> u32 {
        dialect.detect_evidence_tree(at, value)
    }
}
