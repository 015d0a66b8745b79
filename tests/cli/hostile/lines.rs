//! Every JSON Lines line accounted for at any size: a line over
//! `--max-document-size` fails alone (the lines before and after it are read
//! as usual, wherever in the input it comes), and a blank line keeps its
//! place under `--on-error null`.

use super::{run_bounded, Feed};
use crate::{path_arg, run, run_with_stdin, temp_file};

/// `count` small tool replies, `{"n":I}` for I from `first`.
fn small_lines(first: usize, count: usize) -> String {
    (first..first + count)
        .map(|n| format!("{{\"n\":{n}}}\n"))
        .collect()
}

/// A tool reply line of about `bytes` bytes.
fn long_line(bytes: usize) -> String {
    format!("{{\"text\":\"{}\"}}\n", "y".repeat(bytes))
}

/// The `n` of each output line of `split --rest`, `None` for `null`.
fn numbers(stdout: &str) -> Vec<Option<u64>> {
    stdout
        .lines()
        .map(|line| {
            let value: serde_json::Value = serde_json::from_str(line).unwrap();
            value.get("n").and_then(serde_json::Value::as_u64)
        })
        .collect()
}

/// 1,000 small lines, a 5 kB line, 5 more: under every policy the lines
/// before the long one are all printed, the long one fails alone, and the
/// ones after it follow unless the run stops there.
#[test]
fn a_line_over_the_limit_keeps_the_lines_before_and_after_it() {
    let text = small_lines(0, 1000) + &long_line(5000) + &small_lines(1000, 5);
    let (_dir, file) = temp_file("long.jsonl", text.as_bytes());
    let before: Vec<Option<u64>> = (0..1000).map(Some).collect();
    let after: Vec<Option<u64>> = (1000..1005).map(Some).collect();
    for (policy, code, expected) in [
        ("skip", 1, [before.clone(), after.clone()].concat()),
        (
            "null",
            0,
            [before.clone(), vec![None], after.clone()].concat(),
        ),
        ("stop", 1, before.clone()),
    ] {
        let run = run(&[
            "split",
            "--rest",
            "--max-document-size",
            "4kB",
            "--on-error",
            policy,
            path_arg(&file),
        ]);
        assert_eq!(run.code, code, "{policy}: {}", run.stderr);
        assert_eq!(numbers(&run.stdout), expected, "{policy}");
        let errors = run.error_lines();
        assert_eq!(errors.len(), 1, "{policy}: {}", run.stderr);
        assert!(
            errors[0].contains(&format!("{}:1001: longer than 4 kB", path_arg(&file))),
            "{}",
            errors[0]
        );
    }
    // convert fails the line alone too.
    let run = run(&[
        "convert",
        "--to",
        "anthropic",
        "--from",
        "mcp",
        "--max-document-size",
        "4kB",
        "--on-error",
        "null",
        path_arg(&file),
    ]);
    assert_eq!(run.stdout.lines().count(), 1006, "{}", run.stderr);
    assert_eq!(run.stdout.lines().nth(1000), Some("null"));
}

/// The limit holds on every line, not only in the first read of the input:
/// 1,050 lines of 120 bytes (more than one read buffer's worth) and then a
/// 5 kB line.
#[test]
fn the_limit_holds_past_the_start_of_the_input() {
    let short = format!("{{\"text\":\"{}\"}}\n", "x".repeat(108));
    assert_eq!(short.len(), 120);
    let text = short.repeat(1050) + &long_line(5000);
    let (_dir, file) = temp_file("late.jsonl", text.as_bytes());
    let validate = run(&["validate", "--max-document-size", "4kB", path_arg(&file)]);
    assert_eq!(validate.code, 2, "{}", validate.stderr);
    assert!(
        validate
            .stderr
            .contains(&format!("{}:1051: longer than 4 kB", path_arg(&file))),
        "{}",
        validate.stderr
    );
    assert!(
        validate.stderr.contains("1,050 documents skipped"),
        "{}",
        validate.stderr
    );
    assert!(
        validate
            .stderr
            .contains("; 1 line over --max-document-size, not checked"),
        "{}",
        validate.stderr
    );
    let split = run(&[
        "split",
        "--rest",
        "--max-document-size",
        "4kB",
        path_arg(&file),
    ]);
    assert_eq!(split.code, 1, "{}", split.stderr);
    assert_eq!(split.stdout.lines().count(), 1050);
}

/// validate goes on past a line over the limit: a finding after it is
/// reported, and the run ends with exit 2 (a line could not be read).
#[test]
fn validate_checks_the_lines_after_one_over_the_limit() {
    let bad = "{\"tool_output_images\":[{\"image_url\":\"https://x/a.png\"}]}\n";
    let text = "{\"step\":1}\n".repeat(3) + &long_line(5000) + bad;
    let (_dir, file) = temp_file("after.jsonl", text.as_bytes());
    let run = run(&["validate", "--max-document-size", "4kB", path_arg(&file)]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stdout.starts_with(&format!(
            "{}:5: error[reply-image-not-data-url]",
            path_arg(&file)
        )),
        "{}",
        run.stdout
    );
    assert!(
        run.stderr.contains(":4: longer than 4 kB"),
        "{}",
        run.stderr
    );
}

/// A blank line gives a `null` of its own under `--on-error null` (so that
/// output line N is input line N, as a Spark `rdd.pipe` job needs), and
/// nothing under the other policies; every line is counted.
#[test]
fn a_blank_line_keeps_its_place_under_null() {
    let text = "\n{\"n\":1}\n\n  \n{\"n\":2}\r\n\t\n{\"n\":3}\n\n";
    for args in [
        vec!["split", "--rest", "--on-error", "null"],
        vec!["split", "--rest", "--on-error", "null", "--jsonl"],
    ] {
        let run = run_with_stdin(&args, text.as_bytes());
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert_eq!(
            numbers(&run.stdout),
            [None, Some(1), None, None, Some(2), None, Some(3), None],
            "{args:?}"
        );
        assert!(
            run.stderr
                .contains("<stdin>: 8 lines in (5 blank), 8 out (5 null), 0 failed"),
            "{}",
            run.stderr
        );
    }
    let run = run_with_stdin(&["split", "--rest"], text.as_bytes());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(numbers(&run.stdout), [Some(1), Some(2), Some(3)]);
    assert!(
        run.stderr
            .contains("<stdin>: 8 lines in (5 blank), 3 out, 0 failed"),
        "{}",
        run.stderr
    );
}

/// Forced JSON Lines read the first line like any other: over the limit, it
/// fails alone.
#[test]
fn a_first_line_over_the_limit_fails_alone_in_forced_json_lines() {
    let text = long_line(5000) + &small_lines(1, 2);
    let run = run_with_stdin(
        &[
            "split",
            "--rest",
            "--jsonl",
            "--max-document-size",
            "4kB",
            "--on-error",
            "null",
        ],
        text.as_bytes(),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(numbers(&run.stdout), [None, Some(1), Some(2)]);
    assert!(
        run.stderr.contains("<stdin>:1: longer than 4 kB"),
        "{}",
        run.stderr
    );
}

/// A line far over the limit, streamed: read past in memory bounded by the
/// limit and the batches, never held, and the lines around it come out.
fn streamed_long_line(limit: &str, line_bytes: u64, data_mb: u64) {
    let head = small_lines(0, 2000) + "{\"text\":\"";
    let tail = "\"}\n".to_string() + &small_lines(2000, 2000);
    let (run, _) = run_bounded(
        &[
            "split",
            "--rest",
            "--on-error",
            "null",
            "--max-document-size",
            limit,
        ],
        data_mb,
        Feed::Repeat {
            head: head.as_bytes(),
            pattern: b"z",
            total: line_bytes,
            tail: tail.as_bytes(),
        },
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let expected: Vec<Option<u64>> = (0..2000)
        .map(Some)
        .chain([None])
        .chain((2000..4000).map(Some))
        .collect();
    assert_eq!(numbers(&run.stdout), expected);
    assert!(
        run.stderr.contains("<stdin>:2001: longer than"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("4,001 lines in, 4,001 out (1 null), 1 failed"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_streamed_line_over_the_limit_is_read_past_in_bounded_memory() {
    streamed_long_line("16MiB", 64 << 20, 160);
}

/// The case at full size: a 600 MB line under the default 512 MiB
/// limit, in memory bounded by the limit plus the batches.
#[test]
#[ignore = "streams 600 MB through partkit (a minute in a debug build); .ci/run runs it"]
fn a_600_mb_line_fails_alone_under_the_default_limit() {
    streamed_long_line("512MiB", 600_000_000, 512 + 200);
}

/// `view` draws a line over the limit as a section saying so, between the
/// lines around it.
#[test]
fn view_draws_a_line_over_the_limit_as_such() {
    let text = small_lines(0, 2) + &long_line(5000) + &small_lines(2, 1);
    let (dir, file) = temp_file("view.jsonl", text.as_bytes());
    let page = dir.path().join("page.html");
    let run = run(&[
        "view",
        "--max-document-size",
        "4kB",
        path_arg(&file),
        "-o",
        path_arg(&page),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let html = std::fs::read_to_string(&page).unwrap();
    let lines: Vec<&str> = html
        .match_indices("<section class=\"doc\" id=\"line-")
        .map(|(at, _)| &html[at + 30..at + 32])
        .collect();
    assert_eq!(lines, ["1\"", "2\"", "3\"", "4\""]);
    assert!(html.contains("too large to draw"), "{html}");
    assert!(html.contains(":3: longer than 4 kB"));
}

/// `resize` reads JSON Lines byte for byte with a reader of its own: a line
/// over the limit fails alone there too, and blank lines are counted (and
/// written back as they were, which keeps the lines aligned).
#[test]
fn resize_fails_a_line_over_the_limit_alone_and_counts_blank_lines() {
    let text = small_lines(0, 1000) + &long_line(5000) + "\n" + &small_lines(1000, 5);
    let (_dir, file) = temp_file("resize.jsonl", text.as_bytes());
    for (policy, code, out_lines) in [("skip", 1, 1006), ("null", 0, 1007), ("stop", 1, 1000)] {
        let run = run(&[
            "resize",
            "--max-dim",
            "8",
            "--max-document-size",
            "4kB",
            "--on-error",
            policy,
            path_arg(&file),
        ]);
        assert_eq!(run.code, code, "{policy}: {}", run.stderr);
        assert_eq!(run.stdout.lines().count(), out_lines, "{policy}");
        assert!(
            run.stderr
                .contains(&format!("{}:1001: longer than 4 kB", path_arg(&file))),
            "{}",
            run.stderr
        );
        if policy == "null" {
            let lines: Vec<&str> = run.stdout.lines().collect();
            assert_eq!(
                (lines[999], lines[1000], lines[1001]),
                ("{\"n\":999}", "null", "")
            );
            assert!(
                run.stderr
                    .contains("1,007 lines in (1 blank), 1,007 out (1 null), 1 failed"),
                "{}",
                run.stderr
            );
        }
    }
}
