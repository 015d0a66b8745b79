//! A command's run over a recording's bodies (docs/recordings.md): what
//! `convert` and `split` share. Each body's result goes to stdout as one
//! JSON Lines line, in the file's order; a body passed over is a note and a
//! body that fails an error on stderr, both located by file, the line its
//! body starts on, the interaction and the side; `--on-error` applies as
//! to the lines of JSON Lines.

use std::io::Write;

use super::lines::Lines;
use crate::accounting::{Flow, OnError};
use crate::error::{ExitStatus, Result};
use crate::output::{stdout_error, Printer, Stdout};
use crate::recorded::RecordedBody;

/// A run over one recording's bodies: the JSON Lines driver's output
/// ([`Lines`]), with places named by interaction and its own summary.
pub struct BodyRun<'p> {
    lines: Lines<'p>,
    passed: usize,
    printer: &'p Printer,
}

impl<'p> BodyRun<'p> {
    pub fn new(label: String, policy: OnError, printer: &'p Printer) -> BodyRun<'p> {
        BodyRun {
            lines: Lines::named(label, true, policy, false, printer),
            passed: 0,
            printer,
        }
    }

    /// `file:line: interaction 3 response`.
    pub fn place(&self, body: &RecordedBody<'_>) -> String {
        format!("{}: {}", self.lines.place(body.line), body.place.describe())
    }

    /// A body passed over, and why: a note, not a failure.
    pub fn passed(&mut self, body: &RecordedBody<'_>, why: &str) {
        self.passed += 1;
        self.lines
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
        self.lines.write_with(write)
    }

    /// A body that failed: the error on stderr, then its stand-in as the
    /// policy says.
    pub fn fail(&mut self, body: &RecordedBody<'_>, message: &str) -> Result<Flow> {
        let message = format!("{}: {message}", self.place(body));
        self.lines.fail_saying(&message)
    }

    /// Ends the run: `file: 8 bodies, 5 out, 3 passed over, 0 failed`.
    pub fn finish(mut self) -> Result<ExitStatus> {
        self.lines.out.flush().map_err(stdout_error)?;
        let tally = &self.lines.tally;
        let bodies = tally.read + self.passed;
        let mut summary = format!(
            "{}: {} bod{}, {} out",
            self.lines.label,
            crate::size::group_digits(bodies as u64),
            if bodies == 1 { "y" } else { "ies" },
            crate::size::group_digits(tally.written as u64)
        );
        if tally.nulls > 0 {
            summary.push_str(&format!(" ({} null)", tally.nulls));
        }
        summary.push_str(&format!(
            ", {} passed over, {} failed",
            self.passed, tally.failed
        ));
        if tally.stopped {
            summary.push_str(" (stopped at the first failure: --on-error stop)");
        }
        self.printer.note(&summary);
        Ok(tally.status())
    }
}
