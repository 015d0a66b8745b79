//! What the conversion engine needs to know of the canonical model.

use crate::contract::ConvertFacts;

/// The model itself: it carries everything as it is, a response of several
/// turns and other shapes' opaque blocks included.
pub const FACTS: ConvertFacts = ConvertFacts {
    response_holds_turns: true,
    document_is_model: true,
    carries_opaque_blocks: true,
    ..ConvertFacts::CARRIER
};
