//! The one owner of stdout and stderr: JSON style (pretty on a terminal, compact
//! otherwise), warnings unless `--quiet`, and progress bars only on a terminal.
//!
//! Every command prints through one [`Printer`]: results go to the stdout it
//! hands out ([`Printer::stdout`]), and a failed write to it becomes one error
//! ([`stdout_error`]) that names `<stdout>`; messages go to stderr through its
//! methods, so `--quiet` and the `partkit:` prefix are decided in one place.
//! The exit status is not the printer's to guess from what it printed (with
//! `--on-error null` an error is printed and the run still exits 0): each
//! command returns it, and `main` turns it into the exit code in one place.

use std::io::{self, BufWriter, IsTerminal, StdoutLock, Write};
use std::path::PathBuf;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;

use crate::error::Error;
pub use crate::render::{sanitize, write_json};

/// How JSON output is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum JsonStyle {
    /// Pretty on a terminal, compact otherwise.
    #[default]
    Auto,
    Pretty,
    Compact,
}

/// Buffered, locked stdout: what a command writes its results to.
pub type Stdout = BufWriter<RawStdout>;

/// Locked stdout, written without the standard library's line buffering:
/// `io::Stdout` looks for the last line break in every write it is handed (a
/// scan of a whole converted document when it is written at once), and the
/// commands buffer their output themselves. On Unix the writes go to a
/// duplicate of the descriptor; the lock is still held, so that nothing else
/// writes to stdout in between.
pub struct RawStdout {
    lock: StdoutLock<'static>,
    direct: Option<std::fs::File>,
}

impl RawStdout {
    fn new() -> RawStdout {
        let mut lock = io::stdout().lock();
        // Nothing is buffered there (all output goes through this type), but
        // what might be must come first.
        let _ = lock.flush();
        #[cfg(unix)]
        let direct = {
            use std::os::fd::AsFd;
            lock.as_fd()
                .try_clone_to_owned()
                .ok()
                .map(std::fs::File::from)
        };
        #[cfg(not(unix))]
        let direct = None;
        RawStdout { lock, direct }
    }
}

impl Write for RawStdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.direct {
            Some(file) => file.write(buf),
            None => self.lock.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.direct {
            Some(file) => file.flush(),
            None => self.lock.flush(),
        }
    }
}

impl crate::resize::Output for Stdout {
    /// Straight from the file to the descriptor, by the kernel where it can
    /// (`resize` passing a large document through unchanged).
    fn write_file(&mut self, input: &crate::resize::InputFile<'_>) -> io::Result<()> {
        self.flush()?;
        match &mut self.get_mut().direct {
            Some(direct) => crate::resize::copy_file_to_file(input, direct),
            None => crate::resize::copy_file(input, self),
        }
    }
}

/// Decides how results and diagnostics are shown.
#[derive(Debug, Clone)]
pub struct Printer {
    pretty: bool,
    quiet: bool,
    stderr_is_terminal: bool,
}

impl Printer {
    /// A printer for this process's streams.
    pub fn new(style: JsonStyle, quiet: bool) -> Printer {
        let pretty = match style {
            JsonStyle::Auto => io::stdout().is_terminal(),
            JsonStyle::Pretty => true,
            JsonStyle::Compact => false,
        };
        Printer {
            pretty,
            quiet,
            stderr_is_terminal: io::stderr().is_terminal(),
        }
    }

    /// Stdout, locked and buffered, for a command's results. (The lock is
    /// taken by each writer; a command holds one writer at a time.)
    pub fn stdout(&self) -> Stdout {
        BufWriter::new(RawStdout::new())
    }

    /// [`Printer::stdout`] with a larger buffer, for output measured in
    /// megabytes (resized documents and images).
    pub fn stdout_with_capacity(&self, capacity: usize) -> Stdout {
        BufWriter::with_capacity(capacity, RawStdout::new())
    }

    /// Whether stdout is a terminal (binary output is refused there).
    pub fn stdout_is_terminal(&self) -> bool {
        io::stdout().is_terminal()
    }

    /// Prints one JSON report line on stderr (`resize --report json`): data a
    /// program reads, so never silenced by `--quiet`.
    pub fn report_json(&self, value: &serde_json::Value) {
        let _ = writeln!(io::stderr().lock(), "{value}");
    }

    /// Whether JSON is pretty-printed.
    pub fn is_pretty(&self) -> bool {
        self.pretty
    }

    /// Writes one JSON document followed by a line break.
    pub fn write_json<W: Write, T: Serialize + ?Sized>(
        &self,
        out: &mut W,
        value: &T,
    ) -> io::Result<()> {
        write_json(out, value, self.pretty)?;
        out.write_all(b"\n")
    }

    /// Prints a warning on stderr, unless `--quiet`.
    pub fn warn(&self, message: &str) {
        if !self.quiet {
            let _ = writeln!(
                io::stderr().lock(),
                "partkit: warning: {}",
                sanitize(message)
            );
        }
    }

    /// Prints an error about one item of a run that goes on (the run's exit code
    /// reports it); never silenced by `--quiet`.
    pub fn error(&self, message: &str) {
        let _ = writeln!(io::stderr().lock(), "partkit: error: {}", sanitize(message));
    }

    /// Prints a note on stderr (a line a person reads, not an error), unless `--quiet`.
    pub fn note(&self, message: &str) {
        if !self.quiet {
            let _ = writeln!(io::stderr().lock(), "partkit: {}", sanitize(message));
        }
    }

    /// A progress bar for `len` steps, drawn on stderr only when it is a terminal.
    pub fn progress(&self, len: u64, what: &str) -> ProgressBar {
        if !self.stderr_is_terminal || self.quiet {
            return ProgressBar::hidden();
        }
        let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
        if let Ok(style) =
            ProgressStyle::with_template("{spinner} {msg} {bar:30} {pos}/{len} [{elapsed}]")
        {
            bar.set_style(style);
        }
        bar.set_message(what.to_string());
        bar
    }
}

/// The error of a failed write to stdout (a closed pipe among them, which
/// `main` turns into a quiet exit 0), or of the read of an input copied to
/// it as it was written ([`Error::write`]).
pub fn stdout_error(source: io::Error) -> Error {
    Error::write(PathBuf::from("<stdout>"), source)
}
