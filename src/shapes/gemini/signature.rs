//! Thought signatures for calls another model made.
//!
//! Gemini 3 refuses a history whose function calls carry no `thoughtSignature`
//! (400 "Function call is missing a thought_signature"). Calls read from
//! another shape never had one. Google's thought-signature guide gives the
//! fallback for history from another model or calls made up by the caller: the
//! placeholder `skip_thought_signature_validator` on the first function call of
//! each model step (parallel calls need it on the first only). Gemini 2.x
//! ignores it.

use serde_json::Value;

use crate::contract::Context;
use crate::shapes::Shape;

/// The placeholder Google documents for calls without a real signature.
pub const PLACEHOLDER: &str = "skip_thought_signature_validator";

/// Gives the first function call of each model content without any thought
/// signature the placeholder, when the calls came from a provider shape other
/// than Gemini (a canonical input may have come from Gemini: it is left as it
/// is, which keeps Gemini -> canonical -> Gemini exact), and says so once.
pub fn sign_foreign_calls(contents: &mut [Value], context: &mut Context) {
    if matches!(context.source, Shape::Gemini | Shape::Canonical) {
        return;
    }
    let mut signed = 0;
    for content in contents.iter_mut() {
        if content.get("role").and_then(Value::as_str) != Some("model") {
            continue;
        }
        let Some(Value::Array(parts)) = content.get_mut("parts") else {
            continue;
        };
        if parts.iter().any(|p| p.get("thoughtSignature").is_some()) {
            continue;
        }
        if let Some(Value::Object(call)) =
            parts.iter_mut().find(|p| p.get("functionCall").is_some())
        {
            call.insert("thoughtSignature".into(), Value::String(PLACEHOLDER.into()));
            signed += 1;
        }
    }
    if signed > 0 {
        context.note(format!(
            "gemini: calls from {} carry no thought signature, which Gemini 3 requires; wrote Google's documented placeholder {PLACEHOLDER:?} on the first call of {signed} model turn(s)",
            context.source
        ));
    }
}
