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

use std::borrow::Cow;
use std::io::{self, BufWriter, IsTerminal, StdoutLock, Write};
use std::path::PathBuf;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;
use serde_json::ser::{CompactFormatter, PrettyFormatter, Serializer};

use crate::error::Error;

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
pub type Stdout = BufWriter<StdoutLock<'static>>;

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
        BufWriter::new(io::stdout().lock())
    }

    /// [`Printer::stdout`] with a larger buffer, for output measured in
    /// megabytes (resized documents and images).
    pub fn stdout_with_capacity(&self, capacity: usize) -> Stdout {
        BufWriter::with_capacity(capacity, io::stdout().lock())
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
/// `main` turns into a quiet exit 0).
pub fn stdout_error(source: io::Error) -> Error {
    Error::Write {
        path: PathBuf::from("<stdout>"),
        source,
    }
}

/// Serializes JSON, pretty (two-space indent) or compact.
pub fn write_json<W: Write, T: Serialize + ?Sized>(
    out: &mut W,
    value: &T,
    pretty: bool,
) -> io::Result<()> {
    if pretty {
        let mut serializer =
            Serializer::with_formatter(&mut *out, PrettyFormatter::with_indent(b"  "));
        value.serialize(&mut serializer).map_err(io::Error::from)
    } else {
        let mut serializer = Serializer::with_formatter(&mut *out, CompactFormatter);
        value.serialize(&mut serializer).map_err(io::Error::from)
    }
}

/// Whether a character can change what a terminal shows beyond itself: control
/// characters, and the bidirectional overrides and isolates that reorder text.
fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Escapes control characters and bidirectional overrides so that text copied
/// from recordings (labels, names, keys) cannot move the cursor, recolour a
/// terminal or reorder what it shows.
pub fn sanitize(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_unsafe(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(sanitize("plain"), "plain");
        assert_eq!(sanitize("a\x1b[31mb\n"), "a\\u{1b}[31mb\\n");
        assert_eq!(sanitize("a\u{202E}b"), "a\\u{202e}b");
    }

    #[test]
    fn json_styles() {
        let value = serde_json::json!({"a": [1, 2]});
        let mut out = Vec::new();
        write_json(&mut out, &value, false).unwrap();
        assert_eq!(out, br#"{"a":[1,2]}"#);
        out.clear();
        write_json(&mut out, &value, true).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\n  \"a\": [\n    1,\n    2\n  ]\n}"
        );
    }
}
