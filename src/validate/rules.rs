//! The rule table: every finding `validate` can report, with a stable id.

pub use crate::contract::rules::Severity;

/// One rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    /// The stable id used in findings, `--ignore` and `--list-rules`.
    pub id: &'static str,
    pub severity: Severity,
    /// Whether `--fix` repairs it (it has exactly one right answer).
    pub fixable: bool,
    /// One line saying what the rule checks.
    pub summary: &'static str,
}

const fn rule(id: &'static str, severity: Severity, fixable: bool, summary: &'static str) -> Rule {
    Rule {
        id,
        severity,
        fixable,
        summary,
    }
}

use Severity::{Error, Warning};

/// Every rule, in the order `--list-rules` prints them.
pub const RULES: &[Rule] = &[
    rule("invalid-json", Error, false, "the document (or JSON Lines line) is not valid JSON"),
    rule("duplicate-key", Warning, false, "an object writes a key more than once: every reader (partkit, serde_json, Python, JavaScript) takes the last value and ignores the others"),
    rule("broken-stream", Error, false, "a recorded streamed response cannot be assembled: cut short before its last event, an AWS event-stream frame whose checksum fails, an error event from the service"),
    rule("at-missing", Error, false, "the document has no value at an --at pointer (--at-missing skip passes such documents over)"),
    rule("reply-images-not-list", Error, false, "tool_output_images is neither a list nor null"),
    rule("reply-image-not-object", Error, false, "a tool_output_images entry is not an object"),
    rule("reply-image-unknown-key", Error, false, "an entry has a key other than image_url and label"),
    rule("reply-image-url-missing", Error, false, "an entry has no image_url, or it is not a string"),
    rule("reply-image-label", Error, false, "an entry's label is neither a string nor null"),
    rule("reply-image-not-data-url", Error, false, "image_url is not a base64 data: URL with a media type (a remote URL, a non-base64 data URL)"),
    rule("reply-image-type", Error, true, "image_url declares a type other than exactly image/png, image/jpeg, image/gif or image/webp (NeMo Gym refuses image/jpg and IMAGE/PNG); --fix writes the exact type when the declared one means it"),
    rule("part-invalid", Error, false, "a canonical part is malformed: unknown type, no mimeType, not exactly one of data and url, a field of the wrong type"),
    rule("base64-invalid", Error, false, "a payload is not base64, not even read leniently"),
    rule("base64-noncanonical", Error, true, "a payload is base64 but not canonical (line breaks, URL-safe alphabet, missing padding); --fix re-encodes it"),
    rule("media-empty", Error, false, "a payload decodes to no bytes"),
    rule("media-type-mismatch", Error, true, "the bytes are another type than declared (a warning where the provider reads the bytes whatever the label: Gemini); --fix writes the sniffed type"),
    rule("media-type-alias", Warning, true, "the declared type is spelled other than in normalized form (image/jpg, IMAGE/PNG, a bare top-level name such as text, a charset on bytes that are not text); --fix normalizes it, keeping its other parameters"),
    rule("image-header", Error, false, "the image header does not parse"),
    rule("image-truncated", Error, false, "the image does not decode in full (checked with --deep)"),
    rule("image-not-decoded", Warning, false, "--deep could not decode the image within the decoder's memory limit (512 MiB), so it is checked by its header only"),
    rule("base64-in-text", Warning, false, "a base64 data: URL is pasted into a text field, where the model sees characters, not media"),
    rule("limit-image-type", Error, false, "the image type is not one the --profile accepts (or an animated GIF where only still ones are)"),
    rule("limit-bytes", Error, false, "a media part is over --max-bytes or the profile's per-image cap"),
    rule("limit-dim", Error, false, "an image side is over --max-dim, the profile's limit, or the limit for documents with many images"),
    rule("limit-images", Error, false, "the document holds more images than --max-images or the profile allows"),
    rule("limit-total-bytes", Error, false, "the document's images (or inline media) add up to more than the profile allows"),
    rule("transcript-invalid", Error, false, "the document is not a valid document of its shape (the convert reader refuses it)"),
    rule("media-placement", Error, false, "media where the shape does not carry it (an image in an OpenAI Chat tool or assistant message, audio in Anthropic or Responses, audio in a Bedrock toolResult)"),
    rule("text-empty", Error, false, "an empty or whitespace-only text block where the shape refuses one (Anthropic, Bedrock)"),
    rule("content-empty", Error, false, "a message whose content is an empty list where the shape refuses one (OpenAI Chat, Anthropic, Bedrock)"),
    rule("shape-field", Error, false, "a field the shape requires is missing or malformed (a Gemini functionResponse.response that is not an object or a role other than user and model, an OpenAI Chat tool_calls list that is empty, an MCP mimeType that is no media type, a Bedrock document name outside its alphabet)"),
    rule("shape-order", Error, false, "messages in an order the shape refuses (Bedrock roles that do not alternate)"),
    rule("tool-id-missing", Error, false, "a tool call or result without an id (or with an empty one) where the shape needs one"),
    rule("tool-id-duplicate", Error, false, "two tool calls with the same id"),
    rule("tool-id-pattern", Error, false, "a call id outside the shape's pattern (Bedrock [a-zA-Z0-9_.:-]{1,64}, Anthropic [a-zA-Z0-9_-]+)"),
    rule("tool-call-unanswered", Error, false, "a tool call with no result in the tool results right after it"),
    rule("tool-result-orphan", Error, false, "a tool result whose id matches no call (a Responses request chained by previous_response_id or conversation answers calls the body does not hold: not reported)"),
    rule("tool-result-duplicate", Error, false, "a tool call answered more than once"),
    rule("tool-result-position", Error, false, "a tool result that is not right after its call's turn (Anthropic: the next message; OpenAI: the following tool messages)"),
    rule("tool-undeclared", Error, false, "a call of a tool the request does not declare (a hosted tool's call too, such as a Responses web_search_call): an error where the provider refuses such a request (Anthropic, Bedrock), a warning where it accepts it (OpenAI, Gemini)"),
    rule("tool-call-caught", Warning, false, "a call of an undeclared tool, or with arguments that break its schema, answered by an error result, or answered at all in OpenAI's shapes, whose results cannot say they are errors (the mistake was caught)"),
    rule("tool-duplicate-name", Error, false, "two tools declared with the same name"),
    rule("tool-schema-invalid", Error, false, "a declared tool schema that is not valid JSON Schema"),
    rule("tool-arguments-json", Error, false, "tool-call arguments that are empty or not JSON"),
    rule("tool-arguments-not-object", Error, false, "tool-call arguments that are JSON but not an object"),
    rule("tool-arguments-schema", Error, false, "tool-call arguments that do not validate against the tool's schema (or arguments to a tool that declares none)"),
    rule("target-unsupported", Error, false, "with --target: what converting the transcript to that shape would refuse or drop"),
];

/// The rule with this id.
pub fn find(id: &str) -> Option<&'static Rule> {
    RULES.iter().find(|r| r.id == id)
}

/// The rule with this id, which must exist (ids used in code are in the table).
pub fn get(id: &str) -> &'static Rule {
    find(id).unwrap_or_else(|| panic!("rule {id} is not in the table"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_kebab_case() {
        for (i, rule) in RULES.iter().enumerate() {
            assert!(rule
                .id
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'));
            assert!(
                RULES[i + 1..].iter().all(|other| other.id != rule.id),
                "{}",
                rule.id
            );
        }
    }
}
