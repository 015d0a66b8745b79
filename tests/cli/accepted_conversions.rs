//! Conversions of bodies a provider accepted: refused only by the media
//! policy, and written so that partkit's own `validate` of the target finds
//! no error. Two cases: tool calls in a request that declares no tools
//! (OpenAI and Gemini take it, Anthropic and Bedrock refuse it, so those get
//! the called tools declared), and images by a URL that names no type
//! (`https://picsum.photos/200`, which the provider fetches and sniffs).
//! Inputs are small hand-written bodies of the recorded shapes; the real
//! recording in `../shared/realworld2/` is read at run time when it is there.

use std::path::PathBuf;

use serde_json::{json, Value};

use crate::support::outputs::warning;
use crate::{run_with_stdin, Run};

fn convert(args: &[&str], input: &Value) -> Run {
    let mut all = vec!["convert", "--compact"];
    all.extend_from_slice(args);
    run_with_stdin(&all, input.to_string().as_bytes())
}

/// Converts `input` from `from` to `to`, expecting success.
fn converted(from: &str, to: &str, input: &Value) -> (Value, String) {
    let run = convert(&["--from", from, "--to", to], input);
    assert_eq!(run.code, 0, "{from} -> {to}: {}", run.stderr);
    (run.json(), run.stderr)
}

/// `validate --from shape` of `doc` finds no error (warnings may stand).
fn assert_no_error(shape: &str, doc: &Value) {
    let run = run_with_stdin(&["validate", "--from", shape], doc.to_string().as_bytes());
    assert_eq!(
        run.code, 0,
        "validate --from {shape} of {doc}:\n{}{}",
        run.stdout, run.stderr
    );
    assert!(!run.stdout.contains("error["), "{}", run.stdout);
}

/// `doc` converted from `shape` to `shape` is `doc` again.
fn assert_round_trip(shape: &str, doc: &Value) {
    let (back, _) = converted(shape, shape, doc);
    assert_eq!(&back, doc, "{shape} -> {shape}");
    let (canonical, _) = converted(shape, "canonical", doc);
    let (back, _) = converted("canonical", shape, &canonical);
    assert_eq!(&back, doc, "{shape} -> canonical -> {shape}");
}

// ---------------------------------------------------------------------------
// Calls in a request that declares no tools

/// The schema of a tool declared only because the history calls it.
fn any_arguments() -> Value {
    json!({"type": "object", "additionalProperties": true})
}

/// A Chat request whose history calls `get_weather` twice and `get_time`
/// once, with their results, and declares no tools.
fn chat_calls() -> Value {
    json!({
        "model": "gpt-4o-mini",
        "max_tokens": 100,
        "messages": [
            {"role": "user", "content": "Weather and time in Paris and Rome?"},
            {"role": "assistant", "content": null, "tool_calls": [
                {"id": "call_a", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}},
                {"id": "call_b", "type": "function", "function": {"name": "get_time", "arguments": "{\"city\":\"Paris\"}"}},
                {"id": "call_c", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Rome\"}"}}
            ]},
            {"role": "tool", "tool_call_id": "call_a", "content": "sunny"},
            {"role": "tool", "tool_call_id": "call_b", "content": "noon"},
            {"role": "tool", "tool_call_id": "call_c", "content": "rainy"}
        ]
    })
}

fn responses_calls() -> Value {
    json!({
        "model": "gpt-4o-mini",
        "input": [
            {"role": "user", "content": "Weather in Paris?"},
            {"type": "function_call", "call_id": "call_a", "name": "get_weather", "arguments": "{\"city\":\"Paris\"}"},
            {"type": "function_call_output", "call_id": "call_a", "output": "sunny"}
        ]
    })
}

/// Gemini's calls carry no ids: the conversion makes them.
fn gemini_calls() -> Value {
    json!({
        "contents": [
            {"role": "user", "parts": [{"text": "Weather in Paris?"}]},
            {"role": "model", "parts": [{"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}}]},
            {"role": "user", "parts": [{"functionResponse": {"name": "get_weather", "response": {"output": "sunny"}}}]}
        ]
    })
}

fn declared_warning(target: &str, names: &str, pronoun: &str) -> String {
    warning(&format!(
        "{target} refuses tool calls in a request that declares no tools: declared {names} with any arguments (the model may call {pronoun} in the next turn)"
    ))
}

#[test]
fn chat_calls_without_tools_into_anthropic_declare_the_called_tools() {
    let (out, stderr) = converted("openai-chat", "anthropic", &chat_calls());
    assert_eq!(
        out,
        json!({
            "model": "gpt-4o-mini",
            "max_tokens": 100,
            "messages": [
                {"role": "user", "content": "Weather and time in Paris and Rome?"},
                {"role": "assistant", "content": [
                    {"type": "tool_use", "id": "call_a", "name": "get_weather", "input": {"city": "Paris"}},
                    {"type": "tool_use", "id": "call_b", "name": "get_time", "input": {"city": "Paris"}},
                    {"type": "tool_use", "id": "call_c", "name": "get_weather", "input": {"city": "Rome"}}
                ]},
                {"role": "user", "content": [
                    {"type": "tool_result", "tool_use_id": "call_a", "content": [{"type": "text", "text": "sunny"}]},
                    {"type": "tool_result", "tool_use_id": "call_b", "content": [{"type": "text", "text": "noon"}]},
                    {"type": "tool_result", "tool_use_id": "call_c", "content": [{"type": "text", "text": "rainy"}]}
                ]}
            ],
            "tools": [
                {"name": "get_weather", "input_schema": any_arguments()},
                {"name": "get_time", "input_schema": any_arguments()}
            ]
        })
    );
    assert_eq!(
        stderr,
        declared_warning("anthropic", "get_weather, get_time", "them")
    );
    assert_no_error("anthropic", &out);
    // What the degrade wrote is the target's own body: it comes back exactly.
    assert_round_trip("anthropic", &out);
}

#[test]
fn chat_calls_without_tools_into_bedrock_declare_the_called_tools() {
    let (out, stderr) = converted("openai-chat", "bedrock", &chat_calls());
    let spec =
        |name: &str| json!({"toolSpec": {"name": name, "inputSchema": {"json": any_arguments()}}});
    assert_eq!(
        out["toolConfig"],
        json!({"tools": [spec("get_weather"), spec("get_time")]})
    );
    let uses: Vec<&Value> = out["messages"][1]["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|block| &block["toolUse"]["toolUseId"])
        .collect();
    assert_eq!(uses, ["call_a", "call_b", "call_c"]);
    let results: Vec<&Value> = out["messages"][2]["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|block| &block["toolResult"]["toolUseId"])
        .collect();
    assert_eq!(results, ["call_a", "call_b", "call_c"]);
    assert_eq!(
        stderr,
        declared_warning("bedrock", "get_weather, get_time", "them")
    );
    assert_no_error("bedrock", &out);
    assert_round_trip("bedrock", &out);
}

#[test]
fn responses_and_gemini_calls_without_tools_declare_them_too() {
    for (from, input, id, made) in [
        ("openai-responses", responses_calls(), "call_a", ""),
        (
            "gemini",
            gemini_calls(),
            "call_1",
            "partkit: warning: 1 tool call had no id; made call_1 (results paired by order)\n",
        ),
    ] {
        let (out, stderr) = converted(from, "anthropic", &input);
        assert_eq!(
            out["tools"],
            json!([{"name": "get_weather", "input_schema": any_arguments()}]),
            "{from}"
        );
        assert_eq!(out["messages"][1]["content"][0]["id"], id, "{from}");
        assert_eq!(
            out["messages"][2]["content"][0]["tool_use_id"], id,
            "{from}"
        );
        assert_eq!(
            stderr,
            format!(
                "{made}{}{}",
                declared_warning("anthropic", "get_weather", "it"),
                warning("anthropic requests require max_tokens and the input has none; none was written (add one before sending)")
            ),
            "{from}"
        );
        assert_no_error("anthropic", &out);

        let (out, stderr) = converted(from, "bedrock", &input);
        assert_eq!(
            out["toolConfig"]["tools"],
            json!([{"toolSpec": {"name": "get_weather", "inputSchema": {"json": any_arguments()}}}]),
            "{from}"
        );
        assert_eq!(
            out["messages"][2]["content"][0]["toolResult"]["toolUseId"], id,
            "{from}"
        );
        assert_eq!(
            stderr,
            format!("{made}{}", declared_warning("bedrock", "get_weather", "it")),
            "{from}"
        );
        assert_no_error("bedrock", &out);
    }
}

#[test]
fn targets_that_accept_calls_without_tools_get_none_declared() {
    for to in ["openai-chat", "openai-responses", "gemini", "canonical"] {
        let (out, stderr) = converted("openai-chat", to, &chat_calls());
        assert_eq!(out.get("tools"), None, "{to}");
        assert!(!stderr.contains("declares no tools"), "{to}: {stderr}");
        assert_no_error(to, &out);
    }
    // The Chat body comes back exactly, with no tools.
    assert_round_trip("openai-chat", &chat_calls());
    assert_round_trip("openai-responses", &responses_calls());
}

#[test]
fn a_message_list_has_no_place_for_tools_and_gets_none() {
    let messages = chat_calls()["messages"].clone();
    let (out, stderr) = converted("openai-chat", "anthropic", &messages);
    assert!(out.is_array(), "{out}");
    assert!(!stderr.contains("declares no tools"), "{stderr}");
}

#[test]
fn declared_tools_are_kept_as_they_are() {
    let mut input = chat_calls();
    input["tools"] = json!([
        {"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}},
        {"type": "function", "function": {"name": "get_time", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}
    ]);
    let (out, stderr) = converted("openai-chat", "anthropic", &input);
    assert_eq!(
        out["tools"][0],
        json!({"name": "get_weather", "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}}})
    );
    assert_eq!(stderr, "");
}

#[test]
fn a_refusing_shapes_own_body_comes_back_as_it_was() {
    // Anthropic refuses this body, but converting it to Anthropic again (or
    // through canonical) adds nothing it did not have; Bedrock gets the tool.
    let anthropic = json!({"model": "claude", "max_tokens": 9, "messages": [
        {"role": "user", "content": "Weather?"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "sunny"}]}
    ]});
    assert_round_trip("anthropic", &anthropic);
    let (canonical, _) = converted("anthropic", "canonical", &anthropic);
    let (out, stderr) = converted("canonical", "bedrock", &canonical);
    assert_eq!(
        out["toolConfig"]["tools"][0]["toolSpec"]["name"],
        "get_weather"
    );
    assert_eq!(stderr, declared_warning("bedrock", "get_weather", "it"));
    assert_no_error("bedrock", &out);
}

#[test]
fn strict_refuses_to_declare_tools() {
    for to in ["anthropic", "bedrock"] {
        let run = convert(
            &["--strict", "--from", "openai-chat", "--to", to],
            &chat_calls(),
        );
        run.assert_error(
            1,
            &[&format!(
                "--strict: {to} refuses tool calls in a request that declares no tools, and declaring get_weather, get_time would add to the request"
            )],
        );
    }
}

/// The recorded Chat request (HTTP 200) whose history holds calls and
/// results and declares no tools.
#[test]
fn the_recorded_chat_calls_without_tools_convert_to_bodies_that_validate() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/realworld2/openai-chat/otel-contrib-01.json");
    let Ok(text) = std::fs::read_to_string(&path) else {
        return; // ../shared/realworld2 is not beside this checkout
    };
    let input: Value = serde_json::from_str(&text).unwrap();
    for to in ["anthropic", "bedrock"] {
        let (out, stderr) = converted("openai-chat", to, &input);
        assert!(stderr.contains("declares no tools: declared"), "{stderr}");
        assert_no_error(to, &out);
    }
}

// ---------------------------------------------------------------------------
// Images by a URL that names no type

const UNTYPED: &str = "https://picsum.photos/200";

/// The recorded form: a Chat user message of one image by URL.
fn chat_image() -> Value {
    json!({"model": "gpt-4o-mini", "messages": [{"role": "user", "content": [
        {"type": "image_url", "image_url": {"url": UNTYPED}}
    ]}]})
}

#[test]
fn an_untyped_image_url_comes_back_in_every_shape_whose_url_form_has_no_type() {
    let responses = json!({"model": "gpt-4o-mini", "input": [{"type": "message", "role": "user", "content": [
        {"type": "input_image", "image_url": UNTYPED, "detail": "auto"}
    ]}]});
    let anthropic = json!({"model": "gpt-4o-mini", "max_tokens": 100, "messages": [{"role": "user", "content": [
        {"type": "image", "source": {"type": "url", "url": UNTYPED}}
    ]}]});
    let canonical = json!({"model": "gpt-4o-mini", "messages": [{"role": "user", "content": [
        {"type": "image", "mimeType": "image/*", "url": UNTYPED}
    ]}]});
    for (shape, doc) in [
        ("openai-chat", chat_image()),
        ("openai-responses", responses.clone()),
        ("anthropic", anthropic.clone()),
        ("canonical", canonical.clone()),
    ] {
        assert_round_trip(shape, &doc);
        assert_no_error(shape, &doc);
    }
    // Each writer whose URL form declares no type writes it from Chat.
    assert_eq!(
        converted("openai-chat", "openai-responses", &chat_image()).0,
        responses
    );
    assert_eq!(
        converted("openai-chat", "canonical", &chat_image()).0,
        canonical
    );
    let (out, _) = converted("openai-chat", "anthropic", &chat_image());
    assert_eq!(out["messages"], anthropic["messages"]);
    // And the Chat writer writes it from the others.
    for (shape, doc) in [("openai-responses", &responses), ("anthropic", &anthropic)] {
        let (out, _) = converted(shape, "openai-chat", doc);
        assert_eq!(out["messages"], chat_image()["messages"], "{shape}");
    }
}

#[test]
fn an_untyped_image_url_in_a_tool_result_goes_where_the_target_carries_it() {
    let input = json!({"model": "gpt-4o-mini", "input": [
        {"role": "user", "content": "Show me a photo."},
        {"type": "function_call", "call_id": "call_a", "name": "photo", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "call_a", "output": [
            {"type": "input_image", "image_url": UNTYPED}
        ]}
    ], "tools": [{"type": "function", "name": "photo", "parameters": {"type": "object", "properties": {}}}]});
    assert_round_trip("openai-responses", &input);
    let (out, _) = converted("openai-responses", "anthropic", &input);
    assert_eq!(
        out["messages"][2]["content"][0]["content"],
        json!([{"type": "image", "source": {"type": "url", "url": UNTYPED}}])
    );
    assert_no_error("anthropic", &out);
    // Chat's tool messages carry only text: the image moves to a user message.
    let (out, _) = converted("openai-responses", "openai-chat", &input);
    let lifted = &out["messages"][3]["content"];
    assert_eq!(
        lifted[1],
        json!({"type": "image_url", "image_url": {"url": UNTYPED}})
    );
    assert_no_error("openai-chat", &out);
}

#[test]
fn gemini_and_bedrock_refuse_an_untyped_image_url_by_the_media_policy() {
    let run = convert(&["--from", "openai-chat", "--to", "gemini"], &chat_image());
    run.assert_error(
        1,
        &[
            "/messages/0/content/0: image part (image/*) cannot be carried by gemini",
            "Gemini's fileData must declare the image's type, and nothing tells this URL's type",
        ],
    );
    let run = convert(&["--from", "openai-chat", "--to", "bedrock"], &chat_image());
    run.assert_error(
        1,
        &["/messages/0/content/0: image part (image/*) cannot be carried by bedrock: Bedrock carries inline bytes or S3 locations, not URLs"],
    );
    // `--on-unsupported text` puts the placeholder naming the URL instead.
    let run = convert(
        &[
            "--from",
            "openai-chat",
            "--to",
            "gemini",
            "--on-unsupported",
            "text",
        ],
        &chat_image(),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let text = run.json()["contents"][0]["parts"][0]["text"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(text.contains(UNTYPED), "{text}");
}

#[test]
fn an_image_by_data_of_unknown_type_is_still_refused() {
    // Only a URL's bytes are the provider's to sniff; inline data must be a
    // type the provider takes (a BMP here).
    let bmp = "Qk0eAAAAAAAAABoAAAAMAAAAAQABAAEAGAAAAP8A";
    let input = json!({"model": "m", "messages": [{"role": "user", "content": [
        {"type": "image", "mimeType": "image/bmp", "data": bmp}
    ]}]});
    let run = convert(&["--from", "canonical", "--to", "openai-chat"], &input);
    run.assert_error(
        1,
        &["cannot be carried by openai-chat: openai-chat accepts only png, jpeg, gif or webp images"],
    );
}
