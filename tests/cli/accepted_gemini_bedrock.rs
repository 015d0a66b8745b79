//! Bodies Gemini and Bedrock accept that partkit once refused or damaged
//! (docs/reading.md): one value where Gemini expects a list, enum numbers
//! (`enum-encoding=int`), blank fields proto3 reads as unset, and the
//! Converse blocks that wrap content (`guardContent`, `searchResult`). Each
//! validates clean, comes back exactly from the canonical form, and reaches
//! every other shape as content that shape's validate accepts. Then the
//! same over every accepted Gemini and Bedrock recording in
//! `../shared/realworld*/` (read at run time, skipped when absent).

use serde_json::{json, Value};

use super::{fixture_b64, run_with_stdin, Run};

const PROVIDERS: [&str; 5] = [
    "openai-chat",
    "openai-responses",
    "anthropic",
    "gemini",
    "bedrock",
];

fn partkit(args: &[&str], input: &Value) -> Run {
    run_with_stdin(args, input.to_string().as_bytes())
}

fn convert(from: &str, to: &str, input: &Value) -> Run {
    partkit(&["convert", "--compact", "--from", from, "--to", to], input)
}

/// `validate --from shape` finds nothing at all in `body`.
fn assert_clean(shape: &str, body: &Value) {
    let check = partkit(&["validate", "--from", shape, "-"], body);
    assert_eq!(
        (check.code, check.stdout.as_str()),
        (0, ""),
        "{shape} validate: {}\n{body}",
        check.stderr
    );
}

/// shape -> canonical -> shape gives `body` back, key order included, and
/// returns the canonical form.
fn assert_round_trip(shape: &str, body: &Value) -> Value {
    let there = convert(shape, "canonical", body);
    assert_eq!(there.code, 0, "{shape} -> canonical: {}", there.stderr);
    let back = run_with_stdin(
        &["convert", "--compact", "--from", "canonical", "--to", shape],
        there.stdout.as_bytes(),
    );
    assert_eq!(back.code, 0, "canonical -> {shape}: {}", back.stderr);
    assert_eq!(
        back.stdout.trim_end(),
        body.to_string(),
        "{shape} -> canonical -> {shape}"
    );
    there.json()
}

/// Converts `body` to every other provider shape: each conversion succeeds and
/// its output validates with no error. Returns the outputs and their stderr.
fn convert_everywhere(source: &str, body: &Value) -> Vec<(&'static str, Value, String)> {
    let mut outputs = Vec::new();
    for target in PROVIDERS.into_iter().filter(|t| *t != source) {
        let done = convert(source, target, body);
        assert_eq!(done.code, 0, "{source} -> {target}: {}", done.stderr);
        let out = done.json();
        let check = partkit(&["validate", "--from", target, "-"], &out);
        assert_eq!(
            check.code, 0,
            "{source} -> {target} output: {}\n{out}",
            check.stdout
        );
        outputs.push((target, out, done.stderr));
    }
    outputs
}

/// Every string in a value, depth first (to find a text wherever a shape put it).
fn strings(value: &Value) -> Vec<&str> {
    match value {
        Value::String(text) => vec![text],
        Value::Array(items) => items.iter().flat_map(strings).collect(),
        Value::Object(map) => map.values().flat_map(strings).collect(),
        _ => Vec::new(),
    }
}

/// No message or Content of a written document is empty.
fn assert_no_empty_message(target: &str, out: &Value) {
    let lists = ["messages", "input", "contents"]
        .iter()
        .filter_map(|key| out.get(*key).and_then(Value::as_array))
        .flatten();
    for message in lists {
        for key in ["content", "parts"] {
            if let Some(content) = message.get(key) {
                let empty = content.is_null()
                    || content.as_array().is_some_and(Vec::is_empty)
                    || content.as_str() == Some("");
                assert!(!empty, "{target}: an empty message in {out}");
            }
        }
    }
}

// ---- Gemini: one value where a list is expected ---------------------------------------

/// A request with every repeated field the reader reads written as one value.
fn single_valued_request() -> Value {
    json!({
        "systemInstruction": {"parts": {"text": "Answer in one word."}},
        "contents": {"role": "user", "parts": {"text": "Weather in Oslo?"}},
        "tools": {"functionDeclarations": {
            "name": "weather",
            "description": "Current weather",
            "parameters": {"type": "OBJECT", "properties": {"city": {"type": "STRING"}}, "required": "city"}}},
        "toolConfig": {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": "weather"}},
        "generationConfig": {"maxOutputTokens": 64, "stopSequences": "END"}
    })
}

#[test]
fn gemini_reads_one_value_wherever_it_expects_a_list() {
    let body = single_valued_request();
    assert_clean("gemini", &body);
    let canonical = assert_round_trip("gemini", &body);
    assert_eq!(
        canonical["system"],
        json!([{"type": "text", "text": "Answer in one word."}])
    );
    assert_eq!(
        canonical["messages"][0]["content"],
        json!([{"type": "text", "text": "Weather in Oslo?"}])
    );
    assert_eq!(canonical["tools"][0]["name"], "weather");
    assert_eq!(
        canonical["tools"][0]["parameters"]["required"],
        json!(["city"])
    );
    assert_eq!(canonical["tool_choice"], json!({"name": "weather"}));
    assert_eq!(canonical["stop"], json!(["END"]));
}

#[test]
fn snake_case_single_values_come_back_as_written() {
    let body = json!({
        "system_instruction": {"parts": {"text": "Be brief."}},
        "contents": [{"role": "user", "parts": {"text": "Hi"}}],
        "tools": [{"function_declarations": {"name": "ping", "description": "Ping"}}],
        "generation_config": {"stop_sequences": "STOP"}
    });
    assert_clean("gemini", &body);
    assert_round_trip("gemini", &body);
}

#[test]
fn other_shapes_get_lists_and_gemini_gets_lists_from_them() {
    let body = single_valued_request();
    for (target, out, _) in convert_everywhere("gemini", &body) {
        assert!(
            strings(&out).contains(&"Weather in Oslo?"),
            "{target}: {out}"
        );
        // Back to Gemini from that shape: the SDK types' lists.
        let again = convert(target, "gemini", &out);
        assert_eq!(again.code, 0, "{target} -> gemini: {}", again.stderr);
        let again = again.json();
        assert!(again["contents"].is_array(), "{target}: {again}");
        assert!(
            again["contents"][0]["parts"].is_array(),
            "{target}: {again}"
        );
        assert!(
            again["systemInstruction"]["parts"].is_array(),
            "{target}: {again}"
        );
        assert!(again["tools"].is_array(), "{target}: {again}");
    }
}

#[test]
fn a_list_that_grew_is_written_as_a_list() {
    // The hint gives back one value only where the list still holds one item.
    let body = json!({"contents": [{"role": "user", "parts": {"text": "Hi"}}]});
    let mut canonical = convert("gemini", "canonical", &body).json();
    let content = canonical["messages"][0]["content"].as_array_mut().unwrap();
    content.push(json!({"type": "text", "text": "And you?"}));
    let back = convert("canonical", "gemini", &canonical).json();
    assert_eq!(
        back["contents"][0]["parts"],
        json!([{"text": "Hi"}, {"text": "And you?"}])
    );
}

#[test]
fn single_function_response_parts_and_contents_round_trip() {
    let png = fixture_b64("tiny.png");
    let call = json!({"role": "model", "parts": {"functionCall": {"name": "snap", "args": {}}}});
    let response = json!({"role": "user", "parts": {"functionResponse": {
        "name": "snap", "response": {"output": "taken"},
        "parts": {"inlineData": {"mimeType": "image/png", "data": png}}}}});
    let list = json!([{"role": "user", "parts": [{"text": "Take one"}]}, call, response]);
    assert_clean("gemini", &list);
    let canonical = assert_round_trip("gemini", &list);
    // A list of contents is a list of messages.
    let result = &canonical[2]["content"][0];
    assert_eq!(result["type"], "tool_result");
    assert_eq!(result["content"][1]["type"], "image", "{canonical}");
    // The lone Content a tool reply is (its one part written as one value).
    assert_clean("gemini", &response);
    assert_round_trip("gemini", &response);
    // A response whose one candidate is written as one value.
    let answer = json!({"candidates": {"content": {"parts": {"text": "Done."}, "role": "model"},
                                       "finishReason": "STOP"}});
    assert_clean("gemini", &answer);
    assert_round_trip("gemini", &answer);
}

#[test]
fn a_string_is_no_content_in_either_form() {
    let run = convert("gemini", "canonical", &json!({"contents": "Hi"}));
    run.assert_error(1, &["<stdin>: /contents: a Content must be an object"]);
    let run = convert(
        "gemini",
        "canonical",
        &json!({"contents": [{"role": "user", "parts": "Hi"}]}),
    );
    run.assert_error(1, &["/contents/0/parts: a part must be an object"]);
}

#[test]
fn a_blank_system_instruction_is_no_system_prompt_anywhere() {
    // What the R client ellmer sends with no system prompt.
    let body = json!({
        "systemInstruction": {"parts": {"text": ""}},
        "contents": [{"role": "user", "parts": [{"text": "Hi"}]}]
    });
    assert_clean("gemini", &body);
    assert_round_trip("gemini", &body);
    for (target, out, stderr) in convert_everywhere("gemini", &body) {
        for key in ["system", "instructions", "systemInstruction"] {
            assert!(out.get(key).is_none(), "{target}: {out}");
        }
        let roles = strings(&out);
        assert!(!roles.contains(&"system"), "{target}: {out}");
        assert!(
            !stderr.contains("systemInstruction"),
            "{target}: nothing is lost: {stderr}"
        );
    }
}

// ---- Gemini: enum numbers ---------------------------------------------------------------

/// A Vertex AI body sent with `$alt=json;enum-encoding=int`.
fn numbered_request() -> Value {
    json!({
        "contents": [{"role": "user", "parts": [{"text": "Weather in Oslo, in days?"}]}],
        "tools": [{"functionDeclarations": [{
            "name": "forecast",
            "description": "Forecast",
            "parameters": {"type": 6, "properties": {
                "city": {"type": 1},
                "days": {"type": 3},
                "hourly": {"type": 4},
                "hours": {"type": 5, "items": {"type": 2}}},
                "required": ["city"]}}]}],
        "toolConfig": {"functionCallingConfig": {"mode": 2}}
    })
}

#[test]
fn schema_type_numbers_are_their_names() {
    let body = numbered_request();
    assert_clean("gemini", &body);
    let canonical = assert_round_trip("gemini", &body);
    assert_eq!(
        canonical["tools"][0]["parameters"],
        json!({"type": "object", "properties": {
            "city": {"type": "string"},
            "days": {"type": "integer"},
            "hourly": {"type": "boolean"},
            "hours": {"type": "array", "items": {"type": "number"}}},
            "required": ["city"]})
    );
    assert_eq!(canonical["tool_choice"], "required");
    for (target, out, _) in convert_everywhere("gemini", &body) {
        let text = out.to_string();
        assert!(text.contains(r#""type":"object""#), "{target}: {out}");
        assert!(!text.contains(r#""type":6"#), "{target}: {out}");
    }
}

#[test]
fn a_mode_number_is_the_tool_choice_and_comes_back_a_number() {
    for (mode, choice) in [
        (1, json!("auto")),
        (2, json!("required")),
        (3, json!("none")),
    ] {
        let body = json!({
            "contents": [{"role": "user", "parts": [{"text": "Go"}]}],
            "tools": [{"functionDeclarations": [{"name": "go", "description": "Go"}]}],
            "toolConfig": {"functionCallingConfig": {"mode": mode}}
        });
        assert_clean("gemini", &body);
        let canonical = assert_round_trip("gemini", &body);
        assert_eq!(canonical["tool_choice"], choice, "mode {mode}");
    }
    // Another shape's choice is written by name.
    let chat = json!({"messages": [{"role": "user", "content": "Go"}],
        "tools": [{"type": "function", "function": {"name": "go", "parameters": {"type": "object", "properties": {}}}}],
        "tool_choice": "required"});
    let out = convert("openai-chat", "gemini", &chat).json();
    assert_eq!(out["toolConfig"]["functionCallingConfig"]["mode"], "ANY");
}

#[test]
fn a_number_no_type_has_is_still_a_broken_schema() {
    let body = json!({
        "contents": [{"role": "user", "parts": [{"text": "Go"}]}],
        "tools": [{"functionDeclarations": [{"name": "go", "description": "Go",
            "parameters": {"type": 6, "properties": {"x": {"type": 42}}}}]}]
    });
    let check = partkit(&["validate", "--from", "gemini", "-"], &body);
    assert_eq!(check.code, 1, "{}", check.stderr);
    assert!(
        check.stdout.contains("error[tool-schema-invalid]"),
        "{}",
        check.stdout
    );
}

// ---- Gemini: blank fields proto3 reads as unset -----------------------------------------

#[test]
fn a_blank_role_and_a_blank_file_type_read_as_unset() {
    let body = json!({"contents": [{"role": "", "parts": [
        {"text": "Summarize this"},
        {"fileData": {"mimeType": "", "fileUri": "https://example.com/report.pdf"}}]}]});
    assert_clean("gemini", &body);
    let canonical = assert_round_trip("gemini", &body);
    assert_eq!(canonical["messages"][0]["role"], "user");
    assert_eq!(
        canonical["messages"][0]["content"][1]["mimeType"],
        "application/pdf"
    );
    // An inlineData's type is required: blank is no type.
    let blob = json!({"contents": [{"role": "user", "parts": [
        {"inlineData": {"mimeType": "", "data": fixture_b64("tiny.png")}}]}]});
    convert("gemini", "canonical", &blob).assert_error(
        1,
        &["/contents/0/parts/0/inlineData/mimeType: mimeType \"\" is not a media type"],
    );
}

// ---- Bedrock: blocks that wrap content ----------------------------------------------------

/// Guarded text in the system prompt and in the user turn (the way Nova
/// guardrail examples send it).
fn guarded_request() -> Value {
    json!({
        "modelId": "amazon.nova-lite-v1:0",
        "system": [{"text": "Answer from the source."}, {"guardContent": {"text": {"text": "No advice."}}}],
        "messages": [{"role": "user", "content": [
            {"guardContent": {"text": {"text": "Oslo is the capital of Norway.", "qualifiers": ["grounding_source"]}}},
            {"guardContent": {"text": {"qualifiers": ["query"], "text": "What is the capital of Norway?"}}}]}],
        "inferenceConfig": {"maxTokens": 100},
        "guardrailConfig": {"guardrailIdentifier": "g1", "guardrailVersion": "DRAFT"}
    })
}

#[test]
fn guarded_text_comes_back_exactly() {
    let body = guarded_request();
    assert_clean("bedrock", &body);
    let canonical = assert_round_trip("bedrock", &body);
    assert_eq!(
        canonical["messages"][0]["content"][1]["text"],
        "What is the capital of Norway?"
    );
}

#[test]
fn guarded_text_is_text_everywhere_else_and_the_qualifiers_are_named() {
    let body = guarded_request();
    for (target, out, stderr) in convert_everywhere("bedrock", &body) {
        assert_no_empty_message(target, &out);
        let texts = strings(&out);
        for text in [
            "Oslo is the capital of Norway.",
            "What is the capital of Norway?",
        ] {
            assert!(texts.contains(&text), "{target}: {out}");
        }
        assert!(
            texts.iter().any(|t| t.contains("No advice.")),
            "{target}: {out}"
        );
        let dropped: Vec<&str> = stderr
            .lines()
            .filter(|l| l.ends_with("; dropped"))
            .collect();
        assert_eq!(dropped.len(), 1, "{target}: {stderr}");
        assert!(
            dropped[0].contains("bedrock guardContent.qualifiers"),
            "{target}: {stderr}"
        );
    }
}

#[test]
fn a_guarded_image_is_an_image_everywhere_else() {
    let body = json!({"messages": [{"role": "user", "content": [
        {"text": "Is this safe?"},
        {"guardContent": {"image": {"format": "png", "source": {"bytes": fixture_b64("tiny.png")}}}}]}],
        "inferenceConfig": {"maxTokens": 100}});
    assert_clean("bedrock", &body);
    let canonical = assert_round_trip("bedrock", &body);
    assert_eq!(canonical["messages"][0]["content"][1]["type"], "image");
    for (target, out, _) in convert_everywhere("bedrock", &body) {
        assert!(
            out.to_string().contains(&fixture_b64("tiny.png")),
            "{target} keeps the image: {out}"
        );
    }
}

#[test]
fn a_search_result_is_its_passages_with_its_source_named() {
    let body = json!({"messages": [
        {"role": "user", "content": [{"text": "Find the capital of Norway."}]},
        {"role": "assistant", "content": [{"toolUse": {"toolUseId": "t1", "name": "search", "input": {"q": "capital of Norway"}}}]},
        {"role": "user", "content": [{"toolResult": {"toolUseId": "t1", "content": [
            {"searchResult": {"source": "https://example.com/norway", "title": "Norway",
                "content": [{"text": "Oslo is the capital."}, {"text": "It lies on a fjord."}],
                "citations": {"enabled": true}}}]}}]}],
        "toolConfig": {"tools": [{"toolSpec": {"name": "search", "inputSchema": {"json": {
            "type": "object", "properties": {"q": {"type": "string"}}}}}}]},
        "inferenceConfig": {"maxTokens": 100}});
    assert_clean("bedrock", &body);
    assert_round_trip("bedrock", &body);
    for (target, out, stderr) in convert_everywhere("bedrock", &body) {
        assert!(
            out.to_string()
                .contains("Oslo is the capital.\\nIt lies on a fjord."),
            "{target}: {out}"
        );
        assert!(
            stderr.contains("bedrock searchResult.source, bedrock searchResult.title"),
            "{target}: {stderr}"
        );
    }
}

#[test]
fn blocks_the_reader_does_not_model_are_carried_and_named() {
    let body = json!({"messages": [
        {"role": "user", "content": [{"text": "A riddle, please."}, {"cachePoint": {"type": "default"}}]},
        {"role": "assistant", "content": [
            {"reasoningContent": {"reasoningText": {"text": "Something short.", "signature": "c2ln"}}},
            {"text": "What has keys but no locks?"}]},
        {"role": "user", "content": [{"text": "A piano?"}]}],
        "inferenceConfig": {"maxTokens": 100}});
    assert_clean("bedrock", &body);
    assert_round_trip("bedrock", &body);
    for (target, out, stderr) in convert_everywhere("bedrock", &body) {
        assert_no_empty_message(target, &out);
        assert!(
            stderr.contains("bedrock cachePoint blocks"),
            "{target}: {stderr}"
        );
    }
}

// Every recording of both folders, read, round-tripped and converted with
// every output validated: recordings.rs.

#[test]
fn a_role_gemini_refuses_is_reported_not_a_reason_to_refuse_the_document() {
    // Vertex AI answered 400 "Please use a valid role: user, model." for such a
    // body: validate says so; reading, round trips and conversions go on.
    let body = json!({"contents": [{"role": "invalid_role", "parts": [{"text": "hi"}]}]});
    let run = run_with_stdin(&["validate"], body.to_string().as_bytes());
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (1, "<stdin>:1: error[shape-field] /contents/0/role: role \"invalid_role\" is not \"user\" or \"model\": Gemini refuses it\n")
    );
    let canonical = run_with_stdin(
        &["convert", "--from", "gemini", "--to", "canonical"],
        body.to_string().as_bytes(),
    );
    assert_eq!(canonical.code, 0, "{}", canonical.stderr);
    let back = run_with_stdin(
        &[
            "convert",
            "--from",
            "canonical",
            "--to",
            "gemini",
            "--compact",
        ],
        canonical.stdout.as_bytes(),
    );
    assert_eq!(back.json(), body);
    let chat = run_with_stdin(
        &["convert", "--from", "gemini", "--to", "openai-chat"],
        body.to_string().as_bytes(),
    );
    assert_eq!(chat.json()["messages"][0]["role"], "user");
    assert!(chat.stderr.contains("gemini role \"invalid_role\" at /contents/0/role is not \"user\" or \"model\": read as the user's"), "{}", chat.stderr);
}
