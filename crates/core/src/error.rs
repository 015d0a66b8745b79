//! The library's error type and the exit status every subcommand returns.
//!
//! Two kinds of failure matter to a caller, and they map to the documented exit
//! codes: input that was read but refused (exit 1) and a command that could not run
//! as asked (exit 2). Findings that are the normal product of a command (validation
//! problems) are not errors at all: they travel as [`ExitStatus::Failure`].

use std::io;
use std::path::PathBuf;

/// How a finished command ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitStatus {
    /// Everything asked for was done (exit 0).
    Success,
    /// The input was read but rejected (exit 1).
    Failure,
    /// Some input could not be read or written; each failure was already
    /// reported (exit 2).
    Error,
}

impl ExitStatus {
    /// The process exit code for this status.
    pub fn code(self) -> u8 {
        match self {
            ExitStatus::Success => 0,
            ExitStatus::Failure => 1,
            ExitStatus::Error => 2,
        }
    }
}

/// Every way a partkit operation can fail.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The input was read but refused: invalid data, a part over a cap, a part the
    /// target shape cannot carry. Exit code 1.
    ///
    /// Its message is `context`; the typed cause, when there is one, is its
    /// [`source`](std::error::Error::source) (such as an
    /// `encode::Refusal` or a
    /// `fetch::BodyTooLarge`), so that the
    /// alternate form (`{:#}` through `anyhow`) prints `context: cause`.
    #[error("{context}")]
    Rejected {
        /// What was refused, as messages name it (a source's label, a URL),
        /// or the whole message when there is no typed cause.
        context: String,
        /// Why, to match on with `downcast_ref`.
        #[source]
        cause: Option<Box<dyn std::error::Error + Send + Sync + 'static>>,
    },
    /// The arguments do not describe a command that can run. Exit code 2.
    #[error("{0}")]
    Usage(String),
    /// A file or stream could not be read. Exit code 2.
    #[error("cannot read {}", display_path(.path))]
    Read {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    /// A file or stream could not be written. Exit code 2.
    #[error("cannot write {}", display_path(.path))]
    Write {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    /// A document (a JSON file, a JSON Lines line, an image) is larger than
    /// the document limit allows (`limit`, docs/limits.md), so it was
    /// not read whole. Exit code 2.
    #[error(
        "{}{}: longer than {}, the most one document may be (--max-document-size raises it)",
        display_path(.path),
        .line.map(|n| format!(":{n}")).unwrap_or_default(),
        crate::io::limits::describe(*.limit)
    )]
    TooLarge {
        path: PathBuf,
        /// The line it starts on, for JSON and JSON Lines.
        line: Option<usize>,
        limit: u64,
    },
    /// A file read as a recording (a cassette, a HAR file) is none of the
    /// recording formats partkit reads (docs/recordings.md). Exit code 1.
    #[error(
        "{}{}: not a recording partkit reads: {reason}",
        display_path(.path),
        .line.map(|n| format!(":{n}")).unwrap_or_default()
    )]
    NotRecording {
        path: PathBuf,
        /// The line of the fault, when one line is to blame.
        line: Option<usize>,
        reason: String,
    },
    /// A URL could not be fetched. Exit code 2.
    #[error("cannot fetch {url}: {reason}")]
    Fetch { url: String, reason: String },
}

impl Error {
    /// A rejection of the input (exit 1), said in one message.
    pub fn rejected(message: impl Into<String>) -> Error {
        Error::Rejected {
            context: message.into(),
            cause: None,
        }
    }

    /// A rejection of `context` (exit 1) for a typed `cause`; the message is
    /// `context: cause` in the alternate form.
    pub fn refused(
        context: impl Into<String>,
        cause: impl std::error::Error + Send + Sync + 'static,
    ) -> Error {
        Error::Rejected {
            context: context.into(),
            cause: Some(Box::new(cause)),
        }
    }

    /// A usage error (exit 2).
    pub fn usage(message: impl Into<String>) -> Error {
        Error::Usage(message.into())
    }

    /// The process exit code this error maps to.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Rejected { .. } | Error::NotRecording { .. } => 1,
            _ => 2,
        }
    }

    /// The error of a failed write to `path` — unless what failed was the
    /// read of an input whose bytes were being copied there (`ReadFault`),
    /// which is that input's read error, not the output's.
    pub fn write(path: impl Into<PathBuf>, source: io::Error) -> Error {
        if !ReadFault::is_in(&source) {
            return Error::Write {
                path: path.into(),
                source,
            };
        }
        let kind = source.kind();
        let source = match source
            .into_inner()
            .map(|inner| inner.downcast::<ReadFault>())
        {
            Some(Ok(fault)) => {
                return Error::Read {
                    path: fault.path,
                    source: fault.source,
                }
            }
            Some(Err(other)) => io::Error::new(kind, other),
            None => io::Error::from(kind),
        };
        Error::Write {
            path: path.into(),
            source,
        }
    }

    /// Whether this error is a closed pipe on output, which ends a run quietly.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, Error::Write { source, .. } if source.kind() == io::ErrorKind::BrokenPipe)
    }
}

/// A failed read of an input met while its bytes were being written out (a
/// large file copied to the output as it is read): carried through writers
/// inside an [`io::Error`] ([`ReadFault::into_io`]), and made the input's
/// [`Error::Read`] again by [`Error::write`].
#[derive(Debug)]
pub struct ReadFault {
    pub path: PathBuf,
    pub source: io::Error,
}

impl ReadFault {
    /// The fault as an [`io::Error`] of the same kind, for a writer to return.
    pub fn into_io(path: impl Into<PathBuf>, source: io::Error) -> io::Error {
        io::Error::new(
            source.kind(),
            ReadFault {
                path: path.into(),
                source,
            },
        )
    }

    /// Whether `error` carries a read fault.
    pub fn is_in(error: &io::Error) -> bool {
        error.get_ref().is_some_and(|inner| inner.is::<ReadFault>())
    }
}

impl std::fmt::Display for ReadFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "cannot read {}: {}",
            display_path(&self.path),
            self.source
        )
    }
}

impl std::error::Error for ReadFault {}

fn display_path(path: &std::path::Path) -> String {
    if path.as_os_str() == "-" {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    }
}

/// A shorthand for results carrying [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;
