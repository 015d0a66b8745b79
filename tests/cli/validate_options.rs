//! `partkit validate` on transcripts (docs/commands/validate.md): JSON Lines, `--from`,
//! shape detection, `--kind` and `--ignore`.

use serde_json::json;

use super::support::exchange::*;
use super::support::findings::*;
use super::support::recipes::*;
use super::support::shapes::*;
use super::support::validating::*;
use super::{path_arg, temp_file};

// ---------------------------------------------------------------------------
// JSON Lines, --from, detection, --kind, --ignore

// Long: the lines, then the exact output in text and in JSON.
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
    let path = path_arg(&file).to_string();
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
        case("openai-responses, detected by its items: arguments that are not JSON", &[],
            json!([{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Go."}]},
                {"type": "function_call", "call_id": "call_1", "name": "shot", "arguments": "{"}]),
            &[("tool-arguments-json", "/1", "arguments of call call_1 (shot) are not JSON: {")]),
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
