//! The config file: project settings for `validate`, `resize` and `convert`,
//! found as ruff and typos find theirs. The nearest `partkit.toml`,
//! `.partkit.toml` or `pyproject.toml` holding `[tool.partkit]`, from the
//! working folder up, wins; `--config PATH` names one, `--no-config` ignores
//! them. The command line wins over the file, key by key.
//!
//! This is the command line's business, not the library's: the settings only
//! fill in arguments the command line left out ([`apply`]).

pub mod apply;
mod file;
mod paths;
pub mod show;
mod text;
mod values;

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

pub use file::Settings;
pub use paths::PathRules;

/// The names looked for in each folder, in this order.
const NAMES: [&str; 3] = ["partkit.toml", ".partkit.toml", "pyproject.toml"];

/// How the run chose its config.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// The nearest file from the working folder up.
    Found,
    /// `--config PATH`.
    Named,
    /// `--no-config`.
    Disabled,
    /// None in the working folder or any parent.
    NotFound,
}

/// A config file, read and checked.
#[derive(Debug)]
pub struct Config {
    /// The file, as it is shown in messages (relative to the working folder
    /// when it is inside it).
    pub shown: String,
    /// The folder the file's path globs are relative to.
    pub dir: PathBuf,
    /// The file's text, for line numbers.
    text: String,
    pub settings: Settings,
    /// The validate section's globs, compiled.
    pub rules: PathRules,
}

/// The config in effect for a run.
#[derive(Debug)]
pub struct Loaded {
    pub origin: Origin,
    pub config: Option<Config>,
}

impl Loaded {
    /// No config (`--no-config`, or the library's callers).
    pub fn none() -> Loaded {
        Loaded {
            origin: Origin::Disabled,
            config: None,
        }
    }
}

impl Config {
    /// `partkit.toml:3`: where the byte range `span` of the file starts.
    pub fn at(&self, span: std::ops::Range<usize>) -> String {
        format!("{}:{}", self.shown, file::line_of(&self.text, span.start))
    }
}

/// Finds and reads the config as `--config`/`--no-config` say, from `cwd`.
/// A file found where a config is looked for that cannot be read as one (a
/// link to nothing, a folder, a FIFO, not TOML) stops the run: passed over,
/// it would leave the run without the settings its owner meant it to have.
pub fn load(named: Option<&Path>, disabled: bool, cwd: &Path) -> Result<Loaded> {
    if disabled {
        return Ok(Loaded::none());
    }
    if let Some(path) = named {
        let config = read(path, cwd, text::How::Named)?.ok_or_else(|| {
            Error::usage(format!(
                "--config {}: the file has no [tool.partkit] table",
                path.display()
            ))
        })?;
        return Ok(Loaded {
            origin: Origin::Named,
            config: Some(config),
        });
    }
    for dir in cwd.ancestors() {
        for name in NAMES {
            let path = dir.join(name);
            let there = text::is_there(&path)
                .map_err(|error| text::cannot_read(&shown(&path, cwd), &error))?;
            if !there {
                continue;
            }
            if let Some(config) = read(&path, cwd, text::How::Found)? {
                return Ok(Loaded {
                    origin: Origin::Found,
                    config: Some(config),
                });
            }
        }
    }
    Ok(Loaded {
        origin: Origin::NotFound,
        config: None,
    })
}

/// A config file's path as messages show it: from the working folder when
/// it is inside it, else whole.
fn shown(path: &Path, cwd: &Path) -> String {
    let absolute = paths::absolute(path, cwd);
    match absolute.strip_prefix(cwd) {
        Ok(inside) => inside.display().to_string(),
        Err(_) => absolute.display().to_string(),
    }
}

/// Reads one file; `None` for a `pyproject.toml` without `[tool.partkit]`.
fn read(path: &Path, cwd: &Path, how: text::How) -> Result<Option<Config>> {
    let shown = shown(path, cwd);
    let text = text::read(path, &shown, how)?;
    // Globs are relative to the file's folder.
    let dir = paths::absolute(path, cwd)
        .parent()
        .map_or_else(|| cwd.to_path_buf(), Path::to_path_buf);
    parse(text, shown, file::Layout::of(path), dir)
}

/// Reads a config file's text as a run reads the file `name` (a
/// `pyproject.toml` by its `[tool.partkit]` table, any other name whole):
/// the settings, checked, or the error the run would stop with. Runs read
/// files through `load`; this is for reading text alone (fuzzing).
pub fn from_text(text: &str, name: &str) -> Result<Option<Config>> {
    let layout = file::Layout::of(Path::new(name));
    parse(
        text.to_string(),
        name.to_string(),
        layout,
        PathBuf::from("/"),
    )
}

/// The settings of `text` (the file shown as `shown`, in the folder `dir`).
fn parse(
    text: String,
    shown: String,
    layout: file::Layout,
    dir: PathBuf,
) -> Result<Option<Config>> {
    let Some(settings) = file::parse(&text, &shown, layout)? else {
        return Ok(None);
    };
    let prefix = match layout {
        file::Layout::Whole => "",
        file::Layout::PyProject => "tool.partkit.",
    };
    let mut config = Config {
        shown,
        dir,
        text,
        settings,
        rules: PathRules::default(),
    };
    config.rules = checked(&config, prefix)?;
    Ok(Some(config))
}

/// What serde cannot check: rule ids that exist, globs that compile, each
/// key where it belongs. Returns the compiled globs.
fn checked(config: &Config, prefix: &str) -> Result<PathRules> {
    let fail = |span: std::ops::Range<usize>, key: &str, message: &str| {
        Error::usage(format!("{}: {prefix}{key}: {message}", config.at(span)))
    };
    let resize = &config.settings.resize;
    let zero = [
        ("resize.max-dim", zero_at(&resize.max_dim)),
        ("resize.max-pixels", zero_at(&resize.max_pixels)),
        (
            "resize.max-decode-pixels",
            zero_at(&resize.max_decode_pixels),
        ),
    ];
    if let Some((key, Some(span))) = zero.into_iter().find(|(_, span)| span.is_some()) {
        return Err(fail(span, key, "must be at least 1"));
    }
    let validate = &config.settings.validate;
    let overrides = validate.overrides.iter().flat_map(|o| o.get_ref());
    let validate_dims = std::iter::once(("validate.max-dim".to_string(), &validate.max_dim)).chain(
        overrides.enumerate().map(|(index, entry)| {
            (
                format!("validate.overrides[{index}].max-dim"),
                &entry.max_dim,
            )
        }),
    );
    for (key, setting) in validate_dims {
        if let Some(span) = zero_at(setting) {
            return Err(fail(span, &key, "must be at least 1"));
        }
    }
    if let Some(paths) = &validate.paths {
        return Err(fail(
            paths.span(),
            "validate.paths",
            "only a [[validate.overrides]] entry takes paths",
        ));
    }
    let mut ignores: Vec<(&toml::Spanned<String>, String)> = Vec::new();
    let key_of = |index: usize, key: &str| format!("validate.overrides[{index}].{key}");
    if let Some(list) = &validate.ignore {
        ignores.extend(
            list.get_ref()
                .iter()
                .map(|id| (id, "validate.ignore".to_string())),
        );
    }
    if let Some(overrides) = &validate.overrides {
        for (index, entry) in overrides.get_ref().iter().enumerate() {
            let whole_run = [
                (
                    "deny-warnings",
                    entry.deny_warnings.as_ref().map(|s| s.span()),
                ),
                ("include", entry.include.as_ref().map(|s| s.span())),
                ("exclude", entry.exclude.as_ref().map(|s| s.span())),
                ("overrides", entry.overrides.as_ref().map(|s| s.span())),
            ];
            if let Some((key, Some(span))) = whole_run.into_iter().find(|(_, span)| span.is_some())
            {
                return Err(fail(
                    span,
                    &key_of(index, key),
                    "applies to the whole run; set it in [validate]",
                ));
            }
            match &entry.paths {
                None => {
                    return Err(fail(
                        overrides.span(),
                        &format!("validate.overrides[{index}]"),
                        "an override needs paths (globs of the files it applies to)",
                    ))
                }
                Some(paths) if paths.get_ref().is_empty() => {
                    return Err(fail(
                        paths.span(),
                        &key_of(index, "paths"),
                        "no globs given",
                    ))
                }
                Some(_) => {}
            }
            if let Some(list) = &entry.ignore {
                ignores.extend(
                    list.get_ref()
                        .iter()
                        .map(|id| (id, key_of(index, "ignore"))),
                );
            }
        }
    }
    if let Some((id, key)) = ignores
        .iter()
        .find(|(id, _)| crate::validate::rules::find(id.get_ref()).is_none())
    {
        return Err(fail(
            id.span(),
            key,
            &format!(
                "no such rule {:?} (see partkit validate --list-rules)",
                id.get_ref()
            ),
        ));
    }
    PathRules::compile(validate, config.dir.clone())
        .map_err(|(span, key, message)| fail(span, &key, &message))
}

/// Where a count that must be at least 1 is 0.
fn zero_at<T: Default + PartialEq>(setting: &file::Setting<T>) -> Option<std::ops::Range<usize>> {
    setting
        .as_ref()
        .filter(|n| *n.get_ref() == T::default())
        .map(|n| n.span())
}
