//! Real cassettes and HAR files (`../shared/cassettes/`, read at run time
//! and skipped when the folder is absent) read into interactions by the
//! library's recording reader: the counts its README gives, the statuses,
//! the bodies' kinds, and the lines they start on. The hand-written edge
//! cases are unit tests beside the reader (crates/core/src/recording/).

use std::collections::BTreeMap;
use std::path::Path;

use crate::support::{cassettes, text_of};
use partkit::internals::recording::{self, BodyKind, Format, Recording, Stored};

/// The README's interaction count for each file (`folder/file`): the
/// leading number of its `interactions` column.
fn counts(root: &Path) -> BTreeMap<String, usize> {
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let mut folder = String::new();
    let mut column = None;
    let mut found = BTreeMap::new();
    for line in readme.lines() {
        if let Some(rest) = line.strip_prefix("## ") {
            folder = rest.split_whitespace().next().unwrap_or("").to_string();
            column = None;
            continue;
        }
        // A cell may hold an escaped pipe (`\|-`).
        let cells = crate::support::table_cells(line);
        if cells.first().map(String::as_str) == Some("file") {
            column = cells.iter().position(|c| *c == "interactions");
            continue;
        }
        let (Some(column), Some(file)) = (column, cells.first()) else {
            continue;
        };
        let Some(file) = file.strip_prefix('`').and_then(|f| f.strip_suffix('`')) else {
            continue;
        };
        let number: String = cells[column]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        let file = file.rsplit('/').next().unwrap();
        found.insert(format!("{folder}/{file}"), number.parse().unwrap());
    }
    found
}

/// Every recording in `folder`, read, by file name.
fn read_folder(root: &Path, folder: &str) -> BTreeMap<String, Recording> {
    let mut found = BTreeMap::new();
    for entry in std::fs::read_dir(root.join(folder)).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let recording =
            recording::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        found.insert(name, recording);
    }
    found
}

/// The 1-based line `n` of a recording file (decompressed when gzipped).
fn line_of(path: &Path, n: usize) -> String {
    text_of(path)
        .lines()
        .nth(n - 1)
        .unwrap_or_default()
        .to_string()
}

/// Checks what holds for every recording: the README's count, a status on
/// every recorded response, JSON bodies that parse, lines inside the file
/// that name the body, and no cookie value in the `Debug` output.
fn check_common(root: &Path, folder: &str, recordings: &BTreeMap<String, Recording>) {
    let counts = counts(root);
    assert!(!recordings.is_empty());
    for (name, recording) in recordings {
        let key = format!("{folder}/{name}");
        assert_eq!(
            Some(&recording.interactions.len()),
            counts.get(&key),
            "{key}: interactions"
        );
        let shown = format!("{recording:?}");
        for secret in ["__cf_bm=", "_cfuvid=", "Bearer "] {
            assert!(!shown.contains(secret), "{key}: {secret} in {shown}");
        }
        for (n, interaction) in recording.interactions.iter().enumerate() {
            assert_eq!(interaction.index, n);
            let sides = [
                interaction
                    .request
                    .as_ref()
                    .map(|r| ("request", &r.body, &r.headers)),
                interaction
                    .response
                    .as_ref()
                    .map(|r| ("response", &r.body, &r.headers)),
            ];
            for (side, body, headers) in sides.into_iter().flatten() {
                for header in &headers.0 {
                    if recording::is_secret_header(&header.name) {
                        assert_eq!(header.value, None, "{key} #{n} {side}: {}", header.name);
                    }
                }
                if body.kind == BodyKind::Json {
                    serde_json::from_slice::<serde_json::Value>(&body.bytes).unwrap_or_else(|e| {
                        panic!("{key} #{n} {side}: JSON body does not parse: {e}")
                    });
                }
                if body.stored != Stored::Absent {
                    let line = body
                        .line
                        .unwrap_or_else(|| panic!("{key} #{n} {side}: no line"));
                    let text = line_of(&root.join(folder).join(name), line);
                    assert!(
                        !text.trim().is_empty(),
                        "{key} #{n} {side}: line {line} is blank"
                    );
                }
            }
        }
    }
}

macro_rules! root_or_skip {
    () => {
        match cassettes() {
            Some(root) => root,
            None => return,
        }
    };
}

#[test]
fn vcrpy_cassettes() {
    let root = root_or_skip!();
    let recordings = read_folder(&root, "vcrpy");
    check_common(&root, "vcrpy", &recordings);
    for (name, recording) in &recordings {
        assert_eq!(recording.format, Format::Vcrpy, "{name}");
        for interaction in &recording.interactions {
            assert_eq!(
                interaction.response.as_ref().unwrap().status,
                Some(200),
                "{name}"
            );
            for body in [
                &interaction.request.as_ref().unwrap().body,
                &interaction.response.as_ref().unwrap().body,
            ] {
                assert_eq!(body.kind, BodyKind::Json, "{name}");
            }
        }
    }
    // pydantic-ai's parsed_body mappings become JSON text, located at their first key.
    let pydantic = &recordings["pydantic-ai-05.yaml"].interactions[0];
    let request = pydantic.request.as_ref().unwrap();
    assert_eq!(request.body.stored, Stored::Structured);
    assert_eq!(request.body.line, Some(18));
    let path = root.join("vcrpy/pydantic-ai-05.yaml");
    assert_eq!(line_of(&path, 17).trim(), "parsed_body:");
    let value: serde_json::Value = serde_json::from_slice(&request.body.bytes).unwrap();
    assert!(value["messages"][0]["content"][1]["file"]["file_data"]
        .as_str()
        .unwrap()
        .starts_with("data:application/pdf;base64,JVBERi0"));
    // Bedrock's request headers stored as !!binary are read as text.
    let bedrock = recordings["pydantic-ai-04.yaml"].interactions[0]
        .request
        .as_ref()
        .unwrap();
    assert!(bedrock.headers.0.len() > 3);
    assert_eq!(
        bedrock.headers.get("content-type"),
        Some("application/json")
    );
    assert_eq!(bedrock.headers.get("amz-sdk-request"), Some("attempt=1"));
    // Responses stored as !!binary gzip are inflated.
    for name in ["openllmetry-01.yaml", "llm-01.yaml", "aviary-01.yaml"] {
        let response = recordings[name].interactions[0].response.as_ref().unwrap();
        assert!(
            response.body.gzipped && response.body.stored == Stored::Base64,
            "{name}"
        );
        assert!(
            line_of(&root.join("vcrpy").join(name), response.body.line.unwrap())
                .contains("!!binary")
        );
    }
    // aviary writes the request body on the line after `body:`.
    let aviary = recordings["aviary-01.yaml"].interactions[0]
        .request
        .as_ref()
        .unwrap();
    let line = aviary.body.line.unwrap();
    assert_eq!(
        line_of(&root.join("vcrpy/aviary-01.yaml"), line - 1).trim(),
        "body:"
    );
}

#[test]
fn vcrpy_stream_cassettes() {
    let root = root_or_skip!();
    let recordings = read_folder(&root, "vcrpy-stream");
    check_common(&root, "vcrpy-stream", &recordings);
    let kind = |name: &str| {
        let recording = &recordings[name];
        assert_eq!(recording.format, Format::Vcrpy, "{name}");
        recording.interactions[0]
            .response
            .as_ref()
            .unwrap()
            .body
            .kind
    };
    for name in [
        "pydantic-ai-01.yaml",
        "llm-anthropic-01.yaml",
        "llm-anthropic-02.yaml",
        "llm-01.yaml",
        "otel-contrib-01.yaml",
    ] {
        assert_eq!(kind(name), BodyKind::EventStream, "{name}");
    }
    for name in ["otel-contrib-02.yaml", "openinference-01.yaml"] {
        assert_eq!(kind(name), BodyKind::AwsEventStream, "{name}");
    }
    // Gemini's streamed JSON array, gzipped under !!binary.
    assert_eq!(kind("llm-gemini-01.yaml"), BodyKind::Json);
    let anthropic = recordings["llm-anthropic-01.yaml"].interactions[0]
        .response
        .as_ref()
        .unwrap();
    assert!(anthropic.body.gzipped);
    assert!(anthropic.body.bytes.starts_with(b"event: message_start"));
    // A literal block's line is its first line of text.
    let otel = recordings["otel-contrib-01.yaml"].interactions[0]
        .request
        .as_ref()
        .unwrap();
    assert_eq!(
        line_of(
            &root.join("vcrpy-stream/otel-contrib-01.yaml"),
            otel.body.line.unwrap()
        )
        .trim(),
        "{"
    );
    // Empty `headers: {}` on both sides.
    let openinference = &recordings["openinference-01.yaml"].interactions[0];
    assert!(openinference.request.as_ref().unwrap().headers.0.is_empty());
}

#[test]
fn langchain_aws_cassettes() {
    let root = root_or_skip!();
    let recordings = read_folder(&root, "langchain-aws");
    check_common(&root, "langchain-aws", &recordings);
    for (name, recording) in &recordings {
        assert_eq!(recording.format, Format::LangchainAws, "{name}");
        assert!(recording.gzipped, "{name}");
        for interaction in &recording.interactions {
            let request = interaction.request.as_ref().unwrap();
            assert_eq!(
                (request.body.stored, request.body.kind),
                (Stored::Base64, BodyKind::Json),
                "{name}"
            );
            assert_eq!(interaction.response.as_ref().unwrap().status, Some(200));
        }
    }
    let loop_ = &recordings["langchain-aws-01.yaml.gz"].interactions;
    assert_eq!(
        loop_[0].response.as_ref().unwrap().body.kind,
        BodyKind::AwsEventStream
    );
    assert_eq!(
        loop_[1].response.as_ref().unwrap().body.kind,
        BodyKind::Json
    );
    assert!(loop_[1]
        .request
        .as_ref()
        .unwrap()
        .uri
        .as_deref()
        .unwrap()
        .ends_with("/converse"));
    let pdf = recordings["langchain-aws-02.yaml.gz"].interactions[0]
        .request
        .as_ref()
        .unwrap();
    let value: serde_json::Value = serde_json::from_slice(&pdf.body.bytes).unwrap();
    assert!(value.to_string().contains("\"document\""));
}

#[test]
fn r_vcr_cassettes() {
    let root = root_or_skip!();
    let recordings = read_folder(&root, "r-vcr");
    check_common(&root, "r-vcr", &recordings);
    for (name, recording) in &recordings {
        assert_eq!(recording.format, Format::Vcr, "{name}");
        for interaction in &recording.interactions {
            let response = interaction.response.as_ref().unwrap();
            assert_eq!(response.status, Some(200), "{name}");
            // `content-encoding: gzip`/`br` is recorded, but the body is stored decoded.
            assert!(!response.body.gzipped);
            assert_eq!(response.body.kind, BodyKind::Json, "{name}");
            let line = line_of(
                &root.join("r-vcr").join(name),
                interaction.request.as_ref().unwrap().body.line.unwrap(),
            );
            assert!(line.trim_start().starts_with("string:"), "{name}: {line}");
        }
    }
}

#[test]
fn har_files() {
    let root = root_or_skip!();
    let recordings = read_folder(&root, "har");
    check_common(&root, "har", &recordings);
    for (name, recording) in &recordings {
        assert_eq!(recording.format, Format::Har, "{name}");
        for interaction in &recording.interactions {
            let request = interaction.request.as_ref().unwrap();
            assert_eq!(request.body.kind, BodyKind::Json, "{name}");
            let line = line_of(&root.join("har").join(name), request.body.line.unwrap());
            assert!(line.trim_start().starts_with("\"text\":"), "{name}: {line}");
            assert_eq!(interaction.response.as_ref().unwrap().status, Some(200));
        }
    }
    let streamed = &recordings["mirascope-01.har"].interactions[0];
    assert_eq!(
        streamed.response.as_ref().unwrap().body.kind,
        BodyKind::EventStream
    );
    let audio = recordings["mirascope-02.har"].interactions[0]
        .response
        .as_ref()
        .unwrap();
    assert!(audio.headers.has("set-cookie") && audio.headers.get("set-cookie").is_none());
    let bedrock = recordings["openinference-01.har"].interactions[0]
        .response
        .as_ref()
        .unwrap();
    assert_eq!(bedrock.body.stored, Stored::Base64);
    assert_eq!(bedrock.body.kind, BodyKind::AwsEventStream);
    assert_eq!(bedrock.body.bytes.len(), 359);
}

#[test]
fn mcp_recordings() {
    let root = root_or_skip!();
    let recordings = read_folder(&root, "mcp");
    check_common(&root, "mcp", &recordings);
    let chatlas = &recordings["chatlas-01.yaml"];
    assert_eq!(chatlas.format, Format::Vcrpy);
    let statuses: Vec<Option<u16>> = chatlas
        .interactions
        .iter()
        .map(|i| i.response.as_ref().unwrap().status)
        .collect();
    assert_eq!(statuses, [404, 200, 202, 200, 200, 200, 200, 200].map(Some));
    let accepted = chatlas.interactions[2].response.as_ref().unwrap();
    assert!(accepted.body.is_empty() && accepted.body.note.is_none());
    let not_found = chatlas.interactions[0].response.as_ref().unwrap();
    assert_eq!(not_found.body.kind, BodyKind::Other);
    assert!(not_found.body.note.is_some());
    assert_eq!(
        chatlas.interactions[7]
            .request
            .as_ref()
            .unwrap()
            .method
            .as_deref(),
        Some("DELETE")
    );
    assert_eq!(
        chatlas.interactions[1].response.as_ref().unwrap().body.kind,
        BodyKind::EventStream
    );

    let interview = &recordings["mcp-interviewer-01.json"];
    assert_eq!(interview.format, Format::McpInterview);
    let path = root.join("mcp/mcp-interviewer-01.json");
    for interaction in &interview.interactions {
        let request = interaction.request.as_ref().unwrap();
        let call: serde_json::Value = serde_json::from_slice(&request.body.bytes).unwrap();
        assert!(call["name"].is_string());
        let response = interaction.response.as_ref().unwrap();
        let result: serde_json::Value = serde_json::from_slice(&response.body.bytes).unwrap();
        assert!(result["content"].is_array());
        assert!(line_of(&path, response.body.line.unwrap()).contains("\"tool_output\""));
    }
}

#[test]
fn vercel_fixtures() {
    let root = root_or_skip!();
    let counts = counts(&root);
    // Chunk fixtures are JSON Lines, read only when asked for.
    let lines = [
        ("vercel-ai-01.chunks.txt", 17),
        ("vercel-ai-03.chunks.txt", 2),
        ("vercel-ai-04.chunks.txt", 26),
        ("vercel-ai-05.chunks.txt", 8),
        ("vercel-ai-06.chunks.txt", 16),
    ];
    for (name, events) in lines {
        let bytes = std::fs::read(root.join("vercel-fixtures").join(name)).unwrap();
        let recording = recording::chunks(&bytes);
        assert_eq!(
            Some(&recording.interactions.len()),
            counts.get(&format!("vercel-fixtures/{name}"))
        );
        let response = recording.interactions[0].response.as_ref().unwrap();
        assert!(recording.interactions[0].request.is_none());
        assert_eq!(response.body.kind, BodyKind::JsonLines);
        let chunks: Vec<&[u8]> = response
            .body
            .bytes
            .split(|b| *b == b'\n')
            .filter(|l| !l.is_empty())
            .collect();
        assert_eq!(chunks.len(), events, "{name}");
        for chunk in chunks {
            serde_json::from_slice::<serde_json::Value>(chunk).unwrap();
        }
    }
    // A bare response body is a JSON document, not a recording.
    let error = recording::read(&root.join("vercel-fixtures/vercel-ai-02.json")).unwrap_err();
    assert!(error.to_string().contains("not a recording"), "{error}");
}
