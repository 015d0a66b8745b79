//! The documented maximum document size: an input without an end is a
//! one-line exit-2 error naming the file and line, in bounded memory; blank
//! lines are never buffered.

use super::{run_bounded, Feed};
use crate::{path_arg, temp_file};

/// Every command that reads documents, with the arguments it needs.
const READERS: [&[&str]; 5] = [
    &["validate"],
    &["split"],
    &["convert", "--to", "anthropic"],
    &["inspect"],
    &["resize", "--max-dim", "8"],
];

fn with(command: &[&str], rest: &[&str]) -> Vec<String> {
    command.iter().chain(rest).map(|s| s.to_string()).collect()
}

fn strs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

/// The one error line of a run that stopped at the limit.
fn assert_too_large(run: &crate::Run, place: &str, limit: &str, code: i32) {
    assert_eq!(run.code, code, "stderr: {}", run.stderr);
    let errors = run.error_lines();
    assert_eq!(errors.len(), 1, "stderr: {}", run.stderr);
    assert!(
        errors[0].contains(&format!("{place}: longer than {limit}"))
            && errors[0].contains("--max-document-size"),
        "{}",
        errors[0]
    );
}

#[test]
fn an_endless_file_or_stream_stops_at_the_limit() {
    for command in READERS {
        let args = with(command, &["/dev/zero", "--max-document-size", "8MiB"]);
        let (run, _) = run_bounded(&strs(&args), 200, Feed::Nothing);
        assert_too_large(&run, "/dev/zero:1", "8 MiB", 2);
        let args = with(command, &["-", "--max-document-size", "8MiB"]);
        let (run, _) = run_bounded(&strs(&args), 200, Feed::File("/dev/zero"));
        assert_too_large(&run, "<stdin>:1", "8 MiB", 2);
    }
}

/// The line named is the one that is too long, in JSON Lines and in a
/// document over several lines (named by the line it starts on).
#[test]
fn the_error_names_the_line() {
    let long = format!("{{\"text\":\"{}\"}}", "x".repeat(3 << 20));
    let jsonl = format!("{{}}\n\n{long}\n{{}}\n");
    let (_dir, file) = temp_file("long.jsonl", jsonl.as_bytes());
    let spread = format!("\n\n{{\n\"text\":\n\"{}\"}}\n", "x".repeat(3 << 20));
    let (_dir2, file2) = temp_file("spread.json", spread.as_bytes());
    for command in READERS {
        // A JSON Lines line fails alone: exit 1 under the default
        // `--on-error skip`, 2 for validate (a line it could not check).
        let args = with(command, &[path_arg(&file), "--max-document-size", "2MiB"]);
        let (run, _) = run_bounded(&strs(&args), 300, Feed::Nothing);
        let code = if command[0] == "validate" { 2 } else { 1 };
        assert_eq!(run.code, code, "{command:?}: {}", run.stderr);
        let too_large: Vec<&str> = run
            .stderr
            .lines()
            .filter(|l| l.contains("longer than"))
            .collect();
        assert_eq!(too_large.len(), 1, "{command:?}: {}", run.stderr);
        assert!(
            too_large[0].contains(&format!("{}:3: longer than 2 MiB", path_arg(&file))),
            "{}",
            too_large[0]
        );
        let args = with(command, &[path_arg(&file2), "--max-document-size", "2MiB"]);
        let (run, _) = run_bounded(&strs(&args), 300, Feed::Nothing);
        assert_too_large(&run, &format!("{}:3", path_arg(&file2)), "2 MiB", 2);
        // Raised, the same inputs are read.
        let args = with(command, &[path_arg(&file), "--max-document-size", "4MiB"]);
        let (run, _) = run_bounded(&strs(&args), 300, Feed::Nothing);
        assert!(
            !run.stderr.contains("longer than"),
            "{command:?}: {}",
            run.stderr
        );
    }
    // An image to resize counts too (it has no line).
    let png = crate::fixture("tiny.png");
    let (run, _) = run_bounded(
        &[
            "resize",
            "--max-dim",
            "8",
            path_arg(&png),
            "--max-document-size",
            "10",
        ],
        200,
        Feed::Nothing,
    );
    assert_too_large(&run, "tiny.png", "10 bytes", 2);
}

/// `validate --fix` reads its file whole: the limit holds there too.
#[test]
fn fix_stops_at_the_limit() {
    let (_dir, file) = temp_file("big.json", format!("[\"{}\"]", "y".repeat(5000)).as_bytes());
    let before = std::fs::read(&file).unwrap();
    let (run, _) = run_bounded(
        &[
            "validate",
            "--fix",
            path_arg(&file),
            "--max-document-size",
            "4kB",
        ],
        200,
        Feed::Nothing,
    );
    assert_too_large(&run, path_arg(&file), "4 kB", 2);
    assert_eq!(std::fs::read(&file).unwrap(), before, "nothing written");
}

/// A document every reader takes (plain text messages).
const DOC: &[u8] = b"{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}\n";

/// Megabyte blank lines between documents, read from a pipe (the line
/// reader) and from a file (the large-file scan refuses them early): far
/// more blank text than the memory allowed, passed through by `resize`
/// byte for byte, skipped by the others.
#[test]
fn blank_lines_are_never_buffered() {
    let blank = [vec![b' '; (1 << 20) - 1], b"\n".to_vec()].concat();
    let total: u64 = 100 << 20;
    for command in READERS {
        for (head, tail) in [(&b""[..], DOC), (DOC, DOC)] {
            let args = with(command, &["-"]);
            let (run, count) = run_bounded(
                &strs(&args),
                60,
                Feed::Repeat {
                    head,
                    pattern: &blank,
                    total,
                    tail,
                },
            );
            assert_eq!(run.code, 0, "{command:?}: {}", run.stderr);
            if command[0] == "resize" {
                let len = total + tail.len() as u64;
                assert_eq!(count, len, "passed through, {head:?} {tail:?}");
            }
        }
    }
}

/// The same from a file: the large-file paths must not hold its text.
#[test]
fn blank_lines_in_a_file_are_never_buffered() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("blank.jsonl");
    {
        use std::io::Write;
        let mut out = std::io::BufWriter::new(std::fs::File::create(&file).unwrap());
        let blank = [vec![b' '; (1 << 20) - 1], b"\n".to_vec()].concat();
        out.write_all(DOC).unwrap();
        for _ in 0..100 {
            out.write_all(&blank).unwrap();
        }
        out.write_all(DOC).unwrap();
    }
    let len = std::fs::metadata(&file).unwrap().len();
    for command in READERS {
        let args = with(command, &[path_arg(&file)]);
        let (run, count) = run_bounded(&strs(&args), 60, Feed::Nothing);
        assert_eq!(run.code, 0, "{command:?}: {}", run.stderr);
        if command[0] == "resize" {
            assert_eq!(count, len, "passed through");
        }
    }
}

/// The allocator takes address space as it uses it: with mimalloc's own
/// defaults (1 GiB reserved writable at start) too little of this cap was
/// left for a 96 MiB line, and the run aborted (docs/speed.md#the-allocator).
#[test]
fn the_allocator_leaves_the_cap_to_the_input() {
    let args = ["validate", "/dev/zero", "--max-document-size", "96MiB"];
    let (run, _) = run_bounded(&args, 1100, Feed::Nothing);
    assert_too_large(&run, "/dev/zero:1", "96 MiB", 2);
}

/// The default limit (512 MiB) on an endless input: long, so not in the
/// default run.
#[test]
#[ignore = "reads 512 MiB"]
fn the_default_limit_is_512_mib() {
    let (run, _) = run_bounded(&["validate", "/dev/zero"], 1300, Feed::Nothing);
    assert_too_large(&run, "/dev/zero:1", "512 MiB", 2);
}
