//! `validate` on recordings: every real cassette, HAR file and chunk
//! fixture of `../shared/cassettes/` (read at run time, skipped when the
//! folder is absent) checked body by body with the counts it holds, and
//! hand-written cassettes for what the real ones lack: a stream cut short,
//! an error in a body the provider answered 200, a request it refused that
//! partkit finds clean, an empty body, a folder walk.

use std::path::PathBuf;

use serde_json::Value;

use crate::support::cassettes;
use crate::{path_arg, run};

/// What `validate` says of each real recording: documents checked, images,
/// warnings, documents passed over. Every one was answered 200 (the one 202
/// and 204 bodies are empty); only [`CUT_SHORT`] has an error.
const EXPECTED: &[(&str, usize, usize, usize, usize)] = &[
    ("har/mirascope-01.har", 4, 0, 0, 0),
    ("har/mirascope-02.har", 2, 0, 0, 0),
    ("har/mirascope-03.har", 6, 0, 0, 0),
    // Bedrock Agent Runtime: a request of no shape, and a stream of none.
    ("har/openinference-01.har", 0, 0, 0, 2),
    ("langchain-aws/langchain-aws-01.yaml.gz", 4, 0, 0, 0),
    ("langchain-aws/langchain-aws-02.yaml.gz", 2, 0, 0, 0),
    // MCP's initialize, notifications and lists, and a text/plain answer,
    // are passed over; the tools/call answers and the Responses turns are
    // checked.
    ("mcp/chatlas-01.yaml", 4, 0, 0, 8),
    // Each step: the call's arguments (no shape) and its CallToolResult.
    ("mcp/mcp-interviewer-01.json", 20, 2, 0, 20),
    ("r-vcr/ellmer-01.yml", 8, 3, 0, 0),
    ("r-vcr/ellmer-02.yml", 8, 3, 0, 0),
    ("r-vcr/ellmer-03.yml", 8, 0, 0, 0),
    ("r-vcr/ellmer-04.yml", 6, 0, 0, 0),
    ("vcrpy-stream/llm-01.yaml", 4, 0, 0, 0),
    ("vcrpy-stream/llm-anthropic-01.yaml", 2, 0, 0, 0),
    ("vcrpy-stream/llm-anthropic-02.yaml", 2, 1, 0, 0),
    ("vcrpy-stream/llm-gemini-01.yaml", 6, 0, 0, 0),
    ("vcrpy-stream/openinference-01.yaml", 2, 0, 0, 0),
    ("vcrpy-stream/otel-contrib-01.yaml", 2, 0, 0, 0),
    ("vcrpy-stream/otel-contrib-02.yaml", 4, 0, 0, 0),
    ("vcrpy-stream/pydantic-ai-01.yaml", 2, 0, 0, 0),
    ("vcrpy/aviary-01.yaml", 2, 1, 0, 0),
    ("vcrpy/llm-01.yaml", 6, 0, 0, 0),
    ("vcrpy/openllmetry-01.yaml", 2, 0, 0, 0),
    ("vcrpy/pydantic-ai-01.yaml", 4, 1, 0, 0),
    ("vcrpy/pydantic-ai-02.yaml", 4, 1, 0, 0),
    // The model called a tool the request does not declare and passed an
    // argument the other does not take; pydantic-ai answered each with an
    // error result, which the recorded history carries on: legal, but worth
    // a look (tool-call-caught).
    ("vcrpy/pydantic-ai-03.yaml", 8, 1, 5, 0),
    ("vcrpy/pydantic-ai-04.yaml", 4, 1, 0, 0),
    ("vcrpy/pydantic-ai-05.yaml", 2, 0, 0, 0),
    ("vcrpy/pydantic-ai-06.yaml", 2, 0, 0, 0),
    // Chunk fixtures: one assembled response each, told by their first
    // lines (Gemini's, which look like whole responses, by two lines in a
    // row sharing one `responseId`); vercel-ai-02 is a bare response.
    ("vercel-fixtures/vercel-ai-01.chunks.txt", 1, 0, 0, 0),
    ("vercel-fixtures/vercel-ai-02.json", 1, 0, 0, 0),
    ("vercel-fixtures/vercel-ai-03.chunks.txt", 1, 0, 0, 0),
    ("vercel-fixtures/vercel-ai-04.chunks.txt", 1, 0, 0, 0),
    ("vercel-fixtures/vercel-ai-05.chunks.txt", 1, 0, 0, 0),
    // Its generated image was cut short by the fixture's authors (`...` in
    // the base64): the one error (see [`CUT_SHORT`]).
    ("vercel-fixtures/vercel-ai-06.chunks.txt", 1, 1, 0, 0),
];

/// The one recording `validate` finds an error in: broken data, reported
/// (tests/cli/image_generation.rs says which).
const CUT_SHORT: &str = "vercel-fixtures/vercel-ai-06.chunks.txt";

/// `checked N documents, M images …` read back into numbers.
fn summary_counts(stderr: &str) -> (usize, usize, usize, usize) {
    let summary = stderr
        .lines()
        .find(|l| l.starts_with("partkit: checked "))
        .expect(stderr);
    let number_before = |word: &str| {
        let words: Vec<&str> = summary.split([' ', ',', ';', ':']).collect();
        words
            .iter()
            .position(|w| w.starts_with(word))
            .and_then(|i| words[..i].iter().rev().find_map(|w| w.parse().ok()))
            .unwrap_or(0)
    };
    let skipped = summary
        .split("; ")
        .find(|part| part.contains("skipped"))
        .and_then(|part| part.split(' ').next()?.parse().ok())
        .unwrap_or(0);
    (
        number_before("document"),
        number_before("image"),
        number_before("warning"),
        skipped,
    )
}

#[test]
fn every_real_recording_is_checked_body_by_body() {
    let Some(root) = cassettes() else { return };
    let mut seen = 0;
    for folder in std::fs::read_dir(&root).unwrap() {
        let folder = folder.unwrap().path();
        if !folder.is_dir() {
            continue;
        }
        for file in std::fs::read_dir(&folder).unwrap() {
            let path = file.unwrap().path();
            let name = format!(
                "{}/{}",
                folder.file_name().unwrap().to_string_lossy(),
                path.file_name().unwrap().to_string_lossy()
            );
            let &(_, documents, images, warnings, skipped) = EXPECTED
                .iter()
                .find(|e| e.0 == name)
                .unwrap_or_else(|| panic!("{name}: a new recording needs its counts here"));
            let out = run(&["validate", path_arg(&path)]);
            let code = i32::from(name == CUT_SHORT);
            assert_eq!(out.code, code, "{name}: {}{}", out.stdout, out.stderr);
            assert_eq!(
                summary_counts(&out.stderr),
                (documents, images, warnings, skipped),
                "{name}: {}",
                out.stderr
            );
            seen += 1;
        }
    }
    assert_eq!(seen, EXPECTED.len());
}

#[test]
fn a_folder_of_cassettes_is_walked_like_a_pre_commit_hook_would() {
    let Some(root) = cassettes() else { return };
    let out = run(&[
        "validate",
        "--format",
        "json",
        path_arg(&root.join("vcrpy")),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let findings = out.json_lines();
    assert_eq!(findings.len(), 5);
    for finding in &findings {
        assert_eq!(finding["rule"], "tool-call-caught");
        assert!(finding["path"]
            .as_str()
            .unwrap()
            .ends_with("pydantic-ai-03.yaml"));
        assert_eq!(finding["side"], "request");
        assert_eq!(finding["status"], 200);
    }
    let lines: Vec<(u64, u64)> = findings
        .iter()
        .map(|f| {
            (
                f["interaction"].as_u64().unwrap(),
                f["line"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(lines, [(2, 91), (3, 182), (3, 182), (4, 302), (4, 302)]);
    assert!(
        out.stderr.contains("checked 34 documents, 5 images"),
        "{}",
        out.stderr
    );
}

/// A cassette of four interactions: a stream cut short, an image whose
/// bytes are not what it declares (answered 200), a request the provider
/// refused that is clean, and a GET with empty bodies.
const CASSETTE: &str = include_str!("../fixtures/recordings/edge.yaml");

fn edge_cassette() -> (tempfile::TempDir, PathBuf) {
    crate::support::temp_file("edge.yaml", CASSETTE.as_bytes())
}

#[test]
fn findings_in_a_cassette_name_the_line_interaction_and_side() {
    let (_dir, path) = edge_cassette();
    let out = run(&["validate", path_arg(&path)]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let p = path_arg(&path);
    assert_eq!(
        out.stdout,
        format!(
            "{p}:13: error[broken-stream] interaction 1 response: the streamed response cannot be \
             assembled: the stream is cut short: 3 events, and no message_stop\n\
             {p}:21: error[media-type-mismatch] interaction 2 request /messages/0/content/0: \
             content is image/jpeg, not image/png (the provider answered 200: a partkit rule, or \
             a cassette older than its rules)\n"
        )
    );
    // The refused request that partkit finds clean, with the provider's
    // own words; the secret header and query key are nowhere.
    assert!(
        out.stderr.contains(&format!(
            "{p}:33: interaction 3 request: the provider refused it (404: \"model: not found\") \
             but partkit finds it clean"
        )),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("checked 5 documents, 1 image"));
    for output in [&out.stdout, &out.stderr] {
        assert!(!output.contains("sk-ant-very-secret"));
    }
}

#[test]
fn ci_formats_point_at_the_body_s_line() {
    let (_dir, path) = edge_cassette();
    let p = path_arg(&path);
    let github = run(&["validate", "--format", "github", p]);
    // The temporary folder's name holds neither `:` nor `,`, which the
    // workflow command escapes in its properties.
    assert_eq!(
        github.stdout.lines().next().unwrap(),
        format!(
            "::error file={p},line=13,title=broken-stream::interaction 1 response: the streamed \
             response cannot be assembled: the stream is cut short: 3 events, and no message_stop"
        )
    );
    let sarif = run(&["validate", "--format", "sarif", p]);
    let log: Value = serde_json::from_str(&sarif.stdout).unwrap();
    let results = log["runs"][0]["results"].as_array().unwrap();
    let located: Vec<(u64, &str)> = results
        .iter()
        .map(|r| {
            let location = &r["locations"][0];
            (
                location["physicalLocation"]["region"]["startLine"]
                    .as_u64()
                    .unwrap(),
                location["logicalLocations"][0]["fullyQualifiedName"]
                    .as_str()
                    .unwrap(),
            )
        })
        .collect();
    assert_eq!(
        located,
        [
            (13, "interaction 1 response"),
            (21, "interaction 2 request /messages/0/content/0")
        ]
    );
    assert_eq!(results[1]["properties"]["status"], 200);
}

#[test]
fn a_folder_walk_passes_over_yaml_that_is_no_cassette_and_reports_broken_yaml() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.yaml"), CASSETTE).unwrap();
    std::fs::write(dir.path().join("config.yml"), "name: ci\non: [push]\n").unwrap();
    std::fs::write(
        dir.path().join("notes.txt"),
        "not read: not a walked name\n",
    )
    .unwrap();
    let out = run(&["validate", path_arg(dir.path())]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(out.stdout.lines().count(), 2);
    assert!(
        out.stderr.contains("config.yml:1: not a recording"),
        "{}",
        out.stderr
    );
    std::fs::write(
        dir.path().join("broken.yaml"),
        "interactions:\n- request: [\n",
    )
    .unwrap();
    let out = run(&["validate", path_arg(dir.path())]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("broken.yaml:3: not a recording partkit reads: not JSON, and not YAML"),
        "{}",
        out.stderr
    );
}
