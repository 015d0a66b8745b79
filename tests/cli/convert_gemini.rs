//! `partkit convert` on the command line with Gemini input: JSON Lines, one
//! document a line, the bad line named and counted. How Gemini is read and
//! written is tested in-process by the cases under `tests/shapes/`
//! (`shape_cases.rs`).

use serde_json::{json, Value};

use super::run_with_stdin;

/// Compact JSON text, keys in order.
fn compact(value: &Value) -> String {
    serde_json::to_string(value).unwrap()
}

fn text(text: &str) -> Value {
    json!({"text": text})
}

#[test]
fn json_lines_convert_one_document_a_line_and_name_the_bad_line() {
    let lines = [
        json!({"contents": [{"role": "user", "parts": [text("hi")]}]}),
        json!({"contents": [{"role": "model", "parts": [{"functionCall": {"args": {}}}]}]}),
        json!({"candidates": [{"content": {"parts": [text("hello")], "role": "model"},
                               "finishReason": "STOP"}]}),
    ];
    let input: String = lines.iter().map(|l| format!("{}\n", compact(l))).collect();
    let run = run_with_stdin(&["convert", "--to", "openai-chat"], input.as_bytes());
    assert_eq!(run.code, 1, "stderr: {}", run.stderr);
    assert_eq!(
        run.stderr,
        "partkit: error: <stdin>:2: /contents/0/parts/0/functionCall/name: a functionCall needs a name\n\
         partkit: <stdin>: 3 lines in, 2 out, 1 failed\n"
    );
    assert_eq!(
        run.json_lines(),
        [
            json!({"messages": [{"role": "user", "content": "hi"}]}),
            json!({"object": "chat.completion", "choices": [{"index": 0, "finish_reason": "stop",
                   "message": {"role": "assistant", "content": "hello"}}]}),
        ]
    );
}
