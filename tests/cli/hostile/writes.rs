//! How partkit writes files (issue 29): into devices and FIFOs and through
//! symlinks as the shell's `>` does; never splitting a hard link, dropping
//! an ACL or an extended attribute, or defeating a read-only bit; no
//! temporary file left behind by SIGINT or SIGTERM; a full stdout named as
//! stdout; an input that fails or changes under the final copy named as the
//! input.

use std::io::Read;
use std::process::{Command, Stdio};

use crate::support::media::{b64, b64_of, bytes};
use crate::{path_arg, Run};

fn partkit() -> Command {
    Command::new(assert_cmd::cargo::cargo_bin("partkit"))
}

fn finished(output: std::process::Output) -> Run {
    Run {
        code: output.status.code().expect("partkit exits"),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// The `partkit: error:` lines of a run.
fn errors(run: &Run) -> Vec<&str> {
    run.stderr
        .lines()
        .filter(|l| l.starts_with("partkit: error: "))
        .collect()
}

/// A large input (one JSON document, read in place) truncated while it is
/// copied to stdout: `resize` (which passes it through unchanged, by the
/// kernel) and `convert` (which reads its payloads from it as it writes)
/// fail, exit 2, naming the input as what could not be read.
#[test]
fn a_large_input_changed_during_the_final_copy_is_a_read_error() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("big.json");
    let resize_input = format!(
        r#"{{"text":"{}","tool_output_images":[{{"image_url":"data:image/png;base64,{}"}}]}}"#,
        "x".repeat(4 << 20),
        b64("tiny.png")
    );
    let mut padded = bytes("tiny.png");
    padded.resize(6 << 20, 0);
    let convert_input = format!(
        r#"{{"text":"t","tool_output_images":[{{"image_url":"data:image/png;base64,{}"}}]}}"#,
        b64_of(&padded)
    );
    for (args, content) in [
        (vec!["resize", "--max-dim", "1000"], resize_input),
        (vec!["convert", "--to", "canonical"], convert_input),
    ] {
        std::fs::write(&file, &content).unwrap();
        let mut child = partkit()
            .args(&args)
            .arg(&file)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdout = child.stdout.take().unwrap();
        // The first byte out: the copy has begun, and waits on the pipe.
        let mut first = [0u8];
        stdout.read_exact(&mut first).unwrap();
        std::fs::OpenOptions::new()
            .write(true)
            .open(&file)
            .unwrap()
            .set_len(1000)
            .unwrap();
        let mut rest = Vec::new();
        stdout.read_to_end(&mut rest).unwrap();
        let run = finished(child.wait_with_output().unwrap());
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        let lines = errors(&run);
        assert_eq!(lines.len(), 1, "{args:?}: {}", run.stderr);
        assert!(
            lines[0].starts_with(&format!("partkit: error: cannot read {}", path_arg(&file))),
            "{args:?}: {}",
            lines[0]
        );
        assert!(rest.len() + 1 < content.len(), "{args:?}: cut short");
    }
}
