//! The Python keyword arguments as the library's options; a value the
//! command line would refuse is a `UsageError` naming the choices.

use partkit::convert::document::{ConvertRequest, RolloutChoice};
use partkit::convert::{ConvertOptions, OnInvalidArguments, OnUnsupported, ToolMedia};
use partkit::profile::{self, Profile};
use partkit::{At, AtMissing, Shape};
use pyo3::{FromPyObject, PyResult};

use crate::errors::usage;

/// The options `convert` and `convert_lines` share: one dict from the
/// Python side, keyed by the keyword arguments' names.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub struct ConvertArgs {
    pub to: String,
    pub from_: String,
    pub tool_media: String,
    pub on_unsupported: Option<String>,
    pub strict: bool,
    /// `--at`: convert the values at these pointers, in place.
    pub at: Vec<String>,
    pub at_missing: String,
    /// `--kind`: `transcript`, `rollout`, or `None` to recognize rollouts.
    pub kind: Option<String>,
}

/// The options of `validate`, as one dict.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub struct ValidateArgs {
    pub profile: Option<String>,
    pub target: Option<String>,
    pub kind: Option<String>,
    pub deep: bool,
    pub from_: String,
}

impl ConvertArgs {
    /// The request `partkit convert --to TO …` makes of each document.
    pub fn request(&self) -> PyResult<ConvertRequest> {
        Ok(ConvertRequest {
            from: from_shape(&self.from_)?,
            to: shape("to", &self.to)?,
            options: ConvertOptions {
                on_unsupported: match self.on_unsupported.as_deref() {
                    None => None,
                    Some("error") => Some(OnUnsupported::Error),
                    Some("text") => Some(OnUnsupported::Text),
                    Some(other) => return Err(choice("on_unsupported", other, &["error", "text"])),
                },
                tool_media: match self.tool_media.as_str() {
                    "native" => ToolMedia::Native,
                    "lift" => ToolMedia::Lift,
                    other => return Err(choice("tool_media", other, &["native", "lift"])),
                },
                on_invalid_arguments: OnInvalidArguments::Error,
                strict: self.strict,
                call_id: None,
                tool_name: None,
            },
            at: At::new(
                &self.at,
                match self.at_missing.as_str() {
                    "error" => AtMissing::Error,
                    "skip" => AtMissing::Skip,
                    other => return Err(choice("at_missing", other, &["error", "skip"])),
                },
            )
            .map_err(|error| usage(format!("at: {error}")))?,
            rollout: match self.kind.as_deref() {
                None => RolloutChoice::Recognize,
                Some("rollout") => RolloutChoice::Always,
                Some("transcript") => RolloutChoice::Never,
                Some(other) => return Err(choice("kind", other, &["transcript", "rollout"])),
            },
            ..ConvertRequest::default()
        })
    }
}

/// A shape by its command-line name.
pub fn shape(argument: &str, name: &str) -> PyResult<Shape> {
    Shape::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = Shape::ALL.iter().map(|s| s.name()).collect();
        choice(argument, name, &names)
    })
}

/// `from_`: a shape, or `auto` (`None`) to detect it.
pub fn from_shape(name: &str) -> PyResult<Option<Shape>> {
    if name == "auto" {
        return Ok(None);
    }
    shape("from_", name).map(Some)
}

/// A provider profile by name.
pub fn profile(name: &str) -> PyResult<&'static Profile> {
    profile::find(name).ok_or_else(|| choice("profile", name, &profile::names()))
}

/// `argument='value' is not one of: a, b, c`.
pub fn choice(argument: &str, value: &str, choices: &[&str]) -> pyo3::PyErr {
    usage(format!(
        "{argument}={}: not one of {}",
        partkit::internals::quoted(value),
        choices.join(", ")
    ))
}
