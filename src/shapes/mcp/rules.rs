//! What `validate` asks of MCP documents.

use crate::validate::kit::{CallIds, ValidateFacts};

/// A `CallToolResult` carries no call id.
pub const FACTS: ValidateFacts = ValidateFacts {
    ids: CallIds {
        in_results: false,
        ..ValidateFacts::DEFAULT.ids
    },
    ..ValidateFacts::DEFAULT
};
