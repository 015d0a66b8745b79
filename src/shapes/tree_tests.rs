//! Every reader that reads the borrowed tree (`Dialect::reads_trees`) gives
//! the same transcript, notes and errors from it as from a
//! `serde_json::Value` (docs/speed.md, "One tree for small documents").

use std::path::{Path, PathBuf};

use crate::contract::convert::ConvertOptions;
use crate::contract::Context;
use crate::json::lent;
use crate::shapes::{Registered, Shape};
use crate::shared::SharedBytes;

/// The shapes whose readers read the tree; each is checked below.
fn tree_readers() -> Vec<Shape> {
    Shape::ALL
        .into_iter()
        .filter(|shape| shape.dialect().reads_trees())
        .collect()
}

/// Reads `bytes` as `shape` both ways; `false` when the tree does not take
/// them.
fn reads_alike(shape: Shape, bytes: &[u8], name: &str) -> bool {
    let shared = SharedBytes::new(bytes.to_vec());
    let Some(tree) = lent::parse_tree(&shared) else {
        return false;
    };
    let value = lent::parse(&shared).expect("the tree took it");
    let target = if shape == Shape::Anthropic {
        Shape::OpenaiChat
    } else {
        Shape::Anthropic
    };
    let context = || Context::new(ConvertOptions::default(), shape, target.dialect());
    let mut by_value = context().with_reading(value.reading(&shared));
    let mut by_tree = context().with_reading(tree.reading(&shared));
    let from_value = shape.dialect().read(&value.value, &mut by_value);
    let from_tree = shape.dialect().read_tree(&tree.json, &mut by_tree);
    // As `Debug` text: `Value`'s `==` does not see the order of an
    // object's keys, which the output keeps.
    assert_eq!(
        format!("{from_value:?}"),
        format!("{from_tree:?}"),
        "{shape} {name}"
    );
    assert_eq!(by_value.finish(), by_tree.finish(), "{shape} {name}");
    true
}

/// Each of `cases`, a document of `shape` the tree takes, read alike both
/// ways: a shape's table of its own malformed documents.
pub(super) fn cases_read_alike(shape: Shape, cases: &[&str]) {
    for case in cases {
        assert!(
            reads_alike(shape, case.as_bytes(), case),
            "not taken: {case}"
        );
    }
}

#[test]
fn chat_reads_the_tree() {
    // The first reader moved; the checks below are only as good as the
    // list of readers they run on.
    assert!(tree_readers().contains(&Shape::OpenaiChat));
}

#[test]
fn malformed_chat_documents_fail_alike() {
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
    cases_read_alike(Shape::OpenaiChat, &cases);
}

/// Every document of every shape, read as each shape that reads the tree
/// (most fail as that shape, which is the point: the errors must agree too).
#[test]
fn every_recording_and_fixture_reads_alike() {
    let documents = documents();
    for shape in tree_readers() {
        let read = documents
            .iter()
            .filter(|(name, bytes)| reads_alike(shape, bytes, name))
            .count();
        // The fixtures alone are over 200.
        assert!(read > 200, "{shape}: only {read} documents read");
    }
}

/// Every JSON document of the fixtures and the recordings, by name (the
/// engines' tests read them too).
pub(crate) fn documents() -> Vec<(String, Vec<u8>)> {
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
    found
        .iter()
        .map(|path| {
            (
                path.display().to_string(),
                std::fs::read(path).expect("listed"),
            )
        })
        .collect()
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
