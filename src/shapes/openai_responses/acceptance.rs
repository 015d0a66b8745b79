//! What OpenAI's Responses API accepts and refuses of the forms whose fate
//! differs between providers, with the evidence (docs/acceptance.md).

use crate::contract::rules::{Fact, Form};

pub const ACCEPTANCE: &[Fact] = &[
    // The Chat Completions recording is the same provider's: neither API
    // checks the history's calls against the declared tools.
    Fact::accepts(
        Form::CallsWithoutTools,
        "as Chat Completions: realworld2/openai-chat/otel-contrib-01.json, HTTP 200 (no Responses recording yet)",
    ),
    Fact::accepts(
        Form::HostedCallUndeclared,
        "as CallsWithoutTools: OpenAI does not check the history's calls against the declared tools (no recording yet of a hosted call without its tool)",
    ),
    Fact::accepts(
        Form::ImageWithoutDetail,
        "realworld2/openai-responses/ellmer-01.json and crewai-02.json: input_image without detail, HTTP 200 (the API defaults it to auto)",
    ),
    Fact::accepts(
        Form::ResultsOfEarlierResponse,
        "realworld2/openai-responses/openinference-01.json: function_call_outputs whose calls are in the response named by previous_response_id, HTTP 200",
    ),
];
