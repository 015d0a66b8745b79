//! Real recordings (`../shared/realworld/`, read at run time and skipped when
//! the folder is absent) and the classes of damage and false alarm found in
//! them, each from a minimal input. The SDK-type checks of the same recordings'
//! conversions are in conformance/realworld.py.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::{path_arg, run, run_with_stdin, Run};

/// The recordings folders (`../shared/realworld/` and `realworld2/`) that are
/// there.
fn realworld() -> Vec<PathBuf> {
    ["realworld", "realworld2"]
        .iter()
        .map(|name| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("../shared")
                .join(name)
        })
        .filter(|root| root.join("README.md").exists())
        .collect()
}

/// Every recorded file with its shape (its folder) and whether the provider
/// accepted it (the README's status column: 200, or — for a response or a
/// tool result; the 400 controls are not).
fn recordings(root: &Path) -> Vec<(String, PathBuf, bool)> {
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let mut shape = String::new();
    let mut found = Vec::new();
    for line in readme.lines() {
        if let Some(rest) = line.strip_prefix("## ") {
            shape = rest.split('/').next().unwrap_or("").to_string();
            continue;
        }
        let cells = crate::support::table_cells(line);
        if cells.len() > 5 && cells[0].ends_with(".json") {
            let accepted = cells[5] == "200" || cells[5] == "—";
            found.push((shape.clone(), root.join(&shape).join(&cells[0]), accepted));
        }
    }
    found
}

/// What a single tool result of `shape` needs to be written as another
/// shape: MCP carries no call id, and Gemini needs the tool's name.
fn result_arguments(shape: &str) -> &'static [&'static str] {
    if shape == "mcp" {
        &["--call-id", "call_1", "--name", "a_tool"]
    } else {
        &[]
    }
}

fn convert(args: &[&str], input: &Value) -> Run {
    let mut all = vec!["convert", "--compact"];
    all.extend_from_slice(args);
    run_with_stdin(&all, input.to_string().as_bytes())
}

/// A -> canonical -> A gives back `body`.
fn assert_round_trip(source: &str, body: &Value) {
    let canonical = convert(&["--from", source, "--to", "canonical"], body);
    let back = run_with_stdin(
        &["convert", "--from", "canonical", "--to", source],
        canonical.stdout.as_bytes(),
    );
    assert_eq!(&back.json(), body, "{source}");
}

#[test]
fn every_recording_is_checked_and_round_trips_exactly() {
    // Without the folders (a clone outside the workspace) there is nothing to check.
    let mut failures = Vec::new();
    let mut count = 0;
    for root in realworld() {
        let all = recordings(&root);
        assert!(all.len() >= 50, "the README lists {} files", all.len());
        count += all.len();
        for (shape, path, accepted) in &all {
            let file = path_arg(path);
            // Checked, never skipped: clean where the provider accepted it,
            // reported where it refused it. (The first folder's two refused
            // bodies were refused for their model, which a body does not
            // show: they are not asked to be reported.)
            let check = run(&["validate", file]);
            let checked = check.stderr.contains("checked 1 document,");
            let model_refusal = !accepted && root.ends_with("realworld");
            let reported = check.code == 1 || model_refusal;
            if !checked || (*accepted && check.code != 0) || (!accepted && !reported) {
                failures.push(format!(
                    "{file}: validate exit {} (accepted: {accepted}): {}{}",
                    check.code, check.stdout, check.stderr
                ));
            }
            let mut there = vec!["convert", "--compact", "--from", shape, "--to", "canonical"];
            there.extend(result_arguments(shape).iter().take(2));
            there.push(file);
            let canonical = run(&there);
            if canonical.code != 0 {
                failures.push(format!("{file}: to canonical: {}", canonical.stderr));
                continue;
            }
            let back = run_with_stdin(
                &["convert", "--compact", "--from", "canonical", "--to", shape],
                canonical.stdout.as_bytes(),
            );
            let original: Value =
                serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
            if back.code != 0 || back.json() != original {
                failures.push(format!("{file}: round trip is not exact: {}", back.stderr));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {count}:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Every recording converted to every other shape is either refused by the
/// documented media policy (a part the target cannot carry; a body the
/// provider refused may be refused for what it breaks) or gives a document
/// in which partkit's own validate, reading it as the target, finds no error.
/// (The SDK types of the same outputs: conformance/realworld.py.)
#[test]
fn every_conversion_of_a_recording_validates_as_its_target() {
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    let mut origins: Vec<String> = Vec::new();
    for root in realworld() {
        for (shape, path, accepted) in recordings(&root) {
            let file = path_arg(&path);
            for target in crate::TRANSCRIPT_SHAPES.iter().filter(|t| **t != shape) {
                let mut args = vec!["convert", "--compact", "--from", &shape, "--to", target];
                args.extend(result_arguments(&shape));
                args.push(file);
                let done = run(&args);
                let what = format!("{file} -> {target}");
                match done.code {
                    0 => {}
                    1 if done.stderr.contains("cannot be carried by") || !accepted => continue,
                    code => {
                        failures.push(format!("{what}: exit {code}: {}", done.stderr));
                        continue;
                    }
                }
                let out = dir
                    .path()
                    .join(target)
                    .join(format!("{:04}.json", origins.len()));
                std::fs::create_dir_all(out.parent().unwrap()).unwrap();
                std::fs::write(&out, &done.stdout).unwrap();
                origins.push(what);
            }
        }
    }
    for target in crate::TRANSCRIPT_SHAPES {
        let folder = dir.path().join(target);
        if !folder.exists() {
            continue;
        }
        let check = run(&[
            "validate",
            "--format",
            "json",
            "--from",
            target,
            path_arg(&folder),
        ]);
        for finding in check.json_lines() {
            if finding["severity"] == "error" {
                let name = Path::new(finding["path"].as_str().unwrap());
                let number: usize = name.file_stem().unwrap().to_str().unwrap().parse().unwrap();
                failures.push(format!("{}: {finding}", origins[number]));
            }
        }
    }
    if !realworld().is_empty() {
        assert!(origins.len() > 500, "only {} conversions", origins.len());
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// ---- item 4: empty messages ----------------------------------------------------------

#[test]
fn an_empty_system_prompt_is_no_system_prompt_in_any_other_shape() {
    // What boto3 sends with no system prompt, and Responses' empty instructions.
    let bedrock = json!({"modelId": "m", "messages": [{"role": "user", "content": [{"text": "hi"}]}],
        "system": [], "inferenceConfig": {"maxTokens": 10}});
    let responses =
        json!({"model": "m", "instructions": "", "input": "hi", "max_output_tokens": 10});
    for (source, body) in [("bedrock", &bedrock), ("openai-responses", &responses)] {
        for target in [
            "openai-chat",
            "openai-responses",
            "anthropic",
            "gemini",
            "bedrock",
            "canonical",
        ] {
            let done = convert(&["--from", source, "--to", target], body);
            assert_eq!(done.code, 0, "{source} -> {target}: {}", done.stderr);
            let out = done.json();
            if target == source {
                assert_eq!(&out, body, "{source} comes back as it was");
                continue;
            }
            let expected = if target == "gemini" {
                "partkit: warning: gemini has no place for model; dropped\n"
            } else {
                ""
            };
            assert_eq!(
                done.stderr, expected,
                "{source} -> {target}: nothing is lost"
            );
            for key in ["system", "instructions", "systemInstruction"] {
                assert!(out.get(key).is_none(), "{source} -> {target}: {out}");
            }
            let list = out
                .get("messages")
                .or(out.get("input"))
                .and_then(Value::as_array);
            let roles = list.into_iter().flatten().filter_map(|m| m.get("role"));
            assert!(
                roles.clone().all(|r| r != "system"),
                "{source} -> {target}: {out}"
            );
        }
    }
}

// ---- item 8: false alarms, and the calls a request cannot make ------------------------

fn validate(args: &[&str], doc: &Value) -> Run {
    let mut all = vec!["validate"];
    all.extend_from_slice(args);
    run_with_stdin(&all, doc.to_string().as_bytes())
}

/// The finding lines of a run, without the file and line prefix.
fn findings(run: &Run) -> Vec<String> {
    run.stdout
        .lines()
        .map(|line| {
            line.split_once(": ")
                .map_or(line, |(_, rest)| rest)
                .to_string()
        })
        .collect()
}

#[test]
fn whitespace_text_beside_other_content_is_legal_in_anthropic() {
    let image =
        json!({"type": "image", "source": {"type": "url", "url": "https://example.com/a.png"}});
    let doc = json!({"model": "m", "max_tokens": 5, "messages": [
        {"role": "user", "content": [{"type": "text", "text": " "}, image]},
        {"role": "assistant", "content": [{"type": "text", "text": "\n"}, {"type": "text", "text": "ok"}]}]});
    let run = validate(&[], &doc);
    assert_eq!((run.code, run.stdout.as_str()), (0, ""), "{}", run.stderr);
    // Alone, or empty, it is refused.
    let doc = json!({"model": "m", "max_tokens": 5, "messages": [
        {"role": "user", "content": [{"type": "text", "text": "  "}]},
        {"role": "assistant", "content": [{"type": "text", "text": ""}, {"type": "text", "text": "ok"}]}]});
    let run = validate(&["--from", "anthropic"], &doc);
    assert_eq!(run.code, 1);
    assert_eq!(
        findings(&run),
        [
            "error[text-empty] /messages/0/content/0: Anthropic refuses text blocks without non-whitespace text",
            "error[text-empty] /messages/1/content/0: Anthropic refuses text blocks without non-whitespace text",
        ]
    );
}

#[test]
fn underscores_in_a_bedrock_document_name_are_legal_and_kept() {
    let doc = json!({"modelId": "m", "messages": [{"role": "user", "content": [{"text": "Read."},
        {"document": {"format": "pdf", "name": "input_file_0", "source": {"bytes": "JVBERi0xLjQK"}}}]}]});
    let run = validate(&[], &doc);
    assert_eq!((run.code, run.stdout.as_str()), (0, ""), "{}", run.stderr);
    // Through another shape and back, the name keeps its underscores.
    let anthropic = convert(&["--to", "anthropic", "-q"], &doc).json();
    assert_eq!(
        anthropic["messages"][0]["content"][1]["title"],
        "input_file_0"
    );
    let back = convert(
        &["--from", "anthropic", "--to", "bedrock", "-q"],
        &anthropic,
    )
    .json();
    assert_eq!(
        back["messages"][0]["content"][1]["document"]["name"],
        "input_file_0"
    );
}

#[test]
fn nova_server_tools_answered_in_the_same_turn_are_clean() {
    // What Nova sends back for its code interpreter, a systemTool: the call
    // and its result in one assistant turn, then a client tool.
    let doc = json!({"modelId": "us.amazon.nova-pro-v1:0", "messages": [
        {"role": "user", "content": [{"text": "What is 1234 * 5678?"}]},
        {"role": "assistant", "content": [
            {"toolUse": {"toolUseId": "t1", "name": "nova_code_interpreter",
                         "input": {"snippet": "1234 * 5678"}, "type": "server_tool_use"}},
            {"toolResult": {"toolUseId": "t1", "content": [{"json": {"stdOut": "7006652"}}],
                            "type": "nova_code_interpreter_result", "status": "success"}},
            {"toolUse": {"toolUseId": "t2", "name": "final_result", "input": {"result": 7006652}}}]},
        {"role": "user", "content": [{"toolResult": {"toolUseId": "t2", "content": [{"text": "ok"}], "status": "success"}}]}],
        "toolConfig": {"tools": [
            {"toolSpec": {"name": "final_result", "inputSchema": {"json": {"type": "object",
                "properties": {"result": {"type": "number"}}}}}},
            {"systemTool": {"name": "nova_code_interpreter"}}]}});
    let run = validate(&[], &doc);
    assert_eq!((run.code, run.stdout.as_str()), (0, ""), "{}", run.stderr);
    // Elsewhere the server tool's blocks have no place: dropped, and said so.
    let chat = convert(&["--to", "openai-chat"], &doc);
    assert_eq!(chat.code, 0, "{}", chat.stderr);
    assert!(
        chat.stderr.contains(
            "bedrock toolUse blocks, bedrock toolResult blocks, bedrock systemTool tools; dropped"
        ),
        "{}",
        chat.stderr
    );
    assert_eq!(chat.json()["messages"][1]["tool_calls"][0]["id"], "t2");
    // And back as it was.
    assert_round_trip("bedrock", &doc);
}

#[test]
fn a_mistake_answered_by_an_error_result_is_a_warning() {
    let schema = json!({"type": "object", "properties": {}, "additionalProperties": false});
    // (shape, body with an undeclared call c1 and a bad-arguments call c2, each
    // answered by an error result; pointers of the two calls)
    let anthropic = |error: bool| {
        json!({"model": "m", "max_tokens": 5,
        "tools": [{"name": "get_file", "input_schema": schema}],
        "messages": [
            {"role": "user", "content": "Get the file."},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "c1", "name": "list_files", "input": {}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "c1", "is_error": error, "content": "Unknown tool"}]},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "c2", "name": "get_file", "input": {"name": "a"}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "c2", "is_error": error, "content": "Invalid arguments"}]}]})
    };
    let bedrock = |error: bool| {
        let status = if error { "error" } else { "success" };
        json!({"modelId": "m",
        "toolConfig": {"tools": [{"toolSpec": {"name": "get_file", "inputSchema": {"json": schema}}}]},
        "messages": [
            {"role": "user", "content": [{"text": "Get the file."}]},
            {"role": "assistant", "content": [{"toolUse": {"toolUseId": "c1", "name": "list_files", "input": {}}}]},
            {"role": "user", "content": [{"toolResult": {"toolUseId": "c1", "status": status, "content": [{"text": "Unknown tool"}]}}]},
            {"role": "assistant", "content": [{"toolUse": {"toolUseId": "c2", "name": "get_file", "input": {"name": "a"}}}]},
            {"role": "user", "content": [{"toolResult": {"toolUseId": "c2", "status": status, "content": [{"text": "Invalid"}]}}]}]})
    };
    let gemini = |error: bool| {
        let key = if error { "error" } else { "output" };
        json!({
        "tools": [{"functionDeclarations": [{"name": "get_file", "parametersJsonSchema": schema}]}],
        "contents": [
            {"role": "user", "parts": [{"text": "Get the file."}]},
            {"role": "model", "parts": [{"functionCall": {"id": "c1", "name": "list_files", "args": {}}}]},
            {"role": "user", "parts": [{"functionResponse": {"id": "c1", "name": "list_files", "response": {key: "Unknown tool"}}}]},
            {"role": "model", "parts": [{"functionCall": {"id": "c2", "name": "get_file", "args": {"name": "a"}}}]},
            {"role": "user", "parts": [{"functionResponse": {"id": "c2", "name": "get_file", "response": {key: "Invalid"}}}]}]})
    };
    type Body<'f> = &'f dyn Fn(bool) -> Value;
    let cases: [(&str, Body, [&str; 2]); 3] = [
        (
            "anthropic",
            &anthropic,
            ["/messages/1/content/0", "/messages/3/content/0"],
        ),
        (
            "bedrock",
            &bedrock,
            [
                "/messages/1/content/0/toolUse",
                "/messages/3/content/0/toolUse",
            ],
        ),
        (
            "gemini",
            &gemini,
            [
                "/contents/1/parts/0/functionCall",
                "/contents/3/parts/0/functionCall",
            ],
        ),
    ];
    for (shape, body, [first, second]) in cases {
        let undeclared =
            "call c1 (list_files) calls a tool the document does not declare (declared: get_file)";
        // Caught: warnings, exit 0.
        let run = validate(&[], &body(true));
        assert_eq!(run.code, 0, "{shape}: {}", run.stdout);
        let got = findings(&run);
        assert_eq!(got.len(), 2, "{shape}: {got:?}");
        assert_eq!(
            got[0],
            format!(
                "warning[tool-call-caught] {first}: {undeclared} — answered by an error result"
            ),
            "{shape}"
        );
        assert!(
            got[1].starts_with(&format!("warning[tool-call-caught] {second}: ")),
            "{shape}: {got:?}"
        );
        // Answered as a success: still broken data.
        let run = validate(&[], &body(false));
        assert_eq!(run.code, 1, "{shape}");
        let got = findings(&run);
        assert_eq!(
            got[0],
            format!("error[tool-undeclared] {first}: {undeclared}"),
            "{shape}"
        );
        assert!(
            got[1].starts_with(&format!("error[tool-arguments-schema] {second}: ")),
            "{shape}: {got:?}"
        );
    }
    // Not answered yet (the conversation stops at the call): an error.
    let mut open = anthropic(true);
    open["messages"].as_array_mut().unwrap().truncate(2);
    let run = validate(&[], &open);
    assert_eq!(run.code, 1);
    assert!(findings(&run)[0].starts_with("error[tool-undeclared]"));
}

#[test]
fn a_request_that_declares_no_tools_cannot_call_one_but_a_bare_list_can() {
    let messages = json!([
        {"role": "user", "content": "Chart Paris."},
        {"role": "assistant", "content": null, "tool_calls": [{"id": "call_1", "type": "function",
            "function": {"name": "get_chart", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": "rising"}]);
    // OpenAI takes such a request (realworld2/openai-chat/otel-contrib-01.json):
    // a warning.
    let body = json!({"model": "gpt-4o", "messages": messages});
    let run = validate(&[], &body);
    assert_eq!(run.code, 0);
    assert_eq!(
        findings(&run),
        ["warning[tool-undeclared] /messages/1/tool_calls/0: call call_1 (get_chart) calls a tool, and the request declares no tools (the provider accepts this)"]
    );
    // Anthropic refuses it ("Requests which include tool_use or tool_result
    // blocks must define tools"): an error, even answered by an error result.
    let anthropic = json!({"model": "claude-x", "max_tokens": 5, "messages": [
        {"role": "user", "content": "Chart Paris."},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "get_chart", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "no such tool", "is_error": true}]}]});
    let run = validate(&[], &anthropic);
    assert_eq!(run.code, 1);
    assert_eq!(
        findings(&run),
        ["error[tool-undeclared] /messages/1/content/0: call toolu_1 (get_chart) calls a tool, and the request declares no tools"]
    );
    let run = validate(&["--from", "openai-chat"], &messages);
    assert_eq!((run.code, run.stdout.as_str()), (0, ""), "{}", run.stderr);
}

// ---- item 7: file references ------------------------------------------------------------

#[test]
fn file_references_in_tool_results_become_placeholders_naming_them() {
    let call = |id: &str| json!({"type": "tool_use", "id": id, "name": "get_file", "input": {}});
    let anthropic = json!({"model": "m", "max_tokens": 5, "messages": [
        {"role": "user", "content": "Get it."},
        {"role": "assistant", "content": [call("toolu_1")]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": [
            {"type": "image", "source": {"type": "file", "file_id": "file_011abc"}}]}]}]});
    let responses = json!({"model": "m", "input": [
        {"role": "user", "content": "Get it."},
        {"type": "function_call", "call_id": "call_1", "name": "get_file", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "call_1", "output": [
            {"type": "input_image", "file_id": "file-BVT", "detail": "auto"}]}]});
    let bedrock = json!({"modelId": "m", "messages": [
        {"role": "user", "content": [{"text": "Get it."}]},
        {"role": "assistant", "content": [{"toolUse": {"toolUseId": "t1", "name": "get_file", "input": {}}}]},
        {"role": "user", "content": [{"toolResult": {"toolUseId": "t1", "content": [
            {"image": {"format": "jpeg", "source": {"s3Location": {"uri": "s3://bucket/kiwi.jpg"}}}}]}}]}]});
    for (source, body, named) in [
        (
            "anthropic",
            &anthropic,
            "[unsupported image part (anthropic file file_011abc)]",
        ),
        (
            "openai-responses",
            &responses,
            "[unsupported image part (openai file file-BVT)]",
        ),
        (
            "bedrock",
            &bedrock,
            "[unsupported image part (s3://bucket/kiwi.jpg)]",
        ),
    ] {
        for target in [
            "openai-chat",
            "openai-responses",
            "anthropic",
            "gemini",
            "bedrock",
        ] {
            if target == source {
                continue;
            }
            let done = convert(&["--from", source, "--to", target], body);
            assert_eq!(done.code, 0, "{source} -> {target}: {}", done.stderr);
            assert!(
                done.stdout.contains(named),
                "{source} -> {target}: {}",
                done.stdout
            );
            assert!(
                done.stderr.contains(&format!(
                    "{source} file references cannot be carried by {target}; replaced by a placeholder text naming them"
                )),
                "{source} -> {target}: {}",
                done.stderr
            );
        }
        // Kept whole through canonical, and back as they were.
        assert_round_trip(source, body);
    }
    // Attached by the user, a reference another provider cannot open is an
    // error (the attached-part policy), or the placeholder when asked.
    let attached = json!({"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": [
        {"type": "text", "text": "Describe."},
        {"type": "document", "source": {"type": "file", "file_id": "file_9"}}]}]});
    let done = convert(&["--from", "anthropic", "--to", "openai-chat"], &attached);
    done.assert_error(
        1,
        &[
            "/messages/0/content/1",
            "file part",
            "anthropic file file_9",
        ],
    );
    let done = convert(
        &[
            "--from",
            "anthropic",
            "--to",
            "openai-chat",
            "--on-unsupported",
            "text",
        ],
        &attached,
    );
    assert_eq!(done.code, 0, "{}", done.stderr);
    assert!(done
        .stdout
        .contains("[unsupported file part (anthropic file file_9)]"));
}

#[test]
fn a_url_placeholder_names_the_url_not_a_size() {
    // Bedrock carries no URL media: a URL image from a tool degrades.
    let body = json!({"model": "m", "max_tokens": 5, "messages": [
        {"role": "user", "content": "Chart it."},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "chart", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": [
            {"type": "image", "source": {"type": "url", "url": "https://example.com/c.png"}}]}]}]});
    let done = convert(&["--from", "anthropic", "--to", "bedrock", "-q"], &body);
    assert_eq!(done.code, 0, "{}", done.stderr);
    assert!(
        done.stdout
            .contains("[unsupported image part (image/png, https://example.com/c.png)]"),
        "{}",
        done.stdout
    );
    assert!(!done.stdout.contains("0 bytes"));
}

// ---- item 4 (continued): empty turns ------------------------------------------------------

#[test]
fn an_empty_turn_is_left_out_where_the_target_refuses_it() {
    let gemini = json!({"contents": [
        {"role": "user", "parts": [{"text": "Hi."}]},
        {"role": "model", "parts": [{"text": "Hello."}]},
        {"role": "user", "parts": []},
        {"role": "model", "parts": [{"text": ""}, {"functionCall": {"id": "c1", "name": "f", "args": {}}}]},
        {"role": "user", "parts": [{"functionResponse": {"id": "c1", "name": "f", "response": {"output": "ok"}}}]}],
        "tools": [{"functionDeclarations": [{"name": "f"}]}]});
    for target in ["anthropic", "bedrock", "openai-chat", "openai-responses"] {
        let done = convert(&["--from", "gemini", "--to", target], &gemini);
        assert_eq!(done.code, 0, "{target}: {}", done.stderr);
        assert!(
            done.stderr.contains(&format!(
                "left out 1 empty message: {target} refuses messages with no content"
            )),
            "{target}: {}",
            done.stderr
        );
        let text = done.stdout;
        for empty in [r#""content":[]"#, r#""content":"""#, r#""text":"""#] {
            assert!(!text.contains(empty), "{target}: {text}");
        }
    }
    // Gemini gets its own empties back.
    let back = convert(&["--from", "gemini", "--to", "gemini"], &gemini);
    assert_eq!(back.json(), gemini);
}

#[test]
fn a_completion_holds_its_text_as_one_string() {
    // An Anthropic response whose answer is several text blocks (citations
    // split them) is one content string in a chat completion.
    let response = json!({"id": "msg_1", "type": "message", "role": "assistant", "model": "m",
        "content": [{"type": "text", "text": "Paris "}, {"type": "text", "text": "is the capital."}],
        "stop_reason": "end_turn", "usage": {"input_tokens": 1, "output_tokens": 2}});
    let done = convert(&["--from", "anthropic", "--to", "openai-chat"], &response);
    assert_eq!(done.code, 0, "{}", done.stderr);
    assert_eq!(
        done.json()["choices"][0]["message"]["content"],
        "Paris is the capital."
    );
    assert!(done
        .stderr
        .contains("joined 2 text parts into the completion's one content string"));
}

#[test]
fn validate_flags_empty_content_where_the_shape_refuses_it() {
    for (shape, doc, pointer) in [
        (
            "anthropic",
            json!({"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": []}]}),
            "/messages/0/content",
        ),
        (
            "bedrock",
            json!({"modelId": "m", "messages": [{"role": "user", "content": []}]}),
            "/messages/0/content",
        ),
        (
            "openai-chat",
            json!({"model": "m", "messages": [{"role": "user", "content": []}]}),
            "/messages/0/content",
        ),
    ] {
        let run = validate(&["--from", shape], &doc);
        assert_eq!(run.code, 1, "{shape}");
        let got = findings(&run);
        assert_eq!(got.len(), 1, "{shape}: {got:?}");
        assert!(
            got[0].starts_with(&format!("error[content-empty] {pointer}: ")),
            "{shape}: {got:?}"
        );
    }
    // Gemini takes an empty Content.
    let run = validate(
        &["--from", "gemini"],
        &json!({"contents": [{"role": "user", "parts": []}]}),
    );
    assert_eq!((run.code, run.stdout.as_str()), (0, ""));
}

// ---- item 2: telling Bedrock from Anthropic ---------------------------------------------

#[test]
fn a_bedrock_body_with_a_system_list_is_read_as_bedrock() {
    // What boto3 converse(messages=…, system=…) sends.
    let body = json!({"messages": [{"role": "user", "content": [{"text": "hi"}]}],
        "system": [{"text": "You are terse."}]});
    let done = convert(&["--to", "openai-chat"], &body);
    assert_eq!(done.code, 0, "{}", done.stderr);
    assert_eq!(done.stderr, "", "no guess: the blocks tell");
    assert_eq!(
        done.json(),
        json!({"messages": [{"role": "system", "content": "You are terse."}, {"role": "user", "content": "hi"}]})
    );
    let check = validate(&[], &body);
    assert_eq!(
        (check.code, check.stdout.as_str()),
        (0, ""),
        "{}",
        check.stderr
    );
    // Typed blocks are not Bedrock's.
    let anthropic = json!({"messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}],
        "system": [{"type": "text", "text": "You are terse."}], "max_tokens": 5});
    let done = convert(&["--to", "bedrock"], &anthropic);
    assert_eq!(done.code, 0, "{}", done.stderr);
    assert_eq!(done.json()["system"], json!([{"text": "You are terse."}]));
    assert_eq!(
        done.json()["messages"][0]["content"],
        json!([{"text": "hi"}])
    );
    // Nothing tells them apart: a guess, and it says so.
    let plain = json!({"messages": [{"role": "user", "content": "hi"}], "system": []});
    let done = convert(&["--to", "openai-chat"], &plain);
    assert!(
        done.stderr.contains("read the input as anthropic ("),
        "{}",
        done.stderr
    );
    assert!(done.stderr.contains("pass --from to choose"));
}

// ---- item 6: attached text documents and cited answers ------------------------------------

#[test]
fn text_documents_and_cited_answers_are_carried() {
    let bedrock = json!({"modelId": "m", "messages": [
        {"role": "user", "content": [{"text": "Summarize."},
            {"document": {"format": "txt", "name": "notes",
                          "source": {"content": [{"text": "First line."}, {"text": "Second\nline."}]}}}]},
        {"role": "assistant", "content": [{"citationsContent": {
            "content": [{"text": "It says "}, {"text": "two lines."}],
            "citations": [{"title": "notes", "sourceContent": [{"text": "First line."}],
                           "location": {"documentChar": {"documentIndex": 0, "start": 0, "end": 11}}}]}}]}]});
    let anthropic = json!({"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": [
        {"type": "text", "text": "Summarize."},
        {"type": "document", "title": "notes",
         "source": {"type": "content", "content": [{"type": "text", "text": "First line."}, {"type": "text", "text": "Second\nline."}]}}]}]});
    for (source, body) in [("bedrock", &bedrock), ("anthropic", &anthropic)] {
        // The document is a media item inspect lists, with its size.
        let listed = run_with_stdin(
            &["inspect", "--format", "json"],
            body.to_string().as_bytes(),
        );
        assert_eq!(listed.code, 0, "{source}: {}", listed.stderr);
        let items = listed.json_lines();
        assert_eq!(items.len(), 1, "{source}: {items:?}");
        assert_eq!(items[0]["bytes"], 24, "{source}: {items:?}");
        // Every other shape gets the text, as a document where it has one.
        for target in [
            "openai-chat",
            "openai-responses",
            "anthropic",
            "gemini",
            "bedrock",
        ] {
            if target == source {
                continue;
            }
            let done = convert(&["--from", source, "--to", target], body);
            assert_eq!(done.code, 0, "{source} -> {target}: {}", done.stderr);
            assert!(
                !done.stderr.contains("document blocks"),
                "{source} -> {target}: {}",
                done.stderr
            );
            let out = done.stdout;
            // The document's bytes (base64 of the two lines) are in the output.
            assert!(
                out.contains("Rmlyc3QgbGluZS4KU2Vjb25kCmxpbmUu")
                    || out.contains("First line.\\nSecond\\nline."),
                "{source} -> {target}: {out}"
            );
            if source == "bedrock" {
                assert!(
                    out.contains("It says two lines."),
                    "{source} -> {target}: {out}"
                );
                assert!(
                    done.stderr.contains("bedrock citations"),
                    "{source} -> {target}: {}",
                    done.stderr
                );
            }
        }
        // And back as they were.
        assert_round_trip(source, body);
    }
}

#[test]
fn a_text_file_goes_to_openai_chat_as_a_named_text_part() {
    // In a tool result (Anthropic's text document) and attached by the user.
    let body = json!({"model": "m", "max_tokens": 5, "messages": [
        {"role": "user", "content": [{"type": "text", "text": "Read."},
            {"type": "document", "title": "a.txt", "source": {"type": "text", "media_type": "text/plain", "data": "hello"}}]},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "cat", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": [
            {"type": "document", "title": "b.txt", "source": {"type": "text", "media_type": "text/plain", "data": "world"}}]}]}]});
    let done = convert(&["--from", "anthropic", "--to", "openai-chat"], &body);
    assert_eq!(done.code, 0, "{}", done.stderr);
    let out = done.json();
    assert_eq!(
        out["messages"][0]["content"][1],
        json!({"type": "text", "text": "File a.txt (text/plain):\nhello"})
    );
    assert_eq!(
        out["messages"][2],
        json!({"role": "tool", "tool_call_id": "toolu_1", "content": "File b.txt (text/plain):\nworld"})
    );
    assert!(
        done.stderr
            .contains("text/plain files delivered to openai-chat as text parts"),
        "{}",
        done.stderr
    );
}

// ---- item 9: MCP ------------------------------------------------------------------------

#[test]
fn an_mcp_result_needs_a_call_id_for_responses_too() {
    let result = json!({"content": [{"type": "text", "text": "ok"}], "isError": false});
    for target in ["openai-responses", "anthropic", "openai-chat", "bedrock"] {
        let done = convert(&["--from", "mcp", "--to", target], &result);
        done.assert_error(1, &["call id", "--call-id"]);
    }
    let done = convert(
        &[
            "--from",
            "mcp",
            "--to",
            "openai-responses",
            "--call-id",
            "call_1",
        ],
        &result,
    );
    assert_eq!(done.code, 0, "{}", done.stderr);
    assert_eq!(
        done.json(),
        json!({"type": "function_call_output", "call_id": "call_1", "output": "ok"})
    );
}

#[test]
fn mcp_resources_keep_their_uri_name_and_type() {
    let link = json!({"content": [{"type": "resource_link", "uri": "test://static/resource/1",
        "name": "Resource 1", "mimeType": "text/plain"}], "isError": false});
    // A URI no provider can fetch is not turned into a file URL: it degrades,
    // named, like any part the target cannot carry.
    for target in ["openai-responses", "anthropic", "gemini"] {
        let done = convert(
            &[
                "--from",
                "mcp",
                "--to",
                target,
                "--call-id",
                "c1",
                "--name",
                "read",
            ],
            &link,
        );
        assert_eq!(done.code, 0, "{target}: {}", done.stderr);
        assert!(
            !done.stdout.contains("file_url"),
            "{target}: {}",
            done.stdout
        );
        assert!(
            done.stdout
                .contains("[unsupported file part (text/plain, test://static/resource/1)]"),
            "{target}: {}",
            done.stdout
        );
    }
    // Through canonical, the link comes back whole, type included.
    assert_round_trip("mcp", &link);
    // An embedded resource is named by its own name, not its URI's last segment.
    let embedded = json!({"content": [{"type": "resource", "resource": {"uri": "test://static/resource/100",
        "mimeType": "application/pdf", "blob": "JVBERi0xLjQK", "name": "Resource 100"}}], "isError": false});
    let done = convert(
        &[
            "--from",
            "mcp",
            "--to",
            "openai-responses",
            "--call-id",
            "c1",
        ],
        &embedded,
    );
    assert_eq!(done.code, 0, "{}", done.stderr);
    assert_eq!(done.json()["output"][0]["filename"], "Resource 100");
    let canonical = convert(&["--from", "mcp", "--to", "canonical"], &embedded);
    assert_eq!(canonical.json()["content"][0]["name"], "Resource 100");
}

// ---- item 10: video ------------------------------------------------------------------------

#[test]
fn video_is_refused_by_responses_like_the_other_shapes_without_video() {
    let gemini = json!({"contents": [{"role": "user", "parts": [{"text": "Watch."},
        {"fileData": {"mimeType": "video/mp4", "fileUri": "https://example.com/v.mp4"}}]}]});
    for target in ["openai-responses", "anthropic", "openai-chat", "bedrock"] {
        let done = convert(&["--from", "gemini", "--to", target], &gemini);
        done.assert_error(1, &["file part (video/mp4)", target]);
    }
    let done = convert(&["--from", "gemini", "--to", "openai-responses"], &gemini);
    assert!(
        done.stderr.contains("Responses input has no video parts"),
        "{}",
        done.stderr
    );
    // From a tool, it degrades to the placeholder, named.
    let result = json!({"contents": [
        {"role": "model", "parts": [{"functionCall": {"id": "c1", "name": "film", "args": {}}}]},
        {"role": "user", "parts": [{"functionResponse": {"id": "c1", "name": "film", "response": {},
            "parts": [{"fileData": {"mimeType": "video/mp4", "fileUri": "https://example.com/v.mp4"}}]}}]}]});
    let done = convert(
        &["--from", "gemini", "--to", "openai-responses", "-q"],
        &result,
    );
    assert_eq!(done.code, 0, "{}", done.stderr);
    assert!(
        done.stdout
            .contains("[unsupported file part (video/mp4, https://example.com/v.mp4)]"),
        "{}",
        done.stdout
    );
}

// ---- item 14: messages -----------------------------------------------------------------

#[test]
fn a_conversion_error_points_into_the_input() {
    let gemini = json!({"contents": [{"role": "user", "parts": [{"text": "Listen."},
        {"inlineData": {"mimeType": "audio/wav", "data": "UklGRg=="}}]}]});
    let done = convert(&["--from", "gemini", "--to", "anthropic"], &gemini);
    done.assert_error(
        1,
        &["<stdin>: /contents/0/parts/1: audio part (audio/wav) cannot be carried by anthropic"],
    );
    // A reference, too.
    let responses = json!({"model": "m", "instructions": "Be brief.", "input": [
        {"role": "user", "content": "Hi."}, {"role": "assistant", "content": "Hello."},
        {"role": "user", "content": [{"type": "input_file", "file_id": "file-9"}]}]});
    let done = convert(
        &["--from", "openai-responses", "--to", "gemini"],
        &responses,
    );
    done.assert_error(
        1,
        &[
            "<stdin>: /input/2/content/0: file part",
            "openai file file-9",
        ],
    );
}

// ---- item 11: structure through Gemini -------------------------------------------------

#[test]
fn a_structured_function_response_comes_back_structured() {
    let gemini = json!({"contents": [
        {"role": "model", "parts": [{"functionCall": {"id": "c1", "name": "weather", "args": {}}}]},
        {"role": "user", "parts": [{"functionResponse": {"id": "c1", "name": "weather",
            "response": {"temperature": 20, "unit": "C"}}}]}]});
    let chat = convert(&["--from", "gemini", "--to", "openai-chat", "-q"], &gemini);
    let back = run_with_stdin(
        &["convert", "--from", "openai-chat", "--to", "gemini", "-q"],
        chat.stdout.as_bytes(),
    );
    // Back from Chat, the call has Google's placeholder for a missing signature.
    let mut signed = gemini.clone();
    signed["contents"][0]["parts"][0]["thoughtSignature"] =
        json!("skip_thought_signature_validator");
    assert_eq!(back.json(), signed);
}

#[test]
fn calls_from_another_model_get_the_documented_thought_signature_placeholder() {
    let chat = json!({"model": "m", "messages": [
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": null, "tool_calls": [
            {"id": "a", "type": "function", "function": {"name": "f", "arguments": "{}"}},
            {"id": "b", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "a", "content": "1"},
        {"role": "tool", "tool_call_id": "b", "content": "2"},
        {"role": "assistant", "content": null, "tool_calls": [
            {"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "c", "content": "3"}],
        "tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}]});
    let done = convert(&["--from", "openai-chat", "--to", "gemini"], &chat);
    assert_eq!(done.code, 0, "{}", done.stderr);
    let contents = done.json()["contents"].clone();
    let signatures: Vec<Value> = contents
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c["parts"].as_array().unwrap().clone())
        .filter(|p| p.get("functionCall").is_some())
        .map(|p| p["thoughtSignature"].clone())
        .collect();
    // The first call of each model turn only (parallel calls share one).
    let placeholder = json!("skip_thought_signature_validator");
    assert_eq!(signatures, [placeholder.clone(), Value::Null, placeholder]);
    assert!(
        done.stderr.contains("on the first call of 2 model turn(s)"),
        "{}",
        done.stderr
    );
    assert!(validate(&["--kind", "transcript"], &done.json())
        .stdout
        .is_empty());
    // Gemini's own calls, signed or not, and canonical input are left as they are.
    let gemini = json!({"contents": [
        {"role": "user", "parts": [{"text": "go"}]},
        {"role": "model", "parts": [{"functionCall": {"name": "f", "args": {}}}]}]});
    let same = convert(&["--from", "gemini", "--to", "gemini"], &gemini);
    assert_eq!(same.json(), gemini);
    let canonical = convert(&["--from", "gemini", "--to", "canonical"], &gemini);
    let back = run_with_stdin(
        &["convert", "--from", "canonical", "--to", "gemini"],
        canonical.stdout.as_bytes(),
    );
    assert_eq!(back.json(), gemini);
}

#[test]
fn text_after_media_in_a_gemini_function_response_is_said_to_move() {
    let body = json!({"model": "m", "max_tokens": 5, "messages": [
        {"role": "user", "content": "Go."},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "shot", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": [
            {"type": "text", "text": "Before."},
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}},
            {"type": "text", "text": "After."}]}]}]});
    let done = convert(&["--from", "anthropic", "--to", "gemini"], &body);
    assert_eq!(done.code, 0, "{}", done.stderr);
    assert!(
        done.stderr
            .contains("text that came after media now comes before it"),
        "{}",
        done.stderr
    );
    // Text only before the media: nothing to say.
    let mut before = body.clone();
    before["messages"][2]["content"][0]["content"]
        .as_array_mut()
        .unwrap()
        .pop();
    let done = convert(&["--from", "anthropic", "--to", "gemini"], &before);
    assert!(!done.stderr.contains("comes before it"), "{}", done.stderr);
}

// ---- item 13: settings ---------------------------------------------------------------

#[test]
fn stream_goes_across_the_shapes_that_have_it_and_defaults_are_no_loss() {
    let anthropic = json!({"model": "m", "max_tokens": 5, "stream": true, "messages": [{"role": "user", "content": "hi"}]});
    for target in ["openai-chat", "openai-responses"] {
        let done = convert(
            &["--from", "anthropic", "--to", target, "--strict"],
            &anthropic,
        );
        assert_eq!(done.code, 0, "{target}: {}", done.stderr);
        assert_eq!(done.json()["stream"], true, "{target}");
    }
    // Bedrock and Gemini stream by endpoint: nothing is lost from the body.
    let done = convert(
        &["--from", "anthropic", "--to", "bedrock", "--strict"],
        &anthropic,
    );
    assert_eq!(done.code, 0, "{}", done.stderr);
    assert!(done.json().get("stream").is_none());
    // A setting at its default says nothing: dropping it is no loss.
    let chat = json!({"model": "m", "max_completion_tokens": 5, "n": 1, "stream": false,
        "parallel_tool_calls": true, "messages": [{"role": "user", "content": "hi"}]});
    let done = convert(
        &["--from", "openai-chat", "--to", "anthropic", "--strict"],
        &chat,
    );
    assert_eq!(done.code, 0, "{}", done.stderr);
    assert_eq!(done.stderr, "");
}

#[test]
fn chat_gets_max_completion_tokens_unless_it_used_max_tokens() {
    let anthropic =
        json!({"model": "m", "max_tokens": 64, "messages": [{"role": "user", "content": "hi"}]});
    let done = convert(&["--from", "anthropic", "--to", "openai-chat"], &anthropic);
    assert_eq!(done.json()["max_completion_tokens"], 64);
    assert!(done.json().get("max_tokens").is_none());
    // A Chat body written with the old field keeps it.
    let old =
        json!({"model": "m", "max_tokens": 64, "messages": [{"role": "user", "content": "hi"}]});
    let back = convert(&["--from", "openai-chat", "--to", "openai-chat"], &old);
    assert_eq!(back.json(), old);
}

#[test]
fn numbers_keep_their_spelling_in_split_and_convert() {
    let reply = br#"{"a":1e5,"b":2.5E-3,"c":[-0.0,1e+2],"tool_output_images":[]}"#;
    let rest = run_with_stdin(&["split", "--rest"], reply);
    assert_eq!(
        rest.stdout.trim_end(),
        r#"{"a":1e5,"b":2.5E-3,"c":[-0.0,1e+2]}"#
    );
    let parts = run_with_stdin(&["split"], reply);
    assert_eq!(
        parts.json()[0]["text"],
        r#"{"a":1e5,"b":2.5E-3,"c":[-0.0,1e+2]}"#
    );
    let canonical = run_with_stdin(&["convert", "--to", "canonical"], reply);
    assert_eq!(
        canonical.json()["content"][0]["text"],
        r#"{"a":1e5,"b":2.5E-3,"c":[-0.0,1e+2]}"#
    );
    // Untouched settings, and arguments written as a string from an object.
    let chat = br#"{"model":"m","temperature":1E-1,"messages":[{"role":"user","content":"hi"}]}"#;
    let same = run_with_stdin(
        &[
            "convert",
            "--compact",
            "--from",
            "openai-chat",
            "--to",
            "openai-chat",
        ],
        chat,
    );
    assert!(
        same.stdout.contains(r#""temperature":1E-1"#),
        "{}",
        same.stdout
    );
    let anthropic = br#"{"model":"m","max_tokens":5,"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"f","input":{"x":1E5,"y":2e-3}}]}]}"#;
    let done = run_with_stdin(
        &["convert", "--from", "anthropic", "--to", "openai-chat"],
        anthropic,
    );
    assert_eq!(
        done.json()["messages"][0]["tool_calls"][0]["function"]["arguments"],
        r#"{"x":1E5,"y":2e-3}"#
    );
}
