//! Detection by evidence over the whole document, as `validate` and `convert`
//! show it: what only one shape writes decides wherever it stands, a list of
//! messages is never skipped, and a guess between shapes that read the
//! document differently is said once per kind of guess.

use serde_json::json;

use crate::run_with_stdin;

#[test]
fn a_body_is_checked_as_the_shape_its_own_forms_name() {
    // An Anthropic body whose typed system prompt also fits canonical: its
    // tool_use decides, and Anthropic's rules apply (an empty text block).
    let body = json!({"model": "m", "max_tokens": 5,
        "system": [{"type": "text", "text": "Be brief."}],
        "tools": [{"name": "f", "input_schema": {"type": "object"}}],
        "messages": [{"role": "user", "content": [{"type": "text", "text": ""}]},
                     {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}]},
                     {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"}]}]});
    let run = run_with_stdin(&["validate"], body.to_string().as_bytes());
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (1, "<stdin>:1: error[text-empty] /messages/0/content/0: Anthropic refuses text blocks without non-whitespace text\n"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("warning"), "{}", run.stderr);
}

#[test]
fn a_model_name_tells_plain_messages_apart() {
    // Plain text fits Chat and Anthropic alike; Claude's name says which, and
    // Anthropic refuses the empty message that Chat would take.
    let body = json!({"model": "claude-haiku-4-5", "max_tokens": 100,
        "messages": [{"role": "user", "content": ""}]});
    let run = run_with_stdin(&["validate"], body.to_string().as_bytes());
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stdout.contains("error[text-empty] /messages/0/content"),
        "{}",
        run.stdout
    );
}

#[test]
fn guesses_are_said_once_per_kind_with_a_count() {
    // Three documents in which no shape sees anything of its own, and two
    // whose evidence is split.
    let unknown = json!({"messages": [{"role": "user", "content": [{"type": "mystery", "x": 1}]}]});
    let mixed = json!({"input": [{"role": "user", "content": [
        {"type": "input_text", "text": "Hi."}, {"type": "image_url", "image_url": {"url": "https://x/a.png"}}]}]});
    let lines = [&unknown, &mixed, &unknown, &mixed, &unknown]
        .iter()
        .map(|doc| doc.to_string())
        .collect::<Vec<_>>()
        .join("\n");
    let run = run_with_stdin(
        &[
            "validate",
            "--ignore",
            "transcript-invalid",
            "--ignore",
            "shape-field",
        ],
        lines.as_bytes(),
    );
    let notes: Vec<&str> = run
        .stderr
        .lines()
        .filter(|line| line.starts_with("partkit: warning:"))
        .collect();
    assert_eq!(
        notes,
        [
            "partkit: warning: <stdin>:1: read the input as openai-chat (nothing in its messages tells the shape); pass --from to choose (and 2 more documents like it)",
            "partkit: warning: <stdin>:2: read the input as openai-responses (its forms are mostly openai-responses's, some openai-chat's); pass --from to choose (and 1 more document like it)",
        ],
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("checked 5 documents"), "{}", run.stderr);
    // --quiet silences them; the summary stays.
    let quiet = run_with_stdin(
        &["validate", "--quiet", "--ignore", "transcript-invalid"],
        lines.as_bytes(),
    );
    assert!(!quiet.stderr.contains("warning:"), "{}", quiet.stderr);
}

#[test]
fn plain_text_is_checked_without_a_note() {
    // Chat and Anthropic check plain text alike: no note in validate (convert,
    // whose output depends on it, still says what it read).
    let body = json!([{"role": "user", "content": "hi"}]);
    let run = run_with_stdin(&["validate"], body.to_string().as_bytes());
    assert_eq!((run.code, run.stdout.as_str()), (0, ""));
    assert!(!run.stderr.contains("warning"), "{}", run.stderr);
    let run = run_with_stdin(
        &["convert", "--to", "anthropic"],
        body.to_string().as_bytes(),
    );
    assert!(
        run.stderr
            .contains("read the input as openai-chat (plain text messages fit several shapes)"),
        "{}",
        run.stderr
    );
}

#[test]
fn copies_of_a_providers_setting_and_stored_prompts() {
    // DeepSeek's chat API copies a bare `thinking: {"type": "enabled"}`: it
    // tells nothing, and plain messages stay Chat's.
    let deepseek = json!({"model": "deepseek-chat", "thinking": {"type": "enabled"},
        "messages": [{"role": "user", "content": "hi"}]});
    let run = run_with_stdin(
        &["convert", "--to", "canonical"],
        deepseek.to_string().as_bytes(),
    );
    assert!(
        run.stderr
            .contains("read the input as openai-chat (plain text messages"),
        "{}",
        run.stderr
    );
    // A Responses request that only names a stored prompt is checked.
    let prompt =
        json!({"prompt": {"id": "pmpt_1", "version": "2", "variables": {"q": "What is ML?"}}});
    let run = run_with_stdin(&["validate"], prompt.to_string().as_bytes());
    assert_eq!(run.code, 0);
    assert!(run.stderr.contains("checked 1 document"), "{}", run.stderr);
    // A system message that Responses also takes does not split a body whose
    // `input` is Responses' own.
    let responses = json!({"model": "gpt-5", "input": [{"role": "system", "content": "Be brief."},
        {"role": "user", "content": "hi"}]});
    let run = run_with_stdin(&["validate"], responses.to_string().as_bytes());
    assert!(!run.stderr.contains("warning"), "{}", run.stderr);
}
