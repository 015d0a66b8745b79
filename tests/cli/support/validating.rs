//! Running `partkit validate` (and `convert`, whose output it checks) and the
//! exact lines validate prints: findings and the summary.

use std::path::Path;

use super::{path_arg, run, run_with_stdin, Run};

/// The transcript rules, in `--list-rules` order (all of them from
/// `transcript-invalid` on), each tested in a validate_<family>.rs file as
/// `rule_<id>`; tests/cli/validate.rs tests the others.
pub const TRANSCRIPT_RULES: [&str; 21] = [
    "transcript-invalid",
    "media-placement",
    "text-empty",
    "content-empty",
    "shape-field",
    "shape-order",
    "tool-id-missing",
    "tool-id-duplicate",
    "tool-id-pattern",
    "tool-call-unanswered",
    "tool-result-orphan",
    "tool-result-duplicate",
    "tool-result-position",
    "tool-undeclared",
    "tool-call-caught",
    "tool-duplicate-name",
    "tool-schema-invalid",
    "tool-arguments-json",
    "tool-arguments-not-object",
    "tool-arguments-schema",
    "target-unsupported",
];

/// Runs `partkit validate ARGS` with `stdin`.
pub fn validate(args: &[&str], stdin: &str) -> Run {
    let mut all = vec!["validate"];
    all.extend_from_slice(args);
    run_with_stdin(&all, stdin.as_bytes())
}

/// Runs `partkit validate ARGS` with empty stdin.
pub fn validate_paths(args: &[&str]) -> Run {
    let mut all = vec!["validate"];
    all.extend_from_slice(args);
    run(&all)
}

/// stderr with the timing of the summary line (`in 0.0 s:`) replaced by `in T s:`.
pub fn masked(stderr: &str) -> String {
    stderr
        .lines()
        .map(|line| {
            let Some(rest) = line.strip_prefix("partkit: checked ") else {
                return format!("{line}\n");
            };
            let (Some(at), Some(end)) = (rest.find(" in "), rest.find(" s: ")) else {
                return format!("{line}\n");
            };
            let timing = &rest[at + 4..end];
            assert!(
                timing.bytes().all(|b| b.is_ascii_digit() || b == b'.'),
                "timing {timing:?} in {line:?}"
            );
            format!(
                "partkit: checked {} in T s: {}\n",
                &rest[..at],
                &rest[end + 4..]
            )
        })
        .collect()
}

/// One finding line as `validate` prints it.
pub fn finding(path: &str, line: usize, rule: &str, pointer: &str, message: &str) -> String {
    if pointer.is_empty() {
        format!("{path}:{line}: error[{rule}]: {message}")
    } else {
        format!("{path}:{line}: error[{rule}] {pointer}: {message}")
    }
}

/// An error finding in the document read from stdin.
pub fn stdin_error(rule: &str, pointer: &str, message: &str) -> String {
    finding("<stdin>", 1, rule, pointer, message)
}

pub fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

/// The summary of a run over `documents` documents holding `images` images
/// with `errors` errors.
pub fn summary(documents: usize, images: usize, errors: usize) -> String {
    format!(
        "partkit: checked {}, {} in T s: {}\n",
        plural(documents, "document"),
        plural(images, "image"),
        plural(errors, "error")
    )
}

/// Asserts exit code, stdout (exactly `lines`) and stderr (exactly `stderr`,
/// timing masked) together.
pub fn assert_run(run: &Run, code: i32, lines: &[String], stderr: &str) {
    let stdout: String = lines.iter().map(|l| format!("{l}\n")).collect();
    assert_eq!(
        (run.code, run.stdout.as_str(), masked(&run.stderr).as_str()),
        (code, stdout.as_str(), stderr),
        "exit code, stdout, stderr"
    );
}

/// Asserts a clean run over one document holding `images` images.
pub fn assert_clean(run: &Run, images: usize) {
    assert_run(run, 0, &[], &summary(1, images, 0));
}

/// Converts `input` (of shape `from`) to `to` with `options`; `None` when
/// `convert` refuses (exit 1), else the output.
pub fn converted(input: &Path, from: &str, to: &str, options: &[&str]) -> Option<String> {
    let mut args = vec!["convert", "--from", from, "--to", to, path_arg(input)];
    args.extend_from_slice(options);
    let run = run(&args);
    match run.code {
        0 => Some(run.stdout),
        1 => None,
        code => panic!("convert {args:?} exited {code}: {}", run.stderr),
    }
}
