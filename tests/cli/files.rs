//! Files partkit writes (docs/safety.md): the mode a new file gets.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

use super::support::{fixture, fixture_b64};

/// Runs partkit under `umask`, in `dir`; returns its exit code and stderr.
fn run_under_umask(umask: &str, dir: &Path, args: &[&str]) -> (i32, String) {
    let bin = assert_cmd::cargo::cargo_bin("partkit");
    let output = Command::new("sh")
        .arg("-c")
        .arg(format!("umask {umask} && exec \"$0\" \"$@\""))
        .arg(bin)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("sh runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

/// A new file gets 0666 less the umask (as the shell's `>` gives), through
/// every way partkit writes one: the temporary file renamed into place
/// (`resize -o`, `--out-dir`, `split --images-dir --force`) and a plain
/// create (`split --images-dir`, `inspect --extract`).
#[test]
fn new_files_get_the_mode_the_umask_gives() {
    let dir = tempfile::tempdir().unwrap();
    let png = fixture("tiny.png");
    let png = png.to_str().unwrap();
    let reply = format!(
        r#"{{"text":"t","tool_output_images":[{{"image_url":"data:image/png;base64,{}"}}]}}"#,
        fixture_b64("tiny.png")
    );
    std::fs::write(dir.path().join("reply.json"), reply).unwrap();
    for (args, written) in [
        (
            &["resize", "--max-dim", "2", "-o", "small.png", png][..],
            "small.png",
        ),
        (
            &["resize", "--max-dim", "2", "--out-dir", "out", png],
            "out/tiny.png",
        ),
        (&["split", "--images-dir", "a", "reply.json"], "a"),
        (
            &["split", "--images-dir", "b", "--force", "reply.json"],
            "b",
        ),
        (&["inspect", "--extract", "c", "reply.json"], "c"),
    ] {
        if args.contains(&"out") {
            std::fs::create_dir_all(dir.path().join("out")).unwrap();
        }
        let (code, stderr) = run_under_umask("027", dir.path(), args);
        assert!(code == 0 || code == 1, "{args:?}: {code} {stderr}");
        let written = dir.path().join(written);
        let files: Vec<_> = if written.is_dir() {
            std::fs::read_dir(&written)
                .unwrap()
                .map(|e| e.unwrap().path())
                .collect()
        } else {
            vec![written]
        };
        assert!(!files.is_empty(), "{args:?}: nothing written; {stderr}");
        for file in files {
            assert_eq!(mode(&file), 0o640, "{args:?}: {}", file.display());
        }
    }
}

/// A closed stdout ends `resize` quietly with exit 0, as every command: a
/// resized document far larger than a pipe holds, the reader gone at once.
#[test]
fn resize_ends_quietly_when_stdout_closes() {
    use std::process::Stdio;
    let reply = format!(
        r#"{{"text":"{}","tool_output_images":[{{"image_url":"data:image/png;base64,{}"}}]}}"#,
        "x".repeat(1 << 20),
        fixture_b64("tiny.png")
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("reply.json");
    std::fs::write(&path, reply).unwrap();
    for args in [&["--max-dim", "2"][..], &["--max-bytes", "10000000"]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_partkit"))
            .arg("resize")
            .args(args)
            .arg(&path)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("partkit starts");
        drop(child.stdout.take());
        let output = child.wait_with_output().expect("partkit ends");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(
            !stderr.contains("error") && !stderr.contains("pipe"),
            "{args:?}: {stderr}"
        );
    }
}
