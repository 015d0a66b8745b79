//! `partkit encode` of files and stdin: why this exists.
//!
//! [`encode`](super::encode) returns blocks with their base64 in strings, so a
//! 200 MB file was held three times over (the bytes, the base64, the JSON). The
//! command instead makes each file's part with a placeholder for its data
//! ([`Block::Streamed`]), decides everything `encode` decides before printing
//! anything (the type is sniffed from the first [`HEAD`] bytes, the size
//! checked from the file's, the shape's refusals made), and then prints the
//! JSON around the placeholder while [`pump`](super::pump) writes the base64
//! of the bytes in its place, on every core.
//!
//! The bytes themselves are read whole into memory before the first byte of
//! their block is printed ([`Block::load`]), within `--max-part-bytes` and
//! `--max-document-size`: a source that fails while read (an I/O error, a
//! file that grows past the cap, a device without an end) then prints
//! nothing, instead of half a block that no reader can use. Held once, as
//! bytes, a source costs its size in memory and no more; an array holds all
//! its sources, and is bounded by the document limit as a whole, while one
//! part per line (`--jsonl`) holds one source at a time.
//!
//! What it prints is what `encode` would print, byte for byte. A source whose
//! type the head cannot decide alone, or whose block does not carry its data
//! as one base64 string (an Anthropic text document), is made as `encode`
//! makes it.

use std::collections::hash_map::RandomState;
use std::fs::File;
use std::hash::{BuildHasher, Hasher};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::pump::{self, Feed, PumpError};
use super::{
    check_options, check_size, decide_type, encode_source, from_bytes, named, EncodeOptions,
    Refusal, SourceSpec,
};
use crate::b64;
use crate::error::{Error, Result};
use crate::media;
use crate::output::{stdout_error, write_json, Printer};
use crate::part::{MediaPart, Part, Source};
use crate::shapes::Registered;
use crate::shapes::{self, Place, Shape};

/// The bytes read before deciding whether to stream: the sniffer's view of
/// the content. A source no longer than this is read whole.
const HEAD: usize = 256 * 1024;

/// One source's block, ready to print.
#[derive(Debug)]
pub(crate) enum Block {
    /// A block made in memory, as [`encode`](super::encode) makes it, and the
    /// bytes of its source it holds.
    Ready { value: Value, held: u64 },
    /// A block whose data is spliced in as it is printed.
    Streamed(Box<Streamed>),
}

/// A block whose one base64 string holds a placeholder (`token`) where the
/// base64 of `body` goes.
#[derive(Debug)]
pub(crate) struct Streamed {
    value: Value,
    token: String,
    body: Body,
    /// The part with the placeholder, to write again from memory.
    media: MediaPart,
    shape: Shape,
}

/// A source's bytes: a regular file to read again from its start, or a
/// stream after the `head` already taken from it, until [`Body::load`] reads
/// it whole.
pub(crate) struct Body {
    reader: Reader,
    head: Vec<u8>,
    /// Whether `head` is all there is: a source shorter than [`HEAD`], or
    /// one [`loaded`](Body::load).
    at_end: bool,
    /// How read errors and the document limit name the source (`-` for stdin).
    path: PathBuf,
    label: String,
    /// `--max-part-bytes`.
    cap: Option<u64>,
    /// `--max-document-size`.
    limit: u64,
    /// A regular file's size when opened, to read it into one allocation.
    size_hint: Option<u64>,
}

impl std::fmt::Debug for Body {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Body").field("path", &self.path).finish()
    }
}

/// The blocks of every source, in order, and the warnings met.
pub(crate) struct Prepared {
    pub blocks: Vec<Block>,
    pub warnings: Vec<String>,
}

/// How much of the sources [`prepare`] reads before anything is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Hold {
    /// Every source, whole: one JSON array, printed only when all of it can
    /// be. What the array holds is bounded by the document limit as a whole.
    All,
    /// Each source's head; the rest of each is read whole just before its
    /// own line is printed ([`write_line`]).
    Each,
}

/// [`encode`](super::encode) for printing: every source checked, nothing
/// returned unless all succeed; under [`Hold::All`] every source read.
pub(crate) fn prepare(options: &EncodeOptions, hold: Hold) -> Result<Prepared> {
    let sources = Sources::new(options)?;
    let mut warnings = Vec::new();
    let mut blocks = Vec::with_capacity(options.sources.len());
    let limit = options.max_document;
    let mut held = 0u64;
    for (index, source) in options.sources.iter().enumerate() {
        let Some(mut block) = sources.block(index, &mut warnings)? else {
            continue;
        };
        if hold == Hold::All {
            held = held.saturating_add(block.load_within(limit.saturating_sub(held))?);
            if held > limit {
                return Err(together_too_large(source, limit));
            }
        }
        blocks.push(block);
    }
    Ok(Prepared { blocks, warnings })
}

/// The error of an array whose parts together are over the document limit,
/// named by the source that took it over.
fn together_too_large(source: &SourceSpec, limit: u64) -> Error {
    Error::TooLarge {
        path: PathBuf::from(format!("{} with the parts before it", source.label())),
        line: None,
        limit,
    }
}

/// The sources of one run, each made into its block on its own (the
/// placeholders are the run's).
pub(crate) struct Sources<'a> {
    options: &'a EncodeOptions,
    tokens: Tokens,
}

impl<'a> Sources<'a> {
    /// Checks the options that concern all sources together.
    pub(crate) fn new(options: &'a EncodeOptions) -> Result<Sources<'a>> {
        check_options(options)?;
        Ok(Sources {
            options,
            tokens: Tokens::new(),
        })
    }

    /// Source `index`'s block (`None`: left out with a warning): checked,
    /// typed and written for the shape, its data not yet read whole.
    pub(crate) fn block(&self, index: usize, warnings: &mut Vec<String>) -> Result<Option<Block>> {
        let source = &self.options.sources[index];
        let pending = open_source(source, &self.tokens.token(index), self.options, warnings)?;
        write_block(pending, source, self.options, warnings)
    }
}

/// A source's part before it is written as a block: whole, or with the
/// placeholder for data still in `body`.
enum Pending {
    Whole(Part),
    Open {
        media: MediaPart,
        token: String,
        body: Body,
    },
}

fn open_source(
    source: &SourceSpec,
    token: &str,
    options: &EncodeOptions,
    warnings: &mut Vec<String>,
) -> Result<Pending> {
    let label = source.label();
    let (opened, path, extension, name) = match source {
        SourceSpec::Stdin => {
            let stdin = Opened {
                reader: Reader::Stdin(io::stdin()),
                size: None,
            };
            (stdin, PathBuf::from("-"), None, None)
        }
        SourceSpec::Path(path) => {
            let opened = open_path(path)?;
            if let Some(len) = opened.size {
                check_size(&label, path, len, options)?;
            }
            let extension = media::extension_of_path(path);
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
            (opened, path.clone(), extension, name)
        }
        _ => return Ok(Pending::Whole(encode_source(source, options, warnings)?)),
    };
    let Opened { reader, size } = opened;
    let regular_file = size.is_some();
    let mut body = Body {
        reader,
        head: Vec::new(),
        at_end: false,
        path,
        label,
        cap: options.max_part_bytes,
        limit: options.max_document,
        size_hint: size,
    };
    let head = body.read_head()?;
    if head.len() == HEAD && !head_decides(&head) {
        body.head = head;
        let label = body.label.clone();
        let bytes = body.take_all()?;
        let media = from_bytes(
            bytes,
            &label,
            extension.as_deref(),
            None,
            name,
            options,
            warnings,
        )?;
        return Ok(Pending::Whole(named(media, options)));
    }
    if head.len() < HEAD {
        // All of it, refused as `encode` refuses it.
        body.check_bounds(head.len() as u64)?;
        if head.is_empty() {
            return Err(Error::refused(&body.label, Refusal::Empty));
        }
    } else {
        // At least the head: over a bound smaller than the head already.
        body.check_bounds(HEAD as u64)?;
    }
    let media_type = decide_type(
        &head,
        &body.label,
        extension.as_deref(),
        None,
        options,
        warnings,
    )?;
    if regular_file {
        // Read again when its block is printed, so that a run of many files
        // holds none of them, nor their descriptors, before then.
        body.reader = Reader::Closed;
    } else {
        body.at_end = head.len() < HEAD;
        body.head = head;
    }
    let Part::Media(media) = named(
        super::media_part(media_type, Source::Data(token.to_string()), name, options),
        options,
    ) else {
        unreachable!("named makes a media part")
    };
    Ok(Pending::Open {
        media,
        token: token.to_string(),
        body,
    })
}

/// An opened source: a regular file (`size`: its size, and it is read again
/// from its start when printed) or another stream (stdin, a pipe, a device).
struct Opened {
    reader: Reader,
    size: Option<u64>,
}

enum Reader {
    File(File),
    Stdin(io::Stdin),
    /// A regular file set aside after its head was read: opened again, by
    /// its path, when it is read whole.
    Closed,
    /// A source read whole: its file is closed.
    Done,
    /// Any reader, for tests of how a failing read is handled.
    #[cfg(test)]
    Other(Box<dyn Read + Send>),
}

impl Read for Reader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Reader::File(file) => file.read(buf),
            Reader::Stdin(stdin) => stdin.read(buf),
            Reader::Closed | Reader::Done => Ok(0),
            #[cfg(test)]
            Reader::Other(reader) => reader.read(buf),
        }
    }
}

/// Opens a path as [`Input::open`](crate::io::Input::open) does, with the
/// same errors.
fn open_path(path: &Path) -> Result<Opened> {
    let file = crate::io::open_file(path)?;
    let size = file
        .metadata()
        .ok()
        .filter(|m| m.is_file())
        .map(|m| m.len());
    Ok(Opened {
        reader: Reader::File(file),
        size,
    })
}

impl Body {
    fn read_error(&self, source: io::Error) -> Error {
        Error::Read {
            path: self.path.clone(),
            source,
        }
    }

    /// The first [`HEAD`] bytes, or all there are.
    fn read_head(&mut self) -> Result<Vec<u8>> {
        let mut head = Vec::with_capacity(HEAD);
        match (&mut self.reader).take(HEAD as u64).read_to_end(&mut head) {
            Ok(_) => Ok(head),
            Err(error) => Err(self.read_error(error)),
        }
    }

    /// The most bytes the source may have: the cap or the document limit,
    /// whichever is smaller.
    fn bound(&self) -> u64 {
        self.cap.map_or(self.limit, |cap| cap.min(self.limit))
    }

    /// Refuses `len` bytes read over the cap (exit 1) or the document limit
    /// (exit 2), whichever is smaller.
    fn check_bounds(&self, len: u64) -> Result<()> {
        if len <= self.bound() {
            return Ok(());
        }
        let limit = self.limit;
        Err(match self.cap {
            Some(max) if max <= limit => {
                Error::refused(&self.label, Refusal::OverCap { size: None, max })
            }
            _ => Error::TooLarge {
                path: self.path.clone(),
                line: None,
                limit,
            },
        })
    }

    /// Reads the rest of the source into memory, within its bounds: after
    /// this, printing it cannot fail but for the output.
    fn load(&mut self) -> Result<()> {
        self.load_within(u64::MAX).map(drop)
    }

    /// [`load`](Body::load), with at most `room` bytes held; the bytes held.
    /// Past the room and within the bounds is `Ok` with more than `room`:
    /// the caller says what the room was for.
    fn load_within(&mut self, room: u64) -> Result<u64> {
        if !self.at_end {
            let least = self.bound().min(room);
            let mut bytes = std::mem::take(&mut self.head);
            let expected = self.size_hint.unwrap_or(0).min(least.saturating_add(1));
            bytes.reserve(usize::try_from(expected).unwrap_or(0));
            let more = least.saturating_add(1).saturating_sub(bytes.len() as u64);
            if let Reader::Closed = self.reader {
                self.reader = Reader::File(crate::io::open_file(&self.path)?);
            }
            if let Err(error) = (&mut self.reader).take(more).read_to_end(&mut bytes) {
                return Err(self.read_error(error));
            }
            self.check_bounds(bytes.len() as u64)?;
            if bytes.is_empty() {
                // A file emptied since it was opened.
                return Err(Error::refused(&self.label, Refusal::Empty));
            }
            self.head = bytes;
            self.at_end = true;
            self.reader = Reader::Done;
        }
        Ok(self.head.len() as u64)
    }

    /// All the source's bytes.
    fn take_all(mut self) -> Result<Vec<u8>> {
        self.load()?;
        Ok(self.head)
    }

    /// Writes the base64 of the source, [loaded](Body::load) before.
    fn pump(self, out: &mut dyn Write) -> Result<()> {
        debug_assert!(self.at_end, "a body is loaded before it is printed");
        if self.head.len() <= pump::CHUNK {
            let encoded = base64_simd::STANDARD.encode_type::<Vec<u8>>(&self.head);
            return out.write_all(&encoded).map_err(stdout_error);
        }
        let workers = rayon::current_num_threads();
        let mut nothing_more = io::empty();
        let feed = Feed::new(&self.head, &mut nothing_more, None);
        match pump::pump(feed, out, workers) {
            Ok(()) => Ok(()),
            Err(PumpError::Write(error)) => Err(stdout_error(error)),
            Err(PumpError::Read(error)) => Err(self.read_error(error)),
            Err(PumpError::OverCap) => unreachable!("bytes in memory have no cap"),
        }
    }
}

/// Whether the sniffer decides on the first [`HEAD`] bytes as it would on the
/// whole file. It looks past them only for a few containers (infer 0.19): an
/// ISO-BMFF `ftyp` box longer than the head, the entries after a ZIP's first
/// one (Office Open XML), an OLE2 compound file, and zstd or LZ4 skippable
/// frames; those are read whole.
fn head_decides(head: &[u8]) -> bool {
    let u32_le = |at: usize| {
        head.get(at..at + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    let u32_be = |at: usize| {
        head.get(at..at + 4)
            .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    };
    if head.get(4..8) == Some(b"ftyp") && u32_be(0).is_none_or(|len| len as usize > head.len()) {
        return false;
    }
    let ooxml_names: [&[u8]; 3] = [b"[Content_Types].xml", b"_rels/.rels", b"docProps"];
    let scans_entries = ooxml_names
        .iter()
        .any(|name| head.get(0x1E..0x1E + name.len()) == Some(name));
    if head.starts_with(b"PK\x03\x04") && scans_entries {
        // The Office Open XML check scans three 6,000-byte windows past the
        // first entry.
        let reach = u32_le(18).map_or(u64::MAX, |first| u64::from(first) + 49 + 3 * 6_100);
        if reach > head.len() as u64 {
            return false;
        }
    }
    if head.starts_with(&[0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]) {
        return false;
    }
    u32_le(0).is_none_or(|magic| magic & 0xFFFF_FFF0 != 0x184D_2A50)
}

/// The placeholders of one run: base64 characters that no other text of the
/// output holds (a random part per run; [`write_array`] checks it).
struct Tokens {
    nonce: u64,
}

impl Tokens {
    fn new() -> Tokens {
        Tokens {
            nonce: RandomState::new().build_hasher().finish(),
        }
    }

    fn token(&self, index: usize) -> String {
        format!("PKSTREAM{:016x}{index:08x}", self.nonce)
    }
}

/// Writes a pending part as a block of the target shape, as
/// [`encode`](super::encode) does: left out, refused, or written. A part
/// whose block does not hold the placeholder once (a shape that reads the
/// data itself) is read whole and written again.
fn write_block(
    pending: Pending,
    source: &SourceSpec,
    options: &EncodeOptions,
    warnings: &mut Vec<String>,
) -> Result<Option<Block>> {
    let refused = |unsupported| Error::refused(source.label(), Refusal::from(unsupported));
    let write = |part: &Part| shapes::write_part(options.to, part, Place::User);
    let (media, token, body) = match pending {
        Pending::Whole(part) => {
            if let Some(why) = options.to.dialect().leaves_out(&part) {
                warnings.push(why.to_string());
                return Ok(None);
            }
            let held = held_by(&part);
            return write(&part)
                .map(|value| Some(Block::Ready { value, held }))
                .map_err(refused);
        }
        Pending::Open { media, token, body } => (media, token, body),
    };
    let part = Part::Media(media);
    if let Some(why) = options.to.dialect().leaves_out(&part) {
        warnings.push(why.to_string());
        return Ok(None);
    }
    if let Ok(value) = write(&part) {
        if occurrences(&compact(&value), token.as_bytes()) == 1 {
            let Part::Media(media) = part else {
                unreachable!("an open part is a media part")
            };
            return Ok(Some(Block::Streamed(Box::new(Streamed {
                value,
                token,
                body,
                media,
                shape: options.to,
            }))));
        }
    }
    let Part::Media(media) = part else {
        unreachable!("an open part is a media part")
    };
    read_whole(media, body, options.to).map(Some)
}

/// The bytes of its source a part made in memory holds: a media part's
/// decoded data, a text part's text.
fn held_by(part: &Part) -> u64 {
    match part {
        Part::Text(text) => text.len() as u64,
        Part::Media(MediaPart {
            source: Source::Data(data),
            ..
        }) => b64::decoded_len(data).unwrap_or(data.len() as u64),
        Part::Media(_) => 0,
    }
}

/// The block of a part whose data is read into memory now.
fn read_whole(media: MediaPart, body: Body, shape: Shape) -> Result<Block> {
    let label = body.label.clone();
    let bytes = body.take_all()?;
    let held = bytes.len() as u64;
    let part = Part::Media(MediaPart {
        source: Source::Data(b64::encode(&bytes)),
        ..media
    });
    drop(bytes);
    shapes::write_part(shape, &part, Place::User)
        .map(|value| Block::Ready { value, held })
        .map_err(|unsupported| Error::refused(label, Refusal::from(unsupported)))
}

impl Block {
    fn value(&self) -> &Value {
        match self {
            Block::Ready { value, .. } => value,
            Block::Streamed(streamed) => &streamed.value,
        }
    }

    /// Reads the block's source whole, if it is not yet: after this, printing
    /// the block cannot fail but for the output. A source that fails while
    /// read, or runs past its bounds, prints nothing.
    pub(crate) fn load(&mut self) -> Result<()> {
        self.load_within(u64::MAX).map(drop)
    }

    /// [`load`](Block::load) holding at most `room` bytes; the bytes of its
    /// source the block holds (more than `room` when it did not fit).
    fn load_within(&mut self, room: u64) -> Result<u64> {
        match self {
            Block::Ready { held, .. } => Ok(*held),
            Block::Streamed(streamed) => streamed.body.load_within(room),
        }
    }
}

impl Streamed {
    fn read_whole(self) -> Result<Value> {
        match read_whole(self.media, self.body, self.shape)? {
            Block::Ready { value, .. } => Ok(value),
            Block::Streamed(_) => unreachable!("read whole, a block is ready"),
        }
    }
}

fn compact(value: &Value) -> Vec<u8> {
    let mut bytes = Vec::new();
    write_json(&mut bytes, value, false).expect("writing JSON into memory cannot fail");
    bytes
}

fn occurrences(haystack: &[u8], needle: &[u8]) -> usize {
    memchr::memmem::find_iter(haystack, needle).count()
}

/// Prints the blocks as one JSON array and a line break, pretty or compact
/// laid out as `printer` says.
pub(crate) fn write_array(
    mut blocks: Vec<Block>,
    out: &mut dyn Write,
    printer: &Printer,
) -> Result<()> {
    // Every source read before the first byte: an array is printed whole or
    // not at all ([`prepare`] with [`Hold::All`] has read them already).
    for block in &mut blocks {
        block.load()?;
    }
    let values: Vec<&Value> = blocks.iter().map(Block::value).collect();
    let mut document = Vec::new();
    printer
        .write_json(&mut document, &values)
        .expect("writing JSON into memory cannot fail");
    let placeholders_once = blocks.iter().all(|block| match block {
        Block::Ready { .. } => true,
        Block::Streamed(streamed) => occurrences(&document, streamed.token.as_bytes()) == 1,
    });
    if !placeholders_once {
        // Another block holds a placeholder's text (which takes knowing the
        // run's random part): no streaming then.
        return write_whole(blocks, out, printer);
    }
    let streams = blocks
        .into_iter()
        .filter_map(|block| match block {
            Block::Ready { .. } => None,
            Block::Streamed(streamed) => Some((streamed.token, streamed.body)),
        })
        .collect();
    splice(&document, streams, out)
}

/// Prints one block on a line of its own, compact, without the line break.
/// Its source is read whole first: a source that fails prints nothing.
pub(crate) fn write_line(mut block: Block, out: &mut dyn Write) -> Result<()> {
    block.load()?;
    match block {
        Block::Ready { value, .. } => write_json(&mut { out }, &value, false).map_err(stdout_error),
        Block::Streamed(streamed) => splice(
            &compact(&streamed.value),
            vec![(streamed.token, streamed.body)],
            out,
        ),
    }
}

/// Writes `document`, each placeholder (in order, each once) replaced by the
/// base64 of its body.
fn splice(document: &[u8], streams: Vec<(String, Body)>, out: &mut dyn Write) -> Result<()> {
    let mut rest = document;
    for (token, body) in streams {
        let at = memchr::memmem::find(rest, token.as_bytes())
            .expect("the placeholder is in the document");
        out.write_all(&rest[..at]).map_err(stdout_error)?;
        body.pump(out)?;
        rest = &rest[at + token.len()..];
    }
    out.write_all(rest).map_err(stdout_error)
}

/// The blocks made with their data read into memory, as
/// [`encode`](super::encode) makes them, and printed as one array.
fn write_whole(blocks: Vec<Block>, out: &mut dyn Write, printer: &Printer) -> Result<()> {
    let values = blocks
        .into_iter()
        .map(|block| match block {
            Block::Ready { value, .. } => Ok(value),
            Block::Streamed(streamed) => streamed.read_whole(),
        })
        .collect::<Result<Vec<Value>>>()?;
    printer
        .write_json(&mut { out }, &values)
        .map_err(stdout_error)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::JsonStyle;

    /// Hands out `good` bytes, then fails as a disk does.
    struct FailsAfter {
        good: usize,
    }

    impl Read for FailsAfter {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.good == 0 {
                return Err(io::Error::other("input/output error"));
            }
            let n = buf.len().min(self.good);
            buf[..n].fill(7);
            self.good -= n;
            Ok(n)
        }
    }

    /// A block whose source is a stream that fails after `good` bytes, past
    /// its head (as a file that fails partway is once its head is read).
    fn failing_block(good: usize) -> Block {
        let token = Tokens::new().token(0);
        let media = MediaPart {
            kind: media::MediaKind::File,
            mime_type: "application/octet-stream".to_string(),
            source: Source::Data(token.clone()),
            name: None,
        };
        let value = shapes::write_part(Shape::Canonical, &Part::Media(media.clone()), Place::User)
            .expect("a canonical part");
        let body = Body {
            reader: Reader::Other(Box::new(FailsAfter { good })),
            head: vec![7; HEAD],
            at_end: false,
            path: PathBuf::from("disk.bin"),
            label: "disk.bin".to_string(),
            cap: None,
            limit: crate::io::DEFAULT_MAX_DOCUMENT,
            size_hint: None,
        };
        Block::Streamed(Box::new(Streamed {
            value,
            token,
            body,
            media,
            shape: Shape::Canonical,
        }))
    }

    fn assert_read_error(result: Result<()>) {
        match result {
            Err(Error::Read { path, source }) => {
                assert_eq!(path, PathBuf::from("disk.bin"));
                assert_eq!(source.to_string(), "input/output error");
            }
            other => panic!("not a read error: {other:?}"),
        }
    }

    #[test]
    fn a_read_error_partway_writes_nothing() {
        for good in [0, 1, 3 * pump::CHUNK + 5] {
            let mut out = Vec::new();
            assert_read_error(write_line(failing_block(good), &mut out));
            assert!(out.is_empty(), "a line was begun after {good} bytes");
            let printer = Printer::new(JsonStyle::Compact, true);
            let blocks = vec![
                Block::Ready {
                    value: serde_json::json!({"type": "text", "text": "first"}),
                    held: 5,
                },
                failing_block(good),
            ];
            let mut out = Vec::new();
            assert_read_error(write_array(blocks, &mut out, &printer));
            assert!(out.is_empty(), "an array was begun after {good} bytes");
        }
    }

    #[test]
    fn a_loaded_block_is_printed_whole() {
        let mut block = failing_block(0);
        let Block::Streamed(streamed) = &mut block else {
            unreachable!()
        };
        streamed.body.reader = Reader::Other(Box::new(io::empty()));
        let mut out = Vec::new();
        write_line(block, &mut out).unwrap();
        let line: Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(line["data"], b64::encode(&vec![7; HEAD]));
    }
}
