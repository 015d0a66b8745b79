//! What the Gemini API (and Vertex AI's generateContent) accepts and refuses
//! of the forms whose fate differs between providers, with the evidence
//! (docs/acceptance.md).

use crate::contract::rules::{Fact, Form};

pub const ACCEPTANCE: &[Fact] = &[
    // Gemini does not check the history's calls against the declared tools.
    Fact::accepts(
        Form::CallsWithoutTools,
        "realworld/gemini/pydantic-ai-02.json: a functionCall of list_files, which the request does not declare, HTTP 200",
    ),
    Fact::accepts(
        Form::MediaTypeMismatch,
        "lmnr-ai/lmnr-python, a google-genai cassette of an image prompt (test_google_genai_image.yaml): inlineData declared image/png holding JPEG bytes, HTTP 200",
    ),
    Fact::accepts(
        Form::SingleValueForList,
        "realworld2/gemini/ellmer-01.json, -02, -04: systemInstruction.parts as one object, HTTP 200",
    ),
    Fact::accepts(
        Form::EnumNumbers,
        "realworld2/gemini/otel-contrib-01.json: Vertex AI with enum-encoding=int, schema type 6 and 1, HTTP 200",
    ),
    Fact::accepts(
        Form::SnakeCaseFields,
        "realworld2/gemini/crewai-01.json and aviary-01.json: snake_case tool fields, HTTP 200",
    ),
];
