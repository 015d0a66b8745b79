//! `partkit view` (docs/commands/view.md): one self-contained, offline HTML page of a
//! recorded document or a JSON Lines file of them — turns, images as
//! thumbnails, tool calls paired with their results, `validate`'s findings,
//! token estimates — that a person opens in a browser or attaches to a bug.
//!
//! A recording (a cassette, a HAR file: docs/recordings.md) is drawn as one
//! section per interaction instead (`recording`), its request and response
//! bodies drawn as the documents are.
//!
//! Documents are drawn in parallel and written in order as they come, so
//! memory follows the longest line; the index of lines is written last and
//! put first by the style sheet. Recorded text is always escaped
//! ([`html::Html::text`]) and the page's policy allows only its own style and
//! script (`assets`).

mod anchors;
mod assets;
mod document;
mod facts;
mod fold;
mod html;
mod indent;
mod index;
mod media;
mod recording;
mod repeats;
mod tools;

use std::io::Write;
use std::ops::RangeInclusive;

pub use document::{DocOptions, DocSummary};
pub use media::MediaStyle;

use crate::accounting::Flow;
use crate::error::{Error, Result};
use crate::io::{Documents, Input, Layout};
use crate::pipeline::Item;
use html::Html;
use index::Index;

/// What `partkit view` draws.
#[derive(Debug, Clone)]
pub struct ViewOptions {
    pub doc: DocOptions,
    /// Only the documents starting on these lines (`--lines 1-200`).
    pub lines: Option<RangeInclusive<usize>>,
    pub layout: Layout,
    /// The most bytes one document may have (`--max-document-size`,
    /// docs/limits.md).
    pub max_document: u64,
}

/// What a page holds, added up.
#[derive(Debug, Default, Clone)]
pub struct Totals {
    /// The interactions of a recording; `None` for documents.
    pub interactions: Option<usize>,
    /// The documents drawn (for a recording: its bodies read as documents).
    pub documents: usize,
    pub images: usize,
    pub calls: usize,
    pub unanswered: usize,
    pub orphans: usize,
    pub errors: usize,
    pub warnings: usize,
}

/// The documents of a chunk of the page (docs/speed.md#view).
const CHUNK: usize = 64;

/// Writes the page of `input` to `out` (named `out_path` in errors).
pub fn write_page(
    input: &Input,
    options: &ViewOptions,
    out: &mut dyn Write,
    out_path: &std::path::Path,
) -> Result<Totals> {
    // `--jsonl` says how to read the file: as lines, whatever they are.
    if let (Input::Path(path), false) = (input, options.layout == Layout::JsonLines) {
        if let Some(recorded) = crate::recorded::open(path, options.max_document)? {
            return recording::write(&recorded, &input.label(), options, out, out_path);
        }
    }
    let documents = Documents::open(input, options.layout, options.max_document)?;
    write_documents(documents, &input.label(), options, out, out_path)
}

/// Writes the page of `documents`, named `label` on the page, to `out`
/// (named `out_path` in errors).
pub fn write_documents(
    mut documents: Documents,
    label: &str,
    options: &ViewOptions,
    out: &mut dyn Write,
    out_path: &std::path::Path,
) -> Result<Totals> {
    let label = label.to_string();
    let write_error = |e: std::io::Error| Error::Write {
        path: out_path.to_path_buf(),
        source: e,
    };
    out.write_all(head(&label).as_bytes())
        .map_err(write_error)?;
    let wanted = |line: usize| options.lines.as_ref().is_none_or(|r| r.contains(&line));
    let mut summaries: Vec<DocSummary> = Vec::new();
    let mut failure: Option<std::io::Error> = None;
    // The tool lists of a file of documents go at the top, each once; a
    // document of its own keeps its list (docs/commands/view.md#tool-lists).
    documents.detect()?;
    let json_lines = documents.is_json_lines();
    let mut lists = tools::Lists::default();
    let mut texts = repeats::Repeats::default();
    crate::pipeline::for_each_document(
        &mut documents,
        |line, bytes| wanted(line).then(|| document::draw(line, bytes, &options.doc)),
        |line, _, item| {
            let drawn = match item {
                Item::Document(drawn) => drawn,
                Item::TooLarge(error) => {
                    wanted(line).then(|| document::too_large(line, &error.to_string()))
                }
                Item::Blank => None,
            };
            if let Some(drawn) = drawn {
                let html = match &drawn.tools {
                    Some(list) if !json_lines => {
                        drawn
                            .html
                            .replacen(&tools::slot(list.key), &tools::inline(list), 1)
                    }
                    list => lists.fill(drawn.html, list.as_ref(), "line", line),
                };
                let html = if json_lines {
                    texts.fill(html, &drawn.repeats, "line", line)
                } else {
                    repeats::inline(html, &drawn.repeats)
                };
                // Documents go in chunks: the browser skips drawing a chunk
                // out of view, and tracks a chunk, not each document.
                let open = if summaries.len().is_multiple_of(CHUNK) {
                    if summaries.is_empty() {
                        "<div class=\"chunk\">\n"
                    } else {
                        "</div><div class=\"chunk\">\n"
                    }
                } else {
                    ""
                };
                let written = out
                    .write_all(open.as_bytes())
                    .and_then(|()| out.write_all(html.as_bytes()));
                if let Err(error) = written {
                    failure = Some(error);
                    return Ok(Flow::Stop);
                }
                summaries.push(drawn.summary);
            }
            let past = options.lines.as_ref().is_some_and(|r| line >= *r.end());
            Ok(if past { Flow::Stop } else { Flow::Continue })
        },
    )?;
    if let Some(error) = failure {
        return Err(write_error(error));
    }
    if !summaries.is_empty() {
        out.write_all(b"</div>\n").map_err(write_error)?;
    }
    let totals = add_up(&summaries);
    let index = (json_lines || summaries.len() > 1).then(|| index::lines(&summaries));
    out.write_all(tail(&label, &totals, index, lists.draw()).as_bytes())
        .map_err(write_error)?;
    Ok(totals)
}

fn add_up(summaries: &[DocSummary]) -> Totals {
    let mut totals = Totals::default();
    for s in summaries {
        totals.documents += 1;
        totals.images += s.media.images;
        totals.calls += s.calls;
        totals.unanswered += s.unanswered;
        totals.orphans += s.orphans;
        totals.errors += s.errors;
        totals.warnings += s.warnings;
    }
    totals
}

/// Everything before the first document.
fn head(label: &str) -> String {
    let mut html = Html::new();
    html.raw("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n")
        .raw("<meta http-equiv=\"Content-Security-Policy\" content=\"")
        .raw(&assets::content_security_policy())
        .raw("\">\n<meta name=\"referrer\" content=\"no-referrer\">\n")
        .raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        .raw("<title>partkit view: ")
        .text_cut(label, 200)
        .raw("</title>\n<style>")
        .raw(assets::STYLE)
        .raw("</style></head>\n<body><div class=\"page\">\n<main class=\"docs\">\n");
    html.into_string()
}

/// The summary, the index and the tool lists (drawn first by the style
/// sheet), the script.
fn tail(label: &str, totals: &Totals, index: Option<Index>, tool_lists: String) -> String {
    let plural = crate::size::count_of;
    let mut html = Html::new();
    html.raw("</main>\n<header class=\"top\"><h1>")
        .text_cut(label, 300)
        .raw("</h1><p class=\"summary\" id=\"summary\">");
    if let Some(interactions) = totals.interactions {
        html.raw(&plural(interactions, "interaction")).raw(" · ");
    }
    html.raw(&plural(totals.documents, "document"))
        .raw(" · ")
        .raw(&plural(totals.images, "image"))
        .raw(" · ")
        .raw(&plural(totals.calls, "tool call"))
        .raw(&format!(
            " ({} unanswered, {} orphan result{})",
            totals.unanswered,
            totals.orphans,
            if totals.orphans == 1 { "" } else { "s" }
        ))
        .raw(" · <span class=\"bad\">")
        .raw(&plural(totals.errors, "error"))
        .raw("</span> · <span class=\"warn\">")
        .raw(&plural(totals.warnings, "warning"))
        .raw("</span></p></header>\n");
    let (what, shown) = match totals.interactions {
        Some(interactions) => ("interaction", interactions),
        None => ("document", totals.documents),
    };
    html.raw("<nav class=\"index\"><div class=\"controls\">")
        .raw(&format!(
            "<input type=\"search\" id=\"q\" placeholder=\"search the text of every {what}\">"
        ))
        .raw(if index.as_ref().is_some_and(|i| i.rewards) {
            "<input type=\"text\" id=\"reward\" placeholder=\"reward, e.g. &lt; 1\" title=\"only the rollouts whose reward is &lt; 1, &gt;= 0.5, = 0, …\" size=\"16\">"
        } else {
            ""
        })
        .raw("<label><input type=\"checkbox\" id=\"only-findings\"> with findings</label>")
        .raw("<label><input type=\"checkbox\" id=\"only-images\"> with images</label>")
        .raw("<span><span id=\"shown\">")
        .count(shown)
        .raw("</span> shown</span></div>");
    if let Some(index) = index {
        html.raw("<div class=\"rows\"><table class=\"sortable lines\"><thead><tr>")
            .raw(&index.head)
            .raw("</tr></thead><tbody>")
            .append(index.rows)
            .raw("</tbody></table></div>");
        if let Some(tasks) = index.tasks {
            html.raw(&tasks);
        }
    }
    html.raw("</nav>\n")
        .raw(&tool_lists)
        .raw("</div><script>")
        .raw(assets::SCRIPT)
        .raw("</script></body></html>\n");
    html.into_string()
}
