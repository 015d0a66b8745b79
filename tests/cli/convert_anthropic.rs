//! `partkit convert` with Anthropic Messages on either side (docs/conversion.md): requests,
//! bare message lists, responses and single `tool_result` blocks round trip
//! exactly (Anthropic → canonical → Anthropic gives back the same JSON, here even
//! the same bytes, since the documents are written in the writer's key order);
//! conversions to and from OpenAI Chat Completions give exact documents; and the
//! bugs real converters shipped (docs/converter-bugs.md) have a test named
//! after what it guards.
//!
//! Documents are built here from the committed media fixtures (`tiny.png`,
//! `doc.pdf`, `tone.wav`) and given on stdin, so messages name `<stdin>`; one
//! response is a committed file (`tests/fixtures/convert/anthropic/response.json`).

use std::fs;

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use serde_json::{json, Value};

use super::{fixture, run, run_with_stdin, Run};

// ---------------------------------------------------------------------------
// Helpers

/// Canonical base64 of a fixture.
fn b64(name: &str) -> String {
    STANDARD.encode(fs::read(fixture(name)).expect("fixture"))
}

/// A base64 data URL of a fixture.
fn data_url(mime: &str, name: &str) -> String {
    format!("data:{mime};base64,{}", b64(name))
}

/// The compact JSON text of a value, as `convert` prints it when stdout is not
/// a terminal.
fn compact(value: &Value) -> String {
    serde_json::to_string(value).unwrap()
}

/// Runs `partkit convert --from FROM --to TO [extra…] -` on `input`.
fn convert(from: &str, to: &str, extra: &[&str], input: &Value) -> Run {
    let mut args = vec!["convert", "--from", from, "--to", to];
    args.extend(extra);
    args.push("-");
    run_with_stdin(&args, compact(input).as_bytes())
}

/// The stderr of warning lines.
fn warnings(lines: &[&str]) -> String {
    lines
        .iter()
        .map(|line| format!("partkit: warning: {line}\n"))
        .collect()
}

/// Exit 0, stdout the JSON `expected`, stderr exactly `stderr`.
fn assert_converted(run: &Run, expected: &Value, stderr: &str) {
    assert_eq!(run.code, 0, "exit code; stderr: {}", run.stderr);
    assert_eq!(run.stderr, stderr, "stderr");
    assert_eq!(&run.json(), expected, "stdout");
}

/// Exit 0, nothing on stderr, and stdout the very bytes of `expected`.
fn assert_exact(run: &Run, expected: &Value) {
    assert_converted(run, expected, "");
    assert_eq!(
        run.stdout,
        format!("{}\n", compact(expected)),
        "stdout bytes"
    );
}

/// Anthropic → Anthropic, and Anthropic → canonical → Anthropic, give back the
/// input byte for byte, silently. Returns the canonical form.
fn assert_round_trips(input: &Value) -> Value {
    assert_exact(&convert("anthropic", "anthropic", &[], input), input);
    let canonical = convert("anthropic", "canonical", &[], input);
    assert_eq!(canonical.code, 0, "stderr: {}", canonical.stderr);
    assert_eq!(canonical.stderr, "");
    let canonical = canonical.json();
    assert_exact(&convert("canonical", "anthropic", &[], &canonical), input);
    canonical
}

/// A base64 PNG image block.
fn png_block() -> Value {
    json!({"type": "image", "source": {"type": "base64", "media_type": "image/png",
                                       "data": b64("tiny.png")}})
}

/// An OpenAI Chat image part of the PNG fixture.
fn png_image_url() -> Value {
    json!({"type": "image_url", "image_url": {"url": data_url("image/png", "tiny.png")}})
}

fn text(text: &str) -> Value {
    json!({"type": "text", "text": text})
}

// ---------------------------------------------------------------------------
// Round trips

/// A realistic agent request: cached system prompt, tools with schemas (one
/// strict, one cached, one server tool), parallel tool calls after a signed
/// thinking block, results with text + image, text + PDF document (with
/// citations enabled), an error, an answer citing the document, and settings
/// only Anthropic has.
fn realistic_request() -> Value {
    json!({
        "model": "claude-sonnet-4-5",
        "max_tokens": 2048,
        "system": [{"type": "text", "text": "You are a careful analyst.",
                    "cache_control": {"type": "ephemeral", "ttl": "1h"}}],
        "messages": [
            {"role": "user", "content": "Chart Paris and Lyon, and summarize the Q3 report."},
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": "Three independent calls; run them in parallel.",
                 "signature": "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds"},
                {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIw"},
                {"type": "text", "text": "Fetching all three."},
                {"type": "tool_use", "id": "toolu_01A09q90qw90lq917835lq9", "name": "get_chart",
                 "input": {"city": "Paris", "days": 7}},
                {"type": "tool_use", "id": "toolu_01B", "name": "get_chart",
                 "input": {"city": "Lyon", "days": 7}},
                {"type": "tool_use", "id": "toolu_01C", "name": "get_report", "input": {}}
            ]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "toolu_01A09q90qw90lq917835lq9", "content": [
                    text("Paris, 7 days:"), png_block()]},
                {"type": "tool_result", "tool_use_id": "toolu_01B",
                 "content": "no data for Lyon", "is_error": true},
                {"type": "tool_result", "tool_use_id": "toolu_01C", "content": [
                    text("Q3 report attached."),
                    {"type": "document",
                     "source": {"type": "base64", "media_type": "application/pdf", "data": b64("doc.pdf")},
                     "title": "q3-report.pdf", "context": "Internal, Q3 2026",
                     "citations": {"enabled": true}}],
                 "cache_control": {"type": "ephemeral"}}
            ]},
            {"role": "assistant", "content": [
                {"type": "text", "text": "Revenue grew 12% in Q3.",
                 "citations": [{"type": "page_location", "cited_text": "partkit",
                                "document_index": 0, "document_title": "q3-report.pdf",
                                "start_page_number": 1, "end_page_number": 2}]},
                {"type": "text", "text": " Lyon had no data."}
            ]}
        ],
        "tools": [
            {"name": "get_chart", "description": "Render a weather chart",
             "input_schema": {"type": "object",
                              "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
                              "required": ["city"]},
             "strict": true},
            {"name": "get_report", "description": "Fetch the latest report",
             "input_schema": {"type": "object", "properties": {}},
             "cache_control": {"type": "ephemeral"}},
            {"type": "web_search_20250305", "name": "web_search", "max_uses": 3}
        ],
        "tool_choice": {"type": "auto", "disable_parallel_tool_use": false},
        "stop_sequences": ["\n\nHuman:"],
        "temperature": 1.0,
        "thinking": {"type": "enabled", "budget_tokens": 4096},
        "metadata": {"user_id": "user-1234"}
    })
}

#[test]
fn realistic_request_round_trips_exactly() {
    let canonical = assert_round_trips(&realistic_request());
    // What the canonical model made of it: calls, results with their names
    // and error flag, and what only Anthropic has kept beside them.
    assert_eq!(canonical["messages"][2]["role"], "tool");
    assert_eq!(
        canonical["messages"][2]["content"][1],
        json!({"type": "tool_result", "call_id": "toolu_01B", "name": "get_chart",
               "is_error": true, "content": [text("no data for Lyon")],
               "extensions": {"anthropic": {"$content": "string"}}})
    );
    assert_eq!(
        canonical["messages"][1]["content"][3],
        json!({"type": "tool_call", "id": "toolu_01A09q90qw90lq917835lq9",
               "name": "get_chart", "arguments": {"city": "Paris", "days": 7}})
    );
    assert_eq!(
        canonical["messages"][2]["content"][2]["content"][1],
        json!({"type": "file", "mimeType": "application/pdf", "data": b64("doc.pdf"),
               "name": "q3-report.pdf",
               "extensions": {"anthropic": {"context": "Internal, Q3 2026",
                                            "citations": {"enabled": true}}}})
    );
    assert_eq!(canonical["temperature"], json!(1.0));
    assert_eq!(canonical["stop"], json!(["\n\nHuman:"]));
    assert_eq!(
        canonical["extensions"],
        json!({"anthropic": {"$sampling": ["temperature"],
                             "tool_choice.disable_parallel_tool_use": false,
                             "thinking": {"type": "enabled", "budget_tokens": 4096},
                             "metadata": {"user_id": "user-1234"}}})
    );
}

#[test]
fn bare_list_round_trips_exactly() {
    let list = json!([
        {"role": "system", "content": "Mid-conversation system message."},
        {"role": "user", "content": [
            {"type": "text", "text": "Look at these.", "cache_control": {"type": "ephemeral"}},
            {"type": "image", "source": {"type": "base64", "media_type": "image/jpg",
                                         "data": b64("tiny.png")}},
            {"type": "image", "source": {"type": "url", "url": "https://example.com/shot.png"}},
            {"type": "image", "source": {"type": "url", "url": "https://example.com/render?id=7"}},
            {"type": "image", "source": {"type": "file", "file_id": "file_011CNha8iCJcU1wXNR6q4V8w"}},
            {"type": "document", "source": {"type": "text", "media_type": "text/plain",
                                            "data": "Grüße: plain notes ✓"},
             "title": "notes.txt"},
            {"type": "document", "source": {"type": "url", "url": "https://example.com/a.pdf"},
             "title": null},
            {"type": "document", "source": {"type": "content", "content": [text("chunk one")]}}
        ]},
        {"role": "assistant", "content": [
            {"type": "text", "text": ""},
            {"type": "server_tool_use", "id": "srvtoolu_01", "name": "web_search",
             "input": {"query": "partkit"}},
            {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_01", "content": []},
            {"type": "tool_use", "id": "toolu_01", "name": "lookup", "input": {"q": "x"}},
            {"type": "tool_use", "id": "toolu_02", "name": "now"}
        ]},
        {"role": "user", "content": [
            text("Text before the results."),
            {"type": "tool_result", "tool_use_id": "toolu_01", "content": [
                {"type": "search_result", "source": "https://example.com", "title": "x",
                 "content": [text("found")]}]},
            text("and between")
        ]},
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_02", "content": "  "}
        ]},
        {"role": "user", "content": [text("One plain block.")]},
        {"role": "assistant", "content": "A string answer."},
        {"role": "user", "content": ""}
    ]);
    let canonical = assert_round_trips(&list);
    // The user message of the results came first, its text after it.
    assert_eq!(canonical[3]["role"], "tool");
    assert_eq!(
        canonical[4],
        json!({"role": "user", "content": [text("Text before the results."), text("and between")],
               "extensions": {"anthropic": {"$joined": "crc"}}})
    );
    assert_eq!(
        canonical[1]["content"][5],
        json!({"type": "file", "mimeType": "text/plain",
               "data": STANDARD.encode("Grüße: plain notes ✓"), "name": "notes.txt"})
    );
}

#[test]
fn response_round_trips_exactly() {
    let path = fixture("convert/anthropic/response.json");
    let input: Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
    let file = "tests/fixtures/convert/anthropic/response.json";
    let direct = run(&["convert", "--to", "anthropic", file]);
    assert_exact(&direct, &input);
    let canonical = run(&["convert", "--from", "anthropic", "--to", "canonical", file]);
    assert_eq!(canonical.code, 0, "stderr: {}", canonical.stderr);
    let canonical = canonical.json();
    assert_eq!(canonical["model"], "claude-sonnet-4-5");
    assert_eq!(canonical["messages"][0]["role"], "assistant");
    assert_exact(&convert("canonical", "anthropic", &[], &canonical), &input);
}

#[test]
fn single_tool_results_round_trip_exactly() {
    for result in [
        json!({"type": "tool_result", "tool_use_id": "toolu_01", "content": "42"}),
        json!({"type": "tool_result", "tool_use_id": "toolu_01"}),
        json!({"type": "tool_result", "tool_use_id": "toolu_01", "content": []}),
        json!({"type": "tool_result", "tool_use_id": "toolu_01", "content": [png_block()],
               "is_error": false, "cache_control": {"type": "ephemeral"}}),
        json!({"type": "tool_result", "tool_use_id": "toolu_01",
               "content": [text("failed"), text(" ")], "is_error": true}),
    ] {
        assert_round_trips(&result);
        // Auto-detection reads it as Anthropic.
        assert_exact(
            &run_with_stdin(
                &["convert", "--to", "anthropic"],
                compact(&result).as_bytes(),
            ),
            &result,
        );
    }
}

// ---------------------------------------------------------------------------
// Across shapes

/// An Anthropic request that maps onto OpenAI Chat without loss.
fn portable_request() -> Value {
    json!({
        "model": "claude-sonnet-4-5",
        "max_tokens": 1024,
        "system": "You are terse.",
        "messages": [
            {"role": "user", "content": "Chart Paris, then ping."},
            {"role": "assistant", "content": [
                text("On it."),
                {"type": "tool_use", "id": "toolu_01", "name": "get_chart", "input": {"city": "Paris"}},
                {"type": "tool_use", "id": "toolu_02", "name": "ping", "input": {}}]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "toolu_01",
                 "content": [text("chart:"), png_block()]},
                {"type": "tool_result", "tool_use_id": "toolu_02", "content": "pong"}]},
            {"role": "assistant", "content": "Done."}
        ],
        "tools": [
            {"name": "get_chart", "description": "Render a chart",
             "input_schema": {"type": "object", "properties": {"city": {"type": "string"}},
                              "required": ["city"]}},
            {"name": "ping", "description": "Check the service",
             "input_schema": {"type": "object", "properties": {}}}
        ],
        "tool_choice": {"type": "tool", "name": "get_chart"},
        "stop_sequences": ["END"]
    })
}

#[test]
fn anthropic_to_openai_chat() {
    let run = convert("anthropic", "openai-chat", &[], &portable_request());
    assert_converted(
        &run,
        &json!({
            "model": "claude-sonnet-4-5",
            "messages": [
                {"role": "system", "content": "You are terse."},
                {"role": "user", "content": "Chart Paris, then ping."},
                {"role": "assistant", "content": "On it.", "tool_calls": [
                    {"id": "toolu_01", "type": "function",
                     "function": {"name": "get_chart", "arguments": "{\"city\":\"Paris\"}"}},
                    {"id": "toolu_02", "type": "function",
                     "function": {"name": "ping", "arguments": "{}"}}]},
                {"role": "tool", "tool_call_id": "toolu_01", "content": "chart:"},
                {"role": "tool", "tool_call_id": "toolu_02", "content": "pong"},
                {"role": "user", "content": [
                    text("Output of tool get_chart (toolu_01):"), png_image_url()]},
                {"role": "assistant", "content": "Done."}
            ],
            "tools": [
                {"type": "function", "function": {
                    "name": "get_chart", "description": "Render a chart",
                    "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                                   "required": ["city"]}}},
                {"type": "function", "function": {
                    "name": "ping", "description": "Check the service",
                    "parameters": {"type": "object", "properties": {}}}}
            ],
            "tool_choice": {"type": "function", "function": {"name": "get_chart"}},
            "max_completion_tokens": 1024,
            "stop": ["END"]
        }),
        "",
    );
}

#[test]
fn openai_chat_to_anthropic() {
    let input = json!({
        "model": "gpt-4.1",
        "messages": [
            {"role": "developer", "content": "Be terse."},
            {"role": "user", "content": [
                text("What is on this chart?"),
                {"type": "image_url", "image_url": {"url": data_url("image/png", "tiny.png"),
                                                    "detail": "high"}},
                {"type": "file", "file": {"filename": "q3.pdf",
                                          "file_data": data_url("application/pdf", "doc.pdf")}}]},
            {"role": "assistant", "content": null, "tool_calls": [
                {"id": "call_a", "type": "function",
                 "function": {"name": "get_chart", "arguments": "{\"city\": \"Paris\"}"}},
                {"id": "call_b", "type": "function",
                 "function": {"name": "ping", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": "call_a", "content": "chart rendered"},
            {"role": "tool", "tool_call_id": "call_b", "content": [text("pong")]},
            {"role": "user", "content": "thanks"}
        ],
        "tools": [
            {"type": "function", "function": {"name": "get_chart", "description": "Render a chart",
                "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
                "strict": true}},
            {"type": "function", "function": {"name": "ping"}}
        ],
        "tool_choice": "required",
        "max_completion_tokens": 512,
        "stop": "END"
    });
    let run = convert("openai-chat", "anthropic", &[], &input);
    assert_converted(
        &run,
        &json!({
            "model": "gpt-4.1",
            "max_tokens": 512,
            "system": "Be terse.",
            "messages": [
                {"role": "user", "content": [
                    text("What is on this chart?"),
                    png_block(),
                    {"type": "document", "source": {"type": "base64",
                        "media_type": "application/pdf", "data": b64("doc.pdf")},
                     "title": "q3.pdf"}]},
                {"role": "assistant", "content": [
                    {"type": "tool_use", "id": "call_a", "name": "get_chart",
                     "input": {"city": "Paris"}},
                    {"type": "tool_use", "id": "call_b", "name": "ping", "input": {}}]},
                {"role": "user", "content": [
                    {"type": "tool_result", "tool_use_id": "call_a",
                     "content": [text("chart rendered")]},
                    {"type": "tool_result", "tool_use_id": "call_b",
                     "content": [text("pong")]}]},
                {"role": "user", "content": "thanks"}
            ],
            "tools": [
                {"name": "get_chart", "description": "Render a chart",
                 "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}},
                 "strict": true},
                {"name": "ping", "input_schema": {"type": "object", "properties": {}}}
            ],
            "tool_choice": {"type": "any"},
            "stop_sequences": ["END"]
        }),
        "partkit: warning: anthropic has no place for openai-chat detail; dropped\n",
    );
}

#[test]
fn a_list_with_a_system_message_becomes_a_request() {
    let input = json!([
        {"role": "system", "content": "Be terse."},
        {"role": "user", "content": "hi"}
    ]);
    let run = convert("openai-chat", "anthropic", &[], &input);
    assert_converted(
        &run,
        &json!({"system": "Be terse.", "messages": [{"role": "user", "content": "hi"}]}),
        "",
    );
}

#[test]
fn a_tool_without_parameters_gets_an_explicit_empty_schema() {
    let input = json!([
        {"role": "user", "content": "ping"}
    ]);
    let input = json!({"model": "m", "max_tokens": 10, "messages": input,
                       "tools": [{"type": "function", "function": {"name": "ping"}}]});
    let run = convert("openai-chat", "anthropic", &[], &input);
    assert_converted(
        &run,
        &json!({"model": "m", "max_tokens": 10,
                "messages": [{"role": "user", "content": "ping"}],
                "tools": [{"name": "ping",
                           "input_schema": {"type": "object", "properties": {}}}]}),
        "",
    );
    // An Anthropic tool read without input_schema stays without one.
    let bare = json!({"model": "m", "max_tokens": 10, "messages": [],
                      "tools": [{"name": "ping", "description": "d"}]});
    assert_round_trips(&bare);
}

#[test]
fn max_tokens_is_never_invented() {
    let input = json!({"model": "gpt-4.1", "messages": [{"role": "user", "content": "hi"}]});
    let run = convert("openai-chat", "anthropic", &[], &input);
    assert_converted(
        &run,
        &json!({"model": "gpt-4.1", "messages": [{"role": "user", "content": "hi"}]}),
        &warnings(&["anthropic requests require max_tokens and the input has none; none was written (add one before sending)"]),
    );
}

#[test]
fn temperature_and_top_p_from_openai_are_dropped_with_a_warning() {
    let input = json!({"model": "gpt-4.1", "max_tokens": 100, "temperature": 0.2, "top_p": 1.0,
                       "messages": [{"role": "user", "content": "hi"}]});
    let run = convert("openai-chat", "anthropic", &[], &input);
    assert_converted(
        &run,
        &json!({"model": "gpt-4.1", "max_tokens": 100,
                "messages": [{"role": "user", "content": "hi"}]}),
        &warnings(&["anthropic has no place for temperature, top_p; dropped"]),
    );
    let run = convert("openai-chat", "anthropic", &["--strict"], &input);
    run.assert_error(
        1,
        &["<stdin>: --strict: anthropic cannot carry temperature"],
    );
    // From Anthropic to OpenAI they carry over: OpenAI has them.
    let anthropic = json!({"model": "m", "max_tokens": 100, "temperature": 0.2, "top_p": 0.9,
                           "messages": [{"role": "user", "content": "hi"}]});
    let run = convert("anthropic", "openai-chat", &[], &anthropic);
    assert_converted(
        &run,
        &json!({"model": "m", "messages": [{"role": "user", "content": "hi"}],
                "max_completion_tokens": 100, "temperature": 0.2, "top_p": 0.9}),
        "",
    );
}

// ---------------------------------------------------------------------------
// Bugs real converters shipped

#[test]
fn image_only_tool_result_has_no_empty_text_block() {
    // An OpenAI-dialect image inside a tool message (toolnexus emitted an empty
    // text block before it, or dropped it).
    let input = json!([
        {"role": "assistant", "content": null, "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "shot", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": [png_image_url()]}
    ]);
    let run = convert("openai-chat", "anthropic", &[], &input);
    assert_converted(
        &run,
        &json!([
            {"role": "assistant", "content": [
                {"type": "tool_use", "id": "call_1", "name": "shot", "input": {}}]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "call_1", "content": [png_block()]}]}
        ]),
        "",
    );
    // A canonical result whose text is empty: the text is left out, and said.
    let canonical = json!({"type": "tool_result", "call_id": "call_1", "is_error": false,
                           "content": [text(""), {"type": "image", "mimeType": "image/png",
                                                  "data": b64("tiny.png")}]});
    let run = convert("canonical", "anthropic", &[], &canonical);
    assert_converted(
        &run,
        &json!({"type": "tool_result", "tool_use_id": "call_1", "content": [png_block()]}),
        &warnings(&[
            "left out empty text parts: anthropic rejects text blocks without non-whitespace text",
        ]),
    );
}

#[test]
fn tool_use_id_survives_into_tool_call_id_and_back() {
    let input = json!([
        {"role": "user", "content": "time?"},
        {"role": "assistant", "content": [
            {"type": "tool_use", "id": "toolu_01D7FLrfh4GYq7yT1ULFeyMV", "name": "now", "input": {}}]},
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_01D7FLrfh4GYq7yT1ULFeyMV",
             "content": [text("12:00")]}]}
    ]);
    let chat = convert("anthropic", "openai-chat", &[], &input);
    assert_converted(
        &chat,
        &json!([
            {"role": "user", "content": "time?"},
            {"role": "assistant", "content": null, "tool_calls": [
                {"id": "toolu_01D7FLrfh4GYq7yT1ULFeyMV", "type": "function",
                 "function": {"name": "now", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": "toolu_01D7FLrfh4GYq7yT1ULFeyMV", "content": "12:00"}
        ]),
        "",
    );
    let back = convert("openai-chat", "anthropic", &[], &chat.json());
    assert_converted(&back, &input, "");
}

#[test]
fn thinking_blocks_are_dropped_with_one_warning_for_openai_chat() {
    let input = json!([
        {"role": "user", "content": "2+2?"},
        {"role": "assistant", "content": [
            {"type": "thinking", "thinking": "Simple.", "signature": "EqQBCgIYAhIM"},
            {"type": "redacted_thinking", "data": "EmwKAhgBEgy3"},
            {"type": "thinking", "thinking": "Still simple.", "signature": "EqQBCgIYAhIN"},
            text("4")]}
    ]);
    let run = convert("anthropic", "openai-chat", &[], &input);
    assert_converted(
        &run,
        &json!([
            {"role": "user", "content": "2+2?"},
            {"role": "assistant", "content": "4"}
        ]),
        &warnings(&[
            "openai-chat has no place for anthropic thinking blocks, anthropic redacted_thinking blocks; dropped",
        ]),
    );
    let run = convert("anthropic", "openai-chat", &["--strict"], &input);
    run.assert_error(
        1,
        &["<stdin>: --strict: openai-chat cannot carry anthropic thinking blocks"],
    );
}

#[test]
fn audio_attached_by_a_user_is_exit_1() {
    let input = json!([
        {"role": "user", "content": [
            text("Transcribe this."),
            {"type": "input_audio", "input_audio": {"data": b64("tone.wav"), "format": "wav"}}]}
    ]);
    let run = convert("openai-chat", "anthropic", &[], &input);
    // The pointer is the input's own (a bare list: item 0).
    run.assert_error(1, &["<stdin>: /0/content/1: audio part (audio/wav) cannot be carried by anthropic: Anthropic has no audio blocks"]);
    assert_eq!(
        run.stderr,
        "partkit: error: <stdin>: /0/content/1: audio part (audio/wav) cannot be carried by anthropic: Anthropic has no audio blocks\n"
    );
    // --on-unsupported text degrades it instead.
    let run = convert(
        "openai-chat",
        "anthropic",
        &["--on-unsupported", "text"],
        &input,
    );
    assert_converted(
        &run,
        &json!([{"role": "user", "content": [
            text("Transcribe this."), text("[unsupported audio part (audio/wav, 444 bytes)]")]}]),
        &warnings(&["audio parts cannot be carried by anthropic; replaced by a placeholder text"]),
    );
}

#[test]
fn audio_from_a_tool_becomes_placeholder_text_with_one_warning() {
    let audio = json!({"type": "audio", "mimeType": "audio/wav", "data": b64("tone.wav")});
    let input = json!([
        {"role": "assistant", "content": [
            {"type": "tool_call", "id": "call_1", "name": "record", "arguments": {}},
            {"type": "tool_call", "id": "call_2", "name": "record", "arguments": {}}]},
        {"role": "tool", "content": [
            {"type": "tool_result", "call_id": "call_1", "content": [text("clip 1:"), audio.clone()]},
            {"type": "tool_result", "call_id": "call_2", "content": [audio]}]}
    ]);
    let placeholder = "[unsupported audio part (audio/wav, 444 bytes)]";
    let run = convert("canonical", "anthropic", &[], &input);
    assert_converted(
        &run,
        &json!([
            {"role": "assistant", "content": [
                {"type": "tool_use", "id": "call_1", "name": "record", "input": {}},
                {"type": "tool_use", "id": "call_2", "name": "record", "input": {}}]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "call_1",
                 "content": [text("clip 1:"), text(placeholder)]},
                {"type": "tool_result", "tool_use_id": "call_2", "content": [text(placeholder)]}]}
        ]),
        &warnings(&["audio parts cannot be carried by anthropic; replaced by a placeholder text"]),
    );
    // Under --on-unsupported error it is refused, even from a tool.
    let run = convert(
        "canonical",
        "anthropic",
        &["--on-unsupported", "error"],
        &input,
    );
    run.assert_error(1, &["/messages/1/content/0/content/1: audio part (audio/wav) cannot be carried by anthropic"]);
}

#[test]
fn invalid_arguments_from_openai_are_exit_1() {
    let input = json!([
        {"role": "user", "content": "chart"},
        {"role": "assistant", "content": null, "tool_calls": [
            {"id": "call_1", "type": "function",
             "function": {"name": "get_chart", "arguments": "{city: Paris"}}]}
    ]);
    let run = convert("openai-chat", "anthropic", &[], &input);
    run.assert_error(
        1,
        &[
            "<stdin>: /1/tool_calls/0/function/arguments: arguments are not valid JSON",
            "pass --on-invalid-arguments keep",
        ],
    );
    // Kept as a string, they still cannot be an Anthropic input (an object):
    // the error names the call, never a silent `{}`.
    let run = convert(
        "openai-chat",
        "anthropic",
        &["--on-invalid-arguments", "keep"],
        &input,
    );
    run.assert_error(1, &["<stdin>: /messages/1/content/0: tool call get_chart (call_1): its arguments are not JSON (kept as a string), and an Anthropic tool_use input must be an object"]);
    // Arguments that are JSON but not an object are refused the same way.
    let mut scalar = input.clone();
    scalar[1]["tool_calls"][0]["function"]["arguments"] = json!("[1, 2]");
    let run = convert("openai-chat", "anthropic", &[], &scalar);
    run.assert_error(
        1,
        &["tool call get_chart (call_1): its arguments are an array, and an Anthropic tool_use input must be an object"],
    );
}

#[test]
fn media_in_the_system_prompt_is_refused() {
    let input = json!({"system": [text("Look:"),
                                  {"type": "image", "mimeType": "image/png", "data": b64("tiny.png")}],
                       "max_tokens": 5, "messages": []});
    let run = convert("canonical", "anthropic", &[], &input);
    run.assert_error(
        1,
        &["<stdin>: /system/1: image part (image/png) cannot be carried by anthropic: the system prompt takes only text"],
    );
}

#[test]
fn custom_tools_of_other_shapes_are_dropped_with_a_warning() {
    let input = json!({"model": "m", "max_tokens": 5, "messages": [],
                       "tools": [{"type": "custom", "custom": {"name": "grammar_tool"}},
                                 {"type": "function", "function": {"name": "ping"}}]});
    let run = convert("openai-chat", "anthropic", &[], &input);
    assert_converted(
        &run,
        &json!({"model": "m", "max_tokens": 5, "messages": [],
                "tools": [{"name": "ping", "input_schema": {"type": "object", "properties": {}}}]}),
        &warnings(&["anthropic has no place for openai-chat custom tools; dropped"]),
    );
}

#[test]
fn malformed_anthropic_documents_are_exit_1_with_a_pointer() {
    let cases = [
        (
            json!([{"role": "user", "content": [{"type": "tool_result", "content": "x"}]}]),
            "<stdin>: /0/content/0/tool_use_id: a tool_result block needs a tool_use_id",
        ),
        (
            json!([{"role": "assistant", "content": [{"type": "tool_use", "name": "x", "input": {}}]}]),
            "<stdin>: /0/content/0/id: a tool_use block needs an id",
        ),
        (
            json!({"messages": [{"role": "robot", "content": "x"}]}),
            "<stdin>: /messages/0/role: role \"robot\" is not supported (user, assistant, system)",
        ),
        (
            json!({"messages": [{"role": "user", "content": 7}]}),
            "<stdin>: /messages/0/content: content must be a string or a list of blocks",
        ),
        (
            json!([{"role": "user", "content": [{"type": "text"}]}]),
            "<stdin>: /0/content/0/text: a text block needs text",
        ),
    ];
    for (input, message) in cases {
        let run = convert("anthropic", "canonical", &[], &input);
        run.assert_error(1, &[message]);
    }
}

#[test]
fn responses_convert_both_ways() {
    let file = "tests/fixtures/convert/anthropic/response.json";
    let run = run(&["convert", "--to", "openai-chat", file]);
    assert_converted(
        &run,
        &json!({"object": "chat.completion", "choices": [{"index": 0, "finish_reason": "tool_calls",
            "message": {"role": "assistant", "content": "Let me check the weather in Paris.",
                "tool_calls": [{"id": "toolu_01A09q90qw90lq917835lq9", "type": "function",
                    "function": {"name": "get_weather",
                                 "arguments": "{\"city\":\"Paris\",\"unit\":\"celsius\"}"}}]}}],
            "model": "claude-sonnet-4-5"}),
        &warnings(&["openai-chat has no place for anthropic thinking blocks; dropped"]),
    );
    let completion = json!({"id": "chatcmpl-1", "object": "chat.completion", "created": 1,
        "model": "gpt-4.1", "choices": [{"index": 0, "finish_reason": "tool_calls",
            "message": {"role": "assistant", "content": "Checking.", "tool_calls": [
                {"id": "call_1", "type": "function",
                 "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}}]}}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5}});
    let run = convert("openai-chat", "anthropic", &[], &completion);
    assert_converted(
        &run,
        &json!({"type": "message", "role": "assistant", "model": "gpt-4.1", "content": [
                    text("Checking."),
                    {"type": "tool_use", "id": "call_1", "name": "get_weather",
                     "input": {"city": "Paris"}}],
                "stop_reason": "tool_use"}),
        "",
    );
}

#[test]
fn lifted_tool_media_keeps_tool_provenance() {
    let input = json!([
        {"role": "assistant", "content": [
            {"type": "tool_call", "id": "call_1", "name": "record", "arguments": {}}]},
        {"role": "tool", "content": [
            {"type": "tool_result", "call_id": "call_1", "name": "record", "content": [
                text("clip:"),
                {"type": "audio", "mimeType": "audio/wav", "data": b64("tone.wav")},
                {"type": "image", "mimeType": "image/png", "data": b64("tiny.png")}]}]}
    ]);
    let run = convert("canonical", "anthropic", &["--tool-media", "lift"], &input);
    assert_converted(
        &run,
        &json!([
            {"role": "assistant", "content": [
                {"type": "tool_use", "id": "call_1", "name": "record", "input": {}}]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "call_1", "content": [text("clip:")]}]},
            {"role": "user", "content": [
                text("Output of tool record (call_1):"),
                text("[unsupported audio part (audio/wav, 444 bytes)]"),
                png_block()]}
        ]),
        &warnings(&["audio parts cannot be carried by anthropic; replaced by a placeholder text"]),
    );
}

#[test]
fn a_nemo_gym_reply_becomes_one_tool_result_with_the_given_call_id() {
    let reply = json!({"result": "ok", "tool_output_images": [
        {"image_url": data_url("image/png", "tiny.png"), "label": "chart"}]});
    let run = convert("nemo-gym", "anthropic", &["--call-id", "toolu_07"], &reply);
    assert_converted(
        &run,
        &json!({"type": "tool_result", "tool_use_id": "toolu_07", "content": [
            text("{\"result\":\"ok\"}"), text("chart"), png_block()]}),
        "",
    );
    let run = convert("nemo-gym", "anthropic", &[], &reply);
    run.assert_error(
        1,
        &["<stdin>: a tool result without a call id cannot be an Anthropic tool_result (for a single tool result, pass --call-id)"],
    );
}
