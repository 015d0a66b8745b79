//! One document as a section of the page: a transcript (of any shape, read
//! through the canonical form) as turns with tool calls paired to their
//! results, a tool reply as its rest and its images, canonical parts as
//! parts; `validate`'s findings at the top of the section.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::anchors::{self, Anchor};
use super::facts::{self, Facts};
use super::fold;
use super::html::Html;
use super::indent;
use super::media::{self, Media, MediaCount, MediaStyle, Source};
use super::repeats::{self, Repeat};
use super::tools::{self, ToolList};
use crate::convert::document::{convert_document, ConvertRequest, RolloutChoice};
use crate::shapes::Shape;
use crate::shared::SharedBytes;
use crate::validate::{rules, CheckOptions, DocKind, Severity};

/// The most characters of one text shown.
const MAX_TEXT: usize = 20_000;

/// Call arguments this long or shorter stay on one line, as recorded.
const ARGUMENTS_ON_A_LINE: usize = 120;

/// How documents are drawn.
#[derive(Debug, Clone, Default)]
pub struct DocOptions {
    pub check: CheckOptions,
    pub media: MediaStyle,
}

/// What the index and the summary need of a document.
#[derive(Debug, Default, Clone)]
pub struct DocSummary {
    pub line: usize,
    /// `openai-chat transcript`, `tool reply`, …
    pub kind: String,
    pub media: MediaCount,
    pub calls: usize,
    pub unanswered: usize,
    pub orphans: usize,
    pub errors: usize,
    pub warnings: usize,
    /// What a rollout line says of itself (its other members left out).
    pub facts: Option<Facts>,
    /// The task its rollouts share, for a document with rollout facts.
    pub task: Option<Task>,
}

/// The task of a rollout (docs/commands/view.md#rollouts): the same
/// `_ng_task_index` (of the same agent), else the same `instance_id`, else
/// the same first user message.
#[derive(Debug, Clone, PartialEq)]
pub struct Task {
    /// Tells tasks apart on the page (`data-task`).
    pub id: String,
    /// What the index shows: `17`, the instance, or the message's start.
    pub label: String,
}

/// One drawn document.
pub struct DocView {
    pub html: String,
    pub summary: DocSummary,
    /// Its tool list, whose slot `html` holds ([`tools::slot`]).
    pub tools: Option<ToolList>,
    /// Its long texts, whose slots `html` holds ([`repeats::slot`]).
    pub repeats: Vec<Repeat>,
}

/// The most characters of a first user message shown as a task's label.
const TASK_LABEL: usize = 60;

/// Draws the document on `line`.
pub fn draw(line: usize, bytes: &SharedBytes, options: &DocOptions) -> DocView {
    let drawn = draw_content(line, bytes, options, &Within::default());
    let mut summary = drawn.summary;
    let mut html = Html::new();
    html.raw(&format!(
        "<section class=\"doc\" id=\"line-{line}\" data-line=\"{line}\" data-findings=\"{}\" data-images=\"{}\"",
        summary.errors + summary.warnings,
        summary.media.images
    ));
    // The reward as recorded, when it is a number (what the script filters
    // by, and what the compare view names).
    if let Some(reward) = summary
        .facts
        .as_ref()
        .and_then(|f| f.reward.as_ref())
        .filter(|r| r.value.is_some())
    {
        html.raw(" data-reward=\"").text(&reward.text).raw("\"");
    }
    if let Some(task) = &summary.task {
        html.raw(&format!(" data-task=\"{}\"", task.id));
    }
    html.raw("><h2><a href=\"#line-")
        .raw(&line.to_string())
        .raw("\">line ")
        .count(line)
        .raw("</a> · ")
        .text(&summary.kind)
        .raw("</h2>");
    if let Some(facts) = summary.facts.as_mut() {
        rollout_header(facts, summary.task.as_ref(), &mut html);
        facts.others = Vec::new();
    }
    if !drawn.findings.is_empty() {
        html.raw("<ul class=\"findings\">")
            .raw(&drawn.findings)
            .raw("</ul>");
    }
    html.append(drawn.body).raw("</section>\n");
    DocView {
        html: html.into_string(),
        summary,
        tools: drawn.tools,
        repeats: drawn.repeats,
    }
}

/// A rollout's facts under its heading: reward, task, indices, agent, and
/// its other members folded.
fn rollout_header(facts: &Facts, task: Option<&Task>, html: &mut Html) {
    html.raw("<p class=\"facts rollout\">");
    let mut first = true;
    let mut sep = |html: &mut Html| {
        if !std::mem::take(&mut first) {
            html.raw(" · ");
        }
    };
    if let Some(reward) = &facts.reward {
        sep(html);
        html.raw("reward <b class=\"reward ")
            .raw(super::index::grade(reward.value))
            .raw("\">")
            .text_cut(&reward.text, 40)
            .raw("</b>");
    }
    let task_label = match (&facts.task, task) {
        (None, Some(task)) if facts.instance.is_none() => Some(task.label.as_str()),
        _ => None,
    };
    for (name, value) in [
        ("task", facts.task.as_deref()),
        ("first message", task_label),
        ("rollout", facts.rollout.as_deref()),
        ("instance", facts.instance.as_deref()),
        ("agent", facts.agent.as_deref()),
    ] {
        if let Some(value) = value {
            sep(html);
            html.raw(name).raw(" <b>").text_cut(value, 200).raw("</b>");
        }
    }
    html.raw("</p>");
    if facts.others.is_empty() {
        return;
    }
    html.raw("<details class=\"fields\"><summary>")
        .raw(&crate::size::count_of(facts.others.len(), "more field"))
        .raw(": ");
    for (i, (key, _)) in facts.others.iter().enumerate() {
        if i > 0 {
            html.raw(", ");
        }
        html.element("code", "key", key);
    }
    html.raw("</summary><table class=\"fields\">");
    for (key, value) in &facts.others {
        html.raw("<tr><th>").text_cut(key, 200).raw("</th><td>");
        let raw = value.get();
        match indent::json(raw) {
            Some(indented) => fold::block(html, "json", &indented, MAX_TEXT),
            None if raw.starts_with('"') => {
                fold::block(html, "text", &facts::scalar(value), MAX_TEXT)
            }
            None => fold::block(html, "json", raw, MAX_TEXT),
        }
        html.raw("</td></tr>");
    }
    html.raw("</table></details>");
}

/// The task of a document whose facts say it is a rollout.
fn task_of(facts: &Facts, canonical: Option<&Value>) -> Task {
    use std::hash::Hasher;
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    let label = match (&facts.task, &facts.instance) {
        (Some(task), _) => {
            hasher.write(b"task\0");
            hasher.write(facts.agent.as_deref().unwrap_or("").as_bytes());
            hasher.write(b"\0");
            hasher.write(task.as_bytes());
            task.clone()
        }
        (None, Some(instance)) => {
            hasher.write(b"instance\0");
            hasher.write(instance.as_bytes());
            instance.clone()
        }
        (None, None) => {
            let message = canonical.and_then(first_user_message);
            // The message's JSON is hashed as it is written: its image's
            // base64 is never copied into a key.
            hasher.write(b"first\0");
            if let Some(message) = message {
                let _ = serde_json::to_writer(HashWriter(&mut hasher), message);
            }
            let text = message.map(message_text).unwrap_or_default();
            let mut label: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
            if let Some((end, _)) = label.char_indices().nth(TASK_LABEL) {
                label.truncate(end);
                label.push('…');
            }
            format!("“{label}”")
        }
    };
    Task {
        id: format!("t{:016x}", hasher.finish()),
        label,
    }
}

/// Feeds what is written to a hasher.
struct HashWriter<'a, H: std::hash::Hasher>(&'a mut H);

impl<H: std::hash::Hasher> std::io::Write for HashWriter<'_, H> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.write(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn first_user_message(canonical: &Value) -> Option<&Value> {
    let messages = match canonical {
        Value::Array(messages) => messages,
        other => other.get("messages")?.as_array()?,
    };
    messages
        .iter()
        .find(|m| m.get("role").and_then(Value::as_str) == Some("user"))
}

fn message_text(message: &Value) -> String {
    match message.get("content") {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join(" "),
        _ => String::new(),
    }
}

/// Where a document drawn by [`draw_content`] sits, when it is not a
/// document of its own: a body of a recorded interaction.
#[derive(Debug, Default)]
pub struct Within {
    /// Put before the ids of its tool calls (`call-1`), which must be
    /// unique on the page.
    pub id_prefix: String,
    /// Added to the message of each error finding (what the recorded
    /// status says of it, [`crate::recorded::answered_note`]).
    pub error_note: Option<String>,
    /// What later bodies of the recording answer: a recorded response's
    /// calls are answered by the next request, not in the response itself.
    pub answered_later: Answers,
}

/// The calls that tool results answer: by call id, and by tool name for a
/// call that has no id (Gemini's, which it pairs with results by name).
#[derive(Debug, Default, Clone)]
pub struct Answers {
    pub ids: HashSet<String>,
    pub names: HashSet<String>,
}

impl Answers {
    pub fn extend(&mut self, other: &Answers) {
        self.ids.extend(other.ids.iter().cloned());
        self.names.extend(other.names.iter().cloned());
    }
}

/// A document drawn, not yet put in a section: its summary, the findings
/// no element of it took (list items), and its turns.
pub struct Drawn {
    pub summary: DocSummary,
    pub findings: String,
    pub body: Html,
    /// Its tool list, whose slot `body` holds.
    pub tools: Option<ToolList>,
    /// Its long texts, whose slots `body` holds.
    pub repeats: Vec<Repeat>,
}

/// Draws `bytes` (the document on `line`) as turns, with its findings.
pub fn draw_content(
    line: usize,
    bytes: &SharedBytes,
    options: &DocOptions,
    within: &Within,
) -> Drawn {
    let report = crate::validate::check_shared(bytes, &options.check);
    let mut summary = DocSummary {
        line,
        ..DocSummary::default()
    };
    // A transcript is drawn from its canonical form, read first: the ids of
    // its calls and results tie findings to them.
    let canonical = match report.kind {
        Some(DocKind::Transcript(_)) => Some(canonical(bytes, RolloutChoice::Never)),
        Some(DocKind::Rollout) => Some(canonical(bytes, RolloutChoice::Always)),
        _ => None,
    };
    let mut pairs = Pairs::default();
    if let Some(Ok(value)) = &canonical {
        pairs.collect(value);
    }
    // What a rollout line says of itself, and the task it shares.
    if canonical.is_some() {
        let rollout = report.kind == Some(DocKind::Rollout);
        summary.facts = facts::read(bytes, rollout).filter(Facts::any);
        summary.task = summary
            .facts
            .as_ref()
            .map(|f| task_of(f, canonical.as_ref().and_then(|c| c.as_ref().ok())));
    }
    pairs.answered.extend(
        pairs
            .calls
            .intersection(&within.answered_later.ids)
            .cloned()
            .collect::<Vec<_>>(),
    );
    // The document as recorded, parsed once: what a reply or parts are drawn
    // from, and what findings' pointers point into.
    let drawn_raw = matches!(report.kind, Some(DocKind::Reply | DocKind::Parts));
    let original = if drawn_raw || !report.issues.is_empty() {
        serde_json::from_slice::<Value>(bytes).ok()
    } else {
        None
    };
    let ids = &pairs.ids;
    let mut state = Drawing::new(
        options.media,
        &pairs.answered,
        &within.answered_later.names,
        &within.id_prefix,
    );
    for issue in &report.issues {
        let severity = issue
            .severity
            .unwrap_or_else(|| rules::find(issue.rule).map_or(Severity::Error, |r| r.severity));
        match severity {
            Severity::Error => summary.errors += 1,
            Severity::Warning => summary.warnings += 1,
        }
        let anchor = original
            .as_ref()
            .and_then(|doc| anchors::of(doc, &issue.pointer, ids));
        let note = match severity {
            Severity::Error => within.error_note.as_deref(),
            Severity::Warning => None,
        };
        state.add_finding(finding(issue, severity, note), anchor);
    }
    let mut body = Html::new();
    match report.kind {
        Some(DocKind::Reply) => {
            summary.kind = "tool reply".into();
            if let Some(value) = original {
                reply(value, &mut body, &mut state);
            }
        }
        Some(DocKind::Parts) => {
            summary.kind = "canonical parts".into();
            if let Some(value) = &original {
                let parts = match value {
                    Value::Array(items) => items.iter().collect(),
                    one => vec![one],
                };
                body.raw("<div class=\"turn parts\">");
                for part in parts {
                    state.part(part, &mut body);
                }
                body.raw("</div>");
            }
        }
        Some(DocKind::Transcript(shape)) => {
            summary.kind = format!("{} transcript", shape.name());
        }
        Some(DocKind::Rollout) => {
            summary.kind = crate::shapes::rollout().name().into();
        }
        None => {
            summary.kind = if report.skipped {
                "not a document partkit reads".into()
            } else {
                "not JSON".into()
            };
            body.raw("<pre class=\"text raw\">")
                .text_cut(&String::from_utf8_lossy(bytes), 2_000)
                .raw("</pre>");
        }
    }
    match canonical {
        Some(Ok(value)) => transcript(&value, &mut body, &mut state),
        Some(Err(error)) => {
            body.raw("<div class=\"chip bad\">cannot be read as a transcript: ")
                .text_cut(&error, 2_000)
                .raw("</div>");
        }
        None => {}
    }
    let findings = state.unplaced_findings();
    summary.media = state.count;
    summary.calls = state.calls.len();
    summary.unanswered = state.calls.values().filter(|c| !c.answered).count();
    summary.orphans = state.orphans;
    Drawn {
        summary,
        findings,
        body,
        tools: state.tools,
        repeats: state.repeats,
    }
}

/// A JSON Lines line over the document size limit, not read: its section
/// says so, and it counts as one error.
pub fn too_large(line: usize, message: &str) -> DocView {
    let summary = DocSummary {
        line,
        kind: "too large to draw".into(),
        errors: 1,
        ..DocSummary::default()
    };
    let mut html = Html::new();
    html.raw(&format!(
        "<section class=\"doc\" id=\"line-{line}\" data-line=\"{line}\" data-findings=\"1\" data-images=\"0\">"
    ))
    .raw("<h2><a href=\"#line-")
    .raw(&line.to_string())
    .raw("\">line ")
    .count(line)
    .raw("</a> · ")
    .text(&summary.kind)
    .raw("</h2><div class=\"chip bad\">")
    .text_cut(message, 2_000)
    .raw("</div></section>\n");
    DocView {
        html: html.into_string(),
        summary,
        tools: None,
        repeats: Vec::new(),
    }
}

/// A call seen in the conversation.
struct Call {
    /// Its number on the page (`call-3`).
    number: usize,
    answered: bool,
}

/// The state of one document being drawn.
struct Drawing<'a> {
    /// The calls a result answers, in document order ([`Pairs`]).
    answered: &'a HashSet<String>,
    /// Tool names answered later, for calls with no id ([`Answers`]).
    answered_names: &'a HashSet<String>,
    style: MediaStyle,
    count: MediaCount,
    /// Calls by id.
    calls: HashMap<String, Call>,
    orphans: usize,
    /// The document's findings, drawn, and whether each is placed yet.
    findings: Vec<(String, bool)>,
    /// The findings tied to a media item or a call, waiting for it.
    waiting: HashMap<Anchor, Vec<usize>>,
    /// Put before the ids of calls ([`Within::id_prefix`]).
    id_prefix: &'a str,
    /// The transcript's tool list, drawn.
    tools: Option<ToolList>,
    /// Whether the blocks drawn are a tool result's (a JSON text in one is
    /// shown indented).
    in_result: bool,
    /// The long texts drawn, which the writer puts in place.
    repeats: Vec<Repeat>,
}

impl<'a> Drawing<'a> {
    fn new(
        style: MediaStyle,
        answered: &'a HashSet<String>,
        answered_names: &'a HashSet<String>,
        id_prefix: &'a str,
    ) -> Drawing<'a> {
        Drawing {
            id_prefix,
            answered,
            answered_names,
            style,
            count: MediaCount::default(),
            calls: HashMap::new(),
            orphans: 0,
            findings: Vec::new(),
            waiting: HashMap::new(),
            tools: None,
            in_result: false,
            repeats: Vec::new(),
        }
    }

    fn add_finding(&mut self, html: String, anchor: Option<Anchor>) {
        if let Some(anchor) = anchor {
            self.waiting
                .entry(anchor)
                .or_default()
                .push(self.findings.len());
        }
        self.findings.push((html, false));
    }

    /// The findings tied to `anchor`, drawn here (the first element that
    /// has it: a finding about a call or its result shows on the call).
    fn attach(&mut self, anchor: Anchor, html: &mut Html) {
        let Some(indices) = self.waiting.remove(&anchor) else {
            return;
        };
        html.raw("<ul class=\"findings inline\">");
        for index in indices {
            html.raw(&self.findings[index].0);
            self.findings[index].1 = true;
        }
        html.raw("</ul>");
    }

    /// The findings no element took, for the top of the document.
    fn unplaced_findings(&self) -> String {
        self.findings
            .iter()
            .filter(|(_, placed)| !placed)
            .map(|(html, _)| html.as_str())
            .collect()
    }

    /// One content block of a message.
    fn part(&mut self, part: &Value, html: &mut Html) {
        let kind = part.get("type").and_then(Value::as_str).unwrap_or("");
        match kind {
            "text" => {
                let text = part.get("text").and_then(Value::as_str).unwrap_or("");
                self.text(text, html);
            }
            "image" | "file" | "audio" => {
                let source = match (
                    part.get("data").and_then(Value::as_str),
                    part.get("url").and_then(Value::as_str),
                ) {
                    (Some(data), _) => Source::Base64(data),
                    (None, Some(url)) => Source::Url(url),
                    _ => Source::Missing,
                };
                // Hashing a payload is only worth it when a finding waits.
                let anchor = match source {
                    Source::Base64(data) if !self.waiting.is_empty() => {
                        Some(anchors::payload(data))
                    }
                    _ => None,
                };
                let media = Media {
                    kind,
                    declared: part.get("mimeType").and_then(Value::as_str),
                    name: part.get("name").and_then(Value::as_str),
                    source,
                };
                media::draw(&media, self.style, html, &mut self.count);
                if let Some(anchor) = anchor {
                    self.attach(anchor, html);
                }
            }
            "tool_call" => self.call(part, html),
            "tool_result" => self.result(part, html),
            _ => {
                html.raw("<details class=\"opaque\"><summary>")
                    .text(if kind.is_empty() { "block" } else { kind })
                    .raw("</summary>");
                fold::block(html, "json", &pretty(part), MAX_TEXT);
                html.raw("</details>");
            }
        }
    }

    /// A text, folded when long; a tool result's JSON text indented. A
    /// long one goes in a slot: the writer draws it where it is first seen
    /// on the page and points back to it after ([`repeats`]).
    fn text(&mut self, text: &str, html: &mut Html) {
        let indented = self.in_result.then(|| indent::json(text)).flatten();
        let (class, shown) = match &indented {
            Some(indented) => ("json", indented.as_str()),
            None => ("text", text),
        };
        if !fold::folds(shown) {
            fold::block(html, class, shown, MAX_TEXT);
            return;
        }
        let mut drawn = Html::new();
        fold::block(&mut drawn, class, shown, MAX_TEXT);
        let repeat = Repeat::new(text, drawn.into_string());
        html.raw(&repeats::slot(repeat.key));
        self.repeats.push(repeat);
    }

    fn call(&mut self, part: &Value, html: &mut Html) {
        let id = part.get("id").and_then(Value::as_str).unwrap_or("");
        let name = part.get("name").and_then(Value::as_str).unwrap_or("");
        let number = self.calls.len() + 1;
        let answered =
            self.answered.contains(id) || (id.is_empty() && self.answered_names.contains(name));
        self.calls
            .entry(id.to_string())
            .or_insert(Call { number, answered });
        html.raw(&format!(
            "<div class=\"tool-call\" id=\"{}call-{number}\">",
            self.id_prefix
        ))
        .raw(if answered {
            "<span class=\"mark good\">answered</span>"
        } else {
            "<span class=\"mark bad\">unanswered</span>"
        })
        .raw("<div class=\"call-head\">call <span class=\"name\">")
        .text_cut(name, 200)
        .raw("</span> <code class=\"id\">")
        .text_cut(id, 200)
        .raw("</code></div>");
        // Arguments are mostly short: kept on their line until they are not.
        match part.get("arguments") {
            Some(Value::String(text)) => match indent::json(text) {
                Some(indented) if text.len() > ARGUMENTS_ON_A_LINE => {
                    fold::block(html, "json", &indented, MAX_TEXT)
                }
                _ => fold::block(html, "json", text, MAX_TEXT),
            },
            Some(arguments) => {
                let compact = arguments.to_string();
                if compact.len() > ARGUMENTS_ON_A_LINE {
                    fold::block(html, "json", &pretty(arguments), MAX_TEXT)
                } else {
                    fold::block(html, "json", &compact, MAX_TEXT)
                }
            }
            None => fold::block(html, "json", "{}", MAX_TEXT),
        };
        self.attach(Anchor::Id(id.to_string()), html);
        html.raw("</div>");
    }

    fn result(&mut self, part: &Value, html: &mut Html) {
        let id = part.get("call_id").and_then(Value::as_str).unwrap_or("");
        let name = part.get("name").and_then(Value::as_str).unwrap_or("");
        let error = part.get("is_error").and_then(Value::as_bool) == Some(true);
        let paired = match self.calls.get(id) {
            Some(call) => Some(call.number),
            None => {
                self.orphans += 1;
                None
            }
        };
        html.raw(match (paired, error) {
            (Some(_), false) => "<div class=\"tool-result paired\">",
            (Some(_), true) => "<div class=\"tool-result paired failed\">",
            (None, _) => "<div class=\"tool-result orphan\">",
        });
        html.raw("<div class=\"call-head\">");
        match paired {
            Some(number) => html.raw(&format!(
                "result of <a href=\"#{}call-{number}\">call {number}</a> ",
                self.id_prefix
            )),
            None => {
                html.raw("<span class=\"mark bad\">orphan result: no call with this id</span> ")
            }
        };
        html.raw("<span class=\"name\">")
            .text_cut(name, 200)
            .raw("</span> <code class=\"id\">")
            .text_cut(id, 200)
            .raw("</code>");
        if error {
            html.raw(" <span class=\"mark bad\">is_error</span>");
        }
        html.raw("</div>");
        self.attach(Anchor::Id(id.to_string()), html);
        let outer = std::mem::replace(&mut self.in_result, true);
        match part.get("content") {
            Some(Value::Array(items)) => {
                for item in items {
                    self.part(item, html);
                }
            }
            Some(Value::String(text)) => self.text(text, html),
            _ => {}
        }
        self.in_result = outer;
        html.raw("</div>");
    }
}

/// A transcript (or a rollout's conversation) in the canonical form, or why
/// it cannot be read as one.
fn canonical(bytes: &SharedBytes, rollout: RolloutChoice) -> Result<Value, String> {
    let request = ConvertRequest {
        from: None,
        to: Shape::Canonical,
        options: Default::default(),
        pretty: false,
        at: Default::default(),
        rollout,
        bare: true,
    };
    let doc = convert_document(bytes, &request).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    doc.write_to(&mut out, bytes).map_err(|e| e.to_string())?;
    serde_json::from_slice::<Value>(&out).map_err(|e| e.to_string())
}

/// The calls the tool results of the transcript in `bytes` answer (none
/// for a document that is not one): what a recording's earlier responses
/// are answered by ([`Within::answered_later`]).
pub fn answers(bytes: &[u8]) -> Answers {
    let mut pairs = Pairs::default();
    if let Ok(value) = canonical(&SharedBytes::new(bytes.to_vec()), RolloutChoice::Never) {
        pairs.collect(&value);
    }
    pairs.results
}

/// The tool calls and results of a canonical transcript, read in document
/// order before drawing: every id (what findings tie to) and the calls a
/// result answers (a result answers a call before it with its id).
#[derive(Default)]
struct Pairs {
    ids: HashSet<String>,
    calls: HashSet<String>,
    answered: HashSet<String>,
    /// Every result's call id and tool name, answered here or not.
    results: Answers,
}

impl Pairs {
    fn collect(&mut self, value: &Value) {
        match value {
            Value::Object(map) => {
                let id = |key| map.get(key).and_then(Value::as_str).map(str::to_string);
                match map.get("type").and_then(Value::as_str) {
                    Some("tool_call") => {
                        if let Some(id) = id("id") {
                            self.calls.insert(id.clone());
                            self.ids.insert(id);
                        }
                    }
                    Some("tool_result") => {
                        if let Some(name) = id("name") {
                            self.results.names.insert(name);
                        }
                        if let Some(id) = id("call_id") {
                            self.results.ids.insert(id.clone());
                            if self.calls.contains(&id) {
                                self.answered.insert(id.clone());
                            }
                            self.ids.insert(id);
                        }
                    }
                    _ => {}
                }
                map.values().for_each(|v| self.collect(v));
            }
            Value::Array(items) => items.iter().for_each(|v| self.collect(v)),
            _ => {}
        }
    }
}

/// One finding as a list item.
/// `note`, when given, follows the message.
pub fn finding(issue: &crate::validate::Issue, severity: Severity, note: Option<&str>) -> String {
    let class = match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    let mut html = Html::new();
    html.raw("<li class=\"finding ")
        .raw(class)
        .raw("\"><span class=\"severity\">")
        .raw(class)
        .raw("</span> <span class=\"rule\">")
        .text(issue.rule)
        .raw("</span> <code class=\"pointer\">")
        .text_cut(
            if issue.pointer.is_empty() {
                "/"
            } else {
                &issue.pointer
            },
            200,
        )
        .raw("</code> ")
        .text_cut(&issue.message, 2_000);
    if let Some(note) = note {
        html.raw(" ").text(note);
    }
    html.raw("</li>");
    html.into_string()
}

/// A canonical transcript (or a rollout's conversation) as turns.
fn transcript(value: &Value, html: &mut Html, state: &mut Drawing) {
    let (system, tools, messages) = match value {
        Value::Array(messages) => (None, None, Some(messages)),
        Value::Object(map) => (
            map.get("system"),
            map.get("tools"),
            map.get("messages").and_then(Value::as_array),
        ),
        _ => (None, None, None),
    };
    if let Some(Value::Array(tools)) = tools.filter(|t| t.as_array().is_some_and(|t| !t.is_empty()))
    {
        let list = tools::draw(tools);
        html.raw(&tools::slot(list.key));
        state.tools = Some(list);
    }
    if let Some(Value::Array(parts)) = system {
        turn("system", parts, html, state);
    }
    match messages {
        Some(messages) => {
            for message in messages {
                let role = message.get("role").and_then(Value::as_str).unwrap_or("?");
                let parts = message
                    .get("content")
                    .and_then(Value::as_array)
                    .map(Vec::as_slice)
                    .unwrap_or(&[]);
                turn(role, parts, html, state);
            }
        }
        // A single tool result, or a response read as one assistant turn.
        None if value.get("type").is_some() => {
            turn("tool", std::slice::from_ref(value), html, state)
        }
        None => {}
    }
}

/// One turn: its role and its blocks.
fn turn(role: &str, parts: &[Value], html: &mut Html, state: &mut Drawing) {
    let class = match role {
        "system" | "user" | "assistant" | "tool" => role,
        _ => "other",
    };
    html.raw("<div class=\"turn ")
        .raw(class)
        .raw("\"><div class=\"role\">")
        .text(role)
        .raw("</div>");
    for part in parts {
        state.part(part, html);
    }
    html.raw("</div>");
}

/// A tool reply: the rest of it (the JSON the model reads) and its images.
fn reply(value: Value, html: &mut Html, state: &mut Drawing) {
    let Value::Object(mut map) = value else {
        return;
    };
    let images = map.shift_remove("tool_output_images");
    html.raw("<div class=\"turn tool\"><div class=\"role\">tool reply</div>");
    fold::block(html, "json", &pretty(&Value::Object(map)), MAX_TEXT);
    for image in images
        .as_ref()
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let url = match image.get("image_url") {
            Some(Value::String(url)) => Some(url.as_str()),
            Some(Value::Object(inner)) => inner.get("url").and_then(Value::as_str),
            _ => None,
        };
        let label = image.get("label").and_then(Value::as_str);
        if let Some(label) = label {
            fold::block(html, "text label", label, MAX_TEXT);
        }
        let parsed = url.and_then(|u| crate::dataurl::parse(u).ok());
        let media = match (&parsed, url) {
            (Some(data), _) if data.base64 => Media {
                kind: "image",
                declared: Some(data.declared),
                name: None,
                source: Source::Base64(data.payload),
            },
            (_, Some(url)) if !crate::dataurl::is_data_url(url) => Media {
                kind: "image",
                declared: None,
                name: None,
                source: Source::Url(url),
            },
            _ => Media {
                kind: "image",
                declared: None,
                name: None,
                source: Source::Missing,
            },
        };
        media::draw(&media, state.style, html, &mut state.count);
        if let Source::Base64(data) = media.source {
            state.attach(anchors::payload(data), html);
        }
    }
    html.raw("</div>");
}

/// JSON pretty-printed for a person: strings over 2,000 characters cut (a
/// base64 payload after 100), saying how many characters were left out, so
/// that a large payload is neither copied whole nor shown whole.
fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(&shortened(value)).unwrap_or_default()
}

fn shortened(value: &Value) -> Value {
    match value {
        Value::String(text) => {
            let keep = if anchors::looks_like_payload(text) {
                100
            } else {
                2_000
            };
            match text.char_indices().nth(keep) {
                None => value.clone(),
                Some((end, _)) => Value::String(format!(
                    "{}… ({} more characters)",
                    &text[..end],
                    crate::size::group_digits(text[end..].chars().count() as u64)
                )),
            }
        }
        Value::Array(items) => Value::Array(items.iter().map(shortened).collect()),
        Value::Object(map) => {
            Value::Object(map.iter().map(|(k, v)| (k.clone(), shortened(v))).collect())
        }
        other => other.clone(),
    }
}
