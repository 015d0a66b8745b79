//! Every pair of transcript shapes: a realistic transcript (system prompt, tools
//! with schemas, parallel calls, results with text, images and a PDF, an error
//! result) written in shape A is converted to shape B and compared, output and
//! warnings, with the reviewed file tests/fixtures/convert/matrix/A.to.B.json.
//!
//! After a deliberate change, rewrite the files with
//! `PARTKIT_BLESS=1 cargo test --test cli convert_matrix` and review the diff.
//! conformance/check.py also validates every B output against B's SDK types.

use std::path::PathBuf;

use serde_json::{json, Value};

use super::run_with_stdin;

const SHAPES: [&str; 6] = super::TRANSCRIPT_SHAPES;

fn matrix_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/convert/matrix")
}

/// The transcript in shape `shape`, written by partkit from the canonical one.
fn source(shape: &str) -> String {
    let canonical = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("conformance/transcripts/tools_and_media.json"),
    )
    .expect("the conformance transcript");
    if shape == "canonical" {
        return canonical;
    }
    let run = run_with_stdin(
        &["convert", "--from", "canonical", "--to", shape],
        canonical.as_bytes(),
    );
    assert_eq!(run.code, 0, "canonical -> {shape}: {}", run.stderr);
    run.stdout
}

#[test]
fn every_pair_of_shapes_converts_to_the_reviewed_output() {
    let bless = std::env::var_os("PARTKIT_BLESS").is_some();
    let mut differences = Vec::new();
    for from in SHAPES {
        let input = source(from);
        for to in SHAPES.iter().filter(|to| **to != from) {
            let run = run_with_stdin(&["convert", "--from", from, "--to", to], input.as_bytes());
            assert_eq!(run.code, 0, "{from} -> {to}: {}", run.stderr);
            let warnings: Vec<&str> = run
                .stderr
                .lines()
                .map(|l| l.strip_prefix("partkit: warning: ").unwrap_or(l))
                .collect();
            let got = json!({"output": run.json(), "warnings": warnings});
            let path = matrix_dir().join(format!("{from}.to.{to}.json"));
            if bless {
                std::fs::create_dir_all(matrix_dir()).unwrap();
                std::fs::write(&path, serde_json::to_string_pretty(&got).unwrap() + "\n").unwrap();
                continue;
            }
            let expected: Value = serde_json::from_str(
                &std::fs::read_to_string(&path)
                    .unwrap_or_else(|_| panic!("{} is missing; bless it", path.display())),
            )
            .unwrap();
            if got != expected {
                differences.push(format!("{from} -> {to}"));
            }
        }
    }
    assert!(
        differences.is_empty(),
        "output differs from the reviewed file for: {}\n(PARTKIT_BLESS=1 rewrites them; review the diff)",
        differences.join(", ")
    );
}
