//! What the conversion engine needs to know of Gemini generateContent.

use crate::contract::ConvertFacts;

pub const FACTS: ConvertFacts = ConvertFacts {
    // Calls and responses pair by name and order; an id is optional.
    needs_call_ids: false,
    // Gemini also reads its own Cloud Storage.
    url_schemes: Some(&["http", "https", "gs"]),
    // Streaming is `streamGenerateContent`, another endpoint.
    streams_by_endpoint: true,
    // Google's placeholder for a call without a thought signature signs nothing.
    placeholders: &[("thoughtSignature", super::THOUGHT_SIGNATURE_PLACEHOLDER)],
    ..ConvertFacts::PROVIDER
};
