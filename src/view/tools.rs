//! A transcript's tool list (docs/commands/view.md#tool-lists): folded by
//! default, a summary of its names, each tool's description and schema one
//! click further. The same list sent with every request of a file (a
//! rollouts file, a cassette) is drawn once at the top of the page, and
//! each document points to it: a document drawn in parallel leaves a
//! [`slot`] in its markup, which the writer fills in order
//! ([`Lists::fill`]) once it knows whether the list was drawn before.

use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

use serde_json::Value;

use super::fold;
use super::html::Html;

/// The names a list's summary shows before saying how many more.
const NAMES_SHOWN: usize = 12;
/// The most characters of a tool's description in its summary line.
const DESCRIPTION_SHOWN: usize = 160;
/// The most markup the lists at the top may hold; past it, a new list is
/// drawn in its document (memory stays bounded on any file).
const TOP_BUDGET: usize = 16 << 20;
/// The most documents a list at the top names.
const LINES_NAMED: usize = 20;

/// A drawn tool list, waiting for its place.
#[derive(Debug, Clone)]
pub struct ToolList {
    /// A hash of the list as recorded (what "the same list" means).
    pub key: u64,
    pub count: usize,
    /// The summary's names, already drawn.
    pub names: String,
    /// The list's tools, drawn.
    pub body: String,
}

/// Where a document's tool list goes in its markup: a NUL cannot come from
/// a recorded string ([`Html::text`] writes it as `\u{0000}`).
pub fn slot(key: u64) -> String {
    format!("\0tools:{key:016x}\0")
}

/// Draws the tools of a canonical transcript.
pub fn draw(tools: &[Value]) -> ToolList {
    let mut hasher = DefaultHasher::new();
    for tool in tools {
        tool.to_string().hash(&mut hasher);
    }
    let mut names = Html::new();
    for (i, tool) in tools.iter().take(NAMES_SHOWN).enumerate() {
        if i > 0 {
            names.raw(", ");
        }
        names.element("code", "name", name(tool));
    }
    if tools.len() > NAMES_SHOWN {
        names
            .raw(", … ")
            .count(tools.len() - NAMES_SHOWN)
            .raw(" more");
    }
    let mut body = Html::new();
    for tool in tools {
        body.raw("<details class=\"tool\"><summary>")
            .element("code", "name", name(tool));
        if let Some(description) = tool.get("description").and_then(Value::as_str) {
            let first = description.lines().next().unwrap_or("");
            body.raw(" <span class=\"desc\">")
                .text_cut(first, DESCRIPTION_SHOWN)
                .raw("</span>");
        }
        body.raw("</summary>");
        fold::block(
            &mut body,
            "json",
            &serde_json::to_string_pretty(tool).unwrap_or_default(),
            20_000,
        );
        body.raw("</details>");
    }
    ToolList {
        key: hasher.finish(),
        count: tools.len(),
        names: names.into_string(),
        body: body.into_string(),
    }
}

fn name(tool: &Value) -> &str {
    tool.get("name").and_then(Value::as_str).unwrap_or("?")
}

/// The list drawn where it is (a document of its own, or over the budget).
pub fn inline(list: &ToolList) -> String {
    let mut html = Html::new();
    html.raw("<details class=\"tools\"><summary>")
        .raw(&crate::size::count_of(list.count, "tool"))
        .raw(": ")
        .raw(&list.names)
        .raw("</summary>")
        .raw(&list.body)
        .raw("</details>");
    html.into_string()
}

/// A document's pointer to a list drawn at the top.
fn pointer(list: &ToolList, number: usize) -> String {
    format!(
        "<p class=\"tools-ref\">{}: <a href=\"#tools-{number}\">tool list {number}</a>, drawn at the top: {}</p>",
        crate::size::count_of(list.count, "tool"),
        list.names
    )
}

/// One list at the top, and the sections that use it.
struct Top {
    number: usize,
    list: ToolList,
    /// What the sections are (`line`, `interaction`), and the numbers of
    /// the first few.
    noun: &'static str,
    users: Vec<usize>,
    used: usize,
}

/// The tool lists of a page: those drawn at the top, by key.
#[derive(Default)]
pub struct Lists {
    top: HashMap<u64, Top>,
    size: usize,
}

impl Lists {
    /// `html` with its tool list's slot filled: a pointer to the list at
    /// the top, or the list itself where the top has no room. `noun` and
    /// `user` name the section (`line`, 3).
    pub fn fill(
        &mut self,
        html: String,
        list: Option<&ToolList>,
        noun: &'static str,
        user: usize,
    ) -> String {
        let Some(list) = list else {
            return html;
        };
        let slot = slot(list.key);
        let number = self.top.len() + 1;
        let filled = match self.top.get_mut(&list.key) {
            Some(top) => {
                top.used += 1;
                if top.users.len() < LINES_NAMED {
                    top.users.push(user);
                }
                pointer(&top.list, top.number)
            }
            None if self.size + list.body.len() <= TOP_BUDGET => {
                self.size += list.body.len();
                self.top.insert(
                    list.key,
                    Top {
                        number,
                        list: list.clone(),
                        noun,
                        users: vec![user],
                        used: 1,
                    },
                );
                pointer(list, number)
            }
            None => inline(list),
        };
        html.replacen(&slot, &filled, 1)
    }

    /// The lists drawn at the top, in the order they were first used.
    pub fn draw(self) -> String {
        if self.top.is_empty() {
            return String::new();
        }
        let mut tops: Vec<Top> = self.top.into_values().collect();
        tops.sort_by_key(|t| t.number);
        let mut html = Html::new();
        html.raw("<section class=\"tool-lists\"><h2>tool lists</h2>");
        for top in tops {
            html.raw(&format!(
                "<details class=\"tools\" id=\"tools-{}\"><summary>tool list {} · ",
                top.number, top.number
            ))
            .raw(&crate::size::count_of(top.list.count, "tool"))
            .raw(" · used by ")
            .raw(top.noun);
            if top.used > 1 {
                html.raw("s");
            }
            for (i, user) in top.users.iter().enumerate() {
                html.raw(if i == 0 { " " } else { ", " }).count(*user);
            }
            if top.used > top.users.len() {
                html.raw(" and ")
                    .count(top.used - top.users.len())
                    .raw(" more");
            }
            html.raw(": ")
                .raw(&top.list.names)
                .raw("</summary>")
                .raw(&top.list.body)
                .raw("</details>");
        }
        html.raw("</section>\n");
        html.into_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tools(n: usize) -> Vec<Value> {
        (0..n)
            .map(|i| json!({"name": format!("tool_{i}"), "description": "Does <it>.\nMore.", "parameters": {"type": "object"}}))
            .collect()
    }

    #[test]
    fn a_list_is_folded_with_its_names() {
        let list = draw(&tools(30));
        assert_eq!(list.count, 30);
        assert!(list
            .names
            .starts_with("<code class=\"name\">tool_0</code>, "));
        assert!(list
            .names
            .ends_with("<code class=\"name\">tool_11</code>, … 18 more"));
        assert_eq!(list.body.matches("<details class=\"tool\">").count(), 30);
        assert!(list
            .body
            .contains("<span class=\"desc\">Does &lt;it&gt;.</span>"));
        assert!(inline(&list).starts_with("<details class=\"tools\"><summary>30 tools: "));
        assert_ne!(draw(&tools(29)).key, list.key);
        assert_eq!(draw(&tools(30)).key, list.key);
    }

    #[test]
    fn a_repeated_list_is_drawn_once_at_the_top() {
        let mut lists = Lists::default();
        let same = draw(&tools(3));
        let other = draw(&tools(2));
        let page = |list: &ToolList| format!("<section>{}</section>", slot(list.key));
        let first = lists.fill(page(&same), Some(&same), "line", 1);
        let second = lists.fill(page(&other), Some(&other), "line", 2);
        let third = lists.fill(page(&same), Some(&same), "line", 3);
        assert!(first.contains("<a href=\"#tools-1\">tool list 1</a>"));
        assert!(second.contains("<a href=\"#tools-2\">tool list 2</a>"));
        assert_eq!(first, third);
        assert!(!first.contains('\0'));
        assert_eq!(
            lists.fill("<p>none</p>".into(), None, "line", 4),
            "<p>none</p>"
        );
        let top = lists.draw();
        assert_eq!(top.matches("<details class=\"tools\" id=").count(), 2);
        assert!(top.contains("tool list 1 · 3 tools · used by lines 1, 3: "));
        assert!(top.contains("tool list 2 · 2 tools · used by line 2: "));
    }
}
