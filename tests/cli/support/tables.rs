//! Table helpers, one line per case (after jaq's `jaq-json/tests/common`):
//! conversions run in-process through the library (`partkit::convert`), so a
//! case costs no process; so do validation findings (`findings`, the library's
//! checks through `partkit::validate::check_document`).

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

/// The findings of `text` read as a transcript of `shape`, `(rule, pointer)`
/// in the order `validate` reports them. Runs the library's checks in-process
/// (`partkit::validate::check_document`), the one place the tests call them.
pub fn findings(shape: Shape, text: &str) -> Vec<(&'static str, String)> {
    use partkit::validate::{check_document, CheckOptions, KindChoice};
    let options = CheckOptions {
        kind: KindChoice::Transcript(Some(shape)),
        ..CheckOptions::default()
    };
    check_document(text.as_bytes(), &options)
        .issues
        .into_iter()
        .map(|issue| (issue.rule, issue.pointer))
        .collect()
}

/// One validation case: `doc` read as a transcript of `shape` gives these
/// findings, `(rule, pointer)` in the order `validate` reports them.
#[track_caller]
pub fn finds(shape_name: &str, doc: Value, want: &[(&str, &str)]) {
    let got = findings(shape(shape_name), &doc.to_string());
    let got: Vec<(&str, &str)> = got.iter().map(|(r, p)| (*r, p.as_str())).collect();
    assert_eq!(got, want, "{shape_name} findings\ndoc: {doc}");
}
