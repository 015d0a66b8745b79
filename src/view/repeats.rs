//! Long texts repeated across the documents of a page
//! (docs/commands/view.md#long-texts): every rollout of an environment
//! starts with the same system prompt, often hundreds of lines, and the
//! rollouts of one task with the same question. The first document that
//! has such a text draws it; every later one points back to it, so a page
//! of 50,000 rollouts carries the prompt once, not 50,000 times.
//!
//! A document drawn in parallel leaves a [`slot`] where the text goes; the
//! writer fills the slots in page order ([`Repeats::fill`]).

use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

use super::html::Html;

/// The most texts remembered: past it, a new text is drawn where it is.
const REMEMBERED: usize = 100_000;
/// The characters of its first line a pointer shows.
const FIRST_LINE: usize = 100;

/// A long text drawn, waiting for its place.
#[derive(Debug, Clone)]
pub struct Repeat {
    pub key: u64,
    pub lines: usize,
    /// Its first line, drawn.
    pub first: String,
    /// The text, drawn (folded).
    pub html: String,
}

impl Repeat {
    pub fn new(text: &str, html: String) -> Repeat {
        let mut hasher = DefaultHasher::new();
        text.hash(&mut hasher);
        let mut first = Html::new();
        first.text_cut(text.lines().next().unwrap_or(""), FIRST_LINE);
        Repeat {
            key: hasher.finish(),
            lines: text.lines().count(),
            first: first.into_string(),
            html,
        }
    }
}

/// Where a long text goes in a document's markup (a NUL cannot come from a
/// recorded string: [`Html::text`] writes it as `\u{0000}`).
pub fn slot(key: u64) -> String {
    format!("\0text:{key:016x}\0")
}

/// The texts drawn so far on a page: where each was drawn first.
#[derive(Default)]
pub struct Repeats {
    first: HashMap<u64, (usize, &'static str, usize)>,
}

impl Repeats {
    /// `html` with the slots of its `texts` filled: the text itself where
    /// it is drawn first (with an anchor), else a pointer to that place.
    /// `noun` and `user` name the section (`line`, 3).
    pub fn fill(
        &mut self,
        mut html: String,
        texts: &[Repeat],
        noun: &'static str,
        user: usize,
    ) -> String {
        for text in texts {
            let slot = slot(text.key);
            let drawn = match self.first.get(&text.key) {
                Some(&(number, noun, at)) => format!(
                    "<p class=\"text-ref\">the same {} as <a href=\"#text-{number}\">{noun} {}</a>: <span class=\"first\">{}</span></p>",
                    crate::size::count_of(text.lines, "line"),
                    crate::size::group_digits(at as u64),
                    text.first
                ),
                None if self.first.len() < REMEMBERED => {
                    let number = self.first.len() + 1;
                    self.first.insert(text.key, (number, noun, user));
                    format!("<div class=\"repeated\" id=\"text-{number}\">{}</div>", text.html)
                }
                None => text.html.clone(),
            };
            html = html.replacen(&slot, &drawn, 1);
        }
        html
    }
}

/// A page whose documents are drawn each on its own: every text in place.
pub fn inline(mut html: String, texts: &[Repeat]) -> String {
    for text in texts {
        html = html.replacen(&slot(text.key), &text.html, 1);
    }
    html
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repeated_text_is_drawn_once_and_pointed_to() {
        let prompt: String = (1..=30).map(|n| format!("rule <{n}>\n")).collect();
        let text = Repeat::new(&prompt, "<details>PROMPT</details>".into());
        let other = Repeat::new("other\n", "<pre>OTHER</pre>".into());
        let doc = |texts: &[&Repeat]| texts.iter().map(|t| slot(t.key)).collect::<String>();
        let mut repeats = Repeats::default();
        let one = repeats.fill(doc(&[&text]), std::slice::from_ref(&text), "line", 1);
        assert_eq!(
            one,
            "<div class=\"repeated\" id=\"text-1\"><details>PROMPT</details></div>"
        );
        let two = repeats.fill(
            doc(&[&other, &text]),
            &[other.clone(), text.clone()],
            "line",
            2,
        );
        assert_eq!(
            two,
            "<div class=\"repeated\" id=\"text-2\"><pre>OTHER</pre></div><p class=\"text-ref\">the same 30 lines as <a href=\"#text-1\">line 1</a>: <span class=\"first\">rule &lt;1&gt;</span></p>"
        );
        assert_eq!(inline(doc(&[&text]), &[text]), "<details>PROMPT</details>");
    }
}
