//! `partkit encode`: files, stdin, data URLs and http(s) URLs into parts (docs/commands/encode.md).

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::b64;
use crate::dataurl;
use crate::error::{Error, Result};
use crate::fetch::{self, FetchOptions};
use crate::io::Input;
use crate::media::{self, Claim, ClaimSource, MediaKind};
use crate::part::{MediaPart, Part, Source};
use crate::shapes::Registered;
use crate::shapes::{self, Place, Shape};
use crate::size::group_digits;

// The command's streaming path (it prints through the command line's
// printer), built with the `cli` feature only.
#[cfg(feature = "cli")]
mod pump;
#[cfg(feature = "cli")]
pub(crate) mod stream;

/// Why `encode` refused a source: the cause of the [`Error::Rejected`] that
/// names the source by its label.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Refusal {
    /// Larger than `--max-part-bytes`; `size: None`, a stream that ran past it.
    #[error("{}, over the cap of {} bytes (--max-part-bytes)", cap_size(.size, *.max), group_digits(*.max))]
    OverCap { size: Option<u64>, max: u64 },
    /// No bytes at all.
    #[error("empty (a media part must carry bytes)")]
    Empty,
    /// Bytes of no type the sniffer knows, and no extension that tells.
    #[error("cannot tell the media type: {}; pass --mime-type", unknown_type(.extension))]
    UnknownType { extension: Option<String> },
    /// A URL kept as a URL whose path has no known extension.
    #[error("cannot tell the media type from the URL's path; pass --mime-type (or --fetch to sniff the bytes)")]
    UrlType,
    /// A data URL that does not parse.
    #[error(transparent)]
    DataUrl(#[from] dataurl::DataUrlError),
    /// A data URL not in base64.
    #[error("data URL is not base64 (expected data:<media type>;base64,<payload>)")]
    NotBase64,
    /// A data URL without a media type.
    #[error("data URL has no media type")]
    NoMediaType,
    /// A data URL whose media type is not `type/subtype`.
    #[error("data URL media type {} is not of the form type/subtype", crate::echo::quoted(.0))]
    BadMediaType(String),
    /// A payload that is not strict base64.
    #[error(transparent)]
    Base64(#[from] b64::Base64Error),
    /// Content of another type than claimed (`--strict`).
    #[error("{}", media::mismatch_message(.content, .claimed))]
    Mismatch { content: String, claimed: String },
    /// A part the target shape cannot carry.
    #[error(transparent)]
    Unsupported(#[from] shapes::Unsupported),
}

fn cap_size(size: &Option<u64>, max: u64) -> String {
    match size {
        Some(size) => format!("{} bytes", group_digits(*size)),
        None => format!("more than {} bytes", group_digits(max)),
    }
}

fn unknown_type(extension: &Option<String>) -> String {
    match extension {
        Some(ext) => {
            format!("the content is not recognized and .{ext} is not in the extension table")
        }
        None => "the content is not recognized and there is no extension".to_string(),
    }
}

/// One thing to turn into a part, in command-line order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SourceSpec {
    /// `-t TEXT`: a text part.
    Text(String),
    /// `-`: standard input.
    Stdin,
    /// A file path.
    Path(PathBuf),
    /// A `data:` URL.
    DataUrl(String),
    /// An `http(s)://` URL.
    Url(String),
    /// Bytes a library caller holds (the Python package's `bytes` and file
    /// objects), named in messages by `label` (a file object's name) or else
    /// as `bytes`; `--name`'s extension is the fallback a path's would be.
    Bytes {
        bytes: Vec<u8>,
        label: Option<String>,
    },
}

impl SourceSpec {
    /// Classifies a SOURCE argument: `-`, a `data:` URL, an http(s) URL, or a path.
    pub fn classify(arg: &str) -> SourceSpec {
        if arg == "-" {
            SourceSpec::Stdin
        } else if dataurl::is_data_url(arg) {
            SourceSpec::DataUrl(arg.to_string())
        } else if fetch::is_http_url(arg) {
            SourceSpec::Url(arg.to_string())
        } else {
            SourceSpec::Path(PathBuf::from(arg))
        }
    }

    /// How the source is named in messages; never a payload or a URL's query.
    pub fn label(&self) -> String {
        match self {
            SourceSpec::Text(_) => "text".to_string(),
            SourceSpec::Stdin => "<stdin>".to_string(),
            SourceSpec::Path(path) => path.display().to_string(),
            SourceSpec::DataUrl(url) => match url.split_once(',') {
                Some((header, _)) => format!("{header},…"),
                None => b64::preview(url),
            },
            SourceSpec::Url(url) => crate::fetch::redact_url(url),
            SourceSpec::Bytes { label, .. } => label.clone().unwrap_or_else(|| "bytes".to_string()),
        }
    }
}

/// Everything `encode` needs to know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodeOptions {
    pub sources: Vec<SourceSpec>,
    /// `--type`: the part type, overriding the one the media type implies.
    pub part_type: Option<MediaKind>,
    /// `--mime-type`: the media type, over everything (normalized).
    pub mime_type: Option<String>,
    /// `--name`: the name of the one media source.
    pub name: Option<String>,
    /// `--max-part-bytes`: the largest decoded size a media part may have.
    pub max_part_bytes: Option<u64>,
    /// `--strict`: a content/type disagreement is an error, not a warning.
    pub strict: bool,
    /// `--fetch`: download http(s) URLs within these limits instead of keeping them.
    pub fetch: Option<FetchOptions>,
    /// `--to`: the shape whose blocks to write.
    pub to: Shape,
    /// `--max-document-size`: the most bytes one source may have
    /// (docs/limits.md).
    pub max_document: u64,
}

impl Default for EncodeOptions {
    fn default() -> Self {
        EncodeOptions {
            sources: Vec::new(),
            part_type: None,
            mime_type: None,
            name: None,
            max_part_bytes: None,
            strict: false,
            fetch: None,
            to: Shape::default(),
            max_document: crate::io::DEFAULT_MAX_DOCUMENT,
        }
    }
}

/// The result of `encode`: the parts, the blocks written for the target shape
/// (one per part, in order), and the warnings met on the way.
#[derive(Debug, Clone, PartialEq)]
pub struct Encoded {
    pub parts: Vec<Part>,
    pub blocks: Vec<Value>,
    pub warnings: Vec<String>,
}

/// One source's block, or why it failed (`encode --jsonl --on-error`).
pub type SourceResult = std::result::Result<Option<Value>, Error>;

/// Encodes each source on its own: its block (`None` for an empty text part
/// Anthropic would refuse, left out with a warning), or its error, so that a
/// caller can account for every source. Fails as a whole only for options
/// that cannot work together.
pub fn encode_each(options: &EncodeOptions) -> Result<(Vec<SourceResult>, Vec<String>)> {
    check_options(options)?;
    let mut warnings = Vec::new();
    let mut results = Vec::with_capacity(options.sources.len());
    for source in &options.sources {
        let result = encode_source(source, options, &mut warnings).and_then(|part| {
            if let Some(why) = options.to.dialect().leaves_out(&part) {
                warnings.push(why.to_string());
                return Ok(None);
            }
            shapes::write_part(options.to, &part, Place::User)
                .map(Some)
                .map_err(|unsupported| Error::refused(source.label(), Refusal::from(unsupported)))
        });
        results.push(result);
    }
    Ok((results, warnings))
}

/// Turns every source into a part and writes the parts as blocks of the target
/// shape. Nothing is returned unless every source succeeds.
pub fn encode(options: &EncodeOptions) -> Result<Encoded> {
    check_options(options)?;
    let mut warnings = Vec::new();
    let mut parts = Vec::with_capacity(options.sources.len());
    for source in &options.sources {
        parts.push(encode_source(source, options, &mut warnings)?);
    }
    let mut blocks = Vec::with_capacity(parts.len());
    let mut kept_parts = Vec::with_capacity(parts.len());
    for (part, source) in parts.into_iter().zip(&options.sources) {
        if let Some(why) = options.to.dialect().leaves_out(&part) {
            warnings.push(why.to_string());
            continue;
        }
        let block = shapes::write_part(options.to, &part, Place::User)
            .map_err(|unsupported| Error::refused(source.label(), Refusal::from(unsupported)))?;
        blocks.push(block);
        kept_parts.push(part);
    }
    Ok(Encoded {
        parts: kept_parts,
        blocks,
        warnings,
    })
}

fn check_options(options: &EncodeOptions) -> Result<()> {
    let media_sources = options
        .sources
        .iter()
        .filter(|s| !matches!(s, SourceSpec::Text(_)))
        .count();
    if options.name.is_some() && media_sources != 1 {
        return Err(Error::usage(format!(
            "--name applies to exactly one source, but {media_sources} were given"
        )));
    }
    let stdin_count = options
        .sources
        .iter()
        .filter(|s| **s == SourceSpec::Stdin)
        .count();
    if stdin_count > 1 {
        return Err(Error::usage("standard input (-) can be read only once"));
    }
    Ok(())
}

fn encode_source(
    source: &SourceSpec,
    options: &EncodeOptions,
    warnings: &mut Vec<String>,
) -> Result<Part> {
    let label = source.label();
    let media = match source {
        SourceSpec::Text(text) => return Ok(Part::Text(text.clone())),
        SourceSpec::Stdin => {
            let bytes = read_checked(&Input::Stdin, &label, options)?;
            from_bytes(bytes, &label, None, None, None, options, warnings)?
        }
        SourceSpec::Path(path) => {
            let input = Input::Path(path.clone());
            let bytes = read_checked(&input, &label, options)?;
            let extension = media::extension_of_path(path);
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
            from_bytes(
                bytes,
                &label,
                extension.as_deref(),
                None,
                name,
                options,
                warnings,
            )?
        }
        SourceSpec::DataUrl(url) => from_data_url(url, &label, options, warnings)?,
        SourceSpec::Bytes { bytes, .. } => {
            check_size(&label, Path::new(&label), bytes.len() as u64, options)?;
            let extension = options.name.as_deref().and_then(media::extension_of_name);
            from_bytes(
                bytes.clone(),
                &label,
                extension.as_deref(),
                None,
                None,
                options,
                warnings,
            )?
        }
        SourceSpec::Url(url) => match &options.fetch {
            Some(fetch_options) => {
                let limits = FetchOptions {
                    max_bytes: options.max_part_bytes,
                    max_document: options.max_document,
                    ..*fetch_options
                };
                let fetched = fetch::fetch(url, &limits)?;
                let extension = media::extension_of_url(&fetched.final_url);
                let name = media::url_file_name(&fetched.final_url).map(dataurl::percent_decode);
                let header = fetched.content_type.as_deref().and_then(media::normalize);
                from_bytes(
                    fetched.bytes,
                    &label,
                    extension.as_deref(),
                    header,
                    name,
                    options,
                    warnings,
                )?
            }
            None => from_url(url, &label, options)?,
        },
    };
    Ok(named(media, options))
}

/// A media source's part, named by `--name` over its own name.
fn named(media: MediaPart, options: &EncodeOptions) -> Part {
    Part::Media(MediaPart {
        name: options.name.clone().or(media.name),
        ..media
    })
}

/// Reads a path or stdin, refusing an oversize file before reading it. A stream
/// is read only one byte past the cap (or the document limit), so its size is
/// then known only as "more than the cap".
fn read_checked(input: &Input, label: &str, options: &EncodeOptions) -> Result<Vec<u8>> {
    if let Some(len) = input.file_len() {
        check_size(label, &input.error_path(), len, options)?;
    }
    let bytes = input.read_all(options.max_part_bytes, options.max_document)?;
    if let Some(max) = options.max_part_bytes {
        if bytes.len() as u64 > max {
            return Err(Error::refused(label, Refusal::OverCap { size: None, max }));
        }
    }
    Ok(bytes)
}

/// Refuses a source of `len` bytes (known before reading it) over the cap
/// (`--max-part-bytes`: the part is refused, exit 1) or over the document
/// limit (`--max-document-size`: it is not read, exit 2); when it is over
/// both, the smaller bound is the one named, as for a source read until it
/// runs past one. `path` is how the limit's message names the source.
fn check_size(label: &str, path: &Path, len: u64, options: &EncodeOptions) -> Result<()> {
    let limit = options.max_document;
    match options.max_part_bytes {
        Some(max) if max <= limit => check_cap(label, len, max),
        _ if len > limit => Err(Error::TooLarge {
            path: path.to_path_buf(),
            line: None,
            limit,
        }),
        Some(max) => check_cap(label, len, max),
        None => Ok(()),
    }
}

fn check_cap(label: &str, len: u64, max: u64) -> Result<()> {
    if len > max {
        return Err(Error::refused(
            label,
            Refusal::OverCap {
                size: Some(len),
                max,
            },
        ));
    }
    Ok(())
}

/// Makes a media part from bytes read now: the type is sniffed, with the
/// extension (and a server's Content-Type, for fetched bytes) as fallbacks.
fn from_bytes(
    bytes: Vec<u8>,
    label: &str,
    extension: Option<&str>,
    content_type: Option<String>,
    name: Option<String>,
    options: &EncodeOptions,
    warnings: &mut Vec<String>,
) -> Result<MediaPart> {
    if bytes.is_empty() {
        return Err(Error::refused(label, Refusal::Empty));
    }
    let media_type = decide_type(&bytes, label, extension, content_type, options, warnings)?;
    Ok(media_part(
        media_type,
        Source::Data(b64::encode(&bytes)),
        name,
        options,
    ))
}

/// The media type of bytes read now, sniffed from `sniffed_from` (all of
/// them, or a head that decides as all of them would: see [`stream`]), with
/// the extension (and a server's Content-Type, for fetched bytes) as
/// fallbacks; a disagreement is reported as `--strict` says.
fn decide_type(
    sniffed_from: &[u8],
    label: &str,
    extension: Option<&str>,
    content_type: Option<String>,
    options: &EncodeOptions,
    warnings: &mut Vec<String>,
) -> Result<String> {
    let mut claims = Vec::new();
    if let Some(ext_type) = extension.and_then(media::from_extension) {
        claims.push(Claim {
            media_type: ext_type.to_string(),
            source: ClaimSource::Extension,
        });
    }
    push_explicit(&mut claims, options);
    let sniffed = media::sniff(sniffed_from);
    let decision = media::decide(sniffed.as_deref(), &claims).or_else(|| {
        content_type.map(|media_type| media::Decision {
            media_type,
            mismatch: None,
        })
    });
    let Some(decision) = decision else {
        let extension = extension.map(str::to_string);
        return Err(Error::refused(label, Refusal::UnknownType { extension }));
    };
    report_mismatch(label, &decision, options, warnings)?;
    Ok(decision.media_type)
}

fn from_data_url(
    url: &str,
    label: &str,
    options: &EncodeOptions,
    warnings: &mut Vec<String>,
) -> Result<MediaPart> {
    let refused = |refusal: Refusal| Error::refused(label, refusal);
    let parsed = dataurl::parse(url).map_err(|e| refused(e.into()))?;
    if !parsed.base64 {
        return Err(refused(Refusal::NotBase64));
    }
    let declared = match (&parsed.media_type, parsed.declared) {
        (Some(media_type), _) => media_type.clone(),
        (None, "") => return Err(refused(Refusal::NoMediaType)),
        (None, declared) => return Err(refused(Refusal::BadMediaType(declared.to_string()))),
    };
    if let Some(len) = b64::decoded_len(parsed.payload) {
        check_size(label, Path::new(label), len, options)?;
    }
    let bytes = b64::decode_strict(parsed.payload).map_err(|e| refused(e.into()))?;
    let mut claims = vec![Claim {
        media_type: declared,
        source: ClaimSource::Declared,
    }];
    push_explicit(&mut claims, options);
    let sniffed = media::sniff(&bytes);
    let decision =
        media::decide(sniffed.as_deref(), &claims).expect("a declared type is always a decision");
    report_mismatch(label, &decision, options, warnings)?;
    Ok(media_part(
        decision.media_type,
        Source::Data(parsed.payload.to_string()),
        parsed.name,
        options,
    ))
}

fn from_url(url: &str, label: &str, options: &EncodeOptions) -> Result<MediaPart> {
    let media_type = match &options.mime_type {
        Some(explicit) => explicit.clone(),
        None => {
            let extension = media::extension_of_url(url);
            match extension.as_deref().and_then(media::from_extension) {
                Some(media_type) => media_type.to_string(),
                None => return Err(Error::refused(label, Refusal::UrlType)),
            }
        }
    };
    Ok(media_part(
        media_type,
        Source::Url(url.to_string()),
        None,
        options,
    ))
}

fn push_explicit(claims: &mut Vec<Claim>, options: &EncodeOptions) {
    if let Some(explicit) = &options.mime_type {
        claims.push(Claim {
            media_type: explicit.clone(),
            source: ClaimSource::Explicit,
        });
    }
}

fn report_mismatch(
    label: &str,
    decision: &media::Decision,
    options: &EncodeOptions,
    warnings: &mut Vec<String>,
) -> Result<()> {
    if let Some((content, claimed)) = &decision.mismatch {
        let mismatch = Refusal::Mismatch {
            content: content.clone(),
            claimed: claimed.clone(),
        };
        if options.strict {
            return Err(Error::refused(label, mismatch));
        }
        warnings.push(format!("{label}: {mismatch}"));
    }
    Ok(())
}

fn media_part(
    mime_type: String,
    source: Source,
    name: Option<String>,
    options: &EncodeOptions,
) -> MediaPart {
    MediaPart {
        kind: options
            .part_type
            .unwrap_or_else(|| MediaKind::of(&mime_type)),
        mime_type,
        source,
        name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encode_one(source: SourceSpec, to: Shape) -> Error {
        let options = EncodeOptions {
            sources: vec![source],
            to,
            ..EncodeOptions::default()
        };
        encode(&options).unwrap_err()
    }

    fn cause(error: &Error) -> Option<&Refusal> {
        std::error::Error::source(error).and_then(|cause| cause.downcast_ref())
    }

    #[test]
    fn a_refused_source_is_named_in_the_message_and_its_cause_is_typed() {
        let error = encode_one(SourceSpec::DataUrl("data:,hello".into()), Shape::Canonical);
        assert_eq!(error.exit_code(), 1);
        assert_eq!(error.to_string(), "data:,…");
        assert_eq!(cause(&error), Some(&Refusal::NotBase64));
        assert_eq!(
            format!("{:#}", anyhow::Error::from(error)),
            "data:,…: data URL is not base64 (expected data:<media type>;base64,<payload>)"
        );
    }

    #[test]
    fn a_part_the_shape_cannot_carry_keeps_the_shape_s_refusal() {
        let url = "data:image/bmp;base64,Qk0AAAAAAAAAAA==";
        let error = encode_one(SourceSpec::DataUrl(url.into()), Shape::Anthropic);
        let Some(Refusal::Unsupported(unsupported)) = cause(&error) else {
            panic!("not an unsupported part: {error:?}");
        };
        assert_eq!(unsupported.shape, Shape::Anthropic);
        let expected = format!("data:image/bmp;base64,…: {unsupported}");
        assert_eq!(format!("{:#}", anyhow::Error::from(error)), expected);
    }

    /// A 1×1 GIF: the bytes a caller hands over without a file.
    fn gif() -> Vec<u8> {
        use base64::Engine;
        base64::engine::general_purpose::STANDARD
            .decode("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==")
            .unwrap()
    }

    #[test]
    fn bytes_are_sniffed_named_and_capped_as_a_file_is() {
        let options = EncodeOptions {
            sources: vec![SourceSpec::Bytes {
                bytes: gif(),
                label: None,
            }],
            name: Some("dot.gif".into()),
            to: Shape::Canonical,
            ..EncodeOptions::default()
        };
        let encoded = encode(&options).unwrap();
        let Part::Media(media) = &encoded.parts[0] else {
            panic!("not a media part: {:?}", encoded.parts[0]);
        };
        assert_eq!(media.mime_type, "image/gif");
        assert_eq!(media.name.as_deref(), Some("dot.gif"));
        let capped = EncodeOptions {
            max_part_bytes: Some(10),
            ..options
        };
        let error = encode(&capped).unwrap_err();
        assert_eq!(error.exit_code(), 1);
        assert!(
            matches!(
                cause(&error),
                Some(Refusal::OverCap {
                    size: Some(43),
                    max: 10
                })
            ),
            "{error:?}"
        );
        // Bytes no type is known for fall back on the name's extension.
        assert_eq!(error.to_string(), "bytes");
        let empty = EncodeOptions {
            sources: vec![SourceSpec::Bytes {
                bytes: Vec::new(),
                label: Some("empty.bin".into()),
            }],
            to: Shape::Canonical,
            ..EncodeOptions::default()
        };
        let error = encode(&empty).unwrap_err();
        assert_eq!(
            (error.to_string(), cause(&error)),
            ("empty.bin".to_string(), Some(&Refusal::Empty))
        );
        let text = EncodeOptions {
            sources: vec![SourceSpec::Bytes {
                bytes: b"plain words".to_vec(),
                label: Some("notes".into()),
            }],
            name: Some("notes.txt".into()),
            to: Shape::Canonical,
            ..EncodeOptions::default()
        };
        let Part::Media(media) = &encode(&text).unwrap().parts[0] else {
            panic!("not a media part");
        };
        assert_eq!(media.mime_type, "text/plain");
    }
}
