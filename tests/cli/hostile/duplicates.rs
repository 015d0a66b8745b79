//! One document, one reading: a key written twice means its last value to
//! every command (as serde_json, Python and JavaScript read it), and
//! `validate` says so.

use crate::{fixture_b64, path_arg, run, temp_file};

/// A reply whose images are written twice: broken, then null, or the reverse.
fn replies() -> [(&'static str, String); 2] {
    let bad = r#"[{"image_url":"data:image/png;base64,AAAA"}]"#;
    [
        (
            "null last",
            format!(r#"{{"tool_output_images":{bad},"tool_output_images":null}}"#),
        ),
        (
            "broken last",
            format!(r#"{{"tool_output_images":null,"tool_output_images":{bad}}}"#),
        ),
    ]
}

#[test]
fn every_command_reads_the_last_key() {
    for (what, reply) in replies() {
        let broken_last = what == "broken last";
        let (_dir, file) = temp_file("reply.json", reply.as_bytes());
        let file = path_arg(&file);
        let validate = run(&["validate", file]);
        let split = run(&["split", file]);
        let convert = run(&["convert", "--to", "anthropic", "--call-id", "c", file]);
        let inspect = run(&["inspect", file]);
        let expected = if broken_last { 1 } else { 0 };
        assert_eq!(validate.code, expected, "{what}: {}", validate.stdout);
        assert_eq!(split.code, expected, "{what}: {}", split.stderr);
        assert_eq!(convert.code, expected, "{what}: {}", convert.stderr);
        // inspect lists the images the document has: one, or none.
        assert_eq!(
            inspect.stdout.contains("/tool_output_images/0"),
            broken_last,
            "{what}: {}",
            inspect.stdout
        );
        assert!(
            validate.stdout.contains(
                "warning[duplicate-key] /tool_output_images: key \"tool_output_images\" is written 2 times"
            ),
            "{what}: {}",
            validate.stdout
        );
    }
}

/// Nested, repeated three times, in a large file (read through the
/// large-file path) and in JSON Lines: each found with its pointer.
#[test]
fn duplicate_keys_are_found_everywhere() {
    let png = fixture_b64("tiny.png");
    let padding = "p".repeat(1 << 20);
    let doc = format!(
        r#"{{"messages":[{{"role":"user","content":[{{"type":"text","text":"a","text":"b","text":"{padding}"}},{{"type":"image_url","image_url":{{"url":"data:image/png;base64,{png}"}}}}]}}]}}"#
    );
    let (_dir, file) = temp_file("large.json", doc.as_bytes());
    let validate = run(&["validate", "--format", "json", path_arg(&file)]);
    assert_eq!(validate.code, 0, "{}", validate.stdout);
    let findings = validate.json_lines();
    assert_eq!(findings.len(), 1, "{}", validate.stdout);
    assert_eq!(findings[0]["rule"], "duplicate-key");
    assert_eq!(findings[0]["pointer"], "/messages/0/content/0/text");
    assert!(findings[0]["message"].as_str().unwrap().contains("3 times"));

    let lines = "{\"a\":1}\n{\"tool_output_images\":[],\"x\":1,\"x\":2}\n";
    let (_dir, file) = temp_file("lines.jsonl", lines.as_bytes());
    let validate = run(&["validate", path_arg(&file), "--kind", "reply"]);
    assert!(
        validate.stdout.contains(":2: warning[duplicate-key] /x:"),
        "{}",
        validate.stdout
    );
    assert!(!validate.stdout.contains(":1:"), "{}", validate.stdout);
}
