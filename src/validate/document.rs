//! The checks on one JSON document: what kind it is, then every rule that
//! applies to it. Findings come back with, where `--fix` may apply them, the
//! byte range to replace.

use super::media::{ImageStat, Media};
use super::options::{CheckOptions, DocKind, KindChoice};
use super::report::{DocReport, Issue, Patch};
use crate::shapes::Registered;
use std::cell::OnceCell;

use crate::document::LentFile;
use crate::json::lent::{self, Lending};
use crate::json::{self, pointer_token, Json, Parsed};
use crate::media::MediaKind;
use crate::part::PartView;
use crate::shapes::image_reply;
use crate::shapes::Shape;
use crate::shared::SharedBytes;
use crate::size::group_digits;

thread_local! {
    /// The decode buffer, kept per thread so that a run over many documents
    /// allocates it once.
    static SCRATCH: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Checks one document.
pub fn check_document(bytes: &[u8], options: &CheckOptions) -> DocReport {
    check_shared(&SharedBytes::new(bytes.to_vec()), options)
}

/// Checks one document held in a shared buffer (a transcript's payloads are
/// then lent to the transcript rules, not copied: `json::lent`).
pub fn check_shared(shared: &SharedBytes, options: &CheckOptions) -> DocReport {
    let bytes: &[u8] = shared;
    let parsed = match json::parse_counted(bytes) {
        Ok(parsed) => parsed,
        Err(error) => {
            return DocReport {
                kind: None,
                skipped: false,
                images: 0,
                issues: vec![Issue {
                    rule: "invalid-json",
                    pointer: String::new(),
                    message: error.to_string(),
                    patch: None,
                    severity: None,
                }],
                note: None,
            }
        }
    };
    // A rollout is recognized before anything else (its request would
    // otherwise pass for a transcript of some shape, or for none): it is then
    // checked as its conversation, and its duplicate keys as a whole line.
    let rollout = match options.kind {
        KindChoice::Rollout => true,
        KindChoice::Auto => crate::shapes::rollout().holds(&parsed.json),
        _ => false,
    };
    if rollout {
        return super::scope::check_rollout(shared, options, parsed.duplicates > 0);
    }
    check_parsed(&parsed, shared, &Lending::NONE, options)
}

/// A `duplicate-key` finding for each key `bytes` writes twice in an object.
/// Read only when parsing counted one (a second pass over a rare document).
pub(super) fn duplicate_keys(bytes: &[u8]) -> impl Iterator<Item = Issue> {
    json::duplicate_keys(bytes).into_iter().map(|found| {
        super::kit::issue(
            "duplicate-key",
            found.pointer,
            format!(
                "key {} is written {} times in this object; every reader takes the last value and ignores the others",
                crate::echo::quoted(&found.key),
                found.count
            ),
        )
    })
}

/// Whether a check takes its input as one whole document, which may then
/// stay in its file ([`crate::document::Open::whole`]): not with `--fix`
/// (written back), `--at` (values inside it) or as a rollout line.
pub fn takes_whole(options: &CheckOptions) -> bool {
    !(options.fix || options.at.is_active() || matches!(options.kind, KindChoice::Rollout))
}

/// Checks a large file's one document without holding it: parsed from the
/// text its scan wrote, its payloads lent from the file while the rules
/// run. `None` where the usual way must check it (not JSON, a rollout, a
/// file that changed meanwhile).
pub fn check_lent(file: LentFile, options: &CheckOptions) -> Option<DocReport> {
    file.with_document(|parsed, shadow, lending| {
        if matches!(options.kind, KindChoice::Auto) && crate::shapes::rollout().holds(&parsed.json)
        {
            return None;
        }
        Some(check_parsed(parsed, shadow, lending, options))
    })
}

/// Checks a parsed document (`shared`: the text it was parsed from; `lent`:
/// what that text's placeholders stand for, when it has any: a large file's
/// payloads).
fn check_parsed(
    parsed: &Parsed<'_>,
    shared: &SharedBytes,
    lent: &Lending,
    options: &CheckOptions,
) -> DocReport {
    let bytes: &[u8] = shared;
    let doc = &parsed.json;
    let duplicates = parsed.duplicates > 0;
    // The document's tree with its payloads lent, made once if a transcript
    // needs it (to recognize, and to check), and what it lends (the text's
    // own lending when the tree lends nothing of its own).
    let tree = OnceCell::new();
    let lent_tree = || {
        tree.get_or_init(|| {
            let (tree, payloads) = lent::tree_of(doc, shared);
            (tree, Lending::of_bytes(shared, &payloads).or(lent))
        })
    };
    let mut note = None;
    let kind = match options.kind {
        // Checked as a rollout by the callers (`check_shared`, `validate_large_file`).
        KindChoice::Rollout => unreachable!("checked as a rollout by the callers"),
        KindChoice::Reply => Some(DocKind::Reply),
        KindChoice::Parts => Some(DocKind::Parts),
        KindChoice::Transcript(Some(shape)) => Some(DocKind::Transcript(shape)),
        KindChoice::Transcript(None) => recognize_transcript(lent_tree(), &mut note)
            .or(Some(DocKind::Transcript(crate::shapes::HUB))),
        KindChoice::Auto => recognize(doc).or_else(|| recognize_transcript(lent_tree(), &mut note)),
    };
    let mut checker = Checker {
        options,
        bytes,
        lending: lent,
        url_safe_base64: false,
        scratch: SCRATCH.with(|cell| cell.take()),
        issues: Vec::new(),
        images: Vec::new(),
        url_images: 0,
        inline_bytes: 0,
    };
    match kind {
        Some(DocKind::Reply) => checker.reply(doc),
        Some(DocKind::Parts) => checker.parts(doc),
        Some(DocKind::Transcript(shape)) => checker.transcript(doc, lent_tree(), shape),
        Some(DocKind::Rollout) | None => {
            // None of the kinds, so not checked; but a key written twice is
            // broken data whatever the document is.
            let issues = match duplicates {
                true => duplicate_keys(bytes).collect(),
                false => Vec::new(),
            };
            return DocReport {
                skipped: true,
                issues,
                ..DocReport::default()
            };
        }
    }
    checker.document_limits();
    if duplicates {
        checker.issues.extend(duplicate_keys(bytes));
    }
    let scratch = std::mem::take(&mut checker.scratch);
    SCRATCH.with(|cell| cell.replace(scratch));
    DocReport {
        kind,
        skipped: false,
        images: checker.images.len(),
        issues: checker.issues,
        note,
    }
}

/// Recognizes a document: an object with `tool_output_images` is a tool reply;
/// a part, or a non-empty list of typed objects (no `role`) that are all
/// canonical parts or of which one carries the canonical `mimeType` key, is
/// canonical parts (so one part with a wrong type is a finding, not a skip).
/// A canonical part is a `text` part, or an `image`, `file` or `audio` part with
/// at least one of `mimeType`, `data` and `url`: provider blocks that reuse those
/// type names with their own keys (an Anthropic `{"type":"image","source":…}`,
/// an OpenAI Chat `{"type":"file","file":…}`) are not canonical parts.
pub fn recognize(doc: &Json<'_>) -> Option<DocKind> {
    let typed =
        |item: &Json<'_>| item.get("type").and_then(Json::as_str).is_some() && !item.has("role");
    let canonical = |item: &Json<'_>| match item.get("type").and_then(Json::as_str) {
        Some("text") => true,
        Some("image" | "file" | "audio") => {
            item.has("mimeType") || item.has("data") || item.has("url")
        }
        _ => false,
    };
    match doc {
        Json::Object(_) if doc.has(image_reply().key()) => Some(DocKind::Reply),
        Json::Object(_) if typed(doc) && canonical(doc) => Some(DocKind::Parts),
        Json::Array(items)
            if !items.is_empty()
                && items.iter().all(typed)
                && (items.iter().all(canonical)
                    || items.iter().any(|i| canonical(i) && i.has("mimeType"))) =>
        {
            Some(DocKind::Parts)
        }
        _ => None,
    }
}

/// Recognizes a transcript (request, message list, response, tool result) of
/// any shape by what it holds; `note` says how, when it took a guess.
fn recognize_transcript(
    (tree, _): &(Json<'_>, Lending),
    note: &mut Option<String>,
) -> Option<DocKind> {
    let detected = crate::convert::detect::detect(tree)?;
    let shape = detected.shape;
    if !shape.dialect().validate_facts().transcript {
        return None;
    }
    *note = detected.note.filter(|_| !detected.alike);
    Some(DocKind::Transcript(shape))
}

pub(super) struct Checker<'o> {
    pub(super) options: &'o CheckOptions,
    /// The document's text, which borrowed strings point into.
    pub(super) bytes: &'o [u8],
    /// What the document's placeholders stand for, if it has any (a large
    /// file's payloads, read from the file).
    pub(super) lending: &'o Lending,
    pub(super) scratch: Vec<u8>,
    pub(super) issues: Vec<Issue>,
    pub(super) images: Vec<ImageStat>,
    /// Image parts that point at a URL: not checked, but images the document holds.
    pub(super) url_images: usize,
    pub(super) inline_bytes: u64,
    /// URL-safe and unpadded base64 are legal here (a Gemini document).
    pub(super) url_safe_base64: bool,
}

impl Checker<'_> {
    pub(super) fn issue(
        &mut self,
        rule: &'static str,
        pointer: String,
        message: String,
        patch: Option<Patch>,
    ) {
        self.issues.push(Issue {
            rule,
            pointer,
            message,
            patch,
            severity: None,
        });
    }

    /// The byte range of a string borrowed from the document (`None` for a string
    /// that had JSON escapes and so was copied).
    fn span(&self, text: &str) -> Option<(usize, usize)> {
        let base = self.bytes.as_ptr() as usize;
        let at = text.as_ptr() as usize;
        (at >= base && at + text.len() <= base + self.bytes.len())
            .then(|| (at - base, at - base + text.len()))
    }

    /// The repair that replaces `sub`, a slice of the string `container` found at
    /// `pointer`, by `replacement`. It replaces exactly the text that spells `sub`
    /// in the document, even when the string had escapes (and so was copied):
    /// two repairs in one string (a data URL's type and its payload) never
    /// overlap, and the escapes outside `sub` stay as written.
    pub(super) fn patch(
        &self,
        container: &str,
        pointer: &str,
        sub: &str,
        replacement: &str,
    ) -> Option<Patch> {
        if !self.options.fix {
            return None;
        }
        if let Some((start, end)) = self.span(sub) {
            return Some(Patch {
                start,
                end,
                replacement: replacement.to_string(),
            });
        }
        let offset = (sub.as_ptr() as usize).checked_sub(container.as_ptr() as usize)?;
        let (token, _) = json::raw_span(self.bytes, pointer)?;
        let (start, end) = raw_range(&self.bytes[token..], offset, offset + sub.len())?;
        let quoted = serde_json::to_string(replacement).ok()?;
        Some(Patch {
            start: token + start,
            end: token + end,
            replacement: quoted[1..quoted.len() - 1].to_string(),
        })
    }

    fn reply(&mut self, reply: &Json<'_>) {
        let Some(members) = reply.as_object() else {
            return self.text_scan(reply, String::new());
        };
        for (key, value) in members {
            let pointer = format!("/{}", pointer_token(key));
            if key != image_reply().key() {
                self.text_scan(value, pointer);
                continue;
            }
            match value {
                Json::Null => {}
                Json::Array(items) => {
                    for (index, item) in items.iter().enumerate() {
                        match image_reply().entry(index, item) {
                            Err(problem) => {
                                self.issue(problem.rule, problem.pointer, problem.message, None)
                            }
                            Ok(entry) => self.media(Media {
                                pointer: format!("{pointer}/{index}/image_url"),
                                payload_in: item
                                    .get("image_url")
                                    .and_then(Json::as_str)
                                    .unwrap_or_default(),
                                type_pointer: format!("{pointer}/{index}/image_url"),
                                type_in: item
                                    .get("image_url")
                                    .and_then(Json::as_str)
                                    .unwrap_or_default(),
                                kind: MediaKind::Image,
                                declared: entry.declared,
                                normalized: entry.media_type,
                                payload: entry.payload,
                                fix_types: Some(image_reply().image_types()),
                                exact_type: true,
                                token: false,
                            }),
                        }
                    }
                }
                other => self.issue(
                    "reply-images-not-list",
                    pointer,
                    format!(
                        "tool_output_images must be a list or null, not {}",
                        other.kind()
                    ),
                    None,
                ),
            }
        }
    }

    /// A transcript: every embedded media item by the media rules, then the
    /// shape's rules and the tool exchanges on the document read as a
    /// transcript (`lent_value`: the document as a value, payloads lent).
    fn transcript(&mut self, doc: &Json<'_>, lent_tree: &(Json<'_>, Lending), shape: Shape) {
        self.url_safe_base64 = shape.dialect().validate_facts().url_safe_base64;
        for found in crate::scan::find_media(doc) {
            let crate::scan::Payload::Base64(payload) = found.payload else {
                continue;
            };
            let Some(normalized) = found.declared.clone() else {
                continue;
            };
            // A data URL pasted into running text, or standing alone where the
            // shape has text (a flattened tool result): the model reads
            // characters, not media.
            let at_text = ["/content", "/text", "/output"]
                .iter()
                .any(|end| found.pointer.ends_with(end));
            if found.kind == "data URL in text" || (found.kind == "data URL" && at_text) {
                self.issue(
                    "base64-in-text",
                    found.pointer.clone(),
                    format!(
                        "text holds a base64 data: URL ({normalized}, {} characters): the model reads it as text, not as media",
                        group_digits(self.lending.resolved_len(payload) as u64)
                    ),
                    None,
                );
                continue;
            }
            let declared = found.declared_raw.unwrap_or("");
            self.media(Media {
                pointer: found.pointer.clone(),
                payload_in: payload,
                type_pointer: found.pointer.clone(),
                type_in: declared,
                kind: MediaKind::of(&normalized),
                declared,
                normalized,
                payload,
                fix_types: None,
                exact_type: false,
                token: !declared.contains('/'),
            });
        }
        // A provider that reads the bytes whatever their label takes a wrong
        // one (docs/acceptance.md): a warning in its documents.
        let acceptance = shape.dialect().validate_facts().acceptance;
        if let Some(severity) =
            super::acceptance::severity(acceptance, super::acceptance::Form::MediaTypeMismatch)
        {
            for issue in &mut self.issues {
                if issue.rule == "media-type-mismatch" {
                    issue.severity = Some(severity);
                }
            }
        }
        let (tree, lending) = lent_tree;
        let target = self.options.target;
        let issues = super::transcript::check(tree, shape, target, lending);
        self.issues.extend(issues);
    }

    fn parts(&mut self, doc: &Json<'_>) {
        match doc {
            Json::Array(items) => {
                for (index, item) in items.iter().enumerate() {
                    self.part(item, format!("/{index}"));
                }
            }
            other => self.part(other, String::new()),
        }
    }

    fn part(&mut self, item: &Json<'_>, pointer: String) {
        match PartView::read(item) {
            Err(error) => self.issue(
                "part-invalid",
                format!("{pointer}{}", error.pointer),
                error.message,
                None,
            ),
            Ok(PartView::Text(text)) => self.text_in_string(text, format!("{pointer}/text")),
            Ok(PartView::Media(media)) => {
                if media.data.is_none() && media.kind == MediaKind::Image {
                    self.url_images += 1;
                }
                if let Some(data) = media.data {
                    self.media(Media {
                        pointer: format!("{pointer}/data"),
                        payload_in: data,
                        type_pointer: format!("{pointer}/mimeType"),
                        type_in: media.declared,
                        kind: media.kind,
                        declared: media.declared,
                        normalized: media.mime_type,
                        payload: data,
                        fix_types: None,
                        exact_type: false,
                        token: false,
                    });
                }
            }
        }
    }

    /// Looks for data URLs pasted into the strings of a value.
    fn text_scan(&mut self, value: &Json<'_>, pointer: String) {
        match value {
            Json::String(text) => self.text_in_string(text, pointer),
            Json::Array(items) => {
                for (index, item) in items.iter().enumerate() {
                    self.text_scan(item, format!("{pointer}/{index}"));
                }
            }
            Json::Object(members) => {
                for (key, item) in members {
                    self.text_scan(item, format!("{pointer}/{}", pointer_token(key)));
                }
            }
            _ => {}
        }
    }

    fn text_in_string(&mut self, text: &str, pointer: String) {
        if let Some((_, media_type, chars)) = crate::scan::find_data_url(text) {
            self.issue(
                "base64-in-text",
                pointer,
                format!(
                    "text holds a base64 data: URL ({media_type}, {} characters): the model reads it as text, not as media",
                    group_digits(chars as u64)
                ),
                None,
            );
        }
    }
}

/// Maps the byte range `start..end` of a JSON string's value to the range of
/// the text that spells it: `raw` starts with the string's opening quote, and
/// the offsets returned count from there. `None` when a bound falls inside an
/// escape or past the string.
fn raw_range(raw: &[u8], start: usize, end: usize) -> Option<(usize, usize)> {
    if raw.first() != Some(&b'"') || start > end {
        return None;
    }
    let hex = |at: usize| -> Option<u32> {
        let digits = std::str::from_utf8(raw.get(at..at + 4)?).ok()?;
        u32::from_str_radix(digits, 16).ok()
    };
    let (mut at, mut decoded, mut raw_start) = (1, 0, None);
    loop {
        if decoded == start && raw_start.is_none() {
            raw_start = Some(at);
        }
        if decoded == end {
            return Some((raw_start?, at));
        }
        if decoded > end || (decoded > start && raw_start.is_none()) {
            return None;
        }
        let (raw_len, value_len) = match *raw.get(at)? {
            b'"' => return None,
            b'\\' => match *raw.get(at + 1)? {
                b'u' => {
                    let code = hex(at + 2)?;
                    if (0xD800..0xDC00).contains(&code) && raw.get(at + 6..at + 8)? == b"\\u" {
                        // A surrogate pair spells one 4-byte character.
                        (12, 4)
                    } else {
                        (6, char::from_u32(code).map_or(3, char::len_utf8))
                    }
                }
                _ => (2, 1),
            },
            _ => (1, 1),
        };
        at += raw_len;
        decoded += value_len;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_ranges_skip_escapes() {
        // "a\/b\u00e9c\ud83d\ude00d": a / b é c 😀 d
        let raw = br#""a\/b\u00e9c\ud83d\ude00d" tail"#;
        let value: String = serde_json::from_slice(&raw[..raw.len() - 5]).unwrap();
        assert_eq!(value, "a/bécd".replace('d', "\u{1F600}d"));
        let at = |sub: &str| {
            let start = value.find(sub).unwrap();
            raw_range(raw, start, start + sub.len())
        };
        assert_eq!(at("a"), Some((1, 2)));
        assert_eq!(at("/"), Some((2, 4)));
        assert_eq!(at("b"), Some((4, 5)));
        assert_eq!(at("é"), Some((5, 11)));
        assert_eq!(at("\u{1F600}"), Some((12, 24)));
        assert_eq!(at("d"), Some((24, 25)));
        assert_eq!(raw_range(raw, 0, value.len()), Some((1, 25)));
        assert_eq!(raw_range(raw, 0, 99), None);
        assert_eq!(raw_range(b"nope", 0, 1), None);
    }

    #[test]
    fn recognizes_kinds() {
        let kind = |text: &str| recognize(&json::parse(text.as_bytes()).unwrap());
        assert_eq!(kind(r#"{"tool_output_images":null}"#), Some(DocKind::Reply));
        assert_eq!(kind(r#"{"type":"text","text":"x"}"#), Some(DocKind::Parts));
        assert_eq!(
            kind(r#"[{"type":"image","mimeType":"image/png","data":"AAAA"}]"#),
            Some(DocKind::Parts)
        );
        assert_eq!(
            kind(r#"[{"type":"text","text":"x"},{"type":"image_url"}]"#),
            None
        );
        assert_eq!(
            kind(r#"[{"type":"image","mimeType":"image/png","data":"AAAA"},{"type":"video"}]"#),
            Some(DocKind::Parts)
        );
        assert_eq!(kind(r#"[{"role":"user","type":"text"}]"#), None);
        // Provider blocks that reuse canonical type names are not parts.
        assert_eq!(
            kind(
                r#"[{"type":"text","text":"x"},{"type":"image","source":{"type":"url","url":"u"}}]"#
            ),
            None
        );
        assert_eq!(kind(r#"{"type":"image","source":{}}"#), None);
        assert_eq!(kind(r#"[{"type":"file","file":{"file_id":"f"}}]"#), None);
        assert_eq!(
            kind(r#"[{"type":"image","data":"AAAA"}]"#),
            Some(DocKind::Parts)
        );
        assert_eq!(kind("[]"), None);
        assert_eq!(kind(r#"{"a":1}"#), None);
    }
}
