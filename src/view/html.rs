//! Building HTML from recorded strings: every recorded string goes through
//! [`Html::text`], which escapes it; tag names, classes, ids and attribute
//! values are partkit's own (never a recorded string).

use std::fmt::Write;

/// A growing HTML fragment.
#[derive(Debug, Default)]
pub struct Html(String);

impl Html {
    pub fn new() -> Html {
        Html(String::new())
    }

    /// partkit's own markup, written as it is.
    pub fn raw(&mut self, markup: &str) -> &mut Html {
        self.0.push_str(markup);
        self
    }

    /// A recorded (or any) string as text: `&`, `<`, `>`, `"` and `'` escaped,
    /// control characters other than tab and line breaks shown as `\u{…}`.
    pub fn text(&mut self, text: &str) -> &mut Html {
        for c in text.chars() {
            match c {
                '&' => self.0.push_str("&amp;"),
                '<' => self.0.push_str("&lt;"),
                '>' => self.0.push_str("&gt;"),
                '"' => self.0.push_str("&quot;"),
                '\'' => self.0.push_str("&#39;"),
                '\t' | '\n' => self.0.push(c),
                '\r' => {}
                c if c.is_control() => {
                    let _ = write!(self.0, "\\u{{{:04x}}}", c as u32);
                }
                c => self.0.push(c),
            }
        }
        self
    }

    /// Text cut to `max` characters, saying how many more there were.
    pub fn text_cut(&mut self, text: &str, max: usize) -> &mut Html {
        match text.char_indices().nth(max) {
            None => self.text(text),
            Some((end, _)) => {
                let more = text[end..].chars().count();
                self.text(&text[..end]);
                self.raw("<span class=\"cut\">… ")
                    .text(&crate::size::group_digits(more as u64))
                    .raw(" more characters</span>")
            }
        }
    }

    /// `<tag class="class">`, text, `</tag>`.
    pub fn element(&mut self, tag: &str, class: &str, text: &str) -> &mut Html {
        let _ = write!(self.0, "<{tag} class=\"{class}\">");
        self.text(text);
        let _ = write!(self.0, "</{tag}>");
        self
    }

    /// A number with digit groups.
    pub fn count(&mut self, n: usize) -> &mut Html {
        self.raw(&crate::size::group_digits(n as u64))
    }

    pub fn append(&mut self, other: Html) -> &mut Html {
        self.0.push_str(&other.0);
        self
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recorded_text_never_becomes_markup() {
        let mut html = Html::new();
        html.text("<script>alert(1)</script> <img src=x onerror='a()'> \"q\" & \u{7}");
        assert_eq!(
            html.into_string(),
            "&lt;script&gt;alert(1)&lt;/script&gt; &lt;img src=x onerror=&#39;a()&#39;&gt; &quot;q&quot; &amp; \\u{0007}"
        );
        let mut cut = Html::new();
        cut.text_cut("abcdef", 3);
        assert_eq!(
            cut.into_string(),
            "abc<span class=\"cut\">… 3 more characters</span>"
        );
    }
}
