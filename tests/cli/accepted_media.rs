//! Media that clients send and providers accept, whatever the sniffer or the
//! spelling of the type: ZIP-based documents (DOCX, XLSX, ODT, EPUB) declared
//! by their own types, and MCP results whose servers spell a resource's type
//! `text/plain; charset=utf-8` or just `text`, or write blocks and fields the
//! model has no place for.
//!
//! The archives are built here, entry by entry (a stored ZIP is a few
//! headers); the MCP results are hand-written in the shapes real servers
//! write. The real recordings in `../shared/realworld2/` are read at run time
//! when they are beside this checkout.

use std::fs;
use std::path::PathBuf;

use serde_json::{json, Value};

use super::support::media::{b64_of, crc32};
use super::support::validating::validate;
use super::{path_arg, run, run_with_stdin, temp_file, Run};

const DOCX: &str = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const XLSX: &str = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const ODT: &str = "application/vnd.oasis.opendocument.text";
const EPUB: &str = "application/epub+zip";

// ---------------------------------------------------------------------------
// Building archives

/// How an entry's data is stored: as it is, or as (pretend) deflated bytes
/// (the sniffer skips data by its recorded size and never inflates it).
#[derive(Clone, Copy)]
enum Method {
    Stored,
    Deflated,
}

/// A ZIP archive of `entries`: local headers, then a central directory with
/// one record per entry and its end record.
fn zip(entries: &[(&str, Method, &[u8])]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for (name, method, data) in entries {
        let offset = out.len() as u32;
        let method: u16 = match method {
            Method::Stored => 0,
            Method::Deflated => 8,
        };
        let crc = crc32(data);
        let size = data.len() as u32;
        let mut fields = Vec::new();
        fields.extend_from_slice(&20u16.to_le_bytes()); // version needed
        fields.extend_from_slice(&0u16.to_le_bytes()); // flags
        fields.extend_from_slice(&method.to_le_bytes());
        fields.extend_from_slice(&[0, 0, 0x21, 0x00]); // time, date
        fields.extend_from_slice(&crc.to_le_bytes());
        fields.extend_from_slice(&size.to_le_bytes());
        fields.extend_from_slice(&size.to_le_bytes());
        fields.extend_from_slice(&(name.len() as u16).to_le_bytes());
        fields.extend_from_slice(&0u16.to_le_bytes()); // extra length
        out.extend_from_slice(b"PK\x03\x04");
        out.extend_from_slice(&fields);
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(data);
        central.extend_from_slice(b"PK\x01\x02");
        central.extend_from_slice(&20u16.to_le_bytes()); // version made by
        central.extend_from_slice(&fields);
        central.extend_from_slice(&[0; 8]); // comment, disk, attributes
        central.extend_from_slice(&[0; 4]); // external attributes
        central.extend_from_slice(&offset.to_le_bytes());
        central.extend_from_slice(name.as_bytes());
    }
    let directory_at = out.len() as u32;
    let count = entries.len() as u16;
    out.extend_from_slice(&central);
    out.extend_from_slice(b"PK\x05\x06");
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(&count.to_le_bytes());
    out.extend_from_slice(&count.to_le_bytes());
    out.extend_from_slice(&(central.len() as u32).to_le_bytes());
    out.extend_from_slice(&directory_at.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out
}

const CONTENT_TYPES: &[u8] = br#"<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>"#;

/// A three-entry DOCX, in the order python-docx writes one (`infer` alone
/// calls it `application/zip`).
fn docx() -> Vec<u8> {
    zip(&[
        ("[Content_Types].xml", Method::Deflated, CONTENT_TYPES),
        ("_rels/.rels", Method::Deflated, b"<Relationships/>"),
        (
            "word/document.xml",
            Method::Deflated,
            b"<w:document><w:body>Offsite in Lisbon</w:body></w:document>",
        ),
    ])
}

fn xlsx() -> Vec<u8> {
    zip(&[
        ("[Content_Types].xml", Method::Stored, CONTENT_TYPES),
        ("_rels/.rels", Method::Stored, b"<Relationships/>"),
        ("docProps/app.xml", Method::Stored, b"<Properties/>"),
        ("xl/workbook.xml", Method::Stored, b"<workbook/>"),
        ("xl/worksheets/sheet1.xml", Method::Stored, b"<worksheet/>"),
    ])
}

fn odt() -> Vec<u8> {
    zip(&[
        ("mimetype", Method::Stored, ODT.as_bytes()),
        (
            "content.xml",
            Method::Deflated,
            b"<office:document-content/>",
        ),
        ("META-INF/manifest.xml", Method::Deflated, b"<manifest/>"),
    ])
}

fn epub() -> Vec<u8> {
    zip(&[
        ("mimetype", Method::Stored, EPUB.as_bytes()),
        ("META-INF/container.xml", Method::Deflated, b"<container/>"),
        ("OEBPS/chapter1.xhtml", Method::Deflated, b"<html/>"),
    ])
}

/// A DOCX whose first entry (its thumbnail) is larger than the prefix a
/// header check reads, with `[Content_Types].xml` after it: its bytes say
/// only that it is a ZIP.
fn docx_beyond_the_prefix() -> Vec<u8> {
    let thumbnail = vec![0x5a; 80 * 1024];
    zip(&[
        ("docProps/thumbnail.jpeg", Method::Stored, &thumbnail),
        ("word/document.xml", Method::Deflated, b"<w:document/>"),
        ("[Content_Types].xml", Method::Deflated, CONTENT_TYPES),
    ])
}

/// A ZIP of nothing in particular.
fn plain_zip() -> Vec<u8> {
    zip(&[("notes.txt", Method::Stored, b"hello")])
}

// ---------------------------------------------------------------------------
// Documents

fn file_part(mime: &str, bytes: &[u8], name: &str) -> Value {
    json!({"type": "file", "mimeType": mime, "data": b64_of(bytes), "name": name})
}

/// An OpenAI Responses request with one `input_file` per (type, bytes, name),
/// as chatlas sends a document.
fn responses_request(files: &[(&str, Vec<u8>, &str)]) -> Value {
    let content: Vec<Value> = files
        .iter()
        .map(|(mime, bytes, name)| {
            json!({"type": "input_file", "filename": name,
                   "file_data": format!("data:{mime};base64,{}", b64_of(bytes))})
        })
        .collect();
    json!({"model": "gpt-5.4", "input": [
        {"role": "user", "content": [{"type": "input_text", "text": "Where is the offsite?"}]},
        {"role": "user", "content": content}
    ]})
}

/// The finding lines of a validate run (`rule pointer`), in order.
fn findings(run: &Run) -> Vec<String> {
    run.stdout
        .lines()
        .map(|line| {
            let after = line.split_once(": ").map_or(line, |(_, rest)| rest);
            let (rule, rest) = after.split_once("] ").unwrap_or((after, ""));
            let pointer = rest.split_once(": ").map_or(rest, |(p, _)| p);
            format!("{} {pointer}", rule.replace('[', " "))
        })
        .collect()
}

/// `inspect --format json` items of a document.
fn inspect(doc: &Value) -> Vec<Value> {
    let run = run_with_stdin(&["inspect", "--format", "json"], doc.to_string().as_bytes());
    assert_eq!(run.code, 0, "{}", run.stderr);
    run.json_lines()
}

// ---------------------------------------------------------------------------
// ZIP-based documents

#[test]
fn zip_based_documents_are_sniffed_as_what_they_are() {
    let parts = json!([
        file_part(DOCX, &docx(), "memo.docx"),
        file_part(XLSX, &xlsx(), "budget.xlsx"),
        file_part(ODT, &odt(), "notes.odt"),
        file_part(EPUB, &epub(), "book.epub"),
    ]);
    let items = inspect(&parts);
    let seen: Vec<(&str, &str)> = items
        .iter()
        .map(|item| {
            assert_eq!(item["problems"], json!([]), "{item}");
            (
                item["declared"].as_str().unwrap(),
                item["sniffed"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(seen, [(DOCX, DOCX), (XLSX, XLSX), (ODT, ODT), (EPUB, EPUB)]);
    // Unplaced ZIP bytes are the container.
    let items = inspect(&json!([file_part(
        DOCX,
        &docx_beyond_the_prefix(),
        "big.docx"
    )]));
    assert_eq!(items[0]["sniffed"], "application/zip");
    assert_eq!(items[0]["problems"], json!([]));
}

#[test]
fn declared_zip_based_types_validate_clean() {
    let request = responses_request(&[
        (DOCX, docx(), "offsite_memo.docx"),
        (XLSX, xlsx(), "budget.xlsx"),
        (ODT, odt(), "notes.odt"),
        (EPUB, epub(), "book.epub"),
        (DOCX, docx_beyond_the_prefix(), "big.docx"),
        ("application/zip", docx(), "memo.zip"),
        (
            "application/vnd.openxmlformats-officedocument.wordprocessingml.template",
            docx(),
            "memo.dotx",
        ),
    ]);
    let run = validate(&[], &request.to_string());
    assert_eq!((run.code, run.stdout.as_str()), (0, ""), "{}", run.stderr);
    // A Bedrock document written from it checks clean too.
    let docx_only = responses_request(&[(DOCX, docx(), "offsite_memo.docx")]);
    let bedrock = run_with_stdin(
        &["convert", "--to", "bedrock"],
        docx_only.to_string().as_bytes(),
    );
    assert_eq!(bedrock.code, 0, "{}", bedrock.stderr);
    assert!(
        bedrock.stdout.contains(r#""format":"docx""#),
        "{}",
        bedrock.stdout
    );
    let run = validate(&["--from", "bedrock"], &bedrock.stdout);
    assert_eq!((run.code, run.stdout.as_str()), (0, ""), "{}", run.stderr);
}

#[test]
fn types_zip_bytes_cannot_be_are_still_mismatches() {
    let parts = json!([
        file_part("image/png", &docx(), "memo.png"),
        file_part("application/pdf", &plain_zip(), "notes.pdf"),
        file_part(XLSX, &docx(), "memo.xlsx"),
        file_part(DOCX, &odt(), "notes.docx"),
    ]);
    let run = validate(&[], &parts.to_string());
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        findings(&run),
        [
            "error media-type-mismatch /0/mimeType",
            "error media-type-mismatch /1/mimeType",
            "error media-type-mismatch /2/mimeType",
            "error media-type-mismatch /3/mimeType",
        ]
    );
    assert!(
        run.stdout
            .contains(&format!("content is {DOCX}, not {XLSX}")),
        "{}",
        run.stdout
    );
    assert!(run
        .stdout
        .contains("content is application/zip, not application/pdf"));
}

#[test]
fn fix_never_writes_the_container_over_a_document_type() {
    let parts = json!([
        file_part(DOCX, &docx(), "memo.docx"),
        file_part(XLSX, &xlsx(), "budget.xlsx"),
        file_part(ODT, &odt(), "notes.odt"),
        file_part(EPUB, &epub(), "book.epub"),
        file_part(DOCX, &docx_beyond_the_prefix(), "big.docx"),
        file_part("application/pdf", &plain_zip(), "notes.pdf"),
        file_part(ODT, &docx(), "memo.odt"),
    ]);
    let text = serde_json::to_string_pretty(&parts).unwrap();
    let (_dir, path) = temp_file("parts.json", text.as_bytes());
    let fixed_run = run(&["validate", "--fix", path_arg(&path)]);
    assert_eq!(fixed_run.code, 1, "{}", fixed_run.stderr);
    let fixed: Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
    let types: Vec<&str> = fixed
        .as_array()
        .unwrap()
        .iter()
        .map(|part| part["mimeType"].as_str().unwrap())
        .collect();
    // Only the DOCX called an ODT is retyped: the sniffer names its format.
    // The ZIP called a PDF stays a finding: its format is not known.
    assert_eq!(
        types,
        [DOCX, XLSX, ODT, EPUB, DOCX, "application/pdf", DOCX]
    );
    assert!(!fs::read_to_string(&path)
        .unwrap()
        .contains("application/zip"));
    assert_eq!(
        findings(&fixed_run)
            .iter()
            .filter(|f| f.starts_with("error"))
            .collect::<Vec<_>>(),
        ["error media-type-mismatch /5/mimeType"]
    );
}

#[test]
fn documents_are_extracted_and_encoded_by_their_type() {
    let big = docx_beyond_the_prefix();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let parts = json!([
        file_part(DOCX, &big, "big.docx"),
        file_part(EPUB, &epub(), "book.epub")
    ]);
    let extracted = run_with_stdin(
        &["inspect", "--extract", path_arg(&out)],
        parts.to_string().as_bytes(),
    );
    assert_eq!(extracted.code, 0, "{}", extracted.stderr);
    let mut names: Vec<String> = fs::read_dir(&out)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["001-big-docx.docx", "002-book-epub.epub"]);
    assert_eq!(fs::read(out.join("001-big-docx.docx")).unwrap(), big);
    // encode: the entries name it, or else its extension does.
    for (name, bytes, expected) in [
        ("memo.docx", docx(), DOCX),
        ("big.docx", big.clone(), DOCX),
        ("notes.odt", odt(), ODT),
        ("archive.bin", plain_zip(), "application/zip"),
    ] {
        let file = dir.path().join(name);
        fs::write(&file, &bytes).unwrap();
        let encoded = run(&["encode", path_arg(&file)]);
        assert_eq!(encoded.code, 0, "{name}: {}", encoded.stderr);
        assert_eq!(encoded.json()[0]["mimeType"], expected, "{name}");
        assert_eq!(encoded.stderr, "", "{name}");
    }
}

// ---------------------------------------------------------------------------
// MCP results as servers write them

/// A `CallToolResult` with an embedded text resource typed `mime`.
fn text_resource(mime: &str) -> Value {
    json!({"content": [
        {"type": "text", "text": "downloaded"},
        {"type": "resource", "resource": {"uri": "repo://o/r/contents/README.md", "mimeType": mime, "text": "# r\n"}}
    ]})
}

/// Converts `doc` from MCP to canonical (with a call id) and back; the
/// compact output of the way back.
fn mcp_round_trip(doc: &str) -> String {
    let there = run_with_stdin(
        &[
            "convert",
            "--from",
            "mcp",
            "--to",
            "canonical",
            "--compact",
            "--call-id",
            "call_1",
        ],
        doc.as_bytes(),
    );
    assert_eq!(there.code, 0, "{}", there.stderr);
    let back = run_with_stdin(
        &["convert", "--from", "canonical", "--to", "mcp", "--compact"],
        there.stdout.as_bytes(),
    );
    assert_eq!(back.code, 0, "{}", back.stderr);
    back.stdout.trim_end().to_string()
}

#[test]
fn mcp_resource_types_are_read_liberally() {
    for mime in [
        "text/plain; charset=utf-8",
        "text",
        "Text/Plain;charset=UTF-8",
    ] {
        let doc = text_resource(mime);
        // Back exactly as written, key for key.
        assert_eq!(mcp_round_trip(&doc.to_string()), doc.to_string(), "{mime}");
        // Another shape gets the normalized type.
        let anthropic = run_with_stdin(
            &[
                "convert",
                "--from",
                "mcp",
                "--to",
                "anthropic",
                "--call-id",
                "call_1",
            ],
            doc.to_string().as_bytes(),
        );
        assert_eq!(anthropic.code, 0, "{}", anthropic.stderr);
        assert_eq!(
            anthropic.json()["content"][1]["source"],
            json!({"type": "text", "media_type": "text/plain", "data": "# r\n"}),
            "{mime}"
        );
    }
}

#[test]
fn mcp_resource_types_validate_by_what_they_are() {
    // A charset on text is a legal, meaningful type: no finding.
    let run = validate(&[], &text_resource("text/plain; charset=utf-8").to_string());
    assert_eq!((run.code, run.stdout.as_str()), (0, ""), "{}", run.stderr);
    // The bare family name is no media type, but reads: a warning.
    let run = validate(&[], &text_resource("text").to_string());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "<stdin>:1: warning[media-type-alias] /content/1/resource/mimeType: \"text\" is a top-level type alone, not a media type; read as \"text/plain\"\n"
    );
    // No media type at all: an error, and the result still reads.
    let run = validate(&[], &text_resource("plain").to_string());
    assert_eq!(run.code, 1);
    assert_eq!(
        findings(&run),
        ["error shape-field /content/1/resource/mimeType"]
    );
    let converted = run_with_stdin(
        &[
            "convert",
            "--from",
            "mcp",
            "--to",
            "openai-responses",
            "--call-id",
            "call_1",
        ],
        text_resource("plain").to_string().as_bytes(),
    );
    assert_eq!(converted.code, 0, "{}", converted.stderr);
    assert!(
        converted
            .stderr
            .contains("mimeType \"plain\" is not a media type; read as text/plain"),
        "{}",
        converted.stderr
    );
}

#[test]
fn fix_spells_a_blobs_bare_type_in_full() {
    let doc = json!({"content": [
        {"type": "resource", "resource": {"uri": "file:///a.txt", "mimeType": "text", "blob": b64_of(b"plain words")}},
        {"type": "resource", "resource": {"uri": "file:///b.txt", "mimeType": "text/plain; charset=utf-8", "blob": b64_of(b"more")}}
    ]});
    let (_dir, path) = temp_file("result.json", doc.to_string().as_bytes());
    let fixed_run = run(&["validate", "--fix", path_arg(&path)]);
    assert_eq!(fixed_run.code, 0, "{}", fixed_run.stderr);
    let fixed: Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
    assert_eq!(fixed["content"][0]["resource"]["mimeType"], "text/plain");
    assert_eq!(
        fixed["content"][1]["resource"]["mimeType"],
        "text/plain; charset=utf-8"
    );
}

#[test]
fn mcp_blocks_the_model_lacks_pass_through() {
    let doc = json!({
        "content": [
            {"type": "text", "text": "see the link", "annotations": {"audience": ["user"], "priority": 0.2}, "_meta": {"trace": "a1"}},
            {"type": "resource_link", "uri": "https://x.test/report.pdf", "name": "report.pdf", "title": "Report",
             "description": "the quarterly report", "mimeType": "application/pdf", "size": 1234,
             "annotations": {"lastModified": "2025-06-18T00:00:00Z"}, "_meta": {"k": 1}},
            {"type": "resource_link", "uri": "https://x.test/data"},
            {"type": "elicitation_hint", "fields": ["name"]}
        ],
        "structuredContent": {"rows": 3},
        "_meta": {"progressToken": 9},
        "isError": false
    });
    assert_eq!(mcp_round_trip(&doc.to_string()), doc.to_string());
    let run = validate(&[], &doc.to_string());
    assert_eq!((run.code, run.stdout.as_str()), (0, ""), "{}", run.stderr);
    // Another shape drops the unknown block by name, and keeps the rest.
    let chat = run_with_stdin(
        &[
            "convert",
            "--from",
            "mcp",
            "--to",
            "openai-chat",
            "--call-id",
            "call_1",
        ],
        doc.to_string().as_bytes(),
    );
    assert_eq!(chat.code, 0, "{}", chat.stderr);
    assert!(
        chat.stderr.contains("mcp elicitation_hint blocks"),
        "{}",
        chat.stderr
    );
    assert!(chat.stdout.contains("report.pdf"), "{}", chat.stdout);
}

#[test]
fn malformed_mcp_blocks_are_findings_not_refusals() {
    let doc = json!({"content": [
        {"type": "text"},
        {"type": "image", "data": "R0lGODlhAQABAAAAACw="},
        {"type": "resource", "resource": {"uri": "file:///a"}},
        {"type": "resource_link", "name": "no uri"}
    ], "isError": "false"});
    assert_eq!(mcp_round_trip(&doc.to_string()), doc.to_string());
    let run = validate(&[], &doc.to_string());
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        findings(&run),
        [
            "error shape-field /isError",
            "error shape-field /content/0/text",
            "error shape-field /content/1/mimeType",
            "error shape-field /content/2/resource",
            "error shape-field /content/3/uri",
        ]
    );
}

// ---------------------------------------------------------------------------
// The real recordings

fn realworld2() -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/realworld2");
    root.is_dir().then_some(root)
}

#[test]
fn recorded_mcp_results_read_check_and_come_back() {
    let Some(root) = realworld2() else {
        return; // ../shared/realworld2 is not beside this checkout
    };
    let mut seen = 0;
    for entry in fs::read_dir(root.join("mcp")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("json") {
            continue;
        }
        seen += 1;
        let text = fs::read_to_string(&path).unwrap();
        let checked = run(&["validate", path_arg(&path)]);
        assert_eq!(
            checked.code,
            0,
            "{}: {}{}",
            path.display(),
            checked.stdout,
            checked.stderr
        );
        let original: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            mcp_round_trip(&text),
            original.to_string(),
            "{}",
            path.display()
        );
        for shape in [
            "canonical",
            "openai-chat",
            "openai-responses",
            "anthropic",
            "bedrock",
        ] {
            let converted = run(&[
                "convert",
                "--from",
                "mcp",
                "--to",
                shape,
                "--call-id",
                "call_1",
                path_arg(&path),
            ]);
            assert_eq!(
                converted.code,
                0,
                "{} to {shape}: {}",
                path.display(),
                converted.stderr
            );
        }
    }
    assert!(seen > 0);
}

#[test]
fn the_recorded_docx_validates_clean() {
    let Some(root) = realworld2() else {
        return; // ../shared/realworld2 is not beside this checkout
    };
    let path = root.join("openai-responses/chatlas-02.json");
    let checked = run(&["validate", path_arg(&path)]);
    assert_eq!(
        (checked.code, checked.stdout.as_str()),
        (0, ""),
        "{}",
        checked.stderr
    );
    let bedrock = run(&["convert", "--to", "bedrock", path_arg(&path)]);
    assert_eq!(bedrock.code, 0, "{}", bedrock.stderr);
    let check = validate(&["--from", "bedrock"], &bedrock.stdout);
    assert_eq!(
        (check.code, check.stdout.as_str()),
        (0, ""),
        "{}",
        check.stderr
    );
}
