//! `partkit convert` on the command line with OpenAI Chat input: JSON Lines
//! converted line by line, and what detection says when it guessed. How the
//! shapes read and write is tested in-process by the cases under
//! `tests/shapes/` (`shape_cases.rs`).

use serde_json::{json, Value};

use super::{run_with_stdin, Run};

fn convert(args: &[&str], input: &Value) -> Run {
    let mut all = vec!["convert"];
    all.extend_from_slice(args);
    run_with_stdin(&all, input.to_string().as_bytes())
}

#[test]
fn json_lines_convert_line_by_line_in_order_with_errors_by_line() {
    let lines = [
        json!([{"role": "user", "content": "one"}]).to_string(),
        "{not json".to_string(),
        json!([{"role": "user", "content": "three"}]).to_string(),
    ]
    .join("\n");
    let run = run_with_stdin(
        &["convert", "--from", "openai-chat", "--to", "canonical"],
        lines.as_bytes(),
    );
    assert_eq!(run.code, 1);
    let outputs = run.json_lines();
    assert_eq!(outputs.len(), 2);
    assert_eq!(outputs[0][0]["content"][0]["text"], json!("one"));
    assert_eq!(outputs[1][0]["content"][0]["text"], json!("three"));
    assert!(
        run.stderr
            .starts_with("partkit: error: <stdin>:2: invalid JSON"),
        "{}",
        run.stderr
    );
}

#[test]
fn detection_says_when_it_guessed() {
    let run = convert(
        &["--to", "canonical"],
        &json!([{"role": "user", "content": "hi"}]),
    );
    assert_eq!(run.code, 0);
    assert_eq!(
        run.stderr,
        "partkit: warning: read the input as openai-chat (plain text messages fit several shapes); pass --from to choose\n"
    );
    convert(&["--to", "canonical"], &json!({"what": 1}))
        .assert_error(1, &["cannot tell which shape", "--from"]);
}
