//! One document through [`crate::convert`] (docs/conversion.md): a whole transcript, the
//! values at `--at` pointers spliced back into the document, or a NeMo Gym
//! rollout's conversation; the operation behind `partkit convert`.

use std::fs::File;
use std::io::{self, Write};
use std::path::Path;
use std::sync::Arc;

use crate::convert::{self, ConvertError, ConvertOptions};
use crate::document::{Document, LentFile, Open};
use crate::error::ReadFault;
use crate::json::lent::{self, Lending, Lent};
use crate::json::out::Out;
use crate::json::{self, Json, Reading, Spellings};
use crate::render;
use crate::shapes::rollout;
use crate::shapes::{Registered, Shape};
use crate::shared::SharedBytes;
use crate::subdoc::{join, splice, At, LocateError, MISSING};

/// Whether documents are read as NeMo Gym rollouts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RolloutChoice {
    /// When they are one (an object with a `responses_create_params` object).
    #[default]
    Recognize,
    /// Always (`--kind rollout`).
    Always,
    /// Never (`--kind transcript`).
    Never,
}

/// Everything `convert` needs to know about one document.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ConvertRequest {
    /// `None`: detect the shape.
    pub from: Option<Shape>,
    pub to: Shape,
    pub options: ConvertOptions,
    pub pretty: bool,
    /// Convert the values at these pointers instead of the whole document.
    pub at: At,
    pub rollout: RolloutChoice,
    /// Print only the converted value (of the one `--at` pointer, or of a
    /// rollout's conversation), not the document around it.
    pub bare: bool,
}

/// One converted document: its serialized output and the notes for stderr.
///
/// The output may have holes where payloads lent from the input go
/// (`json::lent`): write it with [`ConvertedDocument::write_to`], or
/// fill it with [`ConvertedDocument::into_bytes`], given the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConvertedDocument {
    output: Vec<u8>,
    lent: Lent,
    pub notes: Vec<String>,
    /// The shape the (first) converted value was read as; `None` when an
    /// `--at` pointer held no value to convert.
    pub source: Option<Shape>,
}

impl ConvertedDocument {
    /// Writes the output, its holes filled from `input` (the bytes given to
    /// [`convert_document`]).
    pub fn write_to<W: Write>(&self, out: &mut W, input: &[u8]) -> io::Result<()> {
        self.lent.write_to(out, &self.output, input)
    }

    /// The output in memory, its holes filled from `input`.
    pub fn into_bytes(self, input: &[u8]) -> Vec<u8> {
        self.lent.fill(self.output, input)
    }

    fn filled(output: Vec<u8>, notes: Vec<String>, source: Option<Shape>) -> ConvertedDocument {
        ConvertedDocument {
            output,
            lent: Lent::default(),
            notes,
            source,
        }
    }
}

/// Converts one JSON document.
pub fn convert_document(
    bytes: &SharedBytes,
    request: &ConvertRequest,
) -> Result<ConvertedDocument, ConvertError> {
    if !request.at.is_active() {
        return convert_value(bytes, request, request.pretty);
    }
    let located = request.at.locate(bytes).map_err(|error| match error {
        LocateError::InvalidJson(message) => {
            ConvertError::invalid("", format!("invalid JSON: {message}"))
        }
        LocateError::Missing(pointer) => ConvertError::invalid(pointer, MISSING),
    })?;
    let mut notes = Vec::new();
    let mut source = None;
    let mut replacements = Vec::with_capacity(located.len());
    for value in located {
        let pretty = request.bare && request.pretty;
        let input = bytes.slice(value.range.clone());
        let converted = convert_value(&input, request, pretty)
            .map_err(|e| at_pointer(e, |p| join(&value.pointer, p)))?;
        source = source.or(converted.source);
        for note in &converted.notes {
            if !notes.contains(note) {
                notes.push(note.clone());
            }
        }
        replacements.push((value.range, converted.into_bytes(&input)));
    }
    let output = if request.bare {
        // One pointer (the command line makes sure); a value passed over by
        // `--at-missing skip` is a null, so that lines still line up.
        replacements
            .pop()
            .map(|(_, output)| output)
            .unwrap_or_else(|| b"null".to_vec())
    } else {
        splice(bytes, &mut replacements)
    };
    Ok(ConvertedDocument::filled(output, notes, source))
}

/// Converts one value: a rollout's conversation, or a transcript of any shape.
fn convert_value(
    bytes: &SharedBytes,
    request: &ConvertRequest,
    pretty: bool,
) -> Result<ConvertedDocument, ConvertError> {
    if request.rollout == RolloutChoice::Always {
        return convert_rollout(bytes, request, pretty);
    }
    // A rollout is told from the text, so that it is parsed once, as its
    // conversation: a small document's own, a larger one's without its
    // payloads (the scan's shadow).
    let recognize = request.rollout == RolloutChoice::Recognize;
    if lent::parses_directly(bytes) && recognize && rollout().holds_text(bytes) {
        return convert_rollout(bytes, request, pretty);
    }
    convert_text(bytes, request.from, request, pretty, |scan| {
        recognize && rollout().holds_text(scan.text(bytes))
    })
    .unwrap_or_else(|| convert_rollout(bytes, request, pretty))
}

/// Converts a transcript's text, parsed once into the borrowed tree with its
/// payloads lent (docs/speed.md, "One tree for small documents"): the one
/// way a document is opened, whatever its size and shape (a reader that
/// reads only a `Value` is given the tree as one, or a small document
/// parsed into one). A small document is parsed in one pass; a larger one
/// (or one the one-pass parser leaves to serde_json) is scanned for its
/// payloads first, and is `None` when `is_rollout` says the scanned text is
/// a rollout's.
fn convert_text(
    bytes: &SharedBytes,
    from: Option<Shape>,
    request: &ConvertRequest,
    pretty: bool,
    is_rollout: impl FnOnce(&lent::Scan) -> bool,
) -> Option<Result<ConvertedDocument, ConvertError>> {
    let invalid = |e: serde_json::Error| ConvertError::invalid("", format!("invalid JSON: {e}"));
    if lent::parses_directly(bytes) {
        if from.is_some_and(|shape| !shape.dialect().reads_trees()) {
            // A reader of `Value`s alone (canonical, read by serde into the
            // model's types): a small document parsed straight into one
            // costs 6 % less than the tree made into one after.
            return Some(lent::parse(bytes).map_err(invalid).and_then(|parsed| {
                let reading = parsed.reading(bytes);
                let converted = convert::convert_read_out(
                    &parsed.value,
                    from,
                    request.to,
                    request.options.clone(),
                    &reading,
                )?;
                Ok(written(converted, bytes, &reading, pretty))
            }));
        }
        if let Some(parsed) = lent::parse_tree(bytes) {
            let reading = parsed.reading(bytes);
            return Some(convert_tree(
                &parsed.json,
                bytes,
                &reading,
                from,
                request,
                pretty,
            ));
        }
    }
    let scan = lent::scan(bytes);
    if !lent::parses_directly(bytes) && is_rollout(&scan) {
        return None;
    }
    let text = scan.text(bytes);
    Some(match json::parse(text) {
        Ok(tree) => convert_tree(&tree, text, &scan.reading(bytes), from, request, pretty),
        // Replacing base64 inside a string by other string characters keeps
        // a text valid or invalid: the input itself says where it is not.
        Err(error) if text.as_ptr() == bytes.as_ptr() => Err(invalid(error)),
        Err(_) => match json::parse(bytes) {
            Ok(tree) => {
                let reading = Reading::new(Lending::NONE, Spellings::of(bytes));
                convert_tree(&tree, bytes, &reading, from, request, pretty)
            }
            Err(error) => Err(invalid(error)),
        },
    })
}

/// Converts a document's tree read with `reading` (its payloads lent, its
/// numbers' spellings) and writes it, with holes where the payloads go;
/// `text` is what the tree was parsed from.
fn convert_tree(
    tree: &Json<'_>,
    text: &[u8],
    reading: &Reading,
    from: Option<Shape>,
    request: &ConvertRequest,
    pretty: bool,
) -> Result<ConvertedDocument, ConvertError> {
    let converted =
        convert::convert_tree_out(tree, from, request.to, request.options.clone(), reading)?;
    Ok(written(converted, text, reading, pretty))
}

/// A converted value written, with holes where the payloads `reading` lends
/// go; `text` is what the value was parsed from.
fn written(
    converted: convert::ConvertedOut,
    text: &[u8],
    reading: &Reading,
    pretty: bool,
) -> ConvertedDocument {
    // Sized for the text around the payloads: a buffer that doubles as it
    // grows copies (and faults in) what it holds again.
    let mut output = Vec::with_capacity(text.len() + text.len() / 8);
    let lent = render::write_out_lent(&mut output, &converted.out, pretty, reading);
    ConvertedDocument {
        output,
        lent,
        notes: converted.notes,
        source: Some(converted.source),
    }
}

/// A value converted without being written: what [`convert_data`] gives.
#[derive(Debug)]
pub struct ConvertedValue {
    /// The output as its writer built it, with the input's placeholders
    /// where its payloads go.
    pub out: Out,
    pub notes: Vec<String>,
    pub source: Shape,
}

/// Whether [`convert_data`] can take `tree` for this request: a whole
/// document read as a transcript (a rollout and `--at` values are spliced
/// back into their document's text, which data has none of).
pub fn converts_data(tree: &Json<'_>, request: &ConvertRequest) -> bool {
    match request.rollout {
        _ if request.at.is_active() => false,
        RolloutChoice::Always => false,
        RolloutChoice::Recognize => !rollout().holds(tree),
        RolloutChoice::Never => true,
    }
}

/// Converts a document that is data, not text (Python's dicts and lists),
/// built as the borrowed tree a small document's text is parsed into
/// (docs/speed.md, "One tree for small documents"): `tree` with its payloads
/// lent through `lending` ([`lent::Gathered`]). The caller makes sure
/// [`converts_data`] holds; each number is written as the tree spells it.
pub fn convert_data(
    tree: &Json<'_>,
    lending: Lending,
    request: &ConvertRequest,
) -> Result<ConvertedValue, ConvertError> {
    let reading = Reading::lent(lending);
    let converted = convert::convert_tree_out(
        tree,
        request.from,
        request.to,
        request.options.clone(),
        &reading,
    )?;
    Ok(ConvertedValue {
        out: converted.out,
        notes: converted.notes,
        source: converted.source,
    })
}

/// Converts a rollout's conversation (the request's input, then the response's
/// output items, with the request's tools and settings) and puts it in place
/// of `responses_create_params`, every other byte of the line as it was.
fn convert_rollout(
    bytes: &[u8],
    request: &ConvertRequest,
    pretty: bool,
) -> Result<ConvertedDocument, ConvertError> {
    // The line is written back around the conversation: all of it must be
    // JSON (a check that allocates nothing).
    serde_json::from_slice::<serde::de::IgnoredAny>(bytes)
        .map_err(|e| ConvertError::invalid("", format!("invalid JSON: {e}")))?;
    let envelope = rollout();
    let mut conversation = envelope
        .open(bytes)
        .ok_or_else(|| ConvertError::invalid("", envelope.not_one()))?;
    let shared = SharedBytes::new(std::mem::take(&mut conversation.bytes));
    let from = request.from.unwrap_or(envelope.conversation_shape());
    let mut converted = convert_text(&shared, Some(from), request, request.bare && pretty, |_| {
        false
    })
    .unwrap_or_else(|| Err(ConvertError::invalid("", envelope.not_one())))
    .map_err(|e| at_pointer(e, |p| conversation.line_pointer(p)))?;
    let notes = std::mem::take(&mut converted.notes);
    let source = converted.source;
    let out = converted.into_bytes(&shared);
    let output = if request.bare {
        out
    } else {
        splice(bytes, &mut [(conversation.replaces.clone(), out)])
    };
    Ok(ConvertedDocument::filled(output, notes, source))
}

/// A document converted from a file, its payloads still in the file.
#[derive(Debug)]
pub struct FileConverted {
    document: ConvertedDocument,
    file: Arc<File>,
    scan: lent::FileScan,
}

impl FileConverted {
    /// The notes for stderr.
    pub fn notes(&mut self) -> Vec<String> {
        std::mem::take(&mut self.document.notes)
    }

    /// Whether the file is as it was when converted (else convert it again:
    /// its payloads would come from what it holds now).
    pub fn is_current(&self) -> bool {
        self.scan.unchanged(&self.file)
    }

    /// Writes the output, its payloads read from the file (`path` names it
    /// in an error). A file changed since it was converted fails (a
    /// `ReadFault`): its payloads would not be the ones converted, or too
    /// few bytes would be left to read.
    pub fn write_to<W: Write>(&self, out: &mut W, path: &Path) -> io::Result<()> {
        let document = &self.document;
        let written = document
            .lent
            .write_from_file(out, &document.output, &self.file, path);
        match written {
            Err(error) if !ReadFault::is_in(&error) => Err(error),
            _ if !self.is_current() => Err(ReadFault::into_io(
                path,
                io::Error::other("it changed while partkit read it"),
            )),
            written => written,
        }
    }
}

/// Converts a large file's one document with its payloads left in the file
/// ([`Document::open`] scanned it): the transcript was read through one
/// small buffer, and its payloads are read again as the output is written,
/// never held. `None` when that does not apply (a rollout, text that is not
/// JSON): the caller converts the file as any input, which also says what
/// is wrong with it.
pub fn convert_lent_file(
    file: LentFile,
    request: &ConvertRequest,
) -> Result<Option<FileConverted>, ConvertError> {
    if request.rollout == RolloutChoice::Recognize && rollout().holds_text(file.text()) {
        return Ok(None);
    }
    let (file, scan) = file.into_parts();
    let Ok(tree) = json::parse(&scan.shadow) else {
        return Ok(None);
    };
    let reading = Reading::new(
        Lending::new(lent::Source::File(Arc::clone(&file)), scan.payloads.clone()),
        Spellings::of(&scan.shadow),
    );
    let document = convert_tree(
        &tree,
        &scan.shadow,
        &reading,
        request.from,
        request,
        request.pretty,
    )?;
    // The tree borrows the scan's text, which the result takes next.
    drop(tree);
    Ok(Some(FileConverted {
        document,
        file,
        scan,
    }))
}

/// Converts the input at `path` with its payloads left in the file when
/// [`Document::open`] keeps them there: the route every caller takes, so a
/// library caller holds no more of a large file than the command line does.
/// `open` says whether the caller takes the input whole (not as JSON Lines);
/// a request for `--at` values or a rollout does not either. `None` when the
/// route does not apply (stdin, a small file, a rollout, a file that changed
/// while it was read): convert the input as any other, which also says what
/// is wrong with it.
pub fn convert_large(
    path: Option<&Path>,
    open: Open,
    request: &ConvertRequest,
) -> Result<Option<FileConverted>, ConvertError> {
    let whole = open.whole && !request.at.is_active() && request.rollout != RolloutChoice::Always;
    let Document::Lent(file) = Document::open(path, Open { whole, ..open }) else {
        return Ok(None);
    };
    match convert_lent_file(file, request)? {
        Some(converted) if converted.is_current() => Ok(Some(converted)),
        _ => Ok(None),
    }
}

/// The error with its pointer moved into the enclosing document.
fn at_pointer(error: ConvertError, map: impl Fn(&str) -> String) -> ConvertError {
    error.map_pointer(map)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn convert_text(text: &str, request: &ConvertRequest) -> ConvertedDocument {
        convert_document(&SharedBytes::new(text.as_bytes().to_vec()), request).unwrap()
    }

    #[test]
    fn a_converted_document_names_the_shape_it_was_read_as() {
        let request = ConvertRequest {
            to: Shape::Gemini,
            ..ConvertRequest::default()
        };
        let chat =
            r#"{"messages": [{"role": "user", "content": [{"type": "text", "text": "Hi"}]}]}"#;
        assert_eq!(convert_text(chat, &request).source, Some(Shape::OpenaiChat));
        let anthropic = r#"{"max_tokens": 5, "messages": [{"role": "user", "content": [{"type": "text", "text": "Hi"}]}]}"#;
        let told = ConvertRequest {
            from: Some(Shape::Anthropic),
            ..request.clone()
        };
        assert_eq!(
            convert_text(anthropic, &told).source,
            Some(Shape::Anthropic)
        );
        let rollout = r#"{"responses_create_params": {"input": [{"role": "user", "content": "Hi"}]}, "reward": 1}"#;
        assert_eq!(
            convert_text(rollout, &request).source,
            Some(crate::shapes::rollout().conversation_shape())
        );
    }
}
