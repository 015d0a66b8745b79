//! `partkit validate` on transcripts (SPEC §6, issue 5): requests, message lists,
//! responses and single tool results in every shape. Every transcript rule of
//! `--list-rules` (from `transcript-invalid` to `target-unsupported`) fires, alone
//! and at the right JSON pointer, on a document made for it in each shape where
//! it applies; realistic documents in every shape, and whatever `partkit convert`
//! writes, fire nothing; tool-call arguments go through the CLI against declared
//! schemas by NeMo Guardrails' rules (more than 40 cases); media rules, `--fix`,
//! `--profile`, `--target`, `--from`, detection and JSON Lines work on transcripts.
//!
//! The clean documents under `tests/fixtures/validate-transcripts/` are committed
//! (README there); `committed_transcript_fixtures_match_their_recipe` rebuilds them
//! from the recipes below and fails if one drifts (`PARTKIT_BLESS=1` rewrites
//! them). Every other document is built here, from the media fixtures
//! (`tests/fixtures/tiny.*`, `doc.pdf`, `tone.wav`), and given on stdin (findings
//! then name `<stdin>`) or written to a temporary directory.

use std::fs;
use std::io::Cursor;
use std::path::{Path, PathBuf};

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use serde_json::{json, Value};

use super::{fixture, run, run_with_stdin, Run};

// ---------------------------------------------------------------------------
// Helpers

/// A fixture's bytes.
fn bytes(name: &str) -> Vec<u8> {
    fs::read(fixture(name)).unwrap_or_else(|e| panic!("fixture {name}: {e}"))
}

/// Canonical (standard, padded) base64 of a fixture.
fn b64(name: &str) -> String {
    STANDARD.encode(bytes(name))
}

/// A base64 data URL of a fixture, declared as `mime`.
fn data_url(mime: &str, name: &str) -> String {
    format!("data:{mime};base64,{}", b64(name))
}

/// Runs `partkit validate ARGS` with `stdin`.
fn validate(args: &[&str], stdin: &str) -> Run {
    let mut all = vec!["validate"];
    all.extend_from_slice(args);
    run_with_stdin(&all, stdin.as_bytes())
}

/// Runs `partkit validate ARGS` with empty stdin.
fn validate_paths(args: &[&str]) -> Run {
    let mut all = vec!["validate"];
    all.extend_from_slice(args);
    run(&all)
}

/// stderr with the timing of the summary line (`in 0.0 s:`) replaced by `in T s:`.
fn masked(stderr: &str) -> String {
    stderr
        .lines()
        .map(|line| {
            let Some(rest) = line.strip_prefix("partkit: checked ") else {
                return format!("{line}\n");
            };
            let (Some(at), Some(end)) = (rest.find(" in "), rest.find(" s: ")) else {
                return format!("{line}\n");
            };
            let timing = &rest[at + 4..end];
            assert!(
                timing.bytes().all(|b| b.is_ascii_digit() || b == b'.'),
                "timing {timing:?} in {line:?}"
            );
            format!(
                "partkit: checked {} in T s: {}\n",
                &rest[..at],
                &rest[end + 4..]
            )
        })
        .collect()
}

/// One finding line as `validate` prints it.
fn finding(path: &str, line: usize, rule: &str, pointer: &str, message: &str) -> String {
    if pointer.is_empty() {
        format!("{path}:{line}: error[{rule}]: {message}")
    } else {
        format!("{path}:{line}: error[{rule}] {pointer}: {message}")
    }
}

/// An error finding in the document read from stdin.
fn stdin_error(rule: &str, pointer: &str, message: &str) -> String {
    finding("<stdin>", 1, rule, pointer, message)
}

fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

/// The summary of a run over `documents` documents holding `images` images
/// with `errors` errors.
fn summary(documents: usize, images: usize, errors: usize) -> String {
    format!(
        "partkit: checked {}, {} in T s: {}\n",
        plural(documents, "document"),
        plural(images, "image"),
        plural(errors, "error")
    )
}

/// Asserts exit code, stdout (exactly `lines`) and stderr (exactly `stderr`,
/// timing masked) together.
fn assert_run(run: &Run, code: i32, lines: &[String], stderr: &str) {
    let stdout: String = lines.iter().map(|l| format!("{l}\n")).collect();
    assert_eq!(
        (run.code, run.stdout.as_str(), masked(&run.stderr).as_str()),
        (code, stdout.as_str(), stderr),
        "exit code, stdout, stderr"
    );
}

/// Asserts a clean run over one document holding `images` images.
fn assert_clean(run: &Run, images: usize) {
    assert_run(run, 0, &[], &summary(1, images, 0));
}

/// A file in a fresh temporary directory (kept alive by the returned guard).
fn temp_file(name: &str, contents: &[u8]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join(name);
    fs::write(&file, contents).expect("write temp file");
    (dir, file)
}

fn arg(path: &Path) -> &str {
    path.to_str().expect("temp paths are UTF-8")
}

/// A PNG encoded by the `image` crate: `width`×`height`, one colour.
fn png_of(width: u32, height: u32) -> Vec<u8> {
    let mut out = Cursor::new(Vec::new());
    image::RgbImage::from_pixel(width, height, image::Rgb([30, 120, 200]))
        .write_to(&mut out, image::ImageFormat::Png)
        .expect("encode");
    out.into_inner()
}

// ---------------------------------------------------------------------------
// The shapes

/// The six shapes a transcript can have, as `--from` spells them.
const SHAPES: [&str; 6] = [
    "openai-chat",
    "openai-responses",
    "anthropic",
    "gemini",
    "bedrock",
    "canonical",
];

/// The JSON Schema most tests declare for `get_chart`.
fn chart_schema() -> Value {
    json!({"type": "object",
           "properties": {"city": {"type": "string"}, "days": {"type": "integer", "minimum": 1}},
           "required": ["city"]})
}

// OpenAI Chat Completions.

fn chat(messages: Value) -> Value {
    json!({"model": "gpt-4o", "messages": messages})
}

fn chat_with_tools(tools: Value, messages: Value) -> Value {
    json!({"model": "gpt-4o", "messages": messages, "tools": tools})
}

fn chat_tool(name: &str, parameters: Option<Value>) -> Value {
    let mut function = json!({"name": name, "description": format!("The {name} tool")});
    if let Some(parameters) = parameters {
        function["parameters"] = parameters;
    }
    json!({"type": "function", "function": function})
}

fn chat_user(text: &str) -> Value {
    json!({"role": "user", "content": text})
}

fn chat_call(id: &str, name: &str, arguments: &str) -> Value {
    json!({"id": id, "type": "function", "function": {"name": name, "arguments": arguments}})
}

fn chat_calls(calls: Vec<Value>) -> Value {
    json!({"role": "assistant", "content": null, "tool_calls": calls})
}

fn chat_result(id: &str, content: &str) -> Value {
    json!({"role": "tool", "tool_call_id": id, "content": content})
}

// OpenAI Responses.

fn responses(input: Value) -> Value {
    json!({"model": "gpt-4.1", "input": input})
}

fn responses_with_tools(tools: Value, input: Value) -> Value {
    json!({"model": "gpt-4.1", "input": input, "tools": tools})
}

fn responses_tool(name: &str, parameters: Option<Value>) -> Value {
    json!({"type": "function", "name": name, "description": format!("The {name} tool"),
           "parameters": parameters, "strict": false})
}

fn responses_user(text: &str) -> Value {
    json!({"role": "user", "content": text})
}

fn responses_call(id: &str, name: &str, arguments: &str) -> Value {
    json!({"type": "function_call", "call_id": id, "name": name, "arguments": arguments})
}

fn responses_result(id: &str, output: &str) -> Value {
    json!({"type": "function_call_output", "call_id": id, "output": output})
}

// Anthropic Messages (a string `system` makes the shape certain).

fn anthropic(messages: Value) -> Value {
    json!({"model": "claude-sonnet-4-5", "max_tokens": 1024, "system": "Be terse.", "messages": messages})
}

fn anthropic_with_tools(tools: Value, messages: Value) -> Value {
    json!({"model": "claude-sonnet-4-5", "max_tokens": 1024, "system": "Be terse.",
           "tools": tools, "messages": messages})
}

fn anthropic_tool(name: &str, schema: Value) -> Value {
    json!({"name": name, "description": format!("The {name} tool"), "input_schema": schema})
}

fn anthropic_user(text: &str) -> Value {
    json!({"role": "user", "content": text})
}

fn anthropic_blocks(role: &str, blocks: Vec<Value>) -> Value {
    json!({"role": role, "content": blocks})
}

fn anthropic_call(id: &str, name: &str, input: Value) -> Value {
    json!({"type": "tool_use", "id": id, "name": name, "input": input})
}

fn anthropic_result(id: &str, content: &str) -> Value {
    json!({"type": "tool_result", "tool_use_id": id, "content": content})
}

// Gemini generateContent.

fn gemini(contents: Value) -> Value {
    json!({"contents": contents})
}

fn gemini_with_tools(declarations: Value, contents: Value) -> Value {
    json!({"contents": contents, "tools": [{"functionDeclarations": declarations}]})
}

fn gemini_tool(name: &str, schema: Option<Value>) -> Value {
    let mut declaration = json!({"name": name, "description": format!("The {name} tool")});
    if let Some(schema) = schema {
        declaration["parametersJsonSchema"] = schema;
    }
    declaration
}

fn gemini_user(text: &str) -> Value {
    json!({"role": "user", "parts": [{"text": text}]})
}

fn gemini_parts(role: &str, parts: Vec<Value>) -> Value {
    json!({"role": role, "parts": parts})
}

fn gemini_call(id: Option<&str>, name: &str, args: Value) -> Value {
    let mut call = json!({"name": name, "args": args});
    if let Some(id) = id {
        call = json!({"id": id, "name": name, "args": args});
    }
    json!({"functionCall": call})
}

fn gemini_result(id: Option<&str>, name: &str, output: &str) -> Value {
    let mut response = json!({"name": name, "response": {"output": output}});
    if let Some(id) = id {
        response = json!({"id": id, "name": name, "response": {"output": output}});
    }
    json!({"functionResponse": response})
}

// Bedrock Converse (`modelId` makes the shape certain).

fn bedrock(messages: Value) -> Value {
    json!({"modelId": "anthropic.claude-3-5-sonnet", "messages": messages})
}

fn bedrock_with_tools(tools: Value, messages: Value) -> Value {
    json!({"modelId": "anthropic.claude-3-5-sonnet", "messages": messages, "toolConfig": {"tools": tools}})
}

fn bedrock_tool(name: &str, schema: Value) -> Value {
    json!({"toolSpec": {"name": name, "description": format!("The {name} tool"), "inputSchema": {"json": schema}}})
}

fn bedrock_blocks(role: &str, blocks: Vec<Value>) -> Value {
    json!({"role": role, "content": blocks})
}

fn bedrock_user(text: &str) -> Value {
    bedrock_blocks("user", vec![json!({"text": text})])
}

fn bedrock_call(id: &str, name: &str, input: Value) -> Value {
    json!({"toolUse": {"toolUseId": id, "name": name, "input": input}})
}

fn bedrock_result(id: &str, text: &str) -> Value {
    json!({"toolResult": {"toolUseId": id, "content": [{"text": text}]}})
}

// Canonical (read with `--from canonical`).

fn canonical(messages: Value) -> Value {
    json!({"messages": messages})
}

fn canonical_with_tools(tools: Value, messages: Value) -> Value {
    json!({"tools": tools, "messages": messages})
}

fn canonical_tool(name: &str, parameters: Option<Value>) -> Value {
    let mut tool = json!({"name": name, "description": format!("The {name} tool")});
    if let Some(parameters) = parameters {
        tool["parameters"] = parameters;
    }
    tool
}

fn text(text: &str) -> Value {
    json!({"type": "text", "text": text})
}

fn canonical_blocks(role: &str, blocks: Vec<Value>) -> Value {
    json!({"role": role, "content": blocks})
}

fn canonical_user(words: &str) -> Value {
    canonical_blocks("user", vec![text(words)])
}

fn canonical_call(id: &str, name: &str, arguments: Value) -> Value {
    json!({"type": "tool_call", "id": id, "name": name, "arguments": arguments})
}

fn canonical_result(id: &str, name: &str, words: &str) -> Value {
    json!({"type": "tool_result", "call_id": id, "name": name, "is_error": false, "content": [text(words)]})
}

fn canonical_results(results: Vec<Value>) -> Value {
    canonical_blocks("tool", results)
}

// ---------------------------------------------------------------------------
// The committed clean fixtures: a request, a response and a single tool result
// in every shape (tests/fixtures/validate-transcripts/README.md)

/// `openai-chat/request.json`: system prompt; a user image with detail; two
/// parallel calls (one with `5.0` days, an integer) answered by consecutive tool
/// messages; the screenshot delivered in a following user message (two-message
/// delivery); a user PDF file part and WAV audio.
fn chat_request() -> Value {
    json!({
        "model": "gpt-4o",
        "messages": [
            {"role": "system", "content": "You are a terse assistant."},
            {"role": "user", "content": [
                {"type": "text", "text": "Chart Paris for five days and take a screenshot."},
                {"type": "image_url", "image_url": {"url": data_url("image/png", "tiny.png"), "detail": "low"}}]},
            chat_calls(vec![
                chat_call("call_paris", "get_chart", r#"{"city":"Paris","days":5.0}"#),
                chat_call("call_shot", "screenshot", "{}")]),
            chat_result("call_paris", "Chart for Paris: rising."),
            chat_result("call_shot", "[tool returned media; see the next user message]"),
            {"role": "user", "content": [
                {"type": "text", "text": "Output of tool screenshot (call_shot):"},
                {"type": "image_url", "image_url": {"url": data_url("image/jpeg", "tiny.jpg")}}]},
            {"role": "assistant", "content": "Paris is rising; the screenshot shows the chart."},
            {"role": "user", "content": [
                {"type": "text", "text": "Read this and listen to that."},
                {"type": "file", "file": {"filename": "doc.pdf", "file_data": data_url("application/pdf", "doc.pdf")}},
                {"type": "input_audio", "input_audio": {"data": b64("tone.wav"), "format": "wav"}}]}
        ],
        "tools": [
            {"type": "function", "function": {"name": "get_chart", "description": "Render a chart for a city",
                                              "parameters": chart_schema()}},
            {"type": "function", "function": {"name": "screenshot", "description": "Capture the screen"}}
        ],
        "tool_choice": "auto",
        "max_tokens": 1024,
        "temperature": 0.2
    })
}

/// `openai-chat/response.json`: a chat.completion whose message calls a tool.
fn chat_response() -> Value {
    json!({
        "id": "chatcmpl-1", "object": "chat.completion", "created": 1700000000, "model": "gpt-4o",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
            "role": "assistant", "content": null,
            "tool_calls": [chat_call("call_rome", "get_chart", r#"{"city":"Rome"}"#)]}}],
        "usage": {"prompt_tokens": 20, "completion_tokens": 5, "total_tokens": 25}
    })
}

/// `openai-chat/tool-result.json`: one tool message with text parts.
fn chat_tool_result() -> Value {
    json!({"role": "tool", "tool_call_id": "call_paris", "content": [{"type": "text", "text": "Chart for Paris: rising."}]})
}

/// `openai-responses/request.json`: instructions; a user image (with detail)
/// and PDF; a call answered by an array output holding an image without
/// detail (allowed there); a hosted web_search tool and its call item.
fn responses_request() -> Value {
    json!({
        "model": "gpt-4.1",
        "instructions": "You are a terse assistant.",
        "input": [
            {"role": "user", "content": [
                {"type": "input_text", "text": "Chart Paris, search the web, and read the report."},
                {"type": "input_image", "image_url": data_url("image/png", "tiny.png"), "detail": "auto"},
                {"type": "input_file", "filename": "doc.pdf", "file_data": data_url("application/pdf", "doc.pdf")}]},
            {"type": "web_search_call", "id": "ws_1", "status": "completed",
             "action": {"type": "search", "query": "Paris weather"}},
            {"type": "function_call", "id": "fc_1", "call_id": "call_paris", "name": "get_chart",
             "arguments": r#"{"city":"Paris"}"#, "status": "completed"},
            {"type": "function_call_output", "call_id": "call_paris", "output": [
                {"type": "input_text", "text": "Chart for Paris:"},
                {"type": "input_image", "image_url": data_url("image/png", "tiny.png")}]},
            {"role": "assistant", "content": "Paris is rising and sunny."},
            {"role": "user", "content": "Thanks."}
        ],
        "tools": [responses_tool("get_chart", Some(chart_schema())), {"type": "web_search"}],
        "max_output_tokens": 1024
    })
}

/// `openai-responses/response.json`: a response with a message and a call.
fn responses_response() -> Value {
    json!({
        "id": "resp_1", "object": "response", "created_at": 1700000000, "status": "completed", "model": "gpt-4.1",
        "output": [
            {"type": "message", "id": "msg_1", "status": "completed", "role": "assistant",
             "content": [{"type": "output_text", "text": "Charting Rome.", "annotations": []}]},
            {"type": "function_call", "id": "fc_2", "call_id": "call_rome", "name": "get_chart",
             "arguments": r#"{"city":"Rome"}"#, "status": "completed"}],
        "usage": {"input_tokens": 20, "output_tokens": 5, "total_tokens": 25}
    })
}

/// `openai-responses/tool-result.json`: one function_call_output.
fn responses_tool_result() -> Value {
    responses_result("call_paris", "Chart for Paris: rising.")
}

/// `anthropic/request.json`: a user image and PDF document; two calls (one to
/// a tool with an empty object schema) answered in the next message before its
/// text, one with a PNG and one with a JPEG; a server tool (web search) used
/// through server_tool_use.
fn anthropic_request() -> Value {
    let image = |mime: &str, name: &str| json!({"type": "image", "source": {"type": "base64", "media_type": mime, "data": b64(name)}});
    json!({
        "model": "claude-sonnet-4-5",
        "max_tokens": 1024,
        "system": "You are a terse assistant.",
        "tools": [
            anthropic_tool("get_chart", chart_schema()),
            anthropic_tool("screenshot", json!({"type": "object", "properties": {}})),
            {"type": "web_search_20250305", "name": "web_search", "max_uses": 3}
        ],
        "messages": [
            anthropic_blocks("user", vec![
                text("Chart Paris, take a screenshot, and read the report."),
                image("image/png", "tiny.png"),
                json!({"type": "document", "title": "doc.pdf",
                       "source": {"type": "base64", "media_type": "application/pdf", "data": b64("doc.pdf")}})]),
            anthropic_blocks("assistant", vec![
                text("Calling the tools."),
                anthropic_call("toolu_01", "get_chart", json!({"city": "Paris"})),
                anthropic_call("toolu_02", "screenshot", json!({}))]),
            anthropic_blocks("user", vec![
                json!({"type": "tool_result", "tool_use_id": "toolu_01",
                       "content": [text("Chart for Paris:"), image("image/png", "tiny.png")]}),
                json!({"type": "tool_result", "tool_use_id": "toolu_02", "content": [image("image/jpeg", "tiny.jpg")]}),
                text("And search the web for the weather.")]),
            anthropic_blocks("assistant", vec![
                json!({"type": "server_tool_use", "id": "srvtoolu_01", "name": "web_search",
                       "input": {"query": "Paris weather"}}),
                json!({"type": "web_search_tool_result", "tool_use_id": "srvtoolu_01", "content": []}),
                text("Rising, and sunny.")]),
            anthropic_user("Thanks.")
        ]
    })
}

/// `anthropic/response.json`: a message calling a tool.
fn anthropic_response() -> Value {
    json!({
        "id": "msg_01", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
        "content": [text("Charting Rome."), anthropic_call("toolu_03", "get_chart", json!({"city": "Rome"}))],
        "stop_reason": "tool_use", "stop_sequence": null,
        "usage": {"input_tokens": 20, "output_tokens": 5}
    })
}

/// `anthropic/tool-result.json`: one tool_result block with text and an image.
fn anthropic_tool_result() -> Value {
    json!({"type": "tool_result", "tool_use_id": "toolu_01", "is_error": false, "content": [
        text("Chart for Paris:"),
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": b64("tiny.png")}}]})
}

/// `gemini/request.json`: a user image; two id-less calls to the same function
/// answered in order in one user Content, the first with an image under
/// functionResponse.parts; declarations with parametersJsonSchema and with
/// OpenAPI parameters.
fn gemini_request() -> Value {
    json!({
        "systemInstruction": {"role": "user", "parts": [{"text": "You are a terse assistant."}]},
        "contents": [
            gemini_parts("user", vec![
                json!({"text": "Chart Paris and Rome."}),
                json!({"inlineData": {"mimeType": "image/png", "data": b64("tiny.png")}})]),
            gemini_parts("model", vec![
                gemini_call(None, "get_chart", json!({"city": "Paris"})),
                gemini_call(None, "get_chart", json!({"city": "Rome"}))]),
            gemini_parts("user", vec![
                json!({"functionResponse": {"name": "get_chart", "response": {"output": "rising"},
                       "parts": [{"inlineData": {"mimeType": "image/png", "data": b64("tiny.png"),
                                                 "displayName": "paris.png"}}]}}),
                gemini_result(None, "get_chart", "falling")]),
            gemini_parts("model", vec![json!({"text": "Paris rises, Rome falls."})]),
            gemini_user("What is the weather in Rome?"),
            gemini_parts("model", vec![gemini_call(Some("call_w"), "get_weather", json!({"city": "Rome"}))]),
            gemini_parts("user", vec![gemini_result(Some("call_w"), "get_weather", "sunny")])
        ],
        "tools": [{"functionDeclarations": [
            {"name": "get_chart", "description": "Render a chart for a city", "parametersJsonSchema": chart_schema()},
            {"name": "get_weather", "description": "The weather in a city",
             "parameters": {"type": "OBJECT", "properties": {"city": {"type": "STRING"}}, "required": ["city"]}}]}],
        "generationConfig": {"maxOutputTokens": 1024, "temperature": 0.2}
    })
}

/// `gemini/response.json`: a candidate calling a function.
fn gemini_response() -> Value {
    json!({
        "candidates": [{"content": gemini_parts("model", vec![gemini_call(Some("call_1"), "get_chart", json!({"city": "Rome"}))]),
                        "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 20, "candidatesTokenCount": 5, "totalTokenCount": 25},
        "modelVersion": "gemini-2.5-flash"
    })
}

/// `gemini/tool-result.json`: a lone user Content with one functionResponse.
fn gemini_tool_result() -> Value {
    gemini_parts(
        "user",
        vec![gemini_result(Some("call_1"), "get_chart", "falling")],
    )
}

/// `bedrock/request.json`: a user image and a document named in Bedrock's
/// alphabet; a call answered by a toolResult with JSON, text and an image,
/// beside the user's text in the same (alternating) user message.
fn bedrock_request() -> Value {
    json!({
        "modelId": "anthropic.claude-3-5-sonnet-20240620-v1:0",
        "system": [{"text": "You are a terse assistant."}],
        "messages": [
            bedrock_blocks("user", vec![
                json!({"text": "Chart Paris and read the report."}),
                json!({"image": {"format": "png", "source": {"bytes": b64("tiny.png")}}}),
                json!({"document": {"format": "pdf", "name": "Report 2024 (final) [v2]",
                                    "source": {"bytes": b64("doc.pdf")}}})]),
            bedrock_blocks("assistant", vec![
                json!({"text": "Calling the tool."}),
                bedrock_call("tooluse_01", "get_chart", json!({"city": "Paris"}))]),
            bedrock_blocks("user", vec![
                json!({"toolResult": {"toolUseId": "tooluse_01", "status": "success", "content": [
                    {"json": {"trend": "rising"}},
                    {"text": "Chart:"},
                    {"image": {"format": "jpeg", "source": {"bytes": b64("tiny.jpg")}}}]}}),
                json!({"text": "And Rome?"})]),
            bedrock_blocks("assistant", vec![json!({"text": "Rome is falling."})])
        ],
        "toolConfig": {"tools": [bedrock_tool("get_chart", chart_schema())], "toolChoice": {"auto": {}}},
        "inferenceConfig": {"maxTokens": 1024, "temperature": 0.2}
    })
}

/// `bedrock/response.json`: a Converse response calling a tool.
fn bedrock_response() -> Value {
    json!({
        "output": {"message": bedrock_blocks("assistant", vec![
            json!({"text": "Charting Rome."}),
            bedrock_call("tooluse_02", "get_chart", json!({"city": "Rome"}))])},
        "stopReason": "tool_use",
        "usage": {"inputTokens": 20, "outputTokens": 5, "totalTokens": 25},
        "metrics": {"latencyMs": 120}
    })
}

/// `bedrock/tool-result.json`: one toolResult block.
fn bedrock_tool_result() -> Value {
    json!({"toolResult": {"toolUseId": "tooluse_01", "status": "success", "content": [{"text": "rising"}]}})
}

/// `canonical/request.json`: partkit's own transcript with every part type,
/// a no-parameter tool, calls and results with media, an error result.
fn canonical_request() -> Value {
    let media = |kind: &str, mime: &str, name: &str| json!({"type": kind, "mimeType": mime, "data": b64(name)});
    json!({
        "model": "test-model",
        "max_tokens": 1024,
        "system": [text("You are a terse assistant.")],
        "tools": [canonical_tool("get_chart", Some(chart_schema())), canonical_tool("screenshot", None)],
        "tool_choice": "auto",
        "messages": [
            canonical_blocks("user", vec![
                text("Chart Paris and Rome, take a screenshot, read and listen."),
                media("image", "image/png", "tiny.png"),
                media("file", "application/pdf", "doc.pdf"),
                media("audio", "audio/wav", "tone.wav")]),
            canonical_blocks("assistant", vec![
                text("Calling the tools."),
                canonical_call("call_paris", "get_chart", json!({"city": "Paris", "days": 5.0})),
                canonical_call("call_rome", "get_chart", json!({"city": "Rome"})),
                canonical_call("call_shot", "screenshot", json!({}))]),
            canonical_results(vec![
                canonical_result("call_paris", "get_chart", "rising"),
                json!({"type": "tool_result", "call_id": "call_rome", "name": "get_chart", "is_error": true,
                       "content": [text("no data for Rome")]}),
                json!({"type": "tool_result", "call_id": "call_shot", "name": "screenshot", "is_error": false,
                       "content": [media("image", "image/jpeg", "tiny.jpg")]})]),
            canonical_blocks("assistant", vec![text("Paris is rising.")])
        ]
    })
}

/// `canonical/response.json`: a canonical transcript written as a response.
fn canonical_response() -> Value {
    json!({
        "model": "test-model",
        "messages": [canonical_blocks("assistant", vec![
            text("Charting Rome."),
            canonical_call("call_rome", "get_chart", json!({"city": "Rome"}))])],
        "extensions": {"canonical": {"$form": "response"}}
    })
}

/// `canonical/tool-result.json`: one canonical tool_result block with an image.
fn canonical_tool_result() -> Value {
    json!({"type": "tool_result", "call_id": "call_shot", "name": "screenshot", "is_error": false,
           "content": [text("Screen:"), {"type": "image", "mimeType": "image/png", "data": b64("tiny.png")}]})
}

/// Every committed fixture: (shape, file name, recipe, images it holds).
fn clean_fixtures() -> Vec<(&'static str, &'static str, Value, usize)> {
    vec![
        ("openai-chat", "request.json", chat_request(), 2),
        ("openai-chat", "response.json", chat_response(), 0),
        ("openai-chat", "tool-result.json", chat_tool_result(), 0),
        ("openai-responses", "request.json", responses_request(), 2),
        ("openai-responses", "response.json", responses_response(), 0),
        (
            "openai-responses",
            "tool-result.json",
            responses_tool_result(),
            0,
        ),
        ("anthropic", "request.json", anthropic_request(), 3),
        ("anthropic", "response.json", anthropic_response(), 0),
        ("anthropic", "tool-result.json", anthropic_tool_result(), 1),
        ("gemini", "request.json", gemini_request(), 2),
        ("gemini", "response.json", gemini_response(), 0),
        ("gemini", "tool-result.json", gemini_tool_result(), 0),
        ("bedrock", "request.json", bedrock_request(), 2),
        ("bedrock", "response.json", bedrock_response(), 0),
        ("bedrock", "tool-result.json", bedrock_tool_result(), 0),
        ("canonical", "request.json", canonical_request(), 2),
        ("canonical", "response.json", canonical_response(), 0),
        ("canonical", "tool-result.json", canonical_tool_result(), 1),
    ]
}

const TRANSCRIPTS: &str = "tests/fixtures/validate-transcripts";

/// A committed fixture's text: the recipe, pretty-printed, with a final newline.
fn fixture_text(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap() + "\n"
}

#[test]
fn committed_transcript_fixtures_match_their_recipe() {
    let bless = std::env::var_os("PARTKIT_BLESS").is_some();
    for (shape, name, value, _) in clean_fixtures() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(TRANSCRIPTS)
            .join(shape)
            .join(name);
        if bless {
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(&path, fixture_text(&value)).unwrap();
        }
        let committed = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        assert_eq!(
            committed,
            fixture_text(&value),
            "{shape}/{name} drifted from its recipe"
        );
    }
}

#[test]
fn clean_fixtures_fire_nothing_in_every_shape() {
    let fixtures = clean_fixtures();
    let images: usize = fixtures.iter().map(|(_, _, _, images)| images).sum();
    // The whole folder, shapes detected, with every check turned on.
    let run = validate_paths(&[TRANSCRIPTS, "--deep", "--deny-warnings"]);
    assert_run(&run, 0, &[], &summary(fixtures.len(), images, 0));
    for (shape, name, value, images) in fixtures {
        let path = format!("{TRANSCRIPTS}/{shape}/{name}");
        // Forced to its shape; with a provider's limits; alone on stdin.
        for args in [
            vec![path.as_str(), "--from", shape, "--deny-warnings"],
            vec![
                path.as_str(),
                "--kind",
                "transcript",
                "--profile",
                "anthropic",
            ],
            vec![path.as_str(), "--profile", "openai"],
        ] {
            let run = validate_paths(&args);
            assert_eq!(
                (run.code, run.stdout.as_str(), masked(&run.stderr)),
                (0, "", summary(1, images, 0)),
                "{args:?}"
            );
        }
        let run = validate(&["--deep"], &value.to_string());
        assert_eq!(
            (run.code, run.stdout.as_str()),
            (0, ""),
            "{shape}/{name} on stdin"
        );
    }
}

/// A request's message list as a bare list (the shape's `messages`, `input` or
/// `contents`), without the tools, system prompt and settings around it.
fn message_list(shape: &str, request: &Value) -> Value {
    let key = match shape {
        "openai-responses" => "input",
        "gemini" => "contents",
        _ => "messages",
    };
    request[key].clone()
}

#[test]
fn clean_message_lists_fire_nothing_in_every_shape() {
    for (shape, name, value, images) in clean_fixtures() {
        if name != "request.json" {
            continue;
        }
        let list = message_list(shape, &value).to_string();
        let run = validate(&["--from", shape, "--deep", "--deny-warnings"], &list);
        assert_eq!(
            (run.code, run.stdout.as_str(), masked(&run.stderr)),
            (0, "", summary(1, images, 0)),
            "{shape} list"
        );
        // Detected from its items, except canonical (whose parts fit other shapes).
        if shape != "canonical" {
            let run = validate(&["--deny-warnings"], &list);
            assert_eq!(
                (run.code, run.stdout.as_str(), masked(&run.stderr)),
                (0, "", summary(1, images, 0)),
                "{shape} list, detected"
            );
        }
    }
}

#[test]
fn a_bare_list_of_plain_text_messages_validates_clean() {
    let list = json!([
        {"role": "system", "content": "You are terse."},
        {"role": "user", "content": "Capital of France?"},
        {"role": "assistant", "content": "Paris."},
        {"role": "user", "content": "And of Italy?"}
    ]);
    // Guessed as OpenAI Chat (plain text messages fit several shapes).
    let run = validate(&["--deny-warnings"], &list.to_string());
    assert_clean(&run, 0);
    // Every shape that takes string content reads it clean too.
    for shape in ["openai-chat", "openai-responses", "anthropic", "canonical"] {
        let list = if shape == "anthropic" {
            json!([{"role": "user", "content": "Capital of France?"}, {"role": "assistant", "content": "Paris."}])
        } else {
            list.clone()
        };
        let run = validate(&["--from", shape], &list.to_string());
        assert_eq!(
            (run.code, run.stdout.as_str()),
            (0, ""),
            "{shape}: {}",
            run.stderr
        );
    }
}

// ---------------------------------------------------------------------------
// Whatever partkit writes, partkit validates clean

/// The conversion test transcripts (conformance/transcripts/*.json, canonical).
fn conformance_transcripts() -> Vec<(String, PathBuf)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance/transcripts");
    let mut files: Vec<(String, PathBuf)> = fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "json"))
        .map(|path| {
            (
                format!(
                    "conformance/{}",
                    path.file_name().unwrap().to_string_lossy()
                ),
                path,
            )
        })
        .collect();
    files.sort();
    assert!(files.len() >= 3, "{files:?}");
    files
}

/// Converts `input` (of shape `from`) to `to` with `options`; `None` when
/// `convert` refuses (exit 1), else the output.
fn converted(input: &Path, from: &str, to: &str, options: &[&str]) -> Option<String> {
    let mut args = vec!["convert", "--from", from, "--to", to, arg(input)];
    args.extend_from_slice(options);
    let run = run(&args);
    match run.code {
        0 => Some(run.stdout),
        1 => None,
        code => panic!("convert {args:?} exited {code}: {}", run.stderr),
    }
}

/// Validates what `convert` wrote, read as `shape` and detected: no finding.
/// (A canonical message list is not detected: see
/// `a_canonical_list_of_tool_messages_is_detected_as_canonical`.)
fn assert_output_clean(what: &str, shape: &str, output: &str, failures: &mut Vec<String>) {
    let mut runs = vec![vec!["--from", shape, "--deny-warnings"]];
    if !(shape == "canonical" && output.starts_with('[')) {
        runs.push(vec!["--deny-warnings"]);
    }
    for args in runs {
        let run = validate(&args, output);
        if run.code != 0 || !run.stdout.is_empty() {
            failures.push(format!(
                "{what} ({args:?}):\n{}{}\n{output}",
                run.stdout, run.stderr
            ));
        }
    }
}

/// Conversion outputs collected by shape in a temporary directory, validated
/// a folder at a time.
struct Outputs {
    dir: tempfile::TempDir,
    /// What each file is (`file name → input → target [options]`).
    origins: Vec<String>,
}

impl Outputs {
    fn new() -> Outputs {
        Outputs {
            dir: tempfile::tempdir().unwrap(),
            origins: Vec::new(),
        }
    }

    /// Keeps `output` (of `shape`) and returns its path. Canonical message lists
    /// go to a folder of their own (they are not detected, see
    /// `a_canonical_list_of_tool_messages_is_detected_as_canonical`).
    fn add(&mut self, what: String, shape: &str, output: &str) -> PathBuf {
        let folder = if shape == "canonical" && output.starts_with('[') {
            "canonical-lists"
        } else {
            shape
        };
        let name = format!("{:04}.json", self.origins.len());
        let path = self.dir.path().join(folder).join(&name);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, output).unwrap();
        self.origins.push(format!("{folder}/{name}: {what}"));
        path
    }

    /// Validates every output, read as its shape and detected: no finding.
    fn assert_clean(&self) {
        let folder = |name: &str| self.dir.path().join(name).to_string_lossy().into_owned();
        let mut runs: Vec<Vec<String>> = Vec::new();
        for shape in SHAPES {
            let mut folders = vec![folder(shape)];
            if shape == "canonical" {
                folders.push(folder("canonical-lists"));
            }
            let mut args = vec!["--from".to_string(), shape.to_string()];
            args.extend(folders.into_iter().filter(|f| Path::new(f).exists()));
            runs.push(args);
        }
        runs.push(
            SHAPES
                .iter()
                .map(|s| folder(s))
                .filter(|f| Path::new(f).exists())
                .collect(),
        );
        let mut checked = 0;
        for mut args in runs {
            args.push("--deny-warnings".to_string());
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let run = validate_paths(&args);
            assert!(
                run.code == 0 && run.stdout.is_empty(),
                "validate {args:?}:\n{}{}\nfiles:\n{}",
                run.stdout,
                run.stderr,
                self.origins.join("\n")
            );
            checked += 1;
        }
        assert_eq!(checked, 7);
    }
}

#[test]
fn every_conversion_output_validates_clean() {
    let mut inputs: Vec<(String, String, PathBuf)> = conformance_transcripts()
        .into_iter()
        .map(|(name, path)| (name, "canonical".to_string(), path))
        .collect();
    for (shape, name, _, _) in clean_fixtures() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(TRANSCRIPTS)
            .join(shape)
            .join(name);
        inputs.push((format!("{shape}/{name}"), shape.to_string(), path));
    }
    let mut outputs = Outputs::new();
    for (name, from, path) in &inputs {
        for to in SHAPES {
            for options in [
                &[][..],
                &["--on-unsupported", "text"],
                &["--tool-media", "lift"],
            ] {
                // A lifted single tool result for Gemini: see the ignored test below.
                if to == "gemini"
                    && options == ["--tool-media", "lift"]
                    && name.ends_with("tool-result.json")
                {
                    continue;
                }
                let Some(output) = converted(path, from, to, options) else {
                    continue;
                };
                let what = format!("{name} → {to} {options:?}");
                let file = outputs.add(what.clone(), to, &output);
                if !options.is_empty() {
                    continue;
                }
                // And once more around: the output converted to every shape.
                for again in SHAPES {
                    if let Some(twice) = converted(&file, to, again, &[]) {
                        outputs.add(format!("{what} → {again}"), again, &twice);
                    }
                }
            }
        }
    }
    assert!(
        outputs.origins.len() > 400,
        "only {} conversions",
        outputs.origins.len()
    );
    outputs.assert_clean();
}

#[test]
#[ignore = "bug: `convert --to gemini --tool-media lift` writes a single tool result as one Content holding the functionResponse and the lifted sibling parts, which partkit's Gemini reader refuses (\"must hold exactly one functionResponse part\")"]
fn a_lifted_single_tool_result_for_gemini_validates_clean() {
    let mut failures = Vec::new();
    for (shape, name, _, _) in clean_fixtures() {
        if name != "tool-result.json" {
            continue;
        }
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(TRANSCRIPTS)
            .join(shape)
            .join(name);
        let options = ["--tool-media", "lift", "--name", "get_chart"];
        if let Some(output) = converted(&path, shape, "gemini", &options) {
            assert_output_clean(
                &format!("{shape}/{name} → gemini lift"),
                "gemini",
                &output,
                &mut failures,
            );
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn a_canonical_list_of_tool_messages_is_detected_as_canonical() {
    // What `convert --to canonical` writes for a single OpenAI Chat tool message.
    let list = json!([canonical_results(vec![canonical_result(
        "call_paris",
        "get_chart",
        "rising"
    )])]);
    let run = validate(&[], &list.to_string());
    assert_clean(&run, 0);
}

// ---------------------------------------------------------------------------
// Every transcript rule, per shape

/// One document on stdin and exactly the findings it must give.
struct Case {
    what: String,
    /// Extra arguments (`--from canonical`, `--target …`).
    args: Vec<&'static str>,
    doc: Value,
    images: usize,
    /// (rule, pointer, message), in output order.
    want: Vec<(&'static str, String, String)>,
}

fn case(
    what: &str,
    args: &[&'static str],
    doc: Value,
    want: &[(&'static str, &str, &str)],
) -> Case {
    Case {
        what: what.to_string(),
        args: args.to_vec(),
        doc,
        images: 0,
        want: want
            .iter()
            .map(|(rule, pointer, message)| (*rule, pointer.to_string(), message.to_string()))
            .collect(),
    }
}

impl Case {
    fn images(mut self, images: usize) -> Case {
        self.images = images;
        self
    }
}

/// Runs every case twice (text and `--format json`) and asserts exit code,
/// stdout and the summary of each; reports every mismatch at once.
fn check(mut cases: Vec<Case>) {
    // Most cases show one rule on a request body whose calls need no tool
    // declarations to show it; that a body declaring no tools calls undeclared
    // ones is the cases of tool-undeclared.
    for case in &mut cases {
        if !case
            .want
            .iter()
            .any(|(rule, ..)| *rule == "tool-undeclared")
        {
            case.args.extend(["--ignore", "tool-undeclared"]);
        }
    }
    let mut failures = Vec::new();
    for case in &cases {
        let doc = case.doc.to_string();
        let lines: Vec<String> = case
            .want
            .iter()
            .map(|(rule, pointer, message)| stdin_error(rule, pointer, message))
            .collect();
        let code = if case.want.is_empty() { 0 } else { 1 };
        let stdout: String = lines.iter().map(|l| format!("{l}\n")).collect();
        let stderr = summary(1, case.images, case.want.len());
        let run = validate(&case.args, &doc);
        let got = (run.code, run.stdout.clone(), masked(&run.stderr));
        if got != (code, stdout.clone(), stderr.clone()) {
            failures.push(format!(
                "{} {:?}\n  want: {code} {stdout:?} {stderr:?}\n  got:  {} {:?} {:?}\n  doc: {doc}",
                case.what, case.args, got.0, got.1, got.2
            ));
            continue;
        }
        let mut args = case.args.clone();
        args.extend(["--format", "json"]);
        let run = validate(&args, &doc);
        let want: Vec<Value> = case
            .want
            .iter()
            .map(|(rule, pointer, message)| {
                json!({"path": "<stdin>", "line": 1, "severity": "error", "rule": rule,
                       "pointer": pointer, "message": message})
            })
            .collect();
        if (run.code, run.json_lines(), masked(&run.stderr)) != (code, want.clone(), stderr) {
            failures.push(format!("{} --format json: {:?}", case.what, run.stdout));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
}

/// The rules this file tests, in `--list-rules` order (all of them from
/// `transcript-invalid` on; tests/cli/validate.rs tests the others).
const TRANSCRIPT_RULES: [&str; 21] = [
    "transcript-invalid",
    "media-placement",
    "text-empty",
    "content-empty",
    "shape-field",
    "shape-order",
    "tool-id-missing",
    "tool-id-duplicate",
    "tool-id-pattern",
    "tool-call-unanswered",
    "tool-result-orphan",
    "tool-result-duplicate",
    "tool-result-position",
    "tool-undeclared",
    "tool-call-caught",
    "tool-duplicate-name",
    "tool-schema-invalid",
    "tool-arguments-json",
    "tool-arguments-not-object",
    "tool-arguments-schema",
    "target-unsupported",
];

#[test]
fn list_rules_ends_with_the_transcript_rules_this_file_tests() {
    let run = validate(&["--list-rules", "--format", "json"], "");
    assert_eq!((run.code, run.stderr.as_str()), (0, ""));
    let ids: Vec<String> = run
        .json_lines()
        .iter()
        .map(|rule| rule["rule"].as_str().unwrap().to_string())
        .collect();
    let from = ids
        .iter()
        .position(|id| id == "transcript-invalid")
        .unwrap();
    assert_eq!(
        ids[from..],
        TRANSCRIPT_RULES,
        "a new transcript rule needs its test here"
    );
    for rule in run.json_lines().iter().skip(from) {
        // A mistake the recording shows caught is legal history: a warning.
        let severity = if rule["rule"] == "tool-call-caught" {
            "warning"
        } else {
            "error"
        };
        assert_eq!(
            (&rule["severity"], &rule["fixable"]),
            (&json!(severity), &json!(false)),
            "{rule}"
        );
    }
}

#[test]
fn rule_transcript_invalid() {
    check(vec![
        case(
            "openai-chat: arguments as an object",
            &[],
            chat(json!([chat_user("Go."), chat_calls(vec![json!({"id": "call_1", "type": "function",
                "function": {"name": "get_chart", "arguments": {"city": "Paris"}}})])])),
            &[("transcript-invalid", "/messages/1/tool_calls/0/function/arguments",
               "not a valid openai-chat document: arguments must be a JSON string")],
        ),
        case(
            "openai-chat: an unknown role",
            &[],
            chat(json!([{"role": "wizard", "content": "Go."}])),
            &[("transcript-invalid", "/messages/0/role",
               "not a valid openai-chat document: role \"wizard\" is not supported (system, developer, user, assistant, tool)")],
        ),
        case(
            "openai-responses: arguments as an object",
            &[],
            responses(json!([responses_user("Go."), {"type": "function_call", "call_id": "call_1",
                "name": "get_chart", "arguments": {"city": "Paris"}}])),
            &[("transcript-invalid", "/input/1/arguments",
               "not a valid openai-responses document: arguments must be a JSON string")],
        ),
        case(
            "anthropic: a tool_use without a name",
            &[],
            anthropic(json!([anthropic_user("Go."), anthropic_blocks("assistant", vec![
                json!({"type": "tool_use", "id": "toolu_1", "input": {}})])])),
            &[("transcript-invalid", "/messages/1/content/0/name",
               "not a valid anthropic document: a tool_use block needs a name")],
        ),
        case(
            "gemini: a functionCall without a name",
            &[],
            gemini(json!([gemini_user("Go."), gemini_parts("model", vec![json!({"functionCall": {"args": {}}})])])),
            &[("transcript-invalid", "/contents/1/parts/0/functionCall/name",
               "not a valid gemini document: a functionCall needs a name")],
        ),
        case(
            "bedrock: a system role in messages",
            &[],
            bedrock(json!([bedrock_blocks("system", vec![json!({"text": "Be terse."})])])),
            &[("transcript-invalid", "/messages/0/role",
               "not a valid bedrock document: role is user or assistant")],
        ),
        case(
            "canonical: an unknown key",
            &["--from", "canonical"],
            json!({"messages": [canonical_user("Go.")], "temperatur": 0.2}),
            &[("transcript-invalid", "/temperatur",
               "not a valid canonical document: unknown key \"temperatur\" in a canonical transcript")],
        ),
        case(
            "canonical: a tool_call without a name",
            &[],
            canonical(json!([canonical_user("Go."), canonical_blocks("assistant", vec![
                json!({"type": "tool_call", "id": "call_1", "arguments": {}})])])),
            &[("transcript-invalid", "/messages/1/content/0",
               "not a valid canonical document: a tool_call needs a name")],
        ),
    ]);
}

/// An OpenAI Chat image part holding tiny.png.
fn chat_image() -> Value {
    json!({"type": "image_url", "image_url": {"url": data_url("image/png", "tiny.png")}})
}

/// An Anthropic base64 block (`image`, `audio`, …) holding a fixture.
fn anthropic_media(kind: &str, mime: &str, name: &str) -> Value {
    json!({"type": kind, "source": {"type": "base64", "media_type": mime, "data": b64(name)}})
}

#[test]
fn rule_media_placement() {
    const CHAT_TAIL: &str = "Chat Completions carries media only in user messages (deliver tool media in a following user message)";
    let chat_message = |role: &str, parts: Vec<Value>| json!({"role": role, "content": parts});
    let call = || chat_calls(vec![chat_call("call_1", "screenshot", "{}")]);
    let wav = || json!({"type": "input_audio", "input_audio": {"data": b64("tone.wav"), "format": "wav"}});
    check(vec![
        case(
            "openai-chat: an image in a tool message (message 234 of OpenHands#7700)",
            &[],
            chat(json!([chat_user("Screenshot, please."), call(),
                        {"role": "tool", "tool_call_id": "call_1", "content": [chat_image()]}])),
            &[("media-placement", "/messages/2/content/0",
               &format!("an image_url part in a tool message: {CHAT_TAIL}"))],
        )
        .images(1),
        case(
            "openai-chat: an image in an assistant message",
            &[],
            chat(json!([chat_user("Draw."), chat_message("assistant", vec![chat_image()])])),
            &[("media-placement", "/messages/1/content/0",
               &format!("an image_url part in an assistant message: {CHAT_TAIL}"))],
        )
        .images(1),
        case(
            "openai-chat: an image in a system message",
            &[],
            chat(json!([chat_message("system", vec![chat_image()]), chat_user("Hi.")])),
            &[("media-placement", "/messages/0/content/0",
               &format!("an image_url part in a system message: {CHAT_TAIL}"))],
        )
        .images(1),
        case(
            "openai-chat: audio in a tool message",
            &[],
            chat(json!([chat_user("Record."), call(),
                        {"role": "tool", "tool_call_id": "call_1", "content": [wav()]}])),
            &[("media-placement", "/messages/2/content/0",
               &format!("an input_audio part in a tool message: {CHAT_TAIL}"))],
        ),
        case(
            "openai-responses: audio in a message",
            &[],
            responses(json!([{"role": "user", "content": [{"type": "input_text", "text": "Transcribe."}, wav()]}])),
            &[("media-placement", "/input/0/content/1", "Responses input has no audio parts")],
        ),
        case(
            "openai-responses: audio in a function_call_output",
            &[],
            responses(json!([responses_user("Record."), responses_call("call_1", "record", "{}"),
                             {"type": "function_call_output", "call_id": "call_1", "output": [wav()]}])),
            &[("media-placement", "/input/2/output/0", "Responses input has no audio parts")],
        ),
        case(
            "anthropic: audio in a user message",
            &[],
            anthropic(json!([anthropic_blocks("user", vec![text("Transcribe."),
                anthropic_media("audio", "audio/wav", "tone.wav")])])),
            &[("media-placement", "/messages/0/content/1", "Anthropic has no audio blocks")],
        ),
        case(
            "anthropic: audio in a tool_result",
            &[],
            anthropic(json!([anthropic_user("Record."),
                anthropic_blocks("assistant", vec![anthropic_call("toolu_1", "record", json!({}))]),
                anthropic_blocks("user", vec![json!({"type": "tool_result", "tool_use_id": "toolu_1",
                    "content": [anthropic_media("audio", "audio/wav", "tone.wav")]})])])),
            &[("media-placement", "/messages/2/content/0/content/0", "Anthropic has no audio blocks")],
        ),
        case(
            "anthropic: an image in an assistant message",
            &[],
            anthropic(json!([anthropic_user("Draw."),
                anthropic_blocks("assistant", vec![anthropic_media("image", "image/png", "tiny.png")])])),
            &[("media-placement", "/messages/1/content/0",
               "an image block in an assistant message: Anthropic carries images only in user messages and tool results")],
        )
        .images(1),
        case(
            "anthropic: an image in the system prompt",
            &["--from", "anthropic"],
            json!({"model": "claude-sonnet-4-5", "max_tokens": 1024,
                   "system": [anthropic_media("image", "image/png", "tiny.png")],
                   "messages": [anthropic_user("Hi.")]}),
            &[("media-placement", "/system/0",
               "an image block in a system message: Anthropic carries images only in user messages and tool results")],
        )
        .images(1),
        case(
            "bedrock: audio in a toolResult",
            &[],
            bedrock(json!([bedrock_user("Record."),
                bedrock_blocks("assistant", vec![bedrock_call("tooluse_1", "record", json!({}))]),
                bedrock_blocks("user", vec![json!({"toolResult": {"toolUseId": "tooluse_1", "content": [
                    {"audio": {"format": "wav", "source": {"bytes": b64("tone.wav")}}}]}})])])),
            &[("media-placement", "/messages/2/content/0/toolResult/content/0", "a toolResult cannot carry audio")],
        ),
        case(
            "bedrock: an image in an assistant message",
            &[],
            bedrock(json!([bedrock_user("Draw."), bedrock_blocks("assistant", vec![
                json!({"image": {"format": "png", "source": {"bytes": b64("tiny.png")}}})])])),
            &[("media-placement", "/messages/1/content/0", "images are allowed only in user messages")],
        )
        .images(1),
        // Where the shape carries them, the same media fire nothing.
        case(
            "openai-chat: the image in a following user message instead",
            &[],
            chat(json!([chat_user("Screenshot, please."), call(), chat_result("call_1", "[tool returned media; see the next user message]"),
                        chat_message("user", vec![text("Output of tool screenshot (call_1):"), chat_image()])])),
            &[],
        )
        .images(1),
        case(
            "openai-chat: audio in a user message",
            &[],
            chat(json!([chat_message("user", vec![text("Transcribe."), wav()])])),
            &[],
        ),
        case(
            "gemini: audio in a user Content",
            &[],
            gemini(json!([gemini_parts("user", vec![json!({"text": "Transcribe."}),
                json!({"inlineData": {"mimeType": "audio/wav", "data": b64("tone.wav")}})])])),
            &[],
        ),
        case(
            "bedrock: audio in a user message",
            &[],
            bedrock(json!([bedrock_blocks("user", vec![json!({"text": "Transcribe."}),
                json!({"audio": {"format": "wav", "source": {"bytes": b64("tone.wav")}}})])])),
            &[],
        ),
        case(
            "canonical: audio anywhere",
            &["--from", "canonical"],
            canonical(json!([canonical_blocks("user", vec![text("Transcribe."),
                json!({"type": "audio", "mimeType": "audio/wav", "data": b64("tone.wav")})])])),
            &[],
        ),
    ]);
}

#[test]
fn rule_text_empty() {
    const ANTHROPIC: &str = "Anthropic refuses text blocks without non-whitespace text";
    check(vec![
        case(
            "anthropic: an empty text block",
            &[],
            anthropic(json!([anthropic_blocks("user", vec![text("")])])),
            &[("text-empty", "/messages/0/content/0", ANTHROPIC)],
        ),
        case(
            "anthropic: a whitespace-only text block beside text (accepted)",
            &[],
            anthropic(json!([anthropic_blocks(
                "user",
                vec![text("Look:"), text(" \n\t")]
            )])),
            &[],
        ),
        case(
            "anthropic: a whitespace-only text block alone",
            &[],
            anthropic(json!([anthropic_blocks("user", vec![text(" \n\t")])])),
            &[("text-empty", "/messages/0/content/0", ANTHROPIC)],
        ),
        case(
            "anthropic: an empty text block in a tool_result",
            &[],
            anthropic(json!([
                anthropic_user("Go."),
                anthropic_blocks(
                    "assistant",
                    vec![anthropic_call("toolu_1", "shot", json!({}))]
                ),
                anthropic_blocks(
                    "user",
                    vec![json!({"type": "tool_result", "tool_use_id": "toolu_1",
                    "content": [text(""), anthropic_media("image", "image/png", "tiny.png")]})]
                )
            ])),
            &[("text-empty", "/messages/2/content/0/content/0", ANTHROPIC)],
        )
        .images(1),
        case(
            "anthropic: an empty text block in the system prompt",
            &["--from", "anthropic"],
            json!({"model": "claude-sonnet-4-5", "max_tokens": 1024, "system": [text("")],
                   "messages": [anthropic_user("Hi.")]}),
            &[("text-empty", "/system/0", ANTHROPIC)],
        ),
        case(
            "anthropic: a whitespace-only string content",
            &[],
            anthropic(json!([anthropic_user("  ")])),
            &[(
                "text-empty",
                "/messages/0/content",
                "Anthropic refuses messages whose text has no non-whitespace character",
            )],
        ),
        case(
            "anthropic: an empty text block in a response",
            &[],
            json!({"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
                   "content": [text("")], "stop_reason": "end_turn"}),
            &[("text-empty", "/content/0", ANTHROPIC)],
        ),
        case(
            "bedrock: an empty text block",
            &[],
            bedrock(json!([bedrock_blocks("user", vec![json!({"text": ""})])])),
            &[(
                "text-empty",
                "/messages/0/content/0",
                "Converse refuses blank text blocks",
            )],
        ),
        case(
            "bedrock: a whitespace-only text block in a toolResult",
            &[],
            bedrock(json!([
                bedrock_user("Go."),
                bedrock_blocks(
                    "assistant",
                    vec![bedrock_call("tooluse_1", "shot", json!({}))]
                ),
                bedrock_blocks("user", vec![bedrock_result("tooluse_1", " ")])
            ])),
            &[(
                "text-empty",
                "/messages/2/content/0/toolResult/content/0",
                "Converse refuses blank text blocks",
            )],
        ),
        // An empty final assistant message (a prefill) is allowed; so is
        // empty text where the shape takes it.
        case(
            "anthropic: an empty final assistant message",
            &[],
            anthropic(json!([anthropic_user("Hi."), {"role": "assistant", "content": ""}])),
            &[],
        ),
        case(
            "openai-chat: an empty text part",
            &["--from", "openai-chat"],
            chat(json!([{"role": "user", "content": [text(""), text("Hi.")]}])),
            &[],
        ),
    ]);
}

#[test]
fn rule_shape_field() {
    check(vec![
        case(
            "openai-responses: a message image without detail",
            &[],
            responses(json!([{"role": "user", "content": [{"type": "input_text", "text": "Look."},
                {"type": "input_image", "image_url": data_url("image/png", "tiny.png")}]}])),
            &[("shape-field", "/input/0/content/1", "an input_image in a message needs detail")],
        )
        .images(1),
        case(
            "gemini: functionResponse.response is a list",
            &[],
            gemini(json!([gemini_user("Go."), gemini_parts("model", vec![gemini_call(Some("call_1"), "get_chart", json!({}))]),
                gemini_parts("user", vec![json!({"functionResponse": {"id": "call_1", "name": "get_chart", "response": [1, 2]}})])])),
            &[("shape-field", "/contents/2/parts/0/functionResponse/response",
               "functionResponse.response must be an object ({\"output\": …}), not an array")],
        ),
        case(
            "gemini: functionResponse.response is a string (snake_case)",
            &[],
            gemini(json!([gemini_user("Go."), gemini_parts("model", vec![gemini_call(Some("call_1"), "get_chart", json!({}))]),
                gemini_parts("user", vec![json!({"function_response": {"id": "call_1", "name": "get_chart", "response": "rising"}})])])),
            &[("shape-field", "/contents/2/parts/0/function_response/response",
               "functionResponse.response must be an object ({\"output\": …}), not a string")],
        ),
        case(
            "gemini: a functionResponse without a name",
            &[],
            gemini(json!([gemini_user("Go."), gemini_parts("model", vec![gemini_call(Some("call_1"), "get_chart", json!({}))]),
                gemini_parts("user", vec![json!({"functionResponse": {"id": "call_1", "response": {"output": 1}}})])])),
            &[("shape-field", "/contents/2/parts/0/functionResponse", "a functionResponse needs a name")],
        ),
        case(
            "gemini: text under functionResponse.parts",
            &[],
            gemini(json!([gemini_user("Go."), gemini_parts("model", vec![gemini_call(Some("call_1"), "get_chart", json!({}))]),
                gemini_parts("user", vec![json!({"functionResponse": {"id": "call_1", "name": "get_chart",
                    "response": {"output": "rising"}, "parts": [{"text": "rising"}]}})])])),
            &[("shape-field", "/contents/2/parts/0/functionResponse/parts/0",
               "a functionResponse part carries inlineData or fileData only (text belongs in response)")],
        ),
        case(
            "gemini: a single tool result whose response is a list",
            &[],
            gemini_parts("user", vec![json!({"functionResponse": {"id": "call_1", "name": "get_chart", "response": ["rising"]}})]),
            &[("shape-field", "/parts/0/functionResponse/response",
               "functionResponse.response must be an object ({\"output\": …}), not an array")],
        ),
        case(
            "bedrock: a document name with a dot",
            &[],
            bedrock(json!([bedrock_blocks("user", vec![json!({"text": "Read this."}),
                json!({"document": {"format": "pdf", "name": "report.pdf", "source": {"bytes": b64("doc.pdf")}}})])])),
            &[("shape-field", "/messages/0/content/1/document/name",
               "document name \"report.pdf\" is outside Bedrock's alphabet (letters, digits, single spaces, hyphens, underscores, parentheses, brackets)")],
        ),
        case(
            "bedrock: a document name with two spaces in a row",
            &[],
            bedrock(json!([bedrock_blocks("user", vec![json!({"text": "Read this."}),
                json!({"document": {"format": "txt", "name": "my  notes", "source": {"text": "plain notes"}}})])])),
            &[("shape-field", "/messages/0/content/1/document/name",
               "document name \"my  notes\" is outside Bedrock's alphabet (letters, digits, single spaces, hyphens, underscores, parentheses, brackets)")],
        ),
        case(
            "bedrock: an image format token Bedrock does not have (no alias finding)",
            &[],
            bedrock(json!([bedrock_blocks("user", vec![json!({"text": "Look."}),
                json!({"image": {"format": "jpg", "source": {"bytes": b64("tiny.jpg")}}})])])),
            &[("shape-field", "/messages/0/content/1/image/format",
               "image format \"jpg\" is not png, jpeg, gif or webp")],
        )
        .images(1),
        case(
            "bedrock: a toolUse without input",
            &[],
            bedrock(json!([bedrock_user("Go."), bedrock_blocks("assistant", vec![
                json!({"toolUse": {"toolUseId": "tooluse_1", "name": "get_chart"}})])])),
            &[("shape-field", "/messages/1/content/0/toolUse", "a toolUse needs input (an object)")],
        ),
        case(
            "bedrock: an empty toolConfig.tools",
            &[],
            json!({"modelId": "anthropic.claude-3-5-sonnet", "messages": [bedrock_user("Hi.")], "toolConfig": {"tools": []}}),
            &[("shape-field", "/toolConfig/tools",
               "toolConfig.tools needs at least one tool (leave toolConfig out instead)")],
        ),
        case(
            "anthropic: a tool_use without input",
            &[],
            anthropic(json!([anthropic_user("Go."), anthropic_blocks("assistant", vec![
                json!({"type": "tool_use", "id": "toolu_1", "name": "get_chart"})])])),
            &[("shape-field", "/messages/1/content/0", "a tool_use block needs input (an object)")],
        ),
        case(
            "anthropic: a tool_use inside a tool_result",
            &[],
            anthropic(json!([anthropic_user("Go."),
                anthropic_blocks("assistant", vec![anthropic_call("toolu_1", "get_chart", json!({}))]),
                anthropic_blocks("user", vec![json!({"type": "tool_result", "tool_use_id": "toolu_1",
                    "content": [anthropic_call("toolu_2", "get_chart", json!({}))]})])])),
            &[("shape-field", "/messages/2/content/0/content/0", "a tool_result cannot hold tool calls or results")],
        ),
        case(
            "openai-chat: a request without messages",
            &["--from", "openai-chat"],
            json!({"model": "gpt-4o", "max_tokens": 100}),
            &[("shape-field", "", "an openai-chat request needs messages")],
        ),
        case(
            "anthropic: a request without messages",
            &["--from", "anthropic"],
            json!({"model": "claude-sonnet-4-5", "max_tokens": 100, "system": "Be terse."}),
            &[("shape-field", "", "an anthropic request needs messages")],
        ),
        case(
            "gemini: a request without contents",
            &[],
            json!({"systemInstruction": {"parts": [{"text": "Be terse."}]}, "generationConfig": {"maxOutputTokens": 100}}),
            &[("shape-field", "", "a gemini request needs contents")],
        ),
        // The fields as the shape wants them fire nothing.
        case(
            "openai-responses: an image without detail in a function_call_output",
            &[],
            responses(json!([responses_user("Go."), responses_call("call_1", "shot", "{}"),
                {"type": "function_call_output", "call_id": "call_1", "output": [
                    {"type": "input_image", "image_url": data_url("image/png", "tiny.png")}]}])),
            &[],
        )
        .images(1),
        case(
            "bedrock: a document name with letters, digits, spaces, hyphens, parentheses, brackets",
            &[],
            bedrock(json!([bedrock_blocks("user", vec![json!({"text": "Read this."}),
                json!({"document": {"format": "pdf", "name": "Q3-report (final) [v2]", "source": {"bytes": b64("doc.pdf")}}})])])),
            &[],
        ),
    ]);
}

#[test]
fn rule_shape_order() {
    check(vec![
        case(
            "bedrock: two user messages in a row",
            &[],
            bedrock(json!([bedrock_user("Hi."), bedrock_user("Are you there?")])),
            &[(
                "shape-order",
                "/messages/1/role",
                "two user messages in a row: Converse roles alternate",
            )],
        ),
        case(
            "bedrock: two assistant messages in a row",
            &[],
            bedrock(json!([
                bedrock_user("Hi."),
                bedrock_blocks("assistant", vec![json!({"text": "Hello."})]),
                bedrock_blocks("assistant", vec![json!({"text": "Anyone?"})])
            ])),
            &[(
                "shape-order",
                "/messages/2/role",
                "two assistant messages in a row: Converse roles alternate",
            )],
        ),
        case(
            "bedrock: the tool result and the user's text in one user message",
            &[],
            bedrock(json!([
                bedrock_user("Go."),
                bedrock_blocks(
                    "assistant",
                    vec![bedrock_call("tooluse_1", "get_chart", json!({}))]
                ),
                bedrock_blocks(
                    "user",
                    vec![
                        bedrock_result("tooluse_1", "rising"),
                        json!({"text": "And Rome?"})
                    ]
                )
            ])),
            &[],
        ),
        // Other shapes take consecutive user messages.
        case(
            "openai-chat: two user messages",
            &[],
            chat(json!([chat_user("Hi."), chat_user("There?")])),
            &[],
        ),
        case(
            "anthropic: two user messages",
            &[],
            anthropic(json!([anthropic_user("Hi."), anthropic_user("There?")])),
            &[],
        ),
        case(
            "gemini: two user contents",
            &[],
            gemini(json!([gemini_user("Hi."), gemini_user("There?")])),
            &[],
        ),
    ]);
}

#[test]
fn a_request_of_text_parts_is_checked_not_skipped() {
    for doc in [
        chat(json!([{"role": "user", "content": [text("Hi.")]}])),
        json!([{"role": "user", "content": [text("Hi.")]}, {"role": "assistant", "content": [text("Hello.")]}]),
    ] {
        let run = validate(&[], &doc.to_string());
        assert_clean(&run, 0);
    }
}

// ---------------------------------------------------------------------------
// Tool exchanges in every shape, from one description

/// A call's arguments: a JSON value, or a string written as it is (the
/// OpenAI shapes' arguments string; a string value elsewhere).
#[derive(Clone)]
enum Args {
    Value(Value),
    Raw(&'static str),
}

/// One message of a conversation, in no shape yet.
#[derive(Clone)]
enum Turn {
    User(&'static str),
    Assistant(&'static str),
    /// An assistant turn of calls: (id, name, arguments); `None`: no id field.
    Calls(Vec<(Option<&'static str>, &'static str, Args)>),
    /// Tool results: (call id, tool name, text).
    Results(Vec<(Option<&'static str>, &'static str, &'static str)>),
}

use Turn::{Assistant, Calls, Results, User};

fn value(args: Value) -> Args {
    Args::Value(args)
}

/// A call with an id and an arguments object.
fn call(
    id: &'static str,
    name: &'static str,
    args: Value,
) -> (Option<&'static str>, &'static str, Args) {
    (Some(id), name, Args::Value(args))
}

fn result(
    id: &'static str,
    name: &'static str,
    text: &'static str,
) -> (Option<&'static str>, &'static str, &'static str) {
    (Some(id), name, text)
}

/// A conversation written in one shape, with where its calls and results stand.
struct Built {
    shape: &'static str,
    doc: Value,
    calls: Vec<String>,
    results: Vec<String>,
}

impl Built {
    /// The `--from` a case needs: canonical is not told from its parts.
    fn args(&self) -> &'static [&'static str] {
        if self.shape == "canonical" {
            &["--from", "canonical"]
        } else {
            &[]
        }
    }

    fn call(&self, n: usize) -> &str {
        &self.calls[n]
    }

    fn result(&self, n: usize) -> &str {
        &self.results[n]
    }
}

/// Declares tools (name, schema) in `shape`.
fn declare(shape: &str, tools: &[(&str, Option<Value>)]) -> Value {
    let list: Vec<Value> = tools
        .iter()
        .map(|(name, schema)| match shape {
            "openai-chat" => chat_tool(name, schema.clone()),
            "openai-responses" => responses_tool(name, schema.clone()),
            "anthropic" => anthropic_tool(
                name,
                schema
                    .clone()
                    .unwrap_or(json!({"type": "object", "properties": {}})),
            ),
            "gemini" => gemini_tool(name, schema.clone()),
            "bedrock" => bedrock_tool(
                name,
                schema
                    .clone()
                    .unwrap_or(json!({"type": "object", "properties": {}})),
            ),
            _ => canonical_tool(name, schema.clone()),
        })
        .collect();
    json!(list)
}

/// Writes `turns` (and the `tools`, if any) in `shape`.
fn build(shape: &'static str, tools: Option<&[(&str, Option<Value>)]>, turns: &[Turn]) -> Built {
    let string_args = |args: &Args| match args {
        Args::Value(v) => v.to_string(),
        Args::Raw(raw) => raw.to_string(),
    };
    let object_args = |args: &Args| match args {
        Args::Value(v) => v.clone(),
        Args::Raw(raw) => json!(raw),
    };
    let with_id = |mut object: Value, key: &str, id: Option<&str>| {
        if let Some(id) = id {
            object[key] = json!(id);
        }
        object
    };
    let (mut messages, mut calls, mut results) = (Vec::new(), Vec::new(), Vec::new());
    let base = match shape {
        "openai-responses" => "/input",
        "gemini" => "/contents",
        _ => "/messages",
    };
    for turn in turns {
        let at = format!("{base}/{}", messages.len());
        match (shape, turn) {
            ("openai-chat" | "openai-responses" | "anthropic", User(words)) => {
                messages.push(json!({"role": "user", "content": words}))
            }
            ("openai-chat" | "openai-responses" | "anthropic", Assistant(words)) => {
                messages.push(json!({"role": "assistant", "content": words}))
            }
            ("gemini", User(words)) => messages.push(gemini_user(words)),
            ("gemini", Assistant(words)) => {
                messages.push(gemini_parts("model", vec![json!({"text": words})]))
            }
            ("bedrock", User(words)) => messages.push(bedrock_user(words)),
            ("bedrock", Assistant(words)) => {
                messages.push(bedrock_blocks("assistant", vec![json!({"text": words})]))
            }
            (_, User(words)) => messages.push(canonical_user(words)),
            (_, Assistant(words)) => {
                messages.push(canonical_blocks("assistant", vec![text(words)]))
            }
            ("openai-chat", Calls(list)) => {
                let mut written = Vec::new();
                for (j, (id, name, args)) in list.iter().enumerate() {
                    calls.push(format!("{at}/tool_calls/{j}"));
                    written.push(with_id(
                        json!({"type": "function", "function": {"name": name, "arguments": string_args(args)}}),
                        "id",
                        *id,
                    ));
                }
                messages.push(chat_calls(written));
            }
            ("openai-chat", Results(list)) => {
                for (id, _, words) in list {
                    results.push(format!("{base}/{}", messages.len()));
                    messages.push(with_id(
                        json!({"role": "tool", "content": words}),
                        "tool_call_id",
                        *id,
                    ));
                }
            }
            ("openai-responses", Calls(list)) => {
                for (id, name, args) in list {
                    calls.push(format!("{base}/{}", messages.len()));
                    messages.push(with_id(
                        json!({"type": "function_call", "name": name, "arguments": string_args(args)}),
                        "call_id",
                        *id,
                    ));
                }
            }
            ("openai-responses", Results(list)) => {
                for (id, _, words) in list {
                    results.push(format!("{base}/{}", messages.len()));
                    messages.push(with_id(
                        json!({"type": "function_call_output", "output": words}),
                        "call_id",
                        *id,
                    ));
                }
            }
            ("anthropic", Calls(list)) => {
                let mut blocks = Vec::new();
                for (j, (id, name, args)) in list.iter().enumerate() {
                    calls.push(format!("{at}/content/{j}"));
                    blocks.push(with_id(
                        json!({"type": "tool_use", "name": name, "input": object_args(args)}),
                        "id",
                        *id,
                    ));
                }
                messages.push(anthropic_blocks("assistant", blocks));
            }
            ("anthropic", Results(list)) => {
                let mut blocks = Vec::new();
                for (j, (id, _, words)) in list.iter().enumerate() {
                    results.push(format!("{at}/content/{j}"));
                    blocks.push(with_id(
                        json!({"type": "tool_result", "content": words}),
                        "tool_use_id",
                        *id,
                    ));
                }
                messages.push(anthropic_blocks("user", blocks));
            }
            ("gemini", Calls(list)) => {
                let mut parts = Vec::new();
                for (j, (id, name, args)) in list.iter().enumerate() {
                    calls.push(format!("{at}/parts/{j}/functionCall"));
                    parts.push(json!({"functionCall": with_id(json!({"name": name, "args": object_args(args)}), "id", *id)}));
                }
                messages.push(gemini_parts("model", parts));
            }
            ("gemini", Results(list)) => {
                let mut parts = Vec::new();
                for (j, (id, name, words)) in list.iter().enumerate() {
                    results.push(format!("{at}/parts/{j}/functionResponse"));
                    parts.push(json!({"functionResponse": with_id(
                        json!({"name": name, "response": {"output": words}}), "id", *id)}));
                }
                messages.push(gemini_parts("user", parts));
            }
            ("bedrock", Calls(list)) => {
                let mut blocks = Vec::new();
                for (j, (id, name, args)) in list.iter().enumerate() {
                    calls.push(format!("{at}/content/{j}/toolUse"));
                    blocks.push(json!({"toolUse": with_id(json!({"name": name, "input": object_args(args)}), "toolUseId", *id)}));
                }
                messages.push(bedrock_blocks("assistant", blocks));
            }
            ("bedrock", Results(list)) => {
                let mut blocks = Vec::new();
                for (j, (id, _, words)) in list.iter().enumerate() {
                    results.push(format!("{at}/content/{j}/toolResult"));
                    blocks.push(json!({"toolResult": with_id(json!({"content": [{"text": words}]}), "toolUseId", *id)}));
                }
                messages.push(bedrock_blocks("user", blocks));
            }
            (_, Calls(list)) => {
                let mut blocks = Vec::new();
                for (j, (id, name, args)) in list.iter().enumerate() {
                    calls.push(format!("{at}/content/{j}"));
                    blocks.push(with_id(
                        json!({"type": "tool_call", "name": name, "arguments": object_args(args)}),
                        "id",
                        *id,
                    ));
                }
                messages.push(canonical_blocks("assistant", blocks));
            }
            (_, Results(list)) => {
                let mut blocks = Vec::new();
                for (j, (id, name, words)) in list.iter().enumerate() {
                    results.push(format!("{at}/content/{j}"));
                    blocks.push(with_id(
                        json!({"type": "tool_result", "name": name, "is_error": false, "content": [text(words)]}),
                        "call_id",
                        *id,
                    ));
                }
                messages.push(canonical_results(blocks));
            }
        }
    }
    let messages = Value::Array(messages);
    let doc = match (shape, tools) {
        ("openai-chat", None) => chat(messages),
        ("openai-chat", Some(tools)) => chat_with_tools(declare(shape, tools), messages),
        ("openai-responses", None) => responses(messages),
        ("openai-responses", Some(tools)) => responses_with_tools(declare(shape, tools), messages),
        ("anthropic", None) => anthropic(messages),
        ("anthropic", Some(tools)) => anthropic_with_tools(declare(shape, tools), messages),
        ("gemini", None) => gemini(messages),
        ("gemini", Some(tools)) => gemini_with_tools(declare(shape, tools), messages),
        ("bedrock", None) => bedrock(messages),
        ("bedrock", Some(tools)) => bedrock_with_tools(declare(shape, tools), messages),
        (_, None) => canonical(messages),
        (_, Some(tools)) => canonical_with_tools(declare(shape, tools), messages),
    };
    Built {
        shape,
        doc,
        calls,
        results,
    }
}

/// A case from a built conversation.
fn built(what: &str, built: &Built, want: &[(&'static str, &str, &str)]) -> Case {
    case(
        &format!("{}: {what}", built.shape),
        built.args(),
        built.doc.clone(),
        want,
    )
}

/// The shapes whose reader takes a missing id (and writes none): there
/// an absent id pairs by name and order.
fn ids_optional(shape: &str) -> bool {
    matches!(shape, "gemini" | "canonical")
}

#[test]
fn rule_tool_id_missing() {
    let mut cases = Vec::new();
    for shape in SHAPES {
        // A call with no id field (the conversation ends at it).
        let b = build(
            shape,
            None,
            &[
                User("Go."),
                Calls(vec![(None, "get_chart", value(json!({})))]),
            ],
        );
        if ids_optional(shape) {
            cases.push(built("a call without an id is allowed", &b, &[]));
        } else {
            cases.push(built(
                "a call without an id",
                &b,
                &[("tool-id-missing", b.call(0), "call of get_chart has no id")],
            ));
        }
        // A call with an empty id.
        let b = build(
            shape,
            None,
            &[
                User("Go."),
                Calls(vec![(Some(""), "get_chart", value(json!({})))]),
            ],
        );
        if shape == "gemini" {
            cases.push(built("an empty id reads as none (proto3)", &b, &[]));
        } else {
            cases.push(built(
                "a call with an empty id",
                &b,
                &[("tool-id-missing", b.call(0), "call of get_chart has no id")],
            ));
        }
        // A result with no id field, or an empty one, after a call with one.
        for (what, id) in [("no call id field", None), ("an empty call id", Some(""))] {
            let b = build(
                shape,
                None,
                &[
                    User("Go."),
                    Calls(vec![call("call_1", "get_chart", json!({}))]),
                    Results(vec![(id, "get_chart", "rising")]),
                ],
            );
            let absent = id.is_none() || shape == "gemini";
            let message = if absent && ids_optional(shape) {
                // Paired by name: it answers call_1, but does not echo its id.
                "the result of call call_1 (get_chart) has no call id; it must echo the call's id call_1"
            } else {
                "tool result has no call id"
            };
            cases.push(built(
                &format!("a result with {what}"),
                &b,
                &[("tool-id-missing", b.result(0), message)],
            ));
        }
    }
    // The missing tool_call_id of a single OpenAI Chat tool message.
    cases.push(case(
        "openai-chat: a single tool message without tool_call_id",
        &["--from", "openai-chat"],
        json!({"role": "tool", "content": "rising"}),
        &[("tool-id-missing", "", "tool result has no call id")],
    ));
    cases.push(case(
        "anthropic: a single tool_result without tool_use_id",
        &["--from", "anthropic"],
        json!({"type": "tool_result", "content": "rising"}),
        &[("tool-id-missing", "", "tool result has no call id")],
    ));
    cases.push(case(
        "bedrock: a single toolResult without toolUseId",
        &[],
        json!({"toolResult": {"content": [{"text": "rising"}]}}),
        &[(
            "tool-id-missing",
            "/toolResult",
            "tool result has no call id",
        )],
    ));
    check(cases);
}

#[test]
fn rule_tool_id_duplicate() {
    let mut cases = Vec::new();
    for shape in SHAPES {
        let b = build(
            shape,
            None,
            &[
                User("Chart Paris and Rome."),
                Calls(vec![
                    call("call_1", "get_chart", json!({"city": "Paris"})),
                    call("call_1", "get_chart", json!({"city": "Rome"})),
                ]),
                Results(vec![
                    result("call_1", "get_chart", "rising"),
                    result("call_1", "get_chart", "falling"),
                ]),
                Assistant("Done."),
            ],
        );
        let message = format!(
            "call id \"call_1\" is used twice (first by the call at {})",
            b.call(0)
        );
        cases.push(built(
            "two calls of one turn with one id",
            &b,
            &[("tool-id-duplicate", b.call(1), &message)],
        ));
        let b = build(
            shape,
            None,
            &[
                User("Chart Paris."),
                Calls(vec![call("call_1", "get_chart", json!({"city": "Paris"}))]),
                Results(vec![result("call_1", "get_chart", "rising")]),
                Assistant("Rising."),
                User("And Rome."),
                Calls(vec![call("call_1", "get_chart", json!({"city": "Rome"}))]),
                Results(vec![result("call_1", "get_chart", "falling")]),
            ],
        );
        let message = format!(
            "call id \"call_1\" is used twice (first by the call at {})",
            b.call(0)
        );
        cases.push(built(
            "an id used again in a later turn",
            &b,
            &[("tool-id-duplicate", b.call(1), &message)],
        ));
    }
    check(cases);
}

#[test]
fn rule_tool_id_pattern() {
    let mut cases = Vec::new();
    let long: &'static str = Box::leak("a".repeat(65).into_boxed_str());
    for (shape, id, pattern) in [
        ("anthropic", "call.1", "[a-zA-Z0-9_-]+"),
        ("anthropic", "call:1", "[a-zA-Z0-9_-]+"),
        ("bedrock", "call/1", "[a-zA-Z0-9_.:-]{1,64}"),
        ("bedrock", long, "[a-zA-Z0-9_.:-]{1,64}"),
    ] {
        let b = build(
            shape,
            None,
            &[
                User("Go."),
                Calls(vec![call(id, "get_chart", json!({}))]),
                Results(vec![result(id, "get_chart", "rising")]),
                Assistant("Done."),
            ],
        );
        let message = format!("call id {id:?} is outside {shape}'s pattern {pattern}");
        cases.push(built(
            &format!("id {id:?}"),
            &b,
            &[("tool-id-pattern", b.call(0), &message)],
        ));
    }
    // What each pattern allows; other shapes have none.
    for (shape, id) in [
        ("anthropic", "toolu_01A-b"),
        ("bedrock", "tooluse.01:A-b_c"),
        ("openai-chat", "call.1/ü"),
        ("openai-responses", "call.1/ü"),
        ("gemini", "call.1/ü"),
        ("canonical", "call.1/ü"),
    ] {
        let b = build(
            shape,
            None,
            &[
                User("Go."),
                Calls(vec![call(id, "get_chart", json!({}))]),
                Results(vec![result(id, "get_chart", "rising")]),
                Assistant("Done."),
            ],
        );
        cases.push(built(&format!("id {id:?} is allowed"), &b, &[]));
    }
    check(cases);
}

#[test]
fn rule_tool_call_unanswered() {
    let mut cases = Vec::new();
    for shape in SHAPES {
        let b = build(
            shape,
            None,
            &[
                User("Chart Paris and Rome."),
                Calls(vec![
                    call("call_1", "get_chart", json!({"city": "Paris"})),
                    call("call_2", "get_chart", json!({"city": "Rome"})),
                ]),
                Results(vec![result("call_1", "get_chart", "rising")]),
                Assistant("Rome did not answer."),
            ],
        );
        cases.push(built(
            "a call with no result",
            &b,
            &[(
                "tool-call-unanswered",
                b.call(1),
                "call call_2 (get_chart) has no result in the tool results right after it",
            )],
        ));
        let b = build(
            shape,
            None,
            &[
                User("Chart Paris."),
                Calls(vec![call("call_1", "get_chart", json!({"city": "Paris"}))]),
                User("Well?"),
            ],
        );
        cases.push(built(
            "the user speaks instead of the result",
            &b,
            &[(
                "tool-call-unanswered",
                b.call(0),
                "call call_1 (get_chart) has no result in the tool results right after it",
            )],
        ));
        // A conversation that stops at the calls: the results are to come.
        let b = build(
            shape,
            None,
            &[
                User("Chart Paris and Rome."),
                Calls(vec![
                    call("call_1", "get_chart", json!({"city": "Paris"})),
                    call("call_2", "get_chart", json!({"city": "Rome"})),
                ]),
            ],
        );
        cases.push(built("the conversation ends at the calls", &b, &[]));
        let b = build(
            shape,
            None,
            &[
                User("Chart Paris and Rome."),
                Calls(vec![
                    call("call_1", "get_chart", json!({"city": "Paris"})),
                    call("call_2", "get_chart", json!({"city": "Rome"})),
                ]),
                Results(vec![result("call_1", "get_chart", "rising")]),
            ],
        );
        cases.push(built("the conversation ends inside the results", &b, &[]));
    }
    check(cases);
}

#[test]
fn id_less_gemini_calls_pair_with_results_by_name_and_order() {
    let none = |name: &'static str, args: Value| (None, name, value(args));
    let answer = |name: &'static str, text: &'static str| (None, name, text);
    let two_calls = || {
        Calls(vec![
            none("get_chart", json!({"city": "Paris"})),
            none("get_chart", json!({"city": "Rome"})),
        ])
    };
    let mut cases = Vec::new();
    for shape in ["gemini", "canonical"] {
        let b = build(
            shape,
            None,
            &[
                User("Chart Paris and Rome."),
                two_calls(),
                Results(vec![
                    answer("get_chart", "rising"),
                    answer("get_chart", "falling"),
                ]),
                Assistant("Paris rises, Rome falls."),
            ],
        );
        cases.push(built(
            "two id-less calls of one function, two results",
            &b,
            &[],
        ));
        let b = build(
            shape,
            None,
            &[
                User("Chart Paris, then the weather."),
                Calls(vec![
                    none("get_chart", json!({"city": "Paris"})),
                    none("get_weather", json!({"city": "Paris"})),
                ]),
                Results(vec![
                    answer("get_weather", "sunny"),
                    answer("get_chart", "rising"),
                ]),
                Assistant("Sunny and rising."),
            ],
        );
        cases.push(built(
            "results of two functions in the other order",
            &b,
            &[],
        ));
        let b = build(
            shape,
            None,
            &[
                User("Chart Paris and Rome."),
                two_calls(),
                Results(vec![answer("get_chart", "rising")]),
                Assistant("Only one came back."),
            ],
        );
        cases.push(built(
            "one result too few",
            &b,
            &[(
                "tool-call-unanswered",
                b.call(1),
                "call of get_chart has no result in the tool results right after it",
            )],
        ));
        let b = build(
            shape,
            None,
            &[
                User("Chart Paris."),
                Calls(vec![none("get_chart", json!({"city": "Paris"}))]),
                Results(vec![
                    answer("get_chart", "rising"),
                    answer("get_chart", "rising again"),
                ]),
                Assistant("Twice?"),
            ],
        );
        cases.push(built("one result too many", &b, &[(
            "tool-result-duplicate",
            b.result(1),
            "every call of get_chart in the turn before already has its result; this one answers a call a second time",
        )]));
        let b = build(
            shape,
            None,
            &[
                User("Chart Paris."),
                Calls(vec![none("get_chart", json!({"city": "Paris"}))]),
                Results(vec![answer("get_weather", "sunny")]),
                Assistant("Hm."),
            ],
        );
        cases.push(built("a result of a function the turn did not call", &b, &[
            ("tool-result-orphan", b.result(0), "result of get_weather, but the turn before has no unanswered call of get_weather"),
            ("tool-call-unanswered", b.call(0), "call of get_chart has no result in the tool results right after it"),
        ]));
    }
    check(cases);
}

#[test]
fn rule_tool_result_orphan() {
    let mut cases = Vec::new();
    for shape in SHAPES {
        let b = build(
            shape,
            None,
            &[
                User("Chart Paris."),
                Calls(vec![call("call_1", "get_chart", json!({"city": "Paris"}))]),
                Results(vec![
                    result("call_1", "get_chart", "rising"),
                    result("call_9", "get_chart", "falling"),
                ]),
                Assistant("Done."),
            ],
        );
        cases.push(built(
            "a result whose id no call has",
            &b,
            &[(
                "tool-result-orphan",
                b.result(1),
                "tool result for call_9, but no call has that id",
            )],
        ));
    }
    // In a request, a result before any call is an orphan; a bare list may
    // start inside a conversation (a tool result written as messages), so
    // there the results before its first assistant message are not.
    for shape in ["openai-chat", "anthropic", "canonical"] {
        let b = build(
            shape,
            None,
            &[
                User("Hi."),
                Results(vec![result("call_9", "get_chart", "rising")]),
                Assistant("Hm."),
            ],
        );
        cases.push(built(
            "a request that starts with a result",
            &b,
            &[(
                "tool-result-orphan",
                b.result(0),
                "tool result for call_9, but no call has that id",
            )],
        ));
    }
    cases.push(
        case(
            "openai-chat: a list that starts with a tool message and its lifted media",
            &[],
            json!([chat_result("call_9", "[tool returned media; see the next user message]"),
               {"role": "user", "content": [text("Output of tool call call_9:"), chat_image()]}]),
            &[],
        )
        .images(1),
    );
    cases.push(case(
        "canonical: a list that starts with a tool message",
        &["--from", "canonical"],
        json!([
            canonical_results(vec![canonical_result("call_9", "get_chart", "rising")]),
            canonical_user("Thanks.")
        ]),
        &[],
    ));
    check(cases);
}

#[test]
fn rule_tool_result_duplicate() {
    let mut cases = Vec::new();
    for shape in SHAPES {
        let b = build(
            shape,
            None,
            &[
                User("Chart Paris."),
                Calls(vec![call("call_1", "get_chart", json!({"city": "Paris"}))]),
                Results(vec![
                    result("call_1", "get_chart", "rising"),
                    result("call_1", "get_chart", "rising again"),
                ]),
                Assistant("Done."),
            ],
        );
        cases.push(built(
            "a call answered twice",
            &b,
            &[(
                "tool-result-duplicate",
                b.result(1),
                "call call_1 is answered more than once",
            )],
        ));
        let b = build(
            shape,
            None,
            &[
                User("Chart Paris."),
                Calls(vec![call("call_1", "get_chart", json!({"city": "Paris"}))]),
                Results(vec![result("call_1", "get_chart", "rising")]),
                Assistant("Rising. Once more?"),
                Results(vec![result("call_1", "get_chart", "rising again")]),
            ],
        );
        cases.push(built(
            "a call answered again turns later",
            &b,
            &[(
                "tool-result-duplicate",
                b.result(1),
                "call call_1 is answered more than once",
            )],
        ));
    }
    check(cases);
}

#[test]
fn rule_tool_result_position() {
    let mut cases = Vec::new();
    for shape in SHAPES {
        // Anthropic: not in the next message. OpenAI: not in the tool messages
        // right after the call. Reported once, at the result.
        let b = build(
            shape,
            None,
            &[
                User("Chart Paris."),
                Calls(vec![call("call_1", "get_chart", json!({"city": "Paris"}))]),
                User("Hurry."),
                Assistant("Working on it."),
                Results(vec![result("call_1", "get_chart", "rising")]),
            ],
        );
        let message = format!(
            "the result of call call_1 is not in the tool results right after its call (at {})",
            b.call(0)
        );
        cases.push(built(
            "a result after other messages",
            &b,
            &[("tool-result-position", b.result(0), &message)],
        ));
    }
    check(cases);
}

/// Where tool `n` of the `tools` that [`declare`] writes stands in `shape`.
fn tool_at(shape: &str, n: usize) -> String {
    match shape {
        "openai-chat" => format!("/tools/{n}/function"),
        "gemini" => format!("/tools/0/functionDeclarations/{n}"),
        "bedrock" => format!("/toolConfig/tools/{n}/toolSpec"),
        _ => format!("/tools/{n}"),
    }
}

/// Where the schema of tool `n` stands.
fn schema_at(shape: &str, n: usize) -> String {
    let member = match shape {
        "anthropic" => "input_schema",
        "gemini" => "parametersJsonSchema",
        "bedrock" => "inputSchema/json",
        _ => "parameters",
    };
    format!("{}/{member}", tool_at(shape, n))
}

#[test]
fn rule_tool_undeclared() {
    let mut cases = Vec::new();
    for shape in SHAPES {
        let tools = [("get_chart", Some(chart_schema()))];
        let b = build(
            shape,
            Some(&tools),
            &[
                User("Clean up."),
                Calls(vec![call("call_1", "delete_everything", json!({}))]),
                Results(vec![result("call_1", "delete_everything", "done")]),
                Assistant("Done."),
            ],
        );
        cases.push(built("a call of a tool not declared", &b, &[(
            "tool-undeclared",
            b.call(0),
            "call call_1 (delete_everything) calls a tool the document does not declare (declared: get_chart)",
        )]));
        // A provider's request body that declares no tools calls undeclared
        // ones (a canonical transcript need not declare them).
        let b = build(
            shape,
            None,
            &[
                User("Clean up."),
                Calls(vec![call("call_1", "delete_everything", json!({}))]),
            ],
        );
        let want: &[(&str, &str, &str)] = if shape == "canonical" {
            &[]
        } else {
            &[(
                "tool-undeclared",
                b.call(0),
                "call call_1 (delete_everything) calls a tool, and the request declares no tools",
            )]
        };
        cases.push(built("a request body with no tools declared", &b, want));
        // A bare message list cannot declare tools: any tool may be called.
        let list = match &b.doc {
            Value::Object(body) if shape != "canonical" => body
                .get("messages")
                .or(body.get("input"))
                .or(body.get("contents"))
                .cloned()
                .unwrap(),
            other => other.clone(),
        };
        let mut bare = built("a bare message list", &b, &[]);
        bare.doc = list;
        if shape != "canonical" {
            bare.args = vec!["--from", shape];
        }
        cases.push(bare);
    }
    check(cases);
}

#[test]
fn rule_tool_duplicate_name() {
    let mut cases = Vec::new();
    for shape in SHAPES {
        let tools = [
            ("get_chart", Some(chart_schema())),
            (
                "screenshot",
                Some(json!({"type": "object", "properties": {}})),
            ),
            (
                "get_chart",
                Some(json!({"type": "object", "properties": {"town": {"type": "string"}}})),
            ),
        ];
        let b = build(shape, Some(&tools), &[User("Chart Paris.")]);
        let message = format!(
            "tool \"get_chart\" is declared more than once (first at {})",
            tool_at(shape, 0)
        );
        cases.push(built(
            "two tools named get_chart",
            &b,
            &[("tool-duplicate-name", &tool_at(shape, 2), &message)],
        ));
    }
    check(cases);
}

#[test]
fn rule_tool_schema_invalid() {
    let mut cases = Vec::new();
    for shape in SHAPES {
        let tools = [(
            "get_chart",
            Some(
                json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": "city"}),
            ),
        )];
        let b = build(
            shape,
            Some(&tools),
            &[
                User("Chart Paris."),
                Calls(vec![call("call_1", "get_chart", json!({"city": 3}))]),
            ],
        );
        // The broken schema is one finding; it validates no call.
        cases.push(built("required is not a list", &b, &[(
            "tool-schema-invalid",
            &format!("{}/required", schema_at(shape, 0)),
            "tool \"get_chart\": the declared schema is not valid JSON Schema: \"city\" is not of type \"array\" (at /required)",
        )]));
    }
    check(cases);
}

#[test]
fn rule_tool_arguments_json() {
    let mut cases = Vec::new();
    for shape in ["openai-chat", "openai-responses", "canonical"] {
        let tools = [("get_chart", Some(chart_schema()))];
        for (raw, message) in [
            (
                "{city: Paris}",
                "arguments of call call_1 (get_chart) are not JSON: {city: Paris}",
            ),
            (
                "{\"city\": \"Paris\"",
                "arguments of call call_1 (get_chart) are not JSON: {\"city\": \"Paris\"",
            ),
            (
                "",
                "arguments of call call_1 (get_chart) are an empty string, not JSON",
            ),
        ] {
            let b = build(
                shape,
                Some(&tools),
                &[
                    User("Chart Paris."),
                    Calls(vec![(Some("call_1"), "get_chart", Args::Raw(raw))]),
                ],
            );
            cases.push(built(
                &format!("arguments {raw:?}"),
                &b,
                &[("tool-arguments-json", b.call(0), message)],
            ));
        }
    }
    check(cases);
}

#[test]
fn rule_tool_arguments_not_object() {
    let mut cases = Vec::new();
    for shape in SHAPES {
        let tools = [("get_chart", Some(chart_schema()))];
        for (args, kind) in [
            (json!(["Paris"]), "an array"),
            (json!(3), "a number"),
            (json!(null), "null"),
        ] {
            let b = build(
                shape,
                Some(&tools),
                &[
                    User("Chart Paris."),
                    Calls(vec![call("call_1", "get_chart", args.clone())]),
                ],
            );
            if shape == "canonical" && args.is_null() {
                // The canonical model reads null arguments as none: {}.
                cases.push(built("arguments null read as {}", &b, &[(
                    "tool-arguments-schema",
                    b.call(0),
                    "the arguments of call call_1 (get_chart): \"city\" is a required property (schema /required)",
                )]));
                continue;
            }
            let message =
                format!("arguments of call call_1 (get_chart) must be a JSON object, not {kind}");
            cases.push(built(
                &format!("arguments {args}"),
                &b,
                &[("tool-arguments-not-object", b.call(0), &message)],
            ));
        }
        // Without declarations, only the form is checked.
        let b = build(
            shape,
            None,
            &[
                User("Chart Paris."),
                Calls(vec![call("call_1", "get_chart", json!([1]))]),
            ],
        );
        cases.push(built(
            "arguments [1], no tools declared",
            &b,
            &[(
                "tool-arguments-not-object",
                b.call(0),
                "arguments of call call_1 (get_chart) must be a JSON object, not an array",
            )],
        ));
    }
    // A JSON string where the shape takes an object.
    for shape in ["anthropic", "gemini", "bedrock"] {
        let b = build(
            shape,
            None,
            &[
                User("Chart Paris."),
                Calls(vec![call(
                    "call_1",
                    "get_chart",
                    json!("{\"city\":\"Paris\"}"),
                )]),
            ],
        );
        cases.push(built(
            "arguments as a JSON string",
            &b,
            &[(
                "tool-arguments-not-object",
                b.call(0),
                "arguments of call call_1 (get_chart) must be a JSON object, not a string",
            )],
        ));
    }
    let b = build(
        "canonical",
        None,
        &[
            User("Chart Paris."),
            Calls(vec![(
                Some("call_1"),
                "get_chart",
                Args::Raw("{\"city\":\"Paris\"}"),
            )]),
        ],
    );
    cases.push(built(
        "arguments as a JSON string",
        &b,
        &[(
            "tool-arguments-not-object",
            b.call(0),
            "arguments of call call_1 (get_chart) must be a JSON object, not a string",
        )],
    ));
    check(cases);
}

#[test]
fn rule_tool_arguments_schema() {
    let mut cases = Vec::new();
    for shape in SHAPES {
        let tools = [("get_chart", Some(chart_schema())), ("screenshot", None)];
        let b = build(
            shape,
            Some(&tools),
            &[
                User("Chart Paris and take a screenshot."),
                Calls(vec![
                    call("call_1", "get_chart", json!({"city": 3, "days": 0})),
                    call("call_2", "screenshot", json!({"zoom": 2})),
                ]),
            ],
        );
        cases.push(built("a wrong type, a bound, and arguments to a tool that takes none", &b, &[
            ("tool-arguments-schema", b.call(0), "arguments/city of call call_1 (get_chart): 3 is not of type \"string\" (schema /properties/city/type)"),
            ("tool-arguments-schema", b.call(0), "arguments/days of call call_1 (get_chart): 0 is less than the minimum of 1 (schema /properties/days/minimum)"),
            ("tool-arguments-schema", b.call(1), "screenshot declares no parameters, but call call_2 (screenshot) passes zoom"),
        ]));
        let b = build(
            shape,
            Some(&tools),
            &[
                User("Chart Paris and take a screenshot."),
                Calls(vec![
                    call("call_1", "get_chart", json!({"city": "Paris", "days": 5})),
                    call("call_2", "screenshot", json!({})),
                ]),
            ],
        );
        cases.push(built("arguments that fit", &b, &[]));
    }
    check(cases);
}

// ---------------------------------------------------------------------------
// Tool-call arguments against declared schemas (NeMo Guardrails' rules)

/// What validate must say about one call.
enum Verdict {
    /// No finding.
    Clean,
    /// One finding on the call.
    Call(&'static str, &'static str),
    /// Findings on the call, in order.
    Calls(&'static [(&'static str, &'static str)]),
    /// The schema is not JSON Schema: one finding at this pointer inside it.
    Schema(&'static str, &'static str),
}

/// One argument case: the tool `f`'s schema, a call's arguments, the verdict.
struct ArgCase {
    what: &'static str,
    schema: Option<Value>,
    args: Args,
    verdict: Verdict,
    /// The shapes the case may be written in (`None`: all).
    only: Option<&'static [&'static str]>,
}

fn arg_case(what: &'static str, schema: Option<Value>, args: Value, verdict: Verdict) -> ArgCase {
    ArgCase {
        what,
        schema,
        args: Args::Value(args),
        verdict,
        only: None,
    }
}

/// Arguments with the literal spelling `text` (`5.0`, big integers).
fn literal(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

fn nested_schema() -> Value {
    json!({"type": "object", "properties": {
        "point": {"type": "object", "properties": {"x": {"type": "number"}, "y": {"type": "number"}}, "required": ["x"]},
        "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 2}}})
}

fn closed_schema() -> Value {
    json!({"type": "object", "properties": {"city": {"type": "string"}}, "additionalProperties": false})
}

fn any_of_schema() -> Value {
    json!({"type": "object", "properties": {"v": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}, "required": ["v"]})
}

fn one_of_schema() -> Value {
    json!({"oneOf": [
        {"type": "object", "properties": {"kind": {"const": "city"}, "name": {"type": "string"}}, "required": ["kind", "name"]},
        {"type": "object", "properties": {"kind": {"const": "point"}, "x": {"type": "number"}}, "required": ["kind", "x"]}]})
}

fn bounds_schema() -> Value {
    json!({"type": "object", "properties": {
        "n": {"type": "number", "minimum": 0, "exclusiveMaximum": 10},
        "s": {"type": "string", "minLength": 2, "pattern": "^[a-z]+$"},
        "unit": {"enum": ["c", "f"]},
        "version": {"const": 2}}})
}

fn formats_schema() -> Value {
    json!({"type": "object", "properties": {
        "day": {"type": "string", "format": "date"},
        "mail": {"type": "string", "format": "email"},
        "site": {"type": "string", "format": "uri"}}})
}

fn draft4_schema() -> Value {
    // Draft 4's boolean exclusiveMinimum; under 2020-12 it would be invalid.
    json!({"$schema": "http://json-schema.org/draft-04/schema#", "type": "object",
           "properties": {"n": {"type": "integer", "minimum": 0, "exclusiveMinimum": true}}})
}

fn arg_cases() -> Vec<ArgCase> {
    use Verdict::{Call, Calls, Clean, Schema};
    const BAD: &str = "tool-arguments-schema";
    const NOT_OBJECT: &str = "tool-arguments-not-object";
    let no_params = "f declares no parameters, but call call_1 (f) passes a";
    vec![
        // Types and required properties.
        arg_case("a required string", Some(chart_schema()), json!({"city": "Paris"}), Clean),
        arg_case("an optional integer", Some(chart_schema()), json!({"city": "Paris", "days": 3}), Clean),
        arg_case("5.0 is an integer", Some(chart_schema()), literal(r#"{"city": "Paris", "days": 5.0}"#), Clean),
        arg_case("a big integer", Some(chart_schema()), literal(r#"{"city": "Paris", "days": 12345678901234567890}"#), Clean),
        arg_case("a property the schema does not name", Some(chart_schema()), json!({"city": "Paris", "units": "metric"}), Clean),
        arg_case("the required property missing", Some(chart_schema()), json!({}),
            Call(BAD, "the arguments of call call_1 (f): \"city\" is a required property (schema /required)")),
        arg_case("a number for a string", Some(chart_schema()), json!({"city": 3}),
            Call(BAD, "arguments/city of call call_1 (f): 3 is not of type \"string\" (schema /properties/city/type)")),
        arg_case("null for a string", Some(chart_schema()), json!({"city": null}),
            Call(BAD, "arguments/city of call call_1 (f): null is not of type \"string\" (schema /properties/city/type)")),
        arg_case("a string for an integer", Some(chart_schema()), json!({"city": "Paris", "days": "3"}),
            Call(BAD, "arguments/days of call call_1 (f): \"3\" is not of type \"integer\" (schema /properties/days/type)")),
        arg_case("2.5 for an integer", Some(chart_schema()), literal(r#"{"city": "Paris", "days": 2.5}"#),
            Call(BAD, "arguments/days of call call_1 (f): 2.5 is not of type \"integer\" (schema /properties/days/type)")),
        arg_case("every violation, one finding each", Some(chart_schema()), json!({"city": 3, "days": 0}),
            Calls(&[(BAD, "arguments/city of call call_1 (f): 3 is not of type \"string\" (schema /properties/city/type)"),
                    (BAD, "arguments/days of call call_1 (f): 0 is less than the minimum of 1 (schema /properties/days/minimum)")])),
        // Enums, consts, bounds.
        arg_case("an enum value", Some(bounds_schema()), json!({"unit": "c"}), Clean),
        arg_case("a value outside the enum", Some(bounds_schema()), json!({"unit": "k"}),
            Call(BAD, "arguments/unit of call call_1 (f): \"k\" is not one of \"c\" or \"f\" (schema /properties/unit/enum)")),
        arg_case("the const", Some(bounds_schema()), json!({"version": 2}), Clean),
        arg_case("not the const", Some(bounds_schema()), json!({"version": 3}),
            Call(BAD, "arguments/version of call call_1 (f): 2 was expected (schema /properties/version/const)")),
        arg_case("numbers in bounds", Some(bounds_schema()), json!({"n": 0, "s": "ab"}), Clean),
        arg_case("under the minimum", Some(bounds_schema()), json!({"n": -1}),
            Call(BAD, "arguments/n of call call_1 (f): -1 is less than the minimum of 0 (schema /properties/n/minimum)")),
        arg_case("at the exclusive maximum", Some(bounds_schema()), json!({"n": 10}),
            Call(BAD, "arguments/n of call call_1 (f): 10 is greater than or equal to the maximum of 10 (schema /properties/n/exclusiveMaximum)")),
        arg_case("too short", Some(bounds_schema()), json!({"s": "a"}),
            Call(BAD, "arguments/s of call call_1 (f): \"a\" is shorter than 2 characters (schema /properties/s/minLength)")),
        arg_case("off the pattern", Some(bounds_schema()), json!({"s": "AB"}),
            Call(BAD, "arguments/s of call call_1 (f): \"AB\" does not match \"^[a-z]+$\" (schema /properties/s/pattern)")),
        // Nested objects and arrays.
        arg_case("a nested object and an array", Some(nested_schema()), json!({"point": {"x": 1.5, "y": 2}, "tags": ["a", "b"]}), Clean),
        arg_case("an empty array", Some(nested_schema()), json!({"tags": []}), Clean),
        arg_case("a nested required property missing", Some(nested_schema()), json!({"point": {"y": 2}}),
            Call(BAD, "arguments/point of call call_1 (f): \"x\" is a required property (schema /properties/point/required)")),
        arg_case("a nested wrong type", Some(nested_schema()), json!({"point": {"x": "1"}}),
            Call(BAD, "arguments/point/x of call call_1 (f): \"1\" is not of type \"number\" (schema /properties/point/properties/x/type)")),
        arg_case("an array item of the wrong type", Some(nested_schema()), json!({"tags": ["a", 1]}),
            Call(BAD, "arguments/tags/1 of call call_1 (f): 1 is not of type \"string\" (schema /properties/tags/items/type)")),
        arg_case("too many array items", Some(nested_schema()), json!({"tags": ["a", "b", "c"]}),
            Call(BAD, "arguments/tags of call call_1 (f): [\"a\",\"b\",\"c\"] has more than 2 items (schema /properties/tags/maxItems)")),
        // additionalProperties: false.
        arg_case("additionalProperties false, named properties only", Some(closed_schema()), json!({"city": "Paris"}), Clean),
        arg_case("additionalProperties false, an extra property", Some(closed_schema()), json!({"city": "Paris", "days": 3}),
            Call(BAD, "the arguments of call call_1 (f): Additional properties are not allowed ('days' was unexpected) (schema /additionalProperties)")),
        // anyOf and oneOf.
        arg_case("anyOf, the first branch", Some(any_of_schema()), json!({"v": "x"}), Clean),
        arg_case("anyOf, the second branch", Some(any_of_schema()), json!({"v": 3}), Clean),
        arg_case("anyOf, no branch", Some(any_of_schema()), json!({"v": [1]}),
            Call(BAD, "arguments/v of call call_1 (f): [1] is not valid under any of the schemas listed in the 'anyOf' keyword (schema /properties/v/anyOf)")),
        arg_case("oneOf, one branch", Some(one_of_schema()), json!({"kind": "point", "x": 1}), Clean),
        arg_case("oneOf, no branch", Some(one_of_schema()), json!({"kind": "city"}),
            Call(BAD, "the arguments of call call_1 (f): {\"kind\":\"city\"} is not valid under any of the schemas listed in the 'oneOf' keyword (schema /oneOf)")),
        // format is an annotation, not asserted.
        arg_case("format: date, email, uri not asserted", Some(formats_schema()),
            json!({"day": "not a date", "mail": "not an email", "site": "not a uri"}), Clean),
        arg_case("format does not excuse the type", Some(formats_schema()), json!({"day": 20240101}),
            Call(BAD, "arguments/day of call call_1 (f): 20240101 is not of type \"string\" (schema /properties/day/type)")),
        // The draft comes from $schema.
        arg_case("draft-04 exclusiveMinimum: true excludes the minimum", Some(draft4_schema()), json!({"n": 0}),
            Call(BAD, "arguments/n of call call_1 (f): 0 is less than or equal to the minimum of 0 (schema /properties/n/exclusiveMinimum)")),
        arg_case("draft-04: above the minimum", Some(draft4_schema()), json!({"n": 1}), Clean),
        // Tools that declare no parameters accept no arguments.
        arg_case("no schema, no arguments", None, json!({}), Clean),
        arg_case("no schema, an argument", None, json!({"a": 1}), Call(BAD, no_params)),
        arg_case("an empty schema, no arguments", Some(json!({})), json!({}), Clean),
        arg_case("an empty schema, an argument", Some(json!({})), json!({"a": 1}), Call(BAD, no_params)),
        arg_case("an object schema with no properties, an argument", Some(json!({"type": "object"})), json!({"a": 1}), Call(BAD, no_params)),
        arg_case("empty properties, an argument", Some(json!({"type": "object", "properties": {}})), json!({"a": true}), Call(BAD, no_params)),
        arg_case("additionalProperties false and no properties, an argument",
            Some(json!({"type": "object", "properties": {}, "additionalProperties": false})), json!({"a": 1}), Call(BAD, no_params)),
        // ... unless the schema opens another channel.
        arg_case("additionalProperties true opens a channel",
            Some(json!({"type": "object", "additionalProperties": true})), json!({"a": 1}), Clean),
        arg_case("additionalProperties as a schema opens a channel, and applies",
            Some(json!({"type": "object", "additionalProperties": {"type": "string"}})), json!({"a": 1}),
            Call(BAD, "arguments/a of call call_1 (f): 1 is not of type \"string\" (schema /additionalProperties/type)")),
        arg_case("patternProperties opens a channel",
            Some(json!({"type": "object", "patternProperties": {"^x_": {"type": "integer"}}})), json!({"x_1": 1}), Clean),
        arg_case("allOf opens a channel",
            Some(json!({"type": "object", "allOf": [{"properties": {"a": {"type": "integer"}}}]})), json!({"a": 1}), Clean),
        arg_case("$ref opens a channel",
            Some(json!({"type": "object", "$ref": "#/$defs/point", "$defs": {"point": {"type": "object", "properties": {"x": {"type": "number"}}}}})),
            json!({"x": "1"}),
            Call(BAD, "arguments/x of call call_1 (f): \"1\" is not of type \"number\" (schema /$defs/point/properties/x/type)")),
        // Invalid schemas are findings of their own, and validate nothing.
        arg_case("a type that is no JSON type", Some(json!({"type": "objekt", "properties": {"a": {}}})), json!({"a": 1}),
            Schema("/type", "tool \"f\": the declared schema is not valid JSON Schema: \"objekt\" is not valid under any of the schemas listed in the 'anyOf' keyword (at /type)")),
        arg_case("required as a string", Some(json!({"type": "object", "properties": {"a": {}}, "required": "a"})), json!({}),
            Schema("/required", "tool \"f\": the declared schema is not valid JSON Schema: \"a\" is not of type \"array\" (at /required)")),
        arg_case("a nested property type that is a number", Some(json!({"type": "object", "properties": {"a": {"type": 3}}})), json!({"a": 1}),
            Schema("/properties/a/type", "tool \"f\": the declared schema is not valid JSON Schema: 3 is not valid under any of the schemas listed in the 'anyOf' keyword (at /properties/a/type)")),
        arg_case("a negative minLength", Some(json!({"type": "object", "properties": {"a": {"type": "string", "minLength": -1}}})), json!({"a": ""}),
            Schema("/properties/a/minLength", "tool \"f\": the declared schema is not valid JSON Schema: -1 is less than the minimum of 0 (at /properties/a/minLength)")),
        // Arguments that are not an object.
        arg_case("an array", Some(chart_schema()), json!(["Paris"]),
            Call(NOT_OBJECT, "arguments of call call_1 (f) must be a JSON object, not an array")),
        arg_case("a number", Some(chart_schema()), json!(42),
            Call(NOT_OBJECT, "arguments of call call_1 (f) must be a JSON object, not a number")),
        arg_case("true", None, json!(true),
            Call(NOT_OBJECT, "arguments of call call_1 (f) must be a JSON object, not a boolean")),
        ArgCase {
            what: "a JSON string",
            schema: Some(chart_schema()),
            args: Args::Value(json!("Paris")),
            verdict: Call(NOT_OBJECT, "arguments of call call_1 (f) must be a JSON object, not a string"),
            only: Some(&["openai-chat", "openai-responses", "anthropic", "gemini", "bedrock"]),
        },
        // Arguments strings that are not JSON (the OpenAI shapes; canonical keeps them).
        ArgCase {
            what: "arguments cut short",
            schema: Some(chart_schema()),
            args: Args::Raw(r#"{"city": "Par"#),
            verdict: Call("tool-arguments-json", r#"arguments of call call_1 (f) are not JSON: {"city": "Par"#),
            only: Some(&["openai-chat", "openai-responses", "canonical"]),
        },
        ArgCase {
            what: "empty arguments",
            schema: None,
            args: Args::Raw(""),
            verdict: Call("tool-arguments-json", "arguments of call call_1 (f) are an empty string, not JSON"),
            only: Some(&["openai-chat", "openai-responses"]),
        },
        ArgCase {
            what: "arguments in single quotes",
            schema: Some(chart_schema()),
            args: Args::Raw("{'city': 'Paris'}"),
            verdict: Call("tool-arguments-json", "arguments of call call_1 (f) are not JSON: {'city': 'Paris'}"),
            only: Some(&["openai-chat", "openai-responses"]),
        },
    ]
}

#[test]
fn tool_arguments_against_declared_schemas() {
    let all = arg_cases();
    assert!(all.len() >= 40, "{} argument cases", all.len());
    let mut cases = Vec::new();
    let mut next = 0;
    for arg in all {
        // Each case in the next shape it may be written in.
        let shape = loop {
            let shape = SHAPES[next % SHAPES.len()];
            next += 1;
            if arg.only.is_none_or(|only| only.contains(&shape)) {
                break shape;
            }
        };
        let tools = [("f", arg.schema.clone())];
        let b = build(
            shape,
            Some(&tools),
            &[
                User("Go."),
                Calls(vec![(Some("call_1"), "f", arg.args.clone())]),
            ],
        );
        let schema = format!(
            "{}{}",
            schema_at(shape, 0),
            match &arg.verdict {
                Verdict::Schema(at, _) => at,
                _ => "",
            }
        );
        let want: Vec<(&str, &str, &str)> = match &arg.verdict {
            Verdict::Clean => vec![],
            Verdict::Call(rule, message) => vec![(*rule, b.call(0), *message)],
            Verdict::Calls(list) => list
                .iter()
                .map(|(rule, message)| (*rule, b.call(0), *message))
                .collect(),
            Verdict::Schema(_, message) => vec![("tool-schema-invalid", schema.as_str(), *message)],
        };
        cases.push(built(arg.what, &b, &want));
    }
    check(cases);
}

#[test]
fn hosted_tools_without_a_schema_are_allow_list_only() {
    check(vec![
        case(
            "openai-responses: web_search called with arguments",
            &[],
            responses_with_tools(json!([{"type": "web_search"}, responses_tool("get_chart", Some(chart_schema()))]), json!([
                responses_user("Search the web."),
                responses_call("call_1", "web_search", r#"{"query": "Paris weather"}"#),
                responses_result("call_1", "sunny"),
                {"type": "web_search_call", "id": "ws_1", "status": "completed", "action": {"type": "search", "query": "Rome"}},
                {"role": "assistant", "content": "Sunny."}])),
            &[],
        ),
        case(
            "anthropic: a server tool (bash) called through tool_use",
            &[],
            anthropic_with_tools(json!([{"type": "bash_20250124", "name": "bash"}]), json!([
                anthropic_user("List the files."),
                anthropic_blocks("assistant", vec![anthropic_call("toolu_1", "bash", json!({"command": "ls -la"}))]),
                anthropic_blocks("user", vec![anthropic_result("toolu_1", "a.txt")]),
                {"role": "assistant", "content": "One file."}])),
            &[],
        ),
        case(
            "anthropic: web search through server_tool_use",
            &[],
            anthropic_with_tools(json!([{"type": "web_search_20250305", "name": "web_search", "max_uses": 3}]), json!([
                anthropic_user("Search the web."),
                anthropic_blocks("assistant", vec![
                    json!({"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {"query": "Paris"}}),
                    json!({"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": []}),
                    text("Sunny.")])])),
            &[],
        ),
        // A function tool of the same name is checked by its schema.
        case(
            "anthropic: a function tool named like a server tool, with no parameters",
            &[],
            anthropic_with_tools(json!([anthropic_tool("web_search", json!({"type": "object", "properties": {}}))]), json!([
                anthropic_user("Search the web."),
                anthropic_blocks("assistant", vec![anthropic_call("toolu_1", "web_search", json!({"query": "Paris"}))])])),
            &[("tool-arguments-schema", "/messages/1/content/0",
               "web_search declares no parameters, but call toolu_1 (web_search) passes query")],
        ),
        case(
            "openai-responses: a call of a hosted tool that is not declared",
            &[],
            responses_with_tools(json!([responses_tool("get_chart", Some(chart_schema()))]), json!([
                responses_user("Search the web."),
                responses_call("call_1", "web_search", r#"{"query": "Paris weather"}"#)])),
            &[("tool-undeclared", "/input/1",
               "call call_1 (web_search) calls a tool the document does not declare (declared: get_chart)")],
        ),
    ]);
}

// ---------------------------------------------------------------------------
// --target: what converting would refuse or drop

#[test]
fn rule_target_unsupported() {
    let audio = || json!({"type": "audio", "mimeType": "audio/wav", "data": b64("tone.wav")});
    let thinking = json!({"type": "opaque", "shape": "anthropic",
                          "value": {"type": "thinking", "thinking": "Paris first.", "signature": "c2ln"}});
    check(vec![
        case(
            "canonical: user audio, for anthropic",
            &["--from", "canonical", "--target", "anthropic"],
            canonical(json!([canonical_blocks("user", vec![text("Transcribe this."), audio()])])),
            &[("target-unsupported", "/messages/0/content/1",
               "as anthropic: audio part (audio/wav) cannot be carried by anthropic: Anthropic has no audio blocks")],
        ),
        case(
            "canonical: user audio, for openai-responses",
            &["--from", "canonical", "--target", "openai-responses"],
            canonical(json!([canonical_blocks("user", vec![text("Transcribe this."), audio()])])),
            &[("target-unsupported", "/messages/0/content/1",
               "as openai-responses: audio part (audio/wav) cannot be carried by openai-responses: Responses input has no audio parts")],
        ),
        case(
            "canonical: a thinking block, for openai-chat",
            &["--from", "canonical", "--target", "openai-chat"],
            canonical(json!([canonical_user("Chart Paris."), canonical_blocks("assistant", vec![thinking.clone(), text("Rising.")])])),
            &[("target-unsupported", "", "as openai-chat: openai-chat has no place for anthropic thinking blocks; dropped")],
        ),
        case(
            "anthropic: a thinking block, for openai-chat",
            &["--target", "openai-chat"],
            anthropic(json!([anthropic_user("Chart Paris."), anthropic_blocks("assistant", vec![
                json!({"type": "thinking", "thinking": "Paris first.", "signature": "c2ln"}), text("Rising.")])])),
            &[("target-unsupported", "", "as openai-chat: openai-chat has no place for anthropic thinking blocks; dropped")],
        ),
        case(
            "gemini: user audio, for anthropic (where it stands in the Gemini document)",
            &["--target", "anthropic"],
            gemini(json!([gemini_user("Hi."), gemini_parts("model", vec![json!({"text": "Hello."})]),
                gemini_parts("user", vec![json!({"text": "Transcribe this."}),
                    json!({"inlineData": {"mimeType": "audio/wav", "data": b64("tone.wav")}})])])),
            &[("target-unsupported", "/contents/2/parts/1",
               "as anthropic: audio part (audio/wav) cannot be carried by anthropic: Anthropic has no audio blocks")],
        ),
        case(
            "canonical: audio from a tool, for anthropic (degraded to a placeholder)",
            &["--from", "canonical", "--target", "anthropic"],
            json!({"max_tokens": 1024, "messages": [canonical_user("Record."),
                canonical_blocks("assistant", vec![canonical_call("call_1", "record", json!({}))]),
                canonical_results(vec![json!({"type": "tool_result", "call_id": "call_1", "name": "record",
                    "is_error": false, "content": [audio()]})])]}),
            &[("target-unsupported", "",
               "as anthropic: audio parts cannot be carried by anthropic; replaced by a placeholder text")],
        ),
        case(
            "openai-chat: a request without max_tokens, for anthropic",
            &["--target", "anthropic"],
            chat(json!([chat_user("Hi.")])),
            &[("target-unsupported", "",
               "as anthropic: anthropic requests require max_tokens and the input has none; none was written (add one before sending)")],
        ),
        case(
            "anthropic: stop sequences, for openai-responses",
            &["--target", "openai-responses"],
            json!({"model": "claude-sonnet-4-5", "max_tokens": 1024, "system": "Be terse.", "stop_sequences": ["END"],
                   "messages": [anthropic_user("Hi.")]}),
            &[("target-unsupported", "", "as openai-responses: openai-responses has no place for stop; dropped")],
        ),
        // What converts whole fires nothing.
        case(
            "openai-chat: text and an image, for anthropic",
            &["--target", "anthropic"],
            json!({"model": "gpt-4o", "max_tokens": 100, "messages": [{"role": "user", "content": [text("Look."), chat_image()]}]}),
            &[],
        )
        .images(1),
        case(
            "canonical: user audio, for gemini",
            &["--from", "canonical", "--target", "gemini"],
            canonical(json!([canonical_blocks("user", vec![text("Transcribe this."), audio()])])),
            &[],
        ),
    ]);
}

// ---------------------------------------------------------------------------
// Media rules inside transcripts, --fix, --profile

#[test]
fn media_rules_apply_inside_transcripts() {
    let jpeg_as = |mime: &str| json!({"type": "image", "source": {"type": "base64", "media_type": mime, "data": b64("tiny.jpg")}});
    check(vec![
        case(
            "anthropic: a JPEG labelled PNG inside a tool_result (litellm#24900)",
            &[],
            anthropic(json!([anthropic_user("Screenshot, please."),
                anthropic_blocks("assistant", vec![anthropic_call("toolu_1", "screenshot", json!({}))]),
                anthropic_blocks("user", vec![json!({"type": "tool_result", "tool_use_id": "toolu_1",
                    "content": [text("Screen:"), jpeg_as("image/png")]})])])),
            &[("media-type-mismatch", "/messages/2/content/0/content/1", "content is image/jpeg, not image/png")],
        )
        .images(1),
        case(
            "bedrock: an image whose format token disagrees with the bytes",
            &[],
            bedrock(json!([bedrock_blocks("user", vec![json!({"text": "Look."}),
                json!({"image": {"format": "jpeg", "source": {"bytes": b64("tiny.png")}}})])])),
            &[("media-type-mismatch", "/messages/0/content/1/image", "content is image/png, not image/jpeg")],
        )
        .images(1),
        case(
            "gemini: a JPEG labelled PNG under functionResponse.parts",
            &[],
            gemini(json!([gemini_user("Screenshot."), gemini_parts("model", vec![gemini_call(Some("call_1"), "screenshot", json!({}))]),
                gemini_parts("user", vec![json!({"functionResponse": {"id": "call_1", "name": "screenshot", "response": {"output": "ok"},
                    "parts": [{"inlineData": {"mimeType": "image/png", "data": b64("tiny.jpg")}}]}})])])),
            &[("media-type-mismatch", "/contents/2/parts/0/functionResponse/parts/0", "content is image/jpeg, not image/png")],
        )
        .images(1),
        case(
            "openai-responses: a JPEG labelled PNG in a function_call_output",
            &[],
            responses(json!([responses_user("Screenshot."), responses_call("call_1", "screenshot", "{}"),
                {"type": "function_call_output", "call_id": "call_1", "output": [
                    {"type": "input_image", "image_url": data_url("image/png", "tiny.jpg")}]}])),
            &[("media-type-mismatch", "/input/2/output/0", "content is image/jpeg, not image/png")],
        )
        .images(1),
        case(
            "openai-chat: a truncated base64 payload in a user image",
            &[],
            chat(json!([{"role": "user", "content": [text("Look."),
                {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo!"}}]}])),
            &[("base64-invalid", "/messages/0/content/1",
               "invalid base64: character '!' at offset 11")],
        )
        .images(1),
    ]);
    // An alias in a media_type is a warning (fixable); a Bedrock format token
    // (`jpeg`) is no media type and never an alias.
    let doc = anthropic(json!([anthropic_blocks(
        "user",
        vec![text("Look."), jpeg_as("image/jpg")]
    )]));
    let run = validate(&[], &doc.to_string());
    assert_run(
        &run,
        0,
        &[finding(
            "<stdin>",
            1,
            "media-type-alias",
            "/messages/0/content/1",
            "\"image/jpg\" is written \"image/jpeg\" in normalized form",
        )
        .replace("error[", "warning[")],
        "partkit: checked 1 document, 1 image in T s: 0 errors, 1 warning\n",
    );
    let doc = bedrock(json!([bedrock_blocks(
        "user",
        vec![
            json!({"text": "Look."}),
            json!({"image": {"format": "jpeg", "source": {"bytes": b64("tiny.jpg")}}}),
            json!({"image": {"format": "png", "source": {"bytes": b64("tiny.png")}}}),
            json!({"image": {"format": "gif", "source": {"bytes": b64("tiny.gif")}}}),
            json!({"image": {"format": "webp", "source": {"bytes": b64("tiny.webp")}}})
        ]
    )]));
    let run = validate(&["--deny-warnings", "--deep"], &doc.to_string());
    assert_clean(&run, 4);
}

/// The OpenAI Chat transcript of the `--fix` test, pretty-printed, with escapes
/// and non-ASCII text around the mislabeled data URL.
fn chat_to_fix() -> String {
    let doc = chat_with_tools(
        json!([chat_tool("screenshot", None)]),
        json!([
            {"role": "system", "content": "Réponds \"brièvement\" — \u{1F600}\ttab"},
            {"role": "user", "content": [text("What is on screen?")]},
            chat_calls(vec![chat_call("call_1", "screenshot", "{}")]),
            chat_result("call_1", "[tool returned media; see the next user message]"),
            {"role": "user", "content": [text("Output of tool screenshot (call_1):"),
                {"type": "image_url", "image_url": {"url": data_url("image/png", "tiny.jpg"), "detail": "high"}}]}
        ]),
    );
    serde_json::to_string_pretty(&doc).unwrap() + "\n"
}

#[test]
fn fix_repairs_a_mislabeled_data_url_inside_an_openai_chat_transcript() {
    let original = chat_to_fix();
    let (_dir, file) = temp_file("chat.json", original.as_bytes());
    let path = arg(&file).to_string();
    let run = validate_paths(&["--fix", &path]);
    assert_run(
        &run,
        0,
        &[format!("{path}:1: fixed[media-type-mismatch] /messages/4/content/1: content is image/jpeg, not image/png")],
        "partkit: checked 1 document, 1 image in T s: 0 errors, 1 fixed\n",
    );
    // Exactly the declared type changed; every other byte is as it was.
    let fixed = fs::read_to_string(&file).unwrap();
    let wrong = format!("\"url\": \"data:image/png;base64,{}", b64("tiny.jpg"));
    assert_eq!(original.matches(&wrong).count(), 1);
    assert_eq!(
        fixed,
        original.replace(&wrong, &wrong.replace("image/png", "image/jpeg"))
    );
    // Fixed once, clean after.
    let run = validate_paths(&["--fix", &path, "--deny-warnings"]);
    assert_run(&run, 0, &[], &summary(1, 1, 0));
    assert_eq!(fs::read_to_string(&file).unwrap(), fixed);
}

#[test]
fn fix_leaves_what_has_no_single_answer() {
    // A Bedrock format token that disagrees with the bytes, and a tool image in
    // an OpenAI Chat tool message: reported, never rewritten.
    let bedrock_doc = bedrock(json!([bedrock_blocks(
        "user",
        vec![
            json!({"text": "Look."}),
            json!({"image": {"format": "jpeg", "source": {"bytes": b64("tiny.png")}}})
        ]
    )]));
    let chat_doc = chat(
        json!([chat_user("Screenshot."), chat_calls(vec![chat_call("call_1", "screenshot", "{}")]),
        {"role": "tool", "tool_call_id": "call_1", "content": [chat_image()]}]),
    );
    for (doc, line) in [
        (bedrock_doc, "error[media-type-mismatch] /messages/0/content/1/image: content is image/png, not image/jpeg"),
        (chat_doc, "error[media-placement] /messages/2/content/0: an image_url part in a tool message: Chat Completions carries media only in user messages (deliver tool media in a following user message)"),
    ] {
        let text = serde_json::to_string_pretty(&doc).unwrap();
        let (_dir, file) = temp_file("doc.json", text.as_bytes());
        let path = arg(&file).to_string();
        // (The bodies declare no tools: tool-undeclared is not the point here.)
        let run = validate_paths(&["--fix", "--ignore", "tool-undeclared", &path]);
        assert_run(&run, 1, &[format!("{path}:1: {line}")], &summary(1, 1, 1));
        assert_eq!(fs::read_to_string(&file).unwrap(), text);
    }
}

#[test]
fn profile_anthropic_past_20_images_limits_each_to_2000_px() {
    // 21 images in one Anthropic request, one of them 2001 px wide: over the
    // 2000 px that Anthropic allows per side once a request holds more than 20.
    let image = |bytes: &[u8]| json!({"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": STANDARD.encode(bytes)}});
    let wide = png_of(2001, 2);
    let mut blocks: Vec<Value> = (0..20).map(|_| image(&bytes("tiny.png"))).collect();
    blocks.insert(7, image(&wide));
    let doc = anthropic(
        json!([anthropic_blocks("user", vec![text("Compare these screenshots.")]),
        {"role": "assistant", "content": "Which ones?"},
        anthropic_blocks("user", blocks)]),
    );
    let run = validate(&["--profile", "anthropic"], &doc.to_string());
    assert_run(
        &run,
        1,
        &[stdin_error("limit-dim", "/messages/2/content/7",
            "2001x2 px, over 2000 px on its longest side, the anthropic limit once a document holds more than 20 images (21)")],
        &summary(1, 21, 1),
    );
    // Without the profile, or with 20 images, nothing.
    let run = validate(&[], &doc.to_string());
    assert_clean(&run, 21);
    let mut twenty = doc.clone();
    twenty["messages"][2]["content"]
        .as_array_mut()
        .unwrap()
        .remove(0);
    let run = validate(&["--profile", "anthropic"], &twenty.to_string());
    assert_clean(&run, 20);
}

#[test]
fn profile_anthropic_catches_an_8000_px_screenshot_in_a_tool_result() {
    // anthropics/claude-code#5147: one oversized tool image poisons every later turn.
    let shot = png_of(8001, 1);
    let doc = anthropic(json!([
        anthropic_user("Take a screenshot."),
        anthropic_blocks(
            "assistant",
            vec![anthropic_call("toolu_1", "screenshot", json!({}))]
        ),
        anthropic_blocks(
            "user",
            vec![
                json!({"type": "tool_result", "tool_use_id": "toolu_1", "content": [
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": STANDARD.encode(&shot)}}]}),
                text("What does it show?")
            ]
        )
    ]));
    let run = validate(
        &["--profile", "anthropic", "--ignore", "tool-undeclared"],
        &doc.to_string(),
    );
    assert_run(
        &run,
        1,
        &[stdin_error(
            "limit-dim",
            "/messages/2/content/0/content/0",
            "8001x1 px, over 8000 px on its longest side",
        )],
        &summary(1, 1, 1),
    );
}

#[test]
fn a_data_url_pasted_into_text_is_a_warning_in_transcripts() {
    let pasted = format!("Here it is: {}", data_url("image/png", "tiny.png"));
    let doc = chat(
        json!([{"role": "user", "content": [text(&pasted)]}, {"role": "assistant", "content": "I see text."}]),
    );
    let run = validate(&["--from", "openai-chat"], &doc.to_string());
    assert_run(
        &run,
        0,
        &[format!("<stdin>:1: warning[base64-in-text] /messages/0/content/0/text: text holds a base64 data: URL (image/png, {} characters): the model reads it as text, not as media", b64("tiny.png").len())],
        "partkit: checked 1 document, 0 images in T s: 0 errors, 1 warning\n",
    );
}

#[test]
fn a_tool_result_flattened_to_a_data_url_string_is_a_warning() {
    let doc = chat(
        json!([chat_user("Screenshot."), chat_calls(vec![chat_call("call_1", "screenshot", "{}")]),
        chat_result("call_1", &data_url("image/png", "tiny.png")), {"role": "assistant", "content": "I see text."}]),
    );
    let run = validate(&["--ignore", "tool-undeclared"], &doc.to_string());
    assert_run(
        &run,
        0,
        &[format!("<stdin>:1: warning[base64-in-text] /messages/2/content: text holds a base64 data: URL (image/png, {} characters): the model reads it as text, not as media", b64("tiny.png").len())],
        "partkit: checked 1 document, 0 images in T s: 0 errors, 1 warning\n",
    );
}

// ---------------------------------------------------------------------------
// JSON Lines, --from, detection, --kind, --ignore

#[test]
fn json_lines_of_transcripts_with_a_bad_line() {
    let lines = [
        chat(json!([chat_user("Hi."), {"role": "assistant", "content": "Hello."}])).to_string(),
        "{\"model\": \"gpt-4o\", \"messages\": [".to_string(),
        String::new(),
        anthropic(json!([
            anthropic_user("Go."),
            anthropic_blocks(
                "assistant",
                vec![anthropic_call("toolu.1", "get_chart", json!({}))]
            )
        ]))
        .to_string(),
        gemini_tool_result().to_string(),
        bedrock(json!([bedrock_user("Hi."), bedrock_user("Again.")])).to_string(),
    ];
    let (_dir, file) = temp_file("transcripts.jsonl", (lines.join("\n") + "\n").as_bytes());
    let path = arg(&file).to_string();
    let run = validate_paths(&[&path, "--ignore", "tool-undeclared"]);
    assert_run(
        &run,
        1,
        &[
            finding(
                &path,
                2,
                "invalid-json",
                "",
                "EOF while parsing a list at line 1 column 33",
            ),
            finding(
                &path,
                4,
                "tool-id-pattern",
                "/messages/1/content/0",
                "call id \"toolu.1\" is outside anthropic's pattern [a-zA-Z0-9_-]+",
            ),
            finding(
                &path,
                6,
                "shape-order",
                "/messages/1/role",
                "two user messages in a row: Converse roles alternate",
            ),
        ],
        &summary(5, 0, 3),
    );
    // The same as JSON objects, each with its line.
    let run = validate_paths(&[&path, "--format", "json", "--ignore", "tool-undeclared"]);
    let lines: Vec<(u64, String)> = run
        .json_lines()
        .iter()
        .map(|f| {
            (
                f["line"].as_u64().unwrap(),
                f["rule"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        (run.code, lines),
        (
            1,
            vec![
                (2, "invalid-json".into()),
                (4, "tool-id-pattern".into()),
                (6, "shape-order".into())
            ]
        )
    );
    // Every line read as one shape with --from: Bedrock's rules on every line.
    let run = validate_paths(&[&path, "--from", "bedrock", "--ignore", "invalid-json"]);
    assert_run(
        &run,
        1,
        &[
            finding(
                &path,
                1,
                "transcript-invalid",
                "/messages/0/content",
                "not a valid bedrock document: content is a list of blocks",
            ),
            finding(
                &path,
                4,
                "transcript-invalid",
                "/system",
                "not a valid bedrock document: system is a list of blocks",
            ),
            finding(
                &path,
                6,
                "shape-order",
                "/messages/1/role",
                "two user messages in a row: Converse roles alternate",
            ),
        ],
        &summary(5, 0, 3),
    );
}

#[test]
fn from_forces_the_shape_and_its_rules() {
    // A bare list of plain messages is guessed as OpenAI Chat: a blank message
    // passes there, but not when it is read as Anthropic.
    let list =
        json!([{"role": "user", "content": " "}, {"role": "assistant", "content": "Hello."}]);
    assert_clean(&validate(&[], &list.to_string()), 0);
    let run = validate(&["--from", "anthropic"], &list.to_string());
    assert_run(
        &run,
        1,
        &[stdin_error(
            "text-empty",
            "/0/content",
            "Anthropic refuses messages whose text has no non-whitespace character",
        )],
        &summary(1, 0, 1),
    );
    // An Anthropic request read as Gemini is not a Gemini document.
    let doc = anthropic(json!([anthropic_user("Hi.")]));
    assert_clean(&validate(&[], &doc.to_string()), 0);
    let run = validate(&["--from", "gemini"], &doc.to_string());
    assert_run(
        &run,
        1,
        &[stdin_error(
            "shape-field",
            "",
            "a gemini request needs contents",
        )],
        &summary(1, 0, 1),
    );
    let run = validate(&["--from", "bedrock"], &doc.to_string());
    assert_run(
        &run,
        1,
        &[stdin_error(
            "transcript-invalid",
            "/system",
            "not a valid bedrock document: system is a list of blocks",
        )],
        &summary(1, 0, 1),
    );
    // --from implies --kind transcript: a tool reply is then read as a transcript.
    let reply = json!({"tool_output_images": []});
    let run = validate(&["--from", "canonical"], &reply.to_string());
    assert_run(
        &run,
        1,
        &[stdin_error("transcript-invalid", "/tool_output_images",
            "not a valid canonical document: unknown key \"tool_output_images\" in a canonical transcript")],
        &summary(1, 0, 1),
    );
}

#[test]
fn shapes_are_detected_by_their_keys() {
    // One document per shape whose finding only that shape's rules give.
    check(vec![
        case("openai-chat, detected: an image in a tool message", &[],
            chat(json!([chat_user("Go."), chat_calls(vec![chat_call("call_1", "shot", "{}")]),
                {"role": "tool", "tool_call_id": "call_1", "content": [chat_image()]}])),
            &[("media-placement", "/messages/2/content/0",
               "an image_url part in a tool message: Chat Completions carries media only in user messages (deliver tool media in a following user message)")])
            .images(1),
        case("openai-responses, detected: an image without detail", &[],
            json!([{"type": "message", "role": "user", "content": [{"type": "input_image", "image_url": data_url("image/png", "tiny.png")}]}]),
            &[("shape-field", "/0/content/0", "an input_image in a message needs detail")])
            .images(1),
        case("anthropic, detected by its blocks: a call id with a dot", &[],
            json!([anthropic_user("Go."), anthropic_blocks("assistant", vec![anthropic_call("toolu.1", "shot", json!({}))])]),
            &[("tool-id-pattern", "/1/content/0", "call id \"toolu.1\" is outside anthropic's pattern [a-zA-Z0-9_-]+")]),
        case("gemini, detected by its parts: a list response", &[],
            json!([gemini_user("Go."), gemini_parts("model", vec![gemini_call(Some("call_1"), "shot", json!({}))]),
                gemini_parts("user", vec![json!({"functionResponse": {"id": "call_1", "name": "shot", "response": [1]}})])]),
            &[("shape-field", "/2/parts/0/functionResponse/response",
               "functionResponse.response must be an object ({\"output\": …}), not an array")]),
        case("bedrock, detected by its blocks: two user messages", &[],
            json!([bedrock_user("Hi."), bedrock_user("Again.")]),
            &[("shape-order", "/1/role", "two user messages in a row: Converse roles alternate")]),
        case("canonical, detected by a tool_call: an empty id", &[],
            json!([canonical_user("Go."), canonical_blocks("assistant", vec![canonical_call("", "shot", json!({}))])]),
            &[("tool-id-missing", "/1/content/0", "call of shot has no id")]),
        case("responses: a response object", &[],
            json!({"object": "response", "output": [{"type": "function_call", "call_id": "call_1", "name": "f", "arguments": "[1]"}]}),
            &[("tool-arguments-not-object", "/output/0", "arguments of call call_1 (f) must be a JSON object, not an array")]),
        case("bedrock: a Converse response", &[],
            json!({"output": {"message": bedrock_blocks("assistant", vec![bedrock_call("tooluse/1", "f", json!({}))])}, "stopReason": "tool_use"}),
            &[("tool-id-pattern", "/output/message/content/0/toolUse", "call id \"tooluse/1\" is outside bedrock's pattern [a-zA-Z0-9_.:-]{1,64}")]),
        case("openai-chat: a chat.completion", &[],
            json!({"object": "chat.completion", "choices": [{"index": 0, "message": {"role": "assistant", "content": null,
                "tool_calls": [chat_call("call_1", "f", "{oops")]}}]}),
            &[("tool-arguments-json", "/choices/0/message/tool_calls/0", "arguments of call call_1 (f) are not JSON: {oops")]),
        case("gemini: a candidates response", &[],
            json!({"candidates": [{"content": gemini_parts("model", vec![gemini_call(Some("call_1"), "f", json!([1]))])}]}),
            &[("tool-arguments-not-object", "/candidates/0/content/parts/0/functionCall", "arguments of call call_1 (f) must be a JSON object, not an array")]),
    ]);
}

#[test]
fn kind_transcript_and_ignore() {
    // --kind transcript without --from detects the shape, and reads what
    // nothing fits as canonical.
    let doc = bedrock(json!([bedrock_user("Hi."), bedrock_user("Again.")]));
    let run = validate(&["--kind", "transcript"], &doc.to_string());
    assert_run(
        &run,
        1,
        &[stdin_error(
            "shape-order",
            "/messages/1/role",
            "two user messages in a row: Converse roles alternate",
        )],
        &summary(1, 0, 1),
    );
    let run = validate(&["--kind", "transcript"], "{\"a\": 1}");
    assert_run(
        &run,
        1,
        &[stdin_error(
            "transcript-invalid",
            "/a",
            "not a valid canonical document: unknown key \"a\" in a canonical transcript",
        )],
        &summary(1, 0, 1),
    );
    // Without --kind, a document of no kind is skipped, not failed.
    let run = validate(&[], "{\"a\": 1}");
    assert_run(
        &run,
        0,
        &[],
        "partkit: checked 0 documents, 0 images in T s: 0 errors; 1 document skipped (not a tool reply, canonical parts or a transcript)\n",
    );
    // --ignore turns one transcript rule off and leaves the others.
    let b = build(
        "openai-chat",
        Some(&[("get_chart", Some(chart_schema()))]),
        &[
            User("Go."),
            Calls(vec![
                call("call_1", "get_chart", json!({"city": 3})),
                call("call_1", "delete_everything", json!({})),
            ]),
        ],
    );
    let run = validate(&["--ignore", "tool-arguments-schema"], &b.doc.to_string());
    assert_run(
        &run,
        1,
        &[
            stdin_error("tool-id-duplicate", b.call(1), &format!("call id \"call_1\" is used twice (first by the call at {})", b.call(0))),
            stdin_error("tool-undeclared", b.call(1), "call call_1 (delete_everything) calls a tool the document does not declare (declared: get_chart)"),
        ],
        &summary(1, 0, 2),
    );
}

#[test]
fn a_bedrock_request_whose_tools_were_all_dropped_validates_clean() {
    let request = responses_with_tools(
        json!([{"type": "web_search"}]),
        json!([responses_user("Search the web.")]),
    );
    let (_dir, file) = temp_file("request.json", request.to_string().as_bytes());
    let output = converted(&file, "openai-responses", "bedrock", &[]).expect("converts");
    let run = validate(&["--from", "bedrock"], &output);
    assert_clean(&run, 0);
}
