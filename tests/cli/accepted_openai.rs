//! Bodies OpenAI accepted (Chat Completions and Responses), read liberally:
//! a chained Responses request answering calls of the previous response, a
//! message image without `detail`, fields the clients send as `null`, turns
//! that hold only what another shape has no place for; and every accepted
//! OpenAI recording of `../shared/realworld*/` (read at run time, skipped when
//! the folders are absent).

use serde_json::{json, Value};

use crate::support::media::data_url;
use crate::{run_with_stdin, Run};

/// The provider shapes a transcript converts to.
const TARGETS: [&str; 5] = [
    "openai-chat",
    "openai-responses",
    "anthropic",
    "gemini",
    "bedrock",
];

fn convert(args: &[&str], input: &Value) -> Run {
    let mut all = vec!["convert", "--compact"];
    all.extend_from_slice(args);
    run_with_stdin(&all, input.to_string().as_bytes())
}

fn validate(args: &[&str], input: &Value) -> Run {
    let mut all = vec!["validate"];
    all.extend_from_slice(args);
    run_with_stdin(&all, input.to_string().as_bytes())
}

/// `validate` of `doc` gives no finding at all.
fn assert_clean(args: &[&str], doc: &Value) {
    let run = validate(args, doc);
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (0, ""),
        "{args:?} {doc}\n{}",
        run.stderr
    );
}

/// A -> canonical -> A gives back `body` exactly.
fn assert_round_trip(source: &str, body: &Value) {
    let canonical = convert(&["--from", source, "--to", "canonical"], body);
    assert_eq!(canonical.code, 0, "{}", canonical.stderr);
    let back = run_with_stdin(
        &["convert", "--from", "canonical", "--to", source],
        canonical.stdout.as_bytes(),
    );
    assert_eq!(back.code, 0, "{}", back.stderr);
    assert_eq!(&back.json(), body, "{source} round trip");
}

/// `body` converts from `source` to every other provider shape, and each
/// output is one the target's rules accept.
fn assert_converts_clean(source: &str, body: &Value) -> Vec<(String, Run)> {
    let mut done = Vec::new();
    for target in TARGETS.iter().filter(|t| **t != source) {
        let out = convert(&["--from", source, "--to", target], body);
        assert_eq!(out.code, 0, "{source} -> {target}: {}", out.stderr);
        assert_clean(&["--from", target], &out.json());
        done.push((target.to_string(), out));
    }
    done
}

// ---- a chained Responses request -------------------------------------------------

/// A request that answers the two calls of the previous response, as a chained
/// client sends it: the calls are on the server, not in the body.
fn chained(key: &str, value: Value) -> Value {
    let mut body = json!({"model": "gpt-4o-mini", "input": [
        {"type": "function_call_output", "call_id": "call_a", "output": "72F"},
        {"type": "function_call_output", "call_id": "call_b", "output": [
            {"type": "input_text", "text": "humid"}]}],
        "tools": [{"type": "function", "name": "temperature", "parameters": {"type": "object",
            "properties": {"city": {"type": "string"}}}, "strict": false}]});
    body[key] = value;
    body
}

#[test]
fn a_chained_request_answers_calls_it_does_not_hold() {
    for (key, value, named) in [
        (
            "previous_response_id",
            json!("resp_42"),
            "openai-responses previous_response_id \"resp_42\"",
        ),
        (
            "conversation",
            json!({"id": "conv_7"}),
            "openai-responses conversation \"conv_7\"",
        ),
        (
            "conversation",
            json!("conv_8"),
            "openai-responses conversation \"conv_8\"",
        ),
    ] {
        let body = chained(key, value);
        assert_clean(&[], &body);
        assert_round_trip("openai-responses", &body);
        let same = convert(
            &["--from", "openai-responses", "--to", "openai-responses"],
            &body,
        );
        assert_eq!((same.json(), same.stderr.as_str()), (body.clone(), ""));
        for (target, out) in assert_converts_clean("openai-responses", &body) {
            // One warning names the earlier turns and the calls; the setting
            // itself is dropped by name.
            assert!(
                out.stderr.contains(&format!(
                    "{target} has no place for a tool result without its call: 2 results answer calls made in the earlier turns of {named}, which the input does not hold (call_a, call_b); delivered as text in a user message, each introduced by its call id"
                )),
                "{target}: {}",
                out.stderr
            );
            assert!(
                out.stderr.contains(&format!("openai-responses {key}")),
                "{target}: {}",
                out.stderr
            );
            // Nothing is lost: every label and every output is in the text.
            let text = out.stdout.as_str();
            for piece in [
                "Output of tool call call_a:",
                "72F",
                "Output of tool call call_b:",
                "humid",
            ] {
                assert!(text.contains(piece), "{target}: {text}");
            }
        }
    }
}

#[test]
fn the_results_of_earlier_calls_become_one_user_message_after_the_turns_results() {
    // A result of the previous response beside one of a call the body holds.
    let body = json!({"model": "m", "previous_response_id": "resp_1", "input": [
        {"type": "function_call_output", "call_id": "call_old", "output": "old"},
        {"role": "user", "content": "Now this."},
        {"type": "function_call", "call_id": "call_new", "name": "f", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "call_new", "output": "new"},
        {"type": "function_call_output", "call_id": "call_older", "output": "older"}]});
    assert_clean(&["--ignore", "tool-undeclared"], &body);
    let out = convert(
        &["--from", "openai-responses", "--to", "openai-chat", "-q"],
        &body,
    );
    assert_eq!(
        out.json(),
        json!({"model": "m", "messages": [
            {"role": "user", "content": [
                {"type": "text", "text": "Output of tool call call_old:"},
                {"type": "text", "text": "old"}]},
            {"role": "user", "content": "Now this."},
            {"role": "assistant", "content": null, "tool_calls": [
                {"id": "call_new", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": "call_new", "content": "new"},
            {"role": "user", "content": [
                {"type": "text", "text": "Output of tool call call_older:"},
                {"type": "text", "text": "older"}]}]})
    );
}

#[test]
fn the_error_policy_refuses_a_result_without_its_call() {
    let body = chained("previous_response_id", json!("resp_42"));
    let out = convert(
        &[
            "--from",
            "openai-responses",
            "--to",
            "anthropic",
            "--on-unsupported",
            "error",
        ],
        &body,
    );
    out.assert_error(
        1,
        &[
            "cannot be carried by anthropic",
            "call \"call_a\"",
            "previous_response_id \"resp_42\"",
        ],
    );
}

#[test]
fn without_a_chain_a_result_without_its_call_is_still_an_orphan() {
    let mut body = chained("previous_response_id", Value::Null);
    // `null` (how NeMo Gym writes an unset field) chains nothing.
    let run = validate(&[], &body);
    assert_eq!(run.code, 1);
    assert!(
        run.stdout.contains("error[tool-result-orphan] /input/0:"),
        "{}",
        run.stdout
    );
    // A chained body that answers one earlier call twice.
    body["previous_response_id"] = json!("resp_42");
    body["input"][1]["call_id"] = json!("call_a");
    let run = validate(&[], &body);
    assert_eq!(run.code, 1);
    assert!(
        run.stdout.contains(
            "error[tool-result-duplicate] /input/1: call call_a is answered more than once"
        ),
        "{}",
        run.stdout
    );
}

// ---- detail, and the fields the API defaults -------------------------------------

#[test]
fn a_message_image_without_detail_is_legal_and_comes_back_without_it() {
    let body = json!({"model": "m", "input": [{"role": "user", "content": [
        {"type": "input_text", "text": "What is this?"},
        {"type": "input_image", "image_url": data_url("image/png", "tiny.png")}]}]});
    assert_clean(&[], &body);
    assert_round_trip("openai-responses", &body);
    let same = convert(
        &["--from", "openai-responses", "--to", "openai-responses"],
        &body,
    );
    assert_eq!(same.json(), body);
    // Written from another shape, detail is said.
    let chat = convert(
        &["--from", "openai-responses", "--to", "openai-chat"],
        &body,
    );
    let back = convert(
        &["--from", "openai-chat", "--to", "openai-responses"],
        &chat.json(),
    );
    assert_eq!(back.json()["input"][0]["content"][1]["detail"], "auto");
    assert_converts_clean("openai-responses", &body);
}

#[test]
fn chat_fields_sent_as_null_are_read_as_unset() {
    // What a client that dumps the SDK's objects sends back as history.
    let body = json!({"model": "gpt-4o", "messages": [
        {"role": "user", "content": "Weather in Paris?"},
        {"role": "assistant", "content": null, "refusal": null, "function_call": null, "audio": null,
         "tool_calls": [{"id": "call_1", "type": "function",
            "function": {"name": "weather", "arguments": "{\"city\":\"Paris\"}"}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": "20C"},
        {"role": "assistant", "content": "It is 20C.", "refusal": null, "tool_calls": null,
         "annotations": []},
        {"role": "user", "content": "Thanks."}],
        "tools": [{"type": "function", "function": {"name": "weather",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}],
        "tool_choice": null, "temperature": null, "top_p": null, "max_tokens": null,
        "max_completion_tokens": null, "stop": null});
    assert_clean(&[], &body);
    assert_round_trip("openai-chat", &body);
    for (target, out) in assert_converts_clean("openai-chat", &body) {
        // A null setting is nothing to carry, nor to warn about.
        for key in ["temperature", "top_p", "max_output_tokens", "max_tokens"] {
            assert!(out.json().get(key).is_none(), "{target}: {}", out.stdout);
        }
        assert!(
            !out.stderr.contains("has no place for openai-chat"),
            "{target}: {}",
            out.stderr
        );
    }
}

#[test]
fn an_empty_tool_calls_list_is_refused_where_null_is_not() {
    // The API's answer to `[]`: "Invalid 'messages[1].tool_calls': empty array".
    let mut body = json!({"model": "m", "messages": [{"role": "user", "content": "hi"},
        {"role": "assistant", "content": "Hello.", "tool_calls": []}, {"role": "user", "content": "bye"}]});
    let run = validate(&[], &body);
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stdout,
        "<stdin>:1: error[shape-field] /messages/1/tool_calls: OpenAI Chat refuses an empty tool_calls list (leave it out, or null)\n"
    );
    body["messages"][1]["tool_calls"] = Value::Null;
    assert_clean(&[], &body);
}

#[test]
fn tools_sent_as_null_are_no_tools() {
    let chat =
        json!({"model": "m", "tools": null, "messages": [{"role": "user", "content": "hi"}]});
    let responses = json!({"model": "m", "tools": null, "input": "hi"});
    for (shape, body) in [("openai-chat", &chat), ("openai-responses", &responses)] {
        assert_clean(&[], body);
        assert_round_trip(shape, body);
        for (target, out) in assert_converts_clean(shape, body) {
            assert!(out.json().get("tools").is_none(), "{target}");
        }
    }
}

#[test]
fn responses_history_items_and_roles_are_read_as_sent() {
    // A developer message first, a reasoning item with its bookkeeping, an
    // output message item (id, status, annotations, logprobs), a system
    // message in the middle, an assistant message in input_text.
    let body = json!({"model": "o4-mini", "instructions": null, "input": [
        {"role": "developer", "content": "Be brief."},
        {"role": "user", "content": [{"type": "input_text", "text": "Weather?"}]},
        {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "gAAA", "content": null},
        {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "weather",
         "arguments": "{\"city\":\"Paris\"}", "status": "completed"},
        {"type": "function_call_output", "id": null, "call_id": "call_1", "output": "20C", "status": null},
        {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed", "content": [
            {"type": "output_text", "text": "It is 20C.", "annotations": [], "logprobs": []}]},
        {"role": "system", "content": "Answer in French."},
        {"role": "assistant", "content": [{"type": "input_text", "text": "Bien."}]},
        {"role": "user", "content": "Merci"}],
        "tools": [{"type": "function", "name": "weather", "description": null, "strict": true,
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                "required": ["city"], "additionalProperties": false}}],
        "previous_response_id": null, "temperature": null, "max_output_tokens": null,
        "store": false, "include": ["reasoning.encrypted_content"]});
    assert_clean(&[], &body);
    assert_round_trip("openai-responses", &body);
    let chat = convert(
        &["--from", "openai-responses", "--to", "openai-chat"],
        &body,
    );
    assert_eq!(chat.code, 0, "{}", chat.stderr);
    assert_clean(&["--from", "openai-chat"], &chat.json());
    let roles: Vec<Value> = chat.json()["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["role"].clone())
        .collect();
    assert_eq!(
        roles,
        [
            "system",
            "user",
            "assistant",
            "tool",
            "assistant",
            "system",
            "assistant",
            "user"
        ]
    );
}

#[test]
fn a_turn_of_only_items_another_shape_has_no_place_for_is_left_out() {
    // A reasoning item alone, and a reference to a stored item.
    for item in [
        json!({"type": "reasoning", "id": "rs_1", "summary": []}),
        json!({"type": "item_reference", "id": "msg_1"}),
    ] {
        let body = json!({"model": "m", "input": [
            {"role": "user", "content": "hi"}, item, {"role": "user", "content": "again"}]});
        assert_clean(&[], &body);
        assert_round_trip("openai-responses", &body);
        let kind = item["type"].as_str().unwrap();
        for (target, out) in assert_converts_clean("openai-responses", &body) {
            assert!(
                out.stderr.contains(&format!(
                    "left out 1 empty message: {target} refuses messages with no content"
                )),
                "{target}: {}",
                out.stderr
            );
            assert!(
                out.stderr
                    .contains(&format!("has no place for openai-responses {kind} blocks")),
                "{target}: {}",
                out.stderr
            );
        }
        // Under --strict the loss stops the conversion.
        let strict = convert(
            &[
                "--from",
                "openai-responses",
                "--to",
                "anthropic",
                "--strict",
            ],
            &body,
        );
        assert_eq!(strict.code, 1, "{}", strict.stderr);
    }
}

#[test]
fn a_custom_tool_exchange_is_left_out_whole_where_it_has_no_place() {
    let body = json!({"model": "gpt-5", "input": [
        {"role": "user", "content": "Run it."},
        {"type": "custom_tool_call", "id": "ctc_1", "call_id": "call_c", "name": "code", "input": "print(1)"},
        {"type": "custom_tool_call_output", "call_id": "call_c", "output": "1"},
        {"role": "user", "content": "And now?"}],
        "tools": [{"type": "custom", "name": "code", "description": "Runs code."}]});
    assert_clean(&[], &body);
    assert_round_trip("openai-responses", &body);
    for (target, out) in assert_converts_clean("openai-responses", &body) {
        assert!(
            out.stderr.contains(&format!(
                "left out 2 empty messages: {target} refuses messages with no content"
            )),
            "{target}: {}",
            out.stderr
        );
        assert!(
            out.stderr.contains(
                "openai-responses custom_tool_call blocks, openai-responses custom_tool_call_output blocks"
            ),
            "{target}: {}",
            out.stderr
        );
    }
}
