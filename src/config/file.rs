//! What a config file may hold, and reading one: every key, its type and its
//! line. An unknown key or a bad value is a usage error naming the file, the
//! key and the line.

use std::path::Path;

use serde::Deserialize;
use toml::Spanned;

use super::values::{Choice, FromShape, Size, TargetShape};
use crate::cli::{ImageFormatArg, InvalidArgumentsArg, ProfileArg, ToolMediaArg, UnsupportedArg};
use crate::error::{Error, Result};

/// A setting as written: its value and where (a byte range of the file).
pub type Setting<T> = Option<Spanned<T>>;

/// A list of strings, each with its place (rule ids, globs).
pub type Strings = Vec<Spanned<String>>;

/// The settings of one file: a section per command.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    #[serde(default)]
    pub validate: ValidateSettings,
    #[serde(default)]
    pub resize: ResizeSettings,
    #[serde(default)]
    pub convert: ConvertSettings,
}

/// `[validate]`: the defaults of `partkit validate`; also each
/// `[[validate.overrides]]` entry, which holds `paths` and the check settings
/// only ([`super::checked`] holds each to its keys). One struct for both:
/// serde's `flatten` would lose the keys' lines and the unknown-key check.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ValidateSettings {
    /// Overrides only: globs of the files the entry applies to.
    pub paths: Setting<Strings>,
    pub profile: Setting<Choice<ProfileArg>>,
    pub target: Setting<TargetShape>,
    pub ignore: Setting<Strings>,
    pub deep: Setting<bool>,
    pub max_bytes: Setting<Size>,
    pub max_dim: Setting<u32>,
    pub max_images: Setting<usize>,
    pub deny_warnings: Setting<bool>,
    /// Globs of the files to check (walks and named files alike).
    pub include: Setting<Strings>,
    /// Globs of files and folders never to check.
    pub exclude: Setting<Strings>,
    /// `[[validate.overrides]]`, in file order (later ones win).
    pub overrides: Setting<Vec<ValidateSettings>>,
}

/// `[resize]`: the defaults of `partkit resize`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ResizeSettings {
    pub profile: Setting<Choice<ProfileArg>>,
    pub max_bytes: Setting<Size>,
    pub max_encoded_bytes: Setting<Size>,
    pub max_dim: Setting<u32>,
    pub max_pixels: Setting<u64>,
    pub max_decode_pixels: Setting<u64>,
    pub format: Setting<Choice<ImageFormatArg>>,
}

/// `[convert]`: the defaults of `partkit convert`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ConvertSettings {
    pub from: Setting<FromShape>,
    pub on_unsupported: Setting<Choice<UnsupportedArg>>,
    pub tool_media: Setting<Choice<ToolMediaArg>>,
    pub on_invalid_arguments: Setting<Choice<InvalidArgumentsArg>>,
    pub strict: Setting<bool>,
}

/// A `pyproject.toml`: only `[tool.partkit]` is read.
#[derive(Deserialize)]
struct PyProject {
    tool: Option<Tool>,
}

#[derive(Deserialize)]
struct Tool {
    partkit: Option<Spanned<Settings>>,
}

/// How the settings sit in a file: the whole of a `partkit.toml`, or
/// `[tool.partkit]` of a `pyproject.toml`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    Whole,
    PyProject,
}

impl Layout {
    /// The layout a file's name implies.
    pub fn of(path: &Path) -> Layout {
        if path
            .file_name()
            .is_some_and(|name| name == "pyproject.toml")
        {
            Layout::PyProject
        } else {
            Layout::Whole
        }
    }
}

/// Reads the settings of `text` (the file shown as `shown`); `None` for a
/// `pyproject.toml` without `[tool.partkit]`.
pub fn parse(text: &str, shown: &str, layout: Layout) -> Result<Option<Settings>> {
    let fail = |error: serde_path_to_error::Error<toml::de::Error>| {
        let key = key_of(error.path());
        let inner = error.into_inner();
        let message = inner.message().trim().replace('\n', " ");
        // serde names an unknown key in its message (the path ends with it).
        let message = match message.strip_prefix("unknown field `") {
            Some(rest) => match rest.split_once("`, ") {
                Some((_, expected)) => format!("unknown key; {}", expected.replace('`', "")),
                None => "unknown key".to_string(),
            },
            None => message,
        };
        problem(text, shown, inner.span(), &format!("{key}: {message}"))
    };
    let deserializer = toml::Deserializer::parse(text).map_err(|error| {
        let mut message = error.message().trim().replace('\n', " ");
        // The parser says only "duplicate key"; its span is the key.
        if message == "duplicate key" {
            if let Some(key) = error.span().and_then(|span| text.get(span)) {
                let key = key.trim();
                let bare = key
                    .strip_prefix(['"', '\''])
                    .and_then(|k| k.strip_suffix(['"', '\'']))
                    .unwrap_or(key);
                message = format!("duplicate key {}", crate::echo::quoted(bare));
            }
        }
        problem(text, shown, error.span(), &format!("not TOML: {message}"))
    })?;
    let settings = match layout {
        Layout::Whole => {
            Some(serde_path_to_error::deserialize::<_, Settings>(deserializer).map_err(fail)?)
        }
        Layout::PyProject => serde_path_to_error::deserialize::<_, PyProject>(deserializer)
            .map_err(fail)?
            .tool
            .and_then(|tool| tool.partkit)
            .map(Spanned::into_inner),
    };
    Ok(settings)
}

/// `validate.overrides[0].profile`: the key as the file writes it (the
/// wrappers that keep each value's place are not keys).
fn key_of(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut key = String::new();
    for segment in path.iter() {
        match segment {
            Segment::Map { key: name } if name.starts_with("$__serde_spanned") => {}
            Segment::Map { key: name } | Segment::Enum { variant: name } => {
                if !key.is_empty() {
                    key.push('.');
                }
                key.push_str(name);
            }
            Segment::Seq { index } => key.push_str(&format!("[{index}]")),
            Segment::Unknown => {}
        }
    }
    if key.is_empty() {
        "(top level)".to_string()
    } else {
        key
    }
}

/// `FILE:LINE: message`, the line found from the byte offset.
fn problem(text: &str, shown: &str, span: Option<std::ops::Range<usize>>, message: &str) -> Error {
    let line = span.map_or(1, |span| line_of(text, span.start));
    Error::usage(format!("{shown}:{line}: {message}"))
}

/// The 1-based line holding byte `offset` of `text`.
pub fn line_of(text: &str, offset: usize) -> usize {
    let offset = offset.min(text.len());
    text.as_bytes()[..offset]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}
