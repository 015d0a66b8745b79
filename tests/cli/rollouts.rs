//! NeMo Gym rollouts as a document kind of their own: recognized without
//! flags, validated as OpenAI Responses conversations at full pointers, their
//! media listed and resized in place, their conversation converted with every
//! other field of the line byte for byte.
//!
//! `tests/fixtures/rollouts/rollouts.jsonl` follows NeMo Gym's
//! `example_rollouts.jsonl` files field for field: an input_image rollout with
//! the call and its output in `response.output`; history with calls, outputs,
//! reasoning and an assistant message; a tool call written as text; a
//! text-only one with numbers a re-serializer would respell.

use std::path::Path;

use serde_json::{json, Value};

use super::{fixture, fixture_b64, path_arg, run, run_with_stdin, temp_file};

fn rollouts_path() -> String {
    fixture("rollouts/rollouts.jsonl").display().to_string()
}

fn rollout_lines() -> Vec<String> {
    std::fs::read_to_string(fixture("rollouts/rollouts.jsonl"))
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// The text of a line after its `responses_create_params` value (which is
/// always its first member in these files).
fn after_request(line: &str) -> &str {
    let start = line.find(r#","response":"#).expect("a response member");
    &line[start..]
}

/// Every block of `kind` anywhere in a value.
fn count_type(value: &Value, kind: &str) -> usize {
    match value {
        Value::Object(map) => {
            usize::from(map.get("type").and_then(Value::as_str) == Some(kind))
                + map.values().map(|v| count_type(v, kind)).sum::<usize>()
        }
        Value::Array(items) => items.iter().map(|v| count_type(v, kind)).sum(),
        _ => 0,
    }
}

#[test]
fn rollouts_validate_clean_without_flags() {
    let run = run(&["validate", &rollouts_path()]);
    assert_eq!((run.code, run.stdout.as_str()), (0, ""), "{}", run.stderr);
    assert!(
        run.stderr.contains("checked 4 documents, 3 images"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("skipped"), "{}", run.stderr);
}

#[test]
fn findings_in_a_rollout_point_into_the_request_or_the_response() {
    let png = fixture_b64("tiny.png");
    let line = json!({
        "responses_create_params": {"input": [
            {"role": "user", "type": "message", "content": [
                {"type": "input_image", "detail": "auto", "image_url": format!("data:image/jpeg;base64,{png}")},
                {"type": "input_text", "text": "click"}]}],
            "tools": [{"type": "function", "name": "click", "strict": true, "parameters": {
                "type": "object", "properties": {"x": {"type": "integer"}, "y": {"type": "integer"}},
                "required": ["x", "y"], "additionalProperties": false}}]},
        "response": {"id": "resp_1", "object": "response", "output": [
            {"type": "function_call", "call_id": "c1", "name": "click", "arguments": "{\"x\": [171, 156], \"y\": [149]}", "id": "c1", "status": "completed"},
            {"type": "function_call", "call_id": "c2", "name": "scroll", "arguments": "{}", "id": "c2", "status": "completed"}]},
        "reward": 0.0,
    });
    let run = run_with_stdin(
        &["validate", "--format", "json"],
        line.to_string().as_bytes(),
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    let found: Vec<(String, String)> = run
        .json_lines()
        .iter()
        .map(|f| {
            (
                f["rule"].as_str().unwrap().into(),
                f["pointer"].as_str().unwrap().into(),
            )
        })
        .collect();
    let expect = |rule: &str, pointer: &str| (rule.to_string(), pointer.to_string());
    assert!(
        found.contains(&expect(
            "media-type-mismatch",
            "/responses_create_params/input/0/content/0"
        )),
        "{found:?}"
    );
    assert!(
        found.contains(&expect("tool-arguments-schema", "/response/output/0")),
        "{found:?}"
    );
    assert!(
        found.contains(&expect("tool-undeclared", "/response/output/1")),
        "{found:?}"
    );
}

#[test]
fn fix_repairs_a_rollout_line_in_place_and_nothing_else() {
    let lines = rollout_lines();
    let broken = lines[0].replacen("data:image/png;", "data:image/jpeg;", 1);
    let text = format!("{broken}\n{}\n", lines[1]);
    let (_dir, file) = temp_file("rollouts.jsonl", text.as_bytes());
    let run = run(&["validate", "--fix", path_arg(&file)]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("fixed[media-type-mismatch] /responses_create_params/input/1/content/0:"),
        "{}",
        run.stdout
    );
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        format!("{}\n{}\n", lines[0], lines[1])
    );
}

#[test]
fn detection_never_takes_a_rollout_for_a_transcript() {
    // Top-level keys that other shapes use do not make a rollout anything else.
    let line = r#"{"responses_create_params":{"input":[{"role":"user","content":"hi"}]},"messages":[],"tools":[],"contents":[],"reward":1.0}"#;
    let run = run_with_stdin(&["validate"], line.as_bytes());
    assert_eq!((run.code, run.stdout.as_str()), (0, ""), "{}", run.stderr);
    assert!(run.stderr.contains("checked 1 document"), "{}", run.stderr);
    let converted = run_with_stdin(&["convert", "--to", "openai-chat", "-q"], line.as_bytes());
    assert_eq!(converted.code, 0, "{}", converted.stderr);
    assert_eq!(
        converted.json()["responses_create_params"]["messages"],
        json!([{"role": "user", "content": "hi"}])
    );
}

#[test]
fn kind_rollout_forces_it() {
    let not_one = r#"{"input":[{"role":"user","content":"hi"}]}"#;
    let run = run_with_stdin(&["validate", "--kind", "rollout"], not_one.as_bytes());
    assert_eq!(run.code, 1);
    assert!(
        run.stdout
            .contains("error[transcript-invalid]: not a NeMo Gym rollout"),
        "{}",
        run.stdout
    );
    let convert = run_with_stdin(
        &["convert", "--to", "anthropic", "--kind", "rollout"],
        not_one.as_bytes(),
    );
    assert_eq!(convert.code, 1);
    assert!(
        convert.stderr.contains("not a NeMo Gym rollout"),
        "{}",
        convert.stderr
    );
    // --kind transcript reads the line as a transcript of some shape: none.
    let rollout = &rollout_lines()[3];
    let transcript = run_with_stdin(
        &["convert", "--to", "anthropic", "--kind", "transcript"],
        rollout.as_bytes(),
    );
    assert_eq!(transcript.code, 1);
    assert!(
        transcript.stderr.contains("cannot tell which shape"),
        "{}",
        transcript.stderr
    );
}

#[test]
fn inspect_lists_rollout_media_at_full_pointers() {
    let run = run(&["inspect", "--format", "json", &rollouts_path()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let items: Vec<(u64, String, String)> = run
        .json_lines()
        .iter()
        .map(|i| {
            (
                i["line"].as_u64().unwrap(),
                i["pointer"].as_str().unwrap().into(),
                i["sniffed"].as_str().unwrap().into(),
            )
        })
        .collect();
    let pointer = "/responses_create_params/input/1/content/0".to_string();
    assert_eq!(
        items,
        [
            (1, pointer.clone(), "image/png".into()),
            (2, pointer.clone(), "image/jpeg".into()),
            (3, pointer, "image/png".into()),
        ]
    );
}

#[test]
fn resize_rewrites_rollout_images_in_place() {
    let run = run(&["resize", "--max-dim", "2", "-q", &rollouts_path()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines = rollout_lines();
    let out: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(out.len(), 4);
    for (before, after) in lines.iter().zip(&out) {
        // Only the image payload changes; the response, reward and ids stay.
        assert_eq!(after_request(before), after_request(after));
    }
    assert_eq!(out[3], lines[3], "no image, no change");
    assert_ne!(out[0], lines[0]);
    let check = run_with_stdin(&["validate", "--max-dim", "2"], run.stdout.as_bytes());
    assert_eq!(
        (check.code, check.stdout.as_str()),
        (0, ""),
        "{}",
        check.stderr
    );
}

#[test]
fn convert_replaces_the_request_with_the_converted_conversation() {
    let run = run(&["convert", "--to", "anthropic", &rollouts_path()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines = rollout_lines();
    let out: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(out.len(), lines.len());
    for (before, after) in lines.iter().zip(&out) {
        assert!(
            after.starts_with(r#"{"responses_create_params":{"#),
            "{after}"
        );
        assert_eq!(
            after_request(before),
            after_request(after),
            "the rest of the line"
        );
    }
    let first: Value = serde_json::from_str(out[0]).unwrap();
    let request = &first["responses_create_params"];
    assert!(request["system"]
        .as_str()
        .unwrap()
        .starts_with("You are a visual assistant."));
    let roles: Vec<&str> = request["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["role"].as_str().unwrap())
        .collect();
    // The user's image turn, the call from the response, its output.
    assert_eq!(roles, ["user", "assistant", "user"]);
    assert_eq!(count_type(request, "image"), 1);
    assert_eq!(count_type(request, "tool_use"), 1);
    assert_eq!(count_type(request, "tool_result"), 1);
    assert_eq!(
        request["tools"][0]["input_schema"]["required"],
        json!(["x", "y"])
    );
    // History calls and response calls alike; the reasoning summary is the
    // one thing dropped, and said so.
    let second: Value = serde_json::from_str(out[1]).unwrap();
    assert_eq!(count_type(&second, "tool_use"), 2);
    assert_eq!(count_type(&second, "tool_result"), 2);
    assert!(run.stderr.contains("reasoning blocks"), "{}", run.stderr);
    // A call written as text stays text.
    assert!(
        out[2].contains(r#"<tool_call>\n{\"name\": \"click\""#),
        "{}",
        out[2]
    );
    // Numbers after the request are as written.
    assert!(out[3].contains(r#""seed":12345678901234567890,"score":1E5,"#));
}

#[test]
fn convert_bare_prints_the_conversation_alone() {
    let run = run(&[
        "convert",
        "--to",
        "openai-chat",
        "--bare",
        "-q",
        &rollouts_path(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let docs = run.json_lines();
    assert_eq!(docs.len(), 4);
    let messages = docs[0]["messages"].as_array().unwrap();
    let roles: Vec<&str> = messages
        .iter()
        .map(|m| m["role"].as_str().unwrap())
        .collect();
    assert_eq!(roles, ["system", "user", "assistant", "tool"]);
    assert_eq!(
        messages[2]["tool_calls"][0]["id"],
        "chatcmpl-tool-aad71218050d16c0"
    );
    assert_eq!(
        messages[3]["tool_call_id"],
        "chatcmpl-tool-aad71218050d16c0"
    );
    assert!(docs.iter().all(|d| d.get("reward").is_none()));
}

#[test]
fn every_target_keeps_every_image_and_call_and_validates_clean() {
    for target in super::TRANSCRIPT_SHAPES {
        let run = run(&["convert", "--to", target, "--bare", "-q", &rollouts_path()]);
        assert_eq!(run.code, 0, "{target}: {}", run.stderr);
        assert_eq!(run.stdout.lines().count(), 4, "{target}");
        let check = run_with_stdin(
            &["validate", "--ignore", "tool-call-unanswered"],
            run.stdout.as_bytes(),
        );
        assert_eq!(
            (check.code, check.stdout.as_str()),
            (0, ""),
            "{target}: {}",
            check.stderr
        );
        let images = run_with_stdin(&["inspect", "--format", "json"], run.stdout.as_bytes());
        assert_eq!(images.json_lines().len(), 3, "{target}: every image kept");
    }
}

#[test]
fn at_and_rollouts_compose() {
    // --at the request alone converts it as a plain Responses request: the
    // response stays as it was and its calls are not part of it.
    let lines = rollout_lines();
    let run = run_with_stdin(
        &[
            "convert",
            "--to",
            "anthropic",
            "--at",
            "/responses_create_params",
            "-q",
        ],
        lines[0].as_bytes(),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let value = run.json();
    assert_eq!(count_type(&value["responses_create_params"], "tool_use"), 0);
    assert_eq!(
        after_request(&lines[0]),
        after_request(run.stdout.trim_end())
    );
}

/// A rollout line around a recorded NeMo Gym request (from
/// `../shared/realworld/`), with a response in NeMo Gym's form.
fn recorded_rollout() -> Option<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/realworld/openai-responses/nemo-gym-01.json");
    let request: Value = serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()?;
    let response = json!({"id": "resp_1", "created_at": 1772855749.0, "model": "Qwen/Qwen3-VL-2B-Instruct",
        "object": "response", "output": [
            {"arguments": "{\"x\": 500, \"y\": 480}", "call_id": "chatcmpl-tool-1", "name": "click",
             "type": "function_call", "id": "chatcmpl-tool-1", "status": "completed"},
            {"call_id": "chatcmpl-tool-1", "output": "{\"x\":500,\"y\":480}", "type": "function_call_output",
             "id": null, "status": null}],
        "tools": request["tools"].clone()});
    Some(
        json!({"responses_create_params": request, "response": response, "reward": 1.0,
                "_ng_task_index": 4, "_ng_rollout_index": 0})
        .to_string(),
    )
}

#[test]
fn a_recorded_nemo_gym_request_in_a_rollout_validates_clean_and_converts() {
    let Some(line) = recorded_rollout() else {
        return; // ../shared/realworld is not beside this checkout
    };
    let run = run_with_stdin(&["validate"], line.as_bytes());
    assert_eq!((run.code, run.stdout.as_str()), (0, ""), "{}", run.stderr);
    for target in ["anthropic", "gemini", "bedrock", "openai-chat"] {
        let converted = run_with_stdin(
            &["convert", "--to", target, "--bare", "-q"],
            line.as_bytes(),
        );
        assert_eq!(converted.code, 0, "{target}: {}", converted.stderr);
        let value = converted.json();
        let inspect = run_with_stdin(
            &["inspect", "--format", "json"],
            converted.stdout.as_bytes(),
        );
        assert_eq!(inspect.json_lines().len(), 1, "{target}: the image");
        assert!(
            value.to_string().contains("chatcmpl-tool-1") || target == "gemini",
            "{target}"
        );
    }
}

#[test]
fn a_response_whose_output_holds_tool_outputs_keeps_them_in_every_shape() {
    // NeMo Gym's agents append the outputs of the calls they ran to the
    // response's output; another shape's response has no place for them, so
    // the turns are written as a message list (with a warning).
    let response = r#"{"object":"response","id":"resp_1","model":"m","output":[{"type":"function_call","id":"fc_1","call_id":"call_1","name":"click","arguments":"{\"x\": 1}","status":"completed"},{"type":"function_call_output","call_id":"call_1","output":"ok"}]}"#;
    for (target, result) in [
        ("openai-chat", "tool_call_id"),
        ("anthropic", "tool_result"),
        ("gemini", "functionResponse"),
        ("bedrock", "toolResult"),
    ] {
        let run = run_with_stdin(&["convert", "--to", target], response.as_bytes());
        assert_eq!(run.code, 0, "{target}: {}", run.stderr);
        assert!(run.stdout.contains(result), "{target}: {}", run.stdout);
        assert!(run.stdout.contains("\"ok\""), "{target}: {}", run.stdout);
        assert!(
            run.stderr.contains("written as a message list"),
            "{target}: {}",
            run.stderr
        );
    }
    // Back to Responses, and through canonical, it stays a response.
    let same = run_with_stdin(
        &["convert", "--to", "openai-responses"],
        response.as_bytes(),
    );
    assert_eq!(same.json()["output"][1]["type"], "function_call_output");
}
