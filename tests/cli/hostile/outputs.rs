//! Where output cannot go: a read-only folder (exit 2, one line, nothing
//! written) and a stdout closed early (the run ends quietly with 0).

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::support::media::b64;
use crate::{path_arg, run, temp_file};

/// A folder nothing can be written into: a read-only tmpfs as root (for
/// whom permissions do not stop a write), else a folder without write
/// permission. `None` when neither can be had here.
struct ReadOnly {
    dir: tempfile::TempDir,
    mounted: bool,
}

impl ReadOnly {
    fn new() -> Option<ReadOnly> {
        let dir = tempfile::tempdir().unwrap();
        let probe = dir.path().join("probe");
        std::fs::write(&probe, "x").unwrap();
        std::fs::remove_file(&probe).unwrap();
        let root = std::fs::metadata(dir.path())
            .map(|m| std::os::unix::fs::MetadataExt::uid(&m) == 0)
            .unwrap_or(false);
        let mounted = root
            && Command::new("mount")
                .args(["-t", "tmpfs", "-o", "ro,size=64k", "tmpfs"])
                .arg(dir.path())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success());
        if !mounted {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o555)).unwrap();
        }
        let writable = std::fs::write(&probe, "x").is_ok();
        if writable {
            let _ = std::fs::remove_file(&probe);
            return None;
        }
        Some(ReadOnly { dir, mounted })
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }
}

impl Drop for ReadOnly {
    fn drop(&mut self) {
        if self.mounted {
            let _ = Command::new("umount").arg(self.dir.path()).status();
        } else {
            use std::os::unix::fs::PermissionsExt;
            let _ =
                std::fs::set_permissions(self.dir.path(), std::fs::Permissions::from_mode(0o755));
        }
    }
}

#[test]
fn a_read_only_folder_is_one_error_and_nothing_written() {
    let Some(read_only) = ReadOnly::new() else {
        // Root without a mount: nothing here can be made read-only.
        return;
    };
    let folder = read_only.path();
    let reply = format!(
        r#"{{"tool_output_images":[{{"image_url":"data:image/png;base64,{}"}}]}}"#,
        b64("tiny.png")
    );
    let (_dir, input) = temp_file("reply.json", reply.as_bytes());
    let png = crate::fixture("tiny.png");
    let out: PathBuf = folder.join("out.png");
    let cases: Vec<Vec<&str>> = vec![
        vec!["split", path_arg(&input), "--images-dir", path_arg(folder)],
        vec!["inspect", path_arg(&input), "--extract", path_arg(folder)],
        vec![
            "resize",
            "--max-dim",
            "2",
            path_arg(&png),
            "--out-dir",
            path_arg(folder),
        ],
        vec![
            "resize",
            "--max-dim",
            "2",
            path_arg(&png),
            "-o",
            path_arg(&out),
        ],
    ];
    for args in cases {
        let run = run(&args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        let errors = run.error_lines();
        assert_eq!(errors.len(), 1, "{args:?}: {}", run.stderr);
        assert_eq!(
            std::fs::read_dir(folder).unwrap().count(),
            0,
            "{args:?}: nothing written"
        );
    }
}

#[test]
fn a_closed_stdout_ends_every_command_quietly() {
    // Many lines of output: far more than a pipe holds.
    let line = format!(
        "{{\"messages\":[{{\"role\":\"user\",\"content\":[{{\"type\":\"text\",\"text\":\"{}\"}}]}}]}}\n",
        "t".repeat(2000)
    );
    let (_dir, input) = temp_file("many.jsonl", line.repeat(2000).as_bytes());
    for command in [
        &["split"][..],
        &["convert", "--to", "anthropic"],
        &["convert", "--to", "gemini"],
        &["resize", "--max-dim", "8"],
        &["validate", "--kind", "parts"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_partkit"))
            .args(command)
            .arg(&input)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let mut first = [0u8; 1];
        stdout.read_exact(&mut first).expect("some output");
        drop(stdout);
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(0), "{command:?}: {stderr}");
        assert!(!stderr.contains("error"), "{command:?}: {stderr}");
    }
}
