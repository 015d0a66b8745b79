//! A YAML document as a small tree that remembers where each node starts.
//!
//! Built from saphyr-parser's events (docs/recordings.md says why that parser):
//! a cassette is read once into this tree, and each body keeps the line its
//! text starts on. Aliases are resolved by copying the anchored node.

use std::borrow::Cow;
use std::collections::HashMap;

use saphyr_parser::{Event, Parser, ScalarStyle};

/// One node of a YAML document.
#[derive(Debug, Clone)]
pub(crate) enum Node<'a> {
    Scalar(Scalar<'a>),
    Seq(Vec<Node<'a>>, usize),
    Map(Vec<(Node<'a>, Node<'a>)>, usize),
}

/// A scalar: its text after YAML's unescaping and folding, its tag's suffix
/// when it has one (`binary` for `!!binary` and `!binary`), whether it was
/// written plain (and so may stand for a null, a boolean or a number), and
/// the 1-based line its text starts on.
#[derive(Debug, Clone)]
pub(crate) struct Scalar<'a> {
    /// Borrowed from the document's text where it needed no unescaping or
    /// folding (recording/block.rs), so that a cassette's text is held once.
    /// A `!!binary` block scalar read by the block reader has its lines
    /// joined without their breaks (base64 means the same either way), so
    /// that it decodes in one pass; compare binary scalars with their
    /// whitespace taken out.
    pub text: Cow<'a, str>,
    pub tag: Option<String>,
    pub plain: bool,
    pub line: usize,
}

/// Why a text is not a YAML document, with the 1-based line of the fault.
#[derive(Debug)]
pub(crate) struct Fault {
    pub line: usize,
    pub reason: String,
}

impl<'a> Node<'a> {
    /// The 1-based line this node starts on.
    pub fn line(&self) -> usize {
        match self {
            Node::Scalar(scalar) => scalar.line,
            Node::Seq(_, line) | Node::Map(_, line) => *line,
        }
    }

    /// How many nodes this one is, itself included.
    fn size(&self) -> usize {
        match self {
            Node::Scalar(_) => 1,
            Node::Seq(items, _) => 1 + items.iter().map(Node::size).sum::<usize>(),
            Node::Map(entries, _) => {
                1 + entries
                    .iter()
                    .map(|(k, v)| k.size() + v.size())
                    .sum::<usize>()
            }
        }
    }

    /// The value under `key` in a mapping.
    pub fn get(&self, key: &str) -> Option<&Node<'a>> {
        match self {
            Node::Map(entries, _) => entries
                .iter()
                .find(|(k, _)| matches!(k, Node::Scalar(s) if s.text == key))
                .map(|(_, v)| v),
            _ => None,
        }
    }

    /// The value under `key` in a mapping, to take from.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Node<'a>> {
        match self {
            Node::Map(entries, _) => entries
                .iter_mut()
                .find(|(k, _)| matches!(k, Node::Scalar(s) if s.text == key))
                .map(|(_, v)| v),
            _ => None,
        }
    }

    /// The value under `key` in a mapping, taken out of it (the first one).
    pub fn take(&mut self, key: &str) -> Option<Node<'a>> {
        match self {
            Node::Map(entries, _) => {
                let at = entries
                    .iter()
                    .position(|(k, _)| matches!(k, Node::Scalar(s) if s.text == key))?;
                Some(entries.remove(at).1)
            }
            _ => None,
        }
    }

    /// The text of a scalar that is not a null.
    pub fn text(&self) -> Option<&str> {
        match self {
            Node::Scalar(scalar) if !scalar.is_null() => Some(&scalar.text),
            _ => None,
        }
    }

    pub fn items(&self) -> Option<&[Node<'a>]> {
        match self {
            Node::Seq(items, _) => Some(items),
            _ => None,
        }
    }

    pub fn entries(&self) -> Option<&[(Node<'a>, Node<'a>)]> {
        match self {
            Node::Map(entries, _) => Some(entries),
            _ => None,
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self, Node::Scalar(scalar) if scalar.is_null())
    }

    /// The node as JSON, the way a YAML loader would read it: plain scalars
    /// that spell a null, a boolean or a number become one, every other
    /// scalar is a string.
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::Value;
        match self {
            Node::Scalar(scalar) => scalar.to_json(),
            Node::Seq(items, _) => Value::Array(items.iter().map(Node::to_json).collect()),
            Node::Map(entries, _) => Value::Object(
                entries
                    .iter()
                    .map(|(k, v)| {
                        let key = match k {
                            Node::Scalar(s) => s.text.to_string(),
                            other => other.to_json().to_string(),
                        };
                        (key, v.to_json())
                    })
                    .collect(),
            ),
        }
    }
}

impl Scalar<'_> {
    pub fn is_null(&self) -> bool {
        self.tag.is_none()
            && self.plain
            && matches!(self.text.as_ref(), "" | "~" | "null" | "Null" | "NULL")
    }

    pub fn is_binary(&self) -> bool {
        self.tag.as_deref() == Some("binary")
    }

    fn to_json(&self) -> serde_json::Value {
        use serde_json::Value;
        let resolves = self.plain && self.tag.is_none();
        if resolves {
            match self.text.as_ref() {
                "" | "~" | "null" | "Null" | "NULL" => return Value::Null,
                "true" | "True" | "TRUE" => return Value::Bool(true),
                "false" | "False" | "FALSE" => return Value::Bool(false),
                _ => {}
            }
            if looks_numeric(&self.text) {
                if let Ok(number) = self.text.parse::<serde_json::Number>() {
                    return Value::Number(number);
                }
            }
        }
        Value::String(self.text.to_string())
    }
}

/// Whether a plain scalar is spelled as a JSON number (YAML's other number
/// spellings, such as `0x1f` or `.inf`, stay strings).
fn looks_numeric(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    digits.starts_with(|c: char| c.is_ascii_digit())
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'-' | b'+' | b'.' | b'e' | b'E'))
}

/// How deep sequences and mappings may nest: as deep as JSON bodies are
/// read elsewhere (serde_json's limit), and shallow enough that walking and
/// dropping the tree cannot exhaust the stack.
pub(crate) const MAX_DEPTH: usize = 128;

/// How many nodes aliases may copy in all, so that aliases of aliases (the
/// "billion laughs") cannot grow the tree without bound.
const MAX_COPIED: usize = 1_000_000;

/// The first document of `text` as a tree; `None` for an empty stream.
/// The block subset recorders write is read by the fast reader
/// (recording/block.rs); anything else, and every fault, by the event parser.
pub(crate) fn parse(text: &str) -> Result<Option<Node<'_>>, Fault> {
    if let Some(root) = super::block::parse(text) {
        return Ok(Some(root));
    }
    events(text)
}

/// [`parse`] by saphyr-parser's events.
pub(crate) fn events(text: &str) -> Result<Option<Node<'_>>, Fault> {
    let mut builder = Builder::default();
    for event in Parser::new_from_str(text) {
        let (event, span) = event.map_err(|e| Fault {
            line: e.marker().line(),
            reason: e.info().to_string(),
        })?;
        let line = span.start.line();
        match event {
            Event::Scalar(value, style, anchor, tag) => {
                let node = Node::Scalar(Scalar {
                    text: Cow::Owned(value.into_owned()),
                    tag: tag.map(|t| tag_name(&t.handle, &t.suffix)),
                    plain: style == ScalarStyle::Plain,
                    line,
                });
                builder.push(node, anchor);
            }
            Event::SequenceStart(..) | Event::MappingStart(..)
                if builder.stack.len() >= MAX_DEPTH =>
            {
                return Err(Fault {
                    line,
                    reason: format!("nested deeper than {MAX_DEPTH} levels"),
                });
            }
            Event::SequenceStart(anchor, _) => builder.open(Open::Seq(Vec::new()), anchor, line),
            Event::MappingStart(anchor, _) => {
                builder.open(Open::Map(Vec::new(), None), anchor, line)
            }
            Event::SequenceEnd | Event::MappingEnd => builder.close(),
            Event::Alias(anchor) => {
                let (node, size) = builder.anchors.get(&anchor).cloned().ok_or(Fault {
                    line,
                    reason: "an alias to an anchor not defined before it".to_string(),
                })?;
                builder.copied += size;
                if builder.copied > MAX_COPIED {
                    return Err(Fault {
                        line,
                        reason: format!("aliases that copy more than {MAX_COPIED} nodes"),
                    });
                }
                builder.push(node, 0);
            }
            Event::DocumentEnd => {
                if builder.root.is_some() {
                    break;
                }
            }
            Event::StreamStart | Event::StreamEnd | Event::DocumentStart(_) | Event::Nothing => {}
        }
    }
    Ok(builder.root)
}

/// A tag as one name: the suffix for the core schema's `!!` tags and for a
/// local `!name` tag (so both `!!binary` and Ruby's `!binary` read
/// `binary`), the whole tag otherwise.
pub(crate) fn tag_name(handle: &str, suffix: &str) -> String {
    match handle {
        "!" | "!!" | "tag:yaml.org,2002:" => suffix.to_string(),
        _ => format!("{handle}{suffix}"),
    }
}

enum Open<'a> {
    Seq(Vec<Node<'a>>),
    /// The entries so far and the key waiting for its value.
    Map(Vec<(Node<'a>, Node<'a>)>, Option<Node<'a>>),
}

#[derive(Default)]
struct Builder<'a> {
    stack: Vec<(Open<'a>, usize, usize)>,
    /// Each anchored node with its size in nodes.
    anchors: HashMap<usize, (Node<'a>, usize)>,
    /// The nodes aliases have copied so far.
    copied: usize,
    root: Option<Node<'a>>,
}

impl<'a> Builder<'a> {
    fn open(&mut self, open: Open<'a>, anchor: usize, line: usize) {
        self.stack.push((open, anchor, line));
    }

    fn close(&mut self) {
        if let Some((open, anchor, line)) = self.stack.pop() {
            let node = match open {
                Open::Seq(items) => Node::Seq(items, line),
                Open::Map(entries, _) => Node::Map(entries, line),
            };
            self.push(node, anchor);
        }
    }

    fn push(&mut self, node: Node<'a>, anchor: usize) {
        if anchor != 0 {
            self.anchors.insert(anchor, (node.clone(), node.size()));
        }
        match self.stack.last_mut() {
            None => {
                if self.root.is_none() {
                    self.root = Some(node);
                }
            }
            Some((Open::Seq(items), _, _)) => items.push(node),
            Some((Open::Map(entries, key), _, _)) => match key.take() {
                None => *key = Some(node),
                Some(k) => entries.push((k, node)),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_lines_anchors_and_styles() {
        let text = "a: !!binary |\n  aGk=\nb: !binary aGk=\nc: &x\n  - 1\n  - 'two'\nd: *x\ne: >-\n  folded\n  text\nf: \"q\\u00e9\"\n";
        let root = parse(text).unwrap().unwrap();
        let a = match root.get("a").unwrap() {
            Node::Scalar(s) => s.clone(),
            _ => panic!(),
        };
        assert!(a.is_binary());
        assert_eq!(a.text.trim(), "aGk=");
        assert_eq!(a.line, 1, "a tagged block scalar starts at its tag");
        assert!(matches!(root.get("b"), Some(Node::Scalar(s)) if s.is_binary()));
        assert_eq!(
            root.get("d").unwrap().to_json(),
            serde_json::json!([1, "two"])
        );
        assert_eq!(root.get("e").unwrap().text(), Some("folded text"));
        assert_eq!(root.get("f").unwrap().text(), Some("qé"));
    }

    #[test]
    fn plain_scalars_resolve_like_a_loader() {
        let root = parse("n: null\nt: true\ni: 12\nf: 1.5e-05\ns: '12'\nx: 0x1f\n")
            .unwrap()
            .unwrap();
        assert_eq!(
            root.to_json().to_string(),
            r#"{"n":null,"t":true,"i":12,"f":1.5e-05,"s":"12","x":"0x1f"}"#
        );
    }

    #[test]
    fn deep_nesting_is_refused_not_overflowed() {
        let deep = format!("a: {}1{}\n", "[".repeat(100_000), "]".repeat(100_000));
        // The parser has a limit of its own for flow collections.
        assert!(parse(&deep).is_err());
        let block: String = (0..200).map(|i| format!("{}k:\n", " ".repeat(i))).collect();
        let fault = parse(&block).unwrap_err();
        assert!(fault.reason.contains("nested deeper"), "{fault:?}");
        let fine = format!("a: {}1{}\n", "[".repeat(100), "]".repeat(100));
        assert!(parse(&fine).is_ok());
    }

    #[test]
    fn aliases_of_aliases_are_bounded() {
        let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..12 {
            let p = i - 1;
            text.push_str(&format!("a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"));
        }
        let fault = parse(&text).unwrap_err();
        assert!(fault.reason.contains("aliases that copy"), "{fault:?}");
    }

    #[test]
    fn a_fault_names_its_line() {
        let fault = parse("a: 1\nb: [1, 2\n").unwrap_err();
        assert!(fault.line >= 2, "{fault:?}");
    }
}
