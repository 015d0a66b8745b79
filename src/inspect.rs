//! Every media item in a recorded document of any shape (docs/commands/inspect.md), with what
//! it declares, what its bytes are, and what is wrong: the operation behind
//! `partkit inspect` ([`inspect_at`] for one document, [`table`] to lay the
//! items out). A recording is listed per interaction by [`recording`], a
//! stream's events by [`events`].

use std::borrow::Cow;
use std::path::Path;

use serde_json::{json, Value};

use crate::b64;
use crate::check::{self, Depth, PayloadProblem};
use crate::document::{Document, LentFile, Open};
use crate::json;
use crate::json::lent::Lending;
use crate::media;
use crate::scan::{self, Payload};
use crate::size::group_digits;
use crate::split::ExtractedImage;

mod body;
pub mod events;
pub mod recording;

/// One media item of a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    /// The line the document starts on.
    pub line: usize,
    pub pointer: String,
    /// The shape and block, such as `anthropic image`.
    pub kind: &'static str,
    /// The declared media type, normalized.
    pub declared: Option<String>,
    /// The media type of the bytes.
    pub sniffed: Option<String>,
    /// The decoded size (computed without decoding).
    pub bytes: Option<u64>,
    pub dimensions: Option<(u32, u32)>,
    /// Whether the item is a URL rather than inline bytes.
    pub url: bool,
    pub name: Option<String>,
    pub problems: Vec<String>,
    /// The bytes to write out, with `--extract`.
    pub extracted: Option<ExtractedImage>,
}

impl Item {
    /// The `--format json` object.
    pub fn to_json(&self, file: Option<&str>) -> Value {
        let mut value = json!({
            "line": self.line,
            "pointer": self.pointer,
            "kind": self.kind,
            // No media type is longer than 255 characters (RFC 6838 gives
            // type and subtype 127 each): a longer one is echoed cut.
            "declared": self.declared.as_deref().map(|d| crate::echo::cut(d, 255).to_string()),
            "sniffed": self.sniffed,
            "bytes": self.bytes,
            "width": self.dimensions.map(|d| d.0),
            "height": self.dimensions.map(|d| d.1),
            "url": self.url,
            "name": self.name,
            "problems": self.problems,
        });
        if let (Some(file), Value::Object(map)) = (file, &mut value) {
            map.insert("extracted".into(), Value::String(file.to_string()));
        }
        value
    }

    /// The estimated input tokens of an image whose size is known
    /// (`inspect --tokens`).
    pub fn tokens(&self) -> Option<crate::tokens::Estimates> {
        self.dimensions.map(|(w, h)| crate::tokens::estimate(w, h))
    }

    /// [`Item::to_json`] with `"tokens"`: the estimates, or `null`.
    pub fn to_json_with_tokens(&self, file: Option<&str>) -> Value {
        let mut value = self.to_json(file);
        if let Value::Object(map) = &mut value {
            map.insert("tokens".into(), json!(self.tokens()));
        }
        value
    }
}

/// Finds and examines every media item of one document. `Err` carries the
/// reason a document is not JSON.
pub fn inspect_document(bytes: &[u8], line: usize, extract: bool) -> Result<Vec<Item>, String> {
    inspect_at(bytes, line, extract, &crate::subdoc::At::default())
}

/// [`inspect_document`] of every document of JSON or JSON Lines text held in
/// memory (a library caller's), items in order, each with its line. `Err`
/// names the first document that is not JSON (`line N: …` in JSON Lines),
/// or one over `max_document` bytes.
pub fn inspect_bytes(bytes: Vec<u8>, max_document: u64) -> Result<Vec<Item>, String> {
    let reader = Box::new(std::io::Cursor::new(bytes));
    let label = std::path::PathBuf::from("<document>");
    let layout = crate::io::Layout::Auto;
    let mut documents = crate::io::Documents::from_reader(reader, label, layout, max_document);
    let mut items = Vec::new();
    if !documents.detect().map_err(|e| e.to_string())? {
        return Ok(items);
    }
    while let Some(document) = documents.next() {
        let document = document.map_err(|e| e.to_string())?;
        match inspect_document(&document.bytes, document.line, false) {
            Ok(found) => items.extend(found),
            Err(why) if documents.is_json_lines() => {
                return Err(format!("line {}: {why}", document.line))
            }
            Err(why) => return Err(why),
        }
    }
    Ok(items)
}

/// [`inspect_document`] of a large file's one document, its payloads left
/// in the file: it was scanned through a small buffer, and each payload is
/// read again as it is examined. `None` when that does not apply (not JSON,
/// a file that changed meanwhile): inspect the file as any input.
pub fn inspect_lent(file: LentFile, extract: bool) -> Option<Vec<Item>> {
    let mut scratch = Vec::new();
    file.with_document(|parsed, _, lending| {
        let items = scan::find_media(&parsed.json)
            .into_iter()
            .map(|found| examine(found, 1, extract, &mut scratch, lending));
        Some(items.collect())
    })
}

/// [`inspect_lent`] of the input at `path` when [`Document::open`] keeps
/// its payloads in the file: the route every caller takes. `None` when it
/// does not (stdin, a small file, nothing to lend, `open` not whole):
/// inspect the input as any other.
pub fn inspect_large(path: Option<&Path>, open: Open, extract: bool) -> Option<Vec<Item>> {
    match Document::open(path, open) {
        Document::Lent(file) => inspect_lent(file, extract),
        Document::Read => None,
    }
}

/// [`inspect_document`] of the values at the `--at` pointers (the whole
/// document when there are none); pointers stay full pointers from the root.
pub fn inspect_at(
    bytes: &[u8],
    line: usize,
    extract: bool,
    at: &crate::subdoc::At,
) -> Result<Vec<Item>, String> {
    let ranges = if at.is_active() {
        at.locate(bytes).map_err(|e| e.to_string())?
    } else {
        vec![crate::subdoc::Located {
            pointer: String::new(),
            range: 0..bytes.len(),
        }]
    };
    let mut scratch = Vec::new();
    let mut items = Vec::new();
    for value in ranges {
        let doc =
            json::parse(&bytes[value.range.clone()]).map_err(|e| format!("invalid JSON: {e}"))?;
        items.extend(scan::find_media(&doc).into_iter().map(|found| {
            let mut item = examine(found, line, extract, &mut scratch, &Lending::NONE);
            item.pointer = crate::subdoc::join(&value.pointer, &item.pointer);
            item
        }));
    }
    Ok(items)
}

/// What one media item holds; its payload may be a placeholder `lending`
/// lends.
fn examine(
    found: scan::Found<'_>,
    line: usize,
    extract: bool,
    scratch: &mut Vec<u8>,
    lending: &Lending,
) -> Item {
    let mut item = Item {
        line,
        pointer: found.pointer,
        kind: found.kind,
        declared: found.declared.clone(),
        sniffed: None,
        bytes: None,
        dimensions: None,
        url: false,
        name: found.name.map(Cow::into_owned),
        problems: Vec::new(),
        extracted: None,
    };
    if found.kind == "data URL in text" {
        item.problems.push(
            "a base64 data: URL pasted into text: the model reads characters, not media".into(),
        );
    }
    match (found.declared_raw, &found.declared) {
        (Some(raw), Some(declared)) if raw.contains('/') && raw != declared => {
            item.problems.push(format!(
                "declared {raw}, normalized {declared}",
                raw = crate::echo::quoted(raw)
            ));
        }
        (Some(raw), None) => item.problems.push(format!(
            "declared {raw}, which is not a known media type",
            raw = crate::echo::quoted(raw)
        )),
        _ => {}
    }
    match found.payload {
        Payload::Url(_) => item.url = true,
        Payload::Blocks(blocks) => {
            let text = crate::scan::blocks_text(blocks);
            item.bytes = Some(text.len() as u64);
            if extract {
                item.extracted = Some(ExtractedImage {
                    media_type: found.declared.unwrap_or_else(|| "text/plain".into()),
                    label: item.name.clone(),
                    bytes: Some(text.into_bytes()),
                });
            }
        }
        Payload::Text(text) => {
            // Text under a key that usually holds base64 may be lent.
            let text = lending.resolved(text);
            item.bytes = Some(text.len() as u64);
            if extract {
                item.extracted = Some(ExtractedImage {
                    media_type: found.declared.unwrap_or_else(|| "text/plain".into()),
                    label: item.name.clone(),
                    bytes: Some(text.as_bytes().to_vec()),
                });
            }
        }
        Payload::Base64(payload) => examine_base64(
            &mut item,
            payload,
            found.declared,
            extract,
            scratch,
            lending,
        ),
    }
    item
}

/// What inline base64 holds: its size, sniffed type and dimensions, the
/// problems with it, and (with `extract`) its bytes. Line-wrapped, unpadded or
/// URL-safe base64 is a problem, but is still read to say what it holds.
fn examine_base64(
    item: &mut Item,
    payload: &str,
    declared_type: Option<String>,
    extract: bool,
    scratch: &mut Vec<u8>,
    lending: &Lending,
) {
    item.bytes = check::decoded_len(payload, lending);
    // The head, as validate reads it: check_decoded decodes more when the
    // header needs it.
    match check::decode_strict_head(payload, scratch, Depth::Header, lending) {
        Err(problem @ PayloadProblem::Base64 { lenient: true, .. }) => {
            // Line-wrapped, unpadded or URL-safe: still say what it holds.
            item.problems.push(problem.message());
            if let Ok((bytes, _)) = lending.with_resolved(payload, b64::decode_lenient) {
                item.bytes = Some(bytes.len() as u64);
                item.sniffed = media::sniff(&bytes);
                let declared = declared_type.clone().or_else(|| item.sniffed.clone());
                if let Some(declared) = &declared {
                    match check::check_bytes(&bytes, declared, Depth::Header) {
                        Ok((_, dimensions)) => item.dimensions = dimensions,
                        Err(PayloadProblem::Mismatch { .. }) if declared_type.is_none() => {}
                        Err(problem) => item.problems.push(problem.message()),
                    }
                }
                if extract {
                    extract_as_sniffed(item, declared, Some(bytes));
                }
            }
        }
        Err(problem) => item.problems.push(problem.message()),
        Ok(total) => {
            item.sniffed = media::sniff(scratch);
            let declared = declared_type.clone().or_else(|| item.sniffed.clone());
            if let Some(declared) = &declared {
                match check::check_decoded(
                    payload,
                    scratch,
                    total,
                    declared,
                    Depth::Header,
                    lending,
                ) {
                    Ok((_, dimensions)) => item.dimensions = dimensions,
                    Err(PayloadProblem::Mismatch { .. }) if declared_type.is_none() => {}
                    Err(problem @ PayloadProblem::Mismatch { .. }) => {
                        item.problems.push(problem.message());
                        // The bytes are still an image of their own type.
                        if let Some(sniffed) = &item.sniffed {
                            if let Ok((_, dimensions)) = check::check_decoded(
                                payload,
                                scratch,
                                total,
                                sniffed,
                                Depth::Header,
                                lending,
                            ) {
                                item.dimensions = dimensions;
                            }
                        }
                    }
                    Err(problem) => item.problems.push(problem.message()),
                }
            }
            if extract {
                let bytes = lending.with_resolved(payload, b64::decode_strict).ok();
                extract_as_sniffed(item, declared, bytes);
            }
        }
    }
}

/// Keeps decoded bytes for `--extract`, typed by what they are (the sniffed
/// type) before what they were said to be, unless what they were said to be
/// only names the member of the family the bytes are (a DOCX whose entries
/// the sniffer saw as a ZIP, an SVG it saw as XML).
fn extract_as_sniffed(item: &mut Item, declared: Option<String>, bytes: Option<Vec<u8>>) {
    let refined = match (&item.sniffed, declared) {
        (Some(sniffed), Some(declared))
            if media::refines(sniffed, &declared) && !media::zip::is_container(&declared) =>
        {
            Some(declared)
        }
        (sniffed, declared) => sniffed.clone().or(declared),
    };
    item.extracted = Some(ExtractedImage {
        media_type: refined.unwrap_or_else(|| "application/octet-stream".into()),
        label: item.name.clone(),
        bytes,
    });
}

/// Lays items out as an aligned table with a header row.
pub fn table(items: &[Item], with_lines: bool, files: &[Option<String>], tokens: bool) -> String {
    table_with(items, None, with_lines, files, tokens)
}

/// [`table`] of a recording's items, each located first by `places`
/// (`2 response`: the interaction and side) and then by its line.
pub fn table_located(
    items: &[Item],
    places: &[String],
    files: &[Option<String>],
    tokens: bool,
) -> String {
    table_with(items, Some(places), true, files, tokens)
}

fn table_with(
    items: &[Item],
    places: Option<&[String]>,
    with_lines: bool,
    files: &[Option<String>],
    tokens: bool,
) -> String {
    let mut rows: Vec<Vec<String>> = Vec::with_capacity(items.len() + 1);
    let mut header = vec![
        "POINTER",
        "KIND",
        "DECLARED",
        "SNIFFED",
        "BYTES",
        "DIMENSIONS",
        "NAME",
        "PROBLEMS",
    ];
    if tokens {
        // Before NAME and PROBLEMS, the free-text columns.
        header.splice(6..6, ["OPENAI HIGH/LOW", "ANTHROPIC", "GEMINI"]);
    }
    if with_lines {
        header.insert(0, "LINE");
    }
    if places.is_some() {
        header.insert(0, "WHERE");
    }
    rows.push(header.into_iter().map(str::to_string).collect());
    for (index, (item, file)) in items
        .iter()
        .zip(files.iter().chain(std::iter::repeat(&None)))
        .enumerate()
    {
        let mut row = row(item, file.as_deref(), with_lines);
        if tokens {
            let at = if with_lines { 7 } else { 6 };
            let cells = match item.tokens() {
                Some(t) => [
                    format!(
                        "{}/{}",
                        group_digits(t.openai_high),
                        group_digits(t.openai_low)
                    ),
                    group_digits(t.anthropic),
                    group_digits(t.gemini),
                ],
                None => ["-".to_string(), "-".to_string(), "-".to_string()],
            };
            row.splice(at..at, cells);
        }
        if let Some(places) = places {
            row.insert(0, places.get(index).cloned().unwrap_or_default());
        }
        rows.push(
            row.into_iter()
                .map(|cell| crate::render::sanitize(&cell).into_owned())
                .collect(),
        );
    }
    let columns = rows[0].len();
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            rows.iter()
                .map(|row| row[c].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in rows {
        let mut line = String::new();
        for (c, cell) in row.iter().enumerate() {
            if c + 1 == columns {
                line.push_str(cell);
            } else {
                line.push_str(cell);
                line.push_str(&" ".repeat(widths[c] - cell.chars().count() + 2));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// One item's cells, before they are made safe for a terminal.
fn row(item: &Item, file: Option<&str>, with_lines: bool) -> Vec<String> {
    let dash = || "-".to_string();
    let mut row = vec![
        if item.pointer.is_empty() {
            "/".to_string()
        } else {
            item.pointer.clone()
        },
        item.kind.to_string(),
        item.declared.clone().unwrap_or_else(dash),
        if item.url {
            "(url)".to_string()
        } else {
            item.sniffed.clone().unwrap_or_else(dash)
        },
        item.bytes.map_or_else(dash, crate::size::group_digits),
        item.dimensions
            .map_or_else(dash, |(w, h)| format!("{w}x{h}")),
        item.name.as_deref().map_or_else(dash, |n| shorten(n, 40)),
        {
            let mut problems = item.problems.join("; ");
            if let Some(file) = file {
                if !problems.is_empty() {
                    problems.push_str("; ");
                }
                problems.push_str(&format!("extracted to {file}"));
            }
            if problems.is_empty() {
                "-".to_string()
            } else {
                problems
            }
        },
    ];
    if with_lines {
        row.insert(0, item.line.to_string());
    }
    row
}

fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        let cut: String = text.chars().take(max - 1).collect();
        format!("{cut}…")
    }
}
