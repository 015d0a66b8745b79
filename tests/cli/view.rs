//! `partkit view` (docs/commands/view.md): the page of a transcript with images and tool
//! calls, of a JSON Lines file of replies (index, `--lines`), recorded text
//! that tries to become markup, and bad input. The same pages are opened in
//! a real browser by `tests/browser/view.mjs` (run by `.ci/run`).

use serde_json::json;

use super::support::media::{b64, b64_of, png_of};
use super::{run_with_stdin, Run};

/// A canonical transcript: a user image, a call answered by a result holding
/// an image, a call left unanswered, a result with no call, and an image
/// whose declared type is not its content (a finding).
pub fn transcript() -> serde_json::Value {
    json!({"messages": [
        {"role": "user", "content": [
            {"type": "text", "text": "What is in this chart?"},
            {"type": "image", "mimeType": "image/png", "data": b64_of(&png_of(640, 480)), "name": "chart.png"}]},
        {"role": "assistant", "content": [
            {"type": "tool_call", "id": "call_1", "name": "zoom", "arguments": {"x": 10, "y": 20}},
            {"type": "tool_call", "id": "call_2", "name": "crop", "arguments": {}}]},
        {"role": "tool", "content": [
            {"type": "tool_result", "call_id": "call_1", "name": "zoom", "content": [
                {"type": "text", "text": "zoomed:"},
                {"type": "image", "mimeType": "image/jpeg", "data": b64("tiny.png")}]},
            {"type": "tool_result", "call_id": "call_9", "name": "ghost", "content": [
                {"type": "text", "text": "nobody asked"}]}]},
        {"role": "assistant", "content": [{"type": "text", "text": "A bar chart."}]}
    ]})
}

/// Recorded strings that would run script or load a URL if they became markup.
pub fn hostile() -> serde_json::Value {
    json!({"messages": [
        {"role": "user", "content": [
            {"type": "text", "text": "<script>window.__xss = 1</script><img src=x onerror=\"window.__xss = 2\"></textarea><b>bold</b>"},
            {"type": "image", "mimeType": "image/png", "url": "javascript:window.__xss = 3"},
            {"type": "file", "mimeType": "application/pdf", "data": b64("doc.pdf"), "name": "\"><script>window.__xss=4</script>.pdf"}]},
        {"role": "assistant", "content": [
            {"type": "tool_call", "id": "</code><script>window.__xss=5</script>", "name": "<img src=x onerror=alert(1)>",
             "arguments": {"html": "</textarea><svg onload=alert(1)>"}}]}
    ]})
}

fn view(args: &[&str], stdin: &str) -> Run {
    let mut all = vec!["view"];
    all.extend_from_slice(args);
    run_with_stdin(&all, stdin.as_bytes())
}

#[test]
fn a_transcript_page_shows_turns_images_pairs_and_findings() {
    let run = view(&[], &transcript().to_string());
    assert_eq!(run.code, 0, "{}", run.stderr);
    let page = &run.stdout;
    assert!(page.starts_with("<!doctype html>"));
    assert_eq!(
        page.matches("<img class=\"thumb\"").count(),
        2,
        "two images"
    );
    assert_eq!(page.matches("<div class=\"tool-call\"").count(), 2);
    assert_eq!(
        page.matches("<span class=\"mark good\">answered</span>")
            .count(),
        1
    );
    assert_eq!(
        page.matches("<span class=\"mark bad\">unanswered</span>")
            .count(),
        1
    );
    assert_eq!(
        page.matches("<div class=\"tool-result orphan\">").count(),
        1
    );
    assert!(page.contains("result of <a href=\"#call-1\">call 1</a>"));
    // The mismatched image is a finding, at the top of the document.
    assert!(
        page.contains("<span class=\"rule\">media-type-mismatch</span>"),
        "{page}"
    );
    assert!(page.contains("<span class=\"rule\">tool-call-unanswered</span>"));
    // Each image's facts and estimates: 640x480 is two 512-px tiles at high detail.
    assert!(page.contains("image/png · 640×480 px"));
    assert!(
        page.contains("tokens ≈ OpenAI 425 high / 85 low · Anthropic 410 · Gemini 258"),
        "{page}"
    );
    // The thumbnail is partkit's own, at most 200 px.
    assert!(page.contains("<span class=\"mismatch\">declared image/jpeg</span>"));
    assert!(
        run.stderr
            .contains("wrote stdout: 1 document, 2 images, 2 tool calls"),
        "{}",
        run.stderr
    );
    // A summary: and no index for one document.
    assert!(page.contains("1 document · 2 images · 2 tool calls (1 unanswered, 1 orphan result)"));
    assert!(!page.contains("<tr data-line"));
}

#[test]
fn recorded_text_never_becomes_markup_or_a_url() {
    let run = view(&[], &hostile().to_string());
    assert_eq!(run.code, 0, "{}", run.stderr);
    let page = &run.stdout;
    // partkit's one script, and no other element the recording names.
    assert_eq!(page.matches("<script").count(), 1);
    for raw in ["<img src=x", "<svg", "</textarea>", "<b>"] {
        assert!(!page.contains(raw), "{raw} reached the page as markup");
    }
    // No tag on the page carries an event handler.
    for tag in page.split('<').skip(1) {
        let tag = &tag[..tag.find('>').unwrap_or(tag.len())];
        assert!(!tag.contains(" on"), "<{tag}>");
    }
    assert!(page.contains("&lt;script&gt;window.__xss = 1&lt;/script&gt;"));
    // The URL is shown as text; no attribute holds it.
    assert!(page.contains("URL, not fetched: <code>javascript:window.__xss = 3</code>"));
    assert!(!page.contains("=\"javascript:"));
    // Every src is a data: URL partkit made; every href an anchor of the page.
    for (at, _) in page.match_indices(" src=\"") {
        assert!(
            page[at + 6..].starts_with("data:image/") || page[at + 6..].starts_with("data:audio/")
        );
    }
    for (at, _) in page.match_indices(" href=\"") {
        assert!(page[at + 7..].starts_with('#'));
    }
    // The policy allows only the page's own style and script.
    assert!(page.contains(
        "content=\"default-src 'none'; img-src data:; media-src data:; style-src 'sha256-"
    ));
}

#[test]
fn json_lines_get_an_index_and_lines_limit_the_range() {
    let reply = |n: usize| {
        json!({"tool_output_images": [
            {"image_url": format!("data:image/png;base64,{}", b64("tiny.png")), "label": format!("shot {n}")}],
         "step": n})
        .to_string()
    };
    let mut lines: Vec<String> = (1..=1000).map(reply).collect();
    lines[9] = "{not json".to_string();
    let input = lines.join("\n") + "\n";
    let run = view(&[], &input);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let page = &run.stdout;
    assert_eq!(page.matches("<section class=\"doc\"").count(), 1000);
    assert_eq!(page.matches("<tr data-line=").count(), 1000);
    assert_eq!(page.matches("<img class=\"thumb\"").count(), 999);
    assert!(
        page.contains("<section class=\"doc\" id=\"line-10\" data-line=\"10\" data-findings=\"1\"")
    );
    assert!(page.contains("<span class=\"rule\">invalid-json</span>"));
    assert!(page.contains("id=\"q\""), "the search box");
    let limited = view(&["--lines", "101-300"], &input);
    assert_eq!(
        limited.stdout.matches("<section class=\"doc\"").count(),
        200
    );
    assert!(
        limited.stdout.contains("id=\"line-101\"") && limited.stdout.contains("id=\"line-300\"")
    );
    assert!(
        !limited.stdout.contains("id=\"line-301\"") && !limited.stdout.contains("id=\"line-100\"")
    );
    for bad in ["0-3", "5-2", "x", "-"] {
        let run = view(&["--lines", bad], &input);
        assert_eq!(run.code, 2, "--lines {bad}: {}", run.stderr);
    }
}

#[test]
fn the_page_file_is_written_whole_or_not_at_all() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("t.json");
    std::fs::write(&input, transcript().to_string()).unwrap();
    let page = dir.path().join("page.html");
    let run = super::run(&[
        "view",
        input.to_str().unwrap(),
        "-o",
        page.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "");
    assert!(std::fs::read_to_string(&page)
        .unwrap()
        .ends_with("</html>\n"));
    // A missing input: exit 2, no page, no temporary file left.
    let missing = dir.path().join("nope.json");
    let other = dir.path().join("other.html");
    let run = super::run(&[
        "view",
        missing.to_str().unwrap(),
        "-o",
        other.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 2);
    assert!(!other.exists());
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(left.len(), 2, "only the input and the first page");
}

#[test]
fn findings_sit_where_they_point_in_every_shape() {
    // The same conversation in each shape: its findings (two undeclared tools
    // where the target takes calls without tools, the unanswered call, the
    // orphan result, the mismatched image) point into
    // each shape's own coordinates and land on the same elements.
    for shape in [
        "openai-chat",
        "openai-responses",
        "anthropic",
        "gemini",
        "bedrock",
    ] {
        let converted = run_with_stdin(
            &["convert", "--to", shape],
            transcript().to_string().as_bytes(),
        );
        assert_eq!(converted.code, 0, "{shape}: {}", converted.stderr);
        let run = view(&[], &converted.stdout);
        assert_eq!(run.code, 0, "{shape}: {}", run.stderr);
        let page = &run.stdout;
        assert!(
            page.contains(&format!("{shape} transcript</h2>")),
            "{shape}"
        );
        // Anthropic and Bedrock refuse calls in a request that declares no
        // tools, so converting there declares zoom and crop: their two
        // undeclared-tool findings (on two elements) are gone.
        let declared = matches!(shape, "anthropic" | "bedrock");
        assert_eq!(
            page.matches("<li class=\"finding").count(),
            if declared { 3 } else { 5 },
            "{shape}: {page}"
        );
        assert_eq!(
            page.matches("<ul class=\"findings inline\">").count(),
            if declared { 3 } else { 4 },
            "{shape}"
        );
        assert!(
            !page.contains("<ul class=\"findings\">"),
            "{shape}: a finding was left at the top"
        );
        assert_eq!(page.matches("<img class=\"thumb\"").count(), 2, "{shape}");
    }
}

#[test]
fn rollouts_parts_and_long_payloads() {
    let rollouts = run_with_stdin(
        &[
            "view",
            super::fixture("rollouts/rollouts.jsonl").to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(rollouts.code, 0, "{}", rollouts.stderr);
    assert_eq!(
        rollouts.stdout.matches("· NeMo Gym rollout</h2>").count(),
        4
    );
    assert_eq!(rollouts.stdout.matches("<img class=\"thumb\"").count(), 3);
    assert_eq!(rollouts.stdout.matches("<tr data-line=").count(), 4);
    let parts = json!([{"type": "text", "text": "hi"},
                      {"type": "image", "mimeType": "image/png", "data": b64("tiny.png")}]);
    let run = view(&[], &parts.to_string());
    assert!(run.stdout.contains("· canonical parts</h2>"));
    assert_eq!(run.stdout.matches("<img class=\"thumb\"").count(), 1);
    // A base64 payload inside a reply's JSON is shown cut, never whole.
    let payload = "QUJD".repeat(50_000);
    let reply = json!({"tool_output_images": [], "blob": payload, "log": "z ".repeat(3_000)});
    let run = view(&[], &reply.to_string());
    assert!(
        run.stdout.contains("… (199,900 more characters)"),
        "{}",
        &run.stdout[..2000]
    );
    assert!(run.stdout.contains("… (4,000 more characters)"));
    assert!(run.stdout.len() < 20_000);
}

#[test]
fn full_images_embeds_each_original_behind_its_thumbnail() {
    let input = transcript().to_string();
    let thumbs = view(&[], &input);
    let full = view(&["--full-images"], &input);
    assert_eq!(thumbs.stdout.matches("<img class=\"full\"").count(), 0);
    assert_eq!(
        full.stdout
            .matches("<details><summary><img class=\"thumb\"")
            .count(),
        2
    );
    assert_eq!(full.stdout.matches("<img class=\"full\"").count(), 2);
    // The 640x480 original is there byte for byte (re-encoded by partkit as canonical base64).
    let original = b64_of(&png_of(640, 480));
    assert!(full.stdout.contains(&format!(
        "<img class=\"full\" alt=\"\" src=\"data:image/png;base64,{original}\">"
    )));
    assert!(!thumbs.stdout.contains(&original));
}
