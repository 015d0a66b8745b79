//! `partkit validate` on transcripts (docs/commands/validate.md): the rules on what messages
//! hold (media-placement, text-empty, content-empty), per shape.

use serde_json::{json, Value};

use super::support::findings::*;
use super::support::media::*;
use super::support::shapes::*;

// Long: a table of cases, one or more per shape.
#[test]
fn rule_media_placement() {
    const CHAT_TAIL: &str = "Chat Completions carries media only in user messages (deliver tool media in a following user message)";
    let chat_message = |role: &str, parts: Vec<Value>| json!({"role": role, "content": parts});
    let call = || chat_calls(vec![chat_call("call_1", "screenshot", "{}")]);
    let wav = || json!({"type": "input_audio", "input_audio": {"data": b64("tone.wav"), "format": "wav"}});
    check(vec![
        case(
            "openai-chat: an image in a tool message (message 234 of OpenHands#7700)",
            &[],
            chat(json!([chat_user("Screenshot, please."), call(),
                        {"role": "tool", "tool_call_id": "call_1", "content": [chat_image()]}])),
            &[("media-placement", "/messages/2/content/0",
               &format!("an image_url part in a tool message: {CHAT_TAIL}"))],
        )
        .images(1),
        case(
            "openai-chat: an image in an assistant message",
            &[],
            chat(json!([chat_user("Draw."), chat_message("assistant", vec![chat_image()])])),
            &[("media-placement", "/messages/1/content/0",
               &format!("an image_url part in an assistant message: {CHAT_TAIL}"))],
        )
        .images(1),
        case(
            "openai-chat: an image in a system message",
            &[],
            chat(json!([chat_message("system", vec![chat_image()]), chat_user("Hi.")])),
            &[("media-placement", "/messages/0/content/0",
               &format!("an image_url part in a system message: {CHAT_TAIL}"))],
        )
        .images(1),
        case(
            "openai-chat: audio in a tool message",
            &[],
            chat(json!([chat_user("Record."), call(),
                        {"role": "tool", "tool_call_id": "call_1", "content": [wav()]}])),
            &[("media-placement", "/messages/2/content/0",
               &format!("an input_audio part in a tool message: {CHAT_TAIL}"))],
        ),
        case(
            "openai-responses: audio in a message",
            // A Chat audio block in a Responses body: named, so that detection
            // does not weigh the mix (its note is tested in detection.rs).
            &["--from", "openai-responses"],
            responses(json!([{"role": "user", "content": [{"type": "input_text", "text": "Transcribe."}, wav()]}])),
            &[("media-placement", "/input/0/content/1", "Responses input has no audio parts")],
        ),
        case(
            "openai-responses: audio in a function_call_output",
            &[],
            responses(json!([responses_user("Record."), responses_call("call_1", "record", "{}"),
                             {"type": "function_call_output", "call_id": "call_1", "output": [wav()]}])),
            &[("media-placement", "/input/2/output/0", "Responses input has no audio parts")],
        ),
        case(
            "anthropic: audio in a user message",
            &[],
            anthropic(json!([anthropic_blocks("user", vec![text("Transcribe."),
                anthropic_media("audio", "audio/wav", "tone.wav")])])),
            &[("media-placement", "/messages/0/content/1", "Anthropic has no audio blocks")],
        ),
        case(
            "anthropic: audio in a tool_result",
            &[],
            anthropic(json!([anthropic_user("Record."),
                anthropic_blocks("assistant", vec![anthropic_call("toolu_1", "record", json!({}))]),
                anthropic_blocks("user", vec![json!({"type": "tool_result", "tool_use_id": "toolu_1",
                    "content": [anthropic_media("audio", "audio/wav", "tone.wav")]})])])),
            &[("media-placement", "/messages/2/content/0/content/0", "Anthropic has no audio blocks")],
        ),
        case(
            "anthropic: an image in an assistant message",
            &[],
            anthropic(json!([anthropic_user("Draw."),
                anthropic_blocks("assistant", vec![anthropic_media("image", "image/png", "tiny.png")])])),
            &[("media-placement", "/messages/1/content/0",
               "an image block in an assistant message: Anthropic carries images only in user messages and tool results")],
        )
        .images(1),
        case(
            "anthropic: an image in the system prompt",
            &["--from", "anthropic"],
            json!({"model": "claude-sonnet-4-5", "max_tokens": 1024,
                   "system": [anthropic_media("image", "image/png", "tiny.png")],
                   "messages": [anthropic_user("Hi.")]}),
            &[("media-placement", "/system/0",
               "an image block in a system message: Anthropic carries images only in user messages and tool results")],
        )
        .images(1),
        case(
            "bedrock: audio in a toolResult",
            &[],
            bedrock(json!([bedrock_user("Record."),
                bedrock_blocks("assistant", vec![bedrock_call("tooluse_1", "record", json!({}))]),
                bedrock_blocks("user", vec![json!({"toolResult": {"toolUseId": "tooluse_1", "content": [
                    {"audio": {"format": "wav", "source": {"bytes": b64("tone.wav")}}}]}})])])),
            &[("media-placement", "/messages/2/content/0/toolResult/content/0", "a toolResult cannot carry audio")],
        ),
        case(
            "bedrock: an image in an assistant message",
            &[],
            bedrock(json!([bedrock_user("Draw."), bedrock_blocks("assistant", vec![
                json!({"image": {"format": "png", "source": {"bytes": b64("tiny.png")}}})])])),
            &[("media-placement", "/messages/1/content/0", "images are allowed only in user messages")],
        )
        .images(1),
        // Where the shape carries them, the same media fire nothing.
        case(
            "openai-chat: the image in a following user message instead",
            &[],
            chat(json!([chat_user("Screenshot, please."), call(), chat_result("call_1", "[tool returned media; see the next user message]"),
                        chat_message("user", vec![text("Output of tool screenshot (call_1):"), chat_image()])])),
            &[],
        )
        .images(1),
        case(
            "openai-chat: audio in a user message",
            &[],
            chat(json!([chat_message("user", vec![text("Transcribe."), wav()])])),
            &[],
        ),
        case(
            "gemini: audio in a user Content",
            &[],
            gemini(json!([gemini_parts("user", vec![json!({"text": "Transcribe."}),
                json!({"inlineData": {"mimeType": "audio/wav", "data": b64("tone.wav")}})])])),
            &[],
        ),
        case(
            "bedrock: audio in a user message",
            &[],
            bedrock(json!([bedrock_blocks("user", vec![json!({"text": "Transcribe."}),
                json!({"audio": {"format": "wav", "source": {"bytes": b64("tone.wav")}}})])])),
            &[],
        ),
        case(
            "canonical: audio anywhere",
            &["--from", "canonical"],
            canonical(json!([canonical_blocks("user", vec![text("Transcribe."),
                json!({"type": "audio", "mimeType": "audio/wav", "data": b64("tone.wav")})])])),
            &[],
        ),
    ]);
}

// Long: a table of cases, one or more per shape.
#[test]
fn rule_text_empty() {
    const ANTHROPIC: &str = "Anthropic refuses text blocks without non-whitespace text";
    check(vec![
        case(
            "anthropic: an empty text block",
            &[],
            anthropic(json!([anthropic_blocks("user", vec![text("")])])),
            &[("text-empty", "/messages/0/content/0", ANTHROPIC)],
        ),
        case(
            "anthropic: a whitespace-only text block beside text (accepted)",
            &[],
            anthropic(json!([anthropic_blocks(
                "user",
                vec![text("Look:"), text(" \n\t")]
            )])),
            &[],
        ),
        case(
            "anthropic: a whitespace-only text block alone",
            &[],
            anthropic(json!([anthropic_blocks("user", vec![text(" \n\t")])])),
            &[("text-empty", "/messages/0/content/0", ANTHROPIC)],
        ),
        case(
            "anthropic: an empty text block in a tool_result",
            &[],
            anthropic(json!([
                anthropic_user("Go."),
                anthropic_blocks(
                    "assistant",
                    vec![anthropic_call("toolu_1", "shot", json!({}))]
                ),
                anthropic_blocks(
                    "user",
                    vec![json!({"type": "tool_result", "tool_use_id": "toolu_1",
                    "content": [text(""), anthropic_media("image", "image/png", "tiny.png")]})]
                )
            ])),
            &[("text-empty", "/messages/2/content/0/content/0", ANTHROPIC)],
        )
        .images(1),
        case(
            "anthropic: an empty text block in the system prompt",
            &["--from", "anthropic"],
            json!({"model": "claude-sonnet-4-5", "max_tokens": 1024, "system": [text("")],
                   "messages": [anthropic_user("Hi.")]}),
            &[("text-empty", "/system/0", ANTHROPIC)],
        ),
        case(
            "anthropic: a whitespace-only string content",
            &[],
            anthropic(json!([anthropic_user("  ")])),
            &[(
                "text-empty",
                "/messages/0/content",
                "Anthropic refuses messages whose text has no non-whitespace character",
            )],
        ),
        case(
            "anthropic: an empty text block in a response",
            &[],
            json!({"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
                   "content": [text("")], "stop_reason": "end_turn"}),
            &[("text-empty", "/content/0", ANTHROPIC)],
        ),
        case(
            "bedrock: an empty text block",
            &[],
            bedrock(json!([bedrock_blocks("user", vec![json!({"text": ""})])])),
            &[(
                "text-empty",
                "/messages/0/content/0",
                "Converse refuses blank text blocks",
            )],
        ),
        case(
            "bedrock: a whitespace-only text block in a toolResult",
            &[],
            bedrock(json!([
                bedrock_user("Go."),
                bedrock_blocks(
                    "assistant",
                    vec![bedrock_call("tooluse_1", "shot", json!({}))]
                ),
                bedrock_blocks("user", vec![bedrock_result("tooluse_1", " ")])
            ])),
            &[(
                "text-empty",
                "/messages/2/content/0/toolResult/content/0",
                "Converse refuses blank text blocks",
            )],
        ),
        // An empty final assistant message (a prefill) is allowed; so is
        // empty text where the shape takes it.
        case(
            "anthropic: an empty final assistant message",
            &[],
            anthropic(json!([anthropic_user("Hi."), {"role": "assistant", "content": ""}])),
            &[],
        ),
        case(
            "openai-chat: an empty text part",
            &["--from", "openai-chat"],
            chat(json!([{"role": "user", "content": [text(""), text("Hi.")]}])),
            &[],
        ),
    ]);
}
