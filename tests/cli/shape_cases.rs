//! The shape cases under `tests/shapes/` (README there), run in-process
//! through the library: one folder per case holds one conversation written in
//! several shapes, and each file is read, written, round-tripped, detected and
//! validated against the others. A reader or writer change is tested here
//! without starting a process; the command line keeps its own tests.
//!
//! Set `PARTKIT_WRITE_SHAPES=1` to rewrite the expected files from what the
//! library gives now (never a document that is read); then read the diff.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use partkit::convert::{convert, ConvertOptions, OnInvalidArguments, OnUnsupported, ToolMedia};
use partkit::Shape;
use serde_json::Value;

use super::support::tables::findings;

/// Whether this run rewrites the expected files instead of comparing them.
fn writing() -> bool {
    std::env::var_os("PARTKIT_WRITE_SHAPES").is_some_and(|v| !v.is_empty() && v != "0")
}

/// The shapes `validate` reads transcripts of (the others are skipped there).
const VALIDATED: [&str; 6] = [
    "canonical",
    "openai-chat",
    "openai-responses",
    "anthropic",
    "gemini",
    "bedrock",
];

/// How a document takes part in its case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// `<shape>.json`: read, and what every other document converts to.
    Both,
    /// `<shape>.in.json`: only read (hand-written, not in the writer's form).
    Read,
    /// `<shape>.out.json`: only written, what the readable documents give.
    Written,
}

impl Role {
    fn is_read(self) -> bool {
        self != Role::Written
    }
    fn is_written(self) -> bool {
        self != Role::Read
    }
}

#[derive(Debug)]
struct Document {
    shape: Shape,
    /// The shape's name, as in the file name.
    name: String,
    /// The file name without `.json` (`anthropic`, `anthropic.in`, …).
    stem: String,
    role: Role,
    path: PathBuf,
    /// `None` for an empty file (a placeholder to be written).
    value: Option<Value>,
}

/// One folder under `tests/shapes/`.
#[derive(Debug)]
struct Case {
    name: String,
    dir: PathBuf,
    options: ConvertOptions,
    documents: Vec<Document>,
    /// `<from>.<to>.notes.txt`, by (from, to).
    notes: BTreeMap<(String, String), PathBuf>,
    /// `<from>.<to>.refused.txt`, by (from, to).
    refusals: BTreeMap<(String, String), PathBuf>,
    /// `<file>.findings.txt` and `<file>.detected.txt`, by the stem of the
    /// document's file (`anthropic`, `anthropic.in`, …).
    findings: BTreeMap<String, PathBuf>,
    detections: BTreeMap<String, PathBuf>,
    /// Shapes with a `<shape>.via-canonical.notes.txt`.
    via_canonical: Vec<String>,
}

/// The shape a file name spells, or a panic naming the file.
fn shape_named(name: &str, file: &Path) -> Shape {
    Shape::from_name(name).unwrap_or_else(|| panic!("{file:?}: no shape {name:?}"))
}

/// The options of `options.txt`: the `convert` flags, one a line.
fn parse_options(text: &str, file: &Path) -> ConvertOptions {
    let mut options = ConvertOptions::default();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let (flag, value) = line.split_once(' ').unwrap_or((line, ""));
        let value = value.trim();
        match (flag, value) {
            ("--strict", "") => options.strict = true,
            ("--on-unsupported", "error") => options.on_unsupported = Some(OnUnsupported::Error),
            ("--on-unsupported", "text") => options.on_unsupported = Some(OnUnsupported::Text),
            ("--tool-media", "native") => options.tool_media = ToolMedia::Native,
            ("--tool-media", "lift") => options.tool_media = ToolMedia::Lift,
            ("--on-invalid-arguments", "error") => {
                options.on_invalid_arguments = OnInvalidArguments::Error
            }
            ("--on-invalid-arguments", "keep") => {
                options.on_invalid_arguments = OnInvalidArguments::Keep
            }
            ("--call-id", id) if !id.is_empty() => options.call_id = Some(id.to_string()),
            ("--name", name) if !name.is_empty() => options.tool_name = Some(name.to_string()),
            _ => panic!("{file:?}: unknown option line {line:?}"),
        }
    }
    options
}

fn read_text(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{path:?}: {e}"))
}

/// A file of lines (notes, findings): absent means none.
fn read_lines(path: Option<&PathBuf>) -> Vec<String> {
    path.map(|p| read_text(p).lines().map(str::to_string).collect())
        .unwrap_or_default()
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .expect("a file name")
        .to_string_lossy()
        .into_owned()
}

fn sorted_entries(dir: &Path) -> Vec<PathBuf> {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("read {dir:?}: {e}"))
        .map(|entry| entry.expect("directory entry").path())
        .collect();
    entries.sort();
    entries
}

impl Case {
    /// Reads one case folder; a file whose name means nothing is a panic.
    fn load(dir: &Path) -> Case {
        let mut case = Case {
            name: file_name(dir),
            dir: dir.to_path_buf(),
            options: ConvertOptions::default(),
            documents: Vec::new(),
            notes: BTreeMap::new(),
            refusals: BTreeMap::new(),
            findings: BTreeMap::new(),
            detections: BTreeMap::new(),
            via_canonical: Vec::new(),
        };
        for path in sorted_entries(dir) {
            let name = file_name(&path);
            let pair = |suffix: &str| {
                let stem = name.strip_suffix(suffix)?;
                let (from, to) = stem.split_once('.')?;
                shape_named(from, &path);
                shape_named(to, &path);
                Some((from.to_string(), to.to_string()))
            };
            if name == "README.md" {
                continue;
            } else if name == "options.txt" {
                case.options = parse_options(&read_text(&path), &path);
            } else if name.ends_with(".via-canonical.notes.txt") {
                let shape = name.trim_end_matches(".via-canonical.notes.txt");
                shape_named(shape, &path);
                case.via_canonical.push(shape.to_string());
            } else if let Some(key) = pair(".notes.txt") {
                case.notes.insert(key, path);
            } else if let Some(key) = pair(".refused.txt") {
                case.refusals.insert(key, path);
            } else if let Some(stem) = name.strip_suffix(".findings.txt") {
                case.findings.insert(stem.to_string(), path);
            } else if let Some(stem) = name.strip_suffix(".detected.txt") {
                case.detections.insert(stem.to_string(), path);
            } else if let Some(stem) = name.strip_suffix(".json") {
                let (shape, role) = if let Some(shape) = stem.strip_suffix(".in") {
                    (shape, Role::Read)
                } else if let Some(shape) = stem.strip_suffix(".out") {
                    (shape, Role::Written)
                } else {
                    (stem, Role::Both)
                };
                let text = read_text(&path);
                let value = if text.trim().is_empty() {
                    None
                } else {
                    Some(serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path:?}: {e}")))
                };
                case.documents.push(Document {
                    shape: shape_named(shape, &path),
                    name: shape.to_string(),
                    stem: stem.to_string(),
                    role,
                    path,
                    value,
                });
            } else {
                panic!("{path:?}: not a case file (README.md in tests/shapes says which are)");
            }
        }
        case
    }

    /// The document of `shape` that is read, if any.
    fn read(&self, shape: &str) -> Option<&Document> {
        self.documents
            .iter()
            .find(|d| d.name == shape && d.role.is_read())
    }

    /// The document of `shape` that is written, if any.
    fn written(&self, shape: &str) -> Option<&Document> {
        self.documents
            .iter()
            .find(|d| d.name == shape && d.role.is_written())
    }

    /// What the layout itself gets wrong: two read (or two written)
    /// documents of one shape, notes or refusals for a conversion the case
    /// does not make, a refusal where a document says it converts,
    /// expectations for documents that are not there.
    fn layout_errors(&self) -> Vec<String> {
        let mut errors = Vec::new();
        let mut shapes: BTreeMap<&str, Vec<Role>> = BTreeMap::new();
        for document in &self.documents {
            shapes
                .entry(&document.name)
                .or_default()
                .push(document.role);
            if document.value.is_none() && document.role.is_read() {
                errors.push(format!("{:?} is empty but is read", document.path));
            }
        }
        for (shape, roles) in shapes {
            let reads = roles.iter().filter(|r| r.is_read()).count();
            let writes = roles.iter().filter(|r| r.is_written()).count();
            if reads > 1 || writes > 1 {
                errors.push(format!("more than one {shape} document is read or written"));
            }
        }
        if self.read_documents().next().is_none() {
            errors.push("no document to read (<shape>.json or <shape>.in.json)".into());
        }
        for ((from, to), path) in &self.notes {
            let read = self.read(from);
            let written = self.written(to);
            // From a document to itself: its round trip.
            if read.is_none() || written.is_none() {
                errors.push(format!(
                    "{path:?}: no conversion from a read {from} document to a written {to} one"
                ));
            }
        }
        for ((from, to), path) in &self.refusals {
            if self.read(from).is_none() {
                errors.push(format!("{path:?}: no {from} document is read"));
            }
            if self.written(to).is_some() {
                errors.push(format!(
                    "{path:?}: refused, yet a written {to} document says what it gives"
                ));
            }
        }
        for shape in &self.via_canonical {
            let read = self.read(shape).filter(|d| d.role == Role::Read);
            let written = self.written(shape).filter(|d| d.role == Role::Written);
            if read.is_none() || written.is_none() {
                errors.push(format!(
                    "{shape}.via-canonical.notes.txt: no {shape}.in.json beside a {shape}.out.json"
                ));
            }
        }
        let stems: Vec<&str> = self.documents.iter().map(|d| d.stem.as_str()).collect();
        for (stem, path) in self.findings.iter().chain(&self.detections) {
            if !stems.contains(&stem.as_str()) {
                errors.push(format!("{path:?}: no document {stem}.json"));
            }
        }
        for stem in self.detections.keys() {
            if self
                .documents
                .iter()
                .any(|d| &d.stem == stem && !d.role.is_read())
            {
                errors.push(format!("{stem}.detected.txt: {stem}.json is not read"));
            }
        }
        errors
    }

    fn read_documents(&self) -> impl Iterator<Item = &Document> {
        self.documents.iter().filter(|d| d.role.is_read())
    }

    fn written_documents(&self) -> impl Iterator<Item = &Document> {
        self.documents.iter().filter(|d| d.role.is_written())
    }

    fn convert(&self, value: &Value, from: Option<Shape>, to: Shape) -> Outcome {
        match convert(value, from, to, self.options.clone()) {
            Ok(converted) => Outcome::Converted {
                value: converted.value,
                notes: converted.notes,
                source: converted.source,
            },
            Err(error) => Outcome::Refused(error.to_string()),
        }
    }

    /// Whether reading `document` is refused: it is not detected either.
    fn unreadable(&self, document: &Document) -> bool {
        let name = &document.name;
        document.role == Role::Read
            && (self.refusals.contains_key(&(name.clone(), name.clone()))
                || self
                    .refusals
                    .contains_key(&(name.clone(), "canonical".to_string())))
    }

    fn notes_path(&self, from: &str, to: &str) -> PathBuf {
        self.dir.join(format!("{from}.{to}.notes.txt"))
    }
}

/// What one conversion gave.
#[derive(Debug)]
enum Outcome {
    Converted {
        value: Value,
        notes: Vec<String>,
        source: Shape,
    },
    Refused(String),
}

/// Compact JSON text, keys in order: the comparison is of text, so a change
/// in the order a writer puts keys in is caught too.
fn compact(value: &Value) -> String {
    serde_json::to_string(value).expect("JSON serializes")
}

/// Where `got` first differs from `want`: the pointer, and both values
/// there (keys in another order count).
fn difference(want: &Value, got: &Value) -> String {
    fn walk(want: &Value, got: &Value, at: &mut String) -> Option<(Value, Value)> {
        match (want, got) {
            (Value::Object(a), Value::Object(b)) if a.keys().eq(b.keys()) => {
                for (key, value) in a {
                    let len = at.len();
                    at.push('/');
                    at.push_str(&key.replace('~', "~0").replace('/', "~1"));
                    if let Some(found) = walk(value, &b[key], at) {
                        return Some(found);
                    }
                    at.truncate(len);
                }
                None
            }
            (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
                for (index, (x, y)) in a.iter().zip(b).enumerate() {
                    let len = at.len();
                    let _ = write!(at, "/{index}");
                    if let Some(found) = walk(x, y, at) {
                        return Some(found);
                    }
                    at.truncate(len);
                }
                None
            }
            _ if compact(want) == compact(got) => None,
            _ => Some((want.clone(), got.clone())),
        }
    }
    let mut at = String::new();
    match walk(want, got, &mut at) {
        Some((want, got)) => format!(
            "differs at {:?}\n  want {}\n  got  {}",
            at,
            compact(&want),
            compact(&got)
        ),
        None => "the same".to_string(),
    }
}

fn pretty(value: &Value) -> String {
    let mut text = serde_json::to_string_pretty(value).expect("JSON serializes");
    text.push('\n');
    text
}

/// Writes `lines` one a line, or removes the file when there are none.
fn write_lines(path: &Path, lines: &[String]) {
    if lines.is_empty() {
        if path.exists() {
            fs::remove_file(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        }
    } else {
        let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
        fs::write(path, text).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    }
}

/// Every case folder under `tests/shapes/`, sorted.
fn cases() -> Vec<Case> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/shapes");
    sorted_entries(&root)
        .into_iter()
        .filter(|p| p.is_dir())
        .map(|dir| Case::load(&dir))
        .collect()
}

/// Collects failures and reports them all at once.
#[derive(Default)]
struct Failures(Vec<String>);

impl Failures {
    fn add(&mut self, case: &Case, what: String) {
        self.0.push(format!("{}: {what}", case.name));
    }

    fn check_notes(&mut self, case: &Case, what: &str, path: PathBuf, got: &[String]) {
        let want = read_lines(path.exists().then_some(&path));
        if got.iter().any(|note| note.contains('\n')) {
            self.add(case, format!("{what}: a note holds a line break: {got:?}"));
        } else if got != want {
            if writing() {
                write_lines(&path, got);
            } else {
                self.add(
                    case,
                    format!("{what} notes\n  want {want:#?}\n  got  {got:#?}"),
                );
            }
        }
    }

    fn finish(self, checked: &str) {
        assert!(
            self.0.is_empty(),
            "{} {checked} failed:\n\n{}",
            self.0.len(),
            self.0.join("\n\n")
        );
    }
}

/// Every folder's layout means something, and there are enough of them.
#[test]
fn case_folders_are_well_formed() {
    let cases = cases();
    assert!(cases.len() >= 40, "only {} case folders", cases.len());
    let mut failures = Failures::default();
    for case in cases {
        for error in case.layout_errors() {
            failures.add(&case, error);
        }
    }
    failures.finish("layout checks");
}

/// Each read document converts to every written one of its case, exactly,
/// with the notes listed; and the conversions a case refuses fail with the
/// message listed.
#[test]
fn documents_convert_to_each_other() {
    let mut failures = Failures::default();
    for case in cases() {
        for from in case.read_documents() {
            let Some(input) = &from.value else { continue };
            for to in case.written_documents() {
                if to.path == from.path {
                    continue; // its round trip, below
                }
                let what = format!("{}.json -> {}.json", from.stem, to.stem);
                match case.convert(input, Some(from.shape), to.shape) {
                    Outcome::Refused(error) => {
                        failures.add(&case, format!("{what} refused: {error}"));
                    }
                    Outcome::Converted { value, notes, .. } => {
                        let same = to.value.as_ref().map(compact) == Some(compact(&value));
                        if !same {
                            if writing() && to.role == Role::Written {
                                fs::write(&to.path, pretty(&value)).expect("write");
                            } else {
                                let want = to.value.clone().unwrap_or(Value::Null);
                                failures
                                    .add(&case, format!("{what}: {}", difference(&want, &value)));
                            }
                        }
                        let path = case.notes_path(&from.name, &to.name);
                        failures.check_notes(&case, &what, path, &notes);
                    }
                }
            }
        }
        for ((from, to), path) in &case.refusals {
            let Some(input) = case.read(from).and_then(|d| d.value.as_ref()) else {
                continue;
            };
            let want = read_text(path);
            let want = want.strip_suffix('\n').unwrap_or(&want);
            let what = format!("{from} -> {to}");
            match case.convert(input, Some(shape_named(from, path)), shape_named(to, path)) {
                Outcome::Refused(error) if error == want => {}
                Outcome::Refused(error) if writing() => {
                    fs::write(path, format!("{error}\n")).expect("write");
                }
                Outcome::Refused(error) => failures.add(
                    &case,
                    format!("{what} refused otherwise\n  want {want:?}\n  got  {error:?}"),
                ),
                Outcome::Converted { value, .. } => failures.add(
                    &case,
                    format!("{what} converted, to {}; want it refused", compact(&value)),
                ),
            }
        }
    }
    failures.finish("conversions");
}

/// Each written document comes back as itself: converted to its own shape,
/// and through the canonical form, where the two steps say what the one
/// says. A document both read and written gives the notes of
/// `<shape>.<shape>.notes.txt` (none without it). A `<shape>.in.json` beside
/// a `<shape>.out.json` gives it through the canonical form too (saying what
/// it says straight, or what `<shape>.via-canonical.notes.txt` lists).
#[test]
fn documents_round_trip() {
    let mut failures = Failures::default();
    for case in cases() {
        for document in case.written_documents() {
            round_trip(&case, document, document, &mut failures);
            if let Some(read) = case.read(&document.name) {
                if read.path != document.path {
                    round_trip(&case, read, document, &mut failures);
                }
            }
        }
    }
    failures.finish("round trips");
}

/// `from` (of `to`'s shape) gives `to`, directly and through canonical.
fn round_trip(case: &Case, from: &Document, to: &Document, failures: &mut Failures) {
    let (Some(input), Some(output)) = (&from.value, &to.value) else {
        return;
    };
    let want = compact(output);
    let shape = to.shape;
    let name = &to.name;
    let what = format!("{}.json -> {name}", from.stem);
    let direct = match case.convert(input, Some(shape), shape) {
        Outcome::Converted { value, notes, .. } => (compact(&value), notes),
        Outcome::Refused(error) => {
            failures.add(case, format!("{what} refused: {error}"));
            return;
        }
    };
    if direct.0 != want {
        let got: Value = serde_json::from_str(&direct.0).expect("JSON");
        failures.add(
            case,
            format!(
                "{what} is not {}.json: {}",
                to.stem,
                difference(output, &got)
            ),
        );
    }
    if from.role.is_read() {
        failures.check_notes(case, &what, case.notes_path(name, name), &direct.1);
    }
    if shape == Shape::Canonical {
        return;
    }
    let what = format!("{}.json -> canonical -> {name}", from.stem);
    let there = case.convert(input, Some(shape), Shape::Canonical);
    let back = match &there {
        Outcome::Converted { value, .. } => case.convert(value, Some(Shape::Canonical), shape),
        Outcome::Refused(error) => Outcome::Refused(error.clone()),
    };
    match (there, back) {
        (
            Outcome::Converted { notes: first, .. },
            Outcome::Converted {
                value,
                notes: second,
                ..
            },
        ) => {
            if compact(&value) != want {
                failures.add(
                    case,
                    format!(
                        "{what} is not {}.json: {}",
                        to.stem,
                        difference(output, &value)
                    ),
                );
            }
            // The two steps say what the one says, unless
            // `<shape>.via-canonical.notes.txt` says otherwise (a note on
            // what an input lacked may only be made reading it straight).
            let both: Vec<String> = first.into_iter().chain(second).collect();
            let own = case.dir.join(format!("{name}.via-canonical.notes.txt"));
            if from.path != to.path && own.exists() {
                failures.check_notes(case, &what, own, &both);
            } else if both != direct.1 {
                failures.add(
                    case,
                    format!(
                        "{what} says other than {name} -> {name}\n  want {:#?}\n  got  {both:#?}",
                        direct.1
                    ),
                );
            }
        }
        (_, Outcome::Refused(error)) | (Outcome::Refused(error), _) => {
            failures.add(case, format!("{what} refused: {error}"));
        }
    }
}

/// Each read document is recognized as its own shape without a guess, or as
/// its `<file>.detected.txt` says: the shape detection settles on (or
/// `error: <message>`), then the notes detection adds, one a line.
#[test]
fn documents_are_detected() {
    let mut failures = Failures::default();
    for case in cases() {
        for document in case.read_documents() {
            let Some(input) = &document.value else {
                continue;
            };
            if case.unreadable(document) {
                continue;
            }
            let want = match case.detections.get(&document.stem) {
                Some(path) => read_lines(Some(path)),
                None => vec![document.name.clone()],
            };
            let got = match case.convert(input, None, Shape::Canonical) {
                Outcome::Refused(error) => vec![format!("error: {error}")],
                Outcome::Converted { notes, source, .. } => {
                    // Detection's notes come first, then those of reading
                    // the document as the shape it settled on.
                    let read = match case.convert(input, Some(source), Shape::Canonical) {
                        Outcome::Converted { notes, .. } => notes,
                        Outcome::Refused(_) => Vec::new(),
                    };
                    let own = notes.len().saturating_sub(read.len());
                    let mut lines = vec![source.to_string()];
                    lines.extend(notes[..own].iter().cloned());
                    lines
                }
            };
            if got != want {
                if writing() {
                    let path = case.dir.join(format!("{}.detected.txt", document.stem));
                    let default = got == [document.name.clone()];
                    write_lines(&path, if default { &[] } else { &got });
                } else {
                    failures.add(
                        &case,
                        format!(
                            "{}.json detected otherwise\n  want {want:#?}\n  got  {got:#?}",
                            document.stem
                        ),
                    );
                }
            }
        }
    }
    failures.finish("detections");
}

/// Each document of a shape `validate` reads gives exactly the findings of
/// its `<file>.findings.txt` (`rule pointer`, one a line; none without it).
#[test]
fn documents_validate_as_listed() {
    let mut failures = Failures::default();
    for case in cases() {
        for document in &case.documents {
            let Some(value) = &document.value else {
                continue;
            };
            if !VALIDATED.contains(&document.name.as_str()) {
                continue;
            }
            let got: Vec<String> = findings(document.shape, &compact(value))
                .into_iter()
                .map(|(rule, pointer)| {
                    let mut line = rule.to_string();
                    if !pointer.is_empty() {
                        let _ = write!(line, " {pointer}");
                    }
                    line
                })
                .collect();
            let want = read_lines(case.findings.get(&document.stem));
            if got != want {
                if writing() {
                    let path = case.dir.join(format!("{}.findings.txt", document.stem));
                    write_lines(&path, &got);
                } else {
                    failures.add(
                        &case,
                        format!(
                            "{}.json findings\n  want {want:#?}\n  got  {got:#?}",
                            document.stem
                        ),
                    );
                }
            }
        }
    }
    failures.finish("validations");
}
