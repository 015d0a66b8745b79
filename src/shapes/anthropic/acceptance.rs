//! What Anthropic's Messages API accepts and refuses of the forms whose fate
//! differs between providers, with the evidence (docs/acceptance.md).

use crate::contract::rules::{Fact, Form};

pub const ACCEPTANCE: &[Fact] = &[
    Fact::refuses(
        Form::CallsWithoutTools,
        "Anthropic's error: \"Requests which include `tool_use` or `tool_result` blocks must define tools.\"",
    ),
    Fact::refuses(
        Form::EmptyContent,
        "realworld2/anthropic/mirascope-05.json, HTTP 400: \"messages.0: all messages must have non-empty content except for the optional final assistant message\"",
    ),
];
