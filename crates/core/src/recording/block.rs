//! A fast reader for the part of YAML that recorders write: block mappings
//! and sequences (indentless ones too), plain, single- and double-quoted
//! scalars over one or more lines, literal and folded block scalars, `!!`
//! and `!` tags, and empty `{}` and `[]`. It builds the same tree as the
//! event parser (`yaml.rs`), borrowing every scalar that needs no unescaping
//! or folding from the text, and walks long scalars a line at a time instead
//! of a character at a time: saphyr-parser's scanner, which handles the whole
//! language, reads a cassette of large base64 bodies at a tenth of the speed
//! (docs/recordings.md, "The YAML parser").
//!
//! Anything outside that subset (anchors, aliases, flow collections with
//! content, complex keys, keys over 1024 bytes, directives, tabs, carriage
//! returns, byte order marks, an empty value, several documents, and every
//! error) makes it give up with `None`, and the caller reads the whole text
//! with the event parser instead. So it never decides what a text means
//! where the two could differ, and faults are always reported by the event
//! parser. The `yaml_block` fuzz target holds it to that (fuzz/README.md).

use std::borrow::Cow;

use super::yaml::{tag_name, Node, Scalar, MAX_DEPTH};

/// The first document of `text` as a tree, or `None` when the text is not
/// in the subset this reader knows.
pub(crate) fn parse(text: &str) -> Option<Node<'_>> {
    let bytes = text.as_bytes();
    // A byte order mark: the event parser skips one at the start and refuses
    // one anywhere else.
    if memchr::memmem::find(bytes, "\u{FEFF}".as_bytes()).is_some() || has_control(bytes) {
        return None;
    }
    let mut reader = Reader {
        text,
        bytes,
        pos: 0,
        line: 1,
        depth: 0,
    };
    reader.skip_blank_lines();
    if reader.at_marker(b"---") {
        reader.pos += 3;
        reader.rest_of_line_empty()?;
        reader.skip_blank_lines();
    }
    if reader.pos >= bytes.len() || reader.at_marker(b"...") || reader.at_marker(b"---") {
        return None;
    }
    let indent = reader.indent()?;
    if indent != 0 {
        return None;
    }
    let root = reader.node_at(indent)?;
    reader.skip_blank_lines();
    if reader.at_marker(b"...") {
        reader.pos += 3;
        reader.rest_of_line_empty()?;
        reader.skip_blank_lines();
    }
    (reader.pos >= bytes.len()).then_some(root)
}

/// Whether `bytes` hold a control character other than a line feed (a tab
/// or a carriage return among them): such texts go to the event parser.
fn has_control(bytes: &[u8]) -> bool {
    let control = |b: u8| u8::from(b < 0x20) & u8::from(b != b'\n');
    // Fixed-size chunks with a byte mask folded over each, which the
    // compiler turns into vector compares: this runs over every byte of a
    // cassette.
    let mut chunks = bytes.chunks_exact(64);
    let found = chunks
        .by_ref()
        .any(|chunk| chunk.iter().fold(0u8, |found, &b| found | control(b)) != 0);
    found || chunks.remainder().iter().any(|&b| control(b) != 0)
}

struct Reader<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    /// The 1-based line of `pos`.
    line: usize,
    depth: usize,
}

impl<'a> Reader<'a> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn at(&self, offset: usize) -> Option<u8> {
        self.bytes.get(self.pos + offset).copied()
    }

    /// The end of the line holding `pos` (the offset of its `\n`, or the end).
    fn line_end(&self) -> usize {
        memchr::memchr(b'\n', &self.bytes[self.pos..]).map_or(self.bytes.len(), |i| self.pos + i)
    }

    /// Moves past the line feed at `pos`, if there is one.
    fn newline(&mut self) {
        if self.peek() == Some(b'\n') {
            self.pos += 1;
            self.line += 1;
        }
    }

    /// From the start of a line: past every line that is empty, spaces only,
    /// or a comment, to the start of the next line with content.
    fn skip_blank_lines(&mut self) {
        loop {
            let start = self.pos;
            let mut i = start;
            while self.bytes.get(i) == Some(&b' ') {
                i += 1;
            }
            match self.bytes.get(i) {
                None => {
                    self.pos = i;
                    return;
                }
                Some(b'\n') => {
                    self.pos = i;
                    self.newline();
                }
                Some(b'#') => {
                    self.pos = i;
                    self.pos = self.line_end();
                    self.newline();
                }
                Some(_) => {
                    self.pos = start;
                    return;
                }
            }
        }
    }

    /// Whether the line starting at `pos` is the document marker `marker`.
    fn at_marker(&self, marker: &[u8]) -> bool {
        self.bytes[self.pos..].starts_with(marker)
            && matches!(self.at(3), None | Some(b' ' | b'\n'))
    }

    /// Spaces, maybe a comment, then the end of the line (consumed).
    fn rest_of_line_empty(&mut self) -> Option<()> {
        let start = self.pos;
        while self.peek() == Some(b' ') {
            self.pos += 1;
        }
        match self.peek() {
            None => Some(()),
            Some(b'\n') => {
                self.newline();
                Some(())
            }
            // A comment needs a space before it.
            Some(b'#') if self.pos > start => {
                self.pos = self.line_end();
                self.newline();
                Some(())
            }
            _ => None,
        }
    }

    /// The indentation of the line starting at `pos`, leaving `pos` on its
    /// first non-space byte.
    fn indent(&mut self) -> Option<usize> {
        let start = self.pos;
        while self.peek() == Some(b' ') {
            self.pos += 1;
        }
        Some(self.pos - start)
    }

    fn column(&self) -> usize {
        let line_start = memchr::memrchr(b'\n', &self.bytes[..self.pos]).map_or(0, |i| i + 1);
        self.pos - line_start
    }

    /// Whether `pos` is on a block sequence entry: `-` then a space or the end
    /// of the line.
    fn at_entry(&self) -> bool {
        self.peek() == Some(b'-') && matches!(self.at(1), None | Some(b' ' | b'\n'))
    }

    /// A block node whose first line starts at `pos` (already past its
    /// indentation, at column `col`): a sequence, a mapping or a scalar.
    fn node_at(&mut self, col: usize) -> Option<Node<'a>> {
        self.depth += 1;
        if self.depth >= MAX_DEPTH {
            return None;
        }
        let node = if self.at_entry() {
            self.sequence(col)
        } else if self.key_ahead() {
            self.mapping(col)
        } else {
            None
        };
        self.depth -= 1;
        node
    }

    /// Whether the line from `pos` opens with a key: a plain scalar followed
    /// by `: ` (or `:` at the end of the line), or a one-line quoted scalar
    /// followed by `:`.
    fn key_ahead(&self) -> bool {
        // `--- : x` is a document marker, not a key named `---`.
        if self.at_marker_here() {
            return false;
        }
        let line = &self.bytes[self.pos..self.line_end()];
        match line.first() {
            Some(b'\'' | b'"') => {
                let quote = line[0];
                memchr::memchr(quote, &line[1..]).is_some_and(|end| {
                    line.get(end + 2) == Some(&b':')
                        && matches!(line.get(end + 3), None | Some(b' '))
                })
            }
            Some(_) => plain_key_end(line).is_some(),
            None => false,
        }
    }

    fn sequence(&mut self, col: usize) -> Option<Node<'a>> {
        let line = self.line;
        let mut items = Vec::new();
        loop {
            // At `-` in column `col`.
            self.pos += 1;
            items.push(self.item_value(col)?);
            self.skip_blank_lines();
            if self.pos >= self.bytes.len() {
                break;
            }
            let start = self.pos;
            let indent = self.indent()?;
            if indent == col && self.at_entry() {
                continue;
            }
            if indent > col {
                return None;
            }
            self.pos = start;
            break;
        }
        Some(Node::Seq(items, line))
    }

    /// The value of a sequence entry, after its `-`.
    fn item_value(&mut self, col: usize) -> Option<Node<'a>> {
        while self.peek() == Some(b' ') {
            self.pos += 1;
        }
        match self.peek() {
            None | Some(b'\n' | b'#') => self.value_below(col, false),
            Some(_) if self.at_entry() => None,
            Some(_) if self.key_ahead() => {
                let at = self.column();
                self.depth += 1;
                let node = self.mapping(at);
                self.depth -= 1;
                node
            }
            Some(_) => self.inline_value(col),
        }
    }

    fn mapping(&mut self, col: usize) -> Option<Node<'a>> {
        let line = self.line;
        let mut entries = Vec::new();
        loop {
            let key = self.key()?;
            let value = self.map_value(col)?;
            entries.push((key, value));
            self.skip_blank_lines();
            if self.pos >= self.bytes.len() {
                break;
            }
            let start = self.pos;
            let indent = self.indent()?;
            if indent == col && !self.at_entry() && self.key_ahead() {
                continue;
            }
            let marker = indent == 0 && (self.at_marker(b"...") || self.at_marker(b"---"));
            if indent > col || (indent == col && !self.at_entry() && !marker) {
                return None;
            }
            self.pos = start;
            break;
        }
        Some(Node::Map(entries, line))
    }

    /// A key and its `:`, leaving `pos` just past the colon.
    fn key(&mut self) -> Option<Node<'a>> {
        let line = self.line;
        let start = self.pos;
        let key = match self.peek()? {
            b'\'' | b'"' => {
                let scalar = self.quoted(usize::MAX)?;
                if self.line != line || self.peek() != Some(b':') {
                    return None;
                }
                scalar
            }
            _ => {
                let end = self.pos + plain_key_end(&self.bytes[self.pos..self.line_end()])?;
                let text = self.text[self.pos..end].trim_end_matches(' ');
                self.pos = end;
                Node::Scalar(Scalar {
                    text: Cow::Borrowed(text),
                    tag: None,
                    plain: true,
                    line,
                })
            }
        };
        // The event parser refuses a key whose `:` is more than 1024
        // characters past its start (YAML's limit on implicit keys); bytes
        // are at least as many.
        if self.pos - start > MAX_KEY {
            return None;
        }
        self.pos += 1;
        Some(key)
    }

    /// The value after a mapping key's colon; the mapping is at column `col`.
    fn map_value(&mut self, col: usize) -> Option<Node<'a>> {
        if !matches!(self.peek(), None | Some(b' ' | b'\n')) {
            return None;
        }
        while self.peek() == Some(b' ') {
            self.pos += 1;
        }
        match self.peek() {
            None | Some(b'\n' | b'#') => self.value_below(col, true),
            Some(_) => self.inline_value(col),
        }
    }

    /// A value that starts on a later line than its key or `-`: a block node
    /// indented past `col` (or, for a mapping's value, a sequence at `col`).
    fn value_below(&mut self, col: usize, in_mapping: bool) -> Option<Node<'a>> {
        self.rest_of_line_empty()?;
        self.skip_blank_lines();
        if self.pos >= self.bytes.len() {
            return None;
        }
        let indent = self.indent()?;
        if indent > col {
            if self.at_entry() || self.key_ahead() {
                return self.node_at(indent);
            }
            return self.inline_value(col);
        }
        if indent == col && in_mapping && self.at_entry() {
            return self.node_at(indent);
        }
        // An empty value: the event parser says where it is.
        None
    }

    /// A scalar or an empty flow collection starting at `pos`, maybe tagged;
    /// its continuation lines are indented past `col`.
    fn inline_value(&mut self, col: usize) -> Option<Node<'a>> {
        let line = self.line;
        let mut tag = None;
        if self.peek() == Some(b'!') {
            let end = self.pos
                + self.bytes[self.pos..]
                    .iter()
                    .position(|b| matches!(b, b' ' | b'\n'))?;
            let raw = &self.text[self.pos..end];
            let (handle, suffix) = if let Some(suffix) = raw.strip_prefix("!!") {
                ("!!", suffix)
            } else {
                ("!", &raw[1..])
            };
            if suffix.is_empty()
                || !suffix
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
            {
                return None;
            }
            tag = Some(tag_name(handle, suffix));
            self.pos = end;
            if self.peek() != Some(b' ') {
                return None;
            }
            while self.peek() == Some(b' ') {
                self.pos += 1;
            }
        }
        let node = match self.peek()? {
            b'|' | b'>' => {
                let binary = tag.as_deref() == Some("binary");
                self.block_scalar(col, tag.is_some(), binary)?
            }
            b'\'' | b'"' => {
                let node = self.quoted(col)?;
                self.rest_of_line_empty()?;
                node
            }
            b'{' | b'[' => {
                let close = if self.peek() == Some(b'{') {
                    b'}'
                } else {
                    b']'
                };
                if self.at(1) != Some(close) || tag.is_some() {
                    return None;
                }
                self.pos += 2;
                self.rest_of_line_empty()?;
                if close == b'}' {
                    Node::Map(Vec::new(), line)
                } else {
                    Node::Seq(Vec::new(), line)
                }
            }
            b'&' | b'*' | b'?' | b':' | b',' | b']' | b'}' | b'#' | b'%' | b'@' | b'`' | b'!' => {
                return None
            }
            b'-' if self.at_entry() => return None,
            _ => self.plain(col)?,
        };
        Some(match node {
            Node::Scalar(mut scalar) => {
                if tag.is_some() {
                    scalar.tag = tag;
                    scalar.line = line;
                }
                Node::Scalar(scalar)
            }
            other => other,
        })
    }

    /// A plain scalar: its first line from `pos`, then every following line
    /// indented past `col`, folded. Leaves `pos` at the start of the line
    /// after its last one.
    fn plain(&mut self, col: usize) -> Option<Node<'a>> {
        let line = self.line;
        let (first, mut ended) = self.plain_line()?;
        let mut text = Cow::Borrowed(first);
        'lines: while !ended && self.peek() == Some(b'\n') {
            let after = (self.pos, self.line);
            self.newline();
            let mut breaks = 1;
            loop {
                let indent = self.indent()?;
                match self.peek() {
                    Some(b'\n') => {
                        self.newline();
                        breaks += 1;
                    }
                    Some(b) if indent > col && !starts_indicator(b, self.at(1)) => {
                        let (more, commented) = self.plain_line()?;
                        ended = commented;
                        let owned = text.to_mut();
                        if breaks == 1 {
                            owned.push(' ');
                        }
                        for _ in 1..breaks {
                            owned.push('\n');
                        }
                        owned.push_str(more);
                        continue 'lines;
                    }
                    _ => {
                        (self.pos, self.line) = after;
                        break 'lines;
                    }
                }
            }
        }
        // At the end of its last line, or at a comment after it.
        self.pos = self.line_end();
        self.newline();
        Some(Node::Scalar(Scalar {
            text,
            tag: None,
            plain: true,
            line,
        }))
    }

    /// One line of a plain scalar from `pos`, trimmed, leaving `pos` at the
    /// line's end, and whether a comment ended it; `None` where a `: ` or a
    /// trailing `:` would make it a key, which the event parser decides.
    fn plain_line(&mut self) -> Option<(&'a str, bool)> {
        let end = self.line_end();
        let line = &self.bytes[self.pos..end];
        let mut stop = line.len();
        for i in memchr::memchr2_iter(b':', b'#', line) {
            match line[i] {
                b':' if matches!(line.get(i + 1), None | Some(b' ')) => return None,
                b'#' if i == 0 => return None,
                b'#' if line[i - 1] == b' ' => {
                    stop = i;
                    break;
                }
                _ => {}
            }
        }
        let text = self.text[self.pos..self.pos + stop].trim_end_matches(' ');
        if text.is_empty() {
            return None;
        }
        // A comment ends the scalar: nothing of it continues below.
        self.pos = end;
        Some((text, stop < line.len()))
    }

    /// A single- or double-quoted scalar from its opening quote; continuation
    /// lines must be indented past `col`. Leaves `pos` after the closing quote.
    fn quoted(&mut self, col: usize) -> Option<Node<'a>> {
        let line = self.line;
        let quote = self.peek()?;
        self.pos += 1;
        let start = self.pos;
        // Once anything is unescaped or folded, the text built so far.
        let mut out: Option<String> = None;
        loop {
            let rest = &self.bytes[self.pos..];
            let i = if quote == b'\'' {
                memchr::memchr2(b'\'', b'\n', rest)?
            } else {
                memchr::memchr3(b'"', b'\n', b'\\', rest)?
            };
            let at = self.pos + i;
            let byte = self.bytes[at];
            if byte == quote && !(quote == b'\'' && self.bytes.get(at + 1) == Some(&b'\'')) {
                let text = match out {
                    Some(mut owned) => {
                        owned.push_str(&self.text[self.pos..at]);
                        Cow::Owned(owned)
                    }
                    None => Cow::Borrowed(&self.text[start..at]),
                };
                self.pos = at + 1;
                return Some(Node::Scalar(Scalar {
                    text,
                    tag: None,
                    plain: false,
                    line,
                }));
            }
            let owned = out.get_or_insert_with(String::new);
            let segment = &self.text[self.pos..at];
            match byte {
                b'\'' => {
                    owned.push_str(segment);
                    owned.push('\'');
                    self.pos = at + 2;
                }
                b'\\' => {
                    owned.push_str(segment);
                    self.pos = at + 1;
                    if self.peek() == Some(b'\n') {
                        // An escaped line break: the lines join with nothing.
                        self.newline();
                        self.continuation(col)?;
                        if self.peek() == Some(b'\n') {
                            return None;
                        }
                    } else {
                        let (c, len) = escape(&self.bytes[self.pos..])?;
                        owned.push(c);
                        self.pos += len;
                    }
                }
                _ => {
                    // A line break: the line's trailing spaces go, breaks fold.
                    owned.push_str(segment.trim_end_matches(' '));
                    self.pos = at;
                    let mut breaks = 0;
                    while self.peek() == Some(b'\n') {
                        self.newline();
                        breaks += 1;
                        self.continuation(col)?;
                    }
                    if breaks == 1 {
                        owned.push(' ');
                    }
                    for _ in 1..breaks {
                        owned.push('\n');
                    }
                }
            }
        }
    }

    /// At the start of a quoted scalar's continuation line: past its
    /// indentation, which must be deeper than `col` unless the line is empty.
    fn continuation(&mut self, col: usize) -> Option<()> {
        let indent = self.indent()?;
        match self.peek() {
            None => None,
            Some(b'\n') => Some(()),
            Some(_) if col != usize::MAX && indent > col && !self.at_marker_here() => Some(()),
            Some(_) => None,
        }
    }

    /// Whether `pos` is at a document marker in the first column.
    fn at_marker_here(&self) -> bool {
        self.column() == 0 && (self.at_marker(b"---") || self.at_marker(b"..."))
    }

    /// A literal (`|`) or folded (`>`) block scalar from its indicator; its
    /// lines must be indented past `col`. Leaves `pos` at the start of the
    /// first line after it (empty lines after it included).
    fn block_scalar(&mut self, col: usize, tagged: bool, binary: bool) -> Option<Node<'a>> {
        let folded = self.peek() == Some(b'>');
        self.pos += 1;
        let chomp = match self.peek() {
            Some(c @ (b'-' | b'+')) => {
                self.pos += 1;
                c
            }
            _ => b' ',
        };
        if matches!(self.peek(), Some(b'0'..=b'9' | b'-' | b'+')) {
            return None;
        }
        self.rest_of_line_empty()?;
        let first_line = self.line;
        let indent = self.indent()?;
        // Leading empty lines, and a scalar with no text, are for the event parser.
        if indent <= col || indent == 0 || matches!(self.peek(), None | Some(b'\n')) {
            return None;
        }
        let mut text = String::new();
        let mut breaks = 0usize;
        loop {
            // At a content line, past its indentation.
            let end = self.line_end();
            let content = &self.text[self.pos..end];
            if folded && content.starts_with(' ') {
                return None;
            }
            // Base64 means the same without its line breaks: a `!!binary`
            // scalar's lines are joined as they are read, so that decoding
            // it needs no second pass to take them out (see `Scalar::text`).
            if !binary && (!text.is_empty() || breaks > 0) {
                if folded && breaks == 1 {
                    text.push(' ');
                } else {
                    let n = if folded { breaks - 1 } else { breaks };
                    for _ in 0..n {
                        text.push('\n');
                    }
                }
            }
            text.push_str(content);
            self.pos = end;
            breaks = 0;
            // The following lines: empty ones count, a shallower one ends it.
            let more = loop {
                if self.pos >= self.bytes.len() {
                    break false;
                }
                self.newline();
                breaks += 1;
                let start = self.pos;
                let line_indent = self.indent()?;
                match self.peek() {
                    None | Some(b'\n') if line_indent > indent => return None,
                    // A last line of spaces only, unended: the event parser
                    // counts it as one more line break when it is as
                    // indented as the text.
                    None if line_indent == indent => return None,
                    None => break false,
                    Some(b'\n') => {}
                    Some(_) if line_indent >= indent => {
                        self.pos = start + indent;
                        break true;
                    }
                    Some(_) => {
                        self.pos = start;
                        break false;
                    }
                }
            };
            if !more {
                break;
            }
        }
        if breaks == 0 {
            // The text ends without a line break: the event parser says how.
            return None;
        }
        match chomp {
            _ if binary => {}
            b'-' => {}
            b'+' => (0..breaks).for_each(|_| text.push('\n')),
            _ => text.push('\n'),
        }
        Some(Node::Scalar(Scalar {
            text: Cow::Owned(text),
            tag: None,
            plain: false,
            line: if tagged { 0 } else { first_line },
        }))
    }
}

/// The longest a key may be, to its `:`, in bytes.
const MAX_KEY: usize = 1024;

/// Whether a continuation line of a plain scalar opens with something that
/// may be an indicator; the event parser reads those.
fn starts_indicator(first: u8, second: Option<u8>) -> bool {
    match first {
        b'-' | b'?' | b':' => matches!(second, None | Some(b' ' | b'\n')),
        b'&' | b'*' | b'!' | b'|' | b'>' | b'\'' | b'"' | b'%' | b'@' | b'`' | b'#' | b'{'
        | b'}' | b'[' | b']' | b',' => true,
        _ => false,
    }
}

/// Where a plain key ends on its line (the offset of its `:`), if the line
/// opens with one.
fn plain_key_end(line: &[u8]) -> Option<usize> {
    match line.first()? {
        b'-' | b'?' | b':' if matches!(line.get(1), None | Some(b' ')) => return None,
        b'&' | b'*' | b'!' | b'|' | b'>' | b'\'' | b'"' | b'%' | b'@' | b'`' | b'#' | b'{'
        | b'}' | b'[' | b']' | b',' => return None,
        _ => {}
    }
    for i in memchr::memchr2_iter(b':', b'#', line) {
        match line[i] {
            b':' if matches!(line.get(i + 1), None | Some(b' ')) => return Some(i),
            b'#' if line[i - 1] == b' ' => return None,
            _ => {}
        }
    }
    None
}

/// A double-quoted escape after its backslash: the character and how many
/// bytes it took.
fn escape(bytes: &[u8]) -> Option<(char, usize)> {
    let simple = match *bytes.first()? {
        b'0' => '\0',
        b'a' => '\x07',
        b'b' => '\x08',
        b't' => '\t',
        b'n' => '\n',
        b'v' => '\x0b',
        b'f' => '\x0c',
        b'r' => '\r',
        b'e' => '\x1b',
        b' ' => ' ',
        b'"' => '"',
        b'/' => '/',
        b'\\' => '\\',
        b'N' => '\u{85}',
        b'_' => '\u{a0}',
        b'L' => '\u{2028}',
        b'P' => '\u{2029}',
        b'x' => return hex(bytes, 2),
        b'u' => return hex(bytes, 4),
        b'U' => return hex(bytes, 8),
        _ => return None,
    };
    Some((simple, 1))
}

fn hex(bytes: &[u8], digits: usize) -> Option<(char, usize)> {
    let hex_digits = bytes.get(1..1 + digits)?;
    // Hex digits only: `from_str_radix` would also take a leading `+`.
    if !hex_digits.iter().all(u8::is_ascii_hexdigit) {
        return None;
    }
    let text = std::str::from_utf8(hex_digits).ok()?;
    let code = u32::from_str_radix(text, 16).ok()?;
    Some((char::from_u32(code)?, 1 + digits))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::recording::compare_yaml_readers;

    /// Whether the fast reader reads `text`; its tree must be the event
    /// parser's.
    fn same(text: &str) -> bool {
        if let Err(difference) = compare_yaml_readers(text) {
            panic!("{text:?}: {difference}");
        }
        parse(text).is_some()
    }

    #[test]
    fn the_subset_reads_as_the_event_parser_reads_it() {
        let read = [
            "a: 1\nb: two words # c\nc:\n- x\n- 'y'\nd:\n  e: \"f\"\n",
            "interactions:\n- request:\n    body: '{\"a\": 1, ''q'': 2}'\n    uri: https://x/y?z=1\n  response:\n    status:\n      code: 200\n",
            "a: 'one\n  two\n\n  three  \n  four'\nb: x\n",
            "a: \"esc \\\" \\\\ \\n \\t \\u00e9 \\x41 \\U0001F600\"\nb: \"fold\n  ed \\\n  joined\"\n",
            "a: plain\n  continued\n\n  after a gap\nb: c\n",
            "a: !!binary |\n  aGk=\n  aGk=\nb: !binary aGk=\nc: |-\n  lit\n\n    more\nd: |+\n  keep\n\n\ne: >-\n  folded\n  text\n\n  para\nf: x\n",
            "---\nlist:\n  - a: 1\n    b: 2\n  -   c: 3\n",
            "a: {}\nb: []\nc: ~\nd: null\n'q': 1\n\"r s\": 2\n",
            "a:\n  'below'\nb:\n  |\n    block\nc: z\n...\n",
        ];
        for text in read {
            assert!(same(text), "not read by the fast reader: {text:?}");
        }
        let refused = [
            "a: &x 1\nb: *x\n",
            "a:\n",
            "a: [1, 2]\n",
            "a: 1\n---\nb: 2\n",
            "a:\tb\n",
            "a: b: c\n",
            "? a\n: b\n",
            "a: |2\n   x\n",
            "a: 'unclosed\n",
            "a: 1\n  b: 2\n",
            "a: x\n  - y\n",
            "%YAML 1.2\n---\na: 1\n",
            "- a\nb: c\n",
            "- - nested\n",
            "a: |\n  ends without a break",
            "a: |\n\n  leading empty\n",
            "a: >\n  x\n    more indented\n",
        ];
        for text in refused {
            assert!(!same(text), "read by the fast reader: {text:?}");
        }
    }

    /// Every YAML cassette of the shared corpus is read by the fast reader,
    /// into the event parser's tree.
    #[test]
    fn the_shared_cassettes_are_all_in_the_subset() {
        let root =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/cassettes");
        let Ok(folders) = std::fs::read_dir(&root) else {
            return;
        };
        let mut seen = 0;
        for folder in folders.flatten() {
            for file in std::fs::read_dir(folder.path())
                .into_iter()
                .flatten()
                .flatten()
            {
                let path = file.path();
                let name = path.to_string_lossy().to_string();
                if !(name.ends_with(".yaml")
                    || name.ends_with(".yml")
                    || name.ends_with(".yaml.gz"))
                {
                    continue;
                }
                let mut bytes = std::fs::read(&path).unwrap();
                if super::super::is_gzip(&bytes) {
                    bytes = super::super::gunzip(&bytes).unwrap();
                }
                let text = String::from_utf8(bytes).unwrap();
                assert!(same(&text), "{name} is not read by the fast reader");
                seen += 1;
            }
        }
        assert!(seen >= 20, "only {seen} cassettes under {}", root.display());
    }
}
