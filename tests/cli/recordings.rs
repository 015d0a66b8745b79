//! Real recordings (`../shared/realworld/`, read at run time and skipped when
//! the folder is absent) and the classes of damage and false alarm found in
//! them, each from a minimal input. The SDK-type checks of the same recordings'
//! conversions are in conformance/realworld.py.

use std::path::PathBuf;

use serde_json::{json, Value};

use crate::{path_arg, run, run_with_stdin, Run};

/// The recordings folder, when it is there.
fn realworld() -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/realworld");
    root.join("README.md").exists().then_some(root)
}

/// Every recorded file with its shape (its folder) and whether the provider
/// accepted it (the README's status column: 200, or — for a response or a
/// tool result; the two 400 controls are not).
fn recordings(root: &PathBuf) -> Vec<(String, PathBuf, bool)> {
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let mut shape = String::new();
    let mut found = Vec::new();
    for line in readme.lines() {
        if let Some(rest) = line.strip_prefix("## ") {
            shape = rest.split('/').next().unwrap_or("").to_string();
            continue;
        }
        let cells: Vec<&str> = line
            .trim()
            .trim_matches('|')
            .split('|')
            .map(str::trim)
            .collect();
        if cells.len() > 5 && cells[0].ends_with(".json") {
            let accepted = cells[5] == "200" || cells[5] == "—";
            found.push((shape.clone(), root.join(&shape).join(cells[0]), accepted));
        }
    }
    found
}

fn convert(args: &[&str], input: &Value) -> Run {
    let mut all = vec!["convert", "--compact"];
    all.extend_from_slice(args);
    run_with_stdin(&all, input.to_string().as_bytes())
}

#[test]
fn every_accepted_recording_validates_clean_and_round_trips_exactly() {
    let Some(root) = realworld() else {
        eprintln!("skipped: ../shared/realworld is absent");
        return;
    };
    let all = recordings(&root);
    assert!(all.len() >= 50, "the README lists {} files", all.len());
    let mut failures = Vec::new();
    for (shape, path, accepted) in &all {
        let file = path_arg(path);
        if *accepted {
            let check = run(&["validate", file]);
            if check.code != 0 {
                failures.push(format!(
                    "{file}: validate exit {}: {}",
                    check.code, check.stdout
                ));
            }
        }
        let mut there = vec!["convert", "--compact", "--from", shape, "--to", "canonical"];
        if shape == "mcp" {
            there.extend(["--call-id", "call_1"]);
        }
        there.push(file);
        let canonical = run(&there);
        if canonical.code != 0 {
            failures.push(format!("{file}: to canonical: {}", canonical.stderr));
            continue;
        }
        let back = run_with_stdin(
            &["convert", "--compact", "--from", "canonical", "--to", shape],
            canonical.stdout.as_bytes(),
        );
        let original: Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        if back.code != 0 || back.json() != original {
            failures.push(format!("{file}: round trip is not exact: {}", back.stderr));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// ---- item 4: empty messages ----------------------------------------------------------

#[test]
fn an_empty_system_prompt_is_no_system_prompt_in_any_other_shape() {
    // What boto3 sends with no system prompt, and Responses' empty instructions.
    let bedrock = json!({"modelId": "m", "messages": [{"role": "user", "content": [{"text": "hi"}]}],
        "system": [], "inferenceConfig": {"maxTokens": 10}});
    let responses =
        json!({"model": "m", "instructions": "", "input": "hi", "max_output_tokens": 10});
    for (source, body) in [("bedrock", &bedrock), ("openai-responses", &responses)] {
        for target in [
            "openai-chat",
            "openai-responses",
            "anthropic",
            "gemini",
            "bedrock",
            "canonical",
        ] {
            let done = convert(&["--from", source, "--to", target], body);
            assert_eq!(done.code, 0, "{source} -> {target}: {}", done.stderr);
            let out = done.json();
            if target == source {
                assert_eq!(&out, body, "{source} comes back as it was");
                continue;
            }
            let expected = if target == "gemini" {
                "partkit: warning: gemini has no place for model; dropped\n"
            } else {
                ""
            };
            assert_eq!(
                done.stderr, expected,
                "{source} -> {target}: nothing is lost"
            );
            for key in ["system", "instructions", "systemInstruction"] {
                assert!(out.get(key).is_none(), "{source} -> {target}: {out}");
            }
            let list = out
                .get("messages")
                .or(out.get("input"))
                .and_then(Value::as_array);
            let roles = list.into_iter().flatten().filter_map(|m| m.get("role"));
            assert!(
                roles.clone().all(|r| r != "system"),
                "{source} -> {target}: {out}"
            );
        }
    }
}
