//! The index of a page of documents: a row per document, tied to its
//! section by the script (`assets`: a row's `data-line="N"` to the section
//! `line-N`), its columns sortable; for rollouts, the reward, task, rollout
//! index, instance and agent columns, and a table of the tasks whose
//! rollouts the file holds, their rewards side by side
//! (docs/commands/view.md#rollouts).

use std::collections::HashMap;

use super::document::{DocSummary, Task};
use super::facts::Facts;
use super::html::Html;

/// The header cells of an index table and its rows, and the tasks table
/// drawn under it.
pub struct Index {
    pub head: String,
    pub rows: Html,
    pub tasks: Option<String>,
    /// Whether some row has a reward (the page then filters by it).
    pub rewards: bool,
}

/// A header cell the script sorts by: as numbers (`num`) or as text.
pub fn header(name: &str, numeric: bool) -> String {
    if numeric {
        format!("<th data-sort=\"num\" class=\"n\">{name}</th>")
    } else {
        format!("<th data-sort=\"text\">{name}</th>")
    }
}

/// A rollout fact that has a column when some document has it.
struct Column {
    name: &'static str,
    numeric: bool,
    get: fn(&DocSummary) -> Option<&str>,
}

const COLUMNS: [Column; 5] = [
    Column {
        name: "reward",
        numeric: true,
        get: |s| {
            facts(s)
                .and_then(|f| f.reward.as_ref())
                .map(|r| r.text.as_str())
        },
    },
    Column {
        name: "task",
        numeric: false,
        get: |s| s.task.as_ref().map(|t| t.label.as_str()),
    },
    Column {
        name: "rollout",
        numeric: true,
        get: |s| facts(s).and_then(|f| f.rollout.as_deref()),
    },
    Column {
        name: "instance",
        numeric: false,
        get: |s| facts(s).and_then(|f| f.instance.as_deref()),
    },
    Column {
        name: "agent",
        numeric: false,
        get: |s| facts(s).and_then(|f| f.agent.as_deref()),
    },
];

fn facts(s: &DocSummary) -> Option<&Facts> {
    s.facts.as_ref()
}

/// The most characters of a cell drawn from a recorded string.
const CELL: usize = 80;

/// The index of documents, by line.
pub fn lines(summaries: &[DocSummary]) -> Index {
    let shown: Vec<&Column> = COLUMNS
        .iter()
        .filter(|c| summaries.iter().any(|s| (c.get)(s).is_some()))
        .collect();
    let mut head = header("line", true) + &header("shape", false);
    for column in &shown {
        head += &header(column.name, column.numeric);
    }
    for name in ["images", "tool calls", "errors", "warnings"] {
        head += &header(name, true);
    }
    let mut rows = Html::new();
    for s in summaries {
        rows.raw(&format!(
            "<tr data-line=\"{}\"><td class=\"n\"><a href=\"#line-{}\">",
            s.line, s.line
        ))
        .count(s.line)
        .raw("</a></td><td>")
        .text(&s.kind)
        .raw("</td>");
        for column in &shown {
            let text = (column.get)(s).unwrap_or("");
            if column.numeric {
                rows.raw("<td class=\"n\">");
            } else if text.chars().count() > 12 {
                // A long text is cut to its column's width: whole on hover.
                rows.raw("<td title=\"").text_cut(text, CELL).raw("\">");
            } else {
                rows.raw("<td>");
            }
            rows.text_cut(text, CELL).raw("</td>");
        }
        for count in [s.media.images, s.calls, s.errors, s.warnings] {
            rows.raw("<td class=\"n\">").count(count).raw("</td>");
        }
        rows.raw("</tr>");
    }
    Index {
        rewards: shown.iter().any(|c| c.name == "reward"),
        head,
        rows,
        tasks: tasks(summaries),
    }
}

/// The rollouts of one task.
struct Group<'a> {
    task: &'a Task,
    members: Vec<&'a DocSummary>,
}

/// The tasks table: a row per task that has more than one rollout, in the
/// order of their first lines.
fn tasks(summaries: &[DocSummary]) -> Option<String> {
    let mut at: HashMap<&str, usize> = HashMap::new();
    let mut groups: Vec<Group> = Vec::new();
    for s in summaries {
        let Some(task) = &s.task else { continue };
        match at.get(task.id.as_str()) {
            Some(&k) => groups[k].members.push(s),
            None => {
                at.insert(&task.id, groups.len());
                groups.push(Group {
                    task,
                    members: vec![s],
                });
            }
        }
    }
    groups.retain(|g| g.members.len() > 1);
    if groups.is_empty() {
        return None;
    }
    let mixed = groups.iter().filter(|g| differ(g)).count();
    let mut html = Html::new();
    html.raw("<details class=\"tasks\" open><summary>")
        .raw(&crate::size::count_of(groups.len(), "task"))
        .raw(" with more than one rollout, ")
        .count(mixed)
        .raw(" with differing rewards</summary><div class=\"rows\"><table class=\"sortable\"><thead><tr>")
        .raw("<th data-sort=\"text\" class=\"wide\">task</th>")
        .raw(&header("rollouts", true))
        .raw(&header("mean", true))
        .raw("<th class=\"rewards\">rewards (by line)</th><th class=\"n\"></th></tr></thead><tbody>");
    for group in &groups {
        html.raw(&format!(
            "<tr data-task=\"{}\"{}><td class=\"wide\">",
            group.task.id,
            if differ(group) {
                " class=\"mixed\""
            } else {
                ""
            }
        ))
        .text_cut(&group.task.label, CELL)
        .raw("</td><td class=\"n\">")
        .count(group.members.len())
        .raw("</td><td class=\"n\">");
        let values: Vec<f64> = group.members.iter().filter_map(|s| value(s)).collect();
        if !values.is_empty() {
            let mean = values.iter().sum::<f64>() / values.len() as f64;
            html.raw(&format!("{}", (mean * 1000.0).round() / 1000.0));
        }
        html.raw("</td><td class=\"rewards\">");
        for s in &group.members {
            let text = facts(s)
                .and_then(|f| f.reward.as_ref())
                .map_or("–", |r| r.text.as_str());
            html.raw(&format!(
                "<a class=\"reward {}\" href=\"#line-{}\" title=\"line {}\">",
                grade(value(s)),
                s.line,
                s.line
            ))
            .text_cut(text, 20)
            .raw("</a> ");
        }
        let (a, b) = pair(&group.members);
        html.raw(&format!(
            "</td><td class=\"n\"><a class=\"compare\" href=\"#compare-{a}-{b}\">compare</a></td></tr>"
        ));
    }
    html.raw("</tbody></table></div></details>");
    Some(html.into_string())
}

fn value(s: &DocSummary) -> Option<f64> {
    facts(s)
        .and_then(|f| f.reward.as_ref())
        .and_then(|r| r.value)
}

/// Whether a task's rollouts were rewarded differently.
fn differ(group: &Group) -> bool {
    let mut values = group.members.iter().map(|s| value(s));
    let first = values.next().flatten();
    values.any(|v| v != first)
}

/// The class of a reward: on the usual 0-to-1 scale, nothing is bad, full
/// marks are good, anything between is partial.
pub fn grade(value: Option<f64>) -> &'static str {
    match value {
        Some(v) if v >= 1.0 => "good",
        Some(v) if v <= 0.0 => "bad",
        Some(_) => "warn",
        None => "none",
    }
}

/// The two rollouts a task's "compare" opens: its lowest-rewarded and its
/// highest-rewarded (the question is usually why they differ), else its
/// first two.
fn pair(members: &[&DocSummary]) -> (usize, usize) {
    let rewarded: Vec<(usize, f64)> = members
        .iter()
        .filter_map(|s| value(s).map(|v| (s.line, v)))
        .collect();
    // The first of each, when several share it.
    let low = rewarded
        .iter()
        .copied()
        .reduce(|a, b| if b.1 < a.1 { b } else { a });
    let high = rewarded
        .iter()
        .copied()
        .reduce(|a, b| if b.1 > a.1 { b } else { a });
    match (low, high) {
        (Some(low), Some(high)) if low.1 < high.1 => (low.0, high.0),
        _ => (members[0].line, members[1].line),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::facts::Reward;

    fn rollout(line: usize, task: &str, reward: Option<f64>) -> DocSummary {
        DocSummary {
            line,
            kind: "NeMo Gym rollout".into(),
            facts: Some(Facts {
                reward: Some(Reward {
                    text: reward.map_or("null".into(), |r| format!("{r:?}")),
                    value: reward,
                }),
                task: Some(task.into()),
                ..Facts::default()
            }),
            task: Some(Task {
                id: format!("t{task}"),
                label: format!("task {task}"),
            }),
            ..DocSummary::default()
        }
    }

    #[test]
    fn rollouts_get_their_columns_and_their_tasks() {
        let summaries = [
            rollout(1, "17", Some(1.0)),
            rollout(2, "4", Some(1.0)),
            rollout(3, "17", Some(0.0)),
            rollout(4, "17", Some(1.0)),
            rollout(5, "9", None),
        ];
        let index = lines(&summaries);
        assert_eq!(
            index.head,
            "<th data-sort=\"num\" class=\"n\">line</th><th data-sort=\"text\">shape</th><th data-sort=\"num\" class=\"n\">reward</th><th data-sort=\"text\">task</th><th data-sort=\"num\" class=\"n\">images</th><th data-sort=\"num\" class=\"n\">tool calls</th><th data-sort=\"num\" class=\"n\">errors</th><th data-sort=\"num\" class=\"n\">warnings</th>"
        );
        let rows = index.rows.into_string();
        assert!(rows.starts_with("<tr data-line=\"1\"><td class=\"n\"><a href=\"#line-1\">1</a></td><td>NeMo Gym rollout</td><td class=\"n\">1.0</td><td>task 17</td>"));
        let tasks = index.tasks.unwrap();
        // Only task 17 has more than one rollout; its rewards differ.
        assert!(tasks.contains("1 task with more than one rollout, 1 with differing rewards"));
        assert!(tasks.contains("<tr data-task=\"t17\" class=\"mixed\"><td class=\"wide\">task 17</td><td class=\"n\">3</td><td class=\"n\">0.667</td>"));
        assert!(tasks.contains("<a class=\"reward good\" href=\"#line-1\" title=\"line 1\">1.0</a> <a class=\"reward bad\" href=\"#line-3\""));
        // Compare opens the lowest against the highest.
        assert!(tasks.contains("href=\"#compare-3-1\""));
        assert_eq!(tasks.matches("<tr data-task").count(), 1);
    }

    #[test]
    fn documents_without_facts_keep_the_plain_index() {
        let plain = DocSummary {
            line: 1,
            kind: "tool reply".into(),
            ..DocSummary::default()
        };
        let index = lines(&[plain]);
        assert!(!index.head.contains("reward"));
        assert!(index.tasks.is_none());
        assert_eq!(grade(Some(0.5)), "warn");
        assert_eq!(grade(None), "none");
    }
}
