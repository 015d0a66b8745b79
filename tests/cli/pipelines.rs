//! Pipelines and large jobs: `--at` sub-documents, empty input, `--on-error`
//! (every input line accounted for), the line count on stderr, `-j/--threads`.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::{fixture_b64, is_summary, path_arg, run, run_with_stdin, temp_file, Run};

const CHAT: &str = r#"{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}]}"#;

/// A line holding a Chat request at `/request` between fields written in
/// spellings a re-serializer would change.
fn wrapped(request: &str) -> String {
    format!(r#"{{"id": 12345678901234567890, "request": {request}, "score":1.50, "tag":"\u00e9"}}"#)
}

/// The bytes before and after the value at `/request` of a [`wrapped`] line.
fn around(line: &str, value: &str) -> (String, String) {
    let start = line.find(value).expect("value in line");
    (
        line[..start].to_string(),
        line[start + value.len()..].to_string(),
    )
}

fn summary(run: &Run) -> Option<&str> {
    run.stderr.lines().find(|l| is_summary(l))
}

// ---------------------------------------------------------------------------
// --at

#[test]
fn convert_at_replaces_only_the_value_and_keeps_every_other_byte() {
    let line = wrapped(CHAT);
    let run = run_with_stdin(
        &["convert", "--to", "anthropic", "--at", "/request", "-q"],
        line.as_bytes(),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = run.stdout.strip_suffix('\n').unwrap();
    let (before, after) = around(&line, CHAT);
    assert!(out.starts_with(&before), "{out}");
    assert!(out.ends_with(&after), "{out}");
    let converted: Value =
        serde_json::from_str(&out[before.len()..out.len() - after.len()]).unwrap();
    assert_eq!(
        converted,
        json!({"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}]})
    );
}

#[test]
fn convert_at_several_pointers_converts_each_one() {
    let line = format!(r#"{{"a":{CHAT},"keep":[1.0,2E3],"b":{{"inner":{CHAT}}}}}"#);
    let run = run_with_stdin(
        &[
            "convert", "--to", "gemini", "--at", "/a", "--at", "/b/inner", "-q",
        ],
        line.as_bytes(),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let gemini = r#"{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}"#;
    assert_eq!(
        run.stdout,
        format!("{{\"a\":{gemini},\"keep\":[1.0,2E3],\"b\":{{\"inner\":{gemini}}}}}\n")
    );
}

#[test]
fn convert_at_bare_prints_the_converted_value_alone() {
    let run = run_with_stdin(
        &[
            "convert",
            "--to",
            "canonical",
            "--at",
            "/request",
            "--bare",
            "-q",
        ],
        wrapped(CHAT).as_bytes(),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.json()["messages"][0]["content"][0]["text"], "hi");
    let two = super::run(&[
        "convert",
        "--to",
        "canonical",
        "--at",
        "/a",
        "--at",
        "/b",
        "--bare",
    ]);
    assert_eq!(two.code, 2);
    assert!(
        two.stderr.contains("--bare prints one converted value"),
        "{}",
        two.stderr
    );
}

#[test]
fn a_missing_pointer_is_an_error_naming_it_unless_skipped() {
    let lines = format!("{}\n{}\n", wrapped(CHAT), r#"{"other":true}"#);
    let run = run_with_stdin(
        &["convert", "--to", "anthropic", "--at", "/request", "-q"],
        lines.as_bytes(),
    );
    assert_eq!(run.code, 1);
    assert_eq!(run.stdout.lines().count(), 1);
    assert_eq!(
        run.error_lines(),
        ["partkit: error: <stdin>:2: /request: no such value in this document (--at-missing skip passes it over)"]
    );
    let skip = run_with_stdin(
        &[
            "convert",
            "--to",
            "anthropic",
            "--at",
            "/request",
            "--at-missing",
            "skip",
            "-q",
        ],
        lines.as_bytes(),
    );
    assert_eq!(skip.code, 0, "{}", skip.stderr);
    assert_eq!(skip.stdout.lines().nth(1), Some(r#"{"other":true}"#));
}

#[test]
fn pointers_are_checked_before_anything_is_read() {
    for (pointer, message) in [
        ("request", "starts with '/'"),
        ("/a~2", "'~' must be followed by 0 or 1"),
    ] {
        for command in [
            vec!["convert", "--to", "anthropic"],
            vec!["validate"],
            vec!["inspect"],
            vec!["split"],
            vec!["resize"],
        ] {
            let mut args = command.clone();
            args.extend(["--at", pointer]);
            let run = run(&args);
            assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
            assert!(run.stderr.contains(message), "{args:?}: {}", run.stderr);
        }
    }
    let overlap = run(&["inspect", "--at", "/a", "--at", "/a/b"]);
    assert_eq!(overlap.code, 2);
    assert!(
        overlap.stderr.contains("--at /a and --at /a/b overlap"),
        "{}",
        overlap.stderr
    );
}

#[test]
fn validate_at_reports_full_pointers_and_at_missing() {
    let png = fixture_b64("tiny.png");
    let reply =
        json!({"tool_output_images": [{"image_url": format!("data:image/jpeg;base64,{png}")}]});
    let lines = format!(
        "{}\n{}\n",
        json!({"step": 1, "observation": reply}),
        json!({"step": 2})
    );
    let run = run_with_stdin(&["validate", "--at", "/observation"], lines.as_bytes());
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stdout,
        "<stdin>:1: error[media-type-mismatch] /observation/tool_output_images/0/image_url: content is image/png, not image/jpeg\n\
         <stdin>:2: error[at-missing] /observation: no such value in this document (--at-missing skip passes it over)\n"
    );
    let skip = run_with_stdin(
        &[
            "validate",
            "--at",
            "/observation",
            "--at-missing",
            "skip",
            "--ignore",
            "media-type-mismatch",
        ],
        lines.as_bytes(),
    );
    assert_eq!(
        (skip.code, skip.stdout.as_str()),
        (0, ""),
        "{}",
        skip.stderr
    );
    assert!(
        skip.stderr.contains("1 document skipped"),
        "{}",
        skip.stderr
    );
}

#[test]
fn validate_fix_at_repairs_inside_the_value_in_place() {
    let png = fixture_b64("tiny.png");
    let line = format!(
        r#"{{"n": 1.0, "obs": {{"tool_output_images": [{{"image_url": "data:image/jpeg;base64,{png}"}}]}}, "z": 1E5}}"#
    );
    let (_dir, file) = temp_file("steps.jsonl", format!("{line}\n").as_bytes());
    let run = run(&["validate", "--fix", "--at", "/obs", path_arg(&file)]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run
        .stdout
        .contains("fixed[media-type-mismatch] /obs/tool_output_images/0/image_url"));
    let fixed = std::fs::read_to_string(&file).unwrap();
    assert_eq!(
        fixed,
        format!("{}\n", line.replace("image/jpeg", "image/png"))
    );
}

#[test]
fn inspect_at_lists_only_the_media_inside_with_full_pointers() {
    let gif = fixture_b64("tiny.gif");
    let doc = json!({
        "prompt": {"type": "image", "mimeType": "image/gif", "data": gif},
        "reply": {"tool_output_images": [{"image_url": format!("data:image/gif;base64,{gif}"), "label": "g"}]},
    });
    let run = run_with_stdin(
        &["inspect", "--format", "json", "--at", "/reply"],
        doc.to_string().as_bytes(),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let pointers: Vec<Value> = run
        .json_lines()
        .iter()
        .map(|i| i["pointer"].clone())
        .collect();
    assert_eq!(pointers, [json!("/reply/tool_output_images/0")]);
}

#[test]
fn resize_at_resizes_only_inside_the_value() {
    let png = fixture_b64("tiny.png"); // 4x3
    let part = json!({"type": "image", "mimeType": "image/png", "data": png}).to_string();
    let line = format!(r#"{{"keep":{part},"fit":{part},"n":1.50}}"#);
    let run = run_with_stdin(
        &[
            "resize",
            "--max-dim",
            "2",
            "--at",
            "/fit",
            "--report",
            "json",
        ],
        format!("{line}\n").as_bytes(),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = run.stdout.strip_suffix('\n').unwrap();
    let keep_prefix = format!(r#"{{"keep":{part},"fit":"#);
    assert!(out.starts_with(&keep_prefix), "{out}");
    assert!(out.ends_with(r#","n":1.50}"#), "{out}");
    let value: Value = serde_json::from_str(out).unwrap();
    assert_ne!(value["fit"]["data"], value["keep"]["data"]);
    let reports: Vec<Value> = run
        .stderr
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(reports.len(), 1, "{}", run.stderr);
    assert_eq!(reports[0]["pointer"], "/fit");
    assert_eq!(reports[0]["status"], "resized");
}

#[test]
fn split_at_replaces_the_reply_with_its_parts() {
    let png = fixture_b64("tiny.png");
    let reply = json!({"result": "ok", "tool_output_images": [{"image_url": format!("data:image/png;base64,{png}"), "label": "shot"}]});
    let line = format!(r#"{{"call":"c1","reply":{reply},"t":2.50}}"#);
    let run = run_with_stdin(&["split", "--at", "/reply"], line.as_bytes());
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = run.stdout.trim_end();
    assert!(out.starts_with(r#"{"call":"c1","reply":["#), "{out}");
    assert!(out.ends_with(r#"],"t":2.50}"#), "{out}");
    let value: Value = serde_json::from_str(out).unwrap();
    assert_eq!(
        value["reply"][0],
        json!({"type": "text", "text": r#"{"result":"ok"}"#})
    );
    assert_eq!(value["reply"][1], json!({"type": "text", "text": "shot"}));
    assert_eq!(value["reply"][2]["mimeType"], "image/png");
}

// ---------------------------------------------------------------------------
// Empty input

#[test]
fn empty_input_is_zero_documents_for_every_command() {
    let commands: [&[&str]; 6] = [
        &["convert", "--to", "anthropic"],
        &["split"],
        &["inspect"],
        &["inspect", "--format", "json"],
        &["resize"],
        &["validate"],
    ];
    for args in commands {
        for input in ["", "\n", "  \n\n\t\n"] {
            let run = run_with_stdin(args, input.as_bytes());
            assert_eq!(run.code, 0, "{args:?} {input:?}: {}", run.stderr);
            assert_eq!(run.stdout, "", "{args:?} {input:?}");
            if args[0] != "validate" {
                assert_eq!(run.stderr, "", "{args:?} {input:?}");
            }
        }
    }
}

#[test]
fn an_empty_file_is_zero_documents_except_an_empty_json_fixture_for_validate() {
    let (_dir, file) = temp_file("empty.jsonl", b"");
    for args in [
        vec!["convert", "--to", "openai-chat"],
        vec!["split"],
        vec!["resize"],
    ] {
        let mut args = args;
        args.push(path_arg(&file));
        let run = run(&args);
        assert_eq!(
            (run.code, run.stdout.as_str()),
            (0, ""),
            "{args:?}: {}",
            run.stderr
        );
    }
    // An empty or blank `.json` fixture is a mistake, with `--fix` too (which
    // has nothing to repair and must not hide it).
    for text in [&b""[..], b"  \n\t\n"] {
        let (_dir, json) = temp_file("fixture.json", text);
        for extra in [&[][..], &["--fix"]] {
            let mut args = vec!["validate"];
            args.extend_from_slice(extra);
            args.push(path_arg(&json));
            let run = run(&args);
            assert_eq!(run.code, 1, "{args:?}: {}", run.stderr);
            assert!(
                run.stdout.contains("error[invalid-json]"),
                "{args:?}: {}",
                run.stdout
            );
            assert_eq!(std::fs::read(&json).unwrap(), text, "{args:?}: untouched");
        }
    }
    // encode of an empty stdin part stays an error.
    let encode = run_with_stdin(&["encode", "-"], b"");
    assert_eq!(encode.code, 1, "{}", encode.stderr);
}

// ---------------------------------------------------------------------------
// --on-error

/// Four lines, the third not JSON.
fn four_lines() -> String {
    format!("{CHAT}\n{CHAT}\n{{\"broken\":\n{CHAT}\n")
}

fn convert_with(policy: Option<&str>) -> Run {
    let mut args = vec!["convert", "--to", "anthropic", "-q"];
    if let Some(policy) = policy {
        args.extend(["--on-error", policy]);
    }
    run_with_stdin(&args, four_lines().as_bytes())
}

#[test]
fn on_error_skip_is_the_default_leaves_the_line_out_and_exits_1() {
    for run in [convert_with(None), convert_with(Some("skip"))] {
        assert_eq!(run.code, 1);
        assert_eq!(run.stdout.lines().count(), 3);
        assert_eq!(run.error_lines().len(), 1);
        assert!(run.error_lines()[0].starts_with("partkit: error: <stdin>:3: invalid JSON: "));
    }
}

#[test]
fn on_error_null_keeps_output_line_n_as_input_line_n() {
    let run = convert_with(Some("null"));
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[2], "null");
    assert!(lines
        .iter()
        .enumerate()
        .all(|(i, l)| (i == 2) == (*l == "null")));
    assert_eq!(run.error_lines().len(), 1, "the failure is still reported");
}

#[test]
fn on_error_stop_prints_nothing_after_the_bad_line() {
    let run = convert_with(Some("stop"));
    assert_eq!(run.code, 1);
    assert_eq!(run.stdout.lines().count(), 2);
    assert_eq!(run.error_lines().len(), 1);
}

#[test]
fn the_count_of_lines_ends_a_json_lines_run_and_quiet_silences_it() {
    let null = run_with_stdin(
        &["convert", "--to", "anthropic", "--on-error", "null"],
        four_lines().as_bytes(),
    );
    assert_eq!(
        summary(&null),
        Some("partkit: <stdin>: 4 lines in, 4 out (1 null), 1 failed")
    );
    let stop = run_with_stdin(
        &["convert", "--to", "anthropic", "--on-error", "stop"],
        four_lines().as_bytes(),
    );
    assert_eq!(
        summary(&stop),
        Some("partkit: <stdin>: 3 lines in, 2 out, 1 failed (stopped at the first failure: --on-error stop)")
    );
    let quiet = convert_with(Some("null"));
    assert_eq!(summary(&quiet), None);
    // One document is no JSON Lines run: no count.
    let one = run_with_stdin(&["convert", "--to", "anthropic"], CHAT.as_bytes());
    assert_eq!(summary(&one), None, "{}", one.stderr);
}

#[test]
fn on_error_null_stands_in_for_a_single_document_too() {
    // A partition of one line reads as one document; it still gets its null.
    let run = run_with_stdin(
        &["convert", "--to", "anthropic", "--on-error", "null"],
        b"{\"broken\":\n",
    );
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (0, "null\n"),
        "{}",
        run.stderr
    );
}

#[test]
fn split_and_resize_follow_on_error_too() {
    let png = fixture_b64("tiny.png");
    let reply =
        json!({"tool_output_images": [{"image_url": format!("data:image/png;base64,{png}")}]});
    let input = format!("{reply}\n[oops\n{reply}\n");
    let split = run_with_stdin(&["split", "--rest", "--on-error", "null"], input.as_bytes());
    assert_eq!(
        (split.code, split.stdout.as_str()),
        (0, "{}\nnull\n{}\n"),
        "{}",
        split.stderr
    );
    let resize = run_with_stdin(&["resize", "--on-error", "null"], input.as_bytes());
    assert_eq!(resize.code, 0, "{}", resize.stderr);
    assert_eq!(resize.stdout, format!("{reply}\nnull\n{reply}\n"));
    assert_eq!(
        summary(&resize),
        Some("partkit: <stdin>: 3 lines in, 3 out (1 null), 1 failed")
    );
    let stop = run_with_stdin(&["resize", "--on-error", "stop"], input.as_bytes());
    assert_eq!(
        (stop.code, stop.stdout.as_str()),
        (1, format!("{reply}\n").as_str())
    );
}

#[test]
fn resize_in_place_refuses_null_stand_ins() {
    let (_dir, file) = temp_file("steps.jsonl", b"{}\n");
    let run = run(&[
        "resize",
        "--in-place",
        "--on-error",
        "null",
        path_arg(&file),
    ]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("would write null over lines of the input"),
        "{}",
        run.stderr
    );
}

#[test]
fn inspect_takes_skip_and_stop_but_not_null() {
    let gif = fixture_b64("tiny.gif");
    let part = json!({"type": "image", "mimeType": "image/gif", "data": gif});
    let input = format!("{part}\n[oops\n{part}\n");
    let skip = run_with_stdin(&["inspect", "--format", "json"], input.as_bytes());
    assert_eq!((skip.code, skip.json_lines().len()), (1, 2));
    assert_eq!(
        summary(&skip),
        Some("partkit: <stdin>: 3 lines in, 2 media items listed, 1 failed")
    );
    let stop = run_with_stdin(
        &["inspect", "--format", "json", "--on-error", "stop"],
        input.as_bytes(),
    );
    assert_eq!((stop.code, stop.json_lines().len()), (1, 1));
    let null = run_with_stdin(&["inspect", "--on-error", "null"], input.as_bytes());
    assert_eq!(null.code, 2);
    assert!(
        null.stderr.contains("--on-error takes skip or stop here"),
        "{}",
        null.stderr
    );
}

// ---------------------------------------------------------------------------
// -j/--threads

/// The number of threads of a `partkit convert` that waits on stdin, once its
/// worker pool is up.
fn threads_of(args: &[&str], env: Option<(&str, &str)>, expected: usize) -> usize {
    let mut command = Command::new(assert_cmd::cargo::cargo_bin("partkit"));
    command
        .args(args)
        .env_remove("RAYON_NUM_THREADS")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    if let Some((key, value)) = env {
        command.env(key, value);
    }
    let mut child = command.spawn().expect("partkit starts");
    let tasks = format!("/proc/{}/task", child.id());
    let count = || std::fs::read_dir(&tasks).map(|d| d.count()).unwrap_or(0);
    // Wait for the pool to be up (the count to reach what is expected), then
    // give any further thread a moment to show.
    let deadline = Instant::now() + Duration::from_secs(10);
    while count() < expected && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    let seen = count();
    let mut stdin = child.stdin.take().unwrap();
    let _ = stdin.write_all(b"");
    drop(stdin);
    let status = child.wait().unwrap();
    assert!(status.success());
    seen
}

#[test]
fn threads_flag_and_rayon_num_threads_size_the_worker_pool() {
    let convert = ["convert", "--to", "canonical"];
    // The main thread plus the workers.
    assert_eq!(
        threads_of(&[&convert[..], &["-j", "3"]].concat(), None, 4),
        4
    );
    assert_eq!(threads_of(&convert, Some(("RAYON_NUM_THREADS", "5")), 6), 6);
    assert_eq!(
        threads_of(
            &[&convert[..], &["--threads", "1"]].concat(),
            Some(("RAYON_NUM_THREADS", "5")),
            2
        ),
        2,
        "the flag wins over the variable"
    );
}

#[test]
fn threads_do_not_change_the_output() {
    let png = fixture_b64("tiny.png");
    let input: String = (0..300)
        .map(|i| {
            let content = if i % 7 == 3 {
                "not json".to_string()
            } else {
                json!({"model": "m", "messages": [{"role": "user", "content": [
                    {"type": "text", "text": format!("line {i}")},
                    {"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{png}")}}
                ]}]})
                .to_string()
            };
            format!("{content}\n")
        })
        .collect();
    let one = run_with_stdin(
        &[
            "convert",
            "--to",
            "anthropic",
            "-j",
            "1",
            "--on-error",
            "null",
            "-q",
        ],
        input.as_bytes(),
    );
    let two = run_with_stdin(
        &[
            "convert",
            "--to",
            "anthropic",
            "-j",
            "2",
            "--on-error",
            "null",
            "-q",
        ],
        input.as_bytes(),
    );
    assert_eq!(one.code, 0, "{}", one.stderr);
    assert_eq!(one.stdout.lines().count(), 300);
    assert_eq!(one.stdout, two.stdout);
    let zero = run(&["convert", "--to", "anthropic", "-j", "0"]);
    assert_eq!(zero.code, 2);
}

#[test]
fn help_documents_the_pipeline_options() {
    for command in ["convert", "split", "inspect", "resize", "validate"] {
        let help = run(&[command, "--help"]);
        assert!(help.stdout.contains("-j, --threads <N>"), "{command}");
        assert!(help.stdout.contains("RAYON_NUM_THREADS"), "{command}");
        assert!(help.stdout.contains("--at <POINTER>"), "{command}");
    }
}

#[test]
fn encode_jsonl_accounts_for_every_source() {
    let png = super::fixture("tiny.png").display().to_string();
    let gif = super::fixture("tiny.gif").display().to_string();
    let run_args = |policy: &str| {
        run(&[
            "encode",
            "--jsonl",
            "--on-error",
            policy,
            &png,
            "missing.png",
            &gif,
        ])
    };
    let null = run_args("null");
    assert_eq!(null.code, 0, "{}", null.stderr);
    let lines: Vec<&str> = null.stdout.lines().collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[1], "null");
    assert!(lines[2].contains("image/gif"));
    assert!(null.stderr.contains("missing.png"), "{}", null.stderr);
    let skip = run_args("skip");
    assert_eq!(
        (skip.code, skip.stdout.lines().count()),
        (2, 2),
        "an unreadable file is exit 2"
    );
    let stop = run_args("stop");
    assert_eq!((stop.code, stop.stdout.lines().count()), (2, 1));
    // Without --on-error one failure fails the run and nothing is printed.
    let all = run(&["encode", "--jsonl", &png, "missing.png"]);
    assert_eq!((all.code, all.stdout.as_str()), (2, ""));
    // --on-error needs --jsonl: a JSON array has no line to hold a null.
    assert_eq!(run(&["encode", "--on-error", "null", &png]).code, 2);
}

// ---------------------------------------------------------------------------
// Long JSON Lines (docs/large-documents.md): lines longer than the read buffer (1 MiB), CRLF,
// a blank line, a bad payload byte at a read-buffer boundary, and a last line
// without a line break.

/// The read buffer of `partkit`'s line reader.
const READ_BUFFER: usize = 1 << 20;

fn png_payload(len: usize) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(super::support::media::png_of_len(len))
}

fn long_reply(id: &str, payload: &str) -> String {
    json!({
        "id": id,
        "text": "say \"hi\"\n\tété 🚀",
        "tool_output_images": [{"image_url": format!("data:image/png;base64,{payload}")}],
    })
    .to_string()
}

/// The lines of the file, and the payload offset of the bad byte in line 3.
fn long_lines() -> (Vec<u8>, Vec<String>, usize) {
    let first = long_reply("r1", &png_payload(1_600_000));
    let mut bad = png_payload(1_600_000);
    let line3 = long_reply("r3", &bad);
    let line3_start = first.len() + 2 + 1;
    let payload_in_line = line3.find("base64,").unwrap() + "base64,".len();
    let at = 3 * READ_BUFFER - line3_start - payload_in_line;
    bad.replace_range(at..at + 1, "!");
    let line3 = long_reply("r3", &bad);
    assert_eq!(line3_start + payload_in_line + at, 3 * READ_BUFFER);
    let last = long_reply("r4", &png_payload(100));
    let text = format!("{first}\r\n\n{line3}\n{last}");
    (text.into_bytes(), vec![first, line3, last], at)
}

#[test]
fn validate_reads_long_lines_across_the_read_buffer() {
    let (text, _, at) = long_lines();
    let (_dir, path) = temp_file("long.jsonl", &text);
    let run = run(&["validate", path_arg(&path)]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        format!(
            "{}:3: error[base64-invalid] /tool_output_images/0/image_url: invalid base64: character '!' at offset {at}\n",
            path.display()
        )
    );
    assert!(
        run.stderr.contains("checked 3 documents, 3 images"),
        "{}",
        run.stderr
    );
}

#[test]
fn split_reads_long_lines_across_the_read_buffer() {
    let (text, lines, _) = long_lines();
    let (_dir, path) = temp_file("long.jsonl", &text);
    let run = run(&["split", path_arg(&path)]);
    assert_ne!(run.code, 0, "{}", run.stderr);
    let expected = |line: &str| {
        let reply: Value = serde_json::from_str(line).unwrap();
        let url = reply["tool_output_images"][0]["image_url"]
            .as_str()
            .unwrap();
        let mut rest = reply.clone();
        rest.as_object_mut()
            .unwrap()
            .shift_remove("tool_output_images");
        json!([
            {"type": "text", "text": rest.to_string()},
            {"type": "image", "mimeType": "image/png", "data": url.strip_prefix("data:image/png;base64,").unwrap()},
        ])
        .to_string()
    };
    assert_eq!(
        run.stdout,
        format!("{}\n{}\n", expected(&lines[0]), expected(&lines[2]))
    );
    assert_eq!(run.error_lines().len(), 1, "{}", run.stderr);
    assert!(run.error_lines()[0].contains(":3:"), "{}", run.stderr);
}

/// Lines read straight into batches (a batch holds 3 MiB): lines numbered
/// across batch boundaries, blank and `\r\n` lines among them, the output in
/// input order with any number of threads.
#[test]
fn json_lines_across_many_batches_keep_their_numbers_and_order() {
    let payload = png_payload(150_000);
    let mut text = String::new();
    let mut expected_ids = Vec::new();
    let mut line = 0;
    for i in 0..60 {
        line += 1;
        if i == 41 {
            // Broken: its line number must be reported.
            text.push_str("{\"id\": \"bad\", \"tool_output_images\": [\n");
            // The line break below makes a blank line after it: a second
            // `null`.
            expected_ids.push(None);
            expected_ids.push(None);
        } else {
            text.push_str(&long_reply(&format!("r{i}"), &payload));
            expected_ids.push(Some(format!("r{i}")));
        }
        text.push_str(if i % 5 == 0 { "\r\n" } else { "\n" });
        if i % 7 == 0 {
            // A blank line: its own `null` under --on-error null.
            text.push_str("  \n");
            expected_ids.push(None);
            line += 1;
        }
        if i == 41 {
            assert_eq!(line, 48);
        }
    }
    assert!(text.len() > 7 << 20, "several batches: {}", text.len());
    let (_dir, path) = temp_file("many.jsonl", text.as_bytes());
    let validate = run(&["validate", path_arg(&path)]);
    assert_eq!(validate.code, 1, "{}", validate.stderr);
    assert!(
        validate
            .stdout
            .starts_with(&format!("{}:48: error[invalid-json]", path.display())),
        "{}",
        validate.stdout
    );
    assert_eq!(validate.stdout.lines().count(), 1, "{}", validate.stdout);
    for threads in ["1", "2"] {
        let split = run(&[
            "split",
            "--rest",
            "--on-error",
            "null",
            "-j",
            threads,
            path_arg(&path),
        ]);
        let ids: Vec<Option<String>> = split
            .stdout
            .lines()
            .map(|line| {
                let rest: Value = serde_json::from_str(line).unwrap();
                rest["id"].as_str().map(str::to_string)
            })
            .collect();
        assert_eq!(ids, expected_ids, "-j {threads}: {}", split.stderr);
    }
}
