//! A tool reply into text plus images (docs/commands/split.md), with NeMo Gym's
//! `split_tool_output_images` semantics: the operation behind `partkit split`
//! ([`split_document`] for one document), and the [`ImageWriter`] that names
//! and writes the images out (`split --images-dir`, `inspect --extract`).

pub mod recorded;

use std::borrow::Cow;
use std::fs;
use std::path::{Path, PathBuf};

use crate::b64;
use crate::error::{Error, Result};
use crate::json;
use crate::media;
use crate::render;
use crate::shapes::{image_reply, EntryProblem, Shape};

/// What `split` prints for each reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SplitOutput {
    /// Canonical parts: the rest as a text part, then per image its label (when
    /// non-empty) and the image.
    Parts,
    /// Only the rest of the reply (`--rest`).
    Rest,
    /// One tool result of a provider shape (`--to SHAPE --call-id ID`).
    ToolResult {
        shape: Shape,
        call_id: String,
        name: Option<String>,
    },
}

/// Everything `split` needs to know about one reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitOptions {
    pub output: SplitOutput,
    /// Keep the decoded image bytes (for `--images-dir`).
    pub keep_bytes: bool,
    /// Pretty-print the output.
    pub pretty: bool,
    /// Split the replies at these pointers instead of the whole document, each
    /// replaced by its output in the document.
    pub at: crate::subdoc::At,
}

/// Why one reply could not be split.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReplyError {
    /// The document is not JSON.
    Syntax(String),
    /// The image list is malformed.
    Images(EntryProblem),
    /// The target shape cannot deliver this result.
    Unsupported(String),
    /// The document has no value at an `--at` pointer.
    Missing(String),
    /// A reply at an `--at` pointer could not be split.
    At(String, Box<ReplyError>),
}

impl std::fmt::Display for ReplyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReplyError::Syntax(why) => write!(f, "invalid JSON: {why}"),
            ReplyError::Images(problem) => problem.fmt(f),
            ReplyError::Unsupported(why) => f.write_str(why),
            ReplyError::Missing(pointer) => write!(f, "{pointer}: {}", crate::subdoc::MISSING),
            ReplyError::At(pointer, inner) => write!(f, "{pointer}: {inner}"),
        }
    }
}

/// An image taken out of a reply, owning what it needs to be written out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExtractedImage {
    pub media_type: String,
    pub label: Option<String>,
    /// The decoded bytes (with `keep_bytes`).
    pub bytes: Option<Vec<u8>>,
}

/// The result of splitting one document: the text to print and the images.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitDocument {
    /// The serialized output (without a trailing line break).
    pub output: Vec<u8>,
    /// The images, in entry order.
    pub images: Vec<ExtractedImage>,
    /// Notes for stderr (such as a call id MCP cannot carry).
    pub notes: Vec<String>,
}

/// Splits one JSON document (or the replies at its `--at` pointers) and
/// serializes the requested output.
pub fn split_document(bytes: &[u8], options: &SplitOptions) -> Result<SplitDocument, ReplyError> {
    if !options.at.is_active() {
        return split_one(bytes, options);
    }
    let located = options.at.locate(bytes).map_err(|error| match error {
        crate::subdoc::LocateError::InvalidJson(why) => ReplyError::Syntax(why),
        crate::subdoc::LocateError::Missing(pointer) => ReplyError::Missing(pointer),
    })?;
    let inner = SplitOptions {
        pretty: false,
        ..options.clone()
    };
    let mut document = SplitDocument {
        output: Vec::new(),
        images: Vec::new(),
        notes: Vec::new(),
    };
    let mut replacements = Vec::with_capacity(located.len());
    for value in located {
        let split = split_one(&bytes[value.range.clone()], &inner)
            .map_err(|e| ReplyError::At(value.pointer.clone(), Box::new(e)))?;
        document.images.extend(split.images);
        for note in split.notes {
            if !document.notes.contains(&note) {
                document.notes.push(note);
            }
        }
        replacements.push((value.range, split.output));
    }
    document.output = crate::subdoc::splice(bytes, &mut replacements);
    Ok(document)
}

/// A reply taken apart as NeMo Gym's `split_tool_output_images` does: the
/// rest (compact JSON) and each image's payload, for a library caller that
/// wants the images as data rather than as files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Apart {
    pub rest: Vec<u8>,
    pub images: Vec<ApartImage>,
}

/// One image of an [`Apart`] reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApartImage {
    /// The normalized media type (checked against the bytes).
    pub media_type: String,
    /// The base64 payload, as the reply spells it.
    pub data: String,
    pub label: Option<String>,
}

/// Splits one reply into its rest and its images ([`Apart`]).
pub fn split_apart(bytes: &[u8]) -> Result<Apart, ReplyError> {
    let reply = json::parse(bytes).map_err(|e| ReplyError::Syntax(e.to_string()))?;
    let split = image_reply()
        .split(reply, false)
        .map_err(ReplyError::Images)?;
    let mut rest = Vec::with_capacity(bytes.len().min(1 << 20));
    write_tree(&mut rest, &split.rest, false).expect("writing JSON into memory cannot fail");
    let images = split
        .images
        .into_iter()
        .map(|image| ApartImage {
            media_type: image.media_type,
            data: image.payload.into_owned(),
            label: image.label.map(Cow::into_owned),
        })
        .collect();
    Ok(Apart { rest, images })
}

/// Splits one reply.
fn split_one(bytes: &[u8], options: &SplitOptions) -> Result<SplitDocument, ReplyError> {
    let reply = json::parse(bytes).map_err(|e| ReplyError::Syntax(e.to_string()))?;
    let split = image_reply()
        .split(reply, options.keep_bytes)
        .map_err(ReplyError::Images)?;
    let mut notes = Vec::new();
    // The output is about as long as the input (the payloads again).
    let mut out = Vec::with_capacity(bytes.len() + 1024);
    let written = match &options.output {
        SplitOutput::Rest => write_tree(&mut out, &split.rest, options.pretty),
        SplitOutput::Parts => write_tree(
            &mut out,
            &image_reply().canonical_parts(&split),
            options.pretty,
        ),
        SplitOutput::ToolResult {
            shape,
            call_id,
            name,
        } => {
            let result = crate::transcript::ToolResult {
                call_id: Some(call_id.clone()),
                name: name.clone(),
                is_error: false,
                content: crate::transcript::parts_from_json(&image_reply().canonical_parts(&split))
                    .map(|parts| {
                        parts
                            .into_iter()
                            .map(crate::transcript::Block::part)
                            .collect()
                    })
                    .map_err(|e| ReplyError::Unsupported(e.to_string()))?,
                extensions: Default::default(),
            };
            let delivered = crate::convert::tool_result::write_tool_result(*shape, &result)
                .map_err(|e| ReplyError::Unsupported(e.to_string()))?;
            notes.extend(delivered.notes);
            render::write_json(&mut out, &delivered.value, options.pretty)
        }
    };
    written.expect("writing JSON into memory cannot fail");
    let images = split
        .images
        .into_iter()
        .map(|image| ExtractedImage {
            media_type: image.media_type,
            label: image.label.map(Cow::into_owned),
            bytes: image.bytes,
        })
        .collect();
    Ok(SplitDocument {
        output: out,
        images,
        notes,
    })
}

/// Writes a tree as [`render::write_json`] does; compact output through the
/// fast writer ([`json::write_compact`]), which copies payloads as they are.
fn write_tree(out: &mut Vec<u8>, value: &json::Json<'_>, pretty: bool) -> std::io::Result<()> {
    if pretty {
        render::write_json(out, value, true)
    } else {
        json::write_compact(out, value).map_err(std::io::Error::from)
    }
}

/// The file name of the `number`th image (from 1): `NNN.<ext>` or
/// `NNN-<label-slug>.<ext>`.
pub fn image_file_name(number: usize, label: Option<&str>, media_type: &str) -> String {
    let ext = media::extension_for(media_type).unwrap_or("bin");
    match label.map(slug).filter(|s| !s.is_empty()) {
        Some(slug) => format!("{number:03}-{slug}.{ext}"),
        None => format!("{number:03}.{ext}"),
    }
}

/// A label made safe for a file name: every run of characters other than ASCII
/// letters, digits, `-` and `_` becomes one `-`, leading and trailing `-` are
/// removed, and the result is cut to 60 characters.
pub fn slug(label: &str) -> String {
    let mut out = String::with_capacity(label.len());
    for c in label.chars() {
        if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').chars().take(60).collect()
}

/// Whether a file name looks like one `split --images-dir` (or `inspect
/// --extract`) writes: `NNN.<ext>` or `NNN-<slug>.<ext>`.
pub fn is_split_image_name(name: &str) -> bool {
    let Some((stem, ext)) = name.rsplit_once('.') else {
        return false;
    };
    let digits = stem.bytes().take_while(u8::is_ascii_digit).count();
    !ext.is_empty()
        && ext.len() <= 8
        && ext
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        && digits >= 3
        && (stem.len() == digits || stem.as_bytes()[digits] == b'-')
}

/// Writes images into a folder, numbering them across a whole run.
#[derive(Debug)]
pub struct ImageWriter {
    dir: PathBuf,
    force: bool,
    next: usize,
}

impl ImageWriter {
    /// Prepares `dir` (creating it). Without `force`, a folder that already holds
    /// files of split's naming pattern is refused when `conservative` is set
    /// (JSON Lines, whose names are not known in advance).
    pub fn new(dir: &Path, force: bool, conservative: bool) -> Result<ImageWriter> {
        fs::create_dir_all(dir).map_err(|source| Error::Write {
            path: dir.to_path_buf(),
            source,
        })?;
        if conservative && !force {
            let entries = fs::read_dir(dir).map_err(|source| Error::Read {
                path: dir.to_path_buf(),
                source,
            })?;
            for entry in entries.flatten() {
                let name = entry.file_name();
                if is_split_image_name(&name.to_string_lossy()) {
                    return Err(Error::usage(format!(
                        "{} already holds {}; pass --force to overwrite images",
                        dir.display(),
                        name.to_string_lossy()
                    )));
                }
            }
        }
        Ok(ImageWriter {
            dir: dir.to_path_buf(),
            force,
            next: 1,
        })
    }

    /// The paths the next images would get.
    pub fn planned(&self, images: &[ExtractedImage]) -> Vec<PathBuf> {
        images
            .iter()
            .enumerate()
            .map(|(i, image)| {
                self.dir.join(image_file_name(
                    self.next + i,
                    image.label.as_deref(),
                    &image.media_type,
                ))
            })
            .collect()
    }

    /// Refuses (exit 2) when one of the planned files exists and `--force` is not given.
    pub fn check_free(&self, images: &[ExtractedImage]) -> Result<()> {
        if self.force {
            return Ok(());
        }
        if let Some(existing) = self.planned(images).into_iter().find(|p| p.exists()) {
            return Err(Error::usage(format!(
                "{} exists; pass --force to overwrite",
                existing.display()
            )));
        }
        Ok(())
    }

    /// Writes the images of one reply, returning their paths.
    pub fn write(&mut self, images: &[ExtractedImage]) -> Result<Vec<PathBuf>> {
        let paths = self.planned(images);
        for (path, image) in paths.iter().zip(images) {
            let bytes = image.bytes.as_deref().unwrap_or_default();
            // Whole or not at all (a full disk leaves no partial image to
            // refuse the next run), and without --force never over a file.
            if self.force {
                crate::io::write_in_folder(path, bytes)?;
            } else {
                crate::io::write_new(path, bytes)?;
            }
        }
        self.next += images.len();
        Ok(paths)
    }
}

/// The payload preview used in messages.
pub fn preview(payload: &str) -> String {
    b64::preview(payload)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_follow_the_spec() {
        assert_eq!(slug("Sales by month"), "Sales-by-month");
        assert_eq!(slug("../../etc/passwd"), "etc-passwd");
        assert_eq!(slug("a\0b"), "a-b");
        assert_eq!(slug("---"), "");
        assert_eq!(slug("été_2024"), "t-_2024");
        assert_eq!(slug(&"x".repeat(300)).len(), 60);
    }

    #[test]
    fn file_names() {
        assert_eq!(image_file_name(1, None, "image/png"), "001.png");
        assert_eq!(
            image_file_name(12, Some("A chart!"), "image/jpeg"),
            "012-A-chart.jpg"
        );
        assert_eq!(image_file_name(3, Some("///"), "image/webp"), "003.webp");
        assert_eq!(image_file_name(1000, None, "image/gif"), "1000.gif");
        assert!(is_split_image_name("001.png"));
        assert!(is_split_image_name("012-A-chart.jpg"));
        assert!(!is_split_image_name("01.png"));
        assert!(!is_split_image_name("001x.png"));
        assert!(is_split_image_name("003.pdf"));
        assert!(!is_split_image_name("001.TXT"));
        assert!(!is_split_image_name("notes.txt"));
    }

    #[test]
    fn apart_gives_the_rest_and_each_image_s_payload() {
        let gif = "R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==";
        let reply = format!(
            r#"{{"result": 1.50, "tool_output_images": [{{"image_url": "data:image/gif;base64,{gif}", "label": "dot"}}]}}"#
        );
        let apart = split_apart(reply.as_bytes()).unwrap();
        assert_eq!(apart.rest, br#"{"result":1.50}"#);
        assert_eq!(
            apart.images,
            vec![ApartImage {
                media_type: "image/gif".into(),
                data: gif.into(),
                label: Some("dot".into()),
            }]
        );
        // NeMo Gym's rules: not an object, or no key, comes back as it was.
        let plain = split_apart(b"[1, 2]").unwrap();
        assert_eq!(
            (plain.rest.as_slice(), plain.images.len()),
            (&b"[1,2]"[..], 0)
        );
        let none = split_apart(br#"{"a": 1, "tool_output_images": null}"#).unwrap();
        assert_eq!(
            (none.rest.as_slice(), none.images.len()),
            (&br#"{"a":1}"#[..], 0)
        );
        assert!(matches!(
            split_apart(br#"{"tool_output_images": [{"label": "x"}]}"#),
            Err(ReplyError::Images(_))
        ));
        assert!(matches!(split_apart(b"{"), Err(ReplyError::Syntax(_))));
    }
}
