//! `partkit validate` on transcripts (docs/commands/validate.md): the media rules inside
//! transcripts, `--fix` and `--profile`.

use std::fs;

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use serde_json::{json, Value};

use super::support::findings::*;
use super::support::media::*;
use super::support::shapes::*;
use super::support::validating::*;
use super::{path_arg, temp_file};

// ---------------------------------------------------------------------------
// Media rules inside transcripts, --fix, --profile

// Long: one document per shape, each with its expected findings.
#[test]
fn media_rules_apply_inside_transcripts() {
    let jpeg_as = |mime: &str| json!({"type": "image", "source": {"type": "base64", "media_type": mime, "data": b64("tiny.jpg")}});
    check(vec![
        case(
            "anthropic: a JPEG labelled PNG inside a tool_result (litellm#24900)",
            &[],
            anthropic(json!([anthropic_user("Screenshot, please."),
                anthropic_blocks("assistant", vec![anthropic_call("toolu_1", "screenshot", json!({}))]),
                anthropic_blocks("user", vec![json!({"type": "tool_result", "tool_use_id": "toolu_1",
                    "content": [text("Screen:"), jpeg_as("image/png")]})])])),
            &[("media-type-mismatch", "/messages/2/content/0/content/1", "content is image/jpeg, not image/png")],
        )
        .images(1),
        case(
            "bedrock: an image whose format token disagrees with the bytes",
            &[],
            bedrock(json!([bedrock_blocks("user", vec![json!({"text": "Look."}),
                json!({"image": {"format": "jpeg", "source": {"bytes": b64("tiny.png")}}})])])),
            &[("media-type-mismatch", "/messages/0/content/1/image", "content is image/png, not image/jpeg")],
        )
        .images(1),
        case(
            "openai-responses: a JPEG labelled PNG in a function_call_output",
            &[],
            responses(json!([responses_user("Screenshot."), responses_call("call_1", "screenshot", "{}"),
                {"type": "function_call_output", "call_id": "call_1", "output": [
                    {"type": "input_image", "image_url": data_url("image/png", "tiny.jpg")}]}])),
            &[("media-type-mismatch", "/input/2/output/0", "content is image/jpeg, not image/png")],
        )
        .images(1),
        case(
            "openai-chat: a truncated base64 payload in a user image",
            &[],
            chat(json!([{"role": "user", "content": [text("Look."),
                {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo!"}}]}])),
            &[("base64-invalid", "/messages/0/content/1",
               "invalid base64: character '!' at offset 11")],
        )
        .images(1),
    ]);
    // An alias in a media_type is a warning (fixable); a Bedrock format token
    // (`jpeg`) is no media type and never an alias.
    let doc = anthropic(json!([anthropic_blocks(
        "user",
        vec![text("Look."), jpeg_as("image/jpg")]
    )]));
    let run = validate(&[], &doc.to_string());
    assert_run(
        &run,
        0,
        &[finding(
            "<stdin>",
            1,
            "media-type-alias",
            "/messages/0/content/1",
            "\"image/jpg\" is written \"image/jpeg\" in normalized form",
        )
        .replace("error[", "warning[")],
        "partkit: checked 1 document, 1 image in T s: 0 errors, 1 warning\n",
    );
    let doc = bedrock(json!([bedrock_blocks(
        "user",
        vec![
            json!({"text": "Look."}),
            json!({"image": {"format": "jpeg", "source": {"bytes": b64("tiny.jpg")}}}),
            json!({"image": {"format": "png", "source": {"bytes": b64("tiny.png")}}}),
            json!({"image": {"format": "gif", "source": {"bytes": b64("tiny.gif")}}}),
            json!({"image": {"format": "webp", "source": {"bytes": b64("tiny.webp")}}})
        ]
    )]));
    let run = validate(&["--deny-warnings", "--deep"], &doc.to_string());
    assert_clean(&run, 4);
}

/// The OpenAI Chat transcript of the `--fix` test, pretty-printed, with escapes
/// and non-ASCII text around the mislabeled data URL.
fn chat_to_fix() -> String {
    let doc = chat_with_tools(
        json!([chat_tool("screenshot", None)]),
        json!([
            {"role": "system", "content": "Réponds \"brièvement\" — \u{1F600}\ttab"},
            {"role": "user", "content": [text("What is on screen?")]},
            chat_calls(vec![chat_call("call_1", "screenshot", "{}")]),
            chat_result("call_1", "[tool returned media; see the next user message]"),
            {"role": "user", "content": [text("Output of tool screenshot (call_1):"),
                {"type": "image_url", "image_url": {"url": data_url("image/png", "tiny.jpg"), "detail": "high"}}]}
        ]),
    );
    serde_json::to_string_pretty(&doc).unwrap() + "\n"
}

#[test]
fn fix_repairs_a_mislabeled_data_url_inside_an_openai_chat_transcript() {
    let original = chat_to_fix();
    let (_dir, file) = temp_file("chat.json", original.as_bytes());
    let path = path_arg(&file).to_string();
    let run = validate_paths(&["--fix", &path]);
    assert_run(
        &run,
        0,
        &[format!("{path}:1: fixed[media-type-mismatch] /messages/4/content/1: content is image/jpeg, not image/png")],
        "partkit: checked 1 document, 1 image in T s: 0 errors, 1 fixed\n",
    );
    // Exactly the declared type changed; every other byte is as it was.
    let fixed = fs::read_to_string(&file).unwrap();
    let wrong = format!("\"url\": \"data:image/png;base64,{}", b64("tiny.jpg"));
    assert_eq!(original.matches(&wrong).count(), 1);
    assert_eq!(
        fixed,
        original.replace(&wrong, &wrong.replace("image/png", "image/jpeg"))
    );
    // Fixed once, clean after.
    let run = validate_paths(&["--fix", &path, "--deny-warnings"]);
    assert_run(&run, 0, &[], &summary(1, 1, 0));
    assert_eq!(fs::read_to_string(&file).unwrap(), fixed);
}

#[test]
fn fix_leaves_what_has_no_single_answer() {
    // A Bedrock format token that disagrees with the bytes, and a tool image in
    // an OpenAI Chat tool message: reported, never rewritten.
    let bedrock_doc = bedrock(json!([bedrock_blocks(
        "user",
        vec![
            json!({"text": "Look."}),
            json!({"image": {"format": "jpeg", "source": {"bytes": b64("tiny.png")}}})
        ]
    )]));
    let chat_doc = chat(
        json!([chat_user("Screenshot."), chat_calls(vec![chat_call("call_1", "screenshot", "{}")]),
        {"role": "tool", "tool_call_id": "call_1", "content": [chat_image()]}]),
    );
    for (doc, line) in [
        (bedrock_doc, "error[media-type-mismatch] /messages/0/content/1/image: content is image/png, not image/jpeg"),
        (chat_doc, "error[media-placement] /messages/2/content/0: an image_url part in a tool message: Chat Completions carries media only in user messages (deliver tool media in a following user message)"),
    ] {
        let text = serde_json::to_string_pretty(&doc).unwrap();
        let (_dir, file) = temp_file("doc.json", text.as_bytes());
        let path = path_arg(&file).to_string();
        // (The bodies declare no tools: tool-undeclared is not the point here.)
        let run = validate_paths(&["--fix", "--ignore", "tool-undeclared", &path]);
        assert_run(&run, 1, &[format!("{path}:1: {line}")], &summary(1, 1, 1));
        assert_eq!(fs::read_to_string(&file).unwrap(), text);
    }
}

#[test]
fn profile_anthropic_past_20_images_limits_each_to_2000_px() {
    // 21 images in one Anthropic request, one of them 2001 px wide: over the
    // 2000 px that Anthropic allows per side once a request holds more than 20.
    let image = |bytes: &[u8]| json!({"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": STANDARD.encode(bytes)}});
    let wide = png_of(2001, 2);
    let mut blocks: Vec<Value> = (0..20).map(|_| image(&bytes("tiny.png"))).collect();
    blocks.insert(7, image(&wide));
    let doc = anthropic(
        json!([anthropic_blocks("user", vec![text("Compare these screenshots.")]),
        {"role": "assistant", "content": "Which ones?"},
        anthropic_blocks("user", blocks)]),
    );
    let run = validate(&["--profile", "anthropic"], &doc.to_string());
    assert_run(
        &run,
        1,
        &[stdin_error("limit-dim", "/messages/2/content/7",
            "2001x2 px, over 2000 px on its longest side, the anthropic limit once a document holds more than 20 images (21)")],
        &summary(1, 21, 1),
    );
    // Without the profile, or with 20 images, nothing.
    let run = validate(&[], &doc.to_string());
    assert_clean(&run, 21);
    let mut twenty = doc.clone();
    twenty["messages"][2]["content"]
        .as_array_mut()
        .unwrap()
        .remove(0);
    let run = validate(&["--profile", "anthropic"], &twenty.to_string());
    assert_clean(&run, 20);
}

#[test]
fn profile_anthropic_catches_an_8000_px_screenshot_in_a_tool_result() {
    // anthropics/claude-code#5147: one oversized tool image poisons every later turn.
    let shot = png_of(8001, 1);
    let doc = anthropic(json!([
        anthropic_user("Take a screenshot."),
        anthropic_blocks(
            "assistant",
            vec![anthropic_call("toolu_1", "screenshot", json!({}))]
        ),
        anthropic_blocks(
            "user",
            vec![
                json!({"type": "tool_result", "tool_use_id": "toolu_1", "content": [
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": STANDARD.encode(&shot)}}]}),
                text("What does it show?")
            ]
        )
    ]));
    let run = validate(
        &["--profile", "anthropic", "--ignore", "tool-undeclared"],
        &doc.to_string(),
    );
    assert_run(
        &run,
        1,
        &[stdin_error(
            "limit-dim",
            "/messages/2/content/0/content/0",
            "8001x1 px, over 8000 px on its longest side",
        )],
        &summary(1, 1, 1),
    );
}

#[test]
fn a_data_url_pasted_into_text_is_a_warning_in_transcripts() {
    let pasted = format!("Here it is: {}", data_url("image/png", "tiny.png"));
    let doc = chat(
        json!([{"role": "user", "content": [text(&pasted)]}, {"role": "assistant", "content": "I see text."}]),
    );
    let run = validate(&["--from", "openai-chat"], &doc.to_string());
    assert_run(
        &run,
        0,
        &[format!("<stdin>:1: warning[base64-in-text] /messages/0/content/0/text: text holds a base64 data: URL (image/png, {} characters): the model reads it as text, not as media", b64("tiny.png").len())],
        "partkit: checked 1 document, 0 images in T s: 0 errors, 1 warning\n",
    );
}

#[test]
fn a_tool_result_flattened_to_a_data_url_string_is_a_warning() {
    let doc = chat(
        json!([chat_user("Screenshot."), chat_calls(vec![chat_call("call_1", "screenshot", "{}")]),
        chat_result("call_1", &data_url("image/png", "tiny.png")), {"role": "assistant", "content": "I see text."}]),
    );
    let run = validate(&["--ignore", "tool-undeclared"], &doc.to_string());
    assert_run(
        &run,
        0,
        &[format!("<stdin>:1: warning[base64-in-text] /messages/2/content: text holds a base64 data: URL (image/png, {} characters): the model reads it as text, not as media", b64("tiny.png").len())],
        "partkit: checked 1 document, 0 images in T s: 0 errors, 1 warning\n",
    );
}

#[test]
fn a_wrong_image_label_is_a_warning_where_the_provider_reads_the_bytes() {
    // Gemini took a JPEG labelled PNG (docs/acceptance.md); Anthropic refuses
    // one. --fix writes the sniffed type either way.
    let doc = gemini(json!([
        gemini_user("Screenshot."),
        gemini_parts(
            "model",
            vec![gemini_call(Some("call_1"), "screenshot", json!({}))]
        ),
        gemini_parts(
            "user",
            vec![
                json!({"functionResponse": {"id": "call_1", "name": "screenshot", "response": {"output": "ok"},
            "parts": [{"inlineData": {"mimeType": "image/png", "data": b64("tiny.jpg")}}]}})
            ]
        )
    ]));
    let run = crate::run_with_stdin(
        &["validate", "--ignore", "tool-undeclared"],
        doc.to_string().as_bytes(),
    );
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (0, "<stdin>:1: warning[media-type-mismatch] /contents/2/parts/0/functionResponse/parts/0: content is image/jpeg, not image/png\n")
    );
    // Converted for a provider that refuses a wrong label, the image is
    // written with its bytes' type, and the conversion says so; the output
    // validates there. Gemini itself keeps what was written.
    let converted = crate::run_with_stdin(
        &["convert", "--from", "gemini", "--to", "anthropic"],
        doc.to_string().as_bytes(),
    );
    assert!(converted.stderr.contains("partkit: warning: wrote images with the type of their bytes (image/png holding image/jpeg): anthropic refuses a declared type the bytes do not have"), "{}", converted.stderr);
    assert!(
        converted.stdout.contains("\"media_type\":\"image/jpeg\""),
        "{}",
        converted.stdout
    );
    let run = crate::run_with_stdin(
        &["validate", "--from", "anthropic"],
        converted.stdout.as_bytes(),
    );
    assert_eq!((run.code, run.stdout.as_str()), (0, ""), "{}", run.stderr);
    let back = crate::run_with_stdin(
        &["convert", "--from", "gemini", "--to", "gemini", "--compact"],
        doc.to_string().as_bytes(),
    );
    assert_eq!(back.json(), doc);
}
