//! Streamed responses assembled (docs/streams.md), over the real recordings
//! in `../shared/cassettes/` (read at run time, skipped when the folder is
//! absent) and over hand-written streams: what each assembles to, and that
//! what it assembles to reads as a response of its shape.

use crate::support::cassettes;
use partkit::assemble::{assemble, Assembled};
use partkit::assemble::{Framing, StreamProblem};
use partkit::convert::{convert, read, ConvertOptions, Form};
use partkit::shapes::Shape;
use serde_json::{json, Value};

/// The response bodies of the cassette at `path` (under the cassettes
/// folder), in order, as partkit's recording reader decodes them.
fn responses(root: &std::path::Path, path: &str) -> Vec<Vec<u8>> {
    let recording = partkit::internals::recording::read(&root.join(path))
        .unwrap_or_else(|error| panic!("{path}: {error}"));
    recording
        .interactions
        .into_iter()
        .filter_map(|interaction| interaction.response)
        .map(|response| response.body.bytes)
        .collect()
}

/// `body` assembled as `shape`'s stream (found from the events), and its
/// response read back as a response of that shape and converted to canonical.
fn assembled(body: &[u8], shape: Shape) -> Assembled {
    let assembled = assemble(body, None).unwrap_or_else(|problem| panic!("{problem}"));
    assert_eq!(assembled.shape, shape, "{:?}", assembled.response);
    let (_, form, _) = read(&assembled.response, Some(shape))
        .unwrap_or_else(|error| panic!("{shape}: {error}\n{}", assembled.response));
    // An MCP answer is a tool call's result; every other shape's is a response.
    let expected = if shape == Shape::Mcp {
        Form::ToolResult
    } else {
        Form::Response
    };
    assert_eq!(form, expected, "{}", assembled.response);
    convert(
        &assembled.response,
        Some(shape),
        Shape::Canonical,
        ConvertOptions::default(),
    )
    .unwrap_or_else(|error| panic!("{shape} to canonical: {error}"));
    assembled
}

/// The tool calls of an assembled response, as (name, arguments) in order.
fn calls(assembled: &Assembled) -> Vec<(String, Value)> {
    let response = &assembled.response;
    let mut found = Vec::new();
    let mut walk = vec![response];
    while let Some(value) = walk.pop() {
        match value {
            Value::Array(items) => walk.extend(items.iter().rev()),
            Value::Object(map) => {
                let call = match (map.get("type").and_then(Value::as_str), map) {
                    (Some("function_call"), map) => Some((
                        map["name"].clone(),
                        serde_json::from_str(map["arguments"].as_str().unwrap()).unwrap(),
                    )),
                    (Some("tool_use"), map) => Some((map["name"].clone(), map["input"].clone())),
                    _ if map.contains_key("toolUseId") && map.contains_key("input") => {
                        Some((map["name"].clone(), map["input"].clone()))
                    }
                    _ if map.contains_key("function") && map.contains_key("id") => Some((
                        map["function"]["name"].clone(),
                        serde_json::from_str(map["function"]["arguments"].as_str().unwrap())
                            .unwrap(),
                    )),
                    _ => None,
                };
                match (call, map.get("functionCall")) {
                    (Some((name, arguments)), _) => {
                        found.push((name.as_str().unwrap().to_string(), arguments))
                    }
                    (None, Some(call)) => found.push((
                        call["name"].as_str().unwrap().to_string(),
                        call.get("args").cloned().unwrap_or(json!({})),
                    )),
                    (None, None) => walk.extend(map.values().rev()),
                }
            }
            _ => {}
        }
    }
    found
}

/// Every text of an assembled response, joined (thoughts apart).
fn text(assembled: &Assembled) -> String {
    let mut out = String::new();
    let mut walk = vec![&assembled.response];
    while let Some(value) = walk.pop() {
        match value {
            Value::Array(items) => walk.extend(items.iter().rev()),
            Value::Object(map) => {
                let thought = map.get("thought") == Some(&json!(true))
                    || map.get("type").and_then(Value::as_str) == Some("reasoning");
                if let (Some(Value::String(content)), true) =
                    (map.get("content"), map.contains_key("role"))
                {
                    out.push_str(content);
                }
                match map.get("text") {
                    Some(Value::String(text)) if !thought => out.push_str(text),
                    _ if !thought => walk.extend(map.values().rev()),
                    _ => {}
                }
            }
            _ => {}
        }
    }
    out
}

/// The response bodies of `path`, or none without the cassettes folder.
fn real(path: &str) -> Vec<Vec<u8>> {
    match cassettes() {
        Some(root) if path.ends_with(".txt") => vec![std::fs::read(root.join(path)).unwrap()],
        Some(root) => responses(&root, path),
        None => Vec::new(),
    }
}

fn call(name: &str, arguments: Value) -> (String, Value) {
    (name.to_string(), arguments)
}

#[test]
fn anthropic_streams_assemble() {
    let bodies = real("vcrpy-stream/llm-anthropic-01.yaml");
    if bodies.is_empty() {
        return;
    }
    // gzip under !!binary, SSE with a ping.
    let one = assembled(&bodies[0], Shape::Anthropic);
    assert_eq!((one.framing, one.events), (Framing::Sse, 7));
    assert_eq!(calls(&one), [call("pelican_name_generator", json!({}))]);
    assert_eq!(one.response["stop_reason"], "tool_use");
    let two = assembled(
        &real("vcrpy-stream/llm-anthropic-02.yaml")[0],
        Shape::Anthropic,
    );
    assert_eq!(two.events, 11);
    assert_eq!(text(&two), "Red square, green square.");
    assert!(two.response["usage"]["output_tokens"].is_number());

    let har = real("har/mirascope-01.har");
    let first = assembled(&har[0], Shape::Anthropic);
    assert_eq!(first.events, 17);
    assert_eq!(
        calls(&first),
        [
            call("secret_retrieval_tool", json!({"password": "mellon"})),
            call("secret_retrieval_tool", json!({"password": "radiance"})),
        ]
    );
    let second = assembled(&har[1], Shape::Anthropic);
    assert!(text(&second).starts_with("I've successfully retrieved the secrets"));
}

#[test]
fn an_anthropic_mcp_stream_has_the_blocks_of_its_whole_message() {
    let bodies = real("vercel-fixtures/vercel-ai-01.chunks.txt");
    let Some(root) = cassettes() else { return };
    // One JSON event per line: an MCP tool use whose input comes in five
    // fragments, its result, then text in three deltas.
    let stream = assembled(&bodies[0], Shape::Anthropic);
    assert_eq!((stream.framing, stream.events), (Framing::JsonLines, 17));
    let content = &stream.response["content"];
    assert_eq!(content[0]["type"], "mcp_tool_use");
    assert_eq!(content[0]["input"], json!({"message": "hello world"}));
    assert_eq!(content[1]["type"], "mcp_tool_result");
    assert_eq!(
        content[2]["text"],
        "The echo tool responded back with: **hello world**\n\nIt simply echoed back the exact message that was sent to it."
    );
    let whole: Value = serde_json::from_slice(
        &std::fs::read(root.join("vercel-fixtures/vercel-ai-02.json")).unwrap(),
    )
    .unwrap();
    // The fixture's non-streamed message for the same prompt (another run:
    // other ids and wording) has the same blocks, with the same input.
    let kinds = |content: &Value| -> Vec<Value> {
        content
            .as_array()
            .unwrap()
            .iter()
            .map(|block| block["type"].clone())
            .collect()
    };
    assert_eq!(kinds(content), kinds(&whole["content"]));
    assert_eq!(content[0]["input"], whole["content"][0]["input"]);
    assert_eq!(stream.response["stop_reason"], whole["stop_reason"]);
}

#[test]
fn openai_chat_streams_assemble() {
    let bodies = real("vcrpy-stream/otel-contrib-01.yaml");
    if bodies.is_empty() {
        return;
    }
    // Two parallel tool calls in deltas, then a usage chunk and [DONE].
    let chat = assembled(&bodies[0], Shape::OpenaiChat);
    assert_eq!((chat.framing, chat.events), (Framing::Sse, 18));
    assert_eq!(
        calls(&chat),
        [
            call("get_current_weather", json!({"location": "Seattle, WA"})),
            call(
                "get_current_weather",
                json!({"location": "San Francisco, CA"})
            ),
        ]
    );
    let choice = &chat.response["choices"][0];
    assert_eq!(choice["finish_reason"], "tool_calls");
    assert!(choice["message"]["tool_calls"][1]["id"].is_string());
    assert!(chat.response["usage"]["total_tokens"].is_number());

    // Azure: a first chunk with only the prompt's filter results, no [DONE].
    let azure = assembled(
        &real("vercel-fixtures/vercel-ai-05.chunks.txt")[0],
        Shape::OpenaiChat,
    );
    assert_eq!(azure.events, 8);
    assert_eq!(text(&azure), "Capital of Denmark.");
    assert!(azure.notes.is_empty(), "{:?}", azure.notes);
}

#[test]
fn openai_responses_streams_assemble() {
    let bodies = real("vcrpy-stream/llm-01.yaml");
    if bodies.is_empty() {
        return;
    }
    let first = assembled(&bodies[0], Shape::OpenaiResponses);
    assert_eq!(first.events, 17);
    assert_eq!(
        calls(&first),
        [call("multiply", json!({"a": 1231, "b": 2331}))]
    );
    let second = assembled(&bodies[1], Shape::OpenaiResponses);
    assert_eq!(second.events, 22);
    assert_eq!(text(&second), "1231 × 2331 = **2,869,461**");
    let images = assembled(
        &real("vercel-fixtures/vercel-ai-06.chunks.txt")[0],
        Shape::OpenaiResponses,
    );
    assert_eq!(images.events, 16);
    let kinds: Vec<&str> = images.response["output"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["type"].as_str().unwrap())
        .collect();
    assert!(kinds.contains(&"image_generation_call"), "{kinds:?}");
}

#[test]
fn gemini_streams_assemble() {
    let bodies = real("vcrpy-stream/pydantic-ai-01.yaml");
    if bodies.is_empty() {
        return;
    }
    // SSE with \r\n separators: three chunks of text joined into one part.
    let sse = assembled(&bodies[0], Shape::Gemini);
    assert_eq!((sse.framing, sse.events), (Framing::Sse, 3));
    assert_eq!(text(&sse), "The capital of France is Paris.\n");
    assert_eq!(
        sse.response["candidates"][0]["content"]["parts"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    assert_eq!(sse.response["candidates"][0]["finishReason"], "STOP");

    // A JSON-array stream, gzip under !!binary: a call, then the answer.
    let array = real("vcrpy-stream/llm-gemini-01.yaml");
    let figures: Vec<(Framing, usize)> = array
        .iter()
        .map(|body| {
            let a = assembled(body, Shape::Gemini);
            (a.framing, a.events)
        })
        .collect();
    assert_eq!(
        figures,
        [
            (Framing::JsonArray, 2),
            (Framing::JsonArray, 1),
            (Framing::JsonArray, 2)
        ]
    );
    let call_one = assembled(&array[0], Shape::Gemini);
    assert_eq!(
        calls(&call_one),
        [call("pelican_name_generator", json!({}))]
    );
    assert_eq!(
        text(&assembled(&array[2], Shape::Gemini)),
        "How about Charles and Sammy?"
    );

    let har = real("har/mirascope-03.har");
    let first = assembled(&har[0], Shape::Gemini);
    assert_eq!(
        calls(&first),
        [call("secret_retrieval_tool", json!({"password": "mellon"}))]
    );
    let part = &first.response["candidates"][0]["content"]["parts"][0];
    assert!(
        part["thoughtSignature"]
            .as_str()
            .is_some_and(|s| s.len() > 20),
        "{part}"
    );
    assert!(text(&assembled(&har[2], Shape::Gemini)).starts_with("The secret for \"mellon\""));

    let lines = assembled(
        &real("vercel-fixtures/vercel-ai-03.chunks.txt")[0],
        Shape::Gemini,
    );
    assert_eq!(
        calls(&lines),
        [call("weather", json!({"location": "San Francisco"}))]
    );
}

#[test]
fn bedrock_event_streams_assemble() {
    let bodies = real("vcrpy-stream/otel-contrib-02.yaml");
    if bodies.is_empty() {
        return;
    }
    let first = assembled(&bodies[0], Shape::Bedrock);
    assert_eq!((first.framing, first.events), (Framing::EventStream, 67));
    assert_eq!(
        calls(&first),
        [
            call("get_current_weather", json!({"location": "Seattle"})),
            call("get_current_weather", json!({"location": "San Francisco"})),
        ]
    );
    assert_eq!(first.response["stopReason"], "tool_use");
    assert!(first.response["usage"]["totalTokens"].is_number());
    let second = assembled(&bodies[1], Shape::Bedrock);
    assert_eq!(second.events, 56);
    assert!(text(&second).starts_with("<thinking> I have received the weather information"));

    let headless = assembled(
        &real("vcrpy-stream/openinference-01.yaml")[0],
        Shape::Bedrock,
    );
    assert_eq!(headless.events, 22);
    assert_eq!(
        text(&headless),
        "\n\nThe most popular song played on radio station WZPZ is \"Rock and Roll Hall\"."
    );

    // langchain-aws: the stream, then a Converse answer that is not a stream.
    let langchain = real("langchain-aws/langchain-aws-01.yaml.gz");
    let stream = assembled(&langchain[0], Shape::Bedrock);
    assert_eq!(stream.events, 15);
    assert_eq!(
        calls(&stream),
        [call(
            "get_weather",
            json!({"location": "San Francisco, CA"})
        )]
    );
    assert!(matches!(
        assemble(&langchain[1], None),
        Err(StreamProblem::Unrecognized(_))
    ));

    // Decoded events, one per line: reasoning text joined, its signature kept.
    let reasoning = assembled(
        &real("vercel-fixtures/vercel-ai-04.chunks.txt")[0],
        Shape::Bedrock,
    );
    assert_eq!(reasoning.events, 26);
    let block = &reasoning.response["output"]["message"]["content"][0]["reasoningContent"];
    assert!(
        block["reasoningText"]["text"].as_str().unwrap().len() > 20,
        "{block}"
    );
}

#[test]
fn a_bedrock_frame_with_a_bad_checksum_or_cut_short_is_reported() {
    let bodies = real("vcrpy-stream/otel-contrib-02.yaml");
    if bodies.is_empty() {
        return;
    }
    let mut body = bodies[0].clone();
    // A byte inside the second frame's payload.
    let first = u32::from_be_bytes(body[..4].try_into().unwrap()) as usize;
    body[first + 100] ^= 0x20;
    let problem = assemble(&body, None).unwrap_err();
    assert!(
        matches!(
            problem,
            StreamProblem::BadChecksum {
                frame: 1,
                which: "message",
                ..
            }
        ),
        "{problem}"
    );
    let cut = &bodies[0][..bodies[0].len() - 10];
    let problem = assemble(cut, None).unwrap_err();
    assert!(
        matches!(problem, StreamProblem::CutFrame { frame: 66, .. }),
        "{problem}"
    );
    // Whole frames, but not the last ones: no messageStop.
    let frames = partkit::assemble::frames(&bodies[0]).unwrap();
    let problem = assemble(&bodies[0][..frames[40].offset], None).unwrap_err();
    assert!(
        matches!(
            problem,
            StreamProblem::Unfinished {
                expected: "messageStop",
                events: 40
            }
        ),
        "{problem}"
    );
}

#[test]
fn an_invoke_agent_stream_is_framed_but_no_shape_s() {
    let bodies = real("har/openinference-01.har");
    if bodies.is_empty() {
        return;
    }
    let events = partkit::assemble::parse(&bodies[0]).unwrap();
    assert_eq!(events.framing, Framing::EventStream);
    assert_eq!(events.events.len(), 1);
    assert_eq!(events.events[0].name.as_deref(), Some("chunk"));
    assert!(matches!(
        assemble(&bodies[0], None),
        Err(StreamProblem::Unrecognized(_))
    ));
}

#[test]
fn mcp_answers_assemble() {
    let bodies = real("mcp/chatlas-01.yaml");
    if bodies.is_empty() {
        return;
    }
    // 8 interactions: 404, initialize, 202, tools/list, Responses, tools/call,
    // Responses, session DELETE.
    assert_eq!(bodies.len(), 8);
    let result = assembled(&bodies[5], Shape::Mcp);
    assert_eq!(
        result.response["result"]["content"][0]["text"],
        "2024-01-01"
    );
    let tools = assemble(&bodies[3], None).unwrap();
    assert_eq!(tools.shape, Shape::Mcp);
    assert_eq!(
        tools.response["result"]["tools"][0]["name"],
        "get_current_date"
    );
    let responses = assembled(&bodies[4], Shape::OpenaiResponses);
    assert_eq!(calls(&responses), [call("get_current_date", json!({}))]);
    assert_eq!(
        text(&assembled(&bodies[6], Shape::OpenaiResponses)),
        "2024-01-01"
    );
}

/// An SSE body from (event, data) pairs.
fn sse(events: &[(&str, Value)]) -> Vec<u8> {
    let mut out = String::new();
    for (name, data) in events {
        out.push_str(&format!("event: {name}\ndata: {data}\n\n"));
    }
    out.into_bytes()
}

fn anthropic_events() -> Vec<(&'static str, Value)> {
    vec![
        (
            "message_start",
            json!({"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude", "content": [], "stop_reason": null, "usage": {"input_tokens": 5, "output_tokens": 1}}}),
        ),
        (
            "content_block_start",
            json!({"type": "content_block_start", "index": 0, "content_block": {"type": "thinking", "thinking": ""}}),
        ),
        (
            "content_block_delta",
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "Let me "}}),
        ),
        (
            "content_block_delta",
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "think."}}),
        ),
        (
            "content_block_delta",
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "signature_delta", "signature": "c2ln"}}),
        ),
        (
            "content_block_stop",
            json!({"type": "content_block_stop", "index": 0}),
        ),
        (
            "content_block_start",
            json!({"type": "content_block_start", "index": 1, "content_block": {"type": "tool_use", "id": "toolu_1", "name": "lookup", "input": {}}}),
        ),
        (
            "message_delta",
            json!({"type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": null}, "usage": {"output_tokens": 30}}),
        ),
        ("message_stop", json!({"type": "message_stop"})),
    ]
}

#[test]
fn a_tool_call_whose_arguments_arrive_in_many_fragments() {
    let arguments = r#"{"query": "caf\u00e9 \"quoted\"", "limit": 10, "tags": ["a", "b"]}"#;
    let mut events = anthropic_events();
    let at = 7;
    for (offset, piece) in arguments.chars().enumerate() {
        events.insert(at + offset, ("content_block_delta", json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": piece.to_string()}})));
    }
    events.insert(
        at + arguments.chars().count(),
        (
            "content_block_stop",
            json!({"type": "content_block_stop", "index": 1}),
        ),
    );
    let anthropic = assembled(&sse(&events), Shape::Anthropic);
    let expected = json!({"query": "café \"quoted\"", "limit": 10, "tags": ["a", "b"]});
    assert_eq!(calls(&anthropic), [call("lookup", expected.clone())]);
    let thinking = &anthropic.response["content"][0];
    assert_eq!(
        (
            thinking["thinking"].as_str(),
            thinking["signature"].as_str()
        ),
        (Some("Let me think."), Some("c2ln"))
    );
    assert_eq!(
        anthropic.response["usage"],
        json!({"input_tokens": 5, "output_tokens": 30})
    );

    // The same arguments in OpenAI Chat deltas, three bytes at a time.
    let mut body = String::new();
    let chunk = |delta: Value, finish: Value| {
        format!(
            "data: {}\n\n",
            json!({"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "gpt", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
        )
    };
    body.push_str(&chunk(json!({"role": "assistant", "tool_calls": [{"index": 0, "id": "call_1", "type": "function", "function": {"name": "lookup", "arguments": ""}}]}), Value::Null));
    let characters: Vec<char> = arguments.chars().collect();
    for piece in characters.chunks(3) {
        let piece: String = piece.iter().collect();
        body.push_str(&chunk(
            json!({"tool_calls": [{"index": 0, "function": {"arguments": piece}}]}),
            Value::Null,
        ));
    }
    body.push_str(&chunk(json!({}), json!("tool_calls")));
    body.push_str("data: [DONE]\n\n");
    let chat = assembled(body.as_bytes(), Shape::OpenaiChat);
    assert_eq!(calls(&chat), [call("lookup", expected)]);
}

#[test]
fn a_stream_cut_short_is_reported() {
    let events = anthropic_events();
    let problem = assemble(&sse(&events[..events.len() - 1]), None).unwrap_err();
    assert_eq!(
        problem,
        StreamProblem::Unfinished {
            expected: "message_stop",
            events: 8
        }
    );
    assert_eq!(
        problem.to_string(),
        "the stream is cut short: 8 events, and no message_stop"
    );

    let chat = "data: {\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"},\"finish_reason\":null}]}\n\n";
    assert!(matches!(
        assemble(chat.as_bytes(), None),
        Err(StreamProblem::Unfinished { .. })
    ));

    let responses = sse(&[(
        "response.created",
        json!({"type": "response.created", "response": {"id": "r", "output": []}}),
    )]);
    assert!(matches!(
        assemble(&responses, None),
        Err(StreamProblem::Unfinished {
            expected: "response.completed",
            ..
        })
    ));

    let gemini = b"[{\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"Hel\"}], \"role\": \"model\"}}]}\n,\r\n{\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"lo\"}]";
    assert!(matches!(
        assemble(gemini, None),
        Err(StreamProblem::BadJson { .. })
    ));
    let unfinished = b"data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"Hel\"}], \"role\": \"model\"}}]}\r\n\r\n";
    assert!(matches!(
        assemble(unfinished, None),
        Err(StreamProblem::Unfinished {
            expected: "finishReason",
            ..
        })
    ));

    let mcp = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}\n\n";
    assert!(matches!(
        assemble(mcp.as_bytes(), None),
        Err(StreamProblem::Unfinished { .. })
    ));

    // The service's own error, in the stream.
    let mut failed = anthropic_events();
    failed.insert(3, ("error", json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}})));
    assert_eq!(
        assemble(&sse(&failed), None).unwrap_err(),
        StreamProblem::Failed {
            event: 3,
            message: "Overloaded".into()
        }
    );
}

#[test]
fn an_event_of_an_unknown_type_is_left_out_with_a_note() {
    let mut events = anthropic_events();
    events.insert(2, ("ping", json!({"type": "ping"})));
    events.insert(3, ("future_event", json!({"type": "future_event", "x": 1})));
    events.insert(4, ("content_block_delta", json!({"type": "content_block_delta", "index": 0, "delta": {"type": "future_delta", "x": 1}})));
    let anthropic = assemble(&sse(&events), None).unwrap();
    assert_eq!(
        anthropic.notes,
        [
            "event 3: unknown type `future_event`, left out",
            "event 4: unknown delta type `future_delta`, left out",
        ]
    );
    assert_eq!(
        anthropic.response["content"][0]["thinking"],
        "Let me think."
    );

    let mut bedrock = String::new();
    for line in [
        json!({"messageStart": {"role": "assistant"}}),
        json!({"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"text": "Hi"}}}),
        json!({"somethingNew": {"x": 1}}),
        json!({"contentBlockStop": {"contentBlockIndex": 0}}),
        json!({"messageStop": {"stopReason": "end_turn"}}),
    ] {
        bedrock.push_str(&format!("{line}\n"));
    }
    let bedrock = assembled(bedrock.as_bytes(), Shape::Bedrock);
    assert_eq!(bedrock.notes, ["event 2: no type, left out"]);
    assert_eq!(text(&bedrock), "Hi");
}

#[test]
fn legacy_function_calls_and_items_without_a_completed_output() {
    let chunk = |delta: Value, finish: Value| {
        format!(
            "data: {}\n\n",
            json!({"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "gpt",
                   "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
        )
    };
    let body = [
        chunk(json!({"role": "assistant", "content": null, "function_call": {"name": "lookup", "arguments": ""}}), Value::Null),
        chunk(json!({"function_call": {"arguments": "{\"q\": "}}), Value::Null),
        chunk(json!({"function_call": {"arguments": "1}"}}), Value::Null),
        chunk(json!({}), json!("function_call")),
    ]
    .concat();
    let chat = assemble(body.as_bytes(), None).unwrap();
    assert_eq!(
        chat.response["choices"][0]["message"]["function_call"],
        json!({"name": "lookup", "arguments": "{\"q\": 1}"})
    );

    // A `response.completed` whose output is empty: the done items fill it.
    let item = json!({"type": "message", "id": "m1", "role": "assistant", "status": "completed",
                      "content": [{"type": "output_text", "text": "Hi", "annotations": []}]});
    let responses = sse(&[
        (
            "response.created",
            json!({"type": "response.created", "response": {"id": "r", "object": "response", "output": []}}),
        ),
        (
            "response.output_item.done",
            json!({"type": "response.output_item.done", "output_index": 0, "item": item}),
        ),
        (
            "response.completed",
            json!({"type": "response.completed", "response": {"id": "r", "object": "response", "status": "completed", "output": []}}),
        ),
    ]);
    let assembled = assembled(&responses, Shape::OpenaiResponses);
    assert_eq!(assembled.response["output"], json!([item]));
    assert_eq!(text(&assembled), "Hi");
}
