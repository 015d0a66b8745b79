//! Table tests of validation findings over the binary: one document on stdin
//! and exactly the findings it must give, in text and in `--format json`.

use serde_json::{json, Value};

use super::validating::{masked, stdin_error, summary, validate};

/// One document on stdin and exactly the findings it must give.
pub struct Case {
    pub what: String,
    /// Extra arguments (`--from canonical`, `--target …`).
    pub args: Vec<&'static str>,
    pub doc: Value,
    pub images: usize,
    /// (rule, pointer, message), in output order.
    pub want: Vec<(&'static str, String, String)>,
}

pub fn case(
    what: &str,
    args: &[&'static str],
    doc: Value,
    want: &[(&'static str, &str, &str)],
) -> Case {
    Case {
        what: what.to_string(),
        args: args.to_vec(),
        doc,
        images: 0,
        want: want
            .iter()
            .map(|(rule, pointer, message)| (*rule, pointer.to_string(), message.to_string()))
            .collect(),
    }
}

impl Case {
    pub fn images(mut self, images: usize) -> Case {
        self.images = images;
        self
    }
}

/// Runs every case twice (text and `--format json`) and asserts exit code,
/// stdout and the summary of each; reports every mismatch at once.
pub fn check(mut cases: Vec<Case>) {
    // Most cases show one rule on a request body whose calls need no tool
    // declarations to show it; that a body declaring no tools calls undeclared
    // ones is the cases of tool-undeclared.
    for case in &mut cases {
        if !case
            .want
            .iter()
            .any(|(rule, ..)| *rule == "tool-undeclared")
        {
            case.args.extend(["--ignore", "tool-undeclared"]);
        }
    }
    let mut failures = Vec::new();
    for case in &cases {
        let doc = case.doc.to_string();
        let lines: Vec<String> = case
            .want
            .iter()
            .map(|(rule, pointer, message)| stdin_error(rule, pointer, message))
            .collect();
        let code = if case.want.is_empty() { 0 } else { 1 };
        let stdout: String = lines.iter().map(|l| format!("{l}\n")).collect();
        let stderr = summary(1, case.images, case.want.len());
        let run = validate(&case.args, &doc);
        let got = (run.code, run.stdout.clone(), masked(&run.stderr));
        if got != (code, stdout.clone(), stderr.clone()) {
            failures.push(format!(
                "{} {:?}\n  want: {code} {stdout:?} {stderr:?}\n  got:  {} {:?} {:?}\n  doc: {doc}",
                case.what, case.args, got.0, got.1, got.2
            ));
            continue;
        }
        let mut args = case.args.clone();
        args.extend(["--format", "json"]);
        let run = validate(&args, &doc);
        let want: Vec<Value> = case
            .want
            .iter()
            .map(|(rule, pointer, message)| {
                json!({"path": "<stdin>", "line": 1, "severity": "error", "rule": rule,
                       "pointer": pointer, "message": message})
            })
            .collect();
        if (run.code, run.json_lines(), masked(&run.stderr)) != (code, want.clone(), stderr) {
            failures.push(format!("{} --format json: {:?}", case.what, run.stdout));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
}
