//! Every input line accounted for: what a document that fails becomes in the
//! output (`--on-error skip|null|stop`), and the count of lines in, out and
//! failed that ends a run over JSON Lines.

use std::io::{self, Write};

use crate::error::ExitStatus;
use crate::size::group_digits;

/// What a document that fails becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OnError {
    /// Left out of the output (reported on stderr); the run exits 1.
    #[default]
    Skip,
    /// A `null` line in its place, so output line N is input line N; the run
    /// exits 0, since the failure is marked in the data (and on stderr).
    Null,
    /// The run stops there with exit 1; nothing after it is printed.
    Stop,
}

/// Whether a run goes on after a document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Stop,
}

/// The count of a run's documents.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    pub policy: OnError,
    /// Documents read.
    pub read: usize,
    /// Documents written (a `null` stand-in counts).
    pub written: usize,
    pub failed: usize,
    /// Blank lines read (counted in `read`).
    pub blank: usize,
    /// `null` lines written in place of failed or blank lines.
    pub nulls: usize,
    /// The run stopped at a failure (`--on-error stop`).
    pub stopped: bool,
}

impl Tally {
    pub fn new(policy: OnError) -> Tally {
        Tally {
            policy,
            ..Tally::default()
        }
    }

    /// A document that was read and written.
    pub fn wrote(&mut self) {
        self.read += 1;
        self.written += 1;
    }

    /// A document that was read and gave nothing to write, as it should (an
    /// `inspect` of a document without media).
    #[cfg_attr(not(feature = "cli"), allow(dead_code))] // the commands' only
    pub fn read_only(&mut self) {
        self.read += 1;
    }

    /// A blank line: no document, so nothing fails; under
    /// [`OnError::Null`] it gets its `null` line like a failure does, so
    /// that every input line has one output line.
    #[cfg_attr(not(feature = "cli"), allow(dead_code))] // the commands' only
    pub fn blank(&mut self, out: Option<&mut dyn Write>) -> io::Result<()> {
        self.read += 1;
        self.blank += 1;
        if let (OnError::Null, Some(out)) = (self.policy, out) {
            out.write_all(b"null\n")?;
            self.written += 1;
            self.nulls += 1;
        }
        Ok(())
    }

    /// `count` blank lines written back as they were (`resize`, which
    /// leaves every byte it does not change).
    pub fn kept_blank(&mut self, count: usize) {
        self.read += count;
        self.blank += count;
        self.written += count;
    }

    /// A document that failed (its error already reported): writes its
    /// stand-in to `out` when the policy has one, and says whether to go on.
    /// `out` is `None` for a command whose output is not one line per document.
    pub fn failed(&mut self, out: Option<&mut dyn Write>) -> io::Result<Flow> {
        self.read += 1;
        self.failed += 1;
        match self.policy {
            OnError::Skip => Ok(Flow::Continue),
            OnError::Null => {
                if let Some(out) = out {
                    out.write_all(b"null\n")?;
                    self.written += 1;
                    self.nulls += 1;
                }
                Ok(Flow::Continue)
            }
            OnError::Stop => {
                self.stopped = true;
                Ok(Flow::Stop)
            }
        }
    }

    /// How the run ends: failures are exit 1, unless each one is marked in the
    /// output by a `null`.
    #[cfg_attr(not(feature = "cli"), allow(dead_code))] // the commands' only
    pub fn status(&self) -> ExitStatus {
        if self.failed == 0 || self.policy == OnError::Null {
            ExitStatus::Success
        } else {
            ExitStatus::Failure
        }
    }

    /// The summary line: `4 lines in, 4 out (1 null), 1 failed`. `written`
    /// names what goes out when it is not lines.
    pub fn summary(&self, written: Option<&str>) -> String {
        let lines = |n: usize| {
            format!(
                "{} line{}",
                group_digits(n as u64),
                if n == 1 { "" } else { "s" }
            )
        };
        let mut text = format!("{} in", lines(self.read));
        if self.blank > 0 {
            text.push_str(&format!(" ({} blank)", group_digits(self.blank as u64)));
        }
        match written {
            Some(what) => text.push_str(&format!(", {what}")),
            None => {
                text.push_str(&format!(", {} out", group_digits(self.written as u64)));
                if self.nulls > 0 {
                    text.push_str(&format!(" ({} null)", group_digits(self.nulls as u64)));
                }
            }
        }
        text.push_str(&format!(", {} failed", group_digits(self.failed as u64)));
        if self.stopped {
            text.push_str(" (stopped at the first failure: --on-error stop)");
        }
        text
    }
}

/// The worse of two statuses (an error over a failure over success): how a
/// run of several inputs ends.
pub fn worse(a: ExitStatus, b: ExitStatus) -> ExitStatus {
    if b.code() > a.code() {
        b
    } else {
        a
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(policy: OnError, outcomes: &[bool]) -> (Tally, String) {
        let mut tally = Tally::new(policy);
        let mut out = Vec::new();
        for ok in outcomes {
            if *ok {
                out.extend_from_slice(b"{}\n");
                tally.wrote();
            } else if tally.failed(Some(&mut out)).unwrap() == Flow::Stop {
                break;
            }
        }
        (tally, String::from_utf8(out).unwrap())
    }

    #[test]
    fn skip_leaves_the_line_out_and_fails_the_run() {
        let (tally, out) = run(OnError::Skip, &[true, false, true]);
        assert_eq!(out, "{}\n{}\n");
        assert_eq!(tally.status(), ExitStatus::Failure);
        assert_eq!(tally.summary(None), "3 lines in, 2 out, 1 failed");
    }

    #[test]
    fn null_keeps_every_line_in_its_place() {
        let (tally, out) = run(OnError::Null, &[true, false, true]);
        assert_eq!(out, "{}\nnull\n{}\n");
        assert_eq!(tally.status(), ExitStatus::Success);
        assert_eq!(tally.summary(None), "3 lines in, 3 out (1 null), 1 failed");
    }

    #[test]
    fn stop_ends_the_run_at_the_failure() {
        let (tally, out) = run(OnError::Stop, &[true, false, true]);
        assert_eq!(out, "{}\n");
        assert_eq!(tally.status(), ExitStatus::Failure);
        assert_eq!(
            tally.summary(None),
            "2 lines in, 1 out, 1 failed (stopped at the first failure: --on-error stop)"
        );
    }

    #[test]
    fn a_clean_run_succeeds_under_every_policy() {
        for policy in [OnError::Skip, OnError::Null, OnError::Stop] {
            let (tally, _) = run(policy, &[true, true]);
            assert_eq!(tally.status(), ExitStatus::Success);
            assert_eq!(
                tally.summary(Some("3 media items")),
                "2 lines in, 3 media items, 0 failed"
            );
        }
    }
}
