//! What Bedrock's Converse API accepts and refuses of the forms whose fate
//! differs between providers, with the evidence (docs/acceptance.md).

use crate::contract::rules::{Fact, Form};

pub const ACCEPTANCE: &[Fact] = &[Fact::refuses(
    Form::CallsWithoutTools,
    "Bedrock's error: \"The toolConfig field must be defined when using toolUse and toolResult content blocks.\"",
)];
