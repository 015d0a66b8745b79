//! `partkit validate` on transcripts (docs/commands/validate.md): declared tools and call
//! arguments (tool-undeclared, tool-duplicate-name, tool-schema-invalid,
//! tool-arguments-*), and `--target` (target-unsupported).

use serde_json::{json, Value};

use super::support::exchange::*;
use super::support::findings::*;
use super::support::media::*;
use super::support::shapes::*;

#[test]
fn rule_tool_undeclared() {
    let mut cases = Vec::new();
    for shape in SHAPES {
        let tools = [("get_chart", Some(chart_schema()))];
        let b = build(
            shape,
            Some(&tools),
            // Not answered yet: an answer may show the mistake caught (below).
            &[
                User("Clean up."),
                Calls(vec![call("call_1", "delete_everything", json!({}))]),
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
        // Anthropic and Bedrock refuse such a request: an error. OpenAI and
        // Gemini accept it: a warning (a_request_without_tools_may_call_one_…).
        match shape {
            "canonical" => cases.push(built("a request body with no tools declared", &b, &[])),
            "anthropic" | "bedrock" => cases.push(built(
                "a request body with no tools declared",
                &b,
                &[(
                    "tool-undeclared",
                    b.call(0),
                    "call call_1 (delete_everything) calls a tool, and the request declares no tools",
                )],
            )),
            _ => {}
        }
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
fn a_request_without_tools_may_call_one_where_the_provider_accepts_it() {
    for shape in ["openai-chat", "openai-responses", "gemini"] {
        let b = build(
            shape,
            None,
            &[
                User("Clean up."),
                Calls(vec![call("call_1", "delete_everything", json!({}))]),
            ],
        );
        let run = crate::run_with_stdin(&["validate"], b.doc.to_string().as_bytes());
        assert_eq!(
            (run.code, run.stdout.as_str()),
            (
                0,
                format!(
                    "<stdin>:1: warning[tool-undeclared] {}: call call_1 (delete_everything) calls a tool, and the request declares no tools (the provider accepts this)\n",
                    b.call(0)
                )
                .as_str()
            ),
            "{shape}: {}",
            run.stderr
        );
        // --deny-warnings makes it fail, as every warning.
        let run = crate::run_with_stdin(
            &["validate", "--deny-warnings"],
            b.doc.to_string().as_bytes(),
        );
        assert_eq!(run.code, 1, "{shape}");
    }
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

// Long: a table of cases, one or more per shape.
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

#[test]
fn hosted_calls_need_their_hosted_tool_declared() {
    let responses = |tools: Value| {
        json!({"model": "gpt-5", "tools": tools, "input": [
            {"role": "user", "content": "When?"},
            {"type": "web_search_call", "id": "ws_1", "status": "completed",
             "action": {"type": "search", "query": "when"}},
            {"role": "assistant", "content": "Then."}]})
    };
    let function = json!([{"type": "function", "name": "f", "parameters": {"type": "object"}}]);
    let run = crate::run_with_stdin(&["validate"], responses(function).to_string().as_bytes());
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (0, "<stdin>:1: warning[tool-undeclared] /input/1: the web_search_call item calls a hosted tool the request does not declare (declared: f) (the provider accepts this)\n"),
    );
    // A versioned type of the tool allows it.
    let preview = json!([{"type": "web_search_preview_2025_03_11"}]);
    let run = crate::run_with_stdin(&["validate"], responses(preview).to_string().as_bytes());
    assert_eq!((run.code, run.stdout.as_str()), (0, ""), "{}", run.stderr);

    let anthropic = |tools: Value| {
        json!({"model": "claude-x", "max_tokens": 5, "tools": tools, "messages": [
            {"role": "user", "content": "Fetch it."},
            {"role": "assistant", "content": [
                {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_fetch", "input": {"url": "https://x"}},
                {"type": "web_fetch_tool_result", "tool_use_id": "srvtoolu_1", "content": {}}]}]})
    };
    let function = json!([{"name": "f", "input_schema": {"type": "object"}}]);
    let run = crate::run_with_stdin(&["validate"], anthropic(function).to_string().as_bytes());
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (1, "<stdin>:1: error[tool-undeclared] /messages/1/content/0: server_tool_use of \"web_fetch\" calls a hosted tool the request does not declare (declared: f)\n"),
    );
    let server = json!([{"type": "web_fetch_20250910", "name": "web_fetch"}]);
    let run = crate::run_with_stdin(&["validate"], anthropic(server).to_string().as_bytes());
    assert_eq!((run.code, run.stdout.as_str()), (0, ""), "{}", run.stderr);
}

#[test]
fn a_broken_call_answered_in_a_shape_without_error_results_is_a_warning() {
    // OpenAI's tool results cannot say they are errors: the answer may be the
    // error that caught the mistake. A shape whose results can say so keeps
    // the error for a success answer.
    let tools = [("get_chart", Some(chart_schema()))];
    for (shape, code) in [
        ("openai-chat", 0),
        ("openai-responses", 0),
        ("anthropic", 1),
        ("bedrock", 1),
    ] {
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
        let run = crate::run_with_stdin(&["validate"], b.doc.to_string().as_bytes());
        let want = if code == 0 {
            format!("<stdin>:1: warning[tool-call-caught] {}: call call_1 (delete_everything) calls a tool the document does not declare (declared: get_chart) — answered by a result, which {shape} cannot mark as an error\n", b.call(0))
        } else {
            format!("<stdin>:1: error[tool-undeclared] {}: call call_1 (delete_everything) calls a tool the document does not declare (declared: get_chart)\n", b.call(0))
        };
        assert_eq!(
            (run.code, run.stdout.as_str()),
            (code, want.as_str()),
            "{shape}"
        );
    }
}
