//! The formats that are ZIP archives underneath: Office Open XML (DOCX,
//! XLSX, PPTX), OpenDocument, EPUB and their kin. Their bytes start like any
//! ZIP, so a magic-number sniffer sees `application/zip` unless it reads the
//! archive's entries; `infer` reads a few at fixed places and misses a DOCX
//! whose fourth entry is not under `word/`. This module walks the local file
//! headers at the start of the archive (all a header check holds of a large
//! payload) and names the format where the entries say it, and says which
//! declared types ZIP bytes may carry.

/// The signature of a ZIP local file header.
const LOCAL_HEADER: &[u8; 4] = b"PK\x03\x04";
/// The signature of a central directory entry: the local headers are over.
const CENTRAL_HEADER: &[u8; 4] = b"PK\x01\x02";
/// How many entries are read before giving up: the telling ones come first.
const MAX_ENTRIES: usize = 64;

/// The generic container type.
pub const ZIP: &str = "application/zip";

/// An Office Open XML family, by the folder its main part stands in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Office {
    Word,
    Excel,
    PowerPoint,
}

impl Office {
    fn of_entry(name: &[u8]) -> Option<Office> {
        if name.starts_with(b"word/") {
            Some(Office::Word)
        } else if name.starts_with(b"xl/") {
            Some(Office::Excel)
        } else if name.starts_with(b"ppt/") {
            Some(Office::PowerPoint)
        } else {
            None
        }
    }

    /// The type of the family's plain document, which the sniffer names.
    fn document_type(self) -> &'static str {
        match self {
            Office::Word => {
                "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
            }
            Office::Excel => "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            Office::PowerPoint => {
                "application/vnd.openxmlformats-officedocument.presentationml.presentation"
            }
        }
    }

    /// The family of a media type: the document, its template, slideshow and
    /// macro-enabled variants all share their main folder.
    fn of_type(media_type: &str) -> Option<Office> {
        let families = [
            (
                Office::Word,
                "application/vnd.openxmlformats-officedocument.wordprocessingml.",
                "application/vnd.ms-word.",
            ),
            (
                Office::Excel,
                "application/vnd.openxmlformats-officedocument.spreadsheetml.",
                "application/vnd.ms-excel.",
            ),
            (
                Office::PowerPoint,
                "application/vnd.openxmlformats-officedocument.presentationml.",
                "application/vnd.ms-powerpoint.",
            ),
        ];
        families
            .into_iter()
            .find(|(_, open_xml, macro_enabled)| {
                media_type.starts_with(open_xml)
                    || (media_type.starts_with(macro_enabled)
                        && media_type.ends_with(".macroenabled.12"))
            })
            .map(|(office, ..)| office)
    }
}

/// One local file header: the entry's name, how its data is stored, and
/// where the data starts and (when the header says) ends.
struct Entry<'b> {
    name: &'b [u8],
    stored: bool,
    data_start: usize,
    data_end: Option<usize>,
}

fn u16_at(bytes: &[u8], at: usize) -> Option<usize> {
    let b = bytes.get(at..at + 2)?;
    Some(usize::from(u16::from_le_bytes([b[0], b[1]])))
}

fn u32_at(bytes: &[u8], at: usize) -> Option<usize> {
    let b = bytes.get(at..at + 4)?;
    usize::try_from(u32::from_le_bytes([b[0], b[1], b[2], b[3]])).ok()
}

/// The local file header at `at`, if one is there whole.
fn entry_at(bytes: &[u8], at: usize) -> Option<Entry<'_>> {
    if bytes.get(at..at + 4)? != LOCAL_HEADER {
        return None;
    }
    let flags = u16_at(bytes, at + 6)?;
    let method = u16_at(bytes, at + 8)?;
    let compressed = u32_at(bytes, at + 18)?;
    let name_len = u16_at(bytes, at + 26)?;
    let extra_len = u16_at(bytes, at + 28)?;
    let name_start = at + 30;
    let name = bytes.get(name_start..name_start + name_len)?;
    let data_start = name_start + name_len + extra_len;
    // Bit 3: the sizes follow the data (a streamed archive), so the header
    // does not say where the next one starts.
    let sized = flags & 0x08 == 0 || compressed != 0;
    Some(Entry {
        name,
        stored: method == 0,
        data_start,
        data_end: sized.then(|| data_start.saturating_add(compressed)),
    })
}

/// Where the next local header after `entry` starts: past its data, or
/// (when its size is not known) the next signature found after it.
fn next_header(bytes: &[u8], entry: &Entry<'_>) -> Option<usize> {
    match entry.data_end {
        Some(end) => Some(end),
        None => {
            let rest = bytes.get(entry.data_start..)?;
            memchr::memmem::find(rest, LOCAL_HEADER).map(|at| entry.data_start + at)
        }
    }
}

/// The format of ZIP bytes, where their entries name it: the type an
/// uncompressed first entry `mimetype` spells (OpenDocument, EPUB and the
/// formats that copied their rule), or an Office Open XML document by its
/// `[Content_Types].xml` and main folder. `None` when the bytes are no ZIP or
/// the entries read do not tell (the caller says `application/zip`).
pub fn sniff(bytes: &[u8]) -> Option<String> {
    let first = entry_at(bytes, 0)?;
    if first.name == b"mimetype" && first.stored {
        if let Some(declared) = first
            .data_end
            .and_then(|end| bytes.get(first.data_start..end))
            .and_then(|data| std::str::from_utf8(data).ok())
        {
            // Only a type written whole: a bare family name here is no type.
            if declared.trim().contains('/') {
                return super::normalize(declared);
            }
        }
    }
    let (mut content_types, mut office) = (false, None);
    let mut entry = first;
    for _ in 0..MAX_ENTRIES {
        content_types |= entry.name == b"[Content_Types].xml";
        office = office.or_else(|| Office::of_entry(entry.name));
        if let (true, Some(office)) = (content_types, office) {
            return Some(office.document_type().to_string());
        }
        let Some(at) = next_header(bytes, &entry) else {
            break;
        };
        if bytes.get(at..at + 4) == Some(CENTRAL_HEADER) {
            break;
        }
        // Each header starts past the last one's name, so the walk ends.
        match entry_at(bytes, at) {
            Some(next) => entry = next,
            None => break,
        }
    }
    None
}

/// Whether a media type names a ZIP archive or a format built on one (so
/// ZIP bytes the sniffer cannot place may be it).
pub fn is_zip_based(media_type: &str) -> bool {
    const EXACT: &[&str] = &[
        ZIP,
        "application/x-zip-compressed",
        "application/x-zip",
        "application/java-archive",
        "application/vnd.android.package-archive",
        "application/vnd.google-earth.kmz",
        "application/x-xpinstall",
        "application/vnd.ms-xpsdocument",
        "application/oxps",
        "application/vnd.ms-visio.drawing",
        "image/openraster",
    ];
    const FAMILIES: &[&str] = &[
        "application/vnd.oasis.opendocument.",
        "application/vnd.sun.xml.",
    ];
    EXACT.contains(&media_type)
        || media_type.ends_with("+zip")
        || FAMILIES.iter().any(|family| media_type.starts_with(family))
        || Office::of_type(media_type).is_some()
}

/// Whether a type names only the container (what every ZIP-based file is).
pub fn is_container(media_type: &str) -> bool {
    matches!(
        media_type,
        ZIP | "application/x-zip-compressed" | "application/x-zip"
    )
}

/// Whether a claimed type agrees with what the sniffer made of ZIP bytes
/// without being its spelling: the claim names the container, or a format
/// the sniffer could not rule out (it saw a ZIP and no more), or a member of
/// the Office family the entries name (a template, a macro-enabled file).
pub fn refines(sniffed: &str, claimed: &str) -> bool {
    if !is_zip_based(sniffed) {
        return false;
    }
    if is_container(claimed) {
        return true;
    }
    if is_container(sniffed) {
        return is_zip_based(claimed);
    }
    Office::of_type(sniffed).is_some() && Office::of_type(sniffed) == Office::of_type(claimed)
}

/// Small stored ZIP archives built in memory, for tests.
#[cfg(test)]
pub mod build {
    /// A ZIP of `entries` (name, content), each stored uncompressed; with
    /// `streamed`, each header leaves its sizes to a data descriptor.
    pub fn stored(entries: &[(&str, &[u8])], streamed: bool) -> Vec<u8> {
        let mut out = Vec::new();
        for (name, data) in entries {
            let size = if streamed { 0 } else { data.len() as u32 };
            out.extend_from_slice(b"PK\x03\x04");
            out.extend_from_slice(&20u16.to_le_bytes());
            out.extend_from_slice(&(if streamed { 8u16 } else { 0 }).to_le_bytes());
            out.extend_from_slice(&0u16.to_le_bytes()); // stored
            out.extend_from_slice(&[0; 4]); // time and date
            out.extend_from_slice(&[0; 4]); // CRC, not checked by the sniffer
            out.extend_from_slice(&size.to_le_bytes());
            out.extend_from_slice(&size.to_le_bytes());
            out.extend_from_slice(&(name.len() as u16).to_le_bytes());
            out.extend_from_slice(&0u16.to_le_bytes());
            out.extend_from_slice(name.as_bytes());
            out.extend_from_slice(data);
            if streamed {
                out.extend_from_slice(b"PK\x07\x08");
                out.extend_from_slice(&[0; 4]);
                out.extend_from_slice(&(data.len() as u32).to_le_bytes());
                out.extend_from_slice(&(data.len() as u32).to_le_bytes());
            }
        }
        out.extend_from_slice(b"PK\x05\x06");
        out.extend_from_slice(&[0; 18]);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::build::stored;
    use super::*;

    const DOCX: &str = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
    const XLSX: &str = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

    fn office(main: &str) -> Vec<u8> {
        stored(
            &[
                ("[Content_Types].xml", b"<Types/>"),
                ("_rels/.rels", b"<Relationships/>"),
                (main, b"<x/>"),
            ],
            false,
        )
    }

    #[test]
    fn names_office_documents_by_their_main_folder() {
        assert_eq!(sniff(&office("word/document.xml")).as_deref(), Some(DOCX));
        assert_eq!(sniff(&office("xl/workbook.xml")).as_deref(), Some(XLSX));
        assert_eq!(
            sniff(&office("ppt/presentation.xml")).as_deref(),
            Some("application/vnd.openxmlformats-officedocument.presentationml.presentation")
        );
        // The order of entries does not matter, nor streamed sizes.
        let late = stored(
            &[
                ("docProps/app.xml", b"<a/>"),
                ("word/document.xml", b"<x/>"),
                ("[Content_Types].xml", b"<Types/>"),
            ],
            true,
        );
        assert_eq!(sniff(&late).as_deref(), Some(DOCX));
        // A folder named word/ without the content-types part is no DOCX.
        let plain = stored(&[("word/notes.txt", b"hi")], false);
        assert_eq!(sniff(&plain), None);
    }

    #[test]
    fn a_stored_mimetype_entry_names_the_type() {
        let odt = stored(
            &[
                ("mimetype", b"application/vnd.oasis.opendocument.text"),
                ("content.xml", b"<x/>"),
            ],
            false,
        );
        assert_eq!(
            sniff(&odt).as_deref(),
            Some("application/vnd.oasis.opendocument.text")
        );
        let epub = stored(&[("mimetype", b"application/epub+zip")], false);
        assert_eq!(sniff(&epub).as_deref(), Some("application/epub+zip"));
        // Not a type: the entries do not tell.
        let odd = stored(&[("mimetype", b"text")], false);
        assert_eq!(sniff(&odd), None);
    }

    #[test]
    fn cut_or_foreign_bytes_are_not_placed() {
        let docx = office("word/document.xml");
        assert_eq!(sniff(&docx[..40]), None);
        assert_eq!(sniff(b"%PDF-1.4"), None);
        assert_eq!(sniff(b""), None);
    }

    #[test]
    fn zip_bytes_carry_zip_based_claims_only() {
        // The sniffer saw a ZIP and no more: any ZIP-based claim stands.
        assert!(refines(ZIP, DOCX));
        assert!(refines(ZIP, "application/epub+zip"));
        assert!(refines(
            ZIP,
            "application/vnd.oasis.opendocument.spreadsheet"
        ));
        assert!(refines(
            ZIP,
            "application/vnd.ms-excel.sheet.macroenabled.12"
        ));
        assert!(!refines(ZIP, "image/png"));
        assert!(!refines(ZIP, "application/pdf"));
        // Office's plain binary formats are not ZIPs.
        assert!(!refines(ZIP, "application/vnd.ms-excel"));
        // The container is true of every member.
        assert!(refines(DOCX, "application/zip"));
        assert!(refines(
            "application/epub+zip",
            "application/x-zip-compressed"
        ));
        // Members of the family the entries name, not of another.
        assert!(refines(
            DOCX,
            "application/vnd.openxmlformats-officedocument.wordprocessingml.template"
        ));
        assert!(refines(
            DOCX,
            "application/vnd.ms-word.document.macroenabled.12"
        ));
        assert!(!refines(DOCX, XLSX));
        assert!(!refines(
            "application/vnd.oasis.opendocument.text",
            "application/vnd.oasis.opendocument.spreadsheet"
        ));
        assert!(!refines("image/png", "application/zip"));
    }
}
