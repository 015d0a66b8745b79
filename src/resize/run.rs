//! `resize` over files and stdin: each input read, told apart as an image or
//! JSON / JSON Lines by its content, resized, and written where it goes
//! (stdout, `-o`, `--out-dir`, `--in-place`: always through a temporary file
//! renamed into place, so no file is ever left half written). What is said
//! about each image goes to a [`Sink`], in input order, even when several
//! files are resized at once.

use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io::{self, BufRead, BufWriter, Read, Seek, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rayon::prelude::*;

use super::report::{report_image, Emit, Report, ReportStyle, Where};
use super::stream::run_json;
use super::{resize_image, sniff_format, Format, ResizeOptions, Resized};
use crate::accounting::{worse, OnError};
use crate::error::{Error, ExitStatus, ReadFault, Result};
use crate::io::replace::{Replacement, Seen};
use crate::io::{write_atomic, Input};

/// Where results go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Destination {
    /// Standard output (one image, or JSON documents).
    Stdout,
    /// This file (one input).
    File(PathBuf),
    /// This folder, under each input's name.
    Dir(PathBuf),
    /// Over each input that changed.
    InPlace,
}

/// Everything a resize run is asked.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// Paths; `-` (or none at all) is stdin.
    pub inputs: Vec<PathBuf>,
    pub resize: ResizeOptions,
    pub destination: Destination,
    pub report: ReportStyle,
    /// Read JSON inputs as JSON Lines.
    pub jsonl: bool,
    /// Resize only the images inside the values at these pointers.
    pub at: crate::subdoc::At,
    /// What a JSON document that fails becomes.
    pub on_error: OnError,
    /// The most bytes one document (an image, a JSON file or line) may have
    /// (`--max-document-size`, docs/limits.md).
    pub max_document: u64,
}

/// Where output goes, and how a whole file is written there.
pub trait Output: Write {
    /// Writes all of `input` (read from its start), after what was written.
    fn write_file(&mut self, input: &InputFile<'_>) -> io::Result<()> {
        copy_file(input, self)
    }
}

/// A file whose bytes go to the output as they are, read while the output
/// is written (a large document passing through unchanged, or blank lines
/// set aside). A failed read is the file's error, not the output's (a
/// `ReadFault` inside the [`io::Error`]), and so is a change since `seen`:
/// the output would hold bytes that were never checked, or too few.
pub struct InputFile<'a> {
    pub file: &'a File,
    /// Its name in messages.
    pub path: &'a Path,
    /// What it was when first read, when a change matters.
    pub seen: Option<Seen>,
}

impl InputFile<'_> {
    /// Whether it is no longer what it was when first read.
    fn changed(&self) -> bool {
        self.seen
            .is_some_and(|seen| self.file.metadata().ok().map(|m| Seen::of(&m)) != Some(seen))
    }

    /// A failed read of it, said as its own error ("it changed while
    /// partkit read it" when it did: a file cut short fails a read).
    fn fault(&self, error: io::Error) -> io::Error {
        let error = if self.changed() { changed() } else { error };
        ReadFault::into_io(self.path, error)
    }

    /// After the copy: an error if it changed meanwhile.
    fn check(&self) -> io::Result<()> {
        if self.changed() {
            return Err(ReadFault::into_io(self.path, changed()));
        }
        Ok(())
    }
}

fn changed() -> io::Error {
    io::Error::other("it changed while partkit read it")
}

/// Writes all of `input` to `out`, through a buffer.
pub fn copy_file(input: &InputFile<'_>, out: &mut (impl Write + ?Sized)) -> io::Result<()> {
    let mut buffer = vec![0; 1 << 18];
    let mut at = 0u64;
    loop {
        let n = match input.file.read_at(&mut buffer, at) {
            Ok(0) => return input.check(),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(input.fault(e)),
        };
        out.write_all(&buffer[..n])?;
        at += n as u64;
    }
}

/// Writes all of `input` to `out`, a file: by the kernel where it can
/// (`copy_file_range`, `sendfile`: the bytes never pass through partkit).
pub fn copy_file_to_file(input: &InputFile<'_>, out: &mut File) -> io::Result<()> {
    let mut from = input.file;
    from.seek(io::SeekFrom::Start(0))
        .map_err(|e| input.fault(e))?;
    match io::copy(&mut from, out) {
        Ok(_) => input.check(),
        Err(error) => {
            // The kernel's copy does not say which side failed: where the
            // input's own read fails at the point the copy stopped, it did.
            let at = from.stream_position().unwrap_or(0);
            match input.file.read_at(&mut [0u8; 1], at) {
                Err(read) => Err(input.fault(read)),
                Ok(_) if input.changed() => Err(input.fault(error)),
                Ok(_) => Err(error),
            }
        }
    }
}

/// Where a run's results and reports go: the caller's stdout and stderr.
pub trait Sink: Sync {
    /// The run starts (its arguments are fine) over inputs of `bytes` in all
    /// (as far as known: stdin counts nothing).
    fn start(&self, bytes: u64);
    /// One report line; called in input order.
    fn report(&self, line: Report);
    /// `bytes` more of the inputs were read (for a progress bar).
    fn progress(&self, bytes: u64);
    /// Stdout, for [`Destination::Stdout`] (one image, or documents).
    fn stdout(&self) -> Box<dyn Output + '_>;
    /// Whether stdout is a terminal (an image is not written there).
    fn stdout_is_terminal(&self) -> bool;
}

/// Resizes every input of `options`; results and reports go to `sink`. An
/// input that fails is reported and the run goes on: the status says how the
/// worst one went. `Err` is a run that could not start (arguments that
/// contradict each other, an output folder that cannot be made).
pub fn run(options: &RunOptions, sink: &dyn Sink) -> Result<ExitStatus> {
    let inputs: Vec<Input> = if options.inputs.is_empty() {
        vec![Input::Stdin]
    } else {
        options.inputs.iter().map(Input::from_arg).collect()
    };
    check_arguments(&inputs, options)?;
    if let Destination::Dir(dir) = &options.destination {
        fs::create_dir_all(dir).map_err(|source| Error::Write {
            path: dir.clone(),
            source,
        })?;
    }
    sink.start(inputs.iter().map(|i| i.file_len().unwrap_or(0)).sum());
    let status = if options.destination == Destination::Stdout {
        // One image, or documents printed in order: reports as they come.
        let mut worst = ExitStatus::Success;
        let mut report = |line: Report| sink.report(line);
        for input in &inputs {
            // A closed stdout ends the run (quietly, as for every command).
            let status = run_input(input, options, &mut report, sink)?;
            worst = worse(worst, status);
        }
        worst
    } else {
        // Independent files: several at once, reports still in input order.
        let order = Mutex::new((0usize, BTreeMap::new()));
        let statuses: Vec<ExitStatus> = inputs
            .par_iter()
            .enumerate()
            .map(|(index, input)| {
                let mut lines = Vec::new();
                let status = run_input(input, options, &mut |line| lines.push(line), sink)
                    .unwrap_or_else(|error| {
                        lines.push(Report::Error(format!("{:#}", anyhow::Error::from(error))));
                        ExitStatus::Error
                    });
                let mut order = order.lock().unwrap_or_else(|e| e.into_inner());
                order.1.insert(index, lines);
                loop {
                    let next = order.0;
                    let Some(lines) = order.1.remove(&next) else {
                        break;
                    };
                    lines.into_iter().for_each(|line| sink.report(line));
                    order.0 += 1;
                }
                status
            })
            .collect();
        statuses.into_iter().fold(ExitStatus::Success, worse)
    };
    Ok(status)
}

/// Refuses what cannot run before anything is read or written.
fn check_arguments(inputs: &[Input], options: &RunOptions) -> Result<()> {
    let stdin = inputs.iter().filter(|i| **i == Input::Stdin).count();
    if stdin > 1 {
        return Err(Error::usage("stdin (-) can be read only once"));
    }
    match &options.destination {
        Destination::File(_) if inputs.len() > 1 => {
            return Err(Error::usage(
                "-o takes one input; use --out-dir or --in-place for several",
            ))
        }
        Destination::Dir(_) if stdin > 0 => {
            return Err(Error::usage(
                "--out-dir names results after their inputs; use -o FILE for stdin",
            ))
        }
        Destination::InPlace if options.on_error == OnError::Null => {
            return Err(Error::usage(
                "--in-place with --on-error null would write null over lines of the input; write to -o or --out-dir instead",
            ))
        }
        Destination::InPlace if stdin > 0 => {
            return Err(Error::usage(
                "--in-place rewrites files; it cannot rewrite stdin",
            ))
        }
        Destination::Dir(dir) => {
            let mut names = BTreeMap::new();
            for input in inputs {
                if let Input::Path(path) = input {
                    if let Some(name) = path.file_name() {
                        if let Some(other) = names.insert(name.to_os_string(), path.clone()) {
                            return Err(Error::usage(format!(
                                "{} and {} would both be written to {}",
                                other.display(),
                                path.display(),
                                dir.join(name).display()
                            )));
                        }
                    }
                }
            }
        }
        Destination::Stdout if inputs.len() > 1 => {
            // Several images cannot share stdout; documents can.
            for input in inputs {
                if let Input::Path(path) = input {
                    if peek_is_image(path) {
                        return Err(Error::usage(format!(
                            "{}: an image among several inputs needs --out-dir, --in-place or -o",
                            path.display()
                        )));
                    }
                }
            }
        }
        _ => {}
    }
    Ok(())
}

fn peek_is_image(path: &Path) -> bool {
    let mut prefix = [0u8; 32];
    // Only a regular file: a FIFO's bytes would be taken from the reading
    // that follows.
    if !fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return false;
    }
    let Ok(mut file) = fs::File::open(path) else {
        return false;
    };
    let n = file.read(&mut prefix).unwrap_or(0);
    sniff_format(&prefix[..n]).is_ok()
}

/// What `resize` takes, for the message about what it does not.
const TAKES: &str = "PNG, JPEG, GIF, WebP, BMP and TIFF images, and JSON documents";

/// The type of an input that starts as a known type which is neither an image
/// `resize` reads nor text (an icon, a PDF, an archive): read as JSON, it
/// would only be called invalid JSON.
fn other_type(prefix: &[u8]) -> Option<String> {
    crate::media::sniff(prefix).filter(|kind| !crate::media::is_text_type(kind))
}

/// The error of a failed write to `path` (or of a read under it: see
/// [`Error::write`]).
pub(super) fn write_error(path: &Path) -> impl Fn(io::Error) -> Error + '_ {
    move |source| Error::write(path, source)
}

/// Reads one input and resizes what it holds; returns its status, or the
/// error of a closed stdout (which ends the run).
fn run_input(
    input: &Input,
    options: &RunOptions,
    report: Emit<'_>,
    sink: &dyn Sink,
) -> Result<ExitStatus> {
    let label = input.label();
    let outcome = (|| -> Result<ExitStatus> {
        if let Input::Path(path) = input {
            if let Some(recording) = crate::recorded::open(path, options.max_document)? {
                return Ok(super::recorded::report_recording(
                    &recording, &label, options, report,
                ));
            }
        }
        // An input rewritten in place: a regular file (or a link to one),
        // and what it was before it is read.
        let in_place = match (&options.destination, input) {
            (Destination::InPlace, Input::Path(path)) => {
                Some(crate::io::replace::in_place_target(path)?)
            }
            _ => None,
        };
        let mut reader = input.open()?;
        let mut prefix = Vec::with_capacity(32);
        (&mut reader)
            .take(32)
            .read_to_end(&mut prefix)
            .map_err(|source| Error::Read {
                path: match input {
                    Input::Path(p) => p.clone(),
                    Input::Stdin => PathBuf::from("-"),
                },
                source,
            })?;
        let reader: Box<dyn BufRead + Send> = Box::new(io::BufReader::with_capacity(
            1 << 16,
            io::Cursor::new(prefix.clone()).chain(reader),
        ));
        if sniff_format(&prefix).is_ok() {
            let mut bytes = Vec::new();
            let max = options.max_document;
            reader
                .take(max.saturating_add(1))
                .read_to_end(&mut bytes)
                .map_err(|source| Error::Read {
                    path: PathBuf::from(&label),
                    source,
                })?;
            if bytes.len() as u64 > max {
                return Err(Error::TooLarge {
                    path: PathBuf::from(&label),
                    line: None,
                    limit: max,
                });
            }
            sink.progress(bytes.len() as u64);
            run_image(input, &label, bytes, options, in_place, report, sink)
        } else if let Some(kind) = other_type(&prefix) {
            Err(Error::rejected(format!(
                "{label}: {} (it takes {TAKES})",
                super::ResizeError::NotAnImage(Some(kind))
            )))
        } else {
            run_json(input, &label, reader, options, in_place, report, sink)
        }
    })();
    match outcome {
        Ok(status) => Ok(status),
        Err(error) if error.is_broken_pipe() => Err(error),
        Err(error) => {
            let status = if error.exit_code() == 1 {
                ExitStatus::Failure
            } else {
                ExitStatus::Error
            };
            report(Report::Error(format!("{:#}", anyhow::Error::from(error))));
            Ok(status)
        }
    }
}

/// Resizes one image file and writes the result where it goes.
fn run_image(
    input: &Input,
    label: &str,
    bytes: Vec<u8>,
    options: &RunOptions,
    in_place: Option<(PathBuf, Seen)>,
    report: Emit<'_>,
    sink: &dyn Sink,
) -> Result<ExitStatus> {
    let at = Where {
        label,
        line: None,
        pointer: None,
    };
    if options.destination == Destination::Stdout && sink.stdout_is_terminal() {
        return Err(Error::usage(format!(
            "{label}: refusing to write an image to a terminal; use -o FILE, --out-dir DIR or --in-place, or redirect stdout"
        )));
    }
    let result = resize_image(&bytes, &options.resize);
    let Ok(resized) = &result else {
        report_image(options.report, &at, &result, None, false, report);
        return Ok(ExitStatus::Failure);
    };
    let written = write_image(
        input,
        &bytes,
        resized,
        &options.destination,
        in_place,
        report,
        sink,
    )?;
    report_image(
        options.report,
        &at,
        &result,
        written.as_deref(),
        false,
        report,
    );
    Ok(ExitStatus::Success)
}

/// Writes one resized image (`bytes` when it is unchanged) where it goes;
/// the file written, if any.
fn write_image(
    input: &Input,
    bytes: &[u8],
    resized: &Resized,
    destination: &Destination,
    in_place: Option<(PathBuf, Seen)>,
    report: Emit<'_>,
    sink: &dyn Sink,
) -> Result<Option<PathBuf>> {
    let new_bytes = resized.bytes.as_deref().unwrap_or(bytes);
    let format = resized.after.format;
    Ok(match destination {
        Destination::Stdout => {
            let mut out = sink.stdout();
            out.write_all(new_bytes)
                .and_then(|_| out.flush())
                .map_err(write_error(Path::new("<stdout>")))?;
            None
        }
        Destination::File(path) => {
            write_atomic(path, new_bytes)?;
            let named = crate::media::extension_of_path(path)
                .as_deref()
                .and_then(crate::media::from_extension);
            if named.is_some_and(|t| t != format.media_type()) {
                report(Report::Warn(format!(
                    "{}: content is {}, not {}",
                    path.display(),
                    format.media_type(),
                    named.unwrap_or_default()
                )));
            }
            Some(path.clone())
        }
        Destination::Dir(dir) => {
            let Input::Path(path) = input else {
                return Err(Error::usage("--out-dir needs a named input"));
            };
            let target = dir.join(renamed(path, resized.before.format, format));
            crate::io::write_in_folder(&target, new_bytes)?;
            Some(target)
        }
        Destination::InPlace => {
            let Some((path, seen)) = in_place else {
                return Err(Error::usage("--in-place cannot rewrite stdin"));
            };
            let path = &path;
            if !resized.changed() {
                None
            } else {
                let target = path.with_file_name(renamed(path, resized.before.format, format));
                if target != *path && target.exists() {
                    return Err(Error::Write {
                        path: target.clone(),
                        source: io::Error::new(
                            io::ErrorKind::AlreadyExists,
                            format!(
                                "{} is now {}, and {} exists already",
                                path.display(),
                                format.name(),
                                target.display()
                            ),
                        ),
                    });
                }
                if target == *path {
                    Replacement::in_place(path, seen)?.write_whole(new_bytes)?;
                } else {
                    // A new name for the new format: the old file goes once
                    // the new one is in place (and only if it is as read),
                    // so it must be one that may go.
                    crate::io::replace::check_removable(path)?;
                    write_atomic(&target, new_bytes)?;
                    if Seen::now(path).ok() == Some(seen) {
                        fs::remove_file(path).map_err(write_error(path))?;
                    }
                }
                Some(target)
            }
        }
    })
}

/// The file name of a result: the input's, with the extension of a new format.
fn renamed(path: &Path, before: Format, after: Format) -> std::ffi::OsString {
    let name = path.file_name().unwrap_or_default();
    if before == after {
        return name.to_os_string();
    }
    let stem = Path::new(name).file_stem().unwrap_or(name);
    let mut out = stem.to_os_string();
    out.push(".");
    out.push(after.extension());
    out
}

/// Where the documents of a JSON input are written.
pub(super) enum Out<'s> {
    Stdout(Box<dyn Output + 's>),
    /// A file, put in place once all is well ([`Replacement`]).
    File(Box<BufWriter<Replacement>>),
}

impl Out<'_> {
    pub(super) fn open(file: Replacement) -> Out<'static> {
        Out::File(Box::new(BufWriter::with_capacity(1 << 20, file)))
    }

    /// Writes all of `input` (a document passing through unchanged).
    pub(super) fn write_file(&mut self, input: &InputFile<'_>) -> Result<()> {
        match self {
            Out::Stdout(out) => out
                .write_file(input)
                .map_err(write_error(Path::new("<stdout>"))),
            Out::File(out) => {
                out.flush().map_err(|e| out.get_ref().error(e))?;
                let result = copy_file_to_file(input, out.get_mut().file());
                result.map_err(|e| out.get_ref().error(e))
            }
        }
    }

    pub(super) fn write(&mut self, bytes: &[u8]) -> Result<()> {
        match self {
            Out::Stdout(out) => out
                .write_all(bytes)
                .map_err(write_error(Path::new("<stdout>"))),
            Out::File(out) => out.write_all(bytes).map_err(|e| out.get_ref().error(e)),
        }
    }

    /// Finishes the output: flushes stdout, or puts the file in place.
    pub(super) fn commit(self) -> Result<()> {
        match self {
            Out::Stdout(mut out) => out.flush().map_err(write_error(Path::new("<stdout>"))),
            Out::File(out) => match (*out).into_inner() {
                Ok(file) => file.commit(),
                Err(e) => {
                    let (error, out) = e.into_parts();
                    Err(out.get_ref().error(error))
                }
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The side of a failed copy that failed is named: a read of the input
    /// is the input's error, a write the output's, and a change to the input
    /// meanwhile is said as such.
    #[test]
    fn a_failed_copy_names_the_side_that_failed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("in.json");
        fs::write(&path, vec![b'x'; 1 << 16]).unwrap();
        let blamed = |error| match Error::write("<stdout>", error) {
            Error::Read { path, .. } => format!("read {}", path.display()),
            Error::Write { path, .. } => format!("write {}", path.display()),
            other => panic!("{other}"),
        };
        // Opened to write only: every read of it fails.
        let write_only = File::options().write(true).open(&path).unwrap();
        let input = InputFile {
            file: &write_only,
            path: &path,
            seen: None,
        };
        let error = copy_file_to_file(&input, &mut tempfile::tempfile().unwrap()).unwrap_err();
        assert_eq!(blamed(error), format!("read {}", path.display()));
        let error = copy_file(&input, &mut Vec::new()).unwrap_err();
        assert_eq!(blamed(error), format!("read {}", path.display()));

        // An output opened to read only: every write to it fails.
        let readable = File::open(&path).unwrap();
        let input = InputFile {
            file: &readable,
            path: &path,
            seen: Some(Seen::of(&readable.metadata().unwrap())),
        };
        let mut read_only = File::open(dir.path().join("in.json")).unwrap();
        let error = copy_file_to_file(&input, &mut read_only).unwrap_err();
        assert_eq!(blamed(error), "write <stdout>");

        // Cut short since it was first read.
        File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(10)
            .unwrap();
        let errors = [
            copy_file_to_file(&input, &mut tempfile::tempfile().unwrap()).unwrap_err(),
            copy_file(&input, &mut Vec::new()).unwrap_err(),
        ];
        for error in errors {
            let message = format!("{:#}", anyhow::Error::from(Error::write("<stdout>", error)));
            assert_eq!(
                message,
                format!(
                    "cannot read {}: it changed while partkit read it",
                    path.display()
                )
            );
        }
    }
}
