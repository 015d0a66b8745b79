//! `partkit encode` of files and stdin without holding them: why this exists.
//!
//! [`encode`](super::encode) returns blocks with their base64 in strings, so a
//! 200 MB file was held three times over (the bytes, the base64, the JSON). The
//! command instead makes each large file's part with a placeholder for its
//! data ([`Block::Streamed`]), decides everything `encode` decides before
//! printing anything (the type is sniffed from the first [`HEAD`] bytes, the
//! cap checked from the file's size, the shape's refusals made), and then
//! prints the JSON around the placeholder while [`pump`](super::pump) writes
//! the base64 of the file in its place, read a chunk at a time.
//!
//! What it prints is what `encode` would print, byte for byte. A source
//! shorter than the head is all read to sniff it, and encoded from memory. A
//! source whose type the head cannot decide alone, or whose block does not
//! carry its data as one base64 string (an Anthropic text document), is read
//! whole as `encode` reads it; so is a stream other than a regular file under
//! `--max-part-bytes` (up to the cap), so that one over the cap prints
//! nothing, as a file over it does.

use std::collections::hash_map::RandomState;
use std::fs::File;
use std::hash::{BuildHasher, Hasher};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::pump::{self, Feed, PumpError};
use super::{
    check_cap, check_options, decide_type, encode_source, from_bytes, named, EncodeOptions,
    Refusal, SourceSpec,
};
use crate::b64;
use crate::error::{Error, Result};
use crate::io::Input;
use crate::media;
use crate::output::{stdout_error, write_json, Printer};
use crate::part::{MediaPart, Part, Source};
use crate::shapes::{self, Place, Shape};

/// The bytes read before deciding whether to stream: the sniffer's view of
/// the content. A source no longer than this is read whole.
const HEAD: usize = 256 * 1024;

/// One source's block, ready to print.
#[derive(Debug)]
pub(crate) enum Block {
    /// A block made in memory, as [`encode`](super::encode) makes it.
    Ready(Value),
    /// A block whose data is still in its source.
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

/// A source's bytes not yet read: a regular file rewound to its start, or a
/// stream after the `head` already taken from it.
pub(crate) struct Body {
    reader: Reader,
    head: Vec<u8>,
    /// Whether `head` is all there is (a source shorter than [`HEAD`]).
    at_end: bool,
    /// How read errors name the source (`-` for stdin).
    path: PathBuf,
    label: String,
    max: Option<u64>,
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

/// One source's block (`None`: left out with a warning), or its error.
pub(crate) type SourceResult = std::result::Result<Option<Block>, Error>;

/// [`encode`](super::encode) for printing: every source checked, nothing
/// returned unless all succeed, large files left to be streamed.
pub(crate) fn prepare(options: &EncodeOptions) -> Result<Prepared> {
    check_options(options)?;
    let tokens = Tokens::new();
    let mut warnings = Vec::new();
    let mut pending = Vec::with_capacity(options.sources.len());
    for (index, source) in options.sources.iter().enumerate() {
        pending.push(open_source(
            source,
            &tokens.token(index),
            options,
            &mut warnings,
        )?);
    }
    let mut blocks = Vec::with_capacity(pending.len());
    for (pending, source) in pending.into_iter().zip(&options.sources) {
        if let Some(block) = write_block(pending, source, options, &mut warnings)? {
            blocks.push(block);
        }
    }
    Ok(Prepared { blocks, warnings })
}

/// [`encode_each`](super::encode_each) for printing: each source on its own.
pub(crate) fn prepare_each(options: &EncodeOptions) -> Result<(Vec<SourceResult>, Vec<String>)> {
    check_options(options)?;
    let tokens = Tokens::new();
    let mut warnings = Vec::new();
    let mut results = Vec::with_capacity(options.sources.len());
    for (index, source) in options.sources.iter().enumerate() {
        let result = open_source(source, &tokens.token(index), options, &mut warnings)
            .and_then(|pending| write_block(pending, source, options, &mut warnings));
        results.push(result);
    }
    Ok((results, warnings))
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
                rewinds: false,
            };
            (stdin, PathBuf::from("-"), None, None)
        }
        SourceSpec::Path(path) => {
            let input = Input::Path(path.clone());
            if let (Some(max), Some(len)) = (options.max_part_bytes, input.file_len()) {
                check_cap(&label, len, max)?;
            }
            let opened = open_path(path)?;
            let extension = media::extension_of_path(path);
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
            (opened, path.clone(), extension, name)
        }
        _ => return Ok(Pending::Whole(encode_source(source, options, warnings)?)),
    };
    let Opened { reader, rewinds } = opened;
    let mut body = Body {
        reader,
        head: Vec::new(),
        at_end: false,
        path,
        label,
        max: options.max_part_bytes,
    };
    let head = body.read_head()?;
    // A stream (not a file) under a cap is read whole, up to the cap, so
    // that one over it prints nothing, as a file over it does.
    let capped_stream = !rewinds && options.max_part_bytes.is_some();
    if head.len() == HEAD && (capped_stream || !head_decides(&head)) {
        let bytes = body.read_whole(head)?;
        let media = from_bytes(
            bytes,
            &body.label,
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
        body.check_cap(head.len() as u64)?;
        if head.is_empty() {
            return Err(Error::refused(&body.label, Refusal::Empty));
        }
        body.at_end = true;
    }
    let media_type = decide_type(
        &head,
        &body.label,
        extension.as_deref(),
        None,
        options,
        warnings,
    )?;
    if rewinds && !body.at_end {
        body.rewind()?;
    } else {
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

/// An opened source: a regular file (read again from its start when
/// streamed) or another stream (stdin, a pipe, a device).
struct Opened {
    reader: Reader,
    rewinds: bool,
}

enum Reader {
    File(File),
    Stdin(io::Stdin),
}

impl Read for Reader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Reader::File(file) => file.read(buf),
            Reader::Stdin(stdin) => stdin.read(buf),
        }
    }
}

/// Opens a path as [`Input::open`] does, with the same errors.
fn open_path(path: &Path) -> Result<Opened> {
    let file = crate::io::open_file(path)?;
    let rewinds = file.metadata().is_ok_and(|m| m.is_file());
    Ok(Opened {
        reader: Reader::File(file),
        rewinds,
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

    /// `head` and the rest of the source, refused over the cap as
    /// [`encode`](super::encode) refuses it.
    fn read_whole(&mut self, mut bytes: Vec<u8>) -> Result<Vec<u8>> {
        let result = match self.max {
            Some(max) => {
                let room = max.saturating_add(1).saturating_sub(bytes.len() as u64);
                (&mut self.reader).take(room).read_to_end(&mut bytes)
            }
            None => self.reader.read_to_end(&mut bytes),
        };
        result.map_err(|error| self.read_error(error))?;
        self.check_cap(bytes.len() as u64)?;
        Ok(bytes)
    }

    /// Refuses `len` bytes read over the cap.
    fn check_cap(&self, len: u64) -> Result<()> {
        match self.max {
            Some(max) if len > max => Err(Error::refused(
                &self.label,
                Refusal::OverCap { size: None, max },
            )),
            _ => Ok(()),
        }
    }

    /// Back to the start of a regular file (the head is read again).
    fn rewind(&mut self) -> Result<()> {
        let result = match &mut self.reader {
            Reader::File(file) => file.seek(SeekFrom::Start(0)).map(drop),
            Reader::Stdin(_) => Ok(()),
        };
        result.map_err(|error| self.read_error(error))
    }

    /// All the source's bytes, `head` first.
    fn take_all(mut self) -> Result<Vec<u8>> {
        let head = std::mem::take(&mut self.head);
        if self.at_end {
            return Ok(head);
        }
        self.read_whole(head)
    }

    /// Writes the base64 of the source to `out`.
    fn pump(mut self, out: &mut dyn Write) -> Result<()> {
        if self.at_end {
            // A source read whole: one chunk at most, no workers.
            let encoded = base64_simd::STANDARD.encode_type::<Vec<u8>>(&self.head);
            return out.write_all(&encoded).map_err(stdout_error);
        }
        let workers = rayon::current_num_threads();
        let feed = Feed::new(&self.head, &mut self.reader, self.max);
        match pump::pump(feed, out, workers) {
            Ok(()) => Ok(()),
            Err(PumpError::Write(error)) => Err(stdout_error(error)),
            Err(PumpError::Read(error)) => Err(Error::Read {
                path: self.path.clone(),
                source: error,
            }),
            Err(PumpError::OverCap) => Err(Error::refused(
                &self.label,
                Refusal::OverCap {
                    size: None,
                    max: self.max.unwrap_or_default(),
                },
            )),
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
            return write(&part).map(|v| Some(Block::Ready(v))).map_err(refused);
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
    read_whole(media, body, options.to).map(|v| Some(Block::Ready(v)))
}

/// The block of a part whose data is read into memory now.
fn read_whole(media: MediaPart, body: Body, shape: Shape) -> Result<Value> {
    let label = body.label.clone();
    let data = b64::encode(&body.take_all()?);
    let part = Part::Media(MediaPart {
        source: Source::Data(data),
        ..media
    });
    shapes::write_part(shape, &part, Place::User)
        .map_err(|unsupported| Error::refused(label, Refusal::from(unsupported)))
}

impl Block {
    fn value(&self) -> &Value {
        match self {
            Block::Ready(value) => value,
            Block::Streamed(streamed) => &streamed.value,
        }
    }
}

impl Streamed {
    fn read_whole(self) -> Result<Value> {
        read_whole(self.media, self.body, self.shape)
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
    blocks: Vec<Block>,
    out: &mut dyn Write,
    printer: &Printer,
) -> Result<()> {
    let values: Vec<&Value> = blocks.iter().map(Block::value).collect();
    let mut document = Vec::new();
    printer
        .write_json(&mut document, &values)
        .expect("writing JSON into memory cannot fail");
    let placeholders_once = blocks.iter().all(|block| match block {
        Block::Ready(_) => true,
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
            Block::Ready(_) => None,
            Block::Streamed(streamed) => Some((streamed.token, streamed.body)),
        })
        .collect();
    splice(&document, streams, out)
}

/// Prints one block on a line of its own, compact, without the line break.
pub(crate) fn write_line(block: Block, out: &mut dyn Write) -> Result<()> {
    match block {
        Block::Ready(value) => write_json(&mut { out }, &value, false).map_err(stdout_error),
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
            Block::Ready(value) => Ok(value),
            Block::Streamed(streamed) => streamed.read_whole(),
        })
        .collect::<Result<Vec<Value>>>()?;
    printer
        .write_json(&mut { out }, &values)
        .map_err(stdout_error)
}
