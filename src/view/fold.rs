//! Long texts folded (docs/commands/view.md#long-texts): a system prompt of
//! a hundred lines, or a tool output of a thousand, would bury the
//! conversation. A block over [`FOLD_LINES`] lines (or [`FOLD_CHARS`]
//! characters) is drawn as a `<details>` whose summary is its first lines;
//! opening it shows the rest after them. Each character is on the page
//! once, and no script is needed: the browser opens and closes it, and its
//! search and "find in page" still see the folded text.

use super::html::Html;

/// A block of more lines than this is folded.
pub const FOLD_LINES: usize = 20;
/// A block of more characters than this is folded, however few its lines.
const FOLD_CHARS: usize = 3_000;
/// The lines a folded block shows, and the most characters they may have.
const PREVIEW_LINES: usize = 6;
const PREVIEW_CHARS: usize = 600;

/// Draws `text` as a block of class `class` (`text`, `json`), folded when
/// long; at most `max` characters of it are drawn (the rest counted).
pub fn block(html: &mut Html, class: &str, text: &str, max: usize) {
    let lines = text.lines().count();
    if !folds(text) {
        html.raw("<pre class=\"")
            .raw(class)
            .raw("\">")
            .text_cut(text, max)
            .raw("</pre>");
        return;
    }
    let cut = preview_end(text);
    let (first, rest) = text.split_at(cut);
    let rest = rest.strip_prefix('\n').unwrap_or(rest);
    let shown = first.chars().count();
    let more = lines - first.lines().count().min(lines);
    html.raw("<details class=\"fold\"><summary><span class=\"pre ")
        .raw(class)
        .raw("\">")
        .text(first)
        .raw("</span><span class=\"more\">")
        .raw(&if more > 1 {
            crate::size::count_of(more, "more line")
        } else {
            format!(
                "{} more characters",
                crate::size::group_digits(rest.chars().count() as u64)
            )
        })
        .raw("</span></summary><pre class=\"")
        .raw(class)
        .raw(" rest\">")
        .text_cut(rest, max.saturating_sub(shown))
        .raw("</pre></details>");
}

/// Whether `text` is long enough to be folded.
pub fn folds(text: &str) -> bool {
    text.len() > FOLD_CHARS || text.lines().nth(FOLD_LINES).is_some()
}

/// Where the preview of a long text ends: after its first lines, cut at a
/// character boundary if they are too long.
fn preview_end(text: &str) -> usize {
    let mut end = 0;
    for (n, line) in text.split_inclusive('\n').enumerate() {
        if n == PREVIEW_LINES || end + line.len() > PREVIEW_CHARS {
            break;
        }
        end += line.len();
    }
    if end == 0 {
        // One very long first line: its first characters.
        end = text
            .char_indices()
            .nth(PREVIEW_CHARS)
            .map_or(text.len(), |(at, _)| at);
    }
    // The line break before the rest is the fold's, not the preview's.
    if text[..end].ends_with('\n') {
        end -= 1;
    }
    end
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drawn(text: &str) -> String {
        let mut html = Html::new();
        block(&mut html, "text", text, 20_000);
        html.into_string()
    }

    #[test]
    fn short_texts_are_not_folded() {
        let text = "a\n".repeat(FOLD_LINES);
        assert_eq!(drawn(&text), format!("<pre class=\"text\">{text}</pre>"));
    }

    #[test]
    fn long_texts_show_their_first_lines_and_keep_every_character_once() {
        let text: String = (1..=120).map(|n| format!("line {n} <x>\n")).collect();
        let html = drawn(&text);
        assert!(html.starts_with(
            "<details class=\"fold\"><summary><span class=\"pre text\">line 1 &lt;x&gt;\n"
        ));
        assert!(html.contains(
            "line 6 &lt;x&gt;</span><span class=\"more\">114 more lines</span></summary><pre class=\"text rest\">line 7 &lt;x&gt;\n"
        ));
        for n in 1..=120 {
            assert_eq!(html.matches(&format!("line {n} &lt;")).count(), 1, "{n}");
        }
        // One long line: its first characters, then the rest.
        let long = "q".repeat(5_000);
        let html = drawn(&long);
        assert!(html.contains("<span class=\"more\">4,400 more characters</span>"));
        assert_eq!(html.matches('q').count(), 5_000);
    }

    #[test]
    fn the_cut_counts_the_preview() {
        let text: String = (1..=100).map(|n| format!("{n:04}\n")).collect();
        let mut html = Html::new();
        block(&mut html, "json", &text, 100);
        let html = html.into_string();
        // 29 characters shown above, 71 of the 470 after them, then the count.
        assert!(html.contains("… 399 more characters"), "{html}");
    }
}
