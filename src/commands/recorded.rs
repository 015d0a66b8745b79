//! A command's run over a recording's bodies (docs/recordings.md): what
//! `convert` and `split` share. Each body's result goes to stdout as one
//! JSON Lines line, in the file's order; a body passed over is a note and a
//! body that fails an error on stderr, both located by file, the line its
//! body starts on, the interaction and the side; `--on-error` applies as
//! to the lines of JSON Lines.

use std::io::Write;
use std::path::Path;

use crate::accounting::{Flow, OnError, Tally};
use crate::error::{Error, ExitStatus, Result};
use crate::output::{stdout_error, Printer, Stdout};
use crate::recorded::{probe, Probe, RecordedBody};
use crate::recording::Recording;

/// The recording at `path`, when the file is one; `None` for a document.
/// A file named as a recording that is not one is an error for a command
/// given that one file.
pub fn open(path: &Path, max_document: u64) -> Result<Option<Recording>> {
    match probe(path, max_document) {
        Probe::Recording(recording) => Ok(Some(recording)),
        Probe::Plain => Ok(None),
        Probe::Broken(error) => Err(error),
        Probe::Other(reason) => Err(Error::NotRecording {
            path: path.to_path_buf(),
            line: None,
            reason,
        }),
    }
}

/// A run over one recording's bodies.
pub struct BodyRun<'p> {
    label: String,
    tally: Tally,
    passed: usize,
    out: Stdout,
    printer: &'p Printer,
}

impl<'p> BodyRun<'p> {
    pub fn new(label: String, policy: OnError, printer: &'p Printer) -> BodyRun<'p> {
        BodyRun {
            label,
            tally: Tally::new(policy),
            passed: 0,
            out: printer.stdout(),
            printer,
        }
    }

    /// `file:line: interaction 3 response`.
    pub fn place(&self, body: &RecordedBody<'_>) -> String {
        format!("{}:{}: {}", self.label, body.line, body.place.describe())
    }

    /// A body passed over, and why: a note, not a failure.
    pub fn passed(&mut self, body: &RecordedBody<'_>, why: &str) {
        self.passed += 1;
        self.printer
            .note(&format!("{}: {why}; passed over", self.place(body)));
    }

    /// A body's warnings, each located.
    pub fn warn(&self, body: &RecordedBody<'_>, notes: &[String]) {
        for note in notes {
            self.printer.warn(&format!("{}: {note}", self.place(body)));
        }
    }

    /// Writes one body's result and a line break.
    pub fn write_with(
        &mut self,
        write: impl FnOnce(&mut Stdout) -> std::io::Result<()>,
    ) -> Result<Flow> {
        write(&mut self.out).map_err(stdout_error)?;
        self.out.write_all(b"\n").map_err(stdout_error)?;
        self.tally.wrote();
        Ok(Flow::Continue)
    }

    /// A body that failed: the error on stderr, then its stand-in as the
    /// policy says.
    pub fn fail(&mut self, body: &RecordedBody<'_>, message: &str) -> Result<Flow> {
        self.out.flush().map_err(stdout_error)?;
        self.printer
            .error(&format!("{}: {message}", self.place(body)));
        self.tally.failed(Some(&mut self.out)).map_err(stdout_error)
    }

    /// Ends the run: `file: 8 bodies, 5 out, 3 passed over, 0 failed`.
    pub fn finish(mut self) -> Result<ExitStatus> {
        self.out.flush().map_err(stdout_error)?;
        let bodies = self.tally.read + self.passed;
        let mut summary = format!(
            "{}: {} bod{}, {} out",
            self.label,
            crate::size::group_digits(bodies as u64),
            if bodies == 1 { "y" } else { "ies" },
            crate::size::group_digits(self.tally.written as u64)
        );
        if self.tally.nulls > 0 {
            summary.push_str(&format!(" ({} null)", self.tally.nulls));
        }
        summary.push_str(&format!(
            ", {} passed over, {} failed",
            self.passed, self.tally.failed
        ));
        if self.tally.stopped {
            summary.push_str(" (stopped at the first failure: --on-error stop)");
        }
        self.printer.note(&summary);
        Ok(self.tally.status())
    }
}
