//! The config's settings into a command's arguments: each key the command
//! line left out takes the file's value (`ignore` lists add up). Each merge
//! also records every key's value and where it came from, for
//! `partkit config` and `validate --show-config`.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::parser::ValueSource;
use clap::{ArgMatches, ValueEnum};
use toml::Spanned;

use super::file::{Setting, ValidateSettings};
use super::paths::{absolute, PathRules};
use super::values::Size;
use super::{Config, Loaded};
use crate::cli::{ConvertArgs, ResizeArgs, ValidateArgs};

/// One key as it stands for the run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub key: &'static str,
    /// The value as TOML, `None` when it is not set.
    pub value: Option<String>,
    /// `command line`, `partkit.toml:3` or `default`.
    pub source: String,
}

/// Merges one section into one command's arguments.
struct Merge<'a> {
    matches: &'a ArgMatches,
    config: Option<&'a Config>,
    entries: Vec<Entry>,
}

impl<'a> Merge<'a> {
    fn new(matches: &'a ArgMatches, loaded: &'a Loaded) -> Merge<'a> {
        Merge {
            matches,
            config: loaded.config.as_ref(),
            entries: Vec::new(),
        }
    }

    /// Whether any of the options `ids` was typed on the command line.
    fn given(&self, ids: &[&str]) -> bool {
        ids.iter().any(|id| {
            self.matches.try_get_raw(id).is_ok_and(|raw| raw.is_some())
                && self.matches.value_source(id) == Some(ValueSource::CommandLine)
        })
    }

    /// Key `key` (options `ids`): the command line's value, else the file's
    /// (`into` turns it into the field's type), else the default as it is.
    fn key<T, S>(
        &mut self,
        key: &'static str,
        ids: &[&str],
        field: &mut T,
        setting: &Setting<S>,
        into: impl Fn(&S) -> T,
        render: impl Fn(&T) -> Option<String>,
    ) {
        let source = if self.given(ids) {
            "command line".to_string()
        } else if let (Some(setting), Some(config)) = (setting, self.config) {
            *field = into(setting.get_ref());
            config.at(setting.span())
        } else {
            "default".to_string()
        };
        self.entries.push(Entry {
            key,
            value: render(field),
            source,
        });
    }

    /// An optional number: the file's value as it is.
    fn number<T: Copy + ToString>(
        &mut self,
        key: &'static str,
        id: &str,
        field: &mut Option<T>,
        setting: &Setting<T>,
    ) {
        self.key(key, &[id], field, setting, |n| Some(*n), number);
    }

    /// An optional size.
    fn size(
        &mut self,
        key: &'static str,
        id: &str,
        field: &mut Option<u64>,
        setting: &Setting<Size>,
    ) {
        self.key(key, &[id], field, setting, |s| Some(s.0), number);
    }

    /// A list the command line and the file add to.
    fn list(
        &mut self,
        key: &'static str,
        id: &str,
        field: &mut Vec<String>,
        setting: &Setting<super::file::Strings>,
    ) {
        let mut sources = Vec::new();
        if self.given(&[id]) {
            sources.push("command line".to_string());
        }
        if let (Some(setting), Some(config)) = (setting, self.config) {
            field.extend(setting.get_ref().iter().map(|s| s.get_ref().clone()));
            sources.push(config.at(setting.span()));
        }
        if sources.is_empty() {
            sources.push("default".to_string());
        }
        self.entries.push(Entry {
            key,
            value: Some(strings(field)),
            source: sources.join(" + "),
        });
    }
}

/// A TOML string.
pub fn quoted(text: &str) -> String {
    // JSON's string escapes are TOML's basic-string escapes.
    serde_json::Value::String(text.to_string()).to_string()
}

/// A TOML array of strings.
pub fn strings(list: &[String]) -> String {
    let items: Vec<String> = list.iter().map(|s| quoted(s)).collect();
    format!("[{}]", items.join(", "))
}

fn name<T: ValueEnum>(value: &T) -> String {
    quoted(
        value
            .to_possible_value()
            .expect("a visible value")
            .get_name(),
    )
}

fn some_name<T: ValueEnum>(value: &Option<T>) -> Option<String> {
    value.as_ref().map(name)
}

fn number<T: ToString>(value: &Option<T>) -> Option<String> {
    value.as_ref().map(ToString::to_string)
}

/// The check keys (`[validate]` and each override's) into `args`.
fn check_keys(merge: &mut Merge, args: &mut ValidateArgs, section: &ValidateSettings) {
    merge.key(
        "profile",
        &["profile"],
        &mut args.profile,
        &section.profile,
        |c| Some(c.0),
        some_name,
    );
    merge.key(
        "target",
        &["target"],
        &mut args.target,
        &section.target,
        |t| Some(t.0),
        |t| t.map(|shape| quoted(shape.name())),
    );
    merge.list("ignore", "ignore", &mut args.ignore, &section.ignore);
    merge.key(
        "deep",
        &["deep", "no_deep"],
        &mut args.deep,
        &section.deep,
        |b| *b,
        |b| Some(b.to_string()),
    );
    merge.size(
        "max-bytes",
        "max_bytes",
        &mut args.max_bytes,
        &section.max_bytes,
    );
    merge.number("max-dim", "max_dim", &mut args.max_dim, &section.max_dim);
    merge.number(
        "max-images",
        "max_images",
        &mut args.max_images,
        &section.max_images,
    );
}

/// How a validate run uses the config: its arguments merged, the per-path
/// rules, what each key came from.
pub struct ValidatePlan<'a> {
    matches: &'a ArgMatches,
    loaded: &'a Loaded,
    cwd: PathBuf,
    pub entries: Vec<Entry>,
}

/// Merges `[validate]` into `args`.
pub fn validate<'a>(
    args: &mut ValidateArgs,
    matches: &'a ArgMatches,
    loaded: &'a Loaded,
    cwd: &Path,
) -> ValidatePlan<'a> {
    let empty = ValidateSettings::default();
    let section = loaded
        .config
        .as_ref()
        .map_or(&empty, |c| &c.settings.validate);
    let mut merge = Merge::new(matches, loaded);
    check_keys(&mut merge, args, section);
    merge.key(
        "deny-warnings",
        &["deny_warnings", "no_deny_warnings", "exit_zero"],
        &mut args.deny_warnings,
        &section.deny_warnings,
        |b| *b,
        |b| Some(b.to_string()),
    );
    let mut globs =
        |key: &'static str, setting: &Setting<super::file::Strings>, default: &[&str]| {
            let (value, source) = match (setting, merge.config) {
                (Some(list), Some(config)) => (
                    list.get_ref().iter().map(|s| s.get_ref().clone()).collect(),
                    config.at(list.span()),
                ),
                _ => (
                    default.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
                    "default".to_string(),
                ),
            };
            merge.entries.push(Entry {
                key,
                value: Some(strings(&value)),
                source,
            });
        };
    globs("include", &section.include, &["*.json", "*.jsonl"]);
    globs("exclude", &section.exclude, &[]);
    ValidatePlan {
        matches,
        loaded,
        cwd: cwd.to_path_buf(),
        entries: merge.entries,
    }
}

impl ValidatePlan<'_> {
    fn rules(&self) -> Option<&PathRules> {
        self.loaded.config.as_ref().map(|c| &c.rules)
    }

    /// Whether a file named on the command line is checked.
    pub fn takes_named(&self, path: &Path) -> bool {
        self.rules()
            .is_none_or(|rules| rules.takes(&absolute(path, &self.cwd), true))
    }

    /// How folders are walked.
    pub fn selection(&self) -> Arc<dyn crate::validate::Selection> {
        match self.rules() {
            None => Arc::new(crate::validate::JsonFiles),
            Some(rules) => Arc::new(Walk {
                rules: rules.clone(),
                cwd: self.cwd.clone(),
            }),
        }
    }

    /// The overrides whose paths match `path`, by index, in file order.
    pub fn overrides_for(&self, path: &Path) -> Vec<usize> {
        match self.rules() {
            None => Vec::new(),
            Some(rules) => rules.overrides_for(&absolute(path, &self.cwd)).collect(),
        }
    }

    /// `base` with the overrides `indices` applied (the command line still wins).
    pub fn with_overrides(&self, base: &ValidateArgs, indices: &[usize]) -> ValidateArgs {
        let mut args = base.clone();
        let Some(config) = &self.loaded.config else {
            return args;
        };
        let overrides = config
            .settings
            .validate
            .overrides
            .as_ref()
            .map(Spanned::get_ref);
        for &index in indices {
            if let Some(entry) = overrides.and_then(|list| list.get(index)) {
                let mut merge = Merge::new(self.matches, self.loaded);
                check_keys(&mut merge, &mut args, entry);
            }
        }
        args
    }

    /// The overrides as written, each key marked where the command line
    /// overrules it.
    pub fn overrides(&self) -> Vec<OverrideShown> {
        let Some(config) = &self.loaded.config else {
            return Vec::new();
        };
        // Merged into bare arguments, so that each key the entry sets shows.
        let bare = default_args::validate_matches();
        let list = config.settings.validate.overrides.as_ref();
        list.map(Spanned::get_ref)
            .into_iter()
            .flatten()
            .map(|entry| {
                let mut scratch = default_args::validate();
                let mut merge = Merge::new(&bare, self.loaded);
                check_keys(&mut merge, &mut scratch, entry);
                let paths: Vec<String> = entry
                    .paths
                    .iter()
                    .flat_map(|p| p.get_ref())
                    .map(|s| s.get_ref().clone())
                    .collect();
                let entries = merge
                    .entries
                    .into_iter()
                    .filter(|e| e.source != "default")
                    .map(|mut e| {
                        if e.key != "ignore" && self.typed_on_command_line(e.key) {
                            e.source.push_str(", overruled by the command line");
                        }
                        e
                    })
                    .collect();
                OverrideShown {
                    at: entry
                        .paths
                        .as_ref()
                        .map(|p| config.at(p.span()))
                        .unwrap_or_default(),
                    paths: strings(&paths),
                    entries,
                }
            })
            .collect()
    }

    fn typed_on_command_line(&self, key: &str) -> bool {
        self.entries
            .iter()
            .any(|e| e.key == key && e.source == "command line")
    }
}

/// An override, for showing.
pub struct OverrideShown {
    pub at: String,
    pub paths: String,
    pub entries: Vec<Entry>,
}

/// The config's walk rules, for [`crate::validate::collect_inputs_with`].
struct Walk {
    rules: PathRules,
    cwd: PathBuf,
}

impl crate::validate::Selection for Walk {
    fn enter(&self, dir: &Path) -> bool {
        self.rules.enters(&absolute(dir, &self.cwd))
    }
    fn take(&self, file: &Path) -> bool {
        self.rules.takes(&absolute(file, &self.cwd), false)
    }
}

/// Merges `[resize]` into `args`.
pub fn resize(args: &mut ResizeArgs, matches: &ArgMatches, loaded: &Loaded) -> Vec<Entry> {
    let empty = Default::default();
    let section = loaded
        .config
        .as_ref()
        .map_or(&empty, |c| &c.settings.resize);
    let mut merge = Merge::new(matches, loaded);
    merge.key(
        "profile",
        &["profile"],
        &mut args.profile,
        &section.profile,
        |c| Some(c.0),
        some_name,
    );
    merge.size(
        "max-bytes",
        "max_bytes",
        &mut args.max_bytes,
        &section.max_bytes,
    );
    merge.size(
        "max-encoded-bytes",
        "max_encoded_bytes",
        &mut args.max_encoded_bytes,
        &section.max_encoded_bytes,
    );
    merge.number("max-dim", "max_dim", &mut args.max_dim, &section.max_dim);
    merge.number(
        "max-pixels",
        "max_pixels",
        &mut args.max_pixels,
        &section.max_pixels,
    );
    merge.key(
        "max-decode-pixels",
        &["max_decode_pixels"],
        &mut args.max_decode_pixels,
        &section.max_decode_pixels,
        |n| *n,
        |n| Some(n.to_string()),
    );
    merge.key(
        "format",
        &["format"],
        &mut args.format,
        &section.format,
        |c| c.0,
        |f| Some(name(f)),
    );
    merge.entries
}

/// Merges `[convert]` into `args`.
pub fn convert(args: &mut ConvertArgs, matches: &ArgMatches, loaded: &Loaded) -> Vec<Entry> {
    let empty = Default::default();
    let section = loaded
        .config
        .as_ref()
        .map_or(&empty, |c| &c.settings.convert);
    let mut merge = Merge::new(matches, loaded);
    merge.key(
        "from",
        &["from"],
        &mut args.from,
        &section.from,
        |f| crate::cli::FromArg(f.0),
        |f| Some(quoted(f.shape().map_or("auto", |shape| shape.name()))),
    );
    merge.key(
        "on-unsupported",
        &["on_unsupported"],
        &mut args.on_unsupported,
        &section.on_unsupported,
        |c| Some(c.0),
        some_name,
    );
    merge.key(
        "tool-media",
        &["tool_media"],
        &mut args.tool_media,
        &section.tool_media,
        |c| c.0,
        |t| Some(name(t)),
    );
    merge.key(
        "on-invalid-arguments",
        &["on_invalid_arguments"],
        &mut args.on_invalid_arguments,
        &section.on_invalid_arguments,
        |c| c.0,
        |t| Some(name(t)),
    );
    merge.key(
        "strict",
        &["strict", "no_strict"],
        &mut args.strict,
        &section.strict,
        |b| *b,
        |b| Some(b.to_string()),
    );
    merge.entries
}

/// Each command's arguments as typed with nothing, and their matches: what
/// `partkit config` merges the file into.
pub mod default_args {
    use clap::{ArgMatches, CommandFactory, FromArgMatches};

    use crate::cli::{Cli, Command, ConvertArgs, ResizeArgs, ValidateArgs};

    /// The parsed arguments and the subcommand's matches of `argv`.
    pub fn parse(argv: &[&str]) -> (Command, ArgMatches) {
        let matches = Cli::command()
            .try_get_matches_from(argv)
            .expect("the bare command parses");
        let cli = Cli::from_arg_matches(&matches).expect("the bare command parses");
        let sub = matches
            .subcommand()
            .map(|(_, sub)| sub.clone())
            .expect("a subcommand");
        (cli.command, sub)
    }

    pub fn validate() -> ValidateArgs {
        match parse(&["partkit", "validate"]).0 {
            Command::Validate(args) => args,
            _ => unreachable!("parsed as validate"),
        }
    }

    pub fn resize() -> (ResizeArgs, ArgMatches) {
        match parse(&["partkit", "resize"]) {
            (Command::Resize(args), matches) => (args, matches),
            _ => unreachable!("parsed as resize"),
        }
    }

    pub fn convert() -> (ConvertArgs, ArgMatches) {
        // `--to` is required and no config key: any value serves.
        match parse(&["partkit", "convert", "--to", "canonical"]) {
            (Command::Convert(args), matches) => (args, matches),
            _ => unreachable!("parsed as convert"),
        }
    }

    pub fn validate_matches() -> ArgMatches {
        parse(&["partkit", "validate"]).1
    }
}
