//! What the commands that print one JSON document (`encode`, `split`) must have
//! printed, and what a folder holds afterwards.

use std::fs;
use std::path::Path;

use serde_json::Value;

use super::Run;

/// Exit 0, exactly `stderr` on stderr, and stdout exactly `expected` as compact
/// JSON on one line (stdout is a pipe here), which also pins the key order.
pub fn assert_output(run: &Run, expected: &Value, stderr: &str) {
    assert_eq!(run.code, 0, "exit code; stderr: {}", run.stderr);
    assert_eq!(run.stderr, stderr, "stderr");
    assert_eq!(&run.json(), expected, "stdout JSON");
    assert_eq!(
        run.stdout,
        format!("{}\n", serde_json::to_string(expected).unwrap()),
        "stdout text (compact, keys in order)"
    );
}

/// Exit 0, nothing on stderr, stdout exactly `expected`.
pub fn assert_ok(run: &Run, expected: &Value) {
    assert_output(run, expected, "");
}

/// The stderr of one warning line.
pub fn warning(message: &str) -> String {
    format!("partkit: warning: {message}\n")
}

/// Exit `code`, nothing on stdout, and stderr exactly one error line `message`.
pub fn assert_fails(run: &Run, code: i32, message: &str) {
    run.assert_error(code, &[message]);
    assert_eq!(run.stderr, format!("partkit: error: {message}\n"), "stderr");
}

/// docs/limits.md: no message shows more than the first 32 characters of a payload.
pub fn assert_no_payload_leak(stderr: &str, payload: &str) {
    assert!(
        payload.len() > 32,
        "the payload must be long enough to leak"
    );
    for window in payload.as_bytes().windows(33) {
        let Ok(window) = std::str::from_utf8(window) else {
            continue;
        };
        assert!(
            !stderr.contains(window),
            "stderr shows more than 32 characters of the payload ({window}): {stderr}"
        );
    }
}

/// The names in a directory, sorted.
pub fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("read {}: {e}", dir.display()))
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}
