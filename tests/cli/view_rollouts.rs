//! `partkit view` for people who read rollouts (docs/commands/view.md#rollouts):
//! the reward, task and agent in the index and in each header, the tasks
//! table with its compare links, long texts and tool lists folded, JSON
//! tool outputs indented, a repeated tool list drawn once. The file is
//! `tests/fixtures/rollouts/tasks.jsonl` (written by `make.py`: twelve
//! rollouts of five tasks, grouped by `_ng_task_index`, by first user
//! message and by `instance_id`). The same page is clicked through in a
//! real browser by `tests/browser/view.mjs`.

use serde_json::json;

use super::{fixture, run, run_with_stdin};

fn page() -> String {
    let path = fixture("rollouts/tasks.jsonl");
    let run = run(&["view", path.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    run.stdout
}

/// The text of the element that starts with `start`, to its first `end`.
fn between<'a>(page: &'a str, start: &str, end: &str) -> &'a str {
    let at = page.find(start).unwrap_or_else(|| panic!("no {start}"));
    let rest = &page[at..];
    &rest[..rest.find(end).map_or(rest.len(), |e| e + end.len())]
}

#[test]
fn every_line_shows_its_reward_task_and_agent() {
    let page = page();
    let head = between(&page, "<table class=\"sortable lines\"><thead>", "</thead>");
    for column in [
        "line", "shape", "reward", "task", "rollout", "instance", "agent",
    ] {
        assert!(
            head.contains(&format!(">{column}</th>")),
            "{column}: {head}"
        );
    }
    assert_eq!(page.matches("<th data-sort=").count(), 11 + 3);
    assert!(page.contains("<input type=\"text\" id=\"reward\""));
    // Line 2 is task 1's first rollout, rewarded 0.0; line 11 an instance's, 0.
    assert!(page.contains(
        "<tr data-line=\"2\"><td class=\"n\"><a href=\"#line-2\">2</a></td><td>NeMo Gym rollout</td><td class=\"n\">0.0</td><td>1</td><td class=\"n\">0</td><td></td><td title=\"image_tools_agent\">image_tools_agent</td>"
    ));
    assert!(page.contains(
        "<td class=\"n\">0</td><td title=\"octo__widgets-1234\">octo__widgets-1234</td>"
    ));
    // The header of each section says the same.
    assert_eq!(
        page.matches("<p class=\"facts rollout\">reward <b class=\"reward ")
            .count(),
        12
    );
    assert!(page.contains("<p class=\"facts rollout\">reward <b class=\"reward bad\">0.0</b> · task <b>1</b> · rollout <b>0</b> · agent <b>image_tools_agent</b></p>"));
    assert!(page.contains(
        "· first message <b>“Move my design review with Priya to Thursday at 14:00.”</b>"
    ));
    // The rollout's other members, folded, numbers as recorded.
    let fields = between(&page, "<details class=\"fields\">", "</summary>");
    assert!(
        fields.contains("<code class=\"key\">metadata</code>"),
        "{fields}"
    );
    // The script filters by the recorded reward.
    assert!(page.contains("<section class=\"doc\" id=\"line-2\" data-line=\"2\" data-findings=\"1\" data-images=\"1\" data-reward=\"0.0\" data-task=\"t"));
}

#[test]
fn rollouts_of_one_task_are_grouped_with_their_rewards_and_a_compare_link() {
    let page = page();
    let tasks = between(&page, "<details class=\"tasks\" open>", "</details>");
    assert!(tasks.contains("5 tasks with more than one rollout, 4 with differing rewards"));
    assert_eq!(tasks.matches("<tr data-task=").count(), 5);
    // Task 0: lines 1, 3, 5 rewarded 1.0, 0.0, 1.0; compare opens the
    // lowest against the first highest.
    let task0 = between(tasks, "<tr data-task=", "</tr>");
    assert!(
        task0.contains("<td class=\"wide\">0</td><td class=\"n\">3</td><td class=\"n\">0.667</td>"),
        "{task0}"
    );
    assert!(task0.contains("<a class=\"reward good\" href=\"#line-1\" title=\"line 1\">1.0</a> <a class=\"reward bad\" href=\"#line-3\" title=\"line 3\">0.0</a> <a class=\"reward good\" href=\"#line-5\""));
    assert!(task0.contains("href=\"#compare-3-1\""));
    // Grouped by first user message, and by instance id.
    assert!(tasks.contains("<td class=\"wide\">“How many visits came from search engines last week?”</td><td class=\"n\">2</td><td class=\"n\">1</td>"));
    assert!(tasks.contains("<tr data-task=\"t"));
    assert!(tasks.contains(
        "<td class=\"wide\">octo__widgets-1234</td><td class=\"n\">2</td><td class=\"n\">0.5</td>"
    ));
    assert!(tasks.contains("href=\"#compare-11-12\""));
    // Sections of one task share its id, which the compare view reads.
    let id = task0["<tr data-task=\"".len()..].split('"').next().unwrap();
    assert_eq!(
        page.matches(&format!("data-task=\"{id}")).count(),
        1 + 3,
        "{id}"
    );
}

#[test]
fn long_prompts_tool_lists_and_json_outputs_are_laid_out_to_read() {
    let page = page();
    // The 122-line system prompt of the image rollouts: its first lines,
    // the rest folded, drawn once; the other five rollouts point to it.
    assert_eq!(
        page.matches("<span class=\"more\">116 more lines</span>")
            .count(),
        1
    );
    assert!(page.contains("<section class=\"doc\" id=\"line-1\""));
    let first = between(&page, "<section class=\"doc\" id=\"line-1\"", "</section>");
    assert!(first.contains("<div class=\"repeated\" id=\"text-1\"><details class=\"fold\">"));
    assert_eq!(
        page.matches("<p class=\"text-ref\">the same 122 lines as <a href=\"#text-1\">line 1</a>: <span class=\"first\">You answer questions about pictures").count(),
        5
    );
    // The 30-tool list of lines 7-10 is drawn once at the top; those lines
    // point to it.
    let top = between(&page, "<section class=\"tool-lists\">", "</section>");
    assert!(top.contains("tool list 1 · 30 tools · used by lines 7, 8, 9, 10: <code class=\"name\">email_search</code>"), "{}", &top[..300]);
    assert!(top.contains("tool list 2 · 1 tool · used by lines 11, 12: "));
    assert_eq!(page.matches("<details class=\"tool\">").count(), 31);
    assert_eq!(
        page.matches("<p class=\"tools-ref\">30 tools: <a href=\"#tools-1\">tool list 1</a>, drawn at the top: ").count(),
        4
    );
    // The list is drawn after the documents and put above them by the style sheet.
    assert!(page.find("<section class=\"tool-lists\">") > page.find("id=\"line-12\""));
    // A tool output kept as one line of JSON is shown indented.
    assert!(page.contains("<pre class=\"json\">{\n  &quot;output&quot;: {\n    &quot;event_id&quot;: &quot;ev_0412&quot;,\n    &quot;updated&quot;: true\n  }\n}</pre>"));
    // No slot is left behind.
    assert!(!page.contains('\0'));
}

#[test]
fn a_document_of_its_own_keeps_its_tool_list_and_plain_pages_stay_plain() {
    let tools: Vec<_> = (0..3)
        .map(|i| json!({"name": format!("f{i}"), "description": "d", "parameters": {"type": "object"}}))
        .collect();
    let body = json!({"model": "m", "tools": tools.iter().map(|t| json!({"type": "function", "function": t})).collect::<Vec<_>>(),
        "messages": [{"role": "user", "content": "hi"}]});
    let run = run_with_stdin(&["view"], body.to_string().as_bytes());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run
        .stdout
        .contains("<details class=\"tools\"><summary>3 tools: <code class=\"name\">f0</code>"));
    assert!(!run.stdout.contains("tool-lists\">"));
    assert!(!run.stdout.contains("id=\"reward\""));
    // A plain transcript has no facts, no tasks.
    assert!(!run.stdout.contains("class=\"facts rollout\""));
    assert!(!run.stdout.contains("class=\"tasks\""));
    // A JSON text outside a tool result is left as written.
    let user = json!({"messages": [{"role": "user", "content": "{\"a\":1,\"b\":[2]}"}]});
    let run = run_with_stdin(&["view"], user.to_string().as_bytes());
    assert!(run
        .stdout
        .contains("<pre class=\"text\">{&quot;a&quot;:1,&quot;b&quot;:[2]}</pre>"));
}

#[test]
fn a_long_text_is_folded_and_every_line_of_it_is_on_the_page_once() {
    let text: String = (1..=120).map(|n| format!("rule {n:03}\n")).collect();
    let body = json!({"messages": [{"role": "system", "content": text}, {"role": "user", "content": "go"}]});
    let run = run_with_stdin(&["view"], body.to_string().as_bytes());
    assert_eq!(run.code, 0, "{}", run.stderr);
    let fold = between(&run.stdout, "<details class=\"fold\">", "</details>");
    assert!(
        fold.starts_with("<details class=\"fold\"><summary><span class=\"pre text\">rule 001\n")
    );
    assert!(fold.contains("rule 006</span><span class=\"more\">114 more lines</span></summary><pre class=\"text rest\">rule 007\n"));
    for n in 1..=120 {
        assert_eq!(
            run.stdout.matches(&format!("rule {n:03}\n")).count()
                + run.stdout.matches(&format!("rule {n:03}<")).count(),
            1,
            "{n}"
        );
    }
}

#[test]
fn a_cassette_draws_the_tool_list_its_requests_repeat_once() {
    let Some(root) = super::support::cassettes() else {
        return;
    };
    // pydantic-ai-03 sends one tool with each of its four requests;
    // mcp/chatlas-01 sends its list with two of its requests only.
    for (file, users) in [
        (
            "vcrpy/pydantic-ai-03.yaml",
            "used by interactions 1, 2, 3, 4: ",
        ),
        ("mcp/chatlas-01.yaml", "used by interactions 5, 7: "),
    ] {
        let path = root.join(file);
        let run = run(&["view", path.to_str().unwrap()]);
        assert_eq!(run.code, 0, "{file}: {}", run.stderr);
        let top = between(&run.stdout, "<section class=\"tool-lists\">", "</section>");
        assert!(
            top.contains(&format!("tool list 1 · 1 tool · {users}")),
            "{file}: {top}"
        );
        assert_eq!(
            top.matches("<details class=\"tools\" id=").count(),
            1,
            "{file}"
        );
        assert_eq!(
            run.stdout.matches("<details class=\"tool\">").count(),
            1,
            "{file}"
        );
    }
}
