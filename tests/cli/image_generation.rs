//! Images the model made with the Responses image tool (`image_generation_call`
//! items) read as assistant images: the real vercel-ai-06 chunk fixture (read
//! at run time from `../shared/cassettes`, skipped when absent) converted to
//! every transcript shape, and a hand-written response holding a real PNG
//! converted, validated and inspected (docs/conversion.md, images the model
//! made).

use std::path::PathBuf;

use serde_json::{json, Value};

use crate::support::{fixture_b64, temp_file};
use crate::{path_arg, run, TRANSCRIPT_SHAPES};

fn vercel_ai_06() -> Option<PathBuf> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/cassettes/vercel-fixtures/vercel-ai-06.chunks.txt");
    path.exists().then_some(path)
}

/// The `image_generation_call` item of the fixture's completed response.
fn recorded_item(path: &PathBuf) -> Value {
    let text = std::fs::read_to_string(path).unwrap();
    let completed = text
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .find(|event| event["type"] == "response.completed")
        .expect("a response.completed event");
    completed["response"]["output"]
        .as_array()
        .unwrap()
        .iter()
        .find(|item| item["type"] == "image_generation_call")
        .expect("an image_generation_call item")
        .clone()
}

/// Every image of a written document as (media type, base64), wherever
/// `shape` puts it in an assistant turn.
fn images(shape: &str, document: &Value) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut walk = |value: &Value| collect(shape, value, &mut found);
    walk(document);
    found
}

fn collect(shape: &str, value: &Value, found: &mut Vec<(String, String)>) {
    let text = |v: &Value| v.as_str().unwrap_or_default().to_string();
    let image = match (shape, value) {
        ("canonical", v) if v["type"] == "image" => Some((text(&v["mimeType"]), text(&v["data"]))),
        ("openai-chat", v) if v["type"] == "image_url" => {
            let url = text(&v["image_url"]["url"]);
            let (header, data) = url.split_once(',').unwrap();
            let mime = header
                .trim_start_matches("data:")
                .trim_end_matches(";base64");
            Some((mime.to_string(), data.to_string()))
        }
        ("openai-responses", v) if v["type"] == "image_generation_call" => Some((
            format!("image/{}", v["output_format"].as_str().unwrap_or("png")),
            text(&v["result"]),
        )),
        ("anthropic", v) if v["type"] == "image" => {
            Some((text(&v["source"]["media_type"]), text(&v["source"]["data"])))
        }
        ("gemini", v) if v.get("inlineData").is_some() => Some((
            text(&v["inlineData"]["mimeType"]),
            text(&v["inlineData"]["data"]),
        )),
        ("bedrock", v) if v.get("image").is_some() => Some((
            format!("image/{}", text(&v["image"]["format"])),
            text(&v["image"]["source"]["bytes"]),
        )),
        _ => None,
    };
    if let Some(image) = image {
        found.push(image);
        return;
    }
    match value {
        Value::Array(items) => items.iter().for_each(|v| collect(shape, v, found)),
        Value::Object(map) => map.values().for_each(|v| collect(shape, v, found)),
        _ => {}
    }
}

#[test]
fn the_recorded_image_goes_to_every_shape() {
    let Some(path) = vercel_ai_06() else { return };
    let item = recorded_item(&path);
    let data = item["result"].as_str().unwrap().to_string();
    for shape in TRANSCRIPT_SHAPES {
        let out = run(&["convert", "--to", shape, path_arg(&path)]);
        assert_eq!(out.code, 0, "{shape}: {}", out.stderr);
        let written = out.json();
        assert_eq!(
            images(shape, &written),
            [("image/webp".to_string(), data.clone())],
            "{shape}"
        );
        // Said once, and no more than once.
        assert_eq!(out.stdout.matches(&data).count(), 1, "{shape}");
        let warning = format!(
            "{shape} has no place for openai-responses reasoning blocks, \
             openai-responses background, openai-responses quality, \
             openai-responses revised_prompt, openai-responses size; dropped"
        );
        match shape {
            // The canonical model keeps every member; Responses writes the
            // item back as it was read.
            "canonical" | "openai-responses" => {
                assert!(!out.stderr.contains("dropped"), "{shape}: {}", out.stderr)
            }
            _ => assert!(out.stderr.contains(&warning), "{shape}: {}", out.stderr),
        }
        if shape == "openai-responses" {
            let output = written["output"].as_array().unwrap();
            let kinds: Vec<&str> = output.iter().map(|i| i["type"].as_str().unwrap()).collect();
            assert_eq!(kinds, ["reasoning", "image_generation_call", "message"]);
            assert_eq!(output[1].to_string(), item.to_string());
        }
    }
}

#[test]
fn the_recorded_image_is_cut_short_and_validate_says_so() {
    let Some(path) = vercel_ai_06() else { return };
    let out = run(&["validate", path_arg(&path)]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stdout.contains(
            "error[base64-invalid] interaction 1 response /output/1/result: \
             invalid base64: character '.' at offset 230"
        ),
        "{}",
        out.stdout
    );
    assert!(
        out.stderr.contains("checked 1 document, 1 image in") && out.stderr.contains(": 1 error"),
        "{}",
        out.stderr
    );
}

/// A response as the Responses API writes one with the image tool, holding
/// the committed tiny PNG.
fn png_response() -> Value {
    json!({"id": "resp_1", "object": "response", "status": "completed", "model": "gpt-5",
    "output": [
        {"id": "rs_1", "type": "reasoning", "summary": []},
        {"id": "ig_1", "type": "image_generation_call", "status": "completed",
         "background": "opaque", "output_format": "png", "quality": "low",
         "result": fixture_b64("tiny.png"), "revised_prompt": "a tiny square",
         "size": "1024x1024"},
        {"type": "message", "id": "msg_1", "status": "completed", "role": "assistant",
         "content": [{"type": "output_text", "text": "Here it is.", "annotations": []}]}
    ]})
}

#[test]
fn a_png_the_model_made_becomes_gemini_inline_data() {
    let (_dir, path) = temp_file("made.json", png_response().to_string().as_bytes());
    let out = run(&["convert", "--to", "gemini", path_arg(&path)]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let content = &out.json()["candidates"][0]["content"];
    assert_eq!(content["role"], "model");
    assert_eq!(
        content["parts"],
        json!([
            {"inlineData": {"mimeType": "image/png", "data": fixture_b64("tiny.png")}},
            {"text": "Here it is."}
        ])
    );
    // And back from Gemini: an assistant image of another shape, which
    // Responses has no item for.
    let (_dir2, gemini) = temp_file("gemini.json", out.stdout.as_bytes());
    let back = run(&["convert", "--to", "openai-responses", path_arg(&gemini)]);
    assert_eq!(back.code, 1, "{}", back.stderr);
    assert!(
        back.stderr
            .contains("cannot be carried by openai-responses: assistant messages carry only text"),
        "{}",
        back.stderr
    );
}

#[test]
fn validate_and_inspect_find_the_made_image() {
    let (_dir, path) = temp_file("made.json", png_response().to_string().as_bytes());
    let out = run(&["validate", path_arg(&path)]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    assert!(
        out.stderr.contains("checked 1 document, 1 image in"),
        "{}",
        out.stderr
    );
    let out = run(&["inspect", "--format", "json", path_arg(&path)]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let rows = out.json_lines();
    assert_eq!(rows.len(), 1, "{}", out.stdout);
    assert_eq!(rows[0]["pointer"], "/output/1/result");
    assert_eq!(rows[0]["kind"], "openai-responses image_generation_call");
    assert_eq!(rows[0]["declared"], "image/png");
    assert_eq!(rows[0]["sniffed"], "image/png");
    assert_eq!(rows[0]["problems"], json!([]));
}

#[test]
fn an_input_list_item_is_found_and_comes_back() {
    let request = json!({"model": "gpt-5", "input": [
        {"role": "user", "content": "draw"},
        {"type": "image_generation_call", "id": "ig_1", "status": "completed",
         "result": fixture_b64("tiny.png")},
        {"id": "ig_2", "type": "image_generation_call", "status": "in_progress"},
        {"role": "user", "content": "smaller"}
    ]})
    .to_string();
    let (_dir, path) = temp_file("request.json", request.as_bytes());
    let out = run(&["inspect", "--format", "json", path_arg(&path)]);
    let rows = out.json_lines();
    assert_eq!(rows.len(), 1, "{}", out.stdout);
    assert_eq!(rows[0]["pointer"], "/input/1/result");
    // Read and written back byte for byte, the item still in progress too.
    let out = run(&["convert", "--to", "openai-responses", path_arg(&path)]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout.trim_end(), request);
}

#[test]
fn a_list_of_one_such_item_is_told_to_be_responses() {
    let list = json!([{"type": "image_generation_call", "id": "ig_1", "status": "completed",
                       "result": fixture_b64("tiny.png")}]);
    let (_dir, path) = temp_file("list.json", list.to_string().as_bytes());
    let out = run(&["convert", "--to", "canonical", path_arg(&path)]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    // A bare list in, a bare list of canonical messages out.
    let message = &out.json()[0];
    assert_eq!(message["role"], "assistant");
    assert_eq!(message["content"][0]["type"], "image");
    assert_eq!(
        message["content"][0]["extensions"]["openai-responses"]["$item"],
        "image_generation_call"
    );
}
