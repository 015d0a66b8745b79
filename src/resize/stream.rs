//! The documents of a JSON or JSON Lines input, resized in batches and
//! written back byte for byte where nothing changed (blank lines, line
//! breaks and every byte of an unchanged line kept).

use std::fs::File;
use std::io::{self, BufRead, Read};
use std::os::unix::fs::FileExt;
use std::path::PathBuf;

use rayon::prelude::*;

use super::document::{resize_document_at, unchanged_file, DocumentImage, ResizedDocument};
use super::report::{report_image, Emit, Report, ReportStyle, Where};
use super::run::{Destination, Out, RunOptions, Sink};
use super::Resized;
use crate::accounting::{worse, Tally};
use crate::error::{Error, ExitStatus, Result};
use crate::io::Input;

/// How many JSON Lines documents are resized together.
const BATCH_LINES: usize = 64;
const BATCH_BYTES: usize = 64 << 20;

/// Resizes the images of a JSON or JSON Lines input, document by document.
pub(super) fn run_json(
    input: &Input,
    label: &str,
    mut reader: Box<dyn BufRead + Send>,
    options: &RunOptions,
    report: Emit<'_>,
    sink: &dyn Sink,
) -> Result<ExitStatus> {
    let target = match (&options.destination, input) {
        (Destination::Stdout, _) => None,
        (Destination::File(path), _) => Some(path.clone()),
        (Destination::Dir(dir), Input::Path(path)) => {
            Some(dir.join(path.file_name().unwrap_or_default()))
        }
        (Destination::InPlace, Input::Path(path)) => Some(path.clone()),
        _ => return Err(Error::usage("stdin can only go to stdout or -o")),
    };
    let out = match &target {
        None => Out::Stdout(sink.stdout()),
        Some(path) => Out::open(path)?,
    };
    let new_stream = |single: bool, out| Stream {
        label,
        options,
        single,
        to_stdout: target.is_none(),
        out,
        tally: Tally::new(options.on_error),
        status: ExitStatus::Success,
        documents: 0,
        images: 0,
        resized: 0,
        changed: false,
    };
    if let Some((file, images)) = unchanged_large_file(input, options) {
        let mut stream = new_stream(true, out);
        stream.unchanged_file(&file, images, report, sink)?;
        return stream.finish(report);
    }
    let mut lines = RawLines::new(&mut reader);
    // The first document tells JSON from JSON Lines.
    let mut pending = Vec::new();
    let first = lines.next_line(&mut pending).map_err(read_error(input))?;
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
        !options.jsonl && (!complete || !lines.skip_blank(&mut gap).map_err(read_error(input))?);
    let mut stream = new_stream(single, out);
    if single {
        let mut bytes = pending;
        bytes.extend_from_slice(&gap);
        // Room for the whole file at once: grown by doubling, the buffer was
        // copied and faulted in twice over.
        if let Some(len) = input.file_len() {
            bytes.reserve((len as usize).saturating_sub(bytes.len()) + 1);
        }
        lines
            .reader
            .read_to_end(&mut bytes)
            .map_err(read_error(input))?;
        stream.single(first_line, bytes, report, sink)?;
    } else {
        let mut first = vec![(first_line, pending)];
        if !gap.is_empty() {
            first.push((0, gap));
        }
        stream.lines(first, &mut lines, input, report, sink)?;
    }
    stream.finish(report)
}

/// A document's bytes: in memory, or all of a file.
#[derive(Clone, Copy)]
enum Doc<'a> {
    Bytes(&'a [u8]),
    File(&'a File),
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
/// passes through from the file. `None` for anything else.
fn unchanged_large_file(input: &Input, options: &RunOptions) -> Option<(File, Vec<DocumentImage>)> {
    let Input::Path(path) = input else {
        return None;
    };
    if options.jsonl || options.at.is_active() {
        return None;
    }
    let (_, file) = crate::io::large_file(Some(path))?;
    let images = unchanged_file(&file, &options.resize)?;
    Some((file, images))
}

/// The error of a failed read of `input`.
fn read_error(input: &Input) -> impl Fn(io::Error) -> Error + '_ {
    move |source| Error::Read {
        path: match input {
            Input::Path(p) => p.clone(),
            Input::Stdin => PathBuf::from("-"),
        },
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
    tally: Tally,
    status: ExitStatus,
    documents: usize,
    images: usize,
    resized: usize,
    /// Some document changed (an unchanged `--in-place` file is not rewritten).
    changed: bool,
}

impl Stream<'_, '_> {
    /// The one document of a JSON input.
    fn single(
        &mut self,
        line: usize,
        bytes: Vec<u8>,
        report: Emit<'_>,
        sink: &dyn Sink,
    ) -> Result<()> {
        sink.progress(bytes.len() as u64);
        let result = resize_document_at(&bytes, &self.options.at, &self.options.resize);
        let status = self.document(line, Doc::Bytes(&bytes), b"", result, report)?;
        self.status = worse(self.status, status);
        if self.to_stdout && !bytes.ends_with(b"\n") && status == ExitStatus::Success {
            self.out.write(b"\n")?;
        }
        Ok(())
    }

    /// The lines of a JSON Lines input, `first` and the rest of `lines`,
    /// resized a batch at a time across the cores and written in order.
    fn lines(
        &mut self,
        first: Vec<(usize, Vec<u8>)>,
        lines: &mut RawLines<'_>,
        input: &Input,
        report: Emit<'_>,
        sink: &dyn Sink,
    ) -> Result<()> {
        let mut batch = first;
        let mut batch_bytes = batch.iter().map(|(_, raw)| raw.len()).sum();
        let mut done = false;
        while !done && !self.tally.stopped {
            while batch.len() < BATCH_LINES && batch_bytes < BATCH_BYTES {
                let mut raw = Vec::new();
                match lines.next_raw(&mut raw).map_err(read_error(input))? {
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
            let options = self.options;
            let results: Vec<Option<std::result::Result<ResizedDocument, String>>> = batch
                .par_iter()
                .map(|(_, raw)| {
                    let doc = content(raw);
                    (!doc.iter().all(u8::is_ascii_whitespace))
                        .then(|| resize_document_at(doc, &options.at, &options.resize))
                })
                .collect();
            for ((line, raw), result) in batch.iter().zip(results) {
                if self.tally.stopped {
                    break;
                }
                sink.progress(raw.len() as u64);
                let doc = content(raw);
                match result {
                    // A blank line stays as it was.
                    None => self.out.write(raw)?,
                    Some(result) => {
                        let tail = &raw[doc.len()..];
                        let status = self.document(*line, Doc::Bytes(doc), tail, result, report)?;
                        self.status = worse(self.status, status);
                    }
                }
            }
            batch.clear();
            batch_bytes = 0;
        }
        Ok(())
    }

    /// The one document of a large file found unchanged, copied from the
    /// file (the same reports and output as [`Stream::single`] gives it).
    fn unchanged_file(
        &mut self,
        file: &File,
        images: Vec<DocumentImage>,
        report: Emit<'_>,
        sink: &dyn Sink,
    ) -> Result<()> {
        let len = file.metadata().map_err(read_error_of(self.label))?.len();
        sink.progress(len);
        let result = Ok(ResizedDocument {
            output: None,
            images,
        });
        let status = self.document(1, Doc::File(file), b"", result, report)?;
        self.status = worse(self.status, status);
        let mut last = [0u8];
        let ends_in_line_break =
            len > 0 && file.read_exact_at(&mut last, len - 1).is_ok() && last == *b"\n";
        if self.to_stdout && !ends_in_line_break && status == ExitStatus::Success {
            self.out.write(b"\n")?;
        }
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
