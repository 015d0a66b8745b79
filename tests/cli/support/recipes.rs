//! The recipes of the committed clean transcripts: a request, a response and a
//! single tool result in every shape (tests/fixtures/validate-transcripts/README.md).
//! `validate_clean::committed_transcript_fixtures_match_their_recipe` checks
//! the files against them.

use serde_json::{json, Value};

use super::media::{b64, data_url};
use super::shapes::*;

/// `openai-chat/request.json`: system prompt; a user image with detail; two
/// parallel calls (one with `5.0` days, an integer) answered by consecutive tool
/// messages; the screenshot delivered in a following user message (two-message
/// delivery); a user PDF file part and WAV audio.
pub fn chat_request() -> Value {
    json!({
        "model": "gpt-4o",
        "messages": [
            {"role": "system", "content": "You are a terse assistant."},
            {"role": "user", "content": [
                {"type": "text", "text": "Chart Paris for five days and take a screenshot."},
                {"type": "image_url", "image_url": {"url": data_url("image/png", "tiny.png"), "detail": "low"}}]},
            chat_calls(vec![
                chat_call("call_paris", "get_chart", r#"{"city":"Paris","days":5.0}"#),
                chat_call("call_shot", "screenshot", "{}")]),
            chat_result("call_paris", "Chart for Paris: rising."),
            chat_result("call_shot", "[tool returned media; see the next user message]"),
            {"role": "user", "content": [
                {"type": "text", "text": "Output of tool screenshot (call_shot):"},
                {"type": "image_url", "image_url": {"url": data_url("image/jpeg", "tiny.jpg")}}]},
            {"role": "assistant", "content": "Paris is rising; the screenshot shows the chart."},
            {"role": "user", "content": [
                {"type": "text", "text": "Read this and listen to that."},
                {"type": "file", "file": {"filename": "doc.pdf", "file_data": data_url("application/pdf", "doc.pdf")}},
                {"type": "input_audio", "input_audio": {"data": b64("tone.wav"), "format": "wav"}}]}
        ],
        "tools": [
            {"type": "function", "function": {"name": "get_chart", "description": "Render a chart for a city",
                                              "parameters": chart_schema()}},
            {"type": "function", "function": {"name": "screenshot", "description": "Capture the screen"}}
        ],
        "tool_choice": "auto",
        "max_tokens": 1024,
        "temperature": 0.2
    })
}

/// `openai-chat/response.json`: a chat.completion whose message calls a tool.
pub fn chat_response() -> Value {
    json!({
        "id": "chatcmpl-1", "object": "chat.completion", "created": 1700000000, "model": "gpt-4o",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
            "role": "assistant", "content": null,
            "tool_calls": [chat_call("call_rome", "get_chart", r#"{"city":"Rome"}"#)]}}],
        "usage": {"prompt_tokens": 20, "completion_tokens": 5, "total_tokens": 25}
    })
}

/// `openai-chat/tool-result.json`: one tool message with text parts.
pub fn chat_tool_result() -> Value {
    json!({"role": "tool", "tool_call_id": "call_paris", "content": [{"type": "text", "text": "Chart for Paris: rising."}]})
}

/// `openai-responses/request.json`: instructions; a user image (with detail)
/// and PDF; a call answered by an array output holding an image without
/// detail (allowed there); a hosted web_search tool and its call item.
pub fn responses_request() -> Value {
    json!({
        "model": "gpt-4.1",
        "instructions": "You are a terse assistant.",
        "input": [
            {"role": "user", "content": [
                {"type": "input_text", "text": "Chart Paris, search the web, and read the report."},
                {"type": "input_image", "image_url": data_url("image/png", "tiny.png"), "detail": "auto"},
                {"type": "input_file", "filename": "doc.pdf", "file_data": data_url("application/pdf", "doc.pdf")}]},
            {"type": "web_search_call", "id": "ws_1", "status": "completed",
             "action": {"type": "search", "query": "Paris weather"}},
            {"type": "function_call", "id": "fc_1", "call_id": "call_paris", "name": "get_chart",
             "arguments": r#"{"city":"Paris"}"#, "status": "completed"},
            {"type": "function_call_output", "call_id": "call_paris", "output": [
                {"type": "input_text", "text": "Chart for Paris:"},
                {"type": "input_image", "image_url": data_url("image/png", "tiny.png")}]},
            {"role": "assistant", "content": "Paris is rising and sunny."},
            {"role": "user", "content": "Thanks."}
        ],
        "tools": [responses_tool("get_chart", Some(chart_schema())), {"type": "web_search"}],
        "max_output_tokens": 1024
    })
}

/// `openai-responses/response.json`: a response with a message and a call.
pub fn responses_response() -> Value {
    json!({
        "id": "resp_1", "object": "response", "created_at": 1700000000, "status": "completed", "model": "gpt-4.1",
        "output": [
            {"type": "message", "id": "msg_1", "status": "completed", "role": "assistant",
             "content": [{"type": "output_text", "text": "Charting Rome.", "annotations": []}]},
            {"type": "function_call", "id": "fc_2", "call_id": "call_rome", "name": "get_chart",
             "arguments": r#"{"city":"Rome"}"#, "status": "completed"}],
        "usage": {"input_tokens": 20, "output_tokens": 5, "total_tokens": 25}
    })
}

/// `openai-responses/tool-result.json`: one function_call_output.
pub fn responses_tool_result() -> Value {
    responses_result("call_paris", "Chart for Paris: rising.")
}

/// `anthropic/request.json`: a user image and PDF document; two calls (one to
/// a tool with an empty object schema) answered in the next message before its
/// text, one with a PNG and one with a JPEG; a server tool (web search) used
/// through server_tool_use.
pub fn anthropic_request() -> Value {
    let image = |mime: &str, name: &str| json!({"type": "image", "source": {"type": "base64", "media_type": mime, "data": b64(name)}});
    json!({
        "model": "claude-sonnet-4-5",
        "max_tokens": 1024,
        "system": "You are a terse assistant.",
        "tools": [
            anthropic_tool("get_chart", chart_schema()),
            anthropic_tool("screenshot", json!({"type": "object", "properties": {}})),
            {"type": "web_search_20250305", "name": "web_search", "max_uses": 3}
        ],
        "messages": [
            anthropic_blocks("user", vec![
                text("Chart Paris, take a screenshot, and read the report."),
                image("image/png", "tiny.png"),
                json!({"type": "document", "title": "doc.pdf",
                       "source": {"type": "base64", "media_type": "application/pdf", "data": b64("doc.pdf")}})]),
            anthropic_blocks("assistant", vec![
                text("Calling the tools."),
                anthropic_call("toolu_01", "get_chart", json!({"city": "Paris"})),
                anthropic_call("toolu_02", "screenshot", json!({}))]),
            anthropic_blocks("user", vec![
                json!({"type": "tool_result", "tool_use_id": "toolu_01",
                       "content": [text("Chart for Paris:"), image("image/png", "tiny.png")]}),
                json!({"type": "tool_result", "tool_use_id": "toolu_02", "content": [image("image/jpeg", "tiny.jpg")]}),
                text("And search the web for the weather.")]),
            anthropic_blocks("assistant", vec![
                json!({"type": "server_tool_use", "id": "srvtoolu_01", "name": "web_search",
                       "input": {"query": "Paris weather"}}),
                json!({"type": "web_search_tool_result", "tool_use_id": "srvtoolu_01", "content": []}),
                text("Rising, and sunny.")]),
            anthropic_user("Thanks.")
        ]
    })
}

/// `anthropic/response.json`: a message calling a tool.
pub fn anthropic_response() -> Value {
    json!({
        "id": "msg_01", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
        "content": [text("Charting Rome."), anthropic_call("toolu_03", "get_chart", json!({"city": "Rome"}))],
        "stop_reason": "tool_use", "stop_sequence": null,
        "usage": {"input_tokens": 20, "output_tokens": 5}
    })
}

/// `anthropic/tool-result.json`: one tool_result block with text and an image.
pub fn anthropic_tool_result() -> Value {
    json!({"type": "tool_result", "tool_use_id": "toolu_01", "is_error": false, "content": [
        text("Chart for Paris:"),
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": b64("tiny.png")}}]})
}

/// `gemini/request.json`: a user image; two id-less calls to the same function
/// answered in order in one user Content, the first with an image under
/// functionResponse.parts; declarations with parametersJsonSchema and with
/// OpenAPI parameters.
pub fn gemini_request() -> Value {
    json!({
        "systemInstruction": {"role": "user", "parts": [{"text": "You are a terse assistant."}]},
        "contents": [
            gemini_parts("user", vec![
                json!({"text": "Chart Paris and Rome."}),
                json!({"inlineData": {"mimeType": "image/png", "data": b64("tiny.png")}})]),
            gemini_parts("model", vec![
                gemini_call(None, "get_chart", json!({"city": "Paris"})),
                gemini_call(None, "get_chart", json!({"city": "Rome"}))]),
            gemini_parts("user", vec![
                json!({"functionResponse": {"name": "get_chart", "response": {"output": "rising"},
                       "parts": [{"inlineData": {"mimeType": "image/png", "data": b64("tiny.png"),
                                                 "displayName": "paris.png"}}]}}),
                gemini_result(None, "get_chart", "falling")]),
            gemini_parts("model", vec![json!({"text": "Paris rises, Rome falls."})]),
            gemini_user("What is the weather in Rome?"),
            gemini_parts("model", vec![gemini_call(Some("call_w"), "get_weather", json!({"city": "Rome"}))]),
            gemini_parts("user", vec![gemini_result(Some("call_w"), "get_weather", "sunny")])
        ],
        "tools": [{"functionDeclarations": [
            {"name": "get_chart", "description": "Render a chart for a city", "parametersJsonSchema": chart_schema()},
            {"name": "get_weather", "description": "The weather in a city",
             "parameters": {"type": "OBJECT", "properties": {"city": {"type": "STRING"}}, "required": ["city"]}}]}],
        "generationConfig": {"maxOutputTokens": 1024, "temperature": 0.2}
    })
}

/// `gemini/response.json`: a candidate calling a function.
pub fn gemini_response() -> Value {
    json!({
        "candidates": [{"content": gemini_parts("model", vec![gemini_call(Some("call_1"), "get_chart", json!({"city": "Rome"}))]),
                        "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 20, "candidatesTokenCount": 5, "totalTokenCount": 25},
        "modelVersion": "gemini-2.5-flash"
    })
}

/// `gemini/tool-result.json`: a lone user Content with one functionResponse.
pub fn gemini_tool_result() -> Value {
    gemini_parts(
        "user",
        vec![gemini_result(Some("call_1"), "get_chart", "falling")],
    )
}

/// `bedrock/request.json`: a user image and a document named in Bedrock's
/// alphabet; a call answered by a toolResult with JSON, text and an image,
/// beside the user's text in the same (alternating) user message.
pub fn bedrock_request() -> Value {
    json!({
        "modelId": "anthropic.claude-3-5-sonnet-20240620-v1:0",
        "system": [{"text": "You are a terse assistant."}],
        "messages": [
            bedrock_blocks("user", vec![
                json!({"text": "Chart Paris and read the report."}),
                json!({"image": {"format": "png", "source": {"bytes": b64("tiny.png")}}}),
                json!({"document": {"format": "pdf", "name": "Report 2024 (final) [v2]",
                                    "source": {"bytes": b64("doc.pdf")}}})]),
            bedrock_blocks("assistant", vec![
                json!({"text": "Calling the tool."}),
                bedrock_call("tooluse_01", "get_chart", json!({"city": "Paris"}))]),
            bedrock_blocks("user", vec![
                json!({"toolResult": {"toolUseId": "tooluse_01", "status": "success", "content": [
                    {"json": {"trend": "rising"}},
                    {"text": "Chart:"},
                    {"image": {"format": "jpeg", "source": {"bytes": b64("tiny.jpg")}}}]}}),
                json!({"text": "And Rome?"})]),
            bedrock_blocks("assistant", vec![json!({"text": "Rome is falling."})])
        ],
        "toolConfig": {"tools": [bedrock_tool("get_chart", chart_schema())], "toolChoice": {"auto": {}}},
        "inferenceConfig": {"maxTokens": 1024, "temperature": 0.2}
    })
}

/// `bedrock/response.json`: a Converse response calling a tool.
pub fn bedrock_response() -> Value {
    json!({
        "output": {"message": bedrock_blocks("assistant", vec![
            json!({"text": "Charting Rome."}),
            bedrock_call("tooluse_02", "get_chart", json!({"city": "Rome"}))])},
        "stopReason": "tool_use",
        "usage": {"inputTokens": 20, "outputTokens": 5, "totalTokens": 25},
        "metrics": {"latencyMs": 120}
    })
}

/// `bedrock/tool-result.json`: one toolResult block.
pub fn bedrock_tool_result() -> Value {
    json!({"toolResult": {"toolUseId": "tooluse_01", "status": "success", "content": [{"text": "rising"}]}})
}

/// `canonical/request.json`: partkit's own transcript with every part type,
/// a no-parameter tool, calls and results with media, an error result.
pub fn canonical_request() -> Value {
    let media = |kind: &str, mime: &str, name: &str| json!({"type": kind, "mimeType": mime, "data": b64(name)});
    json!({
        "model": "test-model",
        "max_tokens": 1024,
        "system": [text("You are a terse assistant.")],
        "tools": [canonical_tool("get_chart", Some(chart_schema())), canonical_tool("screenshot", None)],
        "tool_choice": "auto",
        "messages": [
            canonical_blocks("user", vec![
                text("Chart Paris and Rome, take a screenshot, read and listen."),
                media("image", "image/png", "tiny.png"),
                media("file", "application/pdf", "doc.pdf"),
                media("audio", "audio/wav", "tone.wav")]),
            canonical_blocks("assistant", vec![
                text("Calling the tools."),
                canonical_call("call_paris", "get_chart", json!({"city": "Paris", "days": 5.0})),
                canonical_call("call_rome", "get_chart", json!({"city": "Rome"})),
                canonical_call("call_shot", "screenshot", json!({}))]),
            canonical_results(vec![
                canonical_result("call_paris", "get_chart", "rising"),
                json!({"type": "tool_result", "call_id": "call_rome", "name": "get_chart", "is_error": true,
                       "content": [text("no data for Rome")]}),
                json!({"type": "tool_result", "call_id": "call_shot", "name": "screenshot", "is_error": false,
                       "content": [media("image", "image/jpeg", "tiny.jpg")]})]),
            canonical_blocks("assistant", vec![text("Paris is rising.")])
        ]
    })
}

/// `canonical/response.json`: a canonical transcript written as a response.
pub fn canonical_response() -> Value {
    json!({
        "model": "test-model",
        "messages": [canonical_blocks("assistant", vec![
            text("Charting Rome."),
            canonical_call("call_rome", "get_chart", json!({"city": "Rome"}))])],
        "extensions": {"canonical": {"$form": "response"}}
    })
}

/// `canonical/tool-result.json`: one canonical tool_result block with an image.
pub fn canonical_tool_result() -> Value {
    json!({"type": "tool_result", "call_id": "call_shot", "name": "screenshot", "is_error": false,
           "content": [text("Screen:"), {"type": "image", "mimeType": "image/png", "data": b64("tiny.png")}]})
}

/// Every committed fixture: (shape, file name, recipe, images it holds).
pub fn clean_fixtures() -> Vec<(&'static str, &'static str, Value, usize)> {
    vec![
        ("openai-chat", "request.json", chat_request(), 2),
        ("openai-chat", "response.json", chat_response(), 0),
        ("openai-chat", "tool-result.json", chat_tool_result(), 0),
        ("openai-responses", "request.json", responses_request(), 2),
        ("openai-responses", "response.json", responses_response(), 0),
        (
            "openai-responses",
            "tool-result.json",
            responses_tool_result(),
            0,
        ),
        ("anthropic", "request.json", anthropic_request(), 3),
        ("anthropic", "response.json", anthropic_response(), 0),
        ("anthropic", "tool-result.json", anthropic_tool_result(), 1),
        ("gemini", "request.json", gemini_request(), 2),
        ("gemini", "response.json", gemini_response(), 0),
        ("gemini", "tool-result.json", gemini_tool_result(), 0),
        ("bedrock", "request.json", bedrock_request(), 2),
        ("bedrock", "response.json", bedrock_response(), 0),
        ("bedrock", "tool-result.json", bedrock_tool_result(), 0),
        ("canonical", "request.json", canonical_request(), 2),
        ("canonical", "response.json", canonical_response(), 0),
        ("canonical", "tool-result.json", canonical_tool_result(), 1),
    ]
}

pub const TRANSCRIPTS: &str = "tests/fixtures/validate-transcripts";

/// A committed fixture's text: the recipe, pretty-printed, with a final newline.
pub fn fixture_text(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap() + "\n"
}
