//! Recorded HTTP traffic, read as people keep it: test cassettes (vcrpy,
//! R and Ruby VCR, go-vcr, langchain-aws's gzipped YAML), HAR 1.2 files, an
//! MCP interview report, and response-only chunk fixtures.
//!
//! [`read`] tells the format by content, never by file name: gzip's magic
//! bytes first (the file is decompressed and read again), then a JSON object
//! (a HAR file's `log.entries`, an MCP interview's
//! `functional_test_scorecard.steps`), then YAML (`interactions`,
//! `http_interactions`, or parallel `requests`/`responses`). What it returns
//! is a [`Recording`]: for each interaction the request (method, URI,
//! headers) and the response (status, headers), each with its body as bytes,
//! decoded from how the file stores it (`!!binary`/`!binary` base64, HAR's
//! `encoding: base64`, gzip, pydantic-ai's `parsed_body` mapping turned back
//! into JSON text), and the 1-based line of the file where that body starts.
//! For a gzipped file the line is one of the decompressed text.
//!
//! Secrets are never kept: a header whose name carries a credential
//! (`authorization`, `x-api-key`, `api-key`, `x-goog-api-key`, cookies, AWS
//! signature headers; [`is_secret_header`]) is stored by name only, and a
//! query parameter that carries one (`key=`, `X-Amz-Signature=`, …) has its
//! value replaced in the stored URI. So neither `Debug` nor any later output
//! of a recording can show one.
//!
//! YAML is read by saphyr-parser, at the event level: it is the maintained
//! successor of yaml-rust2, reads every cassette here with the same scalars
//! as PyYAML, and its events carry the line where a block scalar's text
//! starts (docs/recordings.md has the comparison). In front of it, a reader
//! of the block subset recorders write (`block.rs`) builds the same tree ten
//! times faster and hands anything else to it.
//!
//! This module knows no provider shape: whether a body is a chat request or
//! a stream of events is for the layers above to say. It only sorts bodies
//! into broad kinds ([`BodyKind`]) from their bytes and content type.

mod agree;
mod block;
mod har;
mod interview;
mod vcr;
mod yaml;

use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::error::Error;

/// The two YAML readers on one text, for the `yaml_block` fuzz target.
#[doc(hidden)]
pub use agree::compare_yaml_readers;

/// Which kind of file a recording was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Format {
    /// Python vcrpy YAML: `interactions[]` of `request`/`response`, bodies
    /// as strings, `{string: …}`, `!!binary`, or pydantic-ai's `parsed_body`.
    Vcrpy,
    /// R vcr and Ruby VCR YAML: `http_interactions[]`, bodies as
    /// `body.string` or `body.base64_string`.
    Vcr,
    /// Go's go-vcr YAML: `interactions[]` whose requests have a `url` and
    /// whose responses a `code`, bodies as strings.
    GoVcr,
    /// langchain-aws's cassettes: top-level parallel `requests` and
    /// `responses` lists (usually gzipped).
    LangchainAws,
    /// HAR 1.2: `log.entries[]`.
    Har,
    /// An MCP interview report: not HTTP, the recorded `tools/call`s of one
    /// session (`functional_test_scorecard.steps[]`).
    McpInterview,
    /// Response-only chunk fixtures: one JSON value per line, the chunks of
    /// one streamed response ([`chunks`]).
    Chunks,
}

impl Format {
    /// A short name for messages.
    pub fn name(self) -> &'static str {
        match self {
            Format::Vcrpy => "vcrpy cassette",
            Format::Vcr => "VCR cassette",
            Format::GoVcr => "go-vcr cassette",
            Format::LangchainAws => "langchain-aws cassette",
            Format::Har => "HAR file",
            Format::McpInterview => "MCP interview report",
            Format::Chunks => "chunk fixture",
        }
    }
}

/// A recording file read into its interactions.
#[derive(Debug, Clone)]
pub struct Recording {
    pub format: Format,
    /// Whether the file was gzip-compressed as a whole (body lines are
    /// lines of the decompressed text).
    pub gzipped: bool,
    pub interactions: Vec<Interaction>,
}

/// One exchange: a request and what answered it. Either side may be absent
/// (a fixture holds only a response).
#[derive(Debug, Clone)]
pub struct Interaction {
    /// Its position in the file's list, from 0.
    pub index: usize,
    pub request: Option<Request>,
    pub response: Option<Response>,
}

#[derive(Debug, Clone)]
pub struct Request {
    pub method: Option<String>,
    /// The URI with any credential in its query redacted.
    pub uri: Option<String>,
    pub headers: Headers,
    pub body: Body,
}

#[derive(Debug, Clone)]
pub struct Response {
    /// The recorded status code, when there is one.
    pub status: Option<u16>,
    /// The recorded reason phrase (`OK`, `Bad Request`), when there is one.
    pub message: Option<String>,
    pub headers: Headers,
    pub body: Body,
}

/// Recorded headers in their order, one entry per value.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Headers(pub Vec<Header>);

/// A header: its name, and its value unless the name says it carries a
/// secret ([`is_secret_header`]), in which case the value was never kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    pub name: String,
    pub value: Option<String>,
}

impl Headers {
    /// Adds a header, keeping its value only when it is not a secret.
    pub fn push(&mut self, name: &str, value: &str) {
        let value = (!is_secret_header(name)).then(|| value.to_string());
        self.0.push(Header {
            name: name.to_string(),
            value,
        });
    }

    /// The first kept value of the header `name` (any case).
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .filter(|h| h.name.eq_ignore_ascii_case(name))
            .find_map(|h| h.value.as_deref())
    }

    /// Whether the header `name` (any case) was recorded.
    pub fn has(&self, name: &str) -> bool {
        self.0.iter().any(|h| h.name.eq_ignore_ascii_case(name))
    }
}

/// Whether a header's value is a credential, never to be kept or shown:
/// `authorization`, `proxy-authorization`, `x-api-key`, `api-key`,
/// `x-goog-api-key`, `cookie`, `set-cookie`, the AWS signature headers
/// (`x-amz-security-token`, `x-amz-signature`, `x-amz-credential`), and any
/// other name ending in `api-key`, `-token` or `-secret`.
pub fn is_secret_header(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    matches!(
        name.as_str(),
        "authorization"
            | "proxy-authorization"
            | "x-api-key"
            | "api-key"
            | "x-goog-api-key"
            | "cookie"
            | "set-cookie"
            | "x-amz-security-token"
            | "x-amz-signature"
            | "x-amz-credential"
    ) || name.ends_with("api-key")
        || name.ends_with("api_key")
        || name.ends_with("-token")
        || name.ends_with("-secret")
}

/// Query parameters whose value is a credential.
fn is_secret_parameter(name: &str) -> bool {
    matches!(
        name.to_ascii_lowercase().as_str(),
        "key"
            | "api_key"
            | "apikey"
            | "api-key"
            | "access_token"
            | "token"
            | "x-amz-signature"
            | "x-amz-credential"
            | "x-amz-security-token"
    )
}

/// `uri` with the value of every credential-carrying query parameter
/// replaced by `REDACTED`.
pub fn redact_uri(uri: &str) -> String {
    let Some((base, query)) = uri.split_once('?') else {
        return uri.to_string();
    };
    let (query, fragment) = match query.split_once('#') {
        Some((q, f)) => (q, Some(f)),
        None => (query, None),
    };
    let parameters: Vec<String> = query
        .split('&')
        .map(|pair| match pair.split_once('=') {
            Some((name, _)) if is_secret_parameter(name) => format!("{name}=REDACTED"),
            _ => pair.to_string(),
        })
        .collect();
    let mut out = format!("{base}?{}", parameters.join("&"));
    if let Some(fragment) = fragment {
        out.push('#');
        out.push_str(fragment);
    }
    out
}

/// How the file stored a body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stored {
    /// No body was recorded (absent or null).
    Absent,
    /// As text.
    Text,
    /// As base64 (`!!binary`, `!binary`, `base64_string`, HAR's
    /// `encoding: base64`).
    Base64,
    /// As structured data that was written back out as JSON text
    /// (pydantic-ai's `parsed_body`, an MCP report's fields).
    Structured,
}

/// What a body's bytes are, told from its content type and first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyKind {
    /// Nothing, or only whitespace.
    Empty,
    /// Starts as a JSON object or array does.
    Json,
    /// Server-sent events (`text/event-stream`, or `event:`/`data:` lines).
    EventStream,
    /// AWS's binary event-stream framing (`application/vnd.amazon.eventstream`).
    AwsEventStream,
    /// One JSON value per line (a chunk fixture).
    JsonLines,
    /// Anything else (multipart, form data, plain text): kept with a note.
    Other,
}

/// A request's or a response's body.
#[derive(Clone)]
pub struct Body {
    /// The body as it was sent, decoded from how the file stores it.
    pub bytes: Vec<u8>,
    /// The 1-based line of the file where the body's text starts.
    pub line: Option<usize>,
    pub stored: Stored,
    /// Whether the stored bytes were gzip data that was decompressed.
    pub gzipped: bool,
    pub kind: BodyKind,
    /// What a reader should know about it (not JSON, not decodable, …).
    pub note: Option<String>,
}

impl fmt::Debug for Body {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Body")
            .field("len", &self.bytes.len())
            .field("line", &self.line)
            .field("stored", &self.stored)
            .field("gzipped", &self.gzipped)
            .field("kind", &self.kind)
            .field("note", &self.note)
            .finish()
    }
}

impl Body {
    /// No body.
    pub fn absent() -> Body {
        Body {
            bytes: Vec::new(),
            line: None,
            stored: Stored::Absent,
            gzipped: false,
            kind: BodyKind::Empty,
            note: None,
        }
    }

    /// A body from its stored bytes: gzip data is decompressed (by its magic
    /// bytes, whatever the headers say: some recorders keep the header but
    /// store the body decoded) and the result sorted into a [`BodyKind`].
    fn new(stored_bytes: Vec<u8>, line: Option<usize>, stored: Stored, headers: &Headers) -> Body {
        let mut body = Body {
            bytes: stored_bytes,
            line,
            stored,
            gzipped: false,
            kind: BodyKind::Empty,
            note: None,
        };
        if is_gzip(&body.bytes) {
            match gunzip(&body.bytes) {
                Ok(plain) => {
                    body.bytes = plain;
                    body.gzipped = true;
                }
                Err(e) => {
                    body.note = Some(format!(
                        "gzip data that does not decompress ({e}); kept as recorded"
                    ))
                }
            }
        }
        body.kind = kind_of(&body.bytes, headers.get("content-type"));
        if body.kind == BodyKind::Other && body.note.is_none() {
            let what = headers
                .get("content-type")
                .map(|t| format!("a {t} body"))
                .unwrap_or_else(|| "a body".to_string());
            body.note = Some(format!("{what} that is not JSON; kept as recorded"));
        }
        body
    }

    pub fn is_empty(&self) -> bool {
        self.kind == BodyKind::Empty
    }
}

/// Sorts a body by its content type and first bytes.
fn kind_of(bytes: &[u8], content_type: Option<&str>) -> BodyKind {
    let content_type = content_type
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    let start = bytes.iter().position(|b| !b.is_ascii_whitespace());
    let Some(start) = start else {
        return BodyKind::Empty;
    };
    if content_type.contains("amazon.eventstream") || is_aws_frame(bytes) {
        return BodyKind::AwsEventStream;
    }
    let text = &bytes[start..];
    if content_type.contains("event-stream")
        || text.starts_with(b"data:")
        || text.starts_with(b"event:")
        || text.starts_with(b"id:")
        || text.starts_with(b": ")
    {
        return BodyKind::EventStream;
    }
    match text[0] {
        b'{' | b'[' => BodyKind::Json,
        _ => BodyKind::Other,
    }
}

/// Whether `bytes` open with an AWS event-stream prelude whose lengths fit:
/// total length (at least 16, at most what is there), then a headers length
/// that fits inside it.
fn is_aws_frame(bytes: &[u8]) -> bool {
    if bytes.len() < 16 {
        return false;
    }
    let total = u32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]) as usize;
    let headers = u32::from_be_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]) as usize;
    (16..=bytes.len()).contains(&total) && headers <= total - 16
}

fn is_gzip(bytes: &[u8]) -> bool {
    bytes.starts_with(&[0x1f, 0x8b])
}

/// The most a gzipped body or file may inflate to: the default document
/// limit (docs/limits.md), so that a small gzip bomb cannot take memory a
/// plain document could not.
const INFLATED_LIMIT: u64 = crate::io::DEFAULT_MAX_DOCUMENT;

fn gunzip(bytes: &[u8]) -> std::io::Result<Vec<u8>> {
    // Sized once from the trailer's length (of the last member, modulo 4 GiB:
    // a hint only), within what deflate can expand to and the limit.
    let hint = match bytes.len() {
        n if n >= 18 => {
            u32::from_le_bytes([bytes[n - 4], bytes[n - 3], bytes[n - 2], bytes[n - 1]]) as usize
        }
        _ => 0,
    };
    let most = bytes
        .len()
        .saturating_mul(1032)
        .min(INFLATED_LIMIT as usize + 1);
    let mut out = Vec::with_capacity(hint.min(most));
    flate2::read::MultiGzDecoder::new(bytes)
        .take(INFLATED_LIMIT + 1)
        .read_to_end(&mut out)?;
    if out.len() as u64 > INFLATED_LIMIT {
        return Err(std::io::Error::other(format!(
            "inflates past {}, the most one document may be",
            crate::io::limits::describe(INFLATED_LIMIT)
        )));
    }
    Ok(out)
}

/// Base64 text (whitespace and missing padding forgiven) as bytes.
/// Base64 as recorders write it is canonical but broken into lines: the
/// lines are joined (a slice at a time) and decoded strictly by the SIMD
/// decoder into a buffer sized once; only what that refuses takes the lenient
/// decoder, which gives the same bytes for all the strict one reads.
fn unbase64(text: &str) -> Result<Vec<u8>, crate::b64::Base64Error> {
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    let bytes = text.as_bytes();
    let compact: std::borrow::Cow<'_, [u8]> =
        if memchr::memchr3(b'\n', b' ', b'\r', bytes).is_some() {
            let mut joined = Vec::with_capacity(bytes.len());
            let mut from = 0;
            for at in memchr::memchr3_iter(b'\n', b' ', b'\r', bytes) {
                joined.extend_from_slice(&bytes[from..at]);
                from = at + 1;
            }
            joined.extend_from_slice(&bytes[from..]);
            joined.into()
        } else {
            bytes.into()
        };
    let mut out = Vec::with_capacity(compact.len() / 4 * 3 + 3);
    if base64_simd::STANDARD
        .decode_append(&compact[..], &mut out)
        .is_ok()
    {
        return Ok(out);
    }
    crate::b64::decode_lenient(text).map(|(bytes, _)| bytes)
}

/// The 1-based line of byte `offset` in `bytes`.
fn line_at(bytes: &[u8], offset: usize) -> usize {
    memchr::memchr_iter(b'\n', &bytes[..offset.min(bytes.len())]).count() + 1
}

/// The byte span of the value `pointer` names inside `bytes[within]`, as
/// offsets into `bytes`: each lookup walks only the part of the document it
/// is given, so finding every entry's body stays linear in the list.
fn span_in(bytes: &[u8], within: (usize, usize), pointer: &str) -> Option<(usize, usize)> {
    crate::json::raw_span(&bytes[within.0..within.1], pointer)
        .map(|(start, end)| (within.0 + start, within.0 + end))
}

/// Reads the recording at `path`.
pub fn read(path: &Path) -> Result<Recording, Error> {
    // Mapped: a cassette is walked once, front to back, and a large one is
    // not worth copying first (crate::mapped).
    let bytes = crate::mapped::read(path).map_err(|source| Error::Read {
        path: path.to_path_buf(),
        source,
    })?;
    parse(&bytes, path)
}

/// Reads a recording from its bytes; `path` names it in errors.
pub fn parse(bytes: &[u8], path: &Path) -> Result<Recording, Error> {
    parse_or_refuse(bytes, path).map_err(|refusal| refusal.error)
}

/// Why a file is not a recording, and how far it got.
#[derive(Debug)]
pub struct Refusal {
    /// [`Error::NotRecording`], located where one line is to blame.
    pub error: Error,
    /// How far the file read: whether it is data at all.
    pub stage: Stage,
}

/// How far a file that is not a recording read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Gzip data that does not decompress, or text that is not UTF-8.
    NotText,
    /// Text that is neither JSON nor YAML.
    NotData,
    /// JSON or YAML (or an empty file) whose structure is no recording's: a
    /// config file, a plain document.
    OtherData,
}

/// [`parse`], saying how far a file that is not a recording got: a caller
/// that met the file in a folder walk passes over YAML that is not a
/// cassette, but reports YAML that does not read.
pub fn parse_or_refuse(bytes: &[u8], path: &Path) -> Result<Recording, Refusal> {
    let refuse = |line: Option<usize>, reason: String, stage: Stage| Refusal {
        error: Error::NotRecording {
            path: PathBuf::from(path),
            line,
            reason,
        },
        stage,
    };
    let (bytes, gzipped) = if is_gzip(bytes) {
        let plain = gunzip(bytes).map_err(|e| {
            refuse(
                None,
                format!("gzip data that does not decompress: {e}"),
                Stage::NotText,
            )
        })?;
        (std::borrow::Cow::Owned(plain), true)
    } else {
        (std::borrow::Cow::Borrowed(bytes), false)
    };
    let mut recording =
        parse_plain(&bytes).map_err(|(line, reason, stage)| refuse(line, reason, stage))?;
    recording.gzipped = gzipped;
    Ok(recording)
}

/// Whether a file that opens with `prefix` (its first few hundred bytes)
/// may be a recording, and is worth reading as one: gzip data, a JSON
/// object whose first member is a HAR file's `log` or an MCP interview's
/// `parameters`, or text that is not JSON at all (YAML). A JSON document of
/// any other kind is not: it is read as a document, and never parsed twice.
pub fn may_be(prefix: &[u8]) -> bool {
    if is_gzip(prefix) {
        return true;
    }
    let prefix = prefix.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(prefix);
    let Some(start) = prefix.iter().position(|b| !b.is_ascii_whitespace()) else {
        return false;
    };
    // Binary data (an image, say) is no text format's: only a character
    // cut at the prefix's end may fail to read.
    if std::str::from_utf8(prefix).is_err_and(|e| e.error_len().is_some()) || prefix.contains(&0) {
        return false;
    }
    match prefix[start] {
        b'[' => false,
        b'{' => {
            let rest = &prefix[start + 1..];
            let Some(key) = rest.iter().position(|b| !b.is_ascii_whitespace()) else {
                return false;
            };
            let rest = &rest[key..];
            rest.starts_with(b"\"log\"") || rest.starts_with(b"\"parameters\"")
        }
        _ => true,
    }
}

fn parse_plain(bytes: &[u8]) -> Result<Recording, (Option<usize>, String, Stage)> {
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
    if first == Some(&b'{') {
        if let Ok(value) = serde_json::from_slice::<serde_json::Value>(bytes) {
            if let Some(entries) = value.pointer("/log/entries").and_then(|v| v.as_array()) {
                return Ok(har::read(bytes, entries));
            }
            if let Some(steps) = value
                .pointer("/functional_test_scorecard/steps")
                .and_then(|v| v.as_array())
            {
                return Ok(interview::read(bytes, steps));
            }
            return Err((
                None,
                "a JSON document, not a recording (neither a HAR file's `log.entries` nor an MCP interview's steps)"
                    .to_string(),
                Stage::OtherData,
            ));
        }
    }
    // The fast check first; the slow one only to say where a file that is
    // not UTF-8 stops being it.
    let text = simdutf8::basic::from_utf8(bytes).map_err(|_| {
        let valid = std::str::from_utf8(bytes).map_or_else(|e| e.valid_up_to(), str::len);
        (
            Some(line_at(bytes, valid)),
            "neither gzip, JSON nor YAML: not UTF-8 text".to_string(),
            Stage::NotText,
        )
    })?;
    let root = yaml::parse(text)
        .map_err(|fault| {
            (
                Some(fault.line),
                format!("not JSON, and not YAML: {}", fault.reason),
                Stage::NotData,
            )
        })?
        .ok_or((None, "an empty file".to_string(), Stage::OtherData))?;
    vcr::read(root).map_err(|reason| (None, reason, Stage::OtherData))
}

/// What a YAML library's `load` does with a cassette, and no more: the text
/// checked as UTF-8, its tree built, and each `!!binary` scalar decoded; the
/// bodies are neither inflated nor read as HTTP. Returns how many bytes the
/// scalars hold. `benches/yaml.sh` times this beside PyYAML's C loader doing
/// the same job (docs/speed.md, "Reading recordings"); not an API.
#[doc(hidden)]
pub fn load_yaml(bytes: &[u8]) -> Result<usize, String> {
    fn held(node: &yaml::Node<'_>) -> Result<usize, String> {
        Ok(match node {
            yaml::Node::Scalar(scalar) if scalar.is_binary() => unbase64(&scalar.text)
                .map_err(|e| format!("line {}: {e}", scalar.line))?
                .len(),
            yaml::Node::Scalar(scalar) => scalar.text.len(),
            yaml::Node::Seq(items, _) => items.iter().map(held).sum::<Result<_, _>>()?,
            yaml::Node::Map(entries, _) => entries
                .iter()
                .map(|(key, value)| Ok(held(key)? + held(value)?))
                .sum::<Result<_, String>>()?,
        })
    }
    // A gzipped file is inflated whole, as Python's `gzip.open` does.
    let bytes = if is_gzip(bytes) {
        std::borrow::Cow::Owned(gunzip(bytes).map_err(|e| e.to_string())?)
    } else {
        std::borrow::Cow::Borrowed(bytes)
    };
    let text = simdutf8::basic::from_utf8(&bytes).map_err(|e| e.to_string())?;
    match yaml::parse(text).map_err(|fault| format!("line {}: {}", fault.line, fault.reason))? {
        Some(root) => held(&root),
        None => Ok(0),
    }
}

/// A response-only recording of a chunk fixture: one JSON value per line,
/// the chunks of one streamed response, with no request and no status.
///
/// Not told by content in [`read`]: such a file is JSON Lines, which
/// partkit already reads as one document per line, and whether its lines
/// are chunks of one stream depends on what the chunks are, which only the
/// shapes know. A caller that knows (or is told) it holds chunks reads it
/// here.
pub fn chunks(bytes: &[u8]) -> Recording {
    let mut body = Body::new(bytes.to_vec(), Some(1), Stored::Text, &Headers::default());
    if body.kind == BodyKind::Json {
        body.kind = BodyKind::JsonLines;
    }
    Recording {
        format: Format::Chunks,
        gzipped: false,
        interactions: vec![Interaction {
            index: 0,
            request: None,
            response: Some(Response {
                status: None,
                message: None,
                headers: Headers::default(),
                body,
            }),
        }],
    }
}

#[cfg(test)]
mod tests;
