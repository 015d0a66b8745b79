//! The documents of a JSON or JSON Lines input, resized in batches and
//! written back byte for byte where nothing changed (blank lines, line
//! breaks and every byte of an unchanged line kept).

use std::fs::File;
use std::io::{self, BufRead, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;

use super::document::{resize_document_at, unchanged_file, DocumentImage, ResizedDocument};
use super::report::{report_image, Emit, Report, ReportStyle, Where};
use super::run::{Destination, InputFile, Out, RunOptions, Sink};
use super::Resized;
use crate::accounting::{worse, Tally};
use crate::document::{Document, Open};
use crate::error::{Error, ExitStatus, Result};
use crate::io::replace::{Replacement, Seen};
use crate::io::Input;

/// How many JSON Lines documents are resized together.
const BATCH_LINES: usize = 64;
const BATCH_BYTES: usize = 16 << 20;

/// Resizes the images of a JSON or JSON Lines input, document by document.
pub(super) fn run_json(
    input: &Input,
    label: &str,
    mut reader: Box<dyn BufRead + Send>,
    options: &RunOptions,
    in_place: Option<(PathBuf, Seen)>,
    report: Emit<'_>,
    sink: &dyn Sink,
) -> Result<ExitStatus> {
    let out = match (&options.destination, input) {
        (Destination::Stdout, _) => Out::Stdout(sink.stdout()),
        (Destination::File(path), _) => Out::open(Replacement::new(path)?),
        (Destination::Dir(dir), Input::Path(path)) => Out::open(Replacement::in_folder(
            &dir.join(path.file_name().unwrap_or_default()),
        )?),
        (Destination::InPlace, Input::Path(_)) => match in_place {
            Some((path, seen)) => Out::open(Replacement::in_place(&path, seen)?),
            None => return Err(Error::usage("--in-place needs a file")),
        },
        _ => return Err(Error::usage("stdin can only go to stdout or -o")),
    };
    let to_stdout = matches!(out, Out::Stdout(_));
    let new_stream = |single: bool, out| Stream {
        label,
        options,
        single,
        to_stdout,
        out,
        leading: None,
        tally: Tally::new(options.on_error),
        status: ExitStatus::Success,
        documents: 0,
        images: 0,
        resized: 0,
        changed: false,
    };
    if let Some((file, seen, images)) = unchanged_large_file(input, options) {
        let mut stream = new_stream(true, out);
        let file = InputFile {
            file: &file,
            path: &input.error_path(),
            seen: Some(seen),
        };
        stream.unchanged_file(&file, images, report, sink)?;
        return stream.finish(report);
    }
    let mut lines = RawLines::new(&mut reader, input, options.max_document);
    // The first document tells JSON from JSON Lines. Blank lines before it
    // are kept as a gap is (they come first both ways), and dropped when no
    // document follows or a single document fails.
    let mut pending = Vec::new();
    let mut leading = Gap::default();
    let first = lines.next_line(&mut pending, &mut leading)?;
    let Some(first_line) = first else {
        // No document at all (an empty partition of a job): nothing to do.
        if options.destination != Destination::InPlace {
            out.commit()?;
        }
        return Ok(ExitStatus::Success);
    };
    let complete = serde_json::from_slice::<serde::de::IgnoredAny>(content(&pending)).is_ok();
    let mut gap = Gap::default();
    let single = !options.jsonl && (!complete || !lines.skip_blank(&mut gap)?);
    let mut stream = new_stream(single, out);
    if single {
        stream.leading = Some(leading);
    } else {
        stream.tally.kept_blank(leading.breaks);
        leading.write_to(&mut stream.out)?;
        drop(leading);
    }
    if single && !complete {
        // A document over several lines: the rest of the input is its rest.
        let mut bytes = pending;
        // Room for the whole file at once: grown by doubling, the buffer was
        // copied and faulted in twice over.
        if let Some(len) = input.file_len() {
            let len = len.min(options.max_document) as usize;
            bytes.reserve(len.saturating_sub(bytes.len()) + 1);
        }
        lines.read_rest(&mut bytes, first_line)?;
        stream.single(first_line, bytes, &gap, report, sink)?;
    } else if single {
        // One document on its line, and only white space after it.
        stream.single(first_line, pending, &gap, report, sink)?;
    } else {
        stream.lines((first_line, pending), gap, &mut lines, report, sink)?;
    }
    stream.finish(report)
}

/// A document's bytes: in memory, or all of a file.
#[derive(Clone, Copy)]
enum Doc<'a> {
    Bytes(&'a [u8]),
    File(&'a InputFile<'a>),
}

/// The error of a failed read of the input `label` names.
fn read_error_of(label: &str) -> impl Fn(io::Error) -> Error + '_ {
    move |source| Error::Read {
        path: PathBuf::from(label),
        source,
    }
}

/// A large JSON file (one document) whose images are all within every cap,
/// told without holding it ([`super::document::unchanged_file`]): it then
/// passes through from the file, if it is still what it was before that
/// look (`Seen`). `None` for anything else.
fn unchanged_large_file(
    input: &Input,
    options: &RunOptions,
) -> Option<(Arc<File>, Seen, Vec<DocumentImage>)> {
    let Input::Path(path) = input else {
        return None;
    };
    let open = Open {
        whole: !options.jsonl && !options.at.is_active(),
        max_document: options.max_document,
    };
    let Document::Lent(lent) = Document::open(Some(path), open) else {
        return None;
    };
    let file = Arc::clone(lent.file());
    let seen = Seen::of(&file.metadata().ok()?);
    let images = unchanged_file(lent, &options.resize)?;
    Some((file, seen, images))
}

/// The error of a failed read of `input`.
fn read_error(input: &Input) -> impl Fn(io::Error) -> Error + '_ {
    move |source| Error::Read {
        path: input.error_path(),
        source,
    }
}

/// A run over one JSON input's documents: where they go, and the counts its
/// summary reports.
struct Stream<'a, 's> {
    label: &'a str,
    options: &'a RunOptions,
    /// One JSON document (reports name no line), not JSON Lines.
    single: bool,
    to_stdout: bool,
    out: Out<'s>,
    /// The blank lines before a single document: written with it, so that
    /// one that fails leaves no output at all.
    leading: Option<Gap>,
    tally: Tally,
    status: ExitStatus,
    documents: usize,
    images: usize,
    resized: usize,
    /// Some document changed (an unchanged `--in-place` file is not rewritten).
    changed: bool,
}

impl Stream<'_, '_> {
    /// The one document of a JSON input, and the white space after it.
    fn single(
        &mut self,
        line: usize,
        bytes: Vec<u8>,
        after: &Gap,
        report: Emit<'_>,
        sink: &dyn Sink,
    ) -> Result<()> {
        sink.progress(bytes.len() as u64 + after.len);
        // The white space after the value is its ending, kept as it was
        // after the document, or after the null that stands in for it.
        let blank = bytes
            .iter()
            .rev()
            .take_while(|b| b.is_ascii_whitespace())
            .count();
        let (doc, ending) = bytes.split_at(bytes.len() - blank);
        let result = resize_document_at(doc, &self.options.at, &self.options.resize);
        let status = self.document(line, Doc::Bytes(doc), ending, result, report)?;
        self.status = worse(self.status, status);
        // Ended as it was: a document without a final line break gets none.
        if status == ExitStatus::Success {
            after.write_to(&mut self.out)?;
        }
        Ok(())
    }

    /// Writes the blank lines held before a single document, once.
    fn write_leading(&mut self) -> Result<()> {
        match self.leading.take() {
            Some(leading) => leading.write_to(&mut self.out),
            None => Ok(()),
        }
    }

    /// The lines of a JSON Lines input, `first` (and the white space that
    /// followed it) and the rest of `lines`, resized a batch at a time
    /// across the cores and written in order.
    fn lines(
        &mut self,
        first: (usize, Vec<u8>),
        gap: Gap,
        lines: &mut RawLines<'_>,
        report: Emit<'_>,
        sink: &dyn Sink,
    ) -> Result<()> {
        self.batch(vec![(first.0, Ok(first.1))], report, sink)?;
        sink.progress(gap.len);
        self.tally.kept_blank(gap.breaks);
        gap.write_to(&mut self.out)?;
        drop(gap);
        let mut batch = Vec::new();
        let mut done = false;
        while !done && !self.tally.stopped {
            let mut batch_bytes = 0;
            while batch.len() < BATCH_LINES && batch_bytes < BATCH_BYTES {
                let mut raw = Vec::new();
                match lines.next_raw(&mut raw)? {
                    Some((line, fits)) => {
                        batch_bytes += raw.len();
                        let raw = if fits {
                            Ok(raw)
                        } else {
                            lines.pass_over(&mut raw)?;
                            Err((lines.too_large(line), raw))
                        };
                        batch.push((line, raw));
                    }
                    None => {
                        done = true;
                        break;
                    }
                }
            }
            self.batch(std::mem::take(&mut batch), report, sink)?;
        }
        Ok(())
    }

    /// Lines resized across the cores, and written in order. A line over
    /// the limit comes as its error and its line break.
    fn batch(
        &mut self,
        batch: Vec<(usize, RawLine)>,
        report: Emit<'_>,
        sink: &dyn Sink,
    ) -> Result<()> {
        let options = self.options;
        let results: Vec<Option<std::result::Result<ResizedDocument, String>>> = batch
            .par_iter()
            .map(|(_, raw)| {
                let doc = content(raw.as_ref().ok()?);
                (!doc.iter().all(u8::is_ascii_whitespace))
                    .then(|| resize_document_at(doc, &options.at, &options.resize))
            })
            .collect();
        for ((line, raw), result) in batch.iter().zip(results) {
            if self.tally.stopped {
                break;
            }
            let raw = match raw {
                Ok(raw) => raw,
                Err((error, tail)) => {
                    self.documents += 1;
                    report(Report::Error(error.to_string()));
                    let status = self.fail(tail)?;
                    self.status = worse(self.status, status);
                    continue;
                }
            };
            sink.progress(raw.len() as u64);
            let doc = content(raw);
            match result {
                // A blank line stays as it was.
                None => {
                    self.tally.kept_blank(1);
                    self.out.write(raw)?
                }
                Some(result) => {
                    let tail = &raw[doc.len()..];
                    let status = self.document(*line, Doc::Bytes(doc), tail, result, report)?;
                    self.status = worse(self.status, status);
                }
            }
        }
        Ok(())
    }

    /// The one document of a large file found unchanged, copied from the
    /// file (the same reports and output as [`Stream::single`] gives it).
    fn unchanged_file(
        &mut self,
        input: &InputFile<'_>,
        images: Vec<DocumentImage>,
        report: Emit<'_>,
        sink: &dyn Sink,
    ) -> Result<()> {
        let file = input.file;
        let len = file.metadata().map_err(read_error_of(self.label))?.len();
        sink.progress(len);
        let result = Ok(ResizedDocument {
            output: None,
            images,
        });
        let status = self.document(1, Doc::File(input), b"", result, report)?;
        self.status = worse(self.status, status);
        Ok(())
    }

    /// One document's result: its images reported, then the document written
    /// (resized, or as it was) followed by `tail` (its line break), or failed.
    fn document(
        &mut self,
        line: usize,
        doc: Doc<'_>,
        tail: &[u8],
        result: std::result::Result<ResizedDocument, String>,
        report: Emit<'_>,
    ) -> Result<ExitStatus> {
        self.documents += 1;
        let at_line = (!self.single).then_some(line);
        let resized_doc = match result {
            Ok(doc) => doc,
            Err(error) => {
                let at = Where {
                    label: self.label,
                    line: at_line,
                    pointer: None,
                };
                report(Report::Error(format!("{}: {error}", at.text())));
                return self.fail(tail);
            }
        };
        let mut failed = false;
        for image in &resized_doc.images {
            self.images += 1;
            let at = Where {
                label: self.label,
                line: at_line,
                pointer: Some(&image.pointer),
            };
            if image.result.as_ref().is_ok_and(Resized::changed) {
                self.resized += 1;
            }
            failed |= image.result.is_err();
            report_image(self.options.report, &at, &image.result, None, true, report);
        }
        if failed {
            return self.fail(tail);
        }
        self.write_leading()?;
        match &resized_doc.output {
            Some(new) => {
                self.changed = true;
                self.out.write(new)?;
            }
            None => match doc {
                Doc::Bytes(doc) => self.out.write(doc)?,
                Doc::File(file) => self.out.write_file(file)?,
            },
        }
        self.out.write(tail)?;
        self.tally.wrote();
        Ok(ExitStatus::Success)
    }

    /// A failed document, reported already: its stand-in as --on-error says.
    fn fail(&mut self, tail: &[u8]) -> Result<ExitStatus> {
        let mut stand_in = Vec::new();
        self.tally
            .failed(Some(&mut stand_in))
            .expect("writing into memory cannot fail");
        match stand_in.strip_suffix(b"\n") {
            // `null`, with the line's own line break.
            Some(null) => {
                self.write_leading()?;
                self.out.write(null)?;
                self.out.write(tail)?;
                Ok(ExitStatus::Success)
            }
            None => Ok(ExitStatus::Failure),
        }
    }

    /// Commits the output (a file only when every document went well) and
    /// reports the counts.
    fn finish(self, report: Emit<'_>) -> Result<ExitStatus> {
        let label = self.label;
        if self.status == ExitStatus::Success || self.to_stdout {
            let in_place_unchanged =
                self.options.destination == Destination::InPlace && !self.changed;
            if !in_place_unchanged {
                self.out.commit()?;
            }
        }
        if !self.single {
            report(Report::Note(format!(
                "{label}: {}",
                self.tally.summary(None)
            )));
        }
        if self.options.report == ReportStyle::Text && self.status == ExitStatus::Success {
            let documents = self.documents;
            let what = if documents == 1 {
                String::new()
            } else {
                format!(" in {documents} documents")
            };
            let summary = match (self.images, self.resized) {
                // Under --on-error null a failed document leaves the status
                // a success: its errors were said, and no count is claimed.
                _ if self.tally.failed > 0 => return Ok(self.status),
                (0, _) => format!("{label}: no embedded images"),
                (n, 0) => format!(
                    "{label}: {n} image{}{what}, all within every cap",
                    plural(n)
                ),
                (n, r) => format!("{label}: resized {r} of {n} image{}{what}", plural(n)),
            };
            report(Report::Note(summary));
        }
        Ok(self.status)
    }
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

/// The white space before the first document, or between the first two
/// (read ahead to tell JSON from JSON Lines), written back as it was: in memory up to [`SPILL_AT`],
/// then in a temporary file (megabytes of blank lines are never held).
#[derive(Default)]
struct Gap {
    bytes: Vec<u8>,
    file: Option<File>,
    len: u64,
    last: Option<u8>,
    /// The line breaks it holds: the blank lines of JSON Lines it stands for.
    breaks: usize,
}

/// The error of a [`Gap`] that could not be written to its temporary file.
fn spill_error(source: io::Error) -> Error {
    Error::Write {
        path: PathBuf::from("a temporary file"),
        source,
    }
}

/// The most of a [`Gap`] held in memory.
const SPILL_AT: usize = 1 << 20;

impl Gap {
    fn push(&mut self, bytes: &[u8]) -> io::Result<()> {
        let Some(&last) = bytes.last() else {
            return Ok(());
        };
        self.breaks += memchr::memchr_iter(b'\n', bytes).count();
        if self.file.is_none() && self.bytes.len() + bytes.len() > SPILL_AT {
            let mut file = tempfile::tempfile()?;
            file.write_all(&self.bytes)?;
            self.bytes = Vec::new();
            self.file = Some(file);
        }
        match &mut self.file {
            Some(file) => file.write_all(bytes)?,
            None => self.bytes.extend_from_slice(bytes),
        }
        self.len += bytes.len() as u64;
        self.last = Some(last);
        Ok(())
    }

    fn write_to(&self, out: &mut Out<'_>) -> Result<()> {
        match &self.file {
            Some(file) => out.write_file(&InputFile {
                file,
                path: Path::new("a temporary file"),
                seen: None,
            }),
            None => out.write(&self.bytes),
        }
    }
}

/// A line of JSON Lines as read: its bytes, or (over the limit) its error
/// and its line break.
type RawLine = std::result::Result<Vec<u8>, (Error, Vec<u8>)>;

/// Lines exactly as written (line breaks kept), so that a JSON Lines file comes
/// back byte for byte where nothing changed. A line longer than the
/// document limit is [`Error::TooLarge`], read no further.
struct RawLines<'r> {
    reader: &'r mut Box<dyn BufRead + Send>,
    input: &'r Input,
    line: usize,
    max: usize,
}

impl<'r> RawLines<'r> {
    fn new(reader: &'r mut Box<dyn BufRead + Send>, input: &'r Input, max: u64) -> RawLines<'r> {
        let max = usize::try_from(max).unwrap_or(usize::MAX);
        RawLines {
            reader,
            input,
            line: 0,
            max,
        }
    }

    fn too_large(&self, line: usize) -> Error {
        Error::TooLarge {
            path: self.input.error_path(),
            line: Some(line),
            limit: self.max as u64,
        }
    }

    /// The next line (blank or not), appended to `raw`; its number, and
    /// whether it is within the limit (one that is not is read no further:
    /// [`RawLines::pass_over`] reads past the rest).
    fn next_raw(&mut self, raw: &mut Vec<u8>) -> Result<Option<(usize, bool)>> {
        let start = raw.len();
        // Its line break may come at `max + 1`, and `\r\n` at `max + 2`.
        let room = self.max.saturating_add(2) as u64;
        let n = (&mut *self.reader)
            .take(room)
            .read_until(b'\n', raw)
            .map_err(read_error(self.input))?;
        if n == 0 {
            return Ok(None);
        }
        self.line += 1;
        Ok(Some((self.line, content(&raw[start..]).len() <= self.max)))
    }

    /// Reads past the rest of a line over the limit without holding it
    /// (docs/json-lines.md); `raw`, which holds its start, is left holding
    /// only its line break.
    fn pass_over(&mut self, raw: &mut Vec<u8>) -> Result<()> {
        let mut ended = raw.last() == Some(&b'\n');
        raw.clear();
        while !ended {
            let chunk = self.reader.fill_buf().map_err(read_error(self.input))?;
            if chunk.is_empty() {
                break;
            }
            let (used, found) = match memchr::memchr(b'\n', chunk) {
                Some(at) => (at + 1, true),
                None => (chunk.len(), false),
            };
            self.reader.consume(used);
            ended = found;
        }
        if ended {
            raw.push(b'\n');
        }
        Ok(())
    }

    /// Reads lines until one is not blank, into `raw`; that line's number.
    /// The blank lines before it go to `blank`.
    fn next_line(&mut self, raw: &mut Vec<u8>, blank: &mut Gap) -> Result<Option<usize>> {
        loop {
            raw.clear();
            match self.next_raw(raw)? {
                None => return Ok(None),
                // The first line tells JSON from JSON Lines: over the limit,
                // neither can be told.
                Some((line, false)) => return Err(self.too_large(line)),
                Some((line, true)) if raw.iter().any(|b| !b.is_ascii_whitespace()) => {
                    return Ok(Some(line))
                }
                Some(_) => blank.push(raw).map_err(spill_error)?,
            }
        }
    }

    /// The rest of a document that began on `line`, appended to `bytes`.
    fn read_rest(&mut self, bytes: &mut Vec<u8>, line: usize) -> Result<()> {
        let room = (self.max as u64).saturating_sub(bytes.len() as u64);
        (&mut *self.reader)
            .take(room.saturating_add(1))
            .read_to_end(bytes)
            .map_err(read_error(self.input))?;
        if bytes.len() > self.max {
            return Err(self.too_large(line));
        }
        Ok(())
    }

    /// Moves the white space that follows into `kept`; whether anything else
    /// is left.
    fn skip_blank(&mut self, kept: &mut Gap) -> Result<bool> {
        loop {
            let chunk = self.reader.fill_buf().map_err(read_error(self.input))?;
            if chunk.is_empty() {
                return Ok(false);
            }
            let blank = chunk
                .iter()
                .position(|b| !b.is_ascii_whitespace())
                .unwrap_or(chunk.len());
            kept.push(&chunk[..blank]).map_err(spill_error)?;
            self.line += chunk[..blank].iter().filter(|b| **b == b'\n').count();
            let more = blank < chunk.len();
            self.reader.consume(blank);
            if more {
                return Ok(true);
            }
        }
    }
}
