//! A JSON Lines file of 1 MiB or more is read through its map, in spans
//! that the workers cut into lines themselves (docs/large-documents.md#mapping);
//! standard input is read as before. Every command must say exactly the same
//! of the same bytes either way: each case here runs on the file and on the
//! same bytes piped in, on one worker and on two.

use super::{fixture_b64, run_with_stdin, temp_file, Run};

/// A Chat request whose user message carries `text` and, when given, a
/// PNG data URL with `payload` as its base64.
fn chat(text: &str, payload: Option<&str>) -> String {
    let image = payload.map_or(String::new(), |b64| {
        format!(r#",{{"type":"image_url","image_url":{{"url":"data:image/png;base64,{b64}"}}}}"#)
    });
    format!(
        r#"{{"model":"gpt-4o","messages":[{{"role":"user","content":[{{"type":"text","text":"{text}"}}{image}]}}],"n":1.50}}"#
    )
}

/// Over 1 MiB of lines of every kind: blank ones first and between, white
/// space only, CRLF, one not JSON, one with broken base64, one of 300 KB
/// (over a 200 KB document limit), and no line break at the end.
fn mixed_lines() -> Vec<u8> {
    let png = fixture_b64("tiny.png");
    let big = "w".repeat(300_000);
    let mut out = String::from("\n\n");
    for i in 0..3_000 {
        let line = match i % 500 {
            7 => "   ".to_string(),
            8 => String::new(),
            9 => r#"{"model":"#.to_string(),
            10 => chat("broken", Some("iVBOR*w0KGgo=")),
            11 => chat(&big, None),
            12 => format!("{}\r", chat("crlf", Some(&png))),
            _ => chat(&format!("line {i}"), (i % 3 == 0).then_some(png.as_str())),
        };
        out.push_str(&line);
        out.push('\n');
    }
    out.push_str(&chat("last", Some(&png)));
    out.into_bytes()
}

/// Wall times in summaries differ from run to run.
fn steady(text: &str) -> String {
    text.lines()
        .map(|line| match line.find(" in ") {
            Some(at) if line.contains(" documents, ") => {
                let rest = &line[at + 4..];
                let after = rest.find(" s").map_or("", |s| &rest[s + 2..]);
                format!("{} in _ s{after}", &line[..at])
            }
            _ => line.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `args` with the file's path, and with `-` and its bytes piped in, on
/// one worker and on two: the same exit code, stdout and stderr (file names
/// aside). Returns the run on the file with two workers.
fn same_mapped_and_piped(name: &str, bytes: &[u8], args: &[&str]) -> Run {
    assert!(bytes.len() >= 1 << 20, "large enough to be mapped");
    let (_dir, path) = temp_file(name, bytes);
    let path = path.to_str().unwrap().to_string();
    let mut last = None;
    for threads in ["1", "2"] {
        let with = |input: &str| {
            let mut all = args.to_vec();
            all.extend_from_slice(&["-j", threads, input]);
            all.iter().map(|s| s.to_string()).collect::<Vec<_>>()
        };
        let file_args = with(&path);
        let file_args: Vec<&str> = file_args.iter().map(String::as_str).collect();
        let mapped = run_with_stdin(&file_args, b"");
        let pipe_args = with("-");
        let pipe_args: Vec<&str> = pipe_args.iter().map(String::as_str).collect();
        let piped = run_with_stdin(&pipe_args, bytes);
        assert_eq!(
            mapped.code, piped.code,
            "{args:?} -j {threads}: {}",
            mapped.stderr
        );
        assert_eq!(
            mapped.stdout.replace(&path, "<stdin>"),
            piped.stdout,
            "{args:?} -j {threads}"
        );
        assert_eq!(
            steady(&mapped.stderr.replace(&path, "<stdin>")),
            steady(&piped.stderr),
            "{args:?} -j {threads}"
        );
        last = Some(mapped);
    }
    last.unwrap()
}

#[test]
fn validate_says_the_same_of_a_mapped_file() {
    let bytes = mixed_lines();
    let run = same_mapped_and_piped("lines.jsonl", &bytes, &["validate"]);
    assert_eq!(run.code, 1);
    // Line 12 (the first "not JSON") and line 13 (broken base64) of every 500.
    assert!(
        run.stdout.contains(":12: error[invalid-json]"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains(":2513: error[base64-invalid]"),
        "{}",
        run.stdout
    );
    let limited = same_mapped_and_piped(
        "lines.jsonl",
        &bytes,
        &["validate", "--max-document-size", "200000"],
    );
    let said = format!("{}{}", limited.stdout, limited.stderr);
    assert!(said.contains(":2514: longer than 200 kB"), "{said}");
}

#[test]
fn convert_writes_the_same_lines_from_a_mapped_file() {
    let bytes = mixed_lines();
    for policy in ["null", "skip", "stop"] {
        let run = same_mapped_and_piped(
            "lines.jsonl",
            &bytes,
            &["convert", "--to", "anthropic", "--on-error", policy],
        );
        let lines = run.stdout.lines().count();
        match policy {
            // Line for line: 3,003 lines in, the blank ones too.
            "null" => assert_eq!(lines, 3_003, "{}", run.stderr),
            // The two blank lines first, then nothing after line 12.
            "stop" => assert!(lines < 12, "{lines}"),
            _ => assert!(lines > 2_900, "{lines}"),
        }
    }
    let forced = same_mapped_and_piped(
        "lines.jsonl",
        &bytes,
        &[
            "convert",
            "--jsonl",
            "--to",
            "anthropic",
            "--on-error",
            "null",
            "--max-document-size",
            "200000",
        ],
    );
    assert!(forced.stderr.contains(":14:"), "{}", forced.stderr);
}

#[test]
fn split_and_inspect_say_the_same_of_a_mapped_file() {
    let bytes = mixed_lines();
    let rest = same_mapped_and_piped(
        "lines.jsonl",
        &bytes,
        &["split", "--rest", "--on-error", "null"],
    );
    assert_eq!(rest.stdout.lines().count(), 3_003);
    same_mapped_and_piped("lines.jsonl", &bytes, &["inspect"]);
}

#[test]
fn a_large_single_document_reads_the_same_mapped() {
    // One pretty-printed document over several lines: read whole, not in lines.
    let png = fixture_b64("tiny.png");
    let text = "x".repeat(1 << 20);
    let document = format!(
        "\n{{\n  \"model\": \"gpt-4o\",\n  \"messages\": [\n    {}\n  ]\n}}\n",
        chat(&text, Some(&png))
            .split_once("\"messages\":[")
            .unwrap()
            .1
            .trim_end_matches("],\"n\":1.50}")
    );
    let run = same_mapped_and_piped(
        "one.json",
        document.as_bytes(),
        &["convert", "--to", "anthropic"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("\"media_type\":\"image/png\""),
        "{}",
        &run.stdout[..200]
    );
}
