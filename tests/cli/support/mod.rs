//! What the test files share: running the binary and reading what it printed
//! (here), the media fixtures (`media`), builders for documents in each shape
//! (`shapes`, `recipes`, `exchange`), running `validate` and the lines it prints
//! (`validating`, `findings`), and the in-process table helpers (`tables`).

pub mod exchange;
pub mod findings;
pub mod media;
pub mod outputs;
pub mod recipes;
pub mod shapes;
pub mod tables;
pub mod validating;

use std::path::{Path, PathBuf};

use serde_json::Value;

/// The shapes that hold whole transcripts (every one `convert` writes one in).
pub const TRANSCRIPT_SHAPES: [&str; 6] = [
    "canonical",
    "openai-chat",
    "openai-responses",
    "anthropic",
    "gemini",
    "bedrock",
];

/// What one run of the binary produced.
#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// stdout parsed as one JSON document.
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{}", self.stdout))
    }

    /// stdout parsed as JSON Lines.
    pub fn json_lines(&self) -> Vec<Value> {
        self.stdout
            .lines()
            .map(|line| {
                serde_json::from_str(line).unwrap_or_else(|e| panic!("bad line ({e}): {line}"))
            })
            .collect()
    }

    /// stderr without the count that ends a run over JSON Lines
    /// (`partkit: <input>: 3 lines in, 3 out, 0 failed`).
    pub fn stderr_without_summary(&self) -> String {
        self.stderr
            .lines()
            .filter(|l| !is_summary(l))
            .map(|l| format!("{l}\n"))
            .collect()
    }

    /// The `partkit: error: ` lines of stderr.
    pub fn error_lines(&self) -> Vec<&str> {
        self.stderr
            .lines()
            .filter(|l| l.starts_with("partkit: error: "))
            .collect()
    }

    /// Asserts a failure: the exit code, nothing on stdout, and exactly one stderr
    /// line that starts `partkit: error: ` and contains every fragment.
    pub fn assert_error(&self, code: i32, fragments: &[&str]) {
        assert_eq!(self.code, code, "exit code; stderr: {}", self.stderr);
        assert_eq!(self.stdout, "", "stdout must be empty on failure");
        let lines = self.error_lines();
        assert_eq!(
            lines.len(),
            1,
            "one error line expected, stderr: {}",
            self.stderr
        );
        for fragment in fragments {
            assert!(
                lines[0].contains(fragment),
                "{:?} not in {:?}",
                fragment,
                lines[0]
            );
        }
    }
}

/// Whether a stderr line is the count that ends a run over JSON Lines.
pub fn is_summary(line: &str) -> bool {
    line.starts_with("partkit: ")
        && !line.starts_with("partkit: error: ")
        && !line.starts_with("partkit: warning: ")
        && (line.contains(" in, ") || line.contains(" blank), "))
        && line.contains(" failed")
}

/// The folder of real recordings (`../shared/cassettes/` beside the crate),
/// read at run time; `None` where it is absent, and the tests that need it
/// pass.
pub fn cassettes() -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/cassettes");
    root.join("README.md").exists().then_some(root)
}

/// A recording file's text, inflated when gzipped.
pub fn text_of(path: &Path) -> String {
    let bytes = std::fs::read(path).unwrap();
    if bytes.starts_with(&[0x1f, 0x8b]) {
        use std::io::Read;
        let mut out = String::new();
        flate2::read::GzDecoder::new(&bytes[..])
            .read_to_string(&mut out)
            .unwrap();
        out
    } else {
        String::from_utf8(bytes).unwrap()
    }
}

/// The path of a committed fixture.
pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// Runs `partkit` with `args` (in the repository root) and `stdin`.
pub fn run_with_stdin(args: &[&str], stdin: &[u8]) -> Run {
    let output = assert_cmd::Command::cargo_bin("partkit")
        .expect("the partkit binary is built")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .write_stdin(stdin.to_vec())
        .output()
        .expect("partkit runs");
    Run {
        code: output
            .status
            .code()
            .expect("partkit exits, not killed by a signal"),
        stdout: String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    }
}

/// Canonical base64 of a committed fixture.
pub fn fixture_b64(name: &str) -> String {
    use base64::Engine;
    let bytes = std::fs::read(fixture(name)).unwrap_or_else(|e| panic!("fixture {name}: {e}"));
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// A file in a fresh temporary directory (kept alive by the returned guard).
pub fn temp_file(name: &str, contents: &[u8]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join(name);
    std::fs::write(&file, contents).expect("write temp file");
    (dir, file)
}

/// A path as typed on the command line.
pub fn path_arg(path: &Path) -> &str {
    path.to_str().expect("test paths are UTF-8")
}

/// Runs `partkit` with `args` and empty stdin.
pub fn run(args: &[&str]) -> Run {
    run_with_stdin(args, b"")
}

/// The cells of a markdown table row, trimmed (an escaped pipe, `\|`, read
/// as `/`): the READMEs of ../shared list their files in such tables.
pub fn table_cells(line: &str) -> Vec<String> {
    line.replace("\\|", "/")
        .trim()
        .trim_matches('|')
        .split('|')
        .map(|cell| cell.trim().to_string())
        .collect()
}
