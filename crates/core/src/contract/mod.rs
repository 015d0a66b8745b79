//! The contract every shape implements, in one place: the [`Dialect`] trait
//! and everything its signatures name — the shapes ([`Shape`], [`Place`],
//! [`Unsupported`]), the conversion context and error, the facts a shape
//! gives each engine, detection ranks, file references, scan verdicts and
//! validation issues. A shape's folder (`src/shapes/<shape>/`) imports this
//! layer and the model below it, never an engine; the engines (`convert`,
//! `validate`, `scan`, …) reach the shapes only through the registry
//! (`Shape::dialect`). docs/architecture.md draws the layers.

pub mod acceptance;
pub mod convert;
pub mod detect;
pub mod dialect;
pub mod envelope;
pub mod ext;
pub mod pointer;
pub mod reference;
pub mod reply;
pub mod rules;
pub mod scan;
pub mod shape;
pub mod stream;

pub use convert::{Context, ConvertError, ConvertFacts, Form, OnInvalidArguments};
pub use detect::{At, Rank, Tier, Unsure, HINT, STRONG, WEAK};
pub use dialect::{Dialect, Weighed};
pub use envelope::{Conversation, Envelope, LineMap};
pub use reference::Reference;
pub use reply::{EntryProblem, ImageReply, ReplyImage, SplitImage, SplitReply};
pub use rules::{HostedCall, Issue, ToolObject, ValidateFacts};
pub use scan::{Found, Verdict, Walk};
pub use shape::{Facts, Order, Place, Shape, Unsupported, HUB};
pub use stream::{append_text, join_fragments, unknown_event, Assembly, StreamAssembler};
