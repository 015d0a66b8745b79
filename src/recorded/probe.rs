//! Telling a recording from a document by content.

use std::io::Read;
use std::path::Path;

use crate::error::Error;
use crate::recording::{self, Recording, Stage};
use crate::shapes::Registered;

/// What a file turned out to be.
#[derive(Debug)]
pub enum Probe {
    /// A recording, read.
    Recording(Recording),
    /// Not a recording: read it as JSON or JSON Lines, as any input.
    Plain,
    /// A file named as a recording (`.yaml`, `.har`, …) that holds data of
    /// another kind (a config file met in a folder walk): passed over, with
    /// the reason.
    Other(String),
    /// A file named as a recording that does not read (YAML with a syntax
    /// error, gzip that does not decompress): the error, exit code 1.
    Broken(Error),
}

/// The recording at `path`, when the file is one; `None` for a document.
/// For a command given that one file: a file named as a recording that
/// holds other data is an error (exit 1), as one that does not read is.
pub fn open(path: &Path, max_document: u64) -> Result<Option<Recording>, Error> {
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

/// [`open`] for a command's one input: none, or `-` (stdin), is never a
/// recording (it is read once, as a document).
pub fn open_input(input: Option<&Path>, max_document: u64) -> Result<Option<Recording>, Error> {
    match input.filter(|path| path.as_os_str() != "-") {
        Some(path) => open(path, max_document),
        None => Ok(None),
    }
}

/// How many bytes [`probe`] looks at before reading a file whole.
const PREFIX: usize = 512;

/// Reads `path` as a recording if its first bytes could open one and the
/// whole of it is one. Anything but a regular file, and a file over
/// `max_document` bytes, is left to the usual route, which reads it once
/// and reports it as it reports any input.
pub fn probe(path: &Path, max_document: u64) -> Probe {
    // Only a regular file is probed: a FIFO or a device is read once, by
    // the usual route, and a file over the limit is reported there too.
    let regular = std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() <= max_document);
    if !regular {
        return Probe::Plain;
    }
    let Ok(mut file) = std::fs::File::open(path) else {
        // The usual route reports what is wrong with it.
        return Probe::Plain;
    };
    let mut prefix = Vec::with_capacity(PREFIX);
    if (&mut file)
        .take(PREFIX as u64)
        .read_to_end(&mut prefix)
        .is_err()
    {
        return Probe::Plain;
    }
    let chunks = !recording::may_be(&prefix) && opens_stream(&mut file, &mut prefix);
    if !chunks && !recording::may_be(&prefix) {
        return Probe::Plain;
    }
    let mut bytes = prefix;
    if let Err(source) = file.read_to_end(&mut bytes) {
        return Probe::Broken(Error::Read {
            path: path.to_path_buf(),
            source,
        });
    }
    if chunks {
        return Probe::Recording(recording::chunks(&bytes));
    }
    // The file's text is dropped once read: the recording holds each body
    // once, and nothing else of the file is kept.
    match recording::parse_or_refuse(&bytes, path) {
        Ok(recording) => Probe::Recording(recording),
        // Named otherwise, it is read as a document, as before.
        Err(_) if !is_recording_name(path) => Probe::Plain,
        Err(refusal) => match refusal.stage {
            Stage::OtherData => Probe::Other(match refusal.error {
                Error::NotRecording { reason, .. } => reason,
                other => other.to_string(),
            }),
            Stage::NotText | Stage::NotData => Probe::Broken(refusal.error),
        },
    }
}

/// Whether a file's name is one recordings are kept under: `.yaml`, `.yml`,
/// `.har`, and those gzipped (`.yaml.gz`). A folder walk takes these beside
/// `.json` and `.jsonl`; a file named otherwise is still read as a recording
/// when its content is one.
pub fn is_recording_name(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    let name = name.to_ascii_lowercase();
    let name = name.strip_suffix(".gz").unwrap_or(&name);
    [".yaml", ".yml", ".har"]
        .iter()
        .any(|ext| name.ends_with(ext))
}

/// The most of a file's first lines [`opens_stream`] reads.
const FIRST_LINES: u64 = 64 * 1024;

/// How many of a file's first lines [`opens_stream`] looks at: a stream's
/// first chunk may carry only metadata (Azure's `prompt_filter_results`).
const LINES: usize = 3;

/// Whether the file, read so far into `prefix`, is JSON Lines one of whose
/// first lines can only be an event of a stream (a shape's
/// [`crate::contract::StreamAssembler::opens`]), or two of whose first lines
/// in a row can only be chunks of one stream
/// ([`crate::contract::StreamAssembler::continues`]): a fixture of one
/// streamed response's chunks, one event a line. Reads on into `prefix` (at most
/// [`FIRST_LINES`] bytes).
fn opens_stream(file: &mut std::fs::File, prefix: &mut Vec<u8>) -> bool {
    let starts_object = prefix
        .iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|b| *b == b'{');
    if !starts_object {
        return false;
    }
    let Ok(read) = Read::by_ref(file).take(FIRST_LINES).read_to_end(prefix) else {
        return false;
    };
    let assemblers = || {
        crate::shapes::Shape::ALL
            .into_iter()
            .filter_map(|shape| shape.dialect().stream())
    };
    // Only whole lines: the last piece is cut when the read stopped short of
    // the file's end (a file's last line need not end with a newline).
    let mut lines = prefix.split(|b| *b == b'\n');
    if read as u64 == FIRST_LINES {
        lines.next_back();
    }
    let first: Vec<serde_json::Value> = lines
        .filter(|line| !line.iter().all(u8::is_ascii_whitespace))
        .take(LINES)
        .filter_map(|line| serde_json::from_slice(line).ok())
        .collect();
    first
        .iter()
        .any(|event| assemblers().any(|assembler| assembler.opens(event)))
        || first
            .windows(2)
            .any(|pair| assemblers().any(|assembler| assembler.continues(&pair[0], &pair[1])))
}
