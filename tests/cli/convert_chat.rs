//! `partkit convert` for OpenAI Chat Completions, the canonical form, MCP and
//! NeMo Gym replies: exact round trips, two-message delivery, ids, arguments,
//! detection, JSON Lines and errors.

use serde_json::{json, Value};

use super::{fixture, run_with_stdin, Run};

fn b64(name: &str) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(std::fs::read(fixture(name)).unwrap())
}

fn png_url() -> String {
    format!("data:image/png;base64,{}", b64("tiny.png"))
}

fn convert(args: &[&str], input: &Value) -> Run {
    let mut all = vec!["convert"];
    all.extend_from_slice(args);
    run_with_stdin(&all, input.to_string().as_bytes())
}

/// Converts `input` to `to` and back to `from`, asserting both steps succeed
/// quietly and the result equals the input.
fn assert_round_trip(input: &Value, from: &str, to: &str) {
    let there = convert(&["--from", from, "--to", to], input);
    assert_eq!(there.code, 0, "{from} -> {to}: {}", there.stderr);
    assert_eq!(there.stderr, "", "{from} -> {to}");
    let back = run_with_stdin(
        &["convert", "--from", to, "--to", from],
        there.stdout.as_bytes(),
    );
    assert_eq!(back.code, 0, "{to} -> {from}: {}", back.stderr);
    assert_eq!(back.json(), *input, "{from} -> {to} -> {from}");
}

fn chat_request() -> Value {
    json!({
        "model": "gpt-4o",
        "temperature": 0.2,
        "max_completion_tokens": 1024,
        "stop": "END",
        "seed": 7,
        "response_format": {"type": "text"},
        "tools": [{"type": "function", "function": {
            "name": "get_chart", "description": "Render a chart",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
            "strict": true}}],
        "tool_choice": {"type": "function", "function": {"name": "get_chart"}},
        "messages": [
            {"role": "developer", "content": "You are terse."},
            {"role": "user", "name": "ada", "content": [
                {"type": "text", "text": "Charts for Paris and Rome?"},
                {"type": "image_url", "image_url": {"url": png_url(), "detail": "high"}}]},
            {"role": "assistant", "content": null, "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "get_chart", "arguments": "{\"city\": \"Paris\"}"}},
                {"id": "call_2", "type": "function", "function": {"name": "get_chart", "arguments": "{\"city\":\"Rome\"}"}}]},
            {"role": "tool", "tool_call_id": "call_1", "content": "chart 1"},
            {"role": "tool", "tool_call_id": "call_2", "content": [{"type": "text", "text": "chart 2"}]},
            {"role": "assistant", "content": "Here they are.", "refusal": null},
            {"role": "system", "content": "Mid-conversation instruction."},
            {"role": "user", "content": [
                {"type": "input_audio", "input_audio": {"data": b64("tone.wav"), "format": "wav"}},
                {"type": "file", "file": {"filename": "doc.pdf", "file_data": format!("data:application/pdf;base64,{}", b64("doc.pdf"))}},
                {"type": "file", "file": {"file_id": "file-abc"}}]},
            {"role": "assistant", "content": [{"type": "refusal", "refusal": "I can't."}]}
        ]
    })
}

#[test]
fn chat_request_round_trips_through_canonical_exactly() {
    assert_round_trip(&chat_request(), "openai-chat", "canonical");
}

#[test]
fn chat_round_trips_with_auto_detection() {
    let there = convert(&["--to", "canonical"], &chat_request());
    assert_eq!((there.code, there.stderr.as_str()), (0, ""));
    let back = run_with_stdin(&["convert", "--to", "openai-chat"], there.stdout.as_bytes());
    assert_eq!(back.json(), chat_request());
}

#[test]
fn chat_message_list_response_and_tool_message_round_trip() {
    let list = chat_request()["messages"].clone();
    assert_round_trip(&list, "openai-chat", "canonical");
    let response = json!({
        "id": "chatcmpl-1", "object": "chat.completion", "created": 1_700_000_000u64, "model": "gpt-4o",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "logprobs": null, "message": {
            "role": "assistant", "content": null, "refusal": null,
            "tool_calls": [{"id": "call_9", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}}],
        "usage": {"prompt_tokens": 5, "completion_tokens": 1, "total_tokens": 6}
    });
    assert_round_trip(&response, "openai-chat", "canonical");
    let tool = json!({"role": "tool", "tool_call_id": "call_1", "content": "42"});
    let canonical = convert(&["--to", "canonical"], &tool);
    assert_eq!(
        canonical.json(),
        json!({"type": "tool_result", "call_id": "call_1", "is_error": false,
               "content": [{"type": "text", "text": "42"}],
               "extensions": {"openai-chat": {"$content": "string"}}})
    );
}

#[test]
fn chat_to_canonical_maps_every_field() {
    let run = convert(
        &["--from", "openai-chat", "--to", "canonical"],
        &json!({
            "model": "m", "max_tokens": 10, "top_p": 0.5, "stop": ["a", "b"], "tool_choice": "required",
            "messages": [
                {"role": "system", "content": "sys"},
                {"role": "user", "content": "hi"},
                {"role": "assistant", "content": null, "tool_calls": [
                    {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{\"x\":1}"}}]},
                {"role": "tool", "tool_call_id": "c1", "content": "done"}]
        }),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.json(),
        json!({
            "model": "m", "max_tokens": 10, "top_p": 0.5, "stop": ["a", "b"], "tool_choice": "required",
            "system": [{"type": "text", "text": "sys"}],
            "messages": [
                {"role": "user", "content": [{"type": "text", "text": "hi"}],
                 "extensions": {"openai-chat": {"$content": "string"}}},
                {"role": "assistant", "content": [
                    {"type": "tool_call", "id": "c1", "name": "f", "arguments": {"x": 1}}],
                 "extensions": {"openai-chat": {"$content": "null"}}},
                {"role": "tool", "content": [
                    {"type": "tool_result", "call_id": "c1", "name": "f", "is_error": false,
                     "content": [{"type": "text", "text": "done"}],
                     "extensions": {"openai-chat": {"$content": "string"}}}]}
            ],
            // A body that used the old max_tokens gets it back.
            "extensions": {"openai-chat": {"$max_tokens": "max_tokens", "$system": {"$content": "string"}}}
        })
    );
}

#[test]
fn canonical_to_chat_without_hints_writes_the_common_forms() {
    let run = convert(
        &["--from", "canonical", "--to", "openai-chat"],
        &json!({
            "system": [{"type": "text", "text": "sys"}],
            "tools": [{"name": "f", "parameters": {"type": "object"}}],
            "tool_choice": {"name": "f"},
            "max_tokens": 5,
            "messages": [
                {"role": "user", "content": [{"type": "text", "text": "hi"}]},
                {"role": "assistant", "content": [
                    {"type": "text", "text": "calling"},
                    {"type": "tool_call", "id": "c1", "name": "f", "arguments": {"x": 1}}]},
                {"role": "tool", "content": [{"type": "tool_result", "call_id": "c1", "name": "f",
                                              "content": [{"type": "text", "text": "ok"}]}]}]
        }),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.json(),
        json!({
            "messages": [
                {"role": "system", "content": "sys"},
                {"role": "user", "content": "hi"},
                {"role": "assistant", "content": "calling", "tool_calls": [
                    {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{\"x\":1}"}}]},
                {"role": "tool", "tool_call_id": "c1", "content": "ok"}],
            "tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}],
            "tool_choice": {"type": "function", "function": {"name": "f"}},
            "max_completion_tokens": 5
        })
    );
}

/// Converter bugs E3: three parallel calls, images in results 1 and 3: the tool
/// messages stay together, one user message follows, images in call order,
/// each introduced by its call.
#[test]
fn parallel_results_with_images_get_one_following_user_message() {
    let image = json!({"type": "image", "mimeType": "image/png", "data": b64("tiny.png")});
    let result = |id: &str, content: Value| json!({"type": "tool_result", "call_id": id, "name": "shot", "content": content});
    let run = convert(
        &["--from", "canonical", "--to", "openai-chat"],
        &json!([
            {"role": "assistant", "content": [
                {"type": "tool_call", "id": "a", "name": "shot", "arguments": {}},
                {"type": "tool_call", "id": "b", "name": "shot", "arguments": {}},
                {"type": "tool_call", "id": "c", "name": "shot", "arguments": {}}]},
            {"role": "tool", "content": [
                result("a", json!([{"type": "text", "text": "first"}, image])),
                result("b", json!([{"type": "text", "text": "second"}])),
                result("c", json!([image]))]},
            {"role": "user", "content": [{"type": "text", "text": "thanks"}]}
        ]),
    );
    assert_eq!((run.code, run.stderr.as_str()), (0, ""));
    let image_url = json!({"type": "image_url", "image_url": {"url": png_url()}});
    assert_eq!(
        run.json(),
        json!([
            {"role": "assistant", "content": null, "tool_calls": [
                {"id": "a", "type": "function", "function": {"name": "shot", "arguments": "{}"}},
                {"id": "b", "type": "function", "function": {"name": "shot", "arguments": "{}"}},
                {"id": "c", "type": "function", "function": {"name": "shot", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": "a", "content": "first"},
            {"role": "tool", "tool_call_id": "b", "content": "second"},
            {"role": "tool", "tool_call_id": "c", "content": "[tool returned media; see the next user message]"},
            {"role": "user", "content": [
                {"type": "text", "text": "Output of tool shot (a):"}, image_url,
                {"type": "text", "text": "Output of tool shot (c):"}, image_url]},
            {"role": "user", "content": "thanks"}
        ])
    );
}

#[test]
fn moved_media_follow_the_order_of_the_calls_when_results_come_back_in_another() {
    let image = |name: &str| json!({"type": "image", "mimeType": "image/png", "data": b64(name)});
    let result = |id: &str| {
        json!({"type": "tool_result", "call_id": id, "name": "shot",
        "content": [{"type": "text", "text": id}, image("tiny.png")]})
    };
    let calls = json!({"role": "assistant", "content": [
        {"type": "tool_call", "id": "a", "name": "shot", "arguments": {}},
        {"type": "tool_call", "id": "b", "name": "shot", "arguments": {}}]});
    let run = convert(
        &["--from", "canonical", "--to", "openai-chat"],
        &json!([calls, {"role": "tool", "content": [result("b"), result("a")]}]),
    );
    assert_eq!((run.code, run.stderr.as_str()), (0, ""));
    let out = run.json();
    // The tool messages keep their order; the media go as the calls were made.
    assert_eq!(out[1]["tool_call_id"], "b");
    assert_eq!(out[2]["tool_call_id"], "a");
    let labels: Vec<&str> = out[3]["content"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["text"].as_str())
        .collect();
    assert_eq!(
        labels,
        ["Output of tool shot (a):", "Output of tool shot (b):"]
    );
    // A result whose call is not in the transcript leaves the order as it came.
    let run = convert(
        &["--from", "canonical", "--to", "openai-chat"],
        &json!([calls, {"role": "tool", "content": [result("b"), result("x")]}]),
    );
    let labels: Vec<String> = run.json()[3]["content"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["text"].as_str().map(str::to_string))
        .collect();
    assert_eq!(
        labels,
        ["Output of tool shot (b):", "Output of tool shot (x):"]
    );
}

/// Converter bugs E4: without a tool name the label falls back to the call id.
#[test]
fn relocation_label_without_a_tool_name_uses_the_call_id() {
    let run = convert(
        &["--from", "canonical", "--to", "openai-chat"],
        &json!([
            {"role": "tool", "content": [{"type": "tool_result", "call_id": "c7",
                "content": [{"type": "image", "mimeType": "image/png", "data": b64("tiny.png")}]}]}
        ]),
    );
    assert_eq!(
        run.json()[1]["content"][0],
        json!({"type": "text", "text": "Output of tool call c7:"})
    );
}

#[test]
fn invalid_arguments_are_refused_or_kept_never_emptied() {
    let input = json!([{"role": "assistant", "content": null, "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{\"x\": 1"}}]}]);
    let run = convert(&["--from", "openai-chat", "--to", "canonical"], &input);
    run.assert_error(
        1,
        &[
            "/0/tool_calls/0/function/arguments",
            "not valid JSON",
            "--on-invalid-arguments keep",
        ],
    );
    let kept = convert(
        &[
            "--from",
            "openai-chat",
            "--to",
            "canonical",
            "--on-invalid-arguments",
            "keep",
        ],
        &input,
    );
    assert_eq!(kept.code, 0);
    assert_eq!(
        kept.json()[0]["content"][0]["arguments"],
        json!("{\"x\": 1")
    );
    assert!(
        kept.stderr
            .contains("arguments are not JSON; kept as a string"),
        "{}",
        kept.stderr
    );
    let back = run_with_stdin(
        &["convert", "--from", "canonical", "--to", "openai-chat"],
        kept.stdout.as_bytes(),
    );
    assert_eq!(back.json(), input);
}

#[test]
fn audio_a_user_attached_is_an_error_and_audio_from_a_tool_degrades() {
    let audio = json!({"type": "audio", "mimeType": "audio/flac", "data": "ZkxhQwAAACI="});
    let run = convert(
        &["--from", "canonical", "--to", "openai-chat"],
        &json!([
        {"role": "user", "content": [audio]}]),
    );
    run.assert_error(1, &["audio part (audio/flac)", "openai-chat", "wav or mp3"]);
    let run = convert(
        &["--from", "canonical", "--to", "openai-chat"],
        &json!([
        {"role": "tool", "content": [{"type": "tool_result", "call_id": "c", "name": "rec",
            "content": [{"type": "text", "text": "clip"}, audio]}]}]),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.json()[1]["content"][1],
        json!({"type": "text", "text": "[unsupported audio part (audio/flac, 8 bytes)]"})
    );
    assert_eq!(
        run.stderr,
        "partkit: warning: audio parts cannot be carried by openai-chat; replaced by a placeholder text\n"
    );
    let strict = convert(
        &[
            "--from",
            "canonical",
            "--to",
            "openai-chat",
            "--on-unsupported",
            "error",
        ],
        &json!([
        {"role": "tool", "content": [{"type": "tool_result", "call_id": "c", "content": [audio]}]}]),
    );
    assert_eq!(strict.code, 1);
}

#[test]
fn foreign_blocks_are_dropped_with_one_warning_or_refused_under_strict() {
    let input = json!({"messages": [
        {"role": "assistant", "content": [
            {"type": "opaque", "shape": "anthropic", "value": {"type": "thinking", "thinking": "hmm", "signature": "s1"}},
            {"type": "opaque", "shape": "anthropic", "value": {"type": "thinking", "thinking": "more", "signature": "s2"}},
            {"type": "text", "text": "answer"}]}],
        "extensions": {"anthropic": {"thinking": {"type": "enabled", "budget_tokens": 1024}}}});
    let run = convert(&["--from", "canonical", "--to", "openai-chat"], &input);
    assert_eq!(run.code, 0);
    assert_eq!(
        run.json(),
        json!({"messages": [{"role": "assistant", "content": "answer"}]})
    );
    assert_eq!(
        run.stderr,
        "partkit: warning: openai-chat has no place for anthropic thinking, anthropic thinking blocks; dropped\n"
    );
    let strict = convert(
        &["--from", "canonical", "--to", "openai-chat", "--strict"],
        &input,
    );
    strict.assert_error(
        1,
        &["--strict", "openai-chat cannot carry anthropic thinking"],
    );
}

#[test]
fn nemo_gym_reply_round_trips_and_delivers_like_simple_agent() {
    let reply = json!({"result": "ok", "n": 1.0, "tool_output_images": [
        {"image_url": png_url(), "label": "chart"},
        {"image_url": png_url(), "label": ""},
        {"image_url": png_url()}]});
    assert_round_trip(&reply, "nemo-gym", "canonical");
    assert_round_trip(
        &json!({"a": 1, "tool_output_images": null}),
        "nemo-gym",
        "canonical",
    );
    let run = convert(
        &[
            "--to",
            "openai-chat",
            "--call-id",
            "call_9",
            "--name",
            "chart",
        ],
        &reply,
    );
    assert_eq!((run.code, run.stderr.as_str()), (0, ""));
    let image_url = json!({"type": "image_url", "image_url": {"url": png_url()}});
    assert_eq!(
        run.json(),
        json!([
            {"role": "tool", "tool_call_id": "call_9", "content": "{\"result\":\"ok\",\"n\":1.0}"},
            {"role": "user", "content": [
                {"type": "text", "text": "Output of tool chart (call_9):"},
                {"type": "text", "text": "chart"}, image_url, image_url, image_url]}
        ])
    );
    // Without a call id a tool message cannot be written.
    convert(&["--to", "openai-chat"], &reply).assert_error(1, &["--call-id"]);
}

#[test]
fn mcp_result_round_trips_and_drops_the_call_id_with_a_note() {
    let result = json!({"content": [
        {"type": "text", "text": "ok"},
        {"type": "image", "data": b64("tiny.png"), "mimeType": "image/png", "annotations": {"priority": 1}},
        {"type": "audio", "data": b64("tone.wav"), "mimeType": "audio/wav"},
        {"type": "resource", "resource": {"uri": "mem://notes", "mimeType": "text/plain", "text": "hello"}},
        {"type": "resource", "resource": {"uri": "file:///doc.pdf", "mimeType": "application/pdf", "blob": b64("doc.pdf")}},
        {"type": "resource_link", "uri": "https://x.test/r.pdf", "name": "r.pdf", "mimeType": "application/pdf"}],
        "structuredContent": {"t": 21}, "isError": false});
    assert_round_trip(&result, "mcp", "canonical");
    let rpc =
        json!({"jsonrpc": "2.0", "id": 7, "result": {"content": [{"type": "text", "text": "x"}]}});
    assert_round_trip(&rpc, "mcp", "canonical");
    let canonical = json!({"type": "tool_result", "call_id": "c1", "name": "f", "is_error": true,
                           "content": [{"type": "text", "text": "boom"}]});
    let run = convert(&["--from", "canonical", "--to", "mcp"], &canonical);
    assert_eq!(
        run.json(),
        json!({"content": [{"type": "text", "text": "boom"}], "isError": true})
    );
    assert_eq!(
        run.stderr,
        "partkit: warning: mcp carries no call id; dropped \"c1\"\n"
    );
    convert(
        &["--from", "canonical", "--to", "mcp"],
        &json!({"messages": []}),
    )
    .assert_error(1, &["mcp holds a single tool result"]);
}

#[test]
fn json_lines_convert_line_by_line_in_order_with_errors_by_line() {
    let lines = [
        json!([{"role": "user", "content": "one"}]).to_string(),
        "{not json".to_string(),
        json!([{"role": "user", "content": "three"}]).to_string(),
    ]
    .join("\n");
    let run = run_with_stdin(
        &["convert", "--from", "openai-chat", "--to", "canonical"],
        lines.as_bytes(),
    );
    assert_eq!(run.code, 1);
    let outputs = run.json_lines();
    assert_eq!(outputs.len(), 2);
    assert_eq!(outputs[0][0]["content"][0]["text"], json!("one"));
    assert_eq!(outputs[1][0]["content"][0]["text"], json!("three"));
    assert!(
        run.stderr
            .starts_with("partkit: error: <stdin>:2: invalid JSON"),
        "{}",
        run.stderr
    );
}

#[test]
fn detection_says_when_it_guessed() {
    let run = convert(
        &["--to", "canonical"],
        &json!([{"role": "user", "content": "hi"}]),
    );
    assert_eq!(run.code, 0);
    assert_eq!(
        run.stderr,
        "partkit: warning: read the input as openai-chat (plain text messages fit several shapes); pass --from to choose\n"
    );
    convert(&["--to", "canonical"], &json!({"what": 1}))
        .assert_error(1, &["cannot tell which shape", "--from"]);
}

#[test]
fn malformed_chat_documents_are_refused_with_a_pointer() {
    convert(
        &["--from", "openai-chat", "--to", "canonical"],
        &json!([{"content": "x"}]),
    )
    .assert_error(1, &["/0/role", "needs a role"]);
    convert(
        &["--from", "openai-chat", "--to", "canonical"],
        &json!([{"role": "tool", "content": "x"}]),
    )
    .assert_error(1, &["/0/tool_call_id"]);
    convert(
        &["--from", "openai-chat", "--to", "canonical"],
        &json!({"messages": [{"role": "robot"}]}),
    )
    .assert_error(1, &["/messages/0/role", "robot"]);
}
