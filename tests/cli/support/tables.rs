//! Table helpers, one line per case (after jaq's `jaq-json/tests/common`):
//! conversions run in-process through the library (`partkit::convert`), so a
//! case costs no process; validation findings go through the binary with
//! `--format json` (validation has no public library entry point yet: it lives
//! in the command layer, `partkit::commands::validate`, and is being moved).

use std::path::{Path, PathBuf};

use partkit::convert::{convert, ConvertOptions};
use partkit::Shape;
use serde_json::Value;

/// The shape called `name`, or a panic naming it (a typo in a table).
fn shape(name: &str) -> Shape {
    Shape::from_name(name).unwrap_or_else(|| panic!("no shape {name:?}"))
}

/// Converts `input` from `from` to `to` (default options) in-process: the
/// output and the notes (warnings) in order, or the error's message.
pub fn converted(from: &str, to: &str, input: &Value) -> Result<(Value, Vec<String>), String> {
    convert(
        input,
        Some(shape(from)),
        shape(to),
        ConvertOptions::default(),
    )
    .map(|converted| (converted.value, converted.notes))
    .map_err(|error| error.to_string())
}

/// `input` (of `from`) converts to exactly `expected` (as JSON values) with
/// exactly `notes`.
#[track_caller]
pub fn converts(from: &str, to: &str, input: Value, expected: Value, notes: &[&str]) {
    let (output, got) = converted(from, to, &input)
        .unwrap_or_else(|error| panic!("{from} → {to} failed: {error}\ninput: {input}"));
    assert_eq!(output, expected, "{from} → {to} output\ninput: {input}");
    assert_eq!(got, notes, "{from} → {to} notes\ninput: {input}");
}

/// `input` (of `from`) does not convert to `to`; the error says `fragment`.
#[track_caller]
pub fn refuses(from: &str, to: &str, input: Value, fragment: &str) {
    match converted(from, to, &input) {
        Ok((output, _)) => panic!("{from} → {to} converted, to {output}\ninput: {input}"),
        Err(error) => assert!(
            error.contains(fragment),
            "{from} → {to}: {fragment:?} not in {error:?}"
        ),
    }
}

/// `doc` (of `shape`) comes back unchanged from canonical, silently both ways.
#[track_caller]
pub fn round_trips(shape: &str, doc: Value) {
    let (canonical, notes) = converted(shape, "canonical", &doc)
        .unwrap_or_else(|error| panic!("{shape} → canonical failed: {error}\ninput: {doc}"));
    assert_eq!(notes, Vec::<String>::new(), "{shape} → canonical notes");
    converts("canonical", shape, canonical, doc, &[]);
}

/// One validation case: `doc` read as a transcript of `shape` gives these
/// findings, `(rule, pointer)` in the order `validate` reports them. Runs the
/// library's checks in-process (`partkit::validate::check_document`).
#[track_caller]
pub fn finds(shape: &str, doc: Value, want: &[(&str, &str)]) {
    use partkit::validate::{check_document, CheckOptions, KindChoice};
    let shape = partkit::Shape::from_name(shape).expect("a shape name");
    let options = CheckOptions {
        kind: KindChoice::Transcript(Some(shape)),
        ..CheckOptions::default()
    };
    let report = check_document(doc.to_string().as_bytes(), &options);
    let got: Vec<(&str, &str)> = report
        .issues
        .iter()
        .map(|issue| (issue.rule, issue.pointer.as_str()))
        .collect();
    assert_eq!(
        got, want,
        "{shape} findings\ndoc: {doc}\nissues: {:#?}",
        report.issues
    );
}

/// One conversion case kept as files under `tests/fixtures/convert/cases/`:
/// `<shape>/<case>.in.json` converted to `<target>` must give
/// `<case>.<target>.out.json`, with the notes in `<case>.<target>.notes.txt`
/// (one a line; no file: no notes).
#[derive(Debug)]
pub struct CaseFile {
    pub from: String,
    pub to: String,
    pub input: PathBuf,
    pub output: PathBuf,
    pub notes: PathBuf,
}

/// Every case file under `root`, sorted; each input must have an output.
pub fn case_files(root: &Path) -> Vec<CaseFile> {
    let mut cases = Vec::new();
    for folder in sorted_entries(root).into_iter().filter(|p| p.is_dir()) {
        let from = file_name(&folder);
        let files = sorted_entries(&folder);
        for input in files.iter().filter(|f| file_name(f).ends_with(".in.json")) {
            let case = file_name(input).trim_end_matches(".in.json").to_string();
            let before = cases.len();
            for output in &files {
                let name = file_name(output);
                let Some(to) = name
                    .strip_prefix(&format!("{case}."))
                    .and_then(|rest| rest.strip_suffix(".out.json"))
                else {
                    continue;
                };
                cases.push(CaseFile {
                    from: from.clone(),
                    to: to.to_string(),
                    input: input.clone(),
                    output: output.clone(),
                    notes: folder.join(format!("{case}.{to}.notes.txt")),
                });
            }
            assert!(cases.len() > before, "{input:?} has no .out.json");
        }
    }
    cases
}

fn sorted_entries(dir: &Path) -> Vec<PathBuf> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("read {dir:?}: {e}"))
        .map(|entry| entry.expect("directory entry").path())
        .collect();
    entries.sort();
    entries
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .expect("a file name")
        .to_string_lossy()
        .into_owned()
}

/// A JSON file's value.
pub fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path:?}: {e}"))
}
