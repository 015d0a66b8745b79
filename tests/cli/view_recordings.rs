//! `partkit view` of a recording (docs/commands/view.md#recordings): every
//! real cassette and HAR file of `../shared/cassettes/` (read at run time,
//! skipped when the folder is absent) drawn as one section per interaction
//! with its recorded status, and no secret header value on the page,
//! checked against the raw file; and a small hand-written cassette with an
//! empty response body, a cut-short stream, a refused request and a request
//! with an error the provider answered 200.

use std::path::Path;

use partkit::internals::recording::is_secret_header;
use serde_json::{json, Value};

use super::support::media::b64;
use super::{path_arg, run, temp_file, Run};
use crate::support::{cassettes, text_of};

/// What each page shows: the status of each interaction, in order (the
/// recorded code and reason phrase, as the raw files hold them). `None`:
/// a file that is no recording (a document, JSON Lines of whole responses),
/// drawn as documents.
const EXPECTED: &[(&str, Option<&[&str]>)] = &[
    ("har/mirascope-01.har", Some(&["200 OK"; 2])),
    ("har/mirascope-02.har", Some(&["200 OK"])),
    ("har/mirascope-03.har", Some(&["200 OK"; 3])),
    ("har/openinference-01.har", Some(&["200 OK"])),
    (
        "langchain-aws/langchain-aws-01.yaml.gz",
        Some(&["200 OK"; 2]),
    ),
    ("langchain-aws/langchain-aws-02.yaml.gz", Some(&["200 OK"])),
    (
        "mcp/chatlas-01.yaml",
        Some(&[
            "404 Not Found",
            "200 OK",
            "202 Accepted",
            "200 OK",
            "200 OK",
            "200 OK",
            "200 OK",
            "200 OK",
        ]),
    ),
    ("mcp/mcp-interviewer-01.json", Some(&["no status"; 20])),
    ("r-vcr/ellmer-01.yml", Some(&["200"; 4])),
    ("r-vcr/ellmer-02.yml", Some(&["200"; 4])),
    ("r-vcr/ellmer-03.yml", Some(&["200"; 4])),
    ("r-vcr/ellmer-04.yml", Some(&["200"; 3])),
    ("vcrpy-stream/llm-01.yaml", Some(&["200 OK"; 2])),
    ("vcrpy-stream/llm-anthropic-01.yaml", Some(&["200 OK"])),
    ("vcrpy-stream/llm-anthropic-02.yaml", Some(&["200 OK"])),
    ("vcrpy-stream/llm-gemini-01.yaml", Some(&["200 OK"; 3])),
    ("vcrpy-stream/openinference-01.yaml", Some(&["200 OK"])),
    ("vcrpy-stream/otel-contrib-01.yaml", Some(&["200 OK"])),
    ("vcrpy-stream/otel-contrib-02.yaml", Some(&["200 OK"; 2])),
    ("vcrpy-stream/pydantic-ai-01.yaml", Some(&["200 OK"])),
    ("vcrpy/aviary-01.yaml", Some(&["200 OK"])),
    ("vcrpy/llm-01.yaml", Some(&["200 OK"; 3])),
    ("vcrpy/openllmetry-01.yaml", Some(&["200 OK"])),
    ("vcrpy/pydantic-ai-01.yaml", Some(&["200 OK"; 2])),
    ("vcrpy/pydantic-ai-02.yaml", Some(&["200 OK"; 2])),
    ("vcrpy/pydantic-ai-03.yaml", Some(&["200 OK"; 4])),
    ("vcrpy/pydantic-ai-04.yaml", Some(&["200 OK"; 2])),
    ("vcrpy/pydantic-ai-05.yaml", Some(&["200 OK"])),
    ("vcrpy/pydantic-ai-06.yaml", Some(&["200 OK"])),
    (
        "vercel-fixtures/vercel-ai-01.chunks.txt",
        Some(&["no status"]),
    ),
    ("vercel-fixtures/vercel-ai-02.json", None),
    (
        "vercel-fixtures/vercel-ai-03.chunks.txt",
        Some(&["no status"]),
    ),
    (
        "vercel-fixtures/vercel-ai-04.chunks.txt",
        Some(&["no status"]),
    ),
    (
        "vercel-fixtures/vercel-ai-05.chunks.txt",
        Some(&["no status"]),
    ),
    (
        "vercel-fixtures/vercel-ai-06.chunks.txt",
        Some(&["no status"]),
    ),
];

fn view(path: &Path) -> Run {
    run(&["--no-config", "view", path_arg(path)])
}

/// The text of each `<span class="status …">` of the page, in order.
fn statuses(page: &str) -> Vec<&str> {
    page.split("<span class=\"status ")
        .skip(1)
        .map(|rest| {
            let text = &rest[rest.find('>').unwrap() + 1..];
            &text[..text.find('<').unwrap()]
        })
        .collect()
}

/// The values of secret headers as the raw file spells them: in YAML, the
/// value on a secret key's line or the list items and continuation lines
/// below it; in JSON (HAR), every `{name, value}` with a secret name, and
/// HAR's parsed `cookies`. Each value is cut to what identifies it (a
/// cookie's `name=value` pair, a bearer token); scrubbed placeholders
/// (`**REDACTED**`) and short values are left out.
fn secret_values(text: &str) -> Vec<String> {
    let mut raw = Vec::new();
    match serde_json::from_str::<Value>(text) {
        Ok(value) => json_secrets(&value, false, &mut raw),
        Err(_) => yaml_secrets(text, &mut raw),
    }
    raw.iter()
        .map(|value| {
            let value = value.trim().trim_matches(['\'', '"']);
            let value = value.split(';').next().unwrap_or_default().trim();
            value.strip_prefix("Bearer ").unwrap_or(value).to_string()
        })
        .filter(|value| value.len() >= 8 && !value.to_lowercase().contains("redacted"))
        .collect()
}

fn json_secrets(value: &Value, cookies: bool, found: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            let name = map.get("name").and_then(Value::as_str);
            if let (Some(name), Some(Value::String(v))) = (name, map.get("value")) {
                if cookies || is_secret_header(name) {
                    found.push(v.clone());
                }
            }
            for (key, inner) in map {
                json_secrets(inner, key == "cookies", found);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| json_secrets(v, cookies, found)),
        _ => {}
    }
}

fn yaml_secrets(text: &str, found: &mut Vec<String>) {
    let lines: Vec<&str> = text.lines().collect();
    let indent = |line: &str| line.len() - line.trim_start().len();
    for (n, line) in lines.iter().enumerate() {
        let Some((key, inline)) = line.trim_start().split_once(':') else {
            continue;
        };
        let key = key.trim_start_matches("- ").trim_matches(['\'', '"']);
        if key.contains(' ') || !is_secret_header(key) {
            continue;
        }
        let inline = inline.trim().trim_start_matches("!!binary").trim();
        if !inline.is_empty() && inline != "|" {
            found.push(inline.to_string());
            continue;
        }
        // The items below the key: each `- ` starts a value, deeper lines
        // continue it.
        let mut value: Option<String> = None;
        for below in lines[n + 1..]
            .iter()
            .take_while(|l| indent(l) > indent(line) || l.trim_start().starts_with("- "))
        {
            let item = below.trim_start();
            if let Some(start) = item.strip_prefix("- ") {
                found.extend(value.take());
                value = Some(start.to_string());
            } else if indent(below) <= indent(line) {
                break;
            } else {
                let v = value.get_or_insert_with(String::new);
                v.push(' ');
                v.push_str(item);
            }
        }
        found.extend(value);
    }
}

#[test]
fn every_cassette_is_a_section_per_interaction_with_no_secret() {
    let Some(root) = cassettes() else {
        return;
    };
    let mut secrets_checked = 0;
    let mut redacted_shown = 0;
    for (file, expected) in EXPECTED {
        let path = root.join(file);
        if !path.exists() {
            continue;
        }
        let run = view(&path);
        assert_eq!(run.code, 0, "{file}: {}", run.stderr);
        let page = &run.stdout;
        let sections = page.matches("<section class=\"doc interaction\"").count();
        match expected {
            Some(statuses_wanted) => {
                assert_eq!(sections, statuses_wanted.len(), "{file}: sections");
                assert_eq!(&statuses(page), statuses_wanted, "{file}: statuses");
                assert_eq!(
                    page.matches("<tr data-interaction=").count(),
                    sections,
                    "{file}: index rows"
                );
                assert!(
                    run.stderr.contains(&format!(
                        "{} interaction{}, ",
                        sections,
                        if sections == 1 { "" } else { "s" }
                    )),
                    "{file}: {}",
                    run.stderr
                );
            }
            None => {
                assert_eq!(sections, 0, "{file}");
                assert!(page.contains("<section class=\"doc\" id=\"line-1\""));
            }
        }
        for secret in secret_values(&text_of(&path)) {
            assert!(!page.contains(&secret), "{file}: a secret on the page");
            secrets_checked += 1;
        }
        for cookie in ["__cf_bm=", "_cfuvid="] {
            assert!(!page.contains(cookie), "{file}: {cookie}");
        }
        redacted_shown += page
            .matches("<span class=\"redacted\">REDACTED</span>")
            .count();
        // One script, partkit's; nothing recorded became a tag.
        assert_eq!(page.matches("<script").count(), 1, "{file}");
    }
    // The corpus holds bearer tokens, AWS tokens and Cloudflare cookies:
    // the check above saw them.
    assert!(secrets_checked >= 15, "{secrets_checked} secrets checked");
    assert!(redacted_shown >= 30, "{redacted_shown} REDACTED shown");
}

#[test]
fn secret_values_are_found_in_each_layout() {
    let yaml = "      authorization:\n      - Bearer sk-abcdefgh123\n      Set-Cookie: test_set_cookie\n      set-cookie:\n      - __cf_bm=abcdefghijk-1; path=/;\n        HttpOnly\n      - _cfuvid=zyxwvutsrq; Secure\n      x-api-key:\n      - '**REDACTED**'\n      accept:\n      - application/json\n";
    assert_eq!(
        secret_values(yaml),
        [
            "sk-abcdefgh123",
            "test_set_cookie",
            "__cf_bm=abcdefghijk-1",
            "_cfuvid=zyxwvutsrq"
        ]
    );
    let har = json!({"log": {"entries": [{"request": {
        "headers": [{"name": "x-api-key", "value": "sk-ant-0123456789"}, {"name": "accept", "value": "application/json"}],
        "cookies": [{"name": "__cf_bm", "value": "cookievalue123"}]}}]}});
    assert_eq!(
        secret_values(&har.to_string()),
        ["sk-ant-0123456789", "cookievalue123"]
    );
}

/// A vcrpy cassette of four interactions (the bodies written as JSON
/// strings, which YAML reads as double-quoted scalars).
fn edge_cassette() -> String {
    let png = b64("tiny.png");
    let chat = json!({"model": "gpt-4o", "messages": [{"role": "user", "content": [
        {"type": "text", "text": "<b>what</b> is this?"},
        {"type": "image_url", "image_url": {"url": format!("data:image/jpeg;base64,{png}")}}]}]});
    let anthropic = json!({"model": "claude-sonnet-4-5", "max_tokens": 100, "stream": true,
        "messages": [{"role": "user", "content": "Hi"}]});
    let events = [
        json!({"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant",
            "model": "claude-sonnet-4-5", "content": [], "stop_reason": null, "usage": {"input_tokens": 3, "output_tokens": 1}}}),
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hel"}}),
    ];
    let sse: String = events
        .iter()
        .map(|e| format!("event: {}\ndata: {e}\n\n", e["type"].as_str().unwrap()))
        .collect();
    let refused = json!({"type": "error", "error": {"type": "invalid_request_error", "message": "max_tokens: field required"}});
    let s = |v: &str| serde_json::to_string(v).unwrap();
    let interaction = |body: &str, uri: &str, status: &str, response: &str, kind: &str| {
        format!(
            "- request:\n    body: {}\n    headers:\n      authorization:\n      - Bearer sk-edge-secret-0001\n      x-api-key:\n      - sk-ant-edge-secret-0002\n      content-type:\n      - application/json\n    method: POST\n    uri: {uri}\n  response:\n    body:\n      string: {}\n    headers:\n      content-type:\n      - {kind}\n      set-cookie:\n      - __cf_bm=edgecookie0003; path=/\n      x-note:\n      - '<script>window.x=1</script><img src=x onerror=alert(1)>'\n    status:\n      code: {status}\n",
            s(body),
            s(response)
        )
    };
    let mut yaml = String::from("interactions:\n");
    yaml += &interaction(
        &chat.to_string(),
        "https://api.openai.com/v1/chat/completions",
        "200\n      message: OK",
        "",
        "application/json",
    );
    yaml += &interaction(
        &anthropic.to_string(),
        "https://api.anthropic.com/v1/messages?key=AIzaEdgeSecret0004",
        "200\n      message: OK",
        &sse,
        "text/event-stream",
    );
    yaml += &interaction(
        &json!({"model": "claude-sonnet-4-5", "messages": [{"role": "user", "content": "Hi"}]})
            .to_string(),
        "https://api.anthropic.com/v1/messages",
        "400\n      message: Bad Request",
        &refused.to_string(),
        "application/json",
    );
    yaml += "version: 1\n";
    yaml
}

#[test]
fn an_empty_body_a_cut_stream_and_a_refusal_are_drawn_as_such() {
    let (_dir, path) = temp_file("edge.yaml", edge_cassette().as_bytes());
    let run = view(&path);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let page = &run.stdout;
    assert_eq!(
        page.matches("<section class=\"doc interaction\"").count(),
        3
    );
    assert_eq!(statuses(page), ["200 OK", "200 OK", "400 Bad Request"]);
    // No secret, from a header or the query; every secret header named.
    for secret in [
        "sk-edge-secret-0001",
        "sk-ant-edge-secret-0002",
        "edgecookie0003",
        "AIzaEdgeSecret0004",
    ] {
        assert!(!page.contains(secret), "{secret} on the page");
    }
    assert_eq!(
        page.matches("<span class=\"redacted\">REDACTED</span>")
            .count(),
        9
    );
    assert!(page.contains("messages?key=REDACTED"));
    // Recorded header values are text.
    assert_eq!(page.matches("<script").count(), 1);
    assert!(!page.contains("<img src=x"));
    assert_eq!(
        page.matches("&lt;script&gt;window.x=1&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;")
            .count(),
        3
    );
    // Interaction 1: the image's declared type is not its content, an
    // error the provider answered 200; the response is empty.
    let one = section(page, 1);
    assert!(one.contains("data-findings=\"1\""), "{one}");
    assert!(one.contains("<span class=\"rule\">media-type-mismatch</span>"));
    assert!(one.contains(
        "(the provider answered 200: a partkit rule, or a cassette older than its rules)</li>"
    ));
    assert!(one.contains("<p class=\"note\">empty body</p>"));
    assert!(one.contains("&lt;b&gt;what&lt;/b&gt; is this?"));
    assert_eq!(one.matches("<img class=\"thumb\"").count(), 1);
    // Interaction 2: the stream stops before its message_stop.
    let two = section(page, 2);
    assert!(
        two.contains("<span class=\"rule\">broken-stream</span>"),
        "{two}"
    );
    assert!(two.contains("the streamed response cannot be assembled: "));
    assert!(two.contains("data-findings=\"1\""));
    // Interaction 3: refused, with the provider's own words.
    let three = section(page, 3);
    assert!(three.contains("<p class=\"note\">the provider said: max_tokens: field required</p>"));
    assert!(three.contains("<span class=\"status bad\">400 Bad Request</span>"));
    // The index: a row per interaction, with its shapes and counts.
    assert!(page.contains("<tr data-interaction=\"2\"><td class=\"n\"><a href=\"#interaction-2\">2</a></td><td class=\"wide\">POST api.anthropic.com/v1/messages</td><td>200 OK</td><td>anthropic transcript</td><td>broken stream</td><td class=\"n\">0</td><td class=\"n\">0</td><td class=\"n\">1</td><td class=\"n\">0</td></tr>"), "{page}");
    assert!(page.contains("3 interactions · 4 documents · 1 image"));
    assert!(
        run.stderr
            .contains("3 interactions, 4 documents, 1 image, 0 tool calls, 2 errors"),
        "{}",
        run.stderr
    );
}

/// The section of interaction `n`.
fn section(page: &str, n: usize) -> &str {
    let start = page
        .find(&format!(
            "<section class=\"doc interaction\" id=\"interaction-{n}\""
        ))
        .unwrap_or_else(|| panic!("no interaction {n}"));
    let end = page[start..].find("</section>").unwrap();
    &page[start..start + end]
}

#[test]
fn a_file_named_as_a_recording_that_is_none_is_an_error() {
    let (_dir, path) = temp_file("config.yaml", b"name: not a cassette\n");
    view(&path).assert_error(1, &["config.yaml", "not a recording partkit reads"]);
    let (_dir, path) = temp_file("broken.yaml", b"interactions: [\n");
    view(&path).assert_error(1, &["broken.yaml:", "not a recording partkit reads"]);
    let (_dir, path) = temp_file("edge.yaml", edge_cassette().as_bytes());
    run(&["--no-config", "view", path_arg(&path), "--lines", "1-2"])
        .assert_error(2, &["edge.yaml is a vcrpy cassette: --lines"]);
}

#[test]
fn a_pipe_named_as_a_path_is_read_once_as_a_document() {
    // Telling a recording from a document must not read a pipe's first
    // bytes away from the document (or wait on a FIFO for a writer).
    let doc = json!({"messages": [{"role": "user", "content": "a question from a pipe"}]});
    let run = super::run_with_stdin(
        &["--no-config", "view", "/dev/stdin"],
        doc.to_string().as_bytes(),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("a question from a pipe"));
    assert!(
        run.stderr.contains("wrote stdout: 1 document,"),
        "{}",
        run.stderr
    );
}

/// A response's calls are answered by the next request of the recording,
/// not in the response: by call id, or by tool name for Gemini's calls,
/// which have none. A call no later request answers stays unanswered.
#[test]
fn calls_answered_by_a_later_request_are_drawn_answered() {
    let Some(root) = cassettes() else { return };
    let marks = |path: &Path| {
        let dir = tempfile::tempdir().unwrap();
        let page = dir.path().join("page.html");
        let out = run(&["view", "-o", path_arg(&page), path_arg(path)]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        let page = std::fs::read_to_string(&page).unwrap();
        (
            page.matches("mark good\">answered").count(),
            page.matches("mark bad\">unanswered").count(),
        )
    };
    // OpenAI Chat calls with ids; Gemini calls without.
    assert_eq!(marks(&root.join("vcrpy/llm-01.yaml")), (5, 0));
    assert_eq!(marks(&root.join("vcrpy/pydantic-ai-03.yaml")), (9, 0));
    // The last response's call: no request follows it.
    let text = std::fs::read_to_string(root.join("vcrpy/llm-01.yaml")).unwrap();
    let second = text.find("\n- request:").unwrap() + 1;
    let cut = second + text[second..].find("\n- request:").unwrap();
    let (_dir, first) = temp_file(
        "first.yaml",
        format!("{}\nversion: 1\n", &text[..cut]).as_bytes(),
    );
    assert_eq!(marks(&first), (0, 1));
}
