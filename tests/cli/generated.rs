//! The committed completions and man pages equal a fresh render, byte for byte.

use std::path::Path;

#[test]
fn completions_and_man_pages_are_fresh() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut stale = Vec::new();
    for artifact in partkit::internals::generated_files() {
        let path = root.join(&artifact.path);
        match std::fs::read(&path) {
            Ok(bytes) if bytes == artifact.bytes => {}
            _ => stale.push(artifact.path.display().to_string()),
        }
    }
    assert!(
        stale.is_empty(),
        "stale generated files: {}\nregenerate with: cargo run -- generate --dir .",
        stale.join(", ")
    );
}

#[test]
fn no_unexpected_generated_files() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let expected: Vec<_> = partkit::internals::generated_files()
        .into_iter()
        .map(|a| a.path)
        .collect();
    for dir in ["completions", "man"] {
        for entry in std::fs::read_dir(root.join(dir)).expect("the folder exists") {
            let relative = Path::new(dir).join(entry.unwrap().file_name());
            assert!(
                expected.contains(&relative),
                "{} is not generated any more; delete it",
                relative.display()
            );
        }
    }
}
