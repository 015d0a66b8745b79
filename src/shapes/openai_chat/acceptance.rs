//! What OpenAI's Chat Completions API accepts and refuses of the forms whose
//! fate differs between providers, with the evidence (docs/acceptance.md).

use crate::contract::rules::{Fact, Form};

pub const ACCEPTANCE: &[Fact] = &[Fact::accepts(
    Form::CallsWithoutTools,
    "realworld2/openai-chat/otel-contrib-01.json: two tool_calls and their tool messages, no tools declared, HTTP 200",
)];
