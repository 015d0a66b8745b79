//! `partkit validate` on transcripts (docs/commands/validate.md): the rules on a document's
//! shape (transcript-invalid, shape-field, shape-order), and that
//! `--list-rules` names exactly the transcript rules these files test.

use serde_json::json;

use super::support::findings::*;
use super::support::media::*;
use super::support::shapes::*;
use super::support::validating::*;

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

// Long: a table of cases, one or more per shape.
#[test]
fn rule_shape_field() {
    check(vec![
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
