//! `partkit inspect` of recordings (docs/commands/inspect.md, "Recordings"):
//! every file of `../shared/cassettes/` (read at run time, skipped when the
//! folder is absent) listed per interaction, with what each body holds, and
//! no secret header value anywhere in the output; then hand-made cassettes
//! and streams for the edges (a stream cut short, an event of unknown type,
//! arguments in fragments, an empty body) and `--events`.

use std::path::Path;

use serde_json::Value;

use crate::support::media::{b64_of, png_of};
use crate::support::{cassettes, text_of};
use crate::{path_arg, run, temp_file};

/// What one body holds: its shape (`None`: no known shape), its tool calls
/// and its media items; `None` for a side that was not recorded.
type Body = Option<(Option<String>, usize, usize)>;

/// One interaction: the recorded status, the request, the response.
type Row = (Option<u16>, Body, Body);

/// What each recording holds, read from the files themselves, one line per
/// interaction: `status  request | response`, a body as `shape calls media`
/// (`- 0 0`: no known shape — empty, not JSON, a stream of no shape; `none`:
/// not recorded). Tool calls are the client tool calls a body carries (a
/// request's history included; in streams the `tool_use` starts,
/// `function_call` items, `functionCall` parts, `toolUse` starts and
/// `tool_calls` entries); media the image, document and audio blocks. The
/// MCP interview is [`interview`]. Chunk fixtures hold a response only;
/// Anthropic's MCP connector call (`mcp_tool_use`) and Responses' image
/// generation are hosted calls, not client tool calls. The InvokeAgent
/// call's `chunk` frame is no shape's stream.
const EXPECTED: &str = "
har/mirascope-01.har
  200  anthropic request 0 0         | anthropic response 2 0
  200  anthropic request 2 0         | anthropic response 0 0
har/mirascope-02.har
  200  openai-chat request 0 1       | openai-chat response 0 0
har/mirascope-03.har
  200  gemini request 0 0            | gemini response 1 0
  200  gemini request 1 0            | gemini response 1 0
  200  gemini request 2 0            | gemini response 0 0
har/openinference-01.har
  200  - 0 0                         | - 0 0
langchain-aws/langchain-aws-01.yaml.gz
  200  bedrock request 0 0           | bedrock response 1 0
  200  bedrock request 1 0           | bedrock response 0 0
langchain-aws/langchain-aws-02.yaml.gz
  200  bedrock request 0 1           | bedrock response 0 0
mcp/chatlas-01.yaml
  404  - 0 0                         | - 0 0
  200  mcp initialize request 0 0    | mcp result 0 0
  202  mcp notifications/initialized request 0 0 | - 0 0
  200  mcp tools/list request 0 0    | mcp result 0 0
  200  openai-responses request 0 0  | openai-responses response 1 0
  200  mcp tools/call request 1 0    | mcp tool result 0 0
  200  openai-responses request 1 0  | openai-responses response 0 0
  200  - 0 0                         | - 0 0
r-vcr/ellmer-01.yml
  200  anthropic request 0 0         | anthropic response 1 0
  200  anthropic request 1 1         | anthropic response 0 0
  200  anthropic request 1 1         | anthropic response 0 0
  200  anthropic request 1 1         | anthropic response 0 0
r-vcr/ellmer-02.yml
  200  openai-responses request 0 0  | openai-responses response 1 0
  200  openai-responses request 1 1  | openai-responses response 0 0
  200  openai-responses request 1 1  | openai-responses response 0 0
  200  openai-responses request 1 1  | openai-responses response 0 0
r-vcr/ellmer-03.yml
  200  gemini request 0 0            | gemini response 1 0
  200  gemini request 1 0            | gemini response 0 0
  200  gemini request 1 0            | gemini response 1 0
  200  gemini request 2 0            | gemini response 0 0
r-vcr/ellmer-04.yml
  200  anthropic request 0 1         | anthropic response 0 0
  200  anthropic request 0 1         | anthropic response 0 0
  200  anthropic request 0 1         | anthropic response 0 0
vcrpy/aviary-01.yaml
  200  anthropic request 1 1         | anthropic response 0 0
vcrpy/llm-01.yaml
  200  openai-chat request 0 0       | openai-chat response 1 0
  200  openai-chat request 1 0       | openai-chat response 1 0
  200  openai-chat request 2 0       | openai-chat response 0 0
vcrpy/openllmetry-01.yaml
  200  anthropic request 1 0         | anthropic response 1 0
vcrpy/pydantic-ai-01.yaml
  200  anthropic request 0 0         | anthropic response 1 0
  200  anthropic request 1 1         | anthropic response 0 0
vcrpy/pydantic-ai-02.yaml
  200  openai-responses request 0 0  | openai-responses response 1 0
  200  openai-responses request 1 1  | openai-responses response 0 0
vcrpy/pydantic-ai-03.yaml
  200  gemini request 0 0            | gemini response 1 0
  200  gemini request 1 0            | gemini response 1 0
  200  gemini request 2 0            | gemini response 1 0
  200  gemini request 3 1            | gemini response 0 0
vcrpy/pydantic-ai-04.yaml
  200  bedrock request 0 0           | bedrock response 1 0
  200  bedrock request 1 1           | bedrock response 0 0
vcrpy/pydantic-ai-05.yaml
  200  openai-chat request 0 1       | openai-chat response 0 0
vcrpy/pydantic-ai-06.yaml
  200  gemini request 0 1            | gemini response 0 0
vcrpy-stream/llm-01.yaml
  200  openai-responses request 0 0  | openai-responses response 1 0
  200  openai-responses request 1 0  | openai-responses response 0 0
vcrpy-stream/llm-anthropic-01.yaml
  200  anthropic request 0 0         | anthropic response 1 0
vcrpy-stream/llm-anthropic-02.yaml
  200  anthropic request 0 1         | anthropic response 0 0
vcrpy-stream/llm-gemini-01.yaml
  200  gemini request 0 0            | gemini response 1 0
  200  gemini request 1 0            | gemini response 1 0
  200  gemini request 2 0            | gemini response 0 0
vcrpy-stream/openinference-01.yaml
  200  bedrock request 1 0           | bedrock response 0 0
vcrpy-stream/otel-contrib-01.yaml
  200  openai-chat request 0 0       | openai-chat response 2 0
vcrpy-stream/otel-contrib-02.yaml
  200  bedrock request 0 0           | bedrock response 2 0
  200  bedrock request 2 0           | bedrock response 0 0
vcrpy-stream/pydantic-ai-01.yaml
  200  gemini request 0 0            | gemini response 0 0
vercel-fixtures/vercel-ai-01.chunks.txt
  -    none                          | anthropic response 0 0
vercel-fixtures/vercel-ai-03.chunks.txt
  -    none                          | gemini response 1 0
vercel-fixtures/vercel-ai-04.chunks.txt
  -    none                          | bedrock response 0 0
vercel-fixtures/vercel-ai-05.chunks.txt
  -    none                          | openai-chat response 0 0
vercel-fixtures/vercel-ai-06.chunks.txt
  -    none                          | openai-responses response 0 1
";

/// A body as [`EXPECTED`] writes it.
fn body(text: &str) -> Body {
    let words: Vec<&str> = text.split_whitespace().collect();
    if words == ["none"] {
        return None;
    }
    let [shape @ .., calls, media] = words.as_slice() else {
        panic!("a body is `shape calls media`: {text}");
    };
    let shape = shape.join(" ");
    Some((
        (shape != "-").then_some(shape),
        calls.parse().unwrap(),
        media.parse().unwrap(),
    ))
}

/// [`EXPECTED`] read: each file with its rows.
fn expected() -> Vec<(String, Vec<Row>)> {
    let mut files: Vec<(String, Vec<Row>)> = Vec::new();
    for line in EXPECTED.lines().filter(|l| !l.trim().is_empty()) {
        let Some(row) = line.strip_prefix("  ") else {
            files.push((line.to_string(), Vec::new()));
            continue;
        };
        let (status, rest) = row.trim().split_once(' ').unwrap();
        let (request, response) = rest.split_once('|').unwrap();
        let rows = &mut files.last_mut().unwrap().1;
        rows.push((status.parse().ok(), body(request), body(response)));
    }
    files.push(("mcp/mcp-interviewer-01.json".to_string(), interview()));
    files
}

/// The MCP interview's 20 `tools/call`s: each a call, each answered by a
/// tool result; the image, the embedded resources and the resource links
/// are media (getTinyImage, annotatedMessage, getResourceReference twice,
/// getResourceLinks with 1 and then 10 links).
fn interview() -> Vec<Row> {
    let mut rows = vec![
        (
            None,
            body("mcp tools/call request 1 0"),
            body("mcp tool result 0 0")
        );
        20
    ];
    for (n, media) in [(10, 1), (11, 1), (13, 1), (14, 1), (15, 1), (16, 10)] {
        rows[n - 1].2 = body(&format!("mcp tool result 0 {media}"));
    }
    rows
}

/// The interview's tools, in call order.
const INTERVIEW_TOOLS: [&str; 20] = [
    "echo",
    "echo",
    "add",
    "add",
    "longRunningOperation",
    "longRunningOperation",
    "printEnv",
    "sampleLLM",
    "sampleLLM",
    "getTinyImage",
    "annotatedMessage",
    "annotatedMessage",
    "getResourceReference",
    "getResourceReference",
    "getResourceLinks",
    "getResourceLinks",
    "structuredContent",
    "structuredContent",
    "listRoots",
    "startElicitation",
];

/// Files that are no recording by content (a bare JSON response):
/// inspected as documents, as before.
const DOCUMENTS: [&str; 1] = ["vercel-fixtures/vercel-ai-02.json"];

/// The README's interaction count of each file (`2`, `1 (response only)`,
/// `20 tool calls`).
fn readme_counts(root: &Path) -> Vec<(String, usize)> {
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    readme
        .lines()
        .map(crate::support::table_cells)
        .filter(|cells| cells.len() > 7 && cells[0].starts_with('`'))
        .map(|cells| {
            let count = cells[6].split_whitespace().next().unwrap().parse().unwrap();
            (cells[0].trim_matches('`').to_string(), count)
        })
        .collect()
}

fn all_files(root: &Path) -> Vec<String> {
    let mut found = Vec::new();
    for folder in std::fs::read_dir(root).unwrap() {
        let folder = folder.unwrap().path();
        if !folder.is_dir() {
            continue;
        }
        for file in std::fs::read_dir(&folder).unwrap() {
            let path = file.unwrap().path();
            found.push(path.strip_prefix(root).unwrap().display().to_string());
        }
    }
    found.sort();
    found
}

/// A body as the JSON listing gives it.
fn listed_body(value: &Value) -> Body {
    if value.is_null() {
        return None;
    }
    Some((
        value["shape"].as_str().map(str::to_string),
        value["tool_calls"]["count"].as_u64().unwrap() as usize,
        value["media"].as_array().unwrap().len(),
    ))
}

#[test]
fn every_cassette_is_listed_per_interaction() {
    let Some(root) = cassettes() else { return };
    let counts = readme_counts(&root);
    let files = all_files(&root);
    let expected = expected();
    assert_eq!(files.len(), expected.len() + DOCUMENTS.len(), "{files:?}");
    for file in &files {
        let path = root.join(file);
        let readme = counts.iter().find(|(name, _)| name == file);
        let readme = readme
            .unwrap_or_else(|| panic!("{file} is not in the README"))
            .1;
        if DOCUMENTS.contains(&file.as_str()) {
            let listed = run(&["inspect", path_arg(&path)]);
            assert_eq!(listed.code, 0, "{file}: {}", listed.stderr);
            assert_eq!(listed.stdout, "", "{file}");
            assert!(
                listed.stderr.contains("no media found"),
                "{file}: {}",
                listed.stderr
            );
            continue;
        }
        let rows = expected.iter().find(|(name, _)| name == file);
        let rows = &rows
            .unwrap_or_else(|| panic!("{file} has no expected rows"))
            .1;
        assert_eq!(rows.len(), readme, "{file}: the README's count");
        let listed = run(&["inspect", "--format", "json", path_arg(&path)]);
        assert_eq!(listed.code, 0, "{file}: {}", listed.stderr);
        let lines = listed.json_lines();
        assert_eq!(lines.len(), readme, "{file}");
        for (n, (line, want)) in lines.iter().zip(rows).enumerate() {
            assert_eq!(line["interaction"], n + 1, "{file}");
            let got = (
                line["status"].as_u64().map(|s| s as u16),
                listed_body(&line["request"]),
                listed_body(&line["response"]),
            );
            assert_eq!(&got, want, "{file}: interaction {}", n + 1);
            for side in ["request", "response"] {
                for item in line[side]["media"].as_array().into_iter().flatten() {
                    assert_eq!(item["interaction"], n + 1, "{file}");
                    assert_eq!(item["side"], side, "{file}");
                }
            }
        }
        if file == "mcp/mcp-interviewer-01.json" {
            let names: Vec<&str> = lines
                .iter()
                .map(|l| l["request"]["tool_calls"]["names"][0].as_str().unwrap())
                .collect();
            assert_eq!(names, INTERVIEW_TOOLS);
        }
    }
}

#[test]
fn the_text_listing_locates_each_body_and_media_item() {
    let Some(root) = cassettes() else { return };
    let listed = run(&["inspect", path_arg(&root.join("vcrpy/pydantic-ai-01.yaml"))]);
    assert_eq!(listed.code, 0, "{}", listed.stderr);
    let lines: Vec<&str> = listed.stdout.lines().collect();
    assert_eq!(
        lines[..6],
        [
            "interaction 1: POST https://api.anthropic.com/v1/messages?beta=true -> 200 OK",
            "  request   line 18     anthropic request",
            "  response  line 51     anthropic response; 1 tool call: get_file",
            "interaction 2: POST https://api.anthropic.com/v1/messages?beta=true -> 200 OK",
            "  request   line 92     anthropic request; 1 tool call: get_file; 1 media item",
            "  response  line 144    anthropic response",
        ]
    );
    assert!(
        lines[7].starts_with("WHERE      LINE  POINTER "),
        "{}",
        lines[7]
    );
    assert!(
        lines[8].starts_with("2 request  92    /messages/2/content/0/content/0  anthropic image  image/jpeg  image/jpeg  98,572  597x566"),
        "{}",
        lines[8]
    );
    assert_eq!(
        listed.stderr.trim_end(),
        format!(
            "partkit: {}: vcrpy cassette, 2 interactions, 1 media item listed",
            root.join("vcrpy/pydantic-ai-01.yaml").display()
        )
    );
    // A streamed response: the shape it assembles to, and how it came.
    let streamed = run(&[
        "inspect",
        path_arg(&root.join("vcrpy-stream/otel-contrib-02.yaml")),
    ]);
    assert!(streamed.stdout.contains(
        "  response  line 64     bedrock response (streamed: 67 events, AWS event stream); 2 tool calls: get_current_weather, get_current_weather\n"
    ), "{}", streamed.stdout);
}

/// The secret headers' names, as the reader tells them.
fn is_secret(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    [
        "authorization",
        "proxy-authorization",
        "x-api-key",
        "api-key",
        "x-goog-api-key",
        "cookie",
        "set-cookie",
        "x-amz-security-token",
    ]
    .contains(&name.as_str())
        || name.ends_with("api-key")
        || name.ends_with("-token")
        || name.ends_with("-secret")
}

/// The values the raw file gives its secret headers, cut into the pieces
/// long enough to be told apart (a cookie's value, a bearer token: a
/// digit or an underscore in 12 characters or more), read
/// from the YAML (`name:` then `- value` lines, or `name: value`) and the
/// HAR (`"name": "…"` then `"value": "…"`) text. Scrubbed values
/// (`[REDACTED]`, `**REDACTED**`) are left out.
fn secret_values(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut values = Vec::new();
    for (at, line) in lines.iter().enumerate() {
        let trimmed = line.trim().trim_start_matches("- ");
        let har = trimmed
            .strip_prefix("\"name\": \"")
            .and_then(|rest| rest.split('"').next());
        if let Some(name) = har.filter(|n| is_secret(n)) {
            let _ = name;
            if let Some(value) = lines
                .get(at + 1)
                .and_then(|l| l.trim().strip_prefix("\"value\": "))
            {
                values.push(value.to_string());
            }
            continue;
        }
        let Some((name, rest)) = trimmed.split_once(':') else {
            continue;
        };
        if !is_secret(name.trim_matches(|c| c == '"' || c == '\'')) {
            continue;
        }
        if !rest.trim().is_empty() {
            values.push(rest.to_string());
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        for next in &lines[at + 1..] {
            let next_indent = next.len() - next.trim_start().len();
            let item = next.trim_start().starts_with("- ") && next_indent >= indent;
            if !item && next_indent <= indent {
                break;
            }
            values.push(next.to_string());
        }
    }
    values
        .iter()
        .flat_map(|v| {
            v.split(|c: char| c.is_whitespace() || ";=,\"'".contains(c))
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        // A host name (`Domain=api.openai.com`) is no secret, and is in the
        // URI: a value piece has a digit or an underscore.
        .filter(|piece| piece.len() >= 12 && !piece.contains("REDACTED"))
        .filter(|piece| piece.contains(|c: char| c.is_ascii_digit() || c == '_'))
        .collect()
}

#[test]
fn no_secret_header_value_is_ever_printed() {
    let Some(root) = cassettes() else { return };
    let (mut secrets, mut redacted) = (0, 0);
    for (file, _) in expected() {
        let path = root.join(&file);
        let values = secret_values(&text_of(&path));
        secrets += values.len();
        let runs = [
            run(&["inspect", "--format", "json", path_arg(&path)]),
            run(&["inspect", "--headers", path_arg(&path)]),
            run(&["inspect", "--events", path_arg(&path)]),
            run(&["inspect", "--events", "--format", "json", path_arg(&path)]),
        ];
        for listed in &runs {
            assert_eq!(listed.code, 0, "{file}: {}", listed.stderr);
            for value in &values {
                assert!(
                    !listed.stdout.contains(value.as_str())
                        && !listed.stderr.contains(value.as_str()),
                    "{file}: a secret header's value is printed: {value}"
                );
            }
        }
        for line in runs[0].json_lines() {
            for side in ["request", "response"] {
                for header in line[side]["headers"].as_array().into_iter().flatten() {
                    let name = header["name"].as_str().unwrap();
                    if is_secret(name) {
                        assert_eq!(header["value"], "REDACTED", "{file}: {name}");
                        redacted += 1;
                    }
                }
            }
        }
    }
    // The corpus has real secret headers to hide: cookies, bearer tokens.
    assert!(secrets >= 15, "{secrets} secret values found in the files");
    assert!(redacted >= 30, "{redacted} secret headers listed");
}

// Hand-made cassettes and streams.

/// A vcrpy cassette of one interaction: `request` JSON (single-quoted
/// YAML: no `'` inside) and a response body given as a literal block.
fn cassette(request: &str, response: &str, content_type: &str) -> String {
    let block: String = response
        .lines()
        .map(|line| format!("        {line}\n"))
        .collect();
    format!(
        "interactions:\n- request:\n    body: '{request}'\n    headers:\n      authorization:\n      - Bearer sk-live-0123456789abcdef\n      content-type:\n      - application/json\n    method: POST\n    uri: https://api.anthropic.com/v1/messages\n  response:\n    body:\n      string: |\n{block}    headers:\n      content-type:\n      - {content_type}\n    status:\n      code: 200\n      message: OK\nversion: 1\n"
    )
}

const REQUEST: &str =
    r#"{"model":"claude-x","max_tokens":10,"messages":[{"role":"user","content":"Hi"}]}"#;

fn anthropic_events(events: &[&str]) -> String {
    let all = [
        r#"{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-x","content":[],"stop_reason":null,"usage":{"input_tokens":1,"output_tokens":1}}}"#,
        r#"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#,
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello"}}"#,
        r#"{"type":"mystery_event","detail":"x"}"#,
        r#"{"type":"content_block_stop","index":0}"#,
        r#"{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":2}}"#,
        r#"{"type":"message_stop"}"#,
    ];
    all.iter()
        .filter(|data| {
            events
                .iter()
                .any(|kind| data.contains(&format!("\"type\":\"{kind}\"")))
        })
        .map(|data| {
            let kind = data.split('"').nth(3).unwrap();
            format!("event: {kind}\ndata: {data}\n\n")
        })
        .collect()
}

const WHOLE: [&str; 6] = [
    "message_start",
    "content_block_start",
    "content_block_delta",
    "content_block_stop",
    "message_delta",
    "message_stop",
];

#[test]
fn a_stream_cut_short_is_reported_not_assembled() {
    let sse = anthropic_events(&WHOLE[..3]);
    let (_dir, path) = temp_file(
        "cut.yaml",
        cassette(REQUEST, &sse, "text/event-stream").as_bytes(),
    );
    let listed = run(&["inspect", path_arg(&path)]);
    assert_eq!(listed.code, 0, "{}", listed.stderr);
    assert_eq!(
        listed.stdout,
        "interaction 1: POST https://api.anthropic.com/v1/messages -> 200 OK\n\
         \x20 request   line 3      anthropic request\n\
         \x20 response  line 14     -\n\
         \x20     note: a stream that cannot be assembled: the stream is cut short: 3 events, and no message_stop\n"
    );
    let events = run(&["inspect", "--events", path_arg(&path)]);
    assert_eq!(
        events.stdout,
        "interaction 1 response (line 14): server-sent events, 3 events\n\
         \x20 EVENT  TYPE                 ID  BYTES  PREVIEW\n\
         \x20 0      message_start        -   181    -\n\
         \x20 1      content_block_start  -   82     -\n\
         \x20 2      content_block_delta  -   85     \"Hello\"\n\
         \x20 not assembled: the stream is cut short: 3 events, and no message_stop\n"
    );
    let json = run(&["inspect", "--events", "--format", "json", path_arg(&path)]).json();
    assert_eq!(json["assembled"], Value::Null);
    assert_eq!(json["interaction"], 1);
    assert_eq!(json["line"], 14);
}

#[test]
fn an_event_of_unknown_type_is_kept_as_a_note() {
    let mut kinds = WHOLE.to_vec();
    kinds.push("mystery_event");
    let sse = anthropic_events(&kinds);
    let (_dir, path) = temp_file(
        "odd.yaml",
        cassette(REQUEST, &sse, "text/event-stream").as_bytes(),
    );
    let listed = run(&["inspect", path_arg(&path)]);
    assert!(
        listed.stdout.contains(
            "  response  line 14     anthropic response (streamed: 7 events, server-sent events)\n\
         \x20     note: event 3: unknown type `mystery_event`, left out\n"
        ),
        "{}",
        listed.stdout
    );
    let events = run(&["inspect", "--events", path_arg(&path)]);
    assert!(
        events
            .stdout
            .contains("  3      mystery_event        -   37     -\n"),
        "{}",
        events.stdout
    );
    assert!(
        events.stdout.ends_with(
            "  assembled: anthropic response (7 events, server-sent events)\n\
         \x20   note: event 3: unknown type `mystery_event`, left out\n"
        ),
        "{}",
        events.stdout
    );
    let json = run(&["inspect", "--format", "json", path_arg(&path)]).json();
    assert_eq!(
        json["response"]["notes"][0],
        "event 3: unknown type `mystery_event`, left out"
    );
    assert_eq!(json["response"]["streamed"]["events"], 7);
}

/// OpenAI Chat chunks calling `get_weather`, its arguments in four pieces.
fn fragmented_call() -> String {
    let chunk = |delta: Value, finish: Value| {
        let chunk = serde_json::json!({
            "id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4o",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        });
        format!("data: {chunk}\n\n")
    };
    let mut sse = chunk(
        serde_json::json!({"role": "assistant", "content": null, "tool_calls": [
            {"index": 0, "id": "call_1", "type": "function",
             "function": {"name": "get_weather", "arguments": ""}}]}),
        Value::Null,
    );
    for piece in [r#"{"ci"#, r#"ty":"Pa"#, r#"ris","un"#, r#"it":"c"}"#] {
        sse.push_str(&chunk(
            serde_json::json!({"tool_calls": [{"index": 0, "function": {"arguments": piece}}]}),
            Value::Null,
        ));
    }
    sse.push_str(&chunk(serde_json::json!({}), "tool_calls".into()));
    sse.push_str("data: [DONE]\n\n");
    sse
}

#[test]
fn arguments_in_fragments_are_listed_and_assembled_whole() {
    // A file of SSE text is no recording: --events reads it as one stream.
    let (_dir, path) = temp_file("call.sse", fragmented_call().as_bytes());
    let events = run(&["inspect", "--events", path_arg(&path)]);
    assert_eq!(events.code, 0, "{}", events.stderr);
    let lines: Vec<&str> = events.stdout.lines().collect();
    assert_eq!(
        lines[0],
        format!("{}: server-sent events, 6 events", path.display())
    );
    let previews: Vec<&str> = lines[2..8]
        .iter()
        .map(|l| l.split_whitespace().last().unwrap())
        .collect();
    assert_eq!(
        previews,
        [
            "-",
            r#""{\"ci""#,
            r#""ty\":\"Pa""#,
            r#""ris\",\"un""#,
            r#""it\":\"c\"}""#,
            "-"
        ]
    );
    assert_eq!(
        lines[8],
        r#"  assembled: openai-chat response (6 events, server-sent events); 1 tool call: get_weather {"city":"Paris","unit":"c"}"#
    );
    let json = run(&["inspect", "--events", "--format", "json", path_arg(&path)]).json();
    assert_eq!(
        json["assembled"]["tool_calls"][0]["arguments"],
        r#"{"city":"Paris","unit":"c"}"#
    );
    assert_eq!(json["events"].as_array().unwrap().len(), 6);
    assert_eq!(json["events"][2]["preview"], r#"ty":"Pa"#);
    // The same stream recorded in a cassette.
    let (_dir, path) = temp_file(
        "call.yaml",
        cassette(REQUEST, &fragmented_call(), "text/event-stream").as_bytes(),
    );
    let json = run(&["inspect", "--format", "json", path_arg(&path)]).json();
    assert_eq!(json["response"]["shape"], "openai-chat response");
    assert_eq!(json["response"]["tool_calls"]["names"][0], "get_weather");
}

#[test]
fn empty_bodies_are_noted_and_secrets_redacted() {
    let yaml = "interactions:\n- request:\n    body: ''\n    headers:\n      x-api-key:\n      - sk-ant-0123456789abcdef\n      Accept:\n      - '*/*'\n    method: DELETE\n    uri: https://example.com/mcp?key=AIza0123456789secret\n  response:\n    body:\n      string: ''\n    headers: {}\n    status:\n      code: 204\n      message: No Content\nversion: 1\n";
    let (_dir, path) = temp_file("empty.yaml", yaml.as_bytes());
    let listed = run(&["inspect", "--headers", path_arg(&path)]);
    assert_eq!(listed.code, 0, "{}", listed.stderr);
    assert_eq!(
        listed.stdout,
        "interaction 1: DELETE https://example.com/mcp?key=REDACTED -> 204 No Content\n\
         \x20 request   line 3      -\n\
         \x20     note: empty body\n\
         \x20     x-api-key: REDACTED\n\
         \x20     Accept: */*\n\
         \x20 response  line 13     -\n\
         \x20     note: empty body\n"
    );
    let json = run(&["inspect", "--format", "json", path_arg(&path)]).json();
    assert_eq!(
        json["request"]["headers"],
        serde_json::json!([{"name": "x-api-key", "value": "REDACTED"}, {"name": "Accept", "value": "*/*"}])
    );
    assert_eq!(json["response"]["notes"], serde_json::json!(["empty body"]));
    for out in [&listed.stdout, &json.to_string()] {
        assert!(!out.contains("sk-ant-0123456789abcdef") && !out.contains("AIza0123456789secret"));
    }
    // Without --headers, the text shows none.
    let plain = run(&["inspect", path_arg(&path)]);
    assert!(!plain.stdout.contains("x-api-key"), "{}", plain.stdout);
}

#[test]
fn extract_writes_the_media_of_every_body() {
    let png = b64_of(&png_of(4, 3));
    let request = format!(
        r#"{{"model":"claude-x","max_tokens":10,"messages":[{{"role":"user","content":[{{"type":"image","source":{{"type":"base64","media_type":"image/png","data":"{png}"}}}}]}}]}}"#
    );
    let response = r#"{"id":"msg_1","type":"message","role":"assistant","model":"claude-x","content":[{"type":"text","text":"A square."}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}"#;
    let (dir, path) = temp_file(
        "image.yaml",
        cassette(&request, response, "application/json").as_bytes(),
    );
    let out = dir.path().join("media");
    let listed = run(&[
        "inspect",
        "--extract",
        path_arg(&out),
        "--format",
        "json",
        path_arg(&path),
    ]);
    assert_eq!(listed.code, 0, "{}", listed.stderr);
    let json = listed.json();
    let item = &json["request"]["media"][0];
    assert_eq!(item["interaction"], 1);
    assert_eq!(item["side"], "request");
    assert_eq!(item["width"], 4);
    let written = item["extracted"].as_str().unwrap();
    assert_eq!(std::fs::read(written).unwrap(), png_of(4, 3));
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 1);
}

#[test]
fn a_named_file_that_is_no_recording_is_an_error() {
    // A YAML file of other data, named as a recording.
    let (_dir, path) = temp_file("config.yaml", b"threads: 4\nformat: json\n");
    let listed = run(&["inspect", path_arg(&path)]);
    assert_eq!(listed.code, 1, "{}", listed.stderr);
    assert_eq!(listed.stdout, "");
    assert!(
        listed
            .stderr
            .contains("config.yaml: not a recording partkit reads"),
        "{}",
        listed.stderr
    );
    assert_eq!(listed.stderr.lines().count(), 1, "{}", listed.stderr);
    // YAML that does not read.
    let (_dir, path) = temp_file("broken.yaml", b"interactions:\n- request: [unclosed\n");
    let broken = run(&["inspect", path_arg(&path)]);
    assert_ne!(broken.code, 0, "{}", broken.stderr);
    assert!(broken.stderr.contains("broken.yaml"), "{}", broken.stderr);
    // A document is inspected as before, --events or not.
    let (_dir, path) = temp_file("doc.json", br#"{"role":"user","content":"hi"}"#);
    let doc = run(&["inspect", path_arg(&path)]);
    assert_eq!((doc.code, doc.stdout.as_str()), (0, ""));
    assert!(doc.stderr.contains("no media found"), "{}", doc.stderr);
}

/// Events with neither a `type` nor an SSE name are listed by what their
/// JSON says they are: a Chat chunk's `object`, a Bedrock event's one
/// member; a Gemini chunk says nothing, and shows `-`.
#[test]
fn untyped_events_are_listed_by_what_their_json_says() {
    let Some(root) = cassettes() else { return };
    let kinds = |file: &str| -> Vec<String> {
        let out = run(&[
            "inspect",
            "--events",
            "--format",
            "json",
            path_arg(&root.join(file)),
        ]);
        assert_eq!(out.code, 0, "{file}: {}", out.stderr);
        let listing = out.json();
        let events = listing["events"]
            .as_array()
            .or_else(|| listing[0]["events"].as_array())
            .unwrap_or_else(|| panic!("{file}: no events in {listing}"))
            .clone();
        events
            .iter()
            .map(|event| event["type"].as_str().unwrap_or("-").to_string())
            .collect()
    };
    // Azure's first chunk (prompt filter results) leaves `object` empty.
    let chat = kinds("vercel-fixtures/vercel-ai-05.chunks.txt");
    assert_eq!(chat[0], "-");
    assert!(
        chat[1..].iter().all(|k| k == "chat.completion.chunk"),
        "{chat:?}"
    );
    let bedrock = kinds("vercel-fixtures/vercel-ai-04.chunks.txt");
    assert_eq!(bedrock[..2], ["messageStart", "contentBlockDelta"]);
    assert_eq!(bedrock.last().unwrap(), "metadata");
    assert_eq!(kinds("vercel-fixtures/vercel-ai-03.chunks.txt"), ["-", "-"]);
}
