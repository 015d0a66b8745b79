//! The documents of a JSON or JSON Lines input, resized in batches and
//! written back byte for byte where nothing changed (blank lines, line
//! breaks and every byte of an unchanged line kept).

use std::io::{self, BufRead, Read};
use std::path::PathBuf;

use rayon::prelude::*;

use super::document::{resize_document_at, ResizedDocument};
use super::report::{report_image, Emit, Report, ReportStyle, Where};
use super::run::{Destination, Out, RunOptions, Sink};
use super::Resized;
use crate::accounting::Tally;
use crate::error::{Error, ExitStatus, Result};
use crate::io::Input;
use crate::output::worse;

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
        None => Out::Stdout(sink.stdout()),
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
                      report: &mut dyn FnMut(Report)|
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
                report(Report::Error(format!("{}: {error}", at.text())));
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
        sink.progress(bytes.len() as u64);
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
                sink.progress(raw.len() as u64);
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
        report(Report::Note(format!("{label}: {}", tally.summary(None))));
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
        report(Report::Note(summary));
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
