//! Media types: normalization, sniffing from content, the fixed extension table,
//! and the rule that decides a part's type when several sources of truth disagree.

pub mod webp;
pub mod zip;

use std::path::Path;

/// What kind of part a media type makes (docs/media-types.md: `image/*` → image, `audio/*` →
/// audio, anything else → file).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MediaKind {
    Image,
    Audio,
    File,
}

impl MediaKind {
    /// The kind a normalized media type makes.
    pub fn of(media_type: &str) -> MediaKind {
        if media_type.starts_with("image/") {
            MediaKind::Image
        } else if media_type.starts_with("audio/") {
            MediaKind::Audio
        } else {
            MediaKind::File
        }
    }

    /// The part `type` string for this kind.
    pub fn as_str(self) -> &'static str {
        match self {
            MediaKind::Image => "image",
            MediaKind::Audio => "audio",
            MediaKind::File => "file",
        }
    }
}

/// The fixed extension table (docs/media-types.md). Extensions are matched case-insensitively.
const EXTENSIONS: &[(&str, &str)] = &[
    ("png", "image/png"),
    ("jpg", "image/jpeg"),
    ("jpeg", "image/jpeg"),
    ("gif", "image/gif"),
    ("webp", "image/webp"),
    ("bmp", "image/bmp"),
    ("tif", "image/tiff"),
    ("tiff", "image/tiff"),
    ("heic", "image/heic"),
    ("heif", "image/heif"),
    ("svg", "image/svg+xml"),
    ("wav", "audio/wav"),
    ("flac", "audio/flac"),
    ("aac", "audio/aac"),
    ("pdf", "application/pdf"),
    ("txt", "text/plain"),
    ("md", "text/markdown"),
    ("csv", "text/csv"),
    ("json", "application/json"),
    ("html", "text/html"),
    ("htm", "text/html"),
    ("xml", "application/xml"),
    ("mp3", "audio/mpeg"),
    ("ogg", "audio/ogg"),
    ("oga", "audio/ogg"),
    ("m4a", "audio/mp4"),
    ("webm", "video/webm"),
    ("mp4", "video/mp4"),
    // ZIP-based documents: their bytes say `application/zip` when the
    // entries a header check reads do not tell.
    (
        "docx",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    ),
    (
        "xlsx",
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    ),
    (
        "pptx",
        "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    ),
    ("odt", "application/vnd.oasis.opendocument.text"),
    ("ods", "application/vnd.oasis.opendocument.spreadsheet"),
    ("odp", "application/vnd.oasis.opendocument.presentation"),
    ("epub", "application/epub+zip"),
    ("zip", "application/zip"),
];

/// Spellings that mean the same media type as a canonical one.
const ALIASES: &[(&str, &str)] = &[
    ("image/jpg", "image/jpeg"),
    ("image/pjpeg", "image/jpeg"),
    ("audio/wave", "audio/wav"),
    ("audio/x-wav", "audio/wav"),
    ("audio/vnd.wave", "audio/wav"),
    ("audio/mp3", "audio/mpeg"),
    ("audio/x-flac", "audio/flac"),
    ("audio/m4a", "audio/mp4"),
    ("audio/x-m4a", "audio/mp4"),
];

/// The media type for a file extension (without the dot), from the fixed table.
pub fn from_extension(ext: &str) -> Option<&'static str> {
    EXTENSIONS
        .iter()
        .find(|(e, _)| e.eq_ignore_ascii_case(ext))
        .map(|(_, m)| *m)
}

/// The extension partkit writes for a media type (`jpg` for JPEG), if it has one.
pub fn extension_for(media_type: &str) -> Option<&'static str> {
    match media_type {
        "image/jpeg" => Some("jpg"),
        "image/tiff" => Some("tiff"),
        "text/html" => Some("html"),
        "audio/ogg" => Some("ogg"),
        _ => EXTENSIONS
            .iter()
            .find(|(_, m)| *m == media_type)
            .map(|(e, _)| *e),
    }
}

/// The extension of a path's file name, if it has one.
pub fn extension_of_path(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_string_lossy();
    extension_of_name(&name)
}

/// The extension of a file name (`shot.PNG` → `PNG`); none for `.bashrc` or `README`.
pub fn extension_of_name(name: &str) -> Option<String> {
    let (stem, ext) = name.rsplit_once('.')?;
    if stem.is_empty() || ext.is_empty() {
        return None;
    }
    Some(ext.to_string())
}

/// The last segment of a URL's path, ignoring its query and fragment.
pub fn url_file_name(url: &str) -> Option<&str> {
    let without_fragment = url.split('#').next().unwrap_or(url);
    let without_query = without_fragment
        .split('?')
        .next()
        .unwrap_or(without_fragment);
    let after_scheme = without_query
        .split_once("://")
        .map_or(without_query, |(_, rest)| rest);
    let (_, path) = after_scheme.split_once('/')?;
    let last = path.rsplit('/').next()?;
    (!last.is_empty()).then_some(last)
}

/// The extension of a URL's path, ignoring its query and fragment.
pub fn extension_of_url(url: &str) -> Option<String> {
    extension_of_name(url_file_name(url)?)
}

/// Normalizes a declared media type: lower case, parameters removed, aliases
/// resolved, a bare family name read as its default ([`read`]). Returns `None`
/// when the text is no media type.
pub fn normalize(declared: &str) -> Option<String> {
    read(declared).map(|reading| reading.media_type)
}

/// How a written media type departs from its normalized form, where that is
/// worth a warning. Parameters are not part of the type and are no departure
/// in themselves: they may mean something (a text's charset, an audio
/// codec or rate).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Departure {
    /// Another spelling of the same type: case, spaces, an alias (`image/jpg`).
    Spelling,
    /// A bare top-level name read as its family's default (`text`).
    Family,
    /// A `charset` on a type whose bytes are not text, where it means nothing.
    Charset,
}

/// A media type as a reader takes it from the wire.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reading<'a> {
    /// The normalized type: `type/subtype`, no parameters.
    pub media_type: String,
    /// The parameters as written, from the first `;` (empty when none).
    pub parameters: &'a str,
    pub departure: Option<Departure>,
}

impl Reading<'_> {
    /// The spelling `validate --fix` writes: the normalized type and the
    /// parameters that mean something, as written.
    pub fn repaired(&self) -> String {
        if self.departure != Some(Departure::Charset) {
            return format!("{}{}", self.media_type, self.parameters);
        }
        let kept: Vec<&str> = parameters(self.parameters)
            .filter(|(key, _)| !key.eq_ignore_ascii_case("charset"))
            .map(|(_, whole)| whole)
            .collect();
        let mut repaired = self.media_type.clone();
        for parameter in kept {
            repaired.push_str("; ");
            repaired.push_str(parameter);
        }
        repaired
    }
}

/// The parameters after a type (`; key=value`, each trimmed): key and whole.
fn parameters(written: &str) -> impl Iterator<Item = (&str, &str)> {
    written
        .split(';')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| (p.split('=').next().unwrap_or("").trim(), p))
}

/// Reads a declared media type liberally (the general rule for every type a
/// reader takes from the wire): case and aliases are normalized, parameters
/// set aside, and a bare top-level name read as its family's default where
/// there is one (`text` is `text/plain`, RFC 2046's reading of any text it
/// does not know). `None` when the text is no media type at all.
pub fn read(declared: &str) -> Option<Reading<'_>> {
    let (written, parameters) = declared.split_at(declared.find(';').unwrap_or(declared.len()));
    let essence = written.trim();
    let Some((top, sub)) = essence.split_once('/') else {
        return family_default(essence).map(|media_type| Reading {
            media_type: media_type.to_string(),
            parameters,
            departure: Some(Departure::Family),
        });
    };
    let valid = |s: &str| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"!#$&^_.+-*".contains(&b))
    };
    if !valid(top) || !valid(sub) {
        return None;
    }
    let lower = essence.to_ascii_lowercase();
    let media_type = ALIASES
        .iter()
        .find(|(alias, _)| *alias == lower)
        .map_or(lower, |(_, canonical)| (*canonical).to_string());
    // Space may stand before a parameter's `;`, not after a bare type.
    let as_written = if parameters.is_empty() {
        written
    } else {
        written.trim_end()
    };
    let departure = if as_written != media_type {
        Some(Departure::Spelling)
    } else if !is_text_type(&media_type)
        && self::parameters(parameters).any(|(key, _)| key.eq_ignore_ascii_case("charset"))
    {
        Some(Departure::Charset)
    } else {
        None
    };
    Some(Reading {
        media_type,
        parameters,
        departure,
    })
}

/// The type a bare top-level name stands for. Only `text` has a default
/// subtype that says what the bytes are (RFC 2046 §4.1.4); it is what the
/// Rust MCP SDK writes for an embedded text resource. `image`, `audio` or
/// `video` alone say nothing of the format.
fn family_default(top: &str) -> Option<&'static str> {
    top.eq_ignore_ascii_case("text").then_some("text/plain")
}

/// Whether a type's bytes are text, so that a `charset` says how to read them.
pub fn is_text_type(media_type: &str) -> bool {
    media_type.starts_with("text/")
        || media_type.ends_with("+json")
        || media_type.ends_with("+xml")
        || matches!(
            media_type,
            "application/json"
                | "application/xml"
                | "application/javascript"
                | "application/ecmascript"
                | "application/x-javascript"
                | "application/yaml"
                | "application/x-yaml"
                | "application/toml"
                | "application/sql"
                | "application/graphql"
                | "application/x-ndjson"
                | "application/jsonl"
                | "application/x-sh"
        )
}

/// The warning for a declared type that departs from its normalized form.
pub fn departure_message(declared: &str, reading: &Reading<'_>) -> String {
    let declared_echo = crate::echo::quoted(declared);
    match reading.departure {
        Some(Departure::Family) => format!(
            "{declared_echo} is a top-level type alone, not a media type; read as {}",
            crate::echo::quoted(&reading.media_type)
        ),
        Some(Departure::Charset) => format!(
            "{declared_echo} is written {} in normalized form (a charset means nothing to {})",
            crate::echo::quoted(&reading.repaired()),
            reading.media_type
        ),
        _ => format!(
            "{declared_echo} is written {} in normalized form",
            crate::echo::quoted(&reading.repaired())
        ),
    }
}

/// Sniffs the media type of some bytes from their magic numbers (normalized).
pub fn sniff(bytes: &[u8]) -> Option<String> {
    // A ZIP's entries name the document format it holds (`infer` reads
    // only a few of them, at fixed places).
    if let Some(format) = zip::sniff(bytes) {
        return Some(format);
    }
    let kind = infer::get(bytes)?;
    normalize(kind.mime_type())
}

/// Sniffed types that come from a guess about text rather than a magic number:
/// a file whose extension names a text format is believed over them.
fn is_text_guess(sniffed: &str) -> bool {
    matches!(sniffed, "text/html" | "text/xml" | "text/x-shellscript")
}

fn is_textual(media_type: &str) -> bool {
    media_type.starts_with("text/")
        || matches!(
            media_type,
            "application/json" | "application/xml" | "image/svg+xml"
        )
}

/// Whether a claimed type only refines the sniffed one: the sniffer names the family
/// and the claim the member (XML content called SVG, HEIF content called HEIC, a
/// ZIP called a DOCX, or a DOCX called a Word template), or the claim names the
/// container of the format the sniffer names (a DOCX called a ZIP).
pub fn refines(sniffed: &str, claimed: &str) -> bool {
    matches!(
        (sniffed, claimed),
        ("text/xml" | "application/xml", "image/svg+xml") | ("image/heif", "image/heic")
    ) || zip::refines(sniffed, claimed)
}

/// Where a claimed media type came from, for messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClaimSource {
    /// The file or URL extension, through the fixed table.
    Extension,
    /// A type the input declared (a `data:` URL, a part's `mimeType`).
    Declared,
    /// `--mime-type` on the command line.
    Explicit,
}

/// A media type some source claims for bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claim {
    pub media_type: String,
    pub source: ClaimSource,
}

/// The outcome of deciding a media type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    /// The media type the part gets.
    pub media_type: String,
    /// Set when content and claim disagree: `(content type, claimed type)`.
    pub mismatch: Option<(String, String)>,
}

/// Decides the media type of bytes from what was sniffed and what is claimed,
/// by docs/media-types.md: an explicit type wins over everything; otherwise the sniffed type
/// wins over the extension and over a declared type, except where the claim only
/// refines the sniffed family. Returns `None` when nothing names a type.
///
/// An explicit claim is the answer and alone is checked against the content
/// (the user said what the bytes are; an extension that disagrees with both is
/// not worth a warning). Otherwise a declared type, else the extension, is
/// checked against the content.
pub fn decide(sniffed: Option<&str>, claims: &[Claim]) -> Option<Decision> {
    let explicit = claims.iter().find(|c| c.source == ClaimSource::Explicit);
    let declared = claims.iter().find(|c| c.source == ClaimSource::Declared);
    let extension = claims.iter().find(|c| c.source == ClaimSource::Extension);
    let strongest = explicit.or(declared).or(extension);

    let Some(sniffed) = sniffed else {
        return strongest.map(|c| Decision {
            media_type: c.media_type.clone(),
            mismatch: None,
        });
    };
    let agrees = |claim: &Claim| {
        claim.media_type == sniffed
            || refines(sniffed, &claim.media_type)
            || (is_text_guess(sniffed) && is_textual(&claim.media_type))
    };
    if let Some(explicit) = explicit {
        let mismatch =
            (!agrees(explicit)).then(|| (sniffed.to_string(), explicit.media_type.clone()));
        return Some(Decision {
            media_type: explicit.media_type.clone(),
            mismatch,
        });
    }
    // The content decides; a claim that agrees (or refines) supplies the spelling.
    let claim = declared.or(extension);
    match claim {
        Some(claim) if agrees(claim) => Some(Decision {
            media_type: claim.media_type.clone(),
            mismatch: None,
        }),
        Some(claim) => Some(Decision {
            media_type: sniffed.to_string(),
            mismatch: Some((sniffed.to_string(), claim.media_type.clone())),
        }),
        None => Some(Decision {
            media_type: sniffed.to_string(),
            mismatch: None,
        }),
    }
}

/// The message for a content/claim mismatch: `content is image/jpeg, not image/png`.
pub fn mismatch_message(content: &str, claimed: &str) -> String {
    format!("content is {content}, not {}", crate::echo::plain(claimed))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claim(media_type: &str, source: ClaimSource) -> Claim {
        Claim {
            media_type: media_type.to_string(),
            source,
        }
    }

    #[test]
    fn normalizes_case_parameters_and_aliases() {
        assert_eq!(normalize("IMAGE/PNG").as_deref(), Some("image/png"));
        assert_eq!(
            normalize("image/png; charset=utf-8").as_deref(),
            Some("image/png")
        );
        assert_eq!(normalize("image/jpg").as_deref(), Some("image/jpeg"));
        assert_eq!(normalize("image/pjpeg").as_deref(), Some("image/jpeg"));
        assert_eq!(normalize("audio/wave").as_deref(), Some("audio/wav"));
        assert_eq!(normalize("audio/x-wav").as_deref(), Some("audio/wav"));
        assert_eq!(normalize("audio/vnd.wave").as_deref(), Some("audio/wav"));
        assert_eq!(normalize("audio/mp3").as_deref(), Some("audio/mpeg"));
        assert_eq!(normalize("audio/x-flac").as_deref(), Some("audio/flac"));
        assert_eq!(normalize("audio/M4A").as_deref(), Some("audio/mp4"));
        assert_eq!(normalize("audio/x-m4a").as_deref(), Some("audio/mp4"));
        assert_eq!(normalize("image/svg+xml").as_deref(), Some("image/svg+xml"));
        assert_eq!(normalize("png"), None);
        assert_eq!(normalize("text").as_deref(), Some("text/plain"));
        assert_eq!(normalize(" Text ").as_deref(), Some("text/plain"));
        assert_eq!(normalize("image"), None);
        assert_eq!(normalize("image/"), None);
        assert_eq!(normalize("ima ge/png"), None);
        assert_eq!(normalize(""), None);
    }

    #[test]
    fn readings_say_how_the_spelling_departs() {
        let departure = |declared: &str| read(declared).and_then(|r| r.departure);
        // Parameters are set aside, and a charset on text is no departure.
        let text = read("text/plain; charset=utf-8").unwrap();
        assert_eq!(text.media_type, "text/plain");
        assert_eq!(text.parameters, "; charset=utf-8");
        assert_eq!(text.departure, None);
        assert_eq!(departure("application/json;charset=UTF-8"), None);
        assert_eq!(departure("image/svg+xml; charset=utf-8"), None);
        assert_eq!(departure("audio/webm;codecs=opus"), None);
        assert_eq!(departure("audio/l16;rate=24000"), None);
        assert_eq!(departure("image/png"), None);
        // A charset on bytes that are not text means nothing.
        let png = read("image/png; charset=utf-8").unwrap();
        assert_eq!(png.departure, Some(Departure::Charset));
        assert_eq!(png.repaired(), "image/png");
        let webm = read("audio/webm; charset=utf-8; codecs=opus").unwrap();
        assert_eq!(webm.repaired(), "audio/webm; codecs=opus");
        // Spellings keep the parameters as written.
        let upper = read("Text/Plain; charset=utf-8").unwrap();
        assert_eq!(upper.departure, Some(Departure::Spelling));
        assert_eq!(upper.repaired(), "text/plain; charset=utf-8");
        assert_eq!(departure("image/jpg"), Some(Departure::Spelling));
        assert_eq!(departure(" image/png"), Some(Departure::Spelling));
        assert_eq!(departure("image/png ; x=1"), None);
        // A bare family name with a default.
        let bare = read("text").unwrap();
        assert_eq!(
            (bare.media_type.as_str(), bare.departure),
            ("text/plain", Some(Departure::Family))
        );
        assert_eq!(read("image"), None);
        assert_eq!(read("json"), None);
        assert_eq!(read(""), None);
        assert_eq!(read("; charset=utf-8"), None);
    }

    #[test]
    fn departures_have_messages() {
        let message = |declared: &str| departure_message(declared, &read(declared).unwrap());
        assert_eq!(
            message("IMAGE/PNG"),
            "\"IMAGE/PNG\" is written \"image/png\" in normalized form"
        );
        assert_eq!(
            message("text"),
            "\"text\" is a top-level type alone, not a media type; read as \"text/plain\""
        );
        assert!(message("image/png;charset=utf-8").contains("a charset means nothing"));
    }

    #[test]
    fn extension_table_is_case_insensitive() {
        assert_eq!(from_extension("PNG"), Some("image/png"));
        assert_eq!(from_extension("Jpeg"), Some("image/jpeg"));
        assert_eq!(from_extension("oga"), Some("audio/ogg"));
        assert_eq!(from_extension("m4a"), Some("audio/mp4"));
        assert_eq!(from_extension("exe"), None);
        assert_eq!(extension_for("image/jpeg"), Some("jpg"));
        assert_eq!(extension_for("image/png"), Some("png"));
        assert_eq!(extension_for("application/x-unknown"), None);
        assert_eq!(
            from_extension("DOCX"),
            Some("application/vnd.openxmlformats-officedocument.wordprocessingml.document")
        );
        assert_eq!(extension_for("application/epub+zip"), Some("epub"));
    }

    #[test]
    fn extensions_of_names_and_urls() {
        assert_eq!(extension_of_name("shot.PNG").as_deref(), Some("PNG"));
        assert_eq!(extension_of_name(".bashrc"), None);
        assert_eq!(extension_of_name("README"), None);
        assert_eq!(extension_of_name("trailing."), None);
        assert_eq!(
            extension_of_url("https://x.test/a/b.pdf?sig=1.png#p.gif").as_deref(),
            Some("pdf")
        );
        assert_eq!(extension_of_url("https://x.test/"), None);
        assert_eq!(extension_of_url("https://x.test"), None);
        assert_eq!(extension_of_url("https://x.test/dir.d/file"), None);
        assert_eq!(url_file_name("http://h/a/b.png?x"), Some("b.png"));
    }

    #[test]
    fn sniffs_magic_numbers() {
        assert_eq!(
            sniff(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR").as_deref(),
            Some("image/png")
        );
        assert_eq!(sniff(b"\xff\xd8\xff\xe0").as_deref(), Some("image/jpeg"));
        assert_eq!(sniff(b"%PDF-1.4\n").as_deref(), Some("application/pdf"));
        assert_eq!(
            sniff(b"RIFF\x24\0\0\0WAVEfmt ").as_deref(),
            Some("audio/wav")
        );
        assert_eq!(sniff(b"hello world"), None);
    }

    #[test]
    fn sniffs_zip_based_documents_by_their_entries() {
        let docx = zip::build::stored(
            &[
                ("[Content_Types].xml", b"<Types/>"),
                ("_rels/.rels", b"<Relationships/>"),
                ("word/document.xml", b"<w:document/>"),
            ],
            false,
        );
        // infer alone calls a three-entry DOCX a ZIP.
        assert_eq!(
            infer::get(&docx).map(|kind| kind.mime_type()),
            Some("application/zip")
        );
        assert_eq!(
            sniff(&docx).as_deref(),
            Some("application/vnd.openxmlformats-officedocument.wordprocessingml.document")
        );
        let unknown = zip::build::stored(&[("notes.txt", b"hi")], false);
        assert_eq!(sniff(&unknown).as_deref(), Some("application/zip"));
    }

    #[test]
    fn zip_claims_refine_zip_content() {
        let docx = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
        let declared = |sniffed: &str, claimed: &str| {
            decide(Some(sniffed), &[claim(claimed, ClaimSource::Declared)]).unwrap()
        };
        let d = declared("application/zip", docx);
        assert_eq!((d.media_type.as_str(), d.mismatch), (docx, None));
        let d = declared(docx, "application/zip");
        assert_eq!(
            (d.media_type.as_str(), d.mismatch),
            ("application/zip", None)
        );
        let d = declared("application/zip", "image/png");
        assert_eq!(d.media_type, "application/zip");
        assert!(d.mismatch.is_some());
        let xlsx = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
        assert!(declared(docx, xlsx).mismatch.is_some());
    }

    #[test]
    fn content_wins_over_extension_with_a_mismatch() {
        let d = decide(
            Some("image/jpeg"),
            &[claim("image/png", ClaimSource::Extension)],
        )
        .unwrap();
        assert_eq!(d.media_type, "image/jpeg");
        assert_eq!(
            d.mismatch,
            Some(("image/jpeg".to_string(), "image/png".to_string()))
        );
    }

    #[test]
    fn explicit_type_wins_but_mismatch_is_reported() {
        let d = decide(
            Some("image/jpeg"),
            &[
                claim("image/png", ClaimSource::Extension),
                claim("image/png", ClaimSource::Explicit),
            ],
        )
        .unwrap();
        assert_eq!(d.media_type, "image/png");
        assert!(d.mismatch.is_some());
    }

    #[test]
    fn family_refinements_are_silent() {
        let svg = decide(
            Some("text/xml"),
            &[claim("image/svg+xml", ClaimSource::Extension)],
        )
        .unwrap();
        assert_eq!(svg.media_type, "image/svg+xml");
        assert_eq!(svg.mismatch, None);
        let heic = decide(
            Some("image/heif"),
            &[claim("image/heic", ClaimSource::Extension)],
        )
        .unwrap();
        assert_eq!(heic.media_type, "image/heic");
        assert_eq!(heic.mismatch, None);
    }

    #[test]
    fn text_guesses_yield_to_text_extensions() {
        let md = decide(
            Some("text/html"),
            &[claim("text/markdown", ClaimSource::Extension)],
        )
        .unwrap();
        assert_eq!(md.media_type, "text/markdown");
        assert_eq!(md.mismatch, None);
        // ...but not to a binary claim.
        let png = decide(
            Some("text/html"),
            &[claim("image/png", ClaimSource::Extension)],
        )
        .unwrap();
        assert_eq!(png.media_type, "text/html");
        assert!(png.mismatch.is_some());
    }

    #[test]
    fn unsniffable_content_falls_back_to_the_claim() {
        let d = decide(None, &[claim("text/plain", ClaimSource::Extension)]).unwrap();
        assert_eq!(d.media_type, "text/plain");
        assert_eq!(decide(None, &[]), None);
        assert_eq!(
            decide(Some("image/gif"), &[]).unwrap().media_type,
            "image/gif"
        );
    }

    #[test]
    fn kinds_follow_the_top_level_type() {
        assert_eq!(MediaKind::of("image/png"), MediaKind::Image);
        assert_eq!(MediaKind::of("audio/wav"), MediaKind::Audio);
        assert_eq!(MediaKind::of("application/pdf"), MediaKind::File);
        assert_eq!(MediaKind::of("video/mp4"), MediaKind::File);
    }
}
