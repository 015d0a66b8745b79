//! The reader gives the same transcript, notes and errors whether it reads a
//! `serde_json::Value` or the borrowed tree (`json::node`).

use std::path::{Path, PathBuf};

use crate::contract::Context;
use crate::convert::ConvertOptions;
use crate::json::lent;
use crate::shapes::{Registered, Shape};
use crate::shared::SharedBytes;

/// Reads `bytes` both ways; `false` when the tree does not take them.
fn reads_alike(bytes: &[u8], name: &str) -> bool {
    let shared = SharedBytes::new(bytes.to_vec());
    let Some(tree) = lent::parse_tree(&shared) else {
        return false;
    };
    let value = lent::parse(&shared).expect("the tree took it");
    let context = || {
        Context::new(
            ConvertOptions::default(),
            Shape::OpenaiChat,
            Shape::Anthropic.dialect(),
        )
    };
    let mut by_value = context().with_reading(value.reading(&shared));
    let mut by_tree = context().with_reading(tree.reading(&shared));
    let from_value = super::read(&value.value, &mut by_value);
    let from_tree = super::read(&tree.json, &mut by_tree);
    assert_eq!(from_value, from_tree, "{name}");
    assert_eq!(by_value.finish(), by_tree.finish(), "{name}");
    true
}

#[test]
fn malformed_documents_fail_alike() {
    let cases = [
        r#"{"messages": 5}"#,
        r#"{"messages": [5]}"#,
        r#"{"messages": [{"content": "x"}]}"#,
        r#"{"messages": [{"role": "robot", "content": "x"}]}"#,
        r#"{"messages": [{"role": "user", "content": 5}]}"#,
        r#"{"messages": [{"role": "user", "content": [5]}]}"#,
        r#"{"messages": [{"role": "user", "content": [{"type": "image_url"}]}]}"#,
        r#"{"messages": [{"role": "user", "content": [{"type": "input_audio", "input_audio": {"data": "AAAA", "format": "ogg"}}]}]}"#,
        r#"{"messages": [{"role": "assistant", "tool_calls": 5}]}"#,
        r#"{"messages": [{"role": "assistant", "tool_calls": [{"function": {"name": "f", "arguments": "{"}}]}]}"#,
        r#"{"messages": [{"role": "tool", "content": "x"}]}"#,
        r#"{"tools": [{"type": "function", "function": {}}], "messages": []}"#,
        r#"{"choices": []}"#,
        r#"[{"role": "user", "content": [{"type": "text"}]}]"#,
    ];
    for case in cases {
        assert!(reads_alike(case.as_bytes(), case), "not taken: {case}");
    }
}

#[test]
fn every_recording_and_fixture_reads_alike() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    for dir in [
        root.join("tests/shapes"),
        root.join("tests/fixtures"),
        root.join("../shared/realworld"),
        root.join("../shared/realworld2"),
    ] {
        walk(&dir, &mut found);
    }
    let mut read = 0;
    for path in &found {
        let bytes = std::fs::read(path).expect("listed");
        if reads_alike(&bytes, &path.display().to_string()) {
            read += 1;
        }
    }
    // Every document of every shape (most fail as Chat, which is the point:
    // the errors must agree too); the fixtures alone are over 200.
    assert!(read > 200, "only {read} documents read");
}

fn walk(dir: &Path, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return; // the recordings are not beside every checkout
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, found);
        } else if path.extension().is_some_and(|e| e == "json") {
            found.push(path);
        }
    }
}
