//! Inputs and files: paths and `-`, JSON vs JSON Lines, a line-numbered document
//! reader whose memory is bounded by the largest line, and atomic writes.

use std::fs::{self, File};
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

pub mod limits;
mod lines;
pub mod replace;
mod source;
mod spans;

use source::Source;
pub use spans::{span_end, span_lines, SpanLine};

pub use limits::DEFAULT_MAX_DOCUMENT;
pub use lines::Slot;
pub use replace::{write_atomic, write_in_folder, write_new};

/// The read buffer: large enough that a JSON Lines file of megabyte lines
/// is read in few system calls and copied out in long runs.
const READ_BUFFER: usize = 1 << 20;

/// Where an input comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    Stdin,
    Path(PathBuf),
}

impl Input {
    /// `-` is standard input; anything else a path.
    pub fn from_arg(arg: impl Into<PathBuf>) -> Input {
        let path = arg.into();
        if path.as_os_str() == "-" {
            Input::Stdin
        } else {
            Input::Path(path)
        }
    }

    /// The name used in messages: the path as given, or `<stdin>`.
    pub fn label(&self) -> String {
        match self {
            Input::Stdin => "<stdin>".to_string(),
            Input::Path(path) => path.display().to_string(),
        }
    }

    /// The path errors name: the path as given, or `-` for stdin.
    pub fn error_path(&self) -> PathBuf {
        match self {
            Input::Stdin => PathBuf::from("-"),
            Input::Path(path) => path.clone(),
        }
    }

    /// Opens the input for buffered reading.
    pub fn open(&self) -> Result<Box<dyn BufRead + Send>> {
        match self {
            Input::Stdin => Ok(Box::new(BufReader::with_capacity(READ_BUFFER, io::stdin()))),
            Input::Path(path) => Ok(Box::new(BufReader::with_capacity(
                READ_BUFFER,
                open_file(path)?,
            ))),
        }
    }

    /// Reads the whole input, refusing more than `limit` bytes when one is given
    /// (the result then has `limit + 1` bytes so the caller can report the excess).
    /// More than `max` (the document limit, docs/limits.md) is
    /// [`Error::TooLarge`] in any case.
    pub fn read_all(&self, limit: Option<u64>, max: u64) -> Result<Vec<u8>> {
        let mut reader = self.open()?;
        let mut bytes = Vec::new();
        let take = limit.map_or(max, |limit| limit.min(max));
        reader
            .by_ref()
            .take(take.saturating_add(1))
            .read_to_end(&mut bytes)
            .map_err(|source| Error::Read {
                path: self.error_path(),
                source,
            })?;
        if bytes.len() as u64 > max {
            return Err(Error::TooLarge {
                path: self.error_path(),
                line: None,
                limit: max,
            });
        }
        Ok(bytes)
    }

    /// The size of a regular file, when the input is one (used to refuse an
    /// oversize file before reading it).
    pub fn file_len(&self) -> Option<u64> {
        match self {
            Input::Path(path) => fs::metadata(path)
                .ok()
                .filter(|m| m.is_file())
                .map(|m| m.len()),
            Input::Stdin => None,
        }
    }
}

/// How the documents of an input are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Detect: JSON Lines when the first value is followed by another on a later line.
    Auto,
    /// One JSON value per non-blank line.
    JsonLines,
}

/// One JSON document of an input: its bytes and the line it starts on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    /// 1 for a single JSON document, N for line N of a JSON Lines input.
    pub line: usize,
    pub bytes: Vec<u8>,
}

/// Reads the documents of one input, one at a time, so that memory grows with the
/// largest line (or the single document), never with the file.
pub struct Documents {
    reader: Source,
    source: PathBuf,
    line: usize,
    state: State,
    json_lines: bool,
    /// A document read ahead by [`Documents::detect`], with its offset.
    pending: Option<(usize, u64, Vec<u8>)>,
    /// Bytes consumed from the reader so far.
    offset: u64,
    /// Where the last document handed out starts, in bytes from the beginning.
    doc_offset: u64,
    /// Whether the last line read ended with a line break.
    terminated: bool,
    /// Bytes read ahead by [`Documents::fill_lines`] and not yet handed out.
    carry: Vec<u8>,
    /// The first line not yet handed out as a document or a blank line.
    blank_from: usize,
    /// The most bytes one document may have (the document limit,
    /// [`limits`]).
    limit: u64,
    /// The input's size, when it is a file.
    size_hint: Option<u64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Start(Layout),
    Lines,
    Done,
}

impl Documents {
    /// Prepares to read the documents of `input`, none of more than `max`
    /// bytes (the document limit, docs/limits.md).
    /// A regular file of 1 MiB or more is mapped: its JSON Lines are handed
    /// out as ranges of the map ([`Documents::mapped`]).
    pub fn open(input: &Input, layout: Layout, max: u64) -> Result<Documents> {
        let (reader, size_hint) = match input {
            Input::Path(path) => {
                let file = open_file(path)?;
                match crate::mapped::Mapped::large(&file) {
                    Some(map) => {
                        let size = map.len() as u64;
                        let map = std::sync::Arc::new(map);
                        (Source::Mapped { map, at: 0 }, Some(size))
                    }
                    None => {
                        let buffered = BufReader::with_capacity(READ_BUFFER, file);
                        (Source::Buffered(Box::new(buffered)), input.file_len())
                    }
                }
            }
            Input::Stdin => (Source::Buffered(input.open()?), None),
        };
        let mut documents =
            Documents::from_reader(Box::new(io::empty()), input.error_path(), layout, max);
        documents.reader = reader;
        documents.size_hint = size_hint;
        Ok(documents)
    }

    /// The mapped file the documents are read from, when they are, and how
    /// far into it they have been read: the ranges [`Documents::fill_lines`]
    /// gives are then ranges of it.
    pub fn mapped(&self) -> Option<(&std::sync::Arc<crate::mapped::Mapped>, usize)> {
        match &self.reader {
            Source::Mapped { map, at } => Some((map, *at)),
            Source::Buffered(_) => None,
        }
    }

    /// Reads documents from any buffered reader; `source` names it in errors.
    /// A document over `max` bytes is [`Error::TooLarge`].
    pub fn from_reader(
        reader: Box<dyn BufRead + Send>,
        source: PathBuf,
        layout: Layout,
        max: u64,
    ) -> Documents {
        Documents {
            reader: Source::Buffered(reader),
            source,
            line: 0,
            state: State::Start(layout),
            json_lines: false,
            pending: None,
            offset: 0,
            doc_offset: 0,
            terminated: false,
            carry: Vec::new(),
            blank_from: 1,
            limit: max,
            size_hint: None,
        }
    }

    /// Whether the documents turned out to be JSON Lines (known after the first).
    pub fn is_json_lines(&self) -> bool {
        self.json_lines
    }

    fn read_error(&self, source: io::Error) -> Error {
        Error::Read {
            path: self.source.clone(),
            source,
        }
    }

    /// The error of a document starting on `line` that is longer than the
    /// limit.
    pub fn too_large(&self, line: usize) -> Error {
        Error::TooLarge {
            path: self.source.clone(),
            line: Some(line),
            limit: self.limit,
        }
    }

    /// Appends the next non-blank line to `buf` (without its line break); returns
    /// its line number, or `None` at the end.
    fn next_line(&mut self, buf: &mut Vec<u8>) -> Result<Option<usize>> {
        let start = buf.len();
        let max = usize::try_from(self.limit).unwrap_or(usize::MAX);
        loop {
            buf.truncate(start);
            let n = if self.carry.is_empty() {
                read_line(&mut self.reader, buf, max).map_err(|e| self.read_error(e))?
            } else {
                // Read ahead by `fill_lines`: the line begins there.
                let take = memchr::memchr(b'\n', &self.carry).map_or(self.carry.len(), |at| at + 1);
                buf.extend(self.carry.drain(..take));
                let mut n = take;
                if buf.last() != Some(&b'\n') {
                    let room = max.saturating_sub(take);
                    n += read_line(&mut self.reader, buf, room).map_err(|e| self.read_error(e))?;
                }
                n
            };
            if n == 0 {
                return Ok(None);
            }
            // A line break ends the line at `max + 1` bytes at the most.
            if buf.len() - start > max.saturating_add(1)
                || (buf.len() - start > max && buf.last() != Some(&b'\n'))
            {
                return Err(self.too_large(self.line + 1));
            }
            self.doc_offset = self.offset;
            self.offset += n as u64;
            self.line += 1;
            self.terminated = buf.last() == Some(&b'\n');
            while buf.len() > start && buf.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
                buf.pop();
            }
            if buf[start..].iter().any(|b| !b.is_ascii_whitespace()) {
                return Ok(Some(self.line));
            }
        }
    }

    /// Whether anything but whitespace is left in the reader.
    fn more_content(&mut self) -> Result<bool> {
        loop {
            let source = &self.source;
            let chunk = self.reader.fill_buf().map_err(|e| Error::Read {
                path: source.clone(),
                source: e,
            })?;
            if chunk.is_empty() {
                return Ok(false);
            }
            if let Some(pos) = chunk.iter().position(|b| !b.is_ascii_whitespace()) {
                let newlines = chunk[..pos].iter().filter(|b| **b == b'\n').count();
                self.reader.consume(pos);
                self.offset += pos as u64;
                self.line += newlines;
                return Ok(true);
            }
            let (len, newlines) = (chunk.len(), chunk.iter().filter(|b| **b == b'\n').count());
            self.reader.consume(len);
            self.offset += len as u64;
            self.line += newlines;
        }
    }

    /// Reads ahead to the first document so that [`Documents::is_json_lines`]
    /// is known before any document is handed out. Returns whether there is one.
    ///
    /// Forced JSON Lines read nothing ahead: every line, the first too, is
    /// then read by [`Documents::fill_lines`], which reads past a line over
    /// the limit; there is a document to read when there is any byte.
    pub fn detect(&mut self) -> Result<bool> {
        if self.state == State::Start(Layout::JsonLines) {
            self.json_lines = true;
            let source = &self.source;
            let any = self.reader.fill_buf().map_err(|e| Error::Read {
                path: source.clone(),
                source: e,
            })?;
            return Ok(!any.is_empty());
        }
        if self.pending.is_none() {
            let mut buf = Vec::new();
            if let Some(line) = self.read_next(&mut buf)? {
                self.pending = Some((line, self.doc_offset, buf));
            }
        }
        Ok(self.pending.is_some())
    }

    /// Reads the next document into `buf`, returning the line it starts on.
    pub fn next_into(&mut self, buf: &mut Vec<u8>) -> Result<Option<usize>> {
        buf.clear();
        self.next_append(buf)
    }

    /// Appends the next document to `buf` (it starts at the length `buf` had),
    /// returning the line it starts on.
    pub fn next_append(&mut self, buf: &mut Vec<u8>) -> Result<Option<usize>> {
        if let Some((line, offset, pending)) = self.pending.take() {
            if buf.is_empty() {
                *buf = pending;
            } else {
                buf.extend_from_slice(&pending);
            }
            self.doc_offset = offset;
            return Ok(Some(line));
        }
        self.read_next(buf)
    }

    /// Where the document last handed out starts, in bytes from the beginning of
    /// the input (a single document spans from there to the end).
    pub fn document_offset(&self) -> u64 {
        self.doc_offset
    }

    fn read_next(&mut self, buf: &mut Vec<u8>) -> Result<Option<usize>> {
        match self.state {
            State::Done => Ok(None),
            State::Lines => {
                let line = self.next_line(buf)?;
                if line.is_none() {
                    self.state = State::Done;
                }
                Ok(line)
            }
            State::Start(layout) => {
                let start = buf.len();
                let Some(first) = self.next_line(buf)? else {
                    self.state = State::Done;
                    return Ok(None);
                };
                if layout == Layout::JsonLines {
                    self.state = State::Lines;
                    self.json_lines = true;
                    return Ok(Some(first));
                }
                let complete =
                    serde_json::from_slice::<serde::de::IgnoredAny>(&buf[start..]).is_ok();
                if complete {
                    if self.more_content()? {
                        self.state = State::Lines;
                        self.json_lines = true;
                    } else {
                        self.state = State::Done;
                    }
                    return Ok(Some(first));
                }
                // A document spread over lines: the rest of the input belongs to it.
                if self.terminated {
                    buf.push(b'\n');
                }
                let max = self.limit;
                let room = max.saturating_sub((buf.len() - start) as u64);
                // Room for the rest of a file, read at once: grown by
                // doubling, a large one was copied and faulted in twice over.
                if let Some(size) = self.size_hint {
                    let rest = size.saturating_sub(self.offset).min(room);
                    buf.reserve(usize::try_from(rest).unwrap_or(0));
                }
                let rest = (&mut self.reader)
                    .take(room.saturating_add(1))
                    .read_to_end(buf)
                    .map_err(|e| self.read_error(e))?;
                if (buf.len() - start) as u64 > max {
                    return Err(self.too_large(first));
                }
                self.offset += rest as u64;
                self.state = State::Done;
                Ok(Some(first))
            }
        }
    }
}

/// The size from which a file's one document is read with its payloads left
/// in the file ([`crate::document::Document::open`]):
/// below it, reading the file whole costs less than reading its payloads
/// twice.
const LARGE_FILE: u64 = 1 << 20;

/// The input when it is a regular file of at least [`LARGE_FILE`] bytes,
/// opened; `None` for stdin, a smaller file, or one that does not open (the
/// usual way then says why).
pub(crate) fn large_file(input: Option<&Path>) -> Option<(&Path, File)> {
    let path = input.filter(|p| *p != Path::new("-"))?;
    // Looked at before it is opened: opening a FIFO waits for its writer and
    // takes what it writes, which the reading that follows then never sees.
    let regular = fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() >= LARGE_FILE);
    if !regular {
        return None;
    }
    let file = open_file(path).ok()?;
    let large = file
        .metadata()
        .is_ok_and(|m| m.is_file() && m.len() >= LARGE_FILE);
    large.then_some((path, file))
}

/// Opens a file to read, refusing a directory (which opens on Unix, and
/// fails only at the first read with a less helpful message).
pub fn open_file(path: &Path) -> Result<File> {
    let read_error = |source| Error::Read {
        path: path.to_path_buf(),
        source,
    };
    let file = File::open(path).map_err(read_error)?;
    if file.metadata().is_ok_and(|m| m.is_dir()) {
        return Err(read_error(io::Error::new(
            io::ErrorKind::InvalidInput,
            "is a directory",
        )));
    }
    Ok(file)
}

/// `BufRead::read_until(b'\n')` with the `memchr` crate's search (SIMD; the
/// standard library's goes a word at a time, and lines here run to megabytes).
/// Stops once more than `max` bytes are read without a line break (the caller
/// then reports the line as too large).
fn read_line(reader: &mut dyn BufRead, buf: &mut Vec<u8>, max: usize) -> io::Result<usize> {
    let mut read = 0;
    loop {
        if read > max {
            return Ok(read);
        }
        let available = match reader.fill_buf() {
            Ok(available) => available,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        let (used, done) = match memchr::memchr(b'\n', available) {
            Some(end) => (end + 1, true),
            None => (available.len(), available.is_empty()),
        };
        buf.extend_from_slice(&available[..used]);
        reader.consume(used);
        read += used;
        if done {
            return Ok(read);
        }
    }
}

impl Iterator for Documents {
    type Item = Result<Document>;

    fn next(&mut self) -> Option<Self::Item> {
        let mut bytes = Vec::new();
        match self.next_into(&mut bytes) {
            Ok(Some(line)) => Some(Ok(Document { line, bytes })),
            Ok(None) => None,
            Err(error) => {
                self.state = State::Done;
                Some(Err(error))
            }
        }
    }
}

/// A temporary file in `dir`, to be renamed over a file there. It is
/// created with the mode a new file gets (0666 less the umask, as `>` and
/// `cp` give), not the temporary files' private 0600: a new file keeps it.
pub fn temp_file_in(dir: &Path) -> io::Result<tempfile::NamedTempFile> {
    use std::os::unix::fs::PermissionsExt;
    tempfile::Builder::new()
        .prefix(".partkit-")
        .suffix(".tmp")
        .permissions(fs::Permissions::from_mode(0o666))
        .tempfile_in(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn documents(text: &str, layout: Layout) -> (Vec<(usize, String)>, bool) {
        let reader: Box<dyn BufRead + Send> = Box::new(io::Cursor::new(text.as_bytes().to_vec()));
        let mut docs =
            Documents::from_reader(reader, PathBuf::from("t"), layout, DEFAULT_MAX_DOCUMENT);
        let mut out = Vec::new();
        let mut buf = Vec::new();
        while let Some(line) = docs.next_into(&mut buf).unwrap() {
            out.push((line, String::from_utf8(buf.clone()).unwrap()));
        }
        (out, docs.is_json_lines())
    }

    #[test]
    fn single_document_on_one_line() {
        let (docs, jsonl) = documents("{\"a\":1}\n\n", Layout::Auto);
        assert_eq!(docs, vec![(1, "{\"a\":1}".to_string())]);
        assert!(!jsonl);
    }

    #[test]
    fn pretty_document_spans_lines() {
        let (docs, jsonl) = documents("\n{\n  \"a\": 1\n}\n", Layout::Auto);
        assert_eq!(docs.len(), 1);
        assert_eq!(docs[0].0, 2);
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&docs[0].1).unwrap(),
            serde_json::json!({"a": 1})
        );
        assert!(!jsonl);
    }

    #[test]
    fn json_lines_are_numbered_with_blank_lines_counted() {
        let (docs, jsonl) = documents("{\"a\":1}\n\n{\"b\":2}\r\n[3]\n", Layout::Auto);
        assert_eq!(
            docs,
            vec![
                (1, "{\"a\":1}".to_string()),
                (3, "{\"b\":2}".to_string()),
                (4, "[3]".to_string())
            ]
        );
        assert!(jsonl);
    }

    #[test]
    fn forced_json_lines_keep_bad_lines_for_the_caller() {
        let (docs, _) = documents("{\"a\":1}\nnot json\n", Layout::JsonLines);
        assert_eq!(docs[1], (2, "not json".to_string()));
        let (docs, _) = documents("{\"a\":1}", Layout::JsonLines);
        assert_eq!(docs, vec![(1, "{\"a\":1}".to_string())]);
    }

    #[test]
    fn documents_know_their_offsets() {
        let text = "\n{\"a\":1}\r\n\n  {\"b\":2}\n";
        let reader: Box<dyn BufRead + Send> = Box::new(io::Cursor::new(text.as_bytes().to_vec()));
        let mut docs = Documents::from_reader(
            reader,
            PathBuf::from("t"),
            Layout::Auto,
            DEFAULT_MAX_DOCUMENT,
        );
        let mut buf = Vec::new();
        let mut seen = Vec::new();
        while let Some(line) = docs.next_into(&mut buf).unwrap() {
            let at = docs.document_offset() as usize;
            assert_eq!(&text.as_bytes()[at..at + buf.len()], buf.as_slice());
            seen.push((line, at));
        }
        assert_eq!(seen, vec![(2, 1), (4, 13)]);
    }

    #[test]
    fn empty_input_has_no_documents() {
        assert!(documents("", Layout::Auto).0.is_empty());
        assert!(documents(" \n\n", Layout::Auto).0.is_empty());
    }

    #[test]
    fn atomic_write_replaces_and_keeps_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.json");
        fs::write(&path, b"old").unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
        write_atomic(&path, b"new").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"new");
        assert_eq!(
            fs::metadata(&path).unwrap().permissions().mode() & 0o777,
            0o640
        );
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
