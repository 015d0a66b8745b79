//! What a shape answers when the engine tells a document's shape
//! (`convert::detect`, docs/detection.md): the rank of a rule that tells a
//! document by its own keys, the weights of evidence, where a weighed value
//! stands, and the cases the evidence leaves open.

/// The kinds of document told by their own keys, in the order they are
/// tried: a single tool result first, since its keys are the fewest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Tier {
    ToolResult,
    Response,
}

/// Where a document rule stands in the order of all shapes' rules (see the
/// module): the lowest rank that fits decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Rank {
    pub tier: Tier,
    pub order: u8,
}

impl Rank {
    pub const fn new(tier: Tier, order: u8) -> Rank {
        Rank { tier, order }
    }
}

/// The weight of a key, block type or value form that only one shape writes.
pub const STRONG: u32 = 10;
/// The weight of a form that leans one way but that other shapes may share
/// (a system message with string content, a typed system block).
pub const WEAK: u32 = 3;
/// The weight of a hint that only breaks near ties (a typed text block in a
/// system list, which canonical and Anthropic both write).
pub const HINT: u32 = 1;

/// Where an object stands in the document, for the shapes that weigh it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum At<'d> {
    /// The document itself (a request body).
    Document,
    /// An item of the list of messages (`messages`, `contents`, `input`, or a
    /// bare list).
    Message,
    /// An item of a message's `list` (`content`, `parts`), in a message of `role`.
    Block {
        role: Option<&'d str>,
        list: &'d str,
    },
    /// The value of the top-level `system` (a string or a list of blocks).
    System,
    /// An item of the top-level `system` list.
    SystemBlock,
    /// An item of a block's own `content` list (inside a tool result).
    Inner,
    /// An item of the top-level `tools` list (or Bedrock's `toolConfig.tools`).
    Tool,
}

/// Evidence that leaves more than one shape open; one shape is the guess.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unsure {
    /// Messages with nothing but text.
    PlainMessages,
    /// A body with `system` and `messages` whose blocks tell nothing.
    SystemBody,
    /// A list of messages in which no shape sees anything of its own.
    Messages,
}
