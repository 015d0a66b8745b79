//! `partkit resize`: image files and JSON documents in, results out.
//!
//! The engine is [`crate::resize`] ([`resize_image`] for one image's bytes,
//! [`resize_document`] for a JSON document); this module reads the inputs
//! (files or stdin, an image or JSON / JSON Lines, told apart by their
//! content), writes the results (stdout, `-o`, `--out-dir`, `--in-place`:
//! always through a temporary file renamed into place, so no file is ever left
//! half written), and reports each image on stderr.

use std::collections::BTreeMap;
use std::fs;
use std::io::{self, BufRead, BufWriter, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rayon::prelude::*;

pub use crate::resize::document::{
    resize_document, resize_document_at, DocumentImage, ResizedDocument,
};
pub use crate::resize::{resize_image, ResizeError, ResizeOptions, Resized};

use crate::accounting::{OnError, Tally};
use crate::error::{Error, ExitStatus, Result};
use crate::io::{write_atomic, Input};
use crate::output::Printer;
use crate::resize::{sniff_format, Format};

/// Where results go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Destination {
    /// Standard output (one image, or JSON documents).
    Stdout,
    /// This file (one input).
    File(PathBuf),
    /// This folder, under each input's name.
    Dir(PathBuf),
    /// Over each input that changed.
    InPlace,
}

/// How each image is reported on stderr.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ReportStyle {
    /// A line a person reads (silenced by `--quiet`).
    #[default]
    Text,
    /// One JSON object per image.
    Json,
}

/// Everything `partkit resize` was asked.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// Paths; `-` (or none at all) is stdin.
    pub inputs: Vec<PathBuf>,
    pub resize: ResizeOptions,
    pub destination: Destination,
    pub report: ReportStyle,
    /// Read JSON inputs as JSON Lines.
    pub jsonl: bool,
    /// Resize only the images inside the values at these pointers.
    pub at: crate::subdoc::At,
    /// What a JSON document that fails becomes.
    pub on_error: crate::accounting::OnError,
}

/// How many JSON Lines documents are resized together.
const BATCH_LINES: usize = 64;
const BATCH_BYTES: usize = 64 << 20;

/// Runs `partkit resize` over its inputs; reports go to stderr through `printer`.
pub fn run(options: &RunOptions, printer: &Printer) -> Result<ExitStatus> {
    let inputs: Vec<Input> = if options.inputs.is_empty() {
        vec![Input::Stdin]
    } else {
        options.inputs.iter().map(Input::from_arg).collect()
    };
    check_arguments(&inputs, options)?;
    if let Destination::Dir(dir) = &options.destination {
        fs::create_dir_all(dir).map_err(|source| Error::Write {
            path: dir.clone(),
            source,
        })?;
    }
    let total: u64 = inputs.iter().map(|i| i.file_len().unwrap_or(0)).sum();
    let bar = printer.progress(total.max(1), "resizing");
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{spinner} {msg} {bar:30} {bytes}/{total_bytes} [{elapsed}]",
    ) {
        bar.set_style(style);
    }
    let emit = |line: Line| {
        bar.suspend(|| match line {
            Line::Note(text) => printer.note(&text),
            Line::Warn(text) => printer.warn(&text),
            Line::Error(text) => printer.error(&text),
            Line::Json(value) => {
                let _ = writeln!(io::stderr().lock(), "{value}");
            }
        })
    };
    let status = if options.destination == Destination::Stdout {
        // One image, or documents printed in order: reports as they come.
        let mut worst = ExitStatus::Success;
        let mut report = |line: Line| emit(line);
        for input in &inputs {
            let status = run_input(input, options, &mut report, &|n| bar.inc(n));
            worst = worse(worst, status);
        }
        worst
    } else {
        // Independent files: several at once, reports still in input order.
        let order = Mutex::new((0usize, BTreeMap::new()));
        let statuses: Vec<ExitStatus> = inputs
            .par_iter()
            .enumerate()
            .map(|(index, input)| {
                let mut lines = Vec::new();
                let status = run_input(input, options, &mut |line| lines.push(line), &|n| {
                    bar.inc(n)
                });
                let mut order = order.lock().unwrap_or_else(|e| e.into_inner());
                order.1.insert(index, lines);
                loop {
                    let next = order.0;
                    let Some(lines) = order.1.remove(&next) else {
                        break;
                    };
                    lines.into_iter().for_each(emit);
                    order.0 += 1;
                }
                status
            })
            .collect();
        statuses.into_iter().fold(ExitStatus::Success, worse)
    };
    bar.finish_and_clear();
    Ok(status)
}

fn worse(a: ExitStatus, b: ExitStatus) -> ExitStatus {
    let rank = |s: ExitStatus| match s {
        ExitStatus::Success => 0,
        ExitStatus::Failure => 1,
        ExitStatus::Error => 2,
    };
    if rank(b) > rank(a) {
        b
    } else {
        a
    }
}

/// Refuses what cannot run before anything is read or written.
fn check_arguments(inputs: &[Input], options: &RunOptions) -> Result<()> {
    let stdin = inputs.iter().filter(|i| **i == Input::Stdin).count();
    if stdin > 1 {
        return Err(Error::usage("stdin (-) can be read only once"));
    }
    match &options.destination {
        Destination::File(_) if inputs.len() > 1 => {
            return Err(Error::usage(
                "-o takes one input; use --out-dir or --in-place for several",
            ))
        }
        Destination::Dir(_) if stdin > 0 => {
            return Err(Error::usage(
                "--out-dir names results after their inputs; use -o FILE for stdin",
            ))
        }
        Destination::InPlace if options.on_error == OnError::Null => {
            return Err(Error::usage(
                "--in-place with --on-error null would write null over lines of the input; write to -o or --out-dir instead",
            ))
        }
        Destination::InPlace if stdin > 0 => {
            return Err(Error::usage(
                "--in-place rewrites files; it cannot rewrite stdin",
            ))
        }
        Destination::Dir(dir) => {
            let mut names = BTreeMap::new();
            for input in inputs {
                if let Input::Path(path) = input {
                    if let Some(name) = path.file_name() {
                        if let Some(other) = names.insert(name.to_os_string(), path.clone()) {
                            return Err(Error::usage(format!(
                                "{} and {} would both be written to {}",
                                other.display(),
                                path.display(),
                                dir.join(name).display()
                            )));
                        }
                    }
                }
            }
        }
        Destination::Stdout if inputs.len() > 1 => {
            // Several images cannot share stdout; documents can.
            for input in inputs {
                if let Input::Path(path) = input {
                    if peek_is_image(path) {
                        return Err(Error::usage(format!(
                            "{}: an image among several inputs needs --out-dir, --in-place or -o",
                            path.display()
                        )));
                    }
                }
            }
        }
        _ => {}
    }
    Ok(())
}

fn peek_is_image(path: &Path) -> bool {
    let mut prefix = [0u8; 32];
    let Ok(mut file) = fs::File::open(path) else {
        return false;
    };
    let n = file.read(&mut prefix).unwrap_or(0);
    sniff_format(&prefix[..n]).is_ok()
}

/// One report line, held until it can be printed in input order.
enum Line {
    Note(String),
    Warn(String),
    Error(String),
    Json(serde_json::Value),
}

type Report<'r> = &'r mut dyn FnMut(Line);
type Progress<'p> = &'p (dyn Fn(u64) + Sync);

/// What a report line names: the input, a JSON Lines line, a JSON pointer.
struct Where<'a> {
    label: &'a str,
    line: Option<usize>,
    pointer: Option<&'a str>,
}

impl Where<'_> {
    fn text(&self) -> String {
        let mut text = self.label.to_string();
        if let Some(line) = self.line {
            text.push_str(&format!(":{line}"));
        }
        if let Some(pointer) = self.pointer {
            text.push_str(&format!(
                " {}",
                if pointer.is_empty() { "/" } else { pointer }
            ));
        }
        text
    }
}

/// Reports one image.
fn report_image(
    style: ReportStyle,
    at: &Where<'_>,
    result: &std::result::Result<Resized, ResizeError>,
    output: Option<&Path>,
    quiet_unchanged: bool,
    report: Report<'_>,
) {
    if let Ok(resized) = result {
        for warning in &resized.warnings {
            report(Line::Warn(format!("{}: {warning}", at.text())));
        }
    }
    if style == ReportStyle::Json {
        let mut value = serde_json::json!({ "input": at.label });
        if let Some(line) = at.line {
            value["line"] = line.into();
        }
        if let Some(pointer) = at.pointer {
            value["pointer"] = pointer.into();
        }
        match result {
            Ok(resized) => {
                value["status"] = if resized.changed() {
                    "resized"
                } else {
                    "unchanged"
                }
                .into();
                value["before"] = resized.before.to_json();
                value["after"] = resized.after.to_json();
                if resized.changed() {
                    value["reasons"] = resized.reasons.clone().into();
                    value["encodes"] = resized.encodes.into();
                    value["seconds"] = ((resized.seconds * 1000.0).round() / 1000.0).into();
                    if let Some(output) = output {
                        value["output"] = output.display().to_string().into();
                    }
                }
            }
            Err(error) => {
                value["status"] = "error".into();
                value["error"] = error.to_string().into();
            }
        }
        report(Line::Json(value));
        if let Err(error) = result {
            report(Line::Error(format!("{}: {error}", at.text())));
        }
        return;
    }
    match result {
        Ok(resized) if resized.changed() => {
            let written = output
                .map(|p| format!(", written to {}", p.display()))
                .unwrap_or_default();
            report(Line::Note(format!(
                "{}: {} → {} ({}; {} encode{}, {:.2} s{written})",
                at.text(),
                resized.before.describe(),
                resized.after.describe(),
                resized.reasons.join(", "),
                resized.encodes,
                if resized.encodes == 1 { "" } else { "s" },
                resized.seconds
            )));
        }
        Ok(resized) => {
            if !quiet_unchanged {
                report(Line::Note(format!(
                    "{}: {}: within every cap, unchanged",
                    at.text(),
                    resized.before.describe()
                )));
            }
        }
        Err(error) => report(Line::Error(format!("{}: {error}", at.text()))),
    }
}

fn write_error(path: &Path) -> impl Fn(io::Error) -> Error + '_ {
    move |source| Error::Write {
        path: path.to_path_buf(),
        source,
    }
}

/// Reads one input and resizes what it holds; returns its status.
fn run_input(
    input: &Input,
    options: &RunOptions,
    report: Report<'_>,
    progress: Progress<'_>,
) -> ExitStatus {
    let label = input.label();
    let outcome = (|| -> Result<ExitStatus> {
        let mut reader = input.open()?;
        let mut prefix = Vec::with_capacity(32);
        (&mut reader)
            .take(32)
            .read_to_end(&mut prefix)
            .map_err(|source| Error::Read {
                path: match input {
                    Input::Path(p) => p.clone(),
                    Input::Stdin => PathBuf::from("-"),
                },
                source,
            })?;
        let reader: Box<dyn BufRead + Send> = Box::new(io::BufReader::with_capacity(
            1 << 16,
            io::Cursor::new(prefix.clone()).chain(reader),
        ));
        if sniff_format(&prefix).is_ok() {
            let mut bytes = Vec::new();
            let mut reader = reader;
            reader
                .read_to_end(&mut bytes)
                .map_err(|source| Error::Read {
                    path: PathBuf::from(&label),
                    source,
                })?;
            progress(bytes.len() as u64);
            run_image(input, &label, bytes, options, report)
        } else {
            run_json(input, &label, reader, options, report, progress)
        }
    })();
    match outcome {
        Ok(status) => status,
        Err(error) => {
            let status = if error.exit_code() == 1 {
                ExitStatus::Failure
            } else {
                ExitStatus::Error
            };
            report(Line::Error(format!("{:#}", anyhow::Error::from(error))));
            status
        }
    }
}

/// Resizes one image file and writes the result where it goes.
fn run_image(
    input: &Input,
    label: &str,
    bytes: Vec<u8>,
    options: &RunOptions,
    report: Report<'_>,
) -> Result<ExitStatus> {
    let at = Where {
        label,
        line: None,
        pointer: None,
    };
    if options.destination == Destination::Stdout && io::stdout().is_terminal() {
        return Err(Error::usage(format!(
            "{label}: refusing to write an image to a terminal; use -o FILE, --out-dir DIR or --in-place, or redirect stdout"
        )));
    }
    let result = resize_image(&bytes, &options.resize);
    let Ok(resized) = &result else {
        report_image(options.report, &at, &result, None, false, report);
        return Ok(ExitStatus::Failure);
    };
    let new_bytes = resized.bytes.as_deref().unwrap_or(&bytes);
    let format = resized.after.format;
    let written: Option<PathBuf> = match &options.destination {
        Destination::Stdout => {
            let stdout = io::stdout();
            let mut out = stdout.lock();
            out.write_all(new_bytes)
                .and_then(|_| out.flush())
                .map_err(write_error(Path::new("<stdout>")))?;
            None
        }
        Destination::File(path) => {
            write_atomic(path, new_bytes)?;
            let named = crate::media::extension_of_path(path)
                .as_deref()
                .and_then(crate::media::from_extension);
            if named.is_some_and(|t| t != format.media_type()) {
                report(Line::Warn(format!(
                    "{}: content is {}, not {}",
                    path.display(),
                    format.media_type(),
                    named.unwrap_or_default()
                )));
            }
            Some(path.clone())
        }
        Destination::Dir(dir) => {
            let Input::Path(path) = input else {
                return Err(Error::usage("--out-dir needs a named input"));
            };
            let target = dir.join(renamed(path, resized.before.format, format));
            write_atomic(&target, new_bytes)?;
            Some(target)
        }
        Destination::InPlace => {
            let Input::Path(path) = input else {
                return Err(Error::usage("--in-place cannot rewrite stdin"));
            };
            if !resized.changed() {
                None
            } else {
                let target = path.with_file_name(renamed(path, resized.before.format, format));
                if target != *path && target.exists() {
                    return Err(Error::Write {
                        path: target.clone(),
                        source: io::Error::new(
                            io::ErrorKind::AlreadyExists,
                            format!(
                                "{} is now {}, and {} exists already",
                                path.display(),
                                format.name(),
                                target.display()
                            ),
                        ),
                    });
                }
                write_atomic(&target, new_bytes)?;
                if target != *path {
                    fs::remove_file(path).map_err(write_error(path))?;
                }
                Some(target)
            }
        }
    };
    report_image(
        options.report,
        &at,
        &result,
        written.as_deref(),
        false,
        report,
    );
    Ok(ExitStatus::Success)
}

/// The file name of a result: the input's, with the extension of a new format.
fn renamed(path: &Path, before: Format, after: Format) -> std::ffi::OsString {
    let name = path.file_name().unwrap_or_default();
    if before == after {
        return name.to_os_string();
    }
    let stem = Path::new(name).file_stem().unwrap_or(name);
    let mut out = stem.to_os_string();
    out.push(".");
    out.push(after.extension());
    out
}

/// Where the documents of a JSON input are written.
enum Out {
    Stdout(BufWriter<io::StdoutLock<'static>>),
    /// A temporary file beside the target, renamed over it once all is well.
    Temp {
        file: BufWriter<tempfile::NamedTempFile>,
        target: PathBuf,
    },
}

impl Out {
    fn open(target: &Path) -> Result<Out> {
        let dir = match target.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        let file = tempfile::Builder::new()
            .prefix(".partkit-")
            .suffix(".tmp")
            .tempfile_in(dir)
            .map_err(write_error(target))?;
        Ok(Out::Temp {
            file: BufWriter::with_capacity(1 << 20, file),
            target: target.to_path_buf(),
        })
    }

    fn write(&mut self, bytes: &[u8]) -> Result<()> {
        match self {
            Out::Stdout(out) => out
                .write_all(bytes)
                .map_err(write_error(Path::new("<stdout>"))),
            Out::Temp { file, target } => file.write_all(bytes).map_err(write_error(target)),
        }
    }

    /// Finishes the output: flushes stdout, or renames the temporary file over
    /// the target (keeping the target's permissions).
    fn commit(self) -> Result<()> {
        match self {
            Out::Stdout(mut out) => out.flush().map_err(write_error(Path::new("<stdout>"))),
            Out::Temp { file, target } => {
                let error = write_error(&target);
                let file = file.into_inner().map_err(|e| error(e.into_error()))?;
                file.as_file().sync_all().map_err(&error)?;
                if let Ok(metadata) = fs::metadata(&target) {
                    file.as_file()
                        .set_permissions(metadata.permissions())
                        .map_err(&error)?;
                }
                file.persist(&target).map_err(|e| error(e.error))?;
                Ok(())
            }
        }
    }
}

/// Resizes the images of a JSON or JSON Lines input, document by document.
fn run_json(
    input: &Input,
    label: &str,
    mut reader: Box<dyn BufRead + Send>,
    options: &RunOptions,
    report: Report<'_>,
    progress: Progress<'_>,
) -> Result<ExitStatus> {
    let read_error = |source| Error::Read {
        path: match input {
            Input::Path(p) => p.clone(),
            Input::Stdin => PathBuf::from("-"),
        },
        source,
    };
    let target = match (&options.destination, input) {
        (Destination::Stdout, _) => None,
        (Destination::File(path), _) => Some(path.clone()),
        (Destination::Dir(dir), Input::Path(path)) => {
            Some(dir.join(path.file_name().unwrap_or_default()))
        }
        (Destination::InPlace, Input::Path(path)) => Some(path.clone()),
        _ => return Err(Error::usage("stdin can only go to stdout or -o")),
    };
    let mut out = match &target {
        None => Out::Stdout(BufWriter::with_capacity(1 << 20, io::stdout().lock())),
        Some(path) => Out::open(path)?,
    };
    let mut lines = RawLines::new(&mut reader);
    let mut status = ExitStatus::Success;
    let (mut images, mut resized, mut documents) = (0usize, 0usize, 0usize);
    // The first document tells JSON from JSON Lines.
    let mut pending = Vec::new();
    let first = lines.next_line(&mut pending).map_err(read_error)?;
    let Some(first_line) = first else {
        // No document at all (an empty partition of a job): nothing to do.
        if options.destination != Destination::InPlace {
            out.commit()?;
        }
        return Ok(ExitStatus::Success);
    };
    let complete = serde_json::from_slice::<serde::de::IgnoredAny>(content(&pending)).is_ok();
    let mut gap = Vec::new();
    let single =
        !options.jsonl && (!complete || !lines.skip_blank(&mut gap).map_err(read_error)?);
    let mut changed = false;
    let mut tally = Tally::new(options.on_error);
    // A failed document, reported already: its stand-in as --on-error says.
    let fail = |tally: &mut Tally, tail: &[u8], out: &mut Out| -> Result<ExitStatus> {
        let mut stand_in = Vec::new();
        tally
            .failed(Some(&mut stand_in))
            .expect("writing into memory cannot fail");
        match stand_in.strip_suffix(b"\n") {
            // `null`, with the line's own line break.
            Some(null) => {
                out.write(null)?;
                out.write(tail)?;
                Ok(ExitStatus::Success)
            }
            None => Ok(ExitStatus::Failure),
        }
    };
    let mut handle = |line: usize,
                      doc: &[u8],
                      tail: &[u8],
                      result: std::result::Result<ResizedDocument, String>,
                      out: &mut Out,
                      tally: &mut Tally,
                      report: &mut dyn FnMut(Line)|
     -> Result<ExitStatus> {
        documents += 1;
        let at_line = (!single).then_some(line);
        let resized_doc = match result {
            Ok(doc) => doc,
            Err(error) => {
                let at = Where {
                    label,
                    line: at_line,
                    pointer: None,
                };
                report(Line::Error(format!("{}: {error}", at.text())));
                return fail(tally, tail, out);
            }
        };
        let mut failed = false;
        for image in &resized_doc.images {
            images += 1;
            let at = Where {
                label,
                line: at_line,
                pointer: Some(&image.pointer),
            };
            if image.result.as_ref().is_ok_and(Resized::changed) {
                resized += 1;
            }
            failed |= image.result.is_err();
            report_image(options.report, &at, &image.result, None, true, report);
        }
        if failed {
            return fail(tally, tail, out);
        }
        match &resized_doc.output {
            Some(new) => {
                changed = true;
                out.write(new)?;
            }
            None => out.write(doc)?,
        }
        out.write(tail)?;
        tally.wrote();
        Ok(ExitStatus::Success)
    };
    if single {
        let mut bytes = pending;
        bytes.extend_from_slice(&gap);
        reader_rest(&mut lines, &mut bytes).map_err(read_error)?;
        progress(bytes.len() as u64);
        let result = resize_document_at(&bytes, &options.at, &options.resize);
        let doc_status = handle(
            first_line, &bytes, b"", result, &mut out, &mut tally, report,
        )?;
        status = worse(status, doc_status);
        if target.is_none() && !bytes.ends_with(b"\n") && doc_status == ExitStatus::Success {
            out.write(b"\n")?;
        }
    } else {
        let mut batch: Vec<(usize, Vec<u8>)> = vec![(first_line, pending)];
        if !gap.is_empty() {
            batch.push((0, gap));
        }
        let mut batch_bytes = batch.iter().map(|(_, raw)| raw.len()).sum();
        let mut done = false;
        while !done && !tally.stopped {
            while batch.len() < BATCH_LINES && batch_bytes < BATCH_BYTES {
                let mut raw = Vec::new();
                match lines.next_raw(&mut raw).map_err(read_error)? {
                    Some(line) => {
                        batch_bytes += raw.len();
                        batch.push((line, raw));
                    }
                    None => {
                        done = true;
                        break;
                    }
                }
            }
            let results: Vec<Option<std::result::Result<ResizedDocument, String>>> = batch
                .par_iter()
                .map(|(_, raw)| {
                    let doc = content(raw);
                    (!doc.iter().all(u8::is_ascii_whitespace))
                        .then(|| resize_document_at(doc, &options.at, &options.resize))
                })
                .collect();
            for ((line, raw), result) in batch.iter().zip(results) {
                if tally.stopped {
                    break;
                }
                progress(raw.len() as u64);
                let doc = content(raw);
                match result {
                    None => out.write(raw)?,
                    Some(result) => {
                        let tail = &raw[doc.len()..];
                        let doc_status =
                            handle(*line, doc, tail, result, &mut out, &mut tally, report)?;
                        status = worse(status, doc_status);
                    }
                }
            }
            batch.clear();
            batch_bytes = 0;
        }
    }
    if status == ExitStatus::Success || target.is_none() {
        let in_place_unchanged = options.destination == Destination::InPlace && !changed;
        if !in_place_unchanged {
            out.commit()?;
        }
    }
    if !single {
        report(Line::Note(format!("{label}: {}", tally.summary(None))));
    }
    if options.report == ReportStyle::Text && status == ExitStatus::Success {
        let what = if documents == 1 {
            String::new()
        } else {
            format!(" in {documents} documents")
        };
        let summary = match (images, resized) {
            (0, _) => format!("{label}: no embedded images"),
            (n, 0) => format!(
                "{label}: {n} image{}{what}, all within every cap",
                plural(n)
            ),
            (n, r) => format!("{label}: resized {r} of {n} image{}{what}", plural(n)),
        };
        report(Line::Note(summary));
    }
    Ok(status)
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// A line without its line break (`\n` or `\r\n`).
fn content(raw: &[u8]) -> &[u8] {
    let mut end = raw.len();
    if end > 0 && raw[end - 1] == b'\n' {
        end -= 1;
        if end > 0 && raw[end - 1] == b'\r' {
            end -= 1;
        }
    }
    &raw[..end]
}

/// Appends the rest of the input.
fn reader_rest(lines: &mut RawLines<'_>, bytes: &mut Vec<u8>) -> io::Result<()> {
    lines.reader.read_to_end(bytes).map(|_| ())
}

/// Lines exactly as written (line breaks kept), so that a JSON Lines file comes
/// back byte for byte where nothing changed.
struct RawLines<'r> {
    reader: &'r mut Box<dyn BufRead + Send>,
    line: usize,
}

impl<'r> RawLines<'r> {
    fn new(reader: &'r mut Box<dyn BufRead + Send>) -> RawLines<'r> {
        RawLines { reader, line: 0 }
    }

    /// The next line (blank or not), appended to `raw`; its number.
    fn next_raw(&mut self, raw: &mut Vec<u8>) -> io::Result<Option<usize>> {
        let n = self.reader.read_until(b'\n', raw)?;
        if n == 0 {
            return Ok(None);
        }
        self.line += 1;
        Ok(Some(self.line))
    }

    /// Appends lines to `raw` up to and including the first one that is not
    /// blank; that line's number.
    fn next_line(&mut self, raw: &mut Vec<u8>) -> io::Result<Option<usize>> {
        loop {
            let start = raw.len();
            match self.next_raw(raw)? {
                None => return Ok(None),
                Some(line) if raw[start..].iter().any(|b| !b.is_ascii_whitespace()) => {
                    return Ok(Some(line))
                }
                Some(_) => {}
            }
        }
    }

    /// Moves the whitespace that follows into `kept`; whether anything else is left.
    fn skip_blank(&mut self, kept: &mut Vec<u8>) -> io::Result<bool> {
        loop {
            let chunk = self.reader.fill_buf()?;
            if chunk.is_empty() {
                return Ok(false);
            }
            let blank = chunk
                .iter()
                .position(|b| !b.is_ascii_whitespace())
                .unwrap_or(chunk.len());
            kept.extend_from_slice(&chunk[..blank]);
            self.line += chunk[..blank].iter().filter(|b| **b == b'\n').count();
            let more = blank < chunk.len();
            self.reader.consume(blank);
            if more {
                return Ok(true);
            }
        }
    }
}
