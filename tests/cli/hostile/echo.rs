//! Values from the input echoed in messages are cut to a short, escaped
//! prefix: a megabyte media type, key, role, id or argument never comes back
//! as a megabyte line.

use crate::{fixture_b64, run_with_stdin};

/// The longest line any message may be (the messages' own words, a few
/// cut values and a location).
const LONGEST: usize = 2_200;

/// A value far longer than any message, with characters that must be escaped.
fn huge() -> String {
    format!(
        "{}\u{1}\u{202e}{}",
        "x".repeat(1 << 20),
        "y".repeat(1 << 10)
    )
}

/// Documents each holding a huge value where a message quotes it.
fn documents() -> Vec<(&'static str, String)> {
    let png = fixture_b64("tiny.png");
    let huge = huge();
    let quoted = serde_json::to_string(&huge).unwrap();
    vec![
        (
            "a media type in a reply's data URL",
            format!(
                r#"{{"tool_output_images":[{{"image_url":"data:image/{huge};base64,{png}"}}]}}"#
            ),
        ),
        (
            "a key in a reply's image entry",
            format!(
                r#"{{"tool_output_images":[{{"image_url":"data:image/png;base64,{png}",{quoted}:1}}]}}"#
            ),
        ),
        (
            "a media type in a chat image part",
            format!(
                r#"{{"messages":[{{"role":"user","content":[{{"type":"image_url","image_url":{{"url":"data:image/{huge};base64,{png}"}}}}]}}]}}"#
            ),
        ),
        (
            "a role",
            format!(r#"{{"messages":[{{"role":{quoted},"content":"hi"}}]}}"#),
        ),
        (
            "a Gemini role",
            format!(r#"{{"contents":[{{"role":{quoted},"parts":[{{"text":"hi"}}]}}]}}"#),
        ),
        (
            "an Anthropic media type",
            format!(
                r#"{{"model":"m","max_tokens":5,"messages":[{{"role":"user","content":[{{"type":"image","source":{{"type":"base64","media_type":{quoted},"data":"{png}"}}}}]}}]}}"#
            ),
        ),
        (
            "a canonical part type",
            format!(r#"[{{"type":{quoted},"text":"hi"}}]"#),
        ),
        (
            "a tool call id and argument that break the schema",
            format!(
                r#"{{"modelId":"m","toolConfig":{{"tools":[{{"toolSpec":{{"name":"f","inputSchema":{{"json":{{"type":"object","properties":{{"q":{{"type":"string","maxLength":3}}}}}}}}}}}}]}},"messages":[{{"role":"user","content":[{{"text":"go"}}]}},{{"role":"assistant","content":[{{"toolUse":{{"toolUseId":{quoted},"name":"f","input":{{"q":{quoted}}}}}}}]}}]}}"#
            ),
        ),
    ]
}

/// Every command and output format that prints messages about a document.
const COMMANDS: [&[&str]; 8] = [
    &["split", "-"],
    &["validate", "-"],
    &["validate", "--deep", "--format", "json", "-"],
    &["validate", "--target", "gemini", "-"],
    &["convert", "--to", "gemini", "-"],
    &["convert", "--to", "anthropic", "-"],
    &["inspect", "-"],
    &["inspect", "--format", "json", "-"],
];

/// A JSON line with its `pointer` left out.
fn cut_pointer(line: &str) -> String {
    match serde_json::from_str::<serde_json::Value>(line) {
        Ok(serde_json::Value::Object(mut map)) => {
            map.remove("pointer");
            serde_json::Value::Object(map).to_string()
        }
        _ => line.to_string(),
    }
}

#[test]
fn echoed_values_are_cut_to_a_short_prefix() {
    let mut checked = 0;
    for (what, doc) in documents() {
        for command in COMMANDS {
            let run = run_with_stdin(command, doc.as_bytes());
            let writes_documents = matches!(command[0], "split" | "convert");
            let mut lines: Vec<&str> = run.stderr.lines().collect();
            if !writes_documents {
                lines.extend(run.stdout.lines());
            }
            for line in lines {
                // `--format json` gives a location whole, for a program to
                // follow: every other field is bounded.
                let line = &cut_pointer(line);
                assert!(
                    line.len() <= LONGEST,
                    "{what}, {command:?}: a line of {} bytes: {}…",
                    line.len(),
                    &line[..200]
                );
                assert!(
                    !line.contains('\u{202e}') && !line.contains('\u{1}'),
                    "{what}, {command:?}: unescaped: {line:.200}"
                );
                checked += usize::from(line.contains("xxxxxxxx"));
            }
        }
    }
    // The values are echoed (cut), not left out.
    assert!(checked >= 20, "only {checked} lines echo a value");
}

/// The cut value keeps the message readable: its prefix in quotes, an
/// ellipsis after them, and the rest of the message.
#[test]
fn a_cut_value_keeps_the_message_around_it() {
    let doc = format!(r#"[{{"type":"{}","text":"hi"}}]"#, "t".repeat(5000));
    let run = run_with_stdin(&["validate", "--kind", "parts", "-"], doc.as_bytes());
    assert_eq!(run.code, 1, "{}", run.stderr);
    let shown = "t".repeat(partkit::internals::SHOWN);
    assert!(
        run.stdout.contains(&format!(
            "unknown part type \"{shown}\"… (expected text, image, file or audio)"
        )),
        "{}",
        run.stdout
    );
}
