//! `validate --format github` (workflow commands CI turns into annotations)
//! and `--exit-zero` (issue 15).

use super::support::run;

/// Two files in one folder: an error and a warning in `a.json`, a warning
/// whose key (in the pointer and the message) and file name hold every
/// character the workflow-command syntax reserves.
fn two_files() -> (tempfile::TempDir, String, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    let a = dir.path().join("a.json");
    std::fs::write(
        &a,
        r#"{"tool_output_images": [{"image_url": "data:image/png;base64,AAAA"}], "note": 1, "note": 2}"#,
    )
    .unwrap();
    let odd = dir.path().join("odd,name:100%.json");
    std::fs::write(
        &odd,
        r#"{"tool_output_images": [], "100%, sure: \nyes": 1, "100%, sure: \nyes": 2}"#,
    )
    .unwrap();
    let a = a.to_str().unwrap().to_string();
    let odd = odd.to_str().unwrap().to_string();
    (dir, a, odd)
}

const REPEATED: &str =
    "is written 2 times in this object; every reader takes the last value and ignores the others";

#[test]
fn github_format_is_one_escaped_workflow_command_per_finding() {
    let (dir, a, odd) = two_files();
    let run = run(&["validate", "--format", "github", &a, &odd]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let odd_escaped = format!("{}/odd%2Cname%3A100%25.json", dir.path().to_str().unwrap());
    assert_eq!(
        run.stdout,
        format!(
            "::error file={a},line=1,title=media-type-mismatch::/tool_output_images/0/image_url: content is not image/png (no known type matches its first bytes)\n\
             ::warning file={a},line=1,title=duplicate-key::/note: key \"note\" {REPEATED}\n\
             ::warning file={odd_escaped},line=1,title=duplicate-key::/100%25, sure: \\nyes: key \"100%25, sure: \\nyes\" {REPEATED}\n"
        )
    );
    // The summary stays on stderr, as in every format.
    assert!(run.stderr.contains("1 error, 2 warnings"), "{}", run.stderr);
    // A line a runner reads as one command: no raw line break inside.
    assert_eq!(run.stdout.lines().count(), 3);
}

#[test]
fn exit_zero_reports_and_succeeds_but_not_for_an_unreadable_input() {
    let (_dir, a, odd) = two_files();
    let failing = run(&["validate", &a, &odd]);
    assert_eq!(failing.code, 1);
    let reported = run(&["validate", "--exit-zero", &a, &odd]);
    assert_eq!((reported.code, &reported.stdout), (0, &failing.stdout));
    assert!(reported.stderr.contains("1 error, 2 warnings"));
    let warned = run(&["validate", "--exit-zero", "--format", "github", &odd]);
    assert_eq!(warned.code, 0);
    assert!(warned.stdout.starts_with("::warning "), "{}", warned.stdout);
    // A run that could not happen is not a finding: still exit 2.
    let missing = run(&[
        "validate",
        "--exit-zero",
        "/nonexistent/partkit-input.json",
        &a,
    ]);
    assert_eq!(missing.code, 2, "{}", missing.stderr);
    // --exit-zero and --deny-warnings ask opposite things.
    let both = run(&["validate", "--exit-zero", "--deny-warnings", &a]);
    assert_eq!(both.code, 2, "{}", both.stderr);
}
