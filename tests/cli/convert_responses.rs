//! `partkit convert` with OpenAI Responses documents (docs/conversion.md): requests, bare
//! item lists, response objects and single `function_call_output` items read
//! and written exactly; conversions to and from OpenAI Chat; and the converter
//! bugs of docs/converter-bugs.md that concern Responses, one test each.

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use serde_json::{json, Value};

use super::{fixture, run_with_stdin, Run};

/// Canonical base64 of a fixture.
fn b64(name: &str) -> String {
    STANDARD.encode(std::fs::read(fixture(name)).expect("fixture exists"))
}

/// A base64 data URL of a fixture.
fn data_url(mime: &str, name: &str) -> String {
    format!("data:{mime};base64,{}", b64(name))
}

fn png() -> String {
    data_url("image/png", "tiny.png")
}

fn pdf() -> String {
    data_url("application/pdf", "doc.pdf")
}

/// Runs `partkit convert ARGS` on a JSON document given on stdin.
fn convert(args: &[&str], input: &Value) -> Run {
    let mut all = vec!["convert"];
    all.extend_from_slice(args);
    run_with_stdin(&all, input.to_string().as_bytes())
}

/// Asserts success: exit 0, stdout exactly `expected`, and exactly these
/// warnings on stderr, in order.
fn assert_converted(run: &Run, expected: &Value, warnings: &[&str]) {
    assert_eq!(run.code, 0, "exit code; stderr: {}", run.stderr);
    assert_eq!(&run.json(), expected, "stdout; stderr: {}", run.stderr);
    let lines: Vec<&str> = run.stderr.lines().collect();
    let expected_lines: Vec<String> = warnings
        .iter()
        .map(|w| format!("partkit: warning: {w}"))
        .collect();
    assert_eq!(lines, expected_lines, "stderr");
}

/// Asserts that a Responses document comes back as the same JSON value, both
/// straight through (`--to openai-responses`) and through the canonical JSON
/// form, with nothing on stderr.
fn assert_round_trip(document: &Value) {
    let run = convert(
        &["--from", "openai-responses", "--to", "openai-responses"],
        document,
    );
    assert_converted(&run, document, &[]);
    let canonical = convert(
        &["--from", "openai-responses", "--to", "canonical"],
        document,
    );
    assert_eq!(canonical.code, 0, "stderr: {}", canonical.stderr);
    assert_eq!(canonical.stderr, "");
    let back = convert(
        &["--from", "canonical", "--to", "openai-responses"],
        &canonical.json(),
    );
    assert_converted(&back, document, &[]);
}

const CHART_SCHEMA: &str = r#"{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false}"#;

fn chart_schema() -> Value {
    serde_json::from_str(CHART_SCHEMA).unwrap()
}

/// A realistic agent request: instructions, every kind of tool, reasoning
/// items, parallel calls, a tool result with text + image + PDF, assistant
/// history with citations, and settings that only Responses has.
fn realistic_request() -> Value {
    json!({
        "model": "gpt-5",
        "instructions": "You are a charting assistant. Be terse.",
        "input": [
            {"role": "developer", "content": "Prefer bar charts."},
            {"type": "message", "role": "user", "content": [
                {"type": "input_text", "text": "Compare the weather in Paris and Rome; here is last year's chart."},
                {"type": "input_image", "image_url": png(), "detail": "high"},
                {"type": "input_file", "filename": "brief.pdf", "file_data": pdf()}
            ]},
            {"type": "reasoning", "id": "rs_01", "summary": [{"type": "summary_text", "text": "Two cities: two calls."}],
             "encrypted_content": "gAAAAABo-opaque"},
            {"type": "function_call", "id": "fc_01", "call_id": "call_paris", "name": "get_chart",
             "arguments": "{\"city\": \"Paris\"}", "status": "completed"},
            {"type": "function_call", "id": "fc_02", "call_id": "call_rome", "name": "get_chart",
             "arguments": "{\"city\":\"Rome\"}", "status": "completed"},
            {"type": "function_call_output", "call_id": "call_paris", "output": "Paris: 18°C average"},
            {"type": "function_call_output", "call_id": "call_rome", "output": [
                {"type": "input_text", "text": "Rome: 21°C average"},
                {"type": "input_image", "image_url": png()},
                {"type": "input_file", "filename": "rome.pdf", "file_data": pdf()}
            ]},
            {"type": "web_search_call", "id": "ws_01", "status": "completed",
             "action": {"type": "search", "query": "Rome climate"}},
            {"type": "message", "id": "msg_01", "status": "completed", "role": "assistant", "content": [
                {"type": "output_text", "text": "Rome is warmer [1].", "annotations": [
                    {"type": "url_citation", "start_index": 17, "end_index": 20,
                     "url": "https://example.com/climate", "title": "Climate"}
                ]}
            ]},
            {"role": "user", "content": "Now as a table."}
        ],
        "tools": [
            {"type": "function", "name": "get_chart", "description": "Render a weather chart.",
             "parameters": chart_schema(), "strict": true},
            {"type": "function", "name": "get_time", "description": "Current time.",
             "parameters": null, "strict": false},
            {"type": "function", "name": "lookup", "parameters": {"type": "object", "properties": {}}},
            {"type": "web_search"},
            {"type": "file_search", "vector_store_ids": ["vs_1"]}
        ],
        "tool_choice": "auto",
        "parallel_tool_calls": true,
        "max_output_tokens": 2048,
        "temperature": 1.0,
        "top_p": 0.95,
        "reasoning": {"effort": "medium", "summary": "auto"},
        "text": {"format": {"type": "text"}, "verbosity": "low"},
        "include": ["reasoning.encrypted_content"],
        "store": false,
        "truncation": "auto",
        "metadata": {"run": "12345678901234567890"}
    })
}

#[test]
fn a_realistic_request_round_trips_exactly() {
    assert_round_trip(&realistic_request());
}

#[test]
fn string_input_and_instructions_round_trip() {
    assert_round_trip(
        &json!({"model": "gpt-5-mini", "instructions": "Answer in French.",
                              "input": "What is the capital of Italy?"}),
    );
    assert_round_trip(&json!({"model": "gpt-5-mini", "input": "Hi", "temperature": 0.20}));
    // No input at all (a continuation that only sets parameters).
    assert_round_trip(&json!({"model": "gpt-5", "previous_response_id": "resp_1"}));
}

#[test]
fn a_string_input_is_one_user_text_message_and_instructions_the_system_prompt() {
    let run = convert(
        &["--from", "openai-responses", "--to", "canonical"],
        &json!({"model": "gpt-5-mini", "instructions": "Answer in French.",
                "input": "What is the capital of Italy?", "max_output_tokens": 100}),
    );
    assert_converted(
        &run,
        &json!({"model": "gpt-5-mini", "max_tokens": 100,
                "system": [{"type": "text", "text": "Answer in French."}],
                "messages": [{"role": "user", "content": [
                    {"type": "text", "text": "What is the capital of Italy?"}]}],
                "extensions": {"openai-responses": {"$input": "string"}}}),
        &[],
    );
}

#[test]
fn a_list_with_settings_is_written_as_a_request() {
    // A canonical object marked as a list, edited to carry a model: the
    // model has no place in a list, so the output is a request body.
    let canonical = json!({"model": "gpt-5", "messages": [
        {"role": "user", "content": [{"type": "text", "text": "hi"}]}],
        "extensions": {"canonical": {"$form": "messages"}}});
    let run = convert(
        &["--from", "canonical", "--to", "openai-responses"],
        &canonical,
    );
    assert_converted(
        &run,
        &json!({"model": "gpt-5", "input": [
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]}]}),
        &[],
    );
}

#[test]
fn a_bare_item_list_round_trips_and_reads_as_canonical_messages() {
    let items = json!([
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": [{"type": "input_text", "text": "Weather in Paris?"}]},
        {"type": "function_call", "call_id": "call_1", "name": "get_weather", "arguments": "{\"city\":\"Paris\"}"},
        {"type": "function_call_output", "call_id": "call_1", "output": "18°C"},
        {"type": "message", "role": "assistant", "content": [
            {"type": "output_text", "text": "It is 18°C.", "annotations": []}]},
        {"type": "item_reference", "id": "msg_9"},
        {"role": "developer", "content": "Switch to Celsius and Fahrenheit."}
    ]);
    assert_round_trip(&items);
    let run = convert(&["--from", "openai-responses", "--to", "canonical"], &items);
    assert_converted(
        &run,
        &json!({
            "system": [{"type": "text", "text": "Be brief."}],
            "messages": [
                {"role": "user", "content": [{"type": "text", "text": "Weather in Paris?"}],
                 "extensions": {"openai-responses": {"$type": "absent"}}},
                {"role": "assistant", "content": [
                    {"type": "tool_call", "id": "call_1", "name": "get_weather", "arguments": {"city": "Paris"}}]},
                {"role": "tool", "content": [
                    {"type": "tool_result", "call_id": "call_1", "name": "get_weather", "is_error": false,
                     "content": [{"type": "text", "text": "18°C"}]}]},
                {"role": "assistant", "content": [
                    {"type": "text", "text": "It is 18°C."},
                    {"type": "opaque", "shape": "openai-responses", "value": {"type": "item_reference", "id": "msg_9"}}],
                 "extensions": {"openai-responses": {"$items": [{"$content": "parts", "$blocks": 1}, "item"]}}},
                {"role": "system", "content": [{"type": "text", "text": "Switch to Celsius and Fahrenheit."}],
                 "extensions": {"openai-responses": {"$type": "absent", "$content": "string", "$role": "developer"}}}
            ],
            "extensions": {
                "openai-responses": {"$system": {"$type": "absent", "$content": "string"}},
                "canonical": {"$form": "messages"}
            }
        }),
        &[],
    );
}

#[test]
fn consecutive_assistant_items_are_one_turn_and_split_back_exactly() {
    // Two message items around the calls, as a model that talks between
    // parallel calls writes them; they must come back as four items.
    let items = json!([
        {"role": "user", "content": "Paris and Rome?"},
        {"type": "message", "role": "assistant", "id": "msg_a", "status": "completed",
         "content": [{"type": "output_text", "text": "Checking both.", "annotations": []}]},
        {"type": "function_call", "call_id": "c1", "name": "w", "arguments": "{\"city\":\"Paris\"}"},
        {"type": "function_call", "call_id": "c2", "name": "w", "arguments": "{\"city\":\"Rome\"}"},
        {"type": "message", "role": "assistant", "content": [
            {"type": "output_text", "text": "Waiting.", "annotations": []},
            {"type": "refusal", "refusal": "I cannot say more."}]},
        {"type": "function_call_output", "call_id": "c1", "output": "18"},
        {"type": "function_call_output", "call_id": "c2", "output": "21"}
    ]);
    assert_round_trip(&items);
    let run = convert(&["--from", "openai-responses", "--to", "canonical"], &items);
    // A bare list stays a bare list of canonical messages.
    let canonical = run.json();
    let messages = canonical.as_array().unwrap();
    assert_eq!(
        messages.len(),
        3,
        "user, one assistant turn, one tool message"
    );
    assert_eq!(messages[1]["content"].as_array().unwrap().len(), 5);
    assert_eq!(messages[2]["content"].as_array().unwrap().len(), 2);
}

fn response_object() -> Value {
    json!({
        "id": "resp_67ccd2bed1ec8190",
        "object": "response",
        "created_at": 1741476542,
        "status": "completed",
        "error": null,
        "incomplete_details": null,
        "instructions": null,
        "max_output_tokens": null,
        "model": "gpt-5-2025-08-07",
        "output": [
            {"type": "reasoning", "id": "rs_1", "summary": []},
            {"type": "message", "id": "msg_1", "status": "completed", "role": "assistant",
             "content": [{"type": "output_text", "text": "Let me chart that.", "annotations": [], "logprobs": []}]},
            {"type": "function_call", "id": "fc_1", "call_id": "call_XYZ", "name": "get_chart",
             "arguments": "{\"city\":\"Paris\"}", "status": "completed"}
        ],
        "parallel_tool_calls": true,
        "previous_response_id": null,
        "temperature": 1.0,
        "tool_choice": "auto",
        "tools": [],
        "top_p": 1.0,
        "usage": {"input_tokens": 36, "output_tokens": 87, "total_tokens": 123},
        "metadata": {}
    })
}

#[test]
fn a_response_object_round_trips_and_reads_as_one_assistant_turn() {
    assert_round_trip(&response_object());
    let run = convert(&["--to", "canonical"], &response_object());
    let canonical = run.json();
    assert_eq!(canonical["model"], "gpt-5-2025-08-07");
    assert_eq!(
        canonical["messages"],
        json!([{"role": "assistant", "content": [
            {"type": "opaque", "shape": "openai-responses", "value": {"type": "reasoning", "id": "rs_1", "summary": []}},
            {"type": "text", "text": "Let me chart that.", "extensions": {"openai-responses": {"$logprobs": []}}},
            {"type": "tool_call", "id": "call_XYZ", "name": "get_chart", "arguments": {"city": "Paris"},
             "extensions": {"openai-responses": {"$id": "fc_1", "$status": "completed"}}}
        ], "extensions": {"openai-responses": {"$items": [
            "item", {"$id": "msg_1", "$status": "completed", "$content": "parts", "$blocks": 1}, "function_call"]}}}])
    );
}

#[test]
fn a_response_object_becomes_a_chat_completion_and_back() {
    let run = convert(&["--to", "openai-chat"], &response_object());
    let completion = json!({
        "object": "chat.completion",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
            "role": "assistant",
            "content": "Let me chart that.",
            "tool_calls": [{"id": "call_XYZ", "type": "function",
                            "function": {"name": "get_chart", "arguments": "{\"city\":\"Paris\"}"}}]
        }}],
        "model": "gpt-5-2025-08-07"
    });
    assert_converted(
        &run,
        &completion,
        &["openai-chat has no place for openai-responses reasoning blocks; dropped"],
    );
    let back = convert(
        &["--from", "openai-chat", "--to", "openai-responses"],
        &completion,
    );
    assert_converted(
        &back,
        &json!({
            "object": "response",
            "status": "completed",
            "model": "gpt-5-2025-08-07",
            "output": [
                {"type": "message", "role": "assistant", "content": [
                    {"type": "output_text", "text": "Let me chart that.", "annotations": []}]},
                {"type": "function_call", "call_id": "call_XYZ", "name": "get_chart",
                 "arguments": "{\"city\":\"Paris\"}"}
            ]
        }),
        &[],
    );
}

#[test]
fn a_single_function_call_output_round_trips() {
    assert_round_trip(
        &json!({"type": "function_call_output", "call_id": "call_1", "output": "done"}),
    );
    assert_round_trip(&json!({"type": "function_call_output", "call_id": "call_1",
                              "output": [{"type": "input_text", "text": "one part, kept a list"}]}));
    assert_round_trip(
        &json!({"type": "function_call_output", "id": "fco_1", "call_id": "call_1",
                                  "status": "completed", "output": [
            {"type": "input_text", "text": "chart:"},
            {"type": "input_image", "image_url": png(), "detail": "low"},
            {"type": "input_file", "filename": "r.pdf", "file_data": pdf()},
            {"type": "input_file", "file_url": "https://example.com/r.pdf"},
            {"type": "input_image", "file_id": "file-abc"}
        ]}),
    );
}

#[test]
fn a_single_function_call_output_reads_as_a_canonical_tool_result() {
    let run = convert(
        &["--to", "canonical"],
        &json!({"type": "function_call_output", "call_id": "call_1", "output": [
            {"type": "input_text", "text": "chart:"},
            {"type": "input_image", "image_url": png()},
            {"type": "input_file", "filename": "r.pdf", "file_data": pdf()}]}),
    );
    assert_converted(
        &run,
        &json!({"type": "tool_result", "call_id": "call_1", "is_error": false, "content": [
            {"type": "text", "text": "chart:"},
            {"type": "image", "mimeType": "image/png", "data": b64("tiny.png")},
            {"type": "file", "mimeType": "application/pdf", "data": b64("doc.pdf"), "name": "r.pdf"}]}),
        &[],
    );
}

#[test]
fn a_canonical_tool_result_becomes_one_function_call_output() {
    let run = convert(
        &["--from", "canonical", "--to", "openai-responses"],
        &json!({"type": "tool_result", "call_id": "toolu_01", "name": "shot", "is_error": false,
                "content": [{"type": "text", "text": "Screenshot"},
                            {"type": "image", "mimeType": "image/png", "data": b64("tiny.png")}]}),
    );
    assert_converted(
        &run,
        &json!({"type": "function_call_output", "call_id": "toolu_01", "output": [
            {"type": "input_text", "text": "Screenshot"},
            {"type": "input_image", "image_url": png()}]}),
        &[],
    );
}

#[test]
fn the_shape_is_detected_for_every_form() {
    let request = convert(&["--to", "openai-responses"], &realistic_request());
    assert_converted(&request, &realistic_request(), &[]);
    let output = json!({"type": "function_call_output", "call_id": "c", "output": "x"});
    assert_converted(
        &convert(&["--to", "openai-responses"], &output),
        &output,
        &[],
    );
    let items = json!([{"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"}]);
    assert_converted(&convert(&["--to", "openai-responses"], &items), &items, &[]);
}

/// A realistic OpenAI Chat request with everything Responses must map.
fn chat_request() -> Value {
    json!({
        "model": "gpt-4o",
        "messages": [
            {"role": "system", "content": "You are a charting assistant."},
            {"role": "user", "content": [
                {"type": "text", "text": "Chart Paris and Rome like this one."},
                {"type": "image_url", "image_url": {"url": png(), "detail": "low"}},
                {"type": "file", "file": {"filename": "brief.pdf", "file_data": pdf()}}
            ]},
            {"role": "assistant", "content": null, "tool_calls": [
                {"id": "call_paris", "type": "function",
                 "function": {"name": "get_chart", "arguments": "{\"city\": \"Paris\"}"}},
                {"id": "call_rome", "type": "function",
                 "function": {"name": "get_chart", "arguments": "{\"city\":\"Rome\"}"}}
            ]},
            {"role": "tool", "tool_call_id": "call_paris", "content": "Paris: 18°C"},
            {"role": "tool", "tool_call_id": "call_rome", "content": [
                {"type": "text", "text": "Rome: 21°C"},
                {"type": "image_url", "image_url": {"url": png()}}
            ]},
            {"role": "assistant", "content": "Rome is warmer."}
        ],
        "tools": [
            {"type": "function", "function": {"name": "get_chart", "description": "Render a chart.",
                                              "parameters": chart_schema(), "strict": true}},
            {"type": "function", "function": {"name": "get_time", "description": "Current time."}}
        ],
        "tool_choice": {"type": "function", "function": {"name": "get_chart"}},
        "max_completion_tokens": 500,
        "temperature": 0.2
    })
}

#[test]
fn an_openai_chat_request_becomes_a_responses_request() {
    let run = convert(
        &["--from", "openai-chat", "--to", "openai-responses"],
        &chat_request(),
    );
    assert_converted(
        &run,
        &json!({
            "model": "gpt-4o",
            "instructions": "You are a charting assistant.",
            "input": [
                {"type": "message", "role": "user", "content": [
                    {"type": "input_text", "text": "Chart Paris and Rome like this one."},
                    {"type": "input_image", "image_url": png(), "detail": "low"},
                    {"type": "input_file", "filename": "brief.pdf", "file_data": pdf()}
                ]},
                {"type": "function_call", "call_id": "call_paris", "name": "get_chart",
                 "arguments": "{\"city\": \"Paris\"}"},
                {"type": "function_call", "call_id": "call_rome", "name": "get_chart",
                 "arguments": "{\"city\":\"Rome\"}"},
                {"type": "function_call_output", "call_id": "call_paris", "output": "Paris: 18°C"},
                {"type": "function_call_output", "call_id": "call_rome", "output": [
                    {"type": "input_text", "text": "Rome: 21°C"},
                    {"type": "input_image", "image_url": png()}
                ]},
                {"type": "message", "role": "assistant", "content": "Rome is warmer."}
            ],
            "tools": [
                {"type": "function", "name": "get_chart", "description": "Render a chart.",
                 "parameters": chart_schema(), "strict": true},
                {"type": "function", "name": "get_time", "description": "Current time.",
                 "parameters": null, "strict": false}
            ],
            "tool_choice": {"type": "function", "name": "get_chart"},
            "max_output_tokens": 500,
            "temperature": 0.2
        }),
        &[],
    );
}

#[test]
fn a_responses_request_becomes_an_openai_chat_request() {
    let request = json!({
        "model": "gpt-5",
        "instructions": "Be terse.",
        "input": [
            {"role": "user", "content": [
                {"type": "input_text", "text": "Chart Rome."},
                {"type": "input_image", "image_url": png(), "detail": "auto"}]},
            {"type": "function_call", "call_id": "call_rome", "name": "get_chart",
             "arguments": "{\"city\":\"Rome\"}"},
            {"type": "function_call_output", "call_id": "call_rome", "output": [
                {"type": "input_text", "text": "Rome: 21°C"},
                {"type": "input_image", "image_url": png()},
                {"type": "input_file", "filename": "rome.pdf", "file_data": pdf()}]},
            {"type": "message", "role": "assistant", "content": [
                {"type": "output_text", "text": "Done.", "annotations": []}]}
        ],
        "tools": [{"type": "function", "name": "get_chart", "parameters": chart_schema(), "strict": false}],
        "tool_choice": "required",
        "max_output_tokens": 300
    });
    let run = convert(
        &["--from", "openai-responses", "--to", "openai-chat"],
        &request,
    );
    assert_converted(
        &run,
        &json!({
            "model": "gpt-5",
            "messages": [
                {"role": "system", "content": "Be terse."},
                {"role": "user", "content": [
                    {"type": "text", "text": "Chart Rome."},
                    {"type": "image_url", "image_url": {"url": png()}}]},
                {"role": "assistant", "content": null, "tool_calls": [
                    {"id": "call_rome", "type": "function",
                     "function": {"name": "get_chart", "arguments": "{\"city\":\"Rome\"}"}}]},
                {"role": "tool", "tool_call_id": "call_rome", "content": "Rome: 21°C"},
                {"role": "user", "content": [
                    {"type": "text", "text": "Output of tool get_chart (call_rome):"},
                    {"type": "image_url", "image_url": {"url": png()}},
                    {"type": "file", "file": {"filename": "rome.pdf", "file_data": pdf()}}]},
                {"role": "assistant", "content": "Done."}
            ],
            "tools": [{"type": "function", "function": {"name": "get_chart",
                                                        "parameters": chart_schema(), "strict": false}}],
            "tool_choice": "required",
            "max_completion_tokens": 300
        }),
        &[],
    );
}

// --- docs/converter-bugs.md, one test per bug ---------------------------------

/// Converter bugs R7, E17: Chat-style `text` / `image_url` parts copied into
/// `function_call_output` make the API answer 400.
#[test]
fn function_call_output_uses_the_input_vocabulary_for_chat_tool_parts() {
    let chat = json!([
        {"role": "assistant", "content": null, "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "shot", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": [
            {"type": "text", "text": "Screenshot:"},
            {"type": "image_url", "image_url": {"url": png(), "detail": "high"}}]},
        {"role": "assistant", "content": [{"type": "text", "text": "Got it."}]}
    ]);
    let run = convert(
        &["--from", "openai-chat", "--to", "openai-responses"],
        &chat,
    );
    assert_converted(
        &run,
        &json!([
            {"type": "function_call", "call_id": "call_1", "name": "shot", "arguments": "{}"},
            {"type": "function_call_output", "call_id": "call_1", "output": [
                {"type": "input_text", "text": "Screenshot:"},
                {"type": "input_image", "image_url": png(), "detail": "high"}]},
            {"type": "message", "role": "assistant", "content": "Got it."}
        ]),
        &[],
    );
    // A plain string output stays a string.
    let chat = json!([{"role": "tool", "tool_call_id": "call_1", "content": "plain"}]);
    let run = convert(
        &["--from", "openai-chat", "--to", "openai-responses"],
        &chat,
    );
    assert_converted(
        &run,
        &json!([{"type": "function_call_output", "call_id": "call_1", "output": "plain"}]),
        &[],
    );
}

/// The SDK types refuse a message `input_image` without `detail` (docs/reading.md).
#[test]
fn message_images_always_carry_detail() {
    let canonical = json!({"messages": [
        {"role": "user", "content": [
            {"type": "image", "mimeType": "image/png", "data": b64("tiny.png")},
            {"type": "image", "mimeType": "image/png", "url": "https://example.com/a.png"}]},
        {"role": "tool", "content": [{"type": "tool_result", "call_id": "c", "is_error": false,
            "content": [{"type": "image", "mimeType": "image/png", "data": b64("tiny.png")}]}]}
    ]});
    let run = convert(
        &["--from", "canonical", "--to", "openai-responses"],
        &canonical,
    );
    assert_converted(
        &run,
        &json!({"input": [
            {"type": "message", "role": "user", "content": [
                {"type": "input_image", "image_url": png(), "detail": "auto"},
                {"type": "input_image", "image_url": "https://example.com/a.png", "detail": "auto"}]},
            {"type": "function_call_output", "call_id": "c", "output": [
                {"type": "input_image", "image_url": png()}]}
        ]}),
        &[],
    );
    // A Responses message image that lacks it is legal (the API defaults it
    // to `auto`) and comes back as it was.
    let items = json!([{"role": "user", "content": [
        {"type": "input_image", "image_url": "https://example.com/cat"}]}]);
    let run = convert(
        &["--from", "openai-responses", "--to", "openai-responses"],
        &items,
    );
    assert_converted(&run, &items, &[]);
}

/// Converter bugs R29: Azure rejects raw base64 in `file_data`; a data URL with a
/// filename works.
#[test]
fn file_data_is_a_data_url_with_a_filename() {
    let canonical = json!({"messages": [
        {"role": "user", "content": [
            {"type": "file", "mimeType": "application/pdf", "data": b64("doc.pdf"), "name": "doc.pdf"},
            {"type": "file", "mimeType": "application/pdf", "data": b64("doc.pdf")},
            {"type": "file", "mimeType": "application/pdf", "url": "https://example.com/a.pdf"}]},
        {"role": "tool", "content": [{"type": "tool_result", "call_id": "c", "is_error": false,
            "content": [{"type": "file", "mimeType": "application/pdf", "data": b64("doc.pdf"), "name": "r.pdf"}]}]}
    ]});
    let run = convert(
        &["--from", "canonical", "--to", "openai-responses"],
        &canonical,
    );
    assert_converted(
        &run,
        &json!({"input": [
            {"type": "message", "role": "user", "content": [
                {"type": "input_file", "filename": "doc.pdf", "file_data": pdf()},
                {"type": "input_file", "filename": "file", "file_data": pdf()},
                {"type": "input_file", "file_url": "https://example.com/a.pdf"}]},
            {"type": "function_call_output", "call_id": "c", "output": [
                {"type": "input_file", "filename": "r.pdf", "file_data": pdf()}]}
        ]}),
        &["named unnamed files \"file\" (openai-responses file_data needs a filename)"],
    );
    // Raw base64 read from Responses goes back raw, but any other shape gets
    // a data URL.
    let raw = json!([{"role": "user", "content": [
        {"type": "input_file", "filename": "doc.pdf", "file_data": b64("doc.pdf")}]}]);
    assert_round_trip(&raw);
    let run = convert(&["--from", "openai-responses", "--to", "openai-chat"], &raw);
    assert_converted(
        &run,
        &json!([{"role": "user", "content": [
            {"type": "file", "file": {"filename": "doc.pdf", "file_data": pdf()}}]}]),
        &[],
    );
}

/// docs/conversion.md: Responses function tools default to strict and always carry
/// `parameters`; a tool from a shape that defaults otherwise says so.
#[test]
fn non_strict_tools_are_written_strict_false_and_parameterless_tools_parameters_null() {
    let canonical = json!({"tools": [
        {"name": "loose", "parameters": {"type": "object"}},
        {"name": "bare"},
        {"name": "tight", "parameters": chart_schema(), "strict": true},
        {"name": "said_no", "description": "d", "parameters": {"type": "object"}, "strict": false}
    ], "messages": []});
    let run = convert(
        &["--from", "canonical", "--to", "openai-responses"],
        &canonical,
    );
    assert_converted(
        &run,
        &json!({"input": [], "tools": [
            {"type": "function", "name": "loose", "parameters": {"type": "object"}, "strict": false},
            {"type": "function", "name": "bare", "parameters": null, "strict": false},
            {"type": "function", "name": "tight", "parameters": chart_schema(), "strict": true},
            {"type": "function", "name": "said_no", "description": "d", "parameters": {"type": "object"},
             "strict": false}
        ]}),
        &[],
    );
    // A Responses tool without `strict` is strict, and OpenAI Chat is told so.
    let responses = json!({"input": [], "tools": [
        {"type": "function", "name": "lookup", "parameters": {"type": "object", "properties": {}}}]});
    let run = convert(
        &["--from", "openai-responses", "--to", "openai-chat"],
        &responses,
    );
    assert_converted(
        &run,
        &json!({"messages": [], "tools": [{"type": "function", "function": {
            "name": "lookup", "parameters": {"type": "object", "properties": {}}, "strict": true}}]}),
        &[],
    );
}

/// docs/conversion.md: Responses has no `stop`.
#[test]
fn stop_is_dropped_with_one_warning_and_strict_makes_it_exit_1() {
    let chat = json!({"model": "gpt-4o", "messages": [{"role": "user", "content": "Count."}],
                      "stop": ["\n\n", "END"]});
    let run = convert(
        &["--from", "openai-chat", "--to", "openai-responses"],
        &chat,
    );
    assert_converted(
        &run,
        &json!({"model": "gpt-4o", "input": [
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Count."}]}]}),
        &["openai-responses has no place for stop; dropped"],
    );
    let run = convert(
        &[
            "--from",
            "openai-chat",
            "--to",
            "openai-responses",
            "--strict",
        ],
        &chat,
    );
    run.assert_error(1, &["--strict: openai-responses cannot carry stop"]);
}

/// docs/conversion.md: an arguments string that is not JSON is exit 1, never `{}`.
#[test]
fn invalid_arguments_exit_1_or_are_kept_as_written() {
    let items = json!([
        {"type": "function_call", "call_id": "call_1", "name": "f", "arguments": "{\"city\": \"Par"}
    ]);
    let run = convert(&["--from", "openai-responses", "--to", "anthropic"], &items);
    run.assert_error(
        1,
        &[
            "/0/arguments: arguments are not valid JSON",
            "--on-invalid-arguments keep",
        ],
    );
    let run = convert(
        &[
            "--from",
            "openai-responses",
            "--to",
            "openai-responses",
            "--on-invalid-arguments",
            "keep",
        ],
        &items,
    );
    assert_converted(
        &run,
        &items,
        &["/0/arguments: arguments are not JSON; kept as a string"],
    );
}

/// Responses input has no audio (converter bugs E19: an error
/// when the user attached it, a placeholder when a tool produced it).
#[test]
fn audio_is_an_error_when_attached_and_a_placeholder_from_a_tool() {
    let attached = json!({"messages": [{"role": "user", "content": [
        {"type": "text", "text": "Transcribe."},
        {"type": "audio", "mimeType": "audio/wav", "data": b64("tone.wav")}]}]});
    let run = convert(
        &["--from", "canonical", "--to", "openai-responses"],
        &attached,
    );
    run.assert_error(
        1,
        &["/messages/0/content/1: audio part (audio/wav) cannot be carried by openai-responses"],
    );
    let from_tool = json!({"messages": [{"role": "tool", "content": [
        {"type": "tool_result", "call_id": "call_1", "name": "record", "is_error": false, "content": [
            {"type": "text", "text": "Recorded."},
            {"type": "audio", "mimeType": "audio/wav", "data": b64("tone.wav")},
            {"type": "audio", "mimeType": "audio/wav", "data": b64("tone.wav")}]}]}]});
    let run = convert(
        &["--from", "canonical", "--to", "openai-responses"],
        &from_tool,
    );
    let placeholder = "[unsupported audio part (audio/wav, 444 bytes)]";
    assert_converted(
        &run,
        &json!({"input": [{"type": "function_call_output", "call_id": "call_1", "output": [
            {"type": "input_text", "text": "Recorded."},
            {"type": "input_text", "text": placeholder},
            {"type": "input_text", "text": placeholder}]}]}),
        &["audio parts cannot be carried by openai-responses; replaced by a placeholder text"],
    );
    let run = convert(
        &[
            "--from",
            "canonical",
            "--to",
            "openai-responses",
            "--on-unsupported",
            "text",
        ],
        &attached,
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.json()["input"][0]["content"][1],
        json!({"type": "input_text", "text": placeholder})
    );
}

/// No error flag in Responses; the error is the text (docs/conversion.md).
#[test]
fn the_error_flag_of_a_tool_result_is_dropped_with_a_warning() {
    let canonical = json!({"type": "tool_result", "call_id": "toolu_1", "name": "f", "is_error": true,
                           "content": [{"type": "text", "text": "Error: city not found"}]});
    let run = convert(
        &["--from", "canonical", "--to", "openai-responses"],
        &canonical,
    );
    assert_converted(
        &run,
        &json!({"type": "function_call_output", "call_id": "toolu_1", "output": "Error: city not found"}),
        &["openai-responses has no place for the error flag of tool results (errors are plain text in function_call_output); dropped"],
    );
    let run = convert(
        &[
            "--from",
            "canonical",
            "--to",
            "openai-responses",
            "--strict",
        ],
        &canonical,
    );
    run.assert_error(
        1,
        &["--strict: openai-responses cannot carry the error flag"],
    );
}

/// Converter bugs R16, R17: "compatible" Responses gateways drop array outputs;
/// `--tool-media lift` delivers media in a following user message instead.
#[test]
fn tool_media_lift_moves_media_out_of_function_call_output() {
    let items = json!([
        {"type": "function_call", "call_id": "call_1", "name": "shot", "arguments": "{}"},
        {"type": "function_call", "call_id": "call_2", "name": "read", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "call_1", "output": [
            {"type": "input_text", "text": "Screen:"}, {"type": "input_image", "image_url": png()}]},
        {"type": "function_call_output", "call_id": "call_2", "output": [
            {"type": "input_file", "filename": "r.pdf", "file_data": pdf()}]}
    ]);
    let run = convert(
        &[
            "--from",
            "openai-responses",
            "--to",
            "openai-responses",
            "--tool-media",
            "lift",
        ],
        &items,
    );
    assert_converted(
        &run,
        &json!([
            {"type": "function_call", "call_id": "call_1", "name": "shot", "arguments": "{}"},
            {"type": "function_call", "call_id": "call_2", "name": "read", "arguments": "{}"},
            {"type": "function_call_output", "call_id": "call_1", "output": "Screen:"},
            {"type": "function_call_output", "call_id": "call_2",
             "output": "[tool returned media; see the next user message]"},
            {"type": "message", "role": "user", "content": [
                {"type": "input_text", "text": "Output of tool shot (call_1):"},
                {"type": "input_image", "image_url": png(), "detail": "auto"},
                {"type": "input_text", "text": "Output of tool read (call_2):"},
                {"type": "input_file", "filename": "r.pdf", "file_data": pdf()}]}
        ]),
        &[],
    );
    // A single output whose media is lifted becomes the two items that deliver it.
    let single = json!({"type": "function_call_output", "call_id": "call_1", "output": [
        {"type": "input_image", "image_url": png()}]});
    let run = convert(
        &[
            "--from",
            "openai-responses",
            "--to",
            "openai-responses",
            "--tool-media",
            "lift",
        ],
        &single,
    );
    assert_converted(
        &run,
        &json!([
            {"type": "function_call_output", "call_id": "call_1",
             "output": "[tool returned media; see the next user message]"},
            {"type": "message", "role": "user", "content": [
                {"type": "input_text", "text": "Output of tool call call_1:"},
                {"type": "input_image", "image_url": png(), "detail": "auto"}]}
        ]),
        &[],
    );
}

/// docs/conversion.md: provider-only content is dropped with one warning listing it, and
/// `--strict` refuses to drop it.
#[test]
fn responses_only_items_and_fields_are_dropped_with_one_warning_elsewhere() {
    let request = json!({"model": "gpt-5", "input": [
        {"role": "user", "content": "Search."},
        {"type": "reasoning", "id": "rs_1", "summary": []},
        {"type": "web_search_call", "id": "ws_1", "status": "completed"},
        {"type": "message", "role": "assistant", "content": [
            {"type": "output_text", "text": "Found [1].",
             "annotations": [{"type": "url_citation", "url": "https://example.com"}]}]}
    ], "store": false});
    let run = convert(
        &["--from", "openai-responses", "--to", "openai-chat"],
        &request,
    );
    assert_converted(
        &run,
        &json!({"model": "gpt-5", "messages": [
            {"role": "user", "content": "Search."},
            {"role": "assistant", "content": "Found [1]."}]}),
        &["openai-chat has no place for openai-responses store, openai-responses reasoning blocks, \
           openai-responses web_search_call blocks, openai-responses annotations; dropped"],
    );
    let run = convert(
        &[
            "--from",
            "openai-responses",
            "--to",
            "openai-chat",
            "--strict",
        ],
        &request,
    );
    run.assert_error(
        1,
        &["--strict: openai-chat cannot carry openai-responses store"],
    );
}

/// docs/conversion.md: tool-call ids survive; the item ids (`fc_…`) are Responses' own.
#[test]
fn call_ids_survive_and_item_ids_stay_with_responses() {
    let items = json!([
        {"type": "function_call", "id": "fc_1", "call_id": "call_abc", "name": "f", "arguments": "{}",
         "status": "completed"},
        {"type": "function_call_output", "id": "fco_1", "call_id": "call_abc", "output": "ok"}
    ]);
    let run = convert(
        &["--from", "openai-responses", "--to", "openai-chat"],
        &items,
    );
    assert_converted(
        &run,
        &json!([
            {"role": "assistant", "content": null, "tool_calls": [
                {"id": "call_abc", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": "call_abc", "content": "ok"}
        ]),
        &[],
    );
}

#[test]
fn an_image_in_an_assistant_message_is_unsupported() {
    let canonical = json!({"messages": [{"role": "assistant", "content": [
        {"type": "text", "text": "Here is your image:"},
        {"type": "image", "mimeType": "image/png", "data": b64("tiny.png")}]}]});
    let run = convert(
        &["--from", "canonical", "--to", "openai-responses"],
        &canonical,
    );
    run.assert_error(
        1,
        &["/messages/0/content/1: image part (image/png) cannot be carried by openai-responses: assistant messages carry only text"],
    );
}

#[test]
fn malformed_documents_are_rejected_with_a_pointer() {
    let cases = [
        (
            json!({"input": 7}),
            "/input: input must be a string or a list of input items",
        ),
        (
            json!({"input": [{"content": "x"}]}),
            "/input/0: an input item needs a type or a role",
        ),
        (
            json!({"input": [{"role": "robot", "content": "x"}]}),
            "/input/0/role: role \"robot\" is not supported",
        ),
        (
            json!({"input": [{"type": "function_call", "call_id": "c", "name": "f", "arguments": {}}]}),
            "/input/0/arguments: arguments must be a JSON string",
        ),
        (
            json!({"input": [{"type": "function_call_output", "call_id": "c", "output": {"a": 1}}]}),
            "/input/0/output: output must be a string or a list",
        ),
        (
            json!({"object": "response", "output": 1}),
            "/output: a response needs an output list",
        ),
    ];
    for (document, message) in cases {
        let run = convert(
            &["--from", "openai-responses", "--to", "canonical"],
            &document,
        );
        run.assert_error(1, &[message]);
    }
}
