//! What `validate` asks of NeMo Gym documents.

use crate::shapes::Shape;
use crate::validate::kit::{CallIds, ValidateFacts};

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

/// The shape of a rollout's conversation (the request's input and the
/// response's output, with the request's tools): an OpenAI Responses request.
pub const ROLLOUT_CONVERSATION: Shape = Shape::OpenaiResponses;
