//! The settings and selections a run is given, under attack: config files
//! that are huge, endless, missing behind a link, folders, FIFOs or broken;
//! `--at` pointers read strictly by RFC 6901; `--max-dim 0`. And what the
//! checks and `resize` make of inputs they half-handled: truncated BMP and
//! TIFF parts under `--deep`, image types `resize` does not take, duplicate
//! keys in rollouts and skipped documents, a failing single document's
//! output.

use std::path::Path;
use std::process::Command;

use super::{run_bounded, Feed};
use crate::{path_arg, Run};

/// Runs partkit in `dir` (so that config discovery starts there).
fn run_in(dir: &Path, args: &[&str]) -> Run {
    let output = assert_cmd::Command::cargo_bin("partkit")
        .unwrap()
        .args(args)
        .current_dir(dir)
        .write_stdin(Vec::new())
        .output()
        .unwrap();
    Run {
        code: output.status.code().expect("an exit code"),
        stdout: String::from_utf8(output.stdout).unwrap(),
        stderr: String::from_utf8(output.stderr).unwrap(),
    }
}

/// A clean tool reply with no images, for runs that only need a document.
const REPLY: &str = "{\"tool_output_images\":[]}\n";

/// The error lines of a run's stderr.
fn errors(run: &Run) -> Vec<&str> {
    run.stderr
        .lines()
        .filter(|l| l.starts_with("partkit: error: "))
        .collect()
}

// --- config files -------------------------------------------------------

#[test]
fn an_endless_config_is_refused_at_the_cap() {
    // Without a cap the reader grows until the memory limit kills it.
    let (run, _) = run_bounded(
        &["--config", "/dev/zero", "validate", "-"],
        256,
        Feed::Nothing,
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(
        errors(&run),
        ["partkit: error: /dev/zero: larger than 1 MiB, the most a config file may be (a config file is a few hundred bytes)"],
        "{}",
        run.stderr
    );
    // A sparse file of 1 GB: never read past the cap either.
    let dir = tempfile::tempdir().unwrap();
    let huge = dir.path().join("huge.toml");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(1 << 30)
        .unwrap();
    let (run, _) = run_bounded(
        &["--config", path_arg(&huge), "validate", "-"],
        256,
        Feed::Nothing,
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("huge.toml: larger than 1 MiB"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_found_config_over_the_cap_is_refused_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    // Valid TOML (comments), just too much of it.
    let mut text = String::from("[validate]\n");
    while text.len() <= 1 << 20 {
        text.push_str("# a comment line that takes up room in the file\n");
    }
    std::fs::write(dir.path().join("partkit.toml"), &text).unwrap();
    std::fs::write(dir.path().join("r.json"), REPLY).unwrap();
    let run = run_in(dir.path(), &["validate", "r.json"]);
    run.assert_error(
        2,
        &["partkit.toml: larger than 1 MiB, the most a config file may be"],
    );
    // Just under the cap is read.
    text.truncate(1 << 20);
    let cut = text.rfind('\n').unwrap() + 1;
    text.truncate(cut);
    std::fs::write(dir.path().join("partkit.toml"), &text).unwrap();
    let run = run_in(dir.path(), &["validate", "r.json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
}

/// What each fault in a found config says: the file, then what is wrong.
#[test]
fn a_found_config_that_cannot_be_read_is_exit_2_naming_it() {
    let cases: [(&str, &dyn Fn(&Path), &str); 6] = [
        (
            "dangling link",
            &|dir| std::os::unix::fs::symlink("gone.toml", dir.join("partkit.toml")).unwrap(),
            "partkit.toml: a link to gone.toml, which does not exist",
        ),
        (
            "folder",
            &|dir| std::fs::create_dir(dir.join("partkit.toml")).unwrap(),
            "partkit.toml: a folder, not a config file",
        ),
        (
            "FIFO",
            &|dir| {
                let made = Command::new("mkfifo")
                    .arg(dir.join(".partkit.toml"))
                    .status()
                    .unwrap();
                assert!(made.success());
            },
            ".partkit.toml: a FIFO, not a regular file: a config file must be one",
        ),
        (
            "pyproject not TOML",
            &|dir| std::fs::write(dir.join("pyproject.toml"), "[project\nname = 'x'\n").unwrap(),
            "pyproject.toml:1: not TOML: ",
        ),
        (
            "not UTF-8",
            &|dir| std::fs::write(dir.join("partkit.toml"), b"# caf\xe9\n").unwrap(),
            "partkit.toml:1: not UTF-8 text",
        ),
        (
            "link loop",
            &|dir| std::os::unix::fs::symlink("partkit.toml", dir.join("partkit.toml")).unwrap(),
            "partkit.toml: cannot read config",
        ),
    ];
    for (what, make, expected) in cases {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("r.json"), REPLY).unwrap();
        make(dir.path());
        for args in [&["validate", "r.json"][..], &["config"]] {
            let run = run_in(dir.path(), args);
            assert_eq!(
                run.code, 2,
                "{what}, {args:?}: {}{}",
                run.stdout, run.stderr
            );
            assert_eq!(run.stdout, "", "{what}, {args:?}");
            let errors = errors(&run);
            assert_eq!(errors.len(), 1, "{what}: {}", run.stderr);
            assert!(
                errors[0].starts_with(&format!("partkit: error: {expected}")),
                "{what}: {}",
                errors[0]
            );
        }
    }
}

#[test]
fn a_named_config_that_is_a_folder_or_missing_is_exit_2_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("conf")).unwrap();
    let run = run_in(dir.path(), &["--config", "conf", "validate", "-"]);
    run.assert_error(2, &["conf: a folder, not a config file"]);
    let run = run_in(dir.path(), &["--config", "nope.toml", "validate", "-"]);
    run.assert_error(2, &["nope.toml: cannot read config: "]);
}

#[test]
fn a_duplicate_key_in_a_config_is_named_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("partkit.toml"),
        "[validate]\ndeep = true\n\ndeep = false\n",
    )
    .unwrap();
    run_in(dir.path(), &["config"])
        .assert_error(2, &["partkit.toml:4: not TOML: duplicate key \"deep\""]);
    std::fs::write(
        dir.path().join("partkit.toml"),
        "[resize]\nmax-dim = 10\n[resize]\n",
    )
    .unwrap();
    run_in(dir.path(), &["config"])
        .assert_error(2, &["partkit.toml:3: not TOML: duplicate key \"resize\""]);
}

#[test]
fn a_config_max_dim_of_0_is_refused_in_validate_too() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("partkit.toml"), "[validate]\nmax-dim = 0\n").unwrap();
    run_in(dir.path(), &["config"])
        .assert_error(2, &["partkit.toml:2: validate.max-dim: must be at least 1"]);
    std::fs::write(
        dir.path().join("partkit.toml"),
        "[[validate.overrides]]\npaths = [\"x\"]\nmax-dim = 0\n",
    )
    .unwrap();
    run_in(dir.path(), &["config"]).assert_error(
        2,
        &["partkit.toml:3: validate.overrides[0].max-dim: must be at least 1"],
    );
}
