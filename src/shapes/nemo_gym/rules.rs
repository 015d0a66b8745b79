//! What `validate` asks of NeMo Gym documents.

use crate::contract::rules::{CallIds, ValidateFacts};

/// A NeMo Gym reply is checked as a reply (its `tool_output_images`), not as
/// a transcript, and carries no call id.
pub const FACTS: ValidateFacts = ValidateFacts {
    transcript: false,
    ids: CallIds {
        in_results: false,
        ..ValidateFacts::DEFAULT.ids
    },
    ..ValidateFacts::DEFAULT
};
