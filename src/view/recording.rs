//! A recording (a cassette, a HAR file: docs/recordings.md) as a page: one
//! section per interaction, with what was sent (method, URI, headers), what
//! came back (status, headers), and both bodies drawn as the documents they
//! are (`document`); a streamed response is drawn from the response it
//! assembles to. The index gets a row per interaction.
//!
//! The reader has already taken every secret out (docs/recordings.md#secrets):
//! a secret header is kept by name only, shown here as `REDACTED`, and a
//! credential in a URI's query is already replaced. Every recorded string
//! still goes through [`Html::text`].

use super::document::{self, Answers, DocSummary, Within};
use super::html::Html;
use super::index::{header, Index};
use super::repeats::{self, Repeat};
use super::tools::{self, ToolList};
use super::{head, tail, Totals, ViewOptions};
use crate::error::{Error, Result};
use crate::recorded::{self, Content, RecordedBody, Side};
use crate::recording::{Headers, Interaction, Recording};
use crate::shared::SharedBytes;
use crate::validate::{Issue, Severity};
use rayon::prelude::*;

/// The most characters of a header value, or of a URI, shown.
const MAX_VALUE: usize = 2_000;

/// The most characters of a URI in the index, and how many of them are
/// its start.
const SHORT_URI: usize = 60;
const URI_HEAD: usize = 20;

/// What the index and the totals need of an interaction.
#[derive(Debug, Default)]
struct Row {
    number: usize,
    /// `POST api.openai.com/v1/responses`.
    call: String,
    status: String,
    request: String,
    response: String,
    /// Both bodies' documents added up (`line` unused).
    sum: DocSummary,
    documents: usize,
}

/// One interaction drawn.
struct Drawn {
    html: String,
    row: Row,
    /// The tool lists of its bodies, whose slots `html` holds.
    tools: Vec<ToolList>,
    /// The long texts of its bodies, whose slots `html` holds.
    repeats: Vec<Repeat>,
}

/// Writes the page of `recording`, named `label` on the page, to `out`
/// (named `out_path` in errors).
pub fn write(
    recording: &Recording,
    label: &str,
    options: &ViewOptions,
    out: &mut dyn std::io::Write,
    out_path: &std::path::Path,
) -> Result<Totals> {
    if options.lines.is_some() {
        return Err(Error::usage(format!(
            "{label} is a {}: --lines picks lines of JSON Lines, and a recording is drawn \
             whole (--jsonl reads it as lines)",
            recording.format.name()
        )));
    }
    let mut bodies: Vec<Vec<RecordedBody<'_>>> = Vec::new();
    bodies.resize_with(recording.interactions.len(), Vec::new);
    for body in recorded::bodies(recording) {
        bodies[body.place.interaction - 1].push(body);
    }
    // What each interaction's later requests answer, so that a response's
    // calls answered by the next request are not drawn as unanswered.
    let results: Vec<Answers> = bodies
        .par_iter()
        .map(|bodies| {
            let mut answers = Answers::default();
            for body in bodies.iter().filter(|b| b.place.side == Side::Request) {
                if let Content::Json(bytes) = &body.content {
                    answers.extend(&document::answers(bytes));
                }
            }
            answers
        })
        .collect();
    let mut later: Vec<Answers> = vec![Answers::default(); results.len()];
    for at in (0..results.len().saturating_sub(1)).rev() {
        let mut answers = later[at + 1].clone();
        answers.extend(&results[at + 1]);
        later[at] = answers;
    }
    let drawn: Vec<Drawn> = recording
        .interactions
        .par_iter()
        .zip(bodies.par_iter())
        .zip(later.par_iter())
        .map(|((interaction, bodies), later)| draw(interaction, bodies, later, options))
        .collect();
    let write_error = |e: std::io::Error| Error::Write {
        path: out_path.to_path_buf(),
        source: e,
    };
    out.write_all(head(label).as_bytes()).map_err(write_error)?;
    let mut totals = Totals {
        interactions: Some(drawn.len()),
        ..Totals::default()
    };
    // A tool list sent with more than one request is drawn once at the
    // top; one sent once stays in its interaction.
    let mut uses: std::collections::HashMap<u64, usize> = Default::default();
    for list in drawn.iter().flat_map(|d| &d.tools) {
        *uses.entry(list.key).or_default() += 1;
    }
    let mut lists = tools::Lists::default();
    let mut texts = repeats::Repeats::default();
    let mut rows = Html::new();
    for drawn in &drawn {
        let mut html = drawn.html.clone();
        for list in &drawn.tools {
            html = if uses[&list.key] > 1 {
                lists.fill(html, Some(list), "interaction", drawn.row.number)
            } else {
                html.replacen(&tools::slot(list.key), &tools::inline(list), 1)
            };
        }
        let html = texts.fill(html, &drawn.repeats, "interaction", drawn.row.number);
        out.write_all(html.as_bytes()).map_err(write_error)?;
        add(&mut totals, &drawn.row);
        index_row(&drawn.row, &mut rows);
    }
    let mut head = header("#", true) + "<th data-sort=\"text\" class=\"wide\">request</th>";
    for (name, numeric) in [
        ("status", false),
        ("request shape", false),
        ("response shape", false),
        ("images", true),
        ("tool calls", true),
        ("errors", true),
        ("warnings", true),
    ] {
        head += &header(name, numeric);
    }
    let index = Index {
        head,
        rows,
        tasks: None,
        rewards: false,
    };
    out.write_all(tail(label, &totals, Some(index), lists.draw()).as_bytes())
        .map_err(write_error)?;
    Ok(totals)
}

fn add(totals: &mut Totals, row: &Row) {
    totals.documents += row.documents;
    totals.images += row.sum.media.images;
    totals.calls += row.sum.calls;
    totals.unanswered += row.sum.unanswered;
    totals.orphans += row.sum.orphans;
    totals.errors += row.sum.errors;
    totals.warnings += row.sum.warnings;
}

fn index_row(row: &Row, html: &mut Html) {
    let n = row.number;
    html.raw(&format!(
        "<tr data-interaction=\"{n}\"><td class=\"n\"><a href=\"#interaction-{n}\">"
    ))
    .count(n)
    .raw("</a></td><td class=\"wide\">")
    .text(&row.call)
    .raw("</td><td>")
    .text(&row.status)
    .raw("</td><td>")
    .text(&row.request)
    .raw("</td><td>")
    .text(&row.response)
    .raw("</td>");
    for count in [
        row.sum.media.images,
        row.sum.calls,
        row.sum.errors,
        row.sum.warnings,
    ] {
        html.raw("<td class=\"n\">").count(count).raw("</td>");
    }
    html.raw("</tr>");
}

/// One interaction as a section.
fn draw(
    interaction: &Interaction,
    bodies: &[RecordedBody<'_>],
    answered_later: &Answers,
    options: &ViewOptions,
) -> Drawn {
    let number = interaction.index + 1;
    let request = interaction.request.as_ref();
    let response = interaction.response.as_ref();
    let method = request.and_then(|r| r.method.as_deref()).unwrap_or("");
    let uri = request.and_then(|r| r.uri.as_deref()).unwrap_or("");
    let status = response.map_or_else(
        || "no response".to_string(),
        |r| match (r.status, r.message.as_deref()) {
            (Some(code), Some(message)) if !message.is_empty() => format!("{code} {message}"),
            (Some(code), _) => code.to_string(),
            (None, _) => "no status".to_string(),
        },
    );
    let mut row = Row {
        number,
        call: format!("{method} {}", short_uri(uri)).trim().to_string(),
        status: status.clone(),
        request: "—".into(),
        response: "—".into(),
        ..Row::default()
    };
    let mut sides = Html::new();
    let mut lists = Vec::new();
    let mut long_texts = Vec::new();
    for side in [Side::Request, Side::Response] {
        let headers = match side {
            Side::Request => request.map(|r| &r.headers),
            Side::Response => response.map(|r| &r.headers),
        };
        let Some(headers) = headers else {
            continue;
        };
        let body = bodies.iter().find(|b| b.place.side == side);
        let mut title = side.name().to_string();
        if side == Side::Response && response.is_some_and(|r| r.status.is_some()) {
            title.push(' ');
            title.push_str(&status);
        }
        let drawn = body.map(|b| draw_body(b, number, answered_later, options));
        sides
            .raw("<div class=\"side ")
            .raw(side.name())
            .raw("\"><h3>")
            .text(&title);
        if let Some(body) = body.filter(|b| b.body.line.is_some()) {
            sides.raw(" · line ").count(body.line);
        }
        if let Some(drawn) = &drawn {
            sides.raw(" · ").text(&drawn.kind);
        }
        sides.raw("</h3>");
        self::headers(headers, &mut sides);
        if side == Side::Response && status_is_error(response.and_then(|r| r.status)) {
            if let Some(said) = recorded::provider_message(interaction) {
                sides
                    .raw("<p class=\"note\">the provider said: ")
                    .text(&said)
                    .raw("</p>");
            }
        }
        if let Some(drawn) = drawn {
            match side {
                Side::Request => row.request = drawn.kind,
                Side::Response => row.response = drawn.kind,
            }
            add_summary(&mut row.sum, &drawn.summary);
            row.documents += usize::from(drawn.document);
            lists.extend(drawn.tools);
            long_texts.extend(drawn.repeats);
            sides.append(drawn.html);
        }
        sides.raw("</div>");
    }
    let mut html = Html::new();
    html.raw(&format!(
        "<section class=\"doc interaction\" id=\"interaction-{number}\" data-interaction=\"{number}\" data-findings=\"{}\" data-images=\"{}\">",
        row.sum.errors + row.sum.warnings,
        row.sum.media.images
    ))
    .raw(&format!("<h2><a href=\"#interaction-{number}\">interaction "))
    .count(number)
    .raw("</a>");
    if !method.is_empty() {
        html.raw(" · ").element("span", "method", method);
    }
    if !uri.is_empty() {
        html.raw(" <code class=\"uri\">")
            .text_cut(uri, MAX_VALUE)
            .raw("</code>");
    }
    let class = match response.and_then(|r| r.status) {
        Some(code) if (200..300).contains(&code) => "good",
        Some(code) if status_is_error(Some(code)) => "bad",
        _ => "warn",
    };
    html.raw(" · ")
        .element("span", &format!("status {class}"), &status)
        .raw("</h2>")
        .append(sides)
        .raw("</section>\n");
    Drawn {
        html: html.into_string(),
        row,
        tools: lists,
        repeats: long_texts,
    }
}

fn status_is_error(status: Option<u16>) -> bool {
    status.is_some_and(|s| s >= 400)
}

fn add_summary(sum: &mut DocSummary, one: &DocSummary) {
    sum.media.images += one.media.images;
    sum.calls += one.calls;
    sum.unanswered += one.unanswered;
    sum.orphans += one.orphans;
    sum.errors += one.errors;
    sum.warnings += one.warnings;
}

/// The URI for the index: no scheme, no query, and a long one cut in the
/// middle (its host's start and its path's end say the most: the service,
/// the model, the method).
fn short_uri(uri: &str) -> String {
    let rest = uri.split_once("://").map_or(uri, |(_, rest)| rest);
    let rest = rest.split(['?', '#']).next().unwrap_or(rest);
    let chars: Vec<char> = rest.chars().collect();
    if chars.len() <= SHORT_URI {
        return rest.to_string();
    }
    let head: String = chars[..URI_HEAD].iter().collect();
    let tail: String = chars[chars.len() - (SHORT_URI - URI_HEAD - 1)..]
        .iter()
        .collect();
    format!("{head}…{tail}")
}

/// The recorded headers, folded: a secret one's value was never kept.
fn headers(headers: &Headers, html: &mut Html) {
    if headers.0.is_empty() {
        html.raw("<p class=\"note\">no headers recorded</p>");
        return;
    }
    let redacted = headers.0.iter().filter(|h| h.value.is_none()).count();
    html.raw("<details class=\"headers\"><summary>")
        .raw(&crate::size::count_of(headers.0.len(), "header"));
    if redacted > 0 {
        html.raw(" (").count(redacted).raw(" redacted)");
    }
    html.raw("</summary><table class=\"headers\">");
    for header in &headers.0 {
        html.raw("<tr><th>")
            .text_cut(&header.name, 200)
            .raw("</th><td>");
        match &header.value {
            Some(value) => html.text_cut(value, MAX_VALUE),
            None => html.raw("<span class=\"redacted\">REDACTED</span>"),
        };
        html.raw("</td></tr>");
    }
    html.raw("</table></details>");
}

/// One body drawn: what it is (for the heading and the index), and its
/// findings and turns.
struct BodyView {
    kind: String,
    html: Html,
    summary: DocSummary,
    /// Whether it was drawn as a document.
    document: bool,
    tools: Option<ToolList>,
    repeats: Vec<Repeat>,
}

fn draw_body(
    body: &RecordedBody<'_>,
    number: usize,
    answered_later: &Answers,
    options: &ViewOptions,
) -> BodyView {
    let within = Within {
        id_prefix: format!("i{number}-{}-", body.place.side.name()),
        error_note: recorded::answered_note(body.place.status),
        answered_later: answered_later.clone(),
    };
    let mut html = Html::new();
    let document = |bytes: &[u8], html: &mut Html| {
        let drawn = document::draw_content(
            body.line,
            &SharedBytes::new(bytes.to_vec()),
            &options.doc,
            &within,
        );
        if !drawn.findings.is_empty() {
            html.raw("<ul class=\"findings\">")
                .raw(&drawn.findings)
                .raw("</ul>");
        }
        html.append(drawn.body);
        (drawn.summary, drawn.tools, drawn.repeats)
    };
    match &body.content {
        Content::Json(bytes) => {
            let (summary, tools, repeats) = document(bytes, &mut html);
            BodyView {
                kind: summary.kind.clone(),
                html,
                summary,
                document: true,
                tools,
                repeats,
            }
        }
        Content::Stream { assembled, json } => {
            html.raw("<p class=\"note stream\">assembled from ")
                .raw(&crate::size::count_of(assembled.events, "event"))
                .raw(" of ")
                .text(assembled.framing.name())
                .raw(" (")
                .text(assembled.shape.name())
                .raw(" stream)</p>");
            if !assembled.notes.is_empty() {
                html.raw("<ul class=\"notes\">");
                for note in &assembled.notes {
                    html.raw("<li class=\"note\">")
                        .text_cut(note, MAX_VALUE)
                        .raw("</li>");
                }
                html.raw("</ul>");
            }
            let (summary, tools, repeats) = document(json, &mut html);
            BodyView {
                kind: format!("{}, streamed", summary.kind),
                html,
                summary,
                document: true,
                tools,
                repeats,
            }
        }
        Content::BrokenStream(problem) => {
            let issue = Issue {
                rule: "broken-stream",
                pointer: String::new(),
                message: format!("the streamed response cannot be assembled: {problem}"),
                patch: None,
                severity: None,
            };
            html.raw("<ul class=\"findings\">")
                .raw(&document::finding(&issue, Severity::Error, None))
                .raw("</ul>");
            BodyView {
                kind: "broken stream".into(),
                html,
                summary: DocSummary {
                    errors: 1,
                    ..DocSummary::default()
                },
                document: false,
                tools: None,
                repeats: Vec::new(),
            }
        }
        Content::Empty => {
            html.raw("<p class=\"note\">empty body</p>");
            BodyView {
                kind: "empty".into(),
                html,
                summary: DocSummary::default(),
                document: false,
                tools: None,
                repeats: Vec::new(),
            }
        }
        Content::Skipped(note) => {
            html.raw("<p class=\"note\">not drawn: ")
                .text_cut(note, MAX_VALUE)
                .raw("</p>");
            BodyView {
                kind: "not drawn".into(),
                html,
                summary: DocSummary::default(),
                document: false,
                tools: None,
                repeats: Vec::new(),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_index_shows_a_short_uri() {
        assert_eq!(
            short_uri("https://api.anthropic.com/v1/messages?beta=true"),
            "api.anthropic.com/v1/messages"
        );
        assert_eq!(short_uri(""), "");
        assert_eq!(
            short_uri("https://generativelanguage.googleapis.com/v1beta/models/gemini-3-flash-preview:generateContent"),
            "generativelanguage.g…/gemini-3-flash-preview:generateContent"
        );
        assert_eq!(short_uri("https://h/é/x?key=REDACTED"), "h/é/x");
    }
}
