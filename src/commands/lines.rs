//! The document driver of `convert`, `split` and `inspect`: open the input,
//! run the library's operation on every document (in parallel, through
//! [`crate::pipeline`]), and print the results: in input order on stdout, a
//! failed document reported with its location and replaced as `--on-error`
//! says, and the count of lines in, out and failed at the end of JSON Lines.
//!
//! (`resize` reads its documents byte for byte instead, so that a JSON Lines
//! file comes back unchanged where nothing changed; it shares [`Tally`].)

use std::io::Write;
use std::path::PathBuf;

use crate::accounting::{Flow, OnError, Tally};
use crate::error::{Error, ExitStatus, Result};
use crate::io::{Documents, Input, Layout};
use crate::output::{stdout_error, Printer, Stdout};
use crate::pipeline::Item;

/// A run's stdout, its count, and how it names places in messages.
pub struct Lines<'p> {
    pub label: String,
    pub json_lines: bool,
    /// Whether a single document's messages carry its line too (`<stdin>:1:`).
    line_always: bool,
    pub tally: Tally,
    pub out: Stdout,
    printer: &'p Printer,
}

/// Opens `input`'s documents, none of more than `max_document` bytes. An
/// input with none (no bytes, or only white space) is zero documents:
/// `None`, and the command prints nothing.
pub fn open_documents(
    input: &Input,
    layout: Layout,
    max_document: u64,
) -> Result<Option<Documents>> {
    let mut documents = Documents::open(input, layout, max_document)?;
    Ok(documents.detect()?.then_some(documents))
}

/// A run over the documents of one input: the documents, and the output
/// their results go to.
pub struct Driver<'p> {
    documents: Documents,
    pub run: Lines<'p>,
}

impl<'p> Driver<'p> {
    /// Opens `input` (stdin when `None`; JSON Lines when `jsonl`, else told
    /// from the content; no document over `max_document` bytes). `None` when
    /// it holds no document: the command then prints nothing and succeeds.
    pub fn open(
        input: Option<PathBuf>,
        jsonl: bool,
        max_document: u64,
        policy: OnError,
        line_always: bool,
        printer: &'p Printer,
    ) -> Result<Option<Driver<'p>>> {
        let input = Input::from_arg(input.unwrap_or_else(|| PathBuf::from("-")));
        let layout = if jsonl {
            Layout::JsonLines
        } else {
            Layout::Auto
        };
        let Some(documents) = open_documents(&input, layout, max_document)? else {
            return Ok(None);
        };
        let run = Lines::new(&input, &documents, policy, line_always, printer);
        Ok(Some(Driver { documents, run }))
    }

    /// Whether the input is JSON Lines.
    pub fn is_json_lines(&self) -> bool {
        self.run.json_lines
    }

    /// Runs `work` on every document (in parallel) and hands each result, in
    /// input order, to `sink` with the output and the document's bytes; stops
    /// early when `sink` says so. `work` is told each document's line number.
    pub fn each_numbered<R, W, S>(&mut self, work: W, mut sink: S) -> Result<()>
    where
        R: Send,
        W: Fn(usize, &crate::shared::SharedBytes) -> R + Sync,
        S: FnMut(&mut Lines<'p>, usize, &[u8], R) -> Result<Flow>,
    {
        let run = &mut self.run;
        crate::pipeline::for_each_document(
            &mut self.documents,
            work,
            |line, bytes, item| match item {
                Item::Document(result) => sink(run, line, bytes, result),
                Item::Blank => run.blank(),
                Item::TooLarge(error) => run.fail_saying(&error.to_string()),
            },
        )
    }

    /// As [`Driver::each_numbered`], for work that needs only the bytes: a
    /// large JSON Lines file is then read the fastest way
    /// ([`crate::pipeline::for_each_document_bytes`]).
    pub fn each<R, W, S>(&mut self, work: W, mut sink: S) -> Result<()>
    where
        R: Send,
        W: Fn(&crate::shared::SharedBytes) -> R + Sync,
        S: FnMut(&mut Lines<'p>, usize, &[u8], R) -> Result<Flow>,
    {
        let run = &mut self.run;
        crate::pipeline::for_each_document_bytes(&mut self.documents, work, |line, bytes, item| {
            match item {
                Item::Document(result) => sink(run, line, bytes, result),
                Item::Blank => run.blank(),
                Item::TooLarge(error) => run.fail_saying(&error.to_string()),
            }
        })
    }

    /// Ends the run (see [`Lines::finish`]).
    pub fn finish(self, written: Option<&str>) -> Result<ExitStatus> {
        self.run.finish(written)
    }
}

impl<'p> Lines<'p> {
    /// The output of a run over `input`'s documents.
    pub fn new(
        input: &Input,
        documents: &Documents,
        policy: OnError,
        line_always: bool,
        printer: &'p Printer,
    ) -> Lines<'p> {
        Lines::named(
            input.label(),
            documents.is_json_lines(),
            policy,
            line_always,
            printer,
        )
    }

    /// The output of a run over items that are not an input's documents (the
    /// sources of `encode`), named `label`.
    pub fn named(
        label: String,
        json_lines: bool,
        policy: OnError,
        line_always: bool,
        printer: &'p Printer,
    ) -> Lines<'p> {
        Lines {
            label,
            json_lines,
            line_always,
            tally: Tally::new(policy),
            out: printer.stdout(),
            printer,
        }
    }

    /// `file:line` for JSON Lines (and where asked), `file` for one document.
    pub fn place(&self, line: usize) -> String {
        if self.json_lines || self.line_always {
            format!("{}:{line}", self.label)
        } else {
            self.label.clone()
        }
    }

    /// One document's warnings. In JSON Lines each names its line (the same
    /// warning on two lines is two warnings); for one document they are said
    /// once each, as they come.
    pub fn warn(&self, line: usize, notes: Vec<String>, said: &mut Vec<String>) {
        for note in notes {
            if self.json_lines {
                self.printer.warn(&format!("{}: {note}", self.place(line)));
            } else if !said.contains(&note) {
                self.printer.warn(&note);
                said.push(note);
            }
        }
    }

    /// A note on stderr.
    pub fn note(&self, message: &str) {
        self.printer.note(message);
    }

    /// Writes one document's result and a line break.
    pub fn write(&mut self, bytes: &[u8]) -> Result<Flow> {
        self.out.write_all(bytes).map_err(stdout_error)?;
        self.out.write_all(b"\n").map_err(stdout_error)?;
        self.tally.wrote();
        Ok(Flow::Continue)
    }

    /// Writes one document's result through `write`, and a line break.
    pub fn write_with(
        &mut self,
        write: impl FnOnce(&mut Stdout) -> std::io::Result<()>,
    ) -> Result<Flow> {
        write(&mut self.out).map_err(stdout_error)?;
        self.out.write_all(b"\n").map_err(stdout_error)?;
        self.tally.wrote();
        Ok(Flow::Continue)
    }

    /// A blank line of JSON Lines: counted, and a `null` line in its place
    /// under `--on-error null`, so that output line N stays input line N.
    pub fn blank(&mut self) -> Result<Flow> {
        self.tally
            .blank(Some(&mut self.out))
            .map_err(stdout_error)?;
        Ok(Flow::Continue)
    }

    /// Writes raw output (not one document's result; no count).
    pub fn write_raw(&mut self, bytes: &[u8]) -> Result<()> {
        self.out.write_all(bytes).map_err(stdout_error)
    }

    /// A document that failed: the error on stderr (after what came before it
    /// on stdout), then its stand-in as the policy says.
    pub fn fail(&mut self, line: usize, message: &str) -> Result<Flow> {
        let message = format!("{}: {message}", self.place(line));
        self.fail_saying(&message)
    }

    /// [`Lines::fail`] with a message that names its place itself.
    pub fn fail_saying(&mut self, message: &str) -> Result<Flow> {
        self.out.flush().map_err(stdout_error)?;
        self.printer.error(message);
        self.tally.failed(Some(&mut self.out)).map_err(stdout_error)
    }

    /// Ends the run: flushes stdout, prints the count for JSON Lines (with
    /// `written` naming the output when it is not one line per document), and
    /// says how the run ends.
    pub fn finish(mut self, written: Option<&str>) -> Result<ExitStatus> {
        self.out.flush().map_err(stdout_error)?;
        if self.json_lines {
            self.printer
                .note(&format!("{}: {}", self.label, self.tally.summary(written)));
        }
        Ok(self.tally.status())
    }
}

/// The policy for a command whose output is not one line per document, where
/// a `null` stand-in has no place.
pub fn no_null(policy: OnError, command: &str) -> Result<OnError> {
    if policy == OnError::Null {
        return Err(Error::usage(format!(
            "{command} prints media items, not one line per document: --on-error takes skip or stop here"
        )));
    }
    Ok(policy)
}
