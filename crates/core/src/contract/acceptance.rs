//! Acceptance facts: what a provider accepts or refuses of the forms whose
//! fate differs between providers, each with its evidence. Every shape keeps
//! its own list (`shapes/<shape>/acceptance.rs`); `validate` reads the
//! severity of a provider-dependent finding from it (docs/acceptance.md).

use super::rules::Severity;

/// A form of a document whose acceptance differs between providers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// Tool calls (or results) in a request that declares no tools at all.
    CallsWithoutTools,
    /// A hosted tool's call in the history (a Responses `web_search_call`, an
    /// Anthropic `server_tool_use`) with no such hosted tool declared.
    HostedCallUndeclared,
    /// A message whose content is empty (`""` or `[]`).
    EmptyContent,
    /// An image part without `detail` (Responses `input_image`).
    ImageWithoutDetail,
    /// Enums written as numbers (Vertex AI's `enum-encoding=int`).
    EnumNumbers,
    /// A single value where a repeated field is expected (protobuf JSON).
    SingleValueForList,
    /// Field names in snake_case in a camelCase API.
    SnakeCaseFields,
    /// A media part whose declared type is not the type of its bytes.
    MediaTypeMismatch,
    /// Parameters on a media type (`text/plain; charset=utf-8`).
    MediaTypeParameters,
    /// Tool results whose calls are in a previous response the body chains
    /// to (`previous_response_id`, `conversation`).
    ResultsOfEarlierResponse,
}

/// What the provider does with the form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Accepts,
    Refuses,
}

/// One fact, with where it comes from: a recording the provider answered
/// (its path under `shared/realworld*/` and the status), or the provider's
/// own words (its documented error text).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fact {
    pub form: Form,
    pub verdict: Verdict,
    pub evidence: &'static str,
}

impl Fact {
    pub const fn accepts(form: Form, evidence: &'static str) -> Fact {
        Fact {
            form,
            verdict: Verdict::Accepts,
            evidence,
        }
    }

    pub const fn refuses(form: Form, evidence: &'static str) -> Fact {
        Fact {
            form,
            verdict: Verdict::Refuses,
            evidence,
        }
    }
}

/// What `facts` say of `form`, if anything.
pub fn verdict(facts: &[Fact], form: Form) -> Option<Verdict> {
    facts
        .iter()
        .find(|fact| fact.form == form)
        .map(|fact| fact.verdict)
}

/// The severity of a finding about `form` in a document of a provider with
/// `facts`: an error where the provider refuses it, a warning where it
/// accepts it, the rule's own where nothing is known.
pub fn severity(facts: &[Fact], form: Form) -> Option<Severity> {
    verdict(facts, form).map(|verdict| match verdict {
        Verdict::Refuses => Severity::Error,
        Verdict::Accepts => Severity::Warning,
    })
}
