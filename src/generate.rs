//! Completions and man pages, rendered from the clap definitions. The hidden
//! `partkit generate` writes them; a test compares the committed files with a
//! fresh render so they cannot go stale.

use std::fs;
use std::path::{Path, PathBuf};

use clap::CommandFactory;
use clap_complete::Shell;

use crate::cli::Cli;
use crate::error::{Error, Result};

/// One generated file: its path relative to the repository root, and its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Artifact {
    pub path: PathBuf,
    pub bytes: Vec<u8>,
}

/// Renders every completion script and man page.
pub fn render() -> Vec<Artifact> {
    let mut artifacts = Vec::new();
    for (shell, file) in [
        (Shell::Bash, "partkit.bash"),
        (Shell::Zsh, "_partkit"),
        (Shell::Fish, "partkit.fish"),
        (Shell::Elvish, "partkit.elv"),
        (Shell::PowerShell, "_partkit.ps1"),
    ] {
        let mut command = Cli::command();
        let mut bytes = Vec::new();
        clap_complete::generate(shell, &mut command, "partkit", &mut bytes);
        artifacts.push(Artifact {
            path: Path::new("completions").join(file),
            bytes,
        });
    }
    let mut command = Cli::command();
    command.build();
    artifacts.push(man_page(command.clone(), "partkit"));
    for sub in command
        .get_subcommands()
        .filter(|s| !s.is_hide_set() && s.get_name() != "help")
    {
        let name = format!("partkit-{}", sub.get_name());
        artifacts.push(man_page(sub.clone().name(name.clone()), &name));
    }
    artifacts
}

fn man_page(command: clap::Command, name: &str) -> Artifact {
    let mut bytes = Vec::new();
    clap_mangen::Man::new(command)
        .render(&mut bytes)
        .expect("rendering into memory cannot fail");
    Artifact {
        path: Path::new("man").join(format!("{name}.1")),
        bytes,
    }
}

/// Writes every artifact under `root`, returning the paths written.
pub fn write_all(root: &Path) -> Result<Vec<PathBuf>> {
    let mut written = Vec::new();
    for artifact in render() {
        let path = root.join(&artifact.path);
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir).map_err(|source| Error::Write {
                path: dir.to_path_buf(),
                source,
            })?;
        }
        crate::io::write_atomic(&path, &artifact.bytes)?;
        written.push(path);
    }
    Ok(written)
}
