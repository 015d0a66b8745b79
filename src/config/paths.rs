//! The validate section's globs: `include`, `exclude` and each override's
//! `paths`, matched as `.gitignore` lines are. A glob without a `/` matches the
//! name of the file or of any folder it is in (`*.snap.json`, `broken`); one
//! with a `/` matches the path from the config file's folder, or any folder on
//! it (`fixtures/anthropic/**`, `fixtures/broken`). `*` stays within a folder;
//! `**` crosses them.

use std::ops::Range;
use std::path::{Component, Path, PathBuf};

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};

use super::file::{Strings, ValidateSettings};

/// A list of globs, compiled.
#[derive(Debug, Clone)]
pub struct Globs {
    /// Globs without a `/`: matched against names.
    names: GlobSet,
    /// Globs with a `/`: matched against the path from the config's folder.
    anchored: GlobSet,
}

/// A glob that does not compile: where it is, its key, the reason.
pub type GlobError = (Range<usize>, String, String);

impl Globs {
    fn compile(list: &Strings, key: &str) -> Result<Globs, GlobError> {
        let mut names = GlobSetBuilder::new();
        let mut anchored = GlobSetBuilder::new();
        for glob in list {
            let text = glob.get_ref();
            let trimmed = text.trim_start_matches("./").trim_start_matches('/');
            let trimmed = trimmed.trim_end_matches('/');
            let compiled = GlobBuilder::new(trimmed)
                .literal_separator(true)
                .build()
                .map_err(|error| {
                    let reason = error.kind().to_string();
                    (
                        glob.span(),
                        key.to_string(),
                        format!("bad glob {text:?}: {reason}"),
                    )
                })?;
            if trimmed.contains('/') {
                anchored.add(compiled);
            } else {
                names.add(compiled);
            }
        }
        let build = |builder: GlobSetBuilder| {
            builder
                .build()
                .map_err(|error| (0..0, key.to_string(), error.to_string()))
        };
        Ok(Globs {
            names: build(names)?,
            anchored: build(anchored)?,
        })
    }

    /// Whether a glob matches `path` (absolute, normalized) under `dir`.
    fn matches(&self, path: &Path, dir: &Path) -> bool {
        match path.strip_prefix(dir) {
            Ok(inside) => inside.ancestors().any(|part| {
                !part.as_os_str().is_empty()
                    && (self.anchored.is_match(part)
                        || part
                            .file_name()
                            .is_some_and(|name| self.names.is_match(name)))
            }),
            // Outside the config's folder only the file's own name is matched.
            Err(_) => path
                .file_name()
                .is_some_and(|name| self.names.is_match(name)),
        }
    }
}

/// The compiled globs of `[validate]`.
#[derive(Debug, Clone, Default)]
pub struct PathRules {
    /// The folder anchored globs start from: the config file's.
    dir: PathBuf,
    include: Option<Globs>,
    exclude: Option<Globs>,
    /// Each override's `paths`, in file order.
    overrides: Vec<Globs>,
}

impl PathRules {
    pub fn compile(settings: &ValidateSettings, dir: PathBuf) -> Result<PathRules, GlobError> {
        let optional = |list: &Option<toml::Spanned<Strings>>, key: &str| {
            list.as_ref()
                .map(|list| Globs::compile(list.get_ref(), key))
                .transpose()
        };
        let mut overrides = Vec::new();
        for (index, entry) in settings
            .overrides
            .iter()
            .flat_map(|o| o.get_ref())
            .enumerate()
        {
            let key = format!("validate.overrides[{index}].paths");
            let paths = entry.paths.as_ref().map(|p| p.get_ref().clone());
            overrides.push(Globs::compile(&paths.unwrap_or_default(), &key)?);
        }
        Ok(PathRules {
            include: optional(&settings.include, "validate.include")?,
            exclude: optional(&settings.exclude, "validate.exclude")?,
            overrides,
            dir,
        })
    }

    /// Whether a walk goes into the folder `dir` (absolute).
    pub fn enters(&self, dir: &Path) -> bool {
        !self.excluded(dir)
    }

    /// Whether a file is checked: a file met in a walk (`named` false) needs
    /// a `.json`/`.jsonl` name unless `include` is set; a named file is taken
    /// unless `include` leaves it out. `exclude` leaves out either.
    pub fn takes(&self, file: &Path, named: bool) -> bool {
        let included = match &self.include {
            Some(include) => include.matches(file, &self.dir),
            None => named || crate::validate::is_json_name(file),
        };
        included && !self.excluded(file)
    }

    fn excluded(&self, path: &Path) -> bool {
        self.exclude
            .as_ref()
            .is_some_and(|exclude| exclude.matches(path, &self.dir))
    }

    /// The overrides (by index) whose `paths` match `file` (absolute).
    pub fn overrides_for<'a>(&'a self, file: &'a Path) -> impl Iterator<Item = usize> + 'a {
        self.overrides
            .iter()
            .enumerate()
            .filter(move |(_, globs)| globs.matches(file, &self.dir))
            .map(|(index, _)| index)
    }
}

/// `path` made absolute against `cwd` and cleaned of `.` and `..` without
/// touching the disk (links are not followed: globs match the path as named).
pub fn absolute(path: &Path, cwd: &Path) -> PathBuf {
    let joined = cwd.join(path);
    let mut clean = PathBuf::new();
    for component in joined.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                clean.pop();
            }
            other => clean.push(other),
        }
    }
    clean
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(text: &str) -> PathRules {
        let settings: super::super::file::Settings = toml::from_str(text).unwrap();
        PathRules::compile(&settings.validate, PathBuf::from("/repo")).unwrap()
    }

    #[test]
    fn globs_match_names_and_paths_from_the_config_folder() {
        let rules = rules(
            "[validate]\ninclude = [\"fixtures/**/*.json\", \"*.ndjson\"]\n\
             exclude = [\"fixtures/broken\", \"*.snap.json\"]\n\
             [[validate.overrides]]\npaths = [\"fixtures/anthropic/**\"]\n",
        );
        let take = |path: &str| rules.takes(Path::new(path), false);
        assert!(take("/repo/fixtures/a/b.json"));
        assert!(take("/repo/fixtures/b.json"));
        assert!(take("/repo/deep/x.ndjson"));
        assert!(!take("/repo/fixtures/a/b.jsonl"));
        assert!(!take("/repo/other/b.json"));
        assert!(!take("/repo/fixtures/broken/b.json"));
        assert!(!take("/repo/fixtures/a/b.snap.json"));
        assert!(!rules.enters(Path::new("/repo/fixtures/broken")));
        assert!(rules.enters(Path::new("/repo/fixtures/brokenish")));
        // Outside the config's folder only names match.
        assert!(take("/elsewhere/x.ndjson"));
        assert!(!take("/elsewhere/fixtures/a.json"));
        let over = |path: &str| rules.overrides_for(Path::new(path)).count();
        assert_eq!(over("/repo/fixtures/anthropic/x/y.json"), 1);
        assert_eq!(over("/repo/fixtures/openai/y.json"), 0);
    }

    #[test]
    fn without_include_walks_take_json_files_and_named_files_anything() {
        let rules = rules("[validate]\nexclude = [\"./vendor/\"]\n");
        assert!(rules.takes(Path::new("/repo/a.jsonl"), false));
        assert!(!rules.takes(Path::new("/repo/a.txt"), false));
        assert!(rules.takes(Path::new("/repo/a.txt"), true));
        assert!(!rules.takes(Path::new("/repo/vendor/x/a.json"), true));
    }

    #[test]
    fn paths_are_cleaned_without_the_disk() {
        assert_eq!(
            absolute(Path::new("../b/./c.json"), Path::new("/repo/a")),
            PathBuf::from("/repo/b/c.json")
        );
        assert_eq!(
            absolute(Path::new("/x/y"), Path::new("/repo")),
            PathBuf::from("/x/y")
        );
    }
}
