//! `partkit config` and `validate --show-config`: the settings in effect,
//! printed as a TOML file (it can be saved as one) with each key's source in
//! a comment.

use std::path::Path;

use super::apply::{Entry, OverrideShown};
use super::{Loaded, Origin};

/// The first line: which file, and why.
pub fn header(loaded: &Loaded, cwd: &Path) -> String {
    match (&loaded.origin, &loaded.config) {
        (Origin::Found, Some(config)) => format!(
            "# config file: {} (the nearest to the working folder)",
            config.shown
        ),
        (Origin::Named, Some(config)) => format!("# config file: {} (--config)", config.shown),
        (Origin::Disabled, _) => "# no config file (--no-config)".to_string(),
        _ => format!(
            "# no config file: no partkit.toml, .partkit.toml or pyproject.toml with \
             [tool.partkit] in {} or a folder above it",
            cwd.display()
        ),
    }
}

/// The config file's name for messages (`partkit.toml`), or `the config`.
pub fn source_name(loaded: &Loaded) -> String {
    loaded
        .config
        .as_ref()
        .map_or_else(|| "the config".to_string(), |config| config.shown.clone())
}

/// The header and `[validate]` with its overrides: `validate --show-config`,
/// and the start of `partkit config`.
pub fn validate(plan: &super::apply::ValidatePlan, loaded: &Loaded, cwd: &Path) -> String {
    [
        header(loaded, cwd),
        "\n".to_string(),
        section("[validate]", &plan.entries),
        overrides(&plan.overrides()),
    ]
    .concat()
}

/// `[title]` and a line per key, sources aligned after the values.
pub fn section(title: &str, entries: &[Entry]) -> String {
    let lines: Vec<(String, &str)> = entries
        .iter()
        .map(|entry| {
            let setting = match &entry.value {
                Some(value) => format!("{} = {value}", entry.key),
                None => format!("# {}: not set", entry.key),
            };
            (setting, entry.source.as_str())
        })
        .collect();
    let width = lines
        .iter()
        .map(|(s, _)| s.chars().count())
        .max()
        .unwrap_or(0);
    let mut out = format!("\n{title}\n");
    for (setting, source) in lines {
        let pad = width - setting.chars().count();
        out.push_str(&format!("{setting}{:pad$}  # {source}\n", ""));
    }
    out
}

/// Each `[[validate.overrides]]` entry.
pub fn overrides(shown: &[OverrideShown]) -> String {
    let mut out = String::new();
    for entry in shown {
        let mut entries = vec![Entry {
            key: "paths",
            value: Some(entry.paths.clone()),
            source: entry.at.clone(),
        }];
        entries.extend(entry.entries.iter().cloned());
        out.push_str(&section("[[validate.overrides]]", &entries));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_line_up_after_the_values() {
        let entries = [
            Entry {
                key: "profile",
                value: Some("\"anthropic\"".into()),
                source: "partkit.toml:2".into(),
            },
            Entry {
                key: "target",
                value: None,
                source: "default".into(),
            },
        ];
        assert_eq!(
            section("[validate]", &entries),
            "\n[validate]\nprofile = \"anthropic\"  # partkit.toml:2\n# target: not set      # default\n"
        );
    }
}
