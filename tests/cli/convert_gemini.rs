//! `partkit convert` from and to Gemini generateContent (docs/conversion.md): request bodies,
//! bare `contents` lists, responses and single function responses; camelCase and
//! snake_case input, camelCase output; exact round trips through the canonical
//! model; conversions with OpenAI Chat Completions; and the bugs real converters
//! shipped (docs/converter-bugs.md R5, R27, R28, R30, E12, E13), one test
//! named after each.
//!
//! Documents are built here from the committed media fixtures (`tests/fixtures/
//! tiny.png`, `doc.pdf`, `tone.wav`, `tiny.gif`) and given on stdin. The one
//! committed file, `tests/fixtures/convert/gemini/request.json`, is checked
//! against the recipe that builds it (`committed_request_matches_its_recipe`).

use std::fs;

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use serde_json::{json, Value};

use super::{fixture, run, run_with_stdin, Run};

// ---------------------------------------------------------------------------
// Helpers

/// Canonical base64 of a fixture.
fn b64(name: &str) -> String {
    STANDARD.encode(fs::read(fixture(name)).unwrap_or_else(|e| panic!("fixture {name}: {e}")))
}

/// A fixture's size in bytes.
fn size(name: &str) -> usize {
    fs::read(fixture(name)).unwrap().len()
}

/// Compact JSON text, keys in order.
fn compact(value: &Value) -> String {
    serde_json::to_string(value).unwrap()
}

/// Runs `partkit convert ARGS` with `input` (compact JSON) on stdin.
fn convert(args: &[&str], input: &Value) -> Run {
    let mut all = vec!["convert"];
    all.extend_from_slice(args);
    run_with_stdin(&all, compact(input).as_bytes())
}

/// Google's placeholder for calls without a thought signature.
const PLACEHOLDER: &str = "skip_thought_signature_validator";

/// The note for calls from `source` given the placeholder in `turns` turns.
fn signed(source: &str, turns: usize) -> String {
    format!("gemini: calls from {source} carry no thought signature, which Gemini 3 requires; wrote Google's documented placeholder \"{PLACEHOLDER}\" on the first call of {turns} model turn(s)")
}

/// The stderr of warning lines.
fn warnings(messages: &[&str]) -> String {
    messages
        .iter()
        .map(|m| format!("partkit: warning: {m}\n"))
        .collect()
}

/// Exit 0, exactly `stderr`, and stdout exactly `expected` (as a value).
fn assert_json(run: &Run, expected: &Value, stderr: &str) {
    assert_eq!(run.code, 0, "exit code; stderr: {}", run.stderr);
    assert_eq!(run.stderr, stderr, "stderr");
    assert_eq!(&run.json(), expected, "stdout JSON");
}

/// As [`assert_json`], and stdout is `expected` as compact text (keys in order).
fn assert_exact(run: &Run, expected: &Value, stderr: &str) {
    assert_json(run, expected, stderr);
    assert_eq!(
        run.stdout,
        format!("{}\n", compact(expected)),
        "stdout text"
    );
}

/// A Gemini document comes back exactly: straight (`--to gemini`), and through
/// canonical JSON (`--to canonical`, then `--from canonical --to gemini`).
fn assert_round_trip(document: &Value) {
    assert_exact(
        &convert(&["--from", "gemini", "--to", "gemini"], document),
        document,
        "",
    );
    let canonical = convert(&["--from", "gemini", "--to", "canonical"], document);
    assert_eq!(canonical.code, 0, "stderr: {}", canonical.stderr);
    assert_eq!(canonical.stderr, "");
    assert_exact(
        &convert(
            &["--from", "canonical", "--to", "gemini"],
            &canonical.json(),
        ),
        document,
        "",
    );
}

fn inline(mime: &str, fixture_name: &str) -> Value {
    json!({"inlineData": {"mimeType": mime, "data": b64(fixture_name)}})
}

fn text(text: &str) -> Value {
    json!({"text": text})
}

/// The unsupported-part placeholder for a fixture (docs/conversion.md, toolnexus's wording).
fn placeholder(kind: &str, mime: &str, fixture_name: &str) -> String {
    format!(
        "[unsupported {kind} part ({mime}, {} bytes)]",
        size(fixture_name)
    )
}

/// A realistic request: a system instruction, an image to look at, a thought, two
/// parallel calls (one with an id, one without, one with a thought signature), their
/// results in one user Content (an image and a PDF nested in the first, the second an
/// error), the answer, a function tool with a JSON Schema beside a server tool, the
/// tool choice, generation settings partkit maps and ones it keeps, safety settings
/// and a cached content.
fn realistic_request() -> Value {
    json!({
        "systemInstruction": {"parts": [text("You are a terse analyst.")], "role": "user"},
        "contents": [
            {"role": "user", "parts": [
                text("Chart the weather in Paris and Rome like this one."),
                inline("image/png", "tiny.png"),
            ]},
            {"role": "model", "parts": [
                {"text": "Two cities: two calls.", "thought": true},
                {"functionCall": {"name": "get_chart", "args": {"city": "Paris", "days": 3}},
                 "thoughtSignature": "c2lnbmF0dXJlLW9uZQ=="},
                {"functionCall": {"id": "fc_rome", "name": "get_chart", "args": {"city": "Rome", "days": 3}}},
            ]},
            {"role": "user", "parts": [
                {"functionResponse": {
                    "name": "get_chart",
                    "response": {"output": "Paris: 18, 20, 17 °C"},
                    "parts": [
                        {"inlineData": {"mimeType": "image/png", "data": b64("tiny.png"), "displayName": "paris.png"}},
                        {"inlineData": {"mimeType": "application/pdf", "data": b64("doc.pdf"), "displayName": "paris.pdf"}},
                    ]}},
                {"functionResponse": {"id": "fc_rome", "name": "get_chart",
                                      "response": {"error": "Rome: station offline"}}},
            ]},
            {"role": "model", "parts": [
                {"text": "Paris charted; Rome is offline.", "thoughtSignature": "c2lnbmF0dXJlLXR3bw=="},
            ]},
        ],
        "tools": [
            {"functionDeclarations": [{
                "name": "get_chart",
                "description": "Render a weather chart",
                "parametersJsonSchema": {
                    "type": "object",
                    "properties": {"city": {"type": "string"}, "days": {"type": "integer", "minimum": 1}},
                    "required": ["city"],
                },
            }]},
            {"googleSearch": {}},
        ],
        "toolConfig": {"functionCallingConfig": {"mode": "AUTO"}},
        "generationConfig": {
            "temperature": 0.20,
            "topP": 1.0,
            "maxOutputTokens": 1024,
            "stopSequences": ["END"],
            "topK": 40,
            "thinkingConfig": {"includeThoughts": true, "thinkingBudget": 1024},
        },
        "safetySettings": [{"category": "HARM_CATEGORY_HATE_SPEECH", "threshold": "BLOCK_ONLY_HIGH"}],
        "cachedContent": "cachedContents/weather-1",
    })
}

// ---------------------------------------------------------------------------
// Round trips

#[test]
fn a_realistic_request_round_trips_exactly() {
    assert_round_trip(&realistic_request());
}

#[test]
fn committed_request_matches_its_recipe() {
    let path = fixture("convert/gemini/request.json");
    let committed: Value = serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(committed, realistic_request(), "{}", path.display());
    let run = run(&[
        "convert",
        "--to",
        "gemini",
        "tests/fixtures/convert/gemini/request.json",
    ]);
    assert_exact(&run, &realistic_request(), "");
}

#[test]
fn a_request_reads_as_this_canonical_transcript() {
    let request = json!({
        "systemInstruction": {"parts": [text("Be terse.")]},
        "contents": [
            {"role": "user", "parts": [text("Chart Paris."), inline("audio/wav", "tone.wav")]},
            {"role": "model", "parts": [
                {"text": "One call.", "thought": true, "thoughtSignature": "c2ln"},
                {"functionCall": {"name": "get_chart", "args": {"city": "Paris"}}, "thoughtSignature": "c2ln"},
            ]},
            {"role": "user", "parts": [
                {"functionResponse": {"name": "get_chart", "response": {"output": {"max": 20}},
                    "parts": [inline("image/png", "tiny.png")]}},
                text("Thanks."),
            ]},
        ],
        "tools": [{"functionDeclarations": [
            {"name": "get_chart", "parametersJsonSchema": {"type": "object"}}]}],
        "toolConfig": {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["get_chart"]}},
        "generationConfig": {"maxOutputTokens": 256, "candidateCount": 1},
    });
    let canonical = json!({
        "max_tokens": 256,
        "tool_choice": {"name": "get_chart"},
        "system": [{"type": "text", "text": "Be terse."}],
        "tools": [{"name": "get_chart", "parameters": {"type": "object"}}],
        "messages": [
            {"role": "user", "content": [
                {"type": "text", "text": "Chart Paris."},
                {"type": "audio", "mimeType": "audio/wav", "data": b64("tone.wav")},
            ]},
            {"role": "assistant", "content": [
                {"type": "opaque", "shape": "gemini",
                 "value": {"text": "One call.", "thought": true, "thoughtSignature": "c2ln"}},
                {"type": "tool_call", "name": "get_chart", "arguments": {"city": "Paris"},
                 "extensions": {"gemini": {"thoughtSignature": "c2ln"}}},
            ]},
            {"role": "tool", "content": [
                {"type": "tool_result", "name": "get_chart", "is_error": false, "content": [
                    {"type": "text", "text": "{\"max\":20}"},
                    {"type": "image", "mimeType": "image/png", "data": b64("tiny.png")},
                ], "extensions": {"gemini": {"$response": "output-json"}}},
            ]},
            {"role": "user", "content": [{"type": "text", "text": "Thanks."}]},
        ],
        "extensions": {"gemini": {"generationConfig.candidateCount": 1}},
    });
    assert_exact(&convert(&["--to", "canonical"], &request), &canonical, "");
    assert_exact(
        &convert(&["--from", "canonical", "--to", "gemini"], &canonical),
        &request,
        "",
    );
}

#[test]
fn snake_case_input_comes_back_in_its_own_casing() {
    let snake = json!({
        "system_instruction": {"parts": [text("Be terse.")]},
        "contents": [
            {"role": "user", "parts": [
                {"inline_data": {"mime_type": "image/png", "data": b64("tiny.png")}},
                {"file_data": {"mime_type": "application/pdf", "file_uri": "gs://bucket/report.pdf"}},
            ]},
            {"role": "model", "parts": [
                {"function_call": {"id": "c1", "name": "lookup", "args": {"user_id": 7}},
                 "thought_signature": "c2ln"},
            ]},
            {"role": "user", "parts": [
                {"function_response": {"id": "c1", "name": "lookup",
                    "response": {"output": {"user_name": "Ada"}},
                    "parts": [{"inline_data": {"mime_type": "image/png", "data": b64("tiny.png"),
                                               "display_name": "avatar.png"}}]}},
            ]},
        ],
        "tools": [{"function_declarations": [{"name": "lookup",
            "parameters_json_schema": {"type": "object", "properties": {"user_id": {"type": "integer"}}}}]},
            {"code_execution": {}}],
        "tool_config": {"function_calling_config": {"mode": "ANY"}},
        "generation_config": {"top_p": 0.5, "max_output_tokens": 64, "stop_sequences": ["x"],
                              "response_mime_type": "text/plain",
                              "thinking_config": {"thinking_budget": 0}},
        "safety_settings": [{"category": "HARM_CATEGORY_HARASSMENT", "threshold": "BLOCK_NONE"}],
    });
    let camel = json!({
        "systemInstruction": {"parts": [text("Be terse.")]},
        "contents": [
            {"role": "user", "parts": [
                inline("image/png", "tiny.png"),
                {"fileData": {"mimeType": "application/pdf", "fileUri": "gs://bucket/report.pdf"}},
            ]},
            {"role": "model", "parts": [
                {"functionCall": {"id": "c1", "name": "lookup", "args": {"user_id": 7}},
                 "thoughtSignature": "c2ln"},
            ]},
            {"role": "user", "parts": [
                {"functionResponse": {"id": "c1", "name": "lookup",
                    "response": {"output": {"user_name": "Ada"}},
                    "parts": [{"inlineData": {"mimeType": "image/png", "data": b64("tiny.png"),
                                              "displayName": "avatar.png"}}]}},
            ]},
        ],
        "tools": [{"functionDeclarations": [{"name": "lookup",
            "parametersJsonSchema": {"type": "object", "properties": {"user_id": {"type": "integer"}}}}]},
            {"codeExecution": {}}],
        "toolConfig": {"functionCallingConfig": {"mode": "ANY"}},
        "generationConfig": {"topP": 0.5, "maxOutputTokens": 64, "stopSequences": ["x"],
                             "responseMimeType": "text/plain",
                             "thinkingConfig": {"thinkingBudget": 0}},
        "safetySettings": [{"category": "HARM_CATEGORY_HARASSMENT", "threshold": "BLOCK_NONE"}],
    });
    // google-genai and Vertex send snake_case: A -> canonical -> A gives it back,
    // and camelCase stays camelCase.
    assert_round_trip(&snake);
    assert_round_trip(&camel);
    // Both read the same: the transcripts differ only in the casing hint.
    let read = |document: &Value| {
        let mut canonical = convert(&["--to", "canonical"], document).json();
        if let Some(Value::Object(gemini)) = canonical.pointer_mut("/extensions/gemini") {
            gemini.shift_remove("$snake");
            if gemini.is_empty() {
                canonical["extensions"]
                    .as_object_mut()
                    .unwrap()
                    .shift_remove("gemini");
            }
        }
        canonical
    };
    assert_eq!(read(&snake), read(&camel));
    // Casing is per field, as real bodies mix them (pydantic-ai writes
    // `functionCall` beside `inline_data`).
    let mixed = json!({"contents": [
        {"role": "model", "parts": [{"functionCall": {"id": "c1", "name": "lookup", "args": {}}}]},
        {"role": "user", "parts": [{"functionResponse": {"id": "c1", "name": "lookup", "response": {},
            "parts": [{"inline_data": {"mime_type": "image/png", "data": b64("tiny.png")}}]}}]},
    ]});
    assert_round_trip(&mixed);
    // Another shape's transcript is written in camelCase.
    let from_chat = convert(
        &["--from", "openai-chat", "--to", "gemini"],
        &json!({"messages": [{"role": "user", "content": "hi"}], "max_tokens": 5}),
    );
    assert_exact(
        &from_chat,
        &json!({"contents": [{"role": "user", "parts": [text("hi")]}],
                "generationConfig": {"maxOutputTokens": 5}}),
        "",
    );
}

#[test]
fn a_bare_contents_list_stays_a_list() {
    let contents = json!([
        {"role": "user", "parts": [text("What is 6 × 7?")]},
        {"role": "model", "parts": [{"functionCall": {"name": "calc", "args": {"a": 6, "b": 7}}}]},
        {"role": "user", "parts": [{"functionResponse": {"name": "calc", "response": {"output": 42}}}]},
        {"role": "model", "parts": [text("42.")]},
    ]);
    assert_round_trip(&contents);
    assert_exact(
        &convert(&["--to", "canonical"], &contents),
        &json!([
            {"role": "user", "content": [{"type": "text", "text": "What is 6 × 7?"}]},
            {"role": "assistant", "content": [
                {"type": "tool_call", "name": "calc", "arguments": {"a": 6, "b": 7}}]},
            {"role": "tool", "content": [{"type": "tool_result", "name": "calc", "is_error": false,
                "content": [{"type": "text", "text": "42"}],
                "extensions": {"gemini": {"$response": "output-json"}}}]},
            {"role": "assistant", "content": [{"type": "text", "text": "42."}]},
        ]),
        "",
    );
}

#[test]
fn contents_split_and_joined_as_the_input_had_them() {
    // Text before the results, between them, results over two Contents, a Content
    // without a role, the legacy `function` role, a Content without parts.
    assert_round_trip(&json!([
        {"role": "model", "parts": [
            {"functionCall": {"name": "a", "args": {}}},
            {"functionCall": {"name": "b"}},
            {"functionCall": {"name": "c", "args": {}}},
        ]},
        {"role": "user", "parts": [
            text("before"),
            {"functionResponse": {"name": "a", "response": {"output": "1"}}},
            text("between"),
            {"functionResponse": {"name": "b", "response": {"output": "2"}}},
        ]},
        {"role": "function", "parts": [{"functionResponse": {"name": "c", "response": {"output": "3"}}}]},
        {"parts": [text("after")]},
        {"role": "model"},
    ]));
}

#[test]
fn a_response_is_one_assistant_turn_and_round_trips() {
    let response = json!({
        "candidates": [{
            "content": {"parts": [
                {"functionCall": {"name": "get_chart", "args": {"city": "Paris"}},
                 "thoughtSignature": "c2ln"},
            ], "role": "model"},
            "finishReason": "STOP",
            "index": 0,
        }],
        "usageMetadata": {"promptTokenCount": 12, "candidatesTokenCount": 5, "totalTokenCount": 17},
        "modelVersion": "gemini-2.5-flash",
        "responseId": "resp-1",
    });
    assert_round_trip(&response);
    assert_json(
        &convert(&["--to", "openai-chat"], &response),
        &json!({
            "object": "chat.completion",
            "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
                "role": "assistant", "content": null, "tool_calls": [{
                    "id": "call_1", "type": "function",
                    "function": {"name": "get_chart", "arguments": "{\"city\":\"Paris\"}"}}]}}],
            "model": "gemini-2.5-flash",
        }),
        &warnings(&[
            "1 tool call had no id; made call_1 (results paired by order)",
            "openai-chat has no place for gemini thoughtSignature; dropped",
        ]),
    );
    // A snake_case response comes back in snake_case.
    let snake = json!({
        "candidates": [{"content": {"role": "model", "parts": [text("Hi.")]}, "finish_reason": "STOP"}],
        "usage_metadata": {"prompt_token_count": 3},
        "model_version": "gemini-2.5-flash",
    });
    assert_exact(
        &convert(&["--to", "gemini"], &snake),
        &json!({
            "candidates": [{"content": {"parts": [text("Hi.")], "role": "model"}, "finish_reason": "STOP"}],
            "usage_metadata": {"prompt_token_count": 3},
            "model_version": "gemini-2.5-flash",
        }),
        "",
    );
}

#[test]
fn an_openai_completion_becomes_a_gemini_response() {
    let completion = json!({
        "id": "chatcmpl-1", "object": "chat.completion", "model": "gpt-4o",
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": "Hello."}}],
    });
    assert_exact(
        &convert(&["--to", "gemini"], &completion),
        &json!({
            "candidates": [{"content": {"parts": [text("Hello.")], "role": "model"},
                            "finishReason": "STOP"}],
            "modelVersion": "gpt-4o",
        }),
        "",
    );
}

#[test]
fn a_single_function_response_round_trips_as_a_part_or_a_content() {
    let part = json!({"functionResponse": {"id": "c1", "name": "get_chart",
        "response": {"output": "done"},
        "parts": [{"inlineData": {"mimeType": "image/png", "data": b64("tiny.png"), "displayName": "chart.png"}}]}});
    assert_round_trip(&part);
    assert_exact(
        &convert(&["--to", "canonical"], &part),
        &json!({"type": "tool_result", "call_id": "c1", "name": "get_chart", "is_error": false,
                "content": [{"type": "text", "text": "done"},
                            {"type": "image", "mimeType": "image/png", "data": b64("tiny.png"),
                             "name": "chart.png"}]}),
        "",
    );
    // A user Content holding one function response is not told apart by
    // detection (it has no telling key): --from gemini.
    let content = json!({"role": "user", "parts": [part.clone()]});
    assert_round_trip(&content);
    convert(&["--from", "gemini", "--to", "gemini"], &json!({"role": "user", "parts": [part, text("x")]}))
        .assert_error(1, &["a single Gemini Content is read as a tool result and must hold exactly one functionResponse part"]);
}

#[test]
fn a_single_function_response_converts_to_an_openai_tool_message() {
    let part = json!({"functionResponse": {"id": "c1", "name": "get_chart",
                                           "response": {"error": "no data"}}});
    assert_json(
        &convert(&["--to", "openai-chat"], &part),
        &json!([{"role": "tool", "tool_call_id": "c1", "content": "no data"}]),
        &warnings(&["openai-chat has no place for the error flag of tool results (errors are plain text in tool messages); dropped"]),
    );
    let tool = json!({"role": "tool", "tool_call_id": "c1", "content": "sunny"});
    convert(&["--to", "gemini"], &tool).assert_error(
        1,
        &["a Gemini functionResponse needs the tool's name, and no call with id \"c1\" names it (pass --name)"],
    );
    assert_exact(
        &convert(&["--to", "gemini", "--name", "get_weather"], &tool),
        &json!({"functionResponse": {"id": "c1", "name": "get_weather", "response": {"output": "sunny"}}}),
        "",
    );
    let canonical = json!({"type": "tool_result", "call_id": "c1", "name": "get_weather",
                           "is_error": false, "content": [{"type": "text", "text": "sunny"}]});
    assert_exact(
        &convert(&["--to", "gemini"], &canonical),
        &json!({"functionResponse": {"id": "c1", "name": "get_weather", "response": {"output": "sunny"}}}),
        "",
    );
}

#[test]
fn function_response_values_round_trip() {
    let responses = [
        json!({"output": "plain text"}),
        json!({"output": ""}),
        json!({"output": {"max": 20.0, "unit": "°C", "big": 123456789012345678901234567890u128}}),
        json!({"output": [1, 2, 3]}),
        json!({"output": 7}),
        json!({"output": null}),
        json!({"error": "boom"}),
        json!({"error": {"code": 404}}),
        json!({"result": "not the output key", "elapsed": 0.5}),
        json!({"output": "two keys", "error": "mean an object"}),
        json!({}),
        json!({"image": {"$ref": "chart.png"}}),
    ];
    for response in responses {
        assert_round_trip(&json!([
            {"role": "model", "parts": [{"functionCall": {"name": "f", "args": {}}}]},
            {"role": "user", "parts": [{"functionResponse": {"name": "f", "response": response}}]},
        ]));
    }
    // No response at all.
    assert_round_trip(&json!({"functionResponse": {"name": "f"}}));
}

#[test]
fn openapi_parameters_round_trip_and_become_json_schema_elsewhere() {
    let request = json!({
        "contents": [{"role": "user", "parts": [text("hi")]}],
        "tools": [{"functionDeclarations": [{
            "name": "find",
            "parameters": {"type": "OBJECT",
                           "properties": {"q": {"type": "STRING"},
                                          "tags": {"type": "ARRAY", "items": {"type": "STRING"},
                                                   "maxItems": "3", "nullable": true}},
                           "required": ["q"]},
            "response": {"type": "STRING"},
        }, {"name": "now"}]}],
    });
    assert_round_trip(&request);
    assert_json(
        &convert(&["--to", "openai-chat"], &request),
        &json!({
            "messages": [{"role": "user", "content": "hi"}],
            "tools": [
                {"type": "function", "function": {"name": "find", "parameters": {
                    "type": "object",
                    "properties": {"q": {"type": "string"},
                                   "tags": {"type": ["array", "null"], "items": {"type": "string"},
                                            "maxItems": 3}},
                    "required": ["q"]}}},
                {"type": "function", "function": {"name": "now"}},
            ],
        }),
        &warnings(&["openai-chat has no place for gemini response; dropped"]),
    );
}

#[test]
fn tool_config_modes_map_to_the_tool_choice() {
    let cases = [
        (json!({"mode": "AUTO"}), json!("auto")),
        (json!({"mode": "NONE"}), json!("none")),
        (json!({"mode": "ANY"}), json!("required")),
        (
            json!({"mode": "ANY", "allowedFunctionNames": ["a"]}),
            json!({"name": "a"}),
        ),
        (
            json!({"mode": "ANY", "allowedFunctionNames": ["a", "b"]}),
            json!("required"),
        ),
        (json!({"mode": "VALIDATED"}), Value::Null),
    ];
    for (config, choice) in cases {
        let request = json!({
            "contents": [{"role": "user", "parts": [text("hi")]}],
            "tools": [{"functionDeclarations": [{"name": "a"}, {"name": "b"}]}],
            "toolConfig": {"functionCallingConfig": config},
        });
        assert_round_trip(&request);
        let canonical = convert(&["--to", "canonical"], &request).json();
        assert_eq!(
            canonical.get("tool_choice").cloned().unwrap_or(Value::Null),
            choice
        );
    }
    // From OpenAI: every choice, the named one as ANY with one allowed name.
    for (choice, config) in [
        (json!("auto"), json!({"mode": "AUTO"})),
        (json!("none"), json!({"mode": "NONE"})),
        (json!("required"), json!({"mode": "ANY"})),
        (
            json!({"type": "function", "function": {"name": "a"}}),
            json!({"mode": "ANY", "allowedFunctionNames": ["a"]}),
        ),
    ] {
        let request = json!({"messages": [{"role": "user", "content": "hi"}],
                             "tools": [{"type": "function", "function": {"name": "a"}}],
                             "tool_choice": choice});
        assert_exact(
            &convert(&["--from", "openai-chat", "--to", "gemini"], &request),
            &json!({"contents": [{"role": "user", "parts": [text("hi")]}],
                    "tools": [{"functionDeclarations": [{"name": "a"}]}],
                    "toolConfig": {"functionCallingConfig": config}}),
            "",
        );
    }
}

#[test]
fn tool_groups_empty_configs_and_a_body_model_round_trip() {
    assert_round_trip(&json!({
        "model": "models/gemini-2.5-flash",
        "contents": [],
        "tools": [{"codeExecution": {}}, {"functionDeclarations": [{"name": "a"}]},
                  {"functionDeclarations": [{"name": "b"}], "urlContext": {}}],
        "toolConfig": {},
        "generationConfig": {},
    }));
    assert_round_trip(&json!({"systemInstruction": {"parts": [text("only a system prompt")]}}));
    assert_round_trip(&json!({"tools": []}));
}

// ---------------------------------------------------------------------------
// With OpenAI Chat Completions

#[test]
fn idless_calls_to_the_same_function_get_distinct_ids_shared_with_their_results() {
    // Converter bugs R27 (results keyed by name were discarded as orphans), R28 (the
    // literal id "null", colliding), E13 (two calls to one function).
    let contents = json!([
        {"role": "user", "parts": [text("Weather in Paris and Rome?")]},
        {"role": "model", "parts": [
            {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}},
            {"functionCall": {"name": "get_weather", "args": {"city": "Rome"}}},
        ]},
        {"role": "user", "parts": [
            {"functionResponse": {"name": "get_weather", "response": {"output": "Paris: 18 °C"}}},
            {"functionResponse": {"name": "get_weather", "response": {"output": "Rome: 24 °C"}}},
        ]},
    ]);
    let chat = json!([
        {"role": "user", "content": "Weather in Paris and Rome?"},
        {"role": "assistant", "content": null, "tool_calls": [
            {"id": "call_1", "type": "function",
             "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}},
            {"id": "call_2", "type": "function",
             "function": {"name": "get_weather", "arguments": "{\"city\":\"Rome\"}"}},
        ]},
        {"role": "tool", "tool_call_id": "call_1", "content": "Paris: 18 °C"},
        {"role": "tool", "tool_call_id": "call_2", "content": "Rome: 24 °C"},
    ]);
    let run = convert(&["--to", "openai-chat"], &contents);
    assert_json(
        &run,
        &chat,
        &warnings(&["2 tool calls had no id; made call_1, call_2 (results paired by order)"]),
    );
    // And back: the ids stay, the results share one user Content.
    assert_exact(
        &convert(&["--to", "gemini"], &chat),
        &json!([
            {"role": "user", "parts": [text("Weather in Paris and Rome?")]},
            {"role": "model", "parts": [
                {"functionCall": {"id": "call_1", "name": "get_weather", "args": {"city": "Paris"}},
                 "thoughtSignature": PLACEHOLDER},
                {"functionCall": {"id": "call_2", "name": "get_weather", "args": {"city": "Rome"}}},
            ]},
            {"role": "user", "parts": [
                {"functionResponse": {"id": "call_1", "name": "get_weather",
                                      "response": {"output": "Paris: 18 °C"}}},
                {"functionResponse": {"id": "call_2", "name": "get_weather",
                                      "response": {"output": "Rome: 24 °C"}}},
            ]},
        ]),
        &warnings(&[&signed("openai-chat", 1)]),
    );
    // Calls without ids stay without ids when the target is Gemini.
    assert_round_trip(&contents);
}

#[test]
fn openai_parallel_results_become_one_user_content() {
    // Converter bugs R30: consecutive tool messages became separate Gemini turns, and
    // Gemini wants as many function responses as calls in one turn.
    let request = json!({
        "model": "gpt-4o",
        "messages": [
            {"role": "system", "content": "Be terse."},
            {"role": "user", "content": "Weather in Paris and Rome?"},
            {"role": "assistant", "content": null, "tool_calls": [
                {"id": "call_a", "type": "function",
                 "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}},
                {"id": "call_b", "type": "function",
                 "function": {"name": "get_weather", "arguments": "{\"city\":\"Rome\"}"}},
            ]},
            {"role": "tool", "tool_call_id": "call_a", "content": "18"},
            {"role": "tool", "tool_call_id": "call_b", "content": "[24, 25]"},
            {"role": "user", "content": "And tomorrow?"},
        ],
        "tools": [{"type": "function", "function": {
            "name": "get_weather", "description": "Current weather",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
            "strict": true}}],
        "max_tokens": 100,
        "temperature": 0.5,
        "top_p": 0.9,
        "stop": "END",
    });
    let gemini = json!({
        "systemInstruction": {"parts": [text("Be terse.")]},
        "contents": [
            {"role": "user", "parts": [text("Weather in Paris and Rome?")]},
            {"role": "model", "parts": [
                {"functionCall": {"id": "call_a", "name": "get_weather", "args": {"city": "Paris"}},
                 "thoughtSignature": PLACEHOLDER},
                {"functionCall": {"id": "call_b", "name": "get_weather", "args": {"city": "Rome"}}},
            ]},
            {"role": "user", "parts": [
                {"functionResponse": {"id": "call_a", "name": "get_weather", "response": {"output": "18"}}},
                {"functionResponse": {"id": "call_b", "name": "get_weather", "response": {"output": "[24, 25]"}}},
                text("And tomorrow?"),
            ]},
        ],
        "tools": [{"functionDeclarations": [{
            "name": "get_weather", "description": "Current weather",
            "parametersJsonSchema": {"type": "object", "properties": {"city": {"type": "string"}}}}]}],
        "generationConfig": {"temperature": 0.5, "topP": 0.9, "maxOutputTokens": 100,
                             "stopSequences": ["END"]},
    });
    assert_exact(
        &convert(&["--to", "gemini"], &request),
        &gemini,
        &warnings(&[
            &signed("openai-chat", 1),
            "gemini has no place for model, per-tool strict; dropped",
        ]),
    );
    convert(&["--to", "gemini", "--strict"], &request)
        .assert_error(1, &["--strict: gemini cannot carry model"]);
}

#[test]
fn a_bare_openai_list_with_a_system_message_becomes_a_request_body() {
    let messages = json!([
        {"role": "system", "content": "Be terse."},
        {"role": "user", "content": "hi"},
        {"role": "system", "content": "Answer in French."},
        {"role": "assistant", "content": "Salut."},
    ]);
    assert_exact(
        &convert(&["--to", "gemini"], &messages),
        &json!({
            "systemInstruction": {"parts": [text("Be terse."), text("Answer in French.")]},
            "contents": [
                {"role": "user", "parts": [text("hi")]},
                {"role": "model", "parts": [text("Salut.")]},
            ],
        }),
        &warnings(&[
            "gemini has no system messages inside contents; moved them to systemInstruction",
        ]),
    );
}

#[test]
fn user_media_from_openai_become_inline_data() {
    let messages = json!([{"role": "user", "content": [
        {"type": "text", "text": "Listen and read."},
        {"type": "input_audio", "input_audio": {"data": b64("tone.wav"), "format": "wav"}},
        {"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{}", b64("tiny.png"))}},
        {"type": "image_url", "image_url": {"url": "https://example.com/a.jpg"}},
        {"type": "file", "file": {"filename": "doc.pdf",
                                  "file_data": format!("data:application/pdf;base64,{}", b64("doc.pdf"))}},
    ]}]);
    assert_exact(
        &convert(&["--to", "gemini"], &messages),
        &json!([{"role": "user", "parts": [
            text("Listen and read."),
            inline("audio/wav", "tone.wav"),
            inline("image/png", "tiny.png"),
            {"fileData": {"mimeType": "image/jpeg", "fileUri": "https://example.com/a.jpg"}},
            inline("application/pdf", "doc.pdf"),
        ]}]),
        // The Gemini API takes no displayName on attached parts.
        &warnings(&["gemini has no place for the names of attached files; dropped"]),
    );
}

#[test]
fn thought_signatures_and_thoughts_are_dropped_elsewhere_with_one_warning() {
    let contents = json!([
        {"role": "user", "parts": [text("hi")]},
        {"role": "model", "parts": [
            {"text": "Greeting.", "thought": true},
            {"text": "Hello", "thoughtSignature": "c2lnMQ=="},
            {"text": "!", "thoughtSignature": "c2lnMg=="},
            {"executableCode": {"language": "PYTHON", "code": "print(1)"}},
        ]},
    ]);
    assert_json(
        &convert(&["--to", "openai-chat"], &contents),
        &json!([
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": [
                {"type": "text", "text": "Hello"}, {"type": "text", "text": "!"}]},
        ]),
        &warnings(&[
            "openai-chat has no place for gemini thought blocks, gemini executableCode blocks, gemini thoughtSignature; dropped",
        ]),
    );
    convert(&["--to", "openai-chat", "--strict"], &contents).assert_error(
        1,
        &["--strict: openai-chat cannot carry gemini thought blocks"],
    );
    assert_round_trip(&contents);
}

// ---------------------------------------------------------------------------
// Tool results: what real converters got wrong

/// A canonical transcript whose one call returned `content`.
fn canonical_with_result(content: Value) -> Value {
    json!({"messages": [
        {"role": "user", "content": [{"type": "text", "text": "Chart Paris."}]},
        {"role": "assistant", "content": [
            {"type": "tool_call", "id": "c1", "name": "get_chart", "arguments": {"city": "Paris"}}]},
        {"role": "tool", "content": [
            {"type": "tool_result", "call_id": "c1", "name": "get_chart", "is_error": false,
             "content": content}]},
    ]})
}

fn gemini_with_result_parts(parts: Value) -> Value {
    json!({"contents": [
        {"role": "user", "parts": [text("Chart Paris.")]},
        {"role": "model", "parts": [
            {"functionCall": {"id": "c1", "name": "get_chart", "args": {"city": "Paris"}}}]},
        {"role": "user", "parts": parts},
    ]})
}

#[test]
fn media_from_tools_nest_under_function_response_parts() {
    // Converter bugs R5: Gemini rejects media sent as sibling parts of a function
    // response; they belong under functionResponse.parts (text in `response`).
    let transcript = canonical_with_result(json!([
        {"type": "text", "text": "Here is the chart."},
        {"type": "image", "mimeType": "image/png", "data": b64("tiny.png"), "name": "chart.png"},
        {"type": "text", "text": "And the report."},
        {"type": "file", "mimeType": "application/pdf", "data": b64("doc.pdf")},
        {"type": "file", "mimeType": "text/plain", "data": b64("note.txt")},
    ]));
    assert_exact(
        &convert(&["--from", "canonical", "--to", "gemini"], &transcript),
        &gemini_with_result_parts(json!([{"functionResponse": {
        "id": "c1", "name": "get_chart",
        "response": {"output": "Here is the chart.\n\nAnd the report."},
        "parts": [
            {"inlineData": {"mimeType": "image/png", "data": b64("tiny.png"), "displayName": "chart.png"}},
            inline("application/pdf", "doc.pdf"),
            inline("text/plain", "note.txt"),
        ]}}])),
        // "And the report." came after the image: the order is not kept, and said.
        &warnings(&["gemini function responses hold their text apart from their media: text that came after media now comes before it"]),
    );
}

#[test]
fn tool_media_lift_puts_media_after_the_function_responses_in_the_same_content() {
    // For Gemini before 3: the media move out of the function response and follow
    // the responses as sibling parts of the same user Content.
    let transcript = canonical_with_result(json!([
        {"type": "text", "text": "Here is the chart."},
        {"type": "image", "mimeType": "image/png", "data": b64("tiny.png")},
        {"type": "image", "mimeType": "image/gif", "data": b64("tiny.gif")},
    ]));
    // The GIF still came from a tool: it degrades to the placeholder text.
    assert_exact(
        &convert(
            &[
                "--from",
                "canonical",
                "--to",
                "gemini",
                "--tool-media",
                "lift",
            ],
            &transcript,
        ),
        &gemini_with_result_parts(json!([
            {"functionResponse": {"id": "c1", "name": "get_chart",
                                  "response": {"output": "Here is the chart."}}},
            text("Output of tool get_chart (c1):"),
            inline("image/png", "tiny.png"),
            text(&placeholder("image", "image/gif", "tiny.gif")),
        ])),
        &warnings(&["image parts cannot be carried by gemini; replaced by a placeholder text"]),
    );
}

#[test]
fn unsupported_media_from_tools_degrade_to_text_and_attached_ones_fail() {
    let transcript = canonical_with_result(json!([
        {"type": "image", "mimeType": "image/gif", "data": b64("tiny.gif")},
        {"type": "audio", "mimeType": "audio/wav", "data": b64("tone.wav")},
        {"type": "image", "mimeType": "image/png", "url": "https://example.com/chart.png"},
        {"type": "image", "mimeType": "image/png", "data": b64("tiny.png")},
        {"type": "image", "mimeType": "image/gif", "data": b64("tiny.gif")},
    ]));
    let gif = placeholder("image", "image/gif", "tiny.gif");
    let wav = placeholder("audio", "audio/wav", "tone.wav");
    let url = "[unsupported image part (image/png, https://example.com/chart.png)]";
    assert_exact(
        &convert(&["--from", "canonical", "--to", "gemini"], &transcript),
        &gemini_with_result_parts(json!([{"functionResponse": {
            "id": "c1", "name": "get_chart",
            "response": {"output": format!("{gif}\n\n{wav}\n\n{url}\n\n{gif}")},
            "parts": [inline("image/png", "tiny.png")]}}])),
        &warnings(&[
            "image parts cannot be carried by gemini; replaced by a placeholder text",
            "audio parts cannot be carried by gemini; replaced by a placeholder text",
        ]),
    );
    convert(
        &[
            "--from",
            "canonical",
            "--to",
            "gemini",
            "--on-unsupported",
            "error",
        ],
        &transcript,
    )
    .assert_error(
        1,
        &["/messages/2/content/0/content/0: image part (image/gif) cannot be carried by gemini"],
    );
    // A GIF the user attached is an error by default.
    let attached = json!({"messages": [{"role": "user", "content": [
        {"type": "image", "mimeType": "image/gif", "data": b64("tiny.gif")}]}]});
    convert(&["--from", "canonical", "--to", "gemini"], &attached).assert_error(
        1,
        &["/messages/0/content/0: image part (image/gif) cannot be carried by gemini"],
    );
    // A Gemini input is written back as it was, whatever Gemini documents.
    assert_round_trip(&gemini_with_result_parts(json!([{"functionResponse": {
        "id": "c1", "name": "get_chart", "response": {"output": "x"},
        "parts": [inline("image/gif", "tiny.gif"),
                  {"fileData": {"mimeType": "image/png", "fileUri": "https://example.com/c.png"}}]}}])));
}

#[test]
fn function_response_is_always_an_object() {
    // Converter bugs E12: `response` must be an object, so scalar and array results are
    // wrapped; an error goes under "error".
    let results = json!({"messages": [
        {"role": "assistant", "content": [
            {"type": "tool_call", "id": "c1", "name": "count", "arguments": {}},
            {"type": "tool_call", "id": "c2", "name": "list", "arguments": {}},
            {"type": "tool_call", "id": "c3", "name": "fail", "arguments": {}},
            {"type": "tool_call", "id": "c4", "name": "image", "arguments": {}}]},
        {"role": "tool", "content": [
            {"type": "tool_result", "call_id": "c1", "name": "count", "is_error": false,
             "content": [{"type": "text", "text": "42"}]},
            {"type": "tool_result", "call_id": "c2", "name": "list", "is_error": false,
             "content": [{"type": "text", "text": "[1, 2]"}]},
            {"type": "tool_result", "call_id": "c3", "name": "fail", "is_error": true,
             "content": [{"type": "text", "text": "disk full"}]},
            {"type": "tool_result", "call_id": "c4", "name": "image", "is_error": false,
             "content": [{"type": "image", "mimeType": "image/png", "data": b64("tiny.png")}]}]},
    ]});
    assert_exact(
        &convert(&["--from", "canonical", "--to", "gemini"], &results),
        &json!({"contents": [
            {"role": "model", "parts": [
                {"functionCall": {"id": "c1", "name": "count", "args": {}}},
                {"functionCall": {"id": "c2", "name": "list", "args": {}}},
                {"functionCall": {"id": "c3", "name": "fail", "args": {}}},
                {"functionCall": {"id": "c4", "name": "image", "args": {}}}]},
            {"role": "user", "parts": [
                {"functionResponse": {"id": "c1", "name": "count", "response": {"output": "42"}}},
                {"functionResponse": {"id": "c2", "name": "list", "response": {"output": "[1, 2]"}}},
                {"functionResponse": {"id": "c3", "name": "fail", "response": {"error": "disk full"}}},
                {"functionResponse": {"id": "c4", "name": "image", "response": {"output": ""},
                                      "parts": [inline("image/png", "tiny.png")]}}]},
        ]}),
        "",
    );
    // A Gemini input whose response is not an object gets one, and says so.
    let bad = json!([{"role": "user", "parts": [
        {"functionResponse": {"name": "count", "response": 42}},
        {"functionResponse": {"name": "list", "response": [1, 2]}},
        {"functionResponse": {"name": "say", "response": "hi"}},
    ]}]);
    assert_exact(
        &convert(&["--to", "gemini"], &bad),
        &json!([{"role": "user", "parts": [
            {"functionResponse": {"name": "count", "response": {"output": 42}}},
            {"functionResponse": {"name": "list", "response": {"output": [1, 2]}}},
            {"functionResponse": {"name": "say", "response": {"output": "hi"}}},
        ]}]),
        &warnings(&[
            "/0/parts/0/functionResponse/response is not an object; written as {\"output\": …} (Gemini needs an object)",
            "/0/parts/1/functionResponse/response is not an object; written as {\"output\": …} (Gemini needs an object)",
            "/0/parts/2/functionResponse/response is not an object; written as {\"output\": …} (Gemini needs an object)",
        ]),
    );
}

#[test]
fn function_response_needs_a_name() {
    // A result without a name takes its call's; with no call to name it, exit 1.
    let named_by_call = json!({"messages": [
        {"role": "assistant", "content": [
            {"type": "tool_call", "id": "c1", "name": "get_chart", "arguments": {}}]},
        {"role": "tool", "content": [
            {"type": "tool_result", "call_id": "c1", "is_error": false,
             "content": [{"type": "text", "text": "ok"}]}]},
    ]});
    assert_exact(
        &convert(&["--from", "canonical", "--to", "gemini"], &named_by_call),
        &json!({"contents": [
            {"role": "model", "parts": [{"functionCall": {"id": "c1", "name": "get_chart", "args": {}}}]},
            {"role": "user", "parts": [{"functionResponse": {"id": "c1", "name": "get_chart",
                                                             "response": {"output": "ok"}}}]},
        ]}),
        "",
    );
    let orphan = json!({"messages": [{"role": "tool", "content": [
        {"type": "tool_result", "call_id": "c9", "is_error": false, "content": []}]}]});
    convert(&["--from", "canonical", "--to", "gemini"], &orphan).assert_error(
        1,
        &["/messages/0/content/0: a Gemini functionResponse needs the tool's name, and no call with id \"c9\" names it"],
    );
}

// ---------------------------------------------------------------------------
// Invalid input

#[test]
fn invalid_gemini_input_is_exit_1_with_a_pointer() {
    let cases = [
        (
            json!([{"role": "model", "parts": [{"functionCall": {"args": {}}}]}]),
            "/0/parts/0/functionCall/name: a functionCall needs a name",
        ),
        (
            json!([{"role": "user", "parts": [{"inline_data": {"mime_type": "image/png"}}]}]),
            "/0/parts/0/inline_data/data: inlineData needs data (base64)",
        ),
        // A role Gemini refuses is read (and reported by validate); one that
        // is not a string cannot be.
        (
            json!({"contents": [{"role": 7, "parts": []}]}),
            "/contents/0/role: role 7 is not a string",
        ),
        (
            json!({"contents": [{"role": "user", "parts": [{"inlineData": {"mimeType": "png", "data": "AAAA"}}]}]}),
            "/contents/0/parts/0/inlineData/mimeType: mimeType \"png\" is not a media type",
        ),
        // One Content in place of the list is legal (protobuf's JSON
        // mapping); a string is no Content either way.
        (
            json!({"contents": "hi"}),
            "/contents: a Content must be an object",
        ),
    ];
    for (document, message) in cases {
        let run = convert(&["--from", "gemini", "--to", "canonical"], &document);
        run.assert_error(1, &[&format!("<stdin>: {message}")]);
    }
}

#[test]
fn json_lines_convert_one_document_a_line_and_name_the_bad_line() {
    let lines = [
        json!({"contents": [{"role": "user", "parts": [text("hi")]}]}),
        json!({"contents": [{"role": "model", "parts": [{"functionCall": {"args": {}}}]}]}),
        json!({"candidates": [{"content": {"parts": [text("hello")], "role": "model"},
                               "finishReason": "STOP"}]}),
    ];
    let input: String = lines.iter().map(|l| format!("{}\n", compact(l))).collect();
    let run = run_with_stdin(&["convert", "--to", "openai-chat"], input.as_bytes());
    assert_eq!(run.code, 1, "stderr: {}", run.stderr);
    assert_eq!(
        run.stderr,
        "partkit: error: <stdin>:2: /contents/0/parts/0/functionCall/name: a functionCall needs a name\n\
         partkit: <stdin>: 3 lines in, 2 out, 1 failed\n"
    );
    assert_eq!(
        run.json_lines(),
        [
            json!({"messages": [{"role": "user", "content": "hi"}]}),
            json!({"object": "chat.completion", "choices": [{"index": 0, "finish_reason": "stop",
                   "message": {"role": "assistant", "content": "hello"}}]}),
        ]
    );
}

#[test]
fn url_safe_base64_is_legal_in_gemini_and_standard_everywhere_else() {
    // google-genai sends inlineData URL-safe; Gemini reads either alphabet,
    // padded or not (protobuf's JSON mapping).
    let standard = "iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAAIklEQVR42jXGsQ0AMAzDMCWX25crQ9GFIAIC+vV105KZEjxGyA/7g1f7rwAAAABJRU5ErkJggg==";
    let url_safe = standard.replace('+', "-").replace('/', "_");
    for data in [url_safe.clone(), url_safe.trim_end_matches('=').to_string()] {
        let body = json!({"contents": [{"role": "user", "parts": [
            {"text": "What is in this image?"},
            {"inlineData": {"mimeType": "image/png", "data": data}}]}]});
        let text = body.to_string();
        let check = run_with_stdin(&["validate"], text.as_bytes());
        assert_eq!(
            (check.code, check.stdout.as_str()),
            (0, ""),
            "{}",
            check.stderr
        );
        // Back to Gemini it is spelled as it came (A -> canonical -> A is exact).
        let run = run_with_stdin(&["convert", "--to", "gemini"], text.as_bytes());
        assert_eq!(
            run.json()["contents"][0]["parts"][1]["inlineData"]["data"],
            data.as_str()
        );
        assert_round_trip(&body);
        for target in ["anthropic", "openai-chat", "bedrock", "canonical"] {
            let run = run_with_stdin(&["convert", "--to", target, "-q"], text.as_bytes());
            assert_eq!(run.code, 0, "{target}: {}", run.stderr);
            assert!(run.stdout.contains(standard), "{target}: {}", run.stdout);
            assert!(
                !run.stdout.contains(url_safe.trim_end_matches('=')),
                "{target}"
            );
        }
    }
    // Elsewhere URL-safe base64 is still not canonical.
    let anthropic = json!({"messages": [{"role": "user", "content": [{"type": "image",
        "source": {"type": "base64", "media_type": "image/png", "data": url_safe}}]}]});
    let run = run_with_stdin(&["validate"], anthropic.to_string().as_bytes());
    assert_eq!(run.code, 1);
    assert!(run.stdout.contains("base64-noncanonical"), "{}", run.stdout);
}
