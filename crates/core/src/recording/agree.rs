//! Whether the fast block reader (`block.rs`) and the event parser
//! (`yaml.rs`) build the same tree: the block reader may decline a text,
//! but where it answers it must answer as the event parser does, or a
//! cassette would read differently depending on which reader took it. The
//! unit tests hold the real cassettes to this, and the `yaml_block` fuzz
//! target every text it makes up (fuzz/README.md).

use super::yaml::{Node, Scalar};

/// `Ok` when the block reader declines `text` or builds the event parser's
/// tree from it; otherwise the first difference, with the path to it.
pub fn compare_yaml_readers(text: &str) -> Result<(), String> {
    let Some(fast) = super::block::parse(text) else {
        return Ok(());
    };
    match super::yaml::events(text) {
        Ok(Some(slow)) => match first_difference(&fast, &slow, &mut String::new()) {
            None => Ok(()),
            Some(difference) => Err(difference),
        },
        Ok(None) => Err("the block reader reads a tree, the event parser none".to_string()),
        Err(fault) => Err(format!(
            "the block reader reads a tree, the event parser refuses at line {}: {}",
            fault.line, fault.reason
        )),
    }
}

/// The first place where `fast` and `slow` differ (kind, line, scalar text,
/// tag or style, mapping keys in order, lengths), `path` leading to them.
fn first_difference(fast: &Node, slow: &Node, path: &mut String) -> Option<String> {
    let at = |what: String, path: &str| {
        let path = if path.is_empty() { "the root" } else { path };
        Some(format!("at {path}: {what}"))
    };
    if fast.line() != slow.line() {
        return at(
            format!("line {} against {}", fast.line(), slow.line()),
            path,
        );
    }
    match (fast, slow) {
        (Node::Scalar(a), Node::Scalar(b)) => scalar_difference(a, b).and_then(|d| at(d, path)),
        (Node::Seq(a, _), Node::Seq(b, _)) => {
            if a.len() != b.len() {
                return at(format!("{} items against {}", a.len(), b.len()), path);
            }
            a.iter().zip(b).enumerate().find_map(|(i, (a, b))| {
                let mark = path.len();
                path.push_str(&format!("[{i}]"));
                let found = first_difference(a, b, path);
                path.truncate(mark);
                found
            })
        }
        (Node::Map(a, _), Node::Map(b, _)) => {
            if a.len() != b.len() {
                return at(format!("{} entries against {}", a.len(), b.len()), path);
            }
            a.iter()
                .zip(b)
                .enumerate()
                .find_map(|(i, ((ka, va), (kb, vb)))| {
                    let mark = path.len();
                    path.push_str(&format!("{{key {i}}}"));
                    let found = first_difference(ka, kb, path).or_else(|| {
                        path.truncate(mark);
                        let name = ka
                            .text()
                            .map_or(format!("{{{i}}}"), |k| format!(".{}", shown(k)));
                        path.push_str(&name);
                        first_difference(va, vb, path)
                    });
                    path.truncate(mark);
                    found
                })
        }
        _ => at(format!("{} against {}", kind(fast), kind(slow)), path),
    }
}

fn scalar_difference(a: &Scalar, b: &Scalar) -> Option<String> {
    // A `!!binary` block scalar's lines are joined by the block reader
    // (Scalar::text): base64 counts no line breaks or spaces, which is all
    // the decoder (recording::unbase64) takes out.
    let unbroken = |text: &str| -> String {
        text.chars()
            .filter(|c| !matches!(c, ' ' | '\n' | '\r'))
            .collect()
    };
    let same_text = if a.is_binary() && b.is_binary() {
        unbroken(&a.text) == unbroken(&b.text)
    } else {
        a.text == b.text
    };
    if !same_text {
        Some(format!(
            "text {} against {}",
            shown(&a.text),
            shown(&b.text)
        ))
    } else if a.tag != b.tag {
        Some(format!("tag {:?} against {:?}", a.tag, b.tag))
    } else if a.plain != b.plain {
        Some(format!("plain {} against {}", a.plain, b.plain))
    } else {
        None
    }
}

/// A scalar's text for a message, cut short: bodies may be long base64.
fn shown(text: &str) -> String {
    const SHOWN: usize = 60;
    match text.char_indices().nth(SHOWN) {
        Some((end, _)) => format!("{:?}… ({} bytes)", &text[..end], text.len()),
        None => format!("{text:?}"),
    }
}

fn kind(node: &Node) -> &'static str {
    match node {
        Node::Scalar(_) => "a scalar",
        Node::Seq(..) => "a sequence",
        Node::Map(..) => "a mapping",
    }
}
