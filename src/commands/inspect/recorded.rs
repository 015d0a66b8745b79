//! `partkit inspect` of a recording, and `inspect --events`
//! (docs/commands/inspect.md, "Recordings"): the input is probed by content
//! ([`crate::recorded::probe`]); a recording is listed per interaction, and
//! any other input goes on to the document route unchanged — except under
//! `--events`, where a file that is no recording is read as one stream body.

use std::io::{Read, Write};
use std::path::Path;

use crate::cli::{InspectArgs, ItemFormat};
use crate::error::{Error, ExitStatus, Result};
use crate::inspect::recording::{self, Exchange};
use crate::inspect::{events, table_located, Item};
use crate::io::Input;
use crate::output::{stdout_error, Printer};
use crate::recorded::{self, Content, Side};
use crate::recording::{BodyKind, Recording};
use crate::split::ImageWriter;

use super::extract_items;

/// The status of a run over a recording (or of `--events`); `None` when
/// the input is a document for the usual route. `documents_only` (`--jsonl`,
/// `--at`) skips the probe: the input is read as documents, as asked.
pub fn run(
    args: &InspectArgs,
    documents_only: bool,
    max_document: u64,
    printer: &Printer,
) -> Result<Option<ExitStatus>> {
    let input = args
        .input
        .clone()
        .map(Input::from_arg)
        .unwrap_or(Input::Stdin);
    // A file named as a recording that holds other data is, named on the
    // command line, an input inspect cannot read (exit 1).
    let recording = match &input {
        Input::Path(path) if !documents_only => recorded::open(path, max_document)?,
        _ => None,
    };
    match recording {
        None if args.events => one_stream(args, &input, max_document, printer).map(Some),
        None => Ok(None),
        Some(recording) if args.events => {
            streams(args, &recording, &input.label(), printer).map(Some)
        }
        Some(recording) => interactions(args, &recording, &input.label(), printer).map(Some),
    }
}

/// Every interaction of `recording`, as blocks and a media table, or as
/// JSON Lines; the media written out with `--extract`.
fn interactions(
    args: &InspectArgs,
    recording: &Recording,
    label: &str,
    printer: &Printer,
) -> Result<ExitStatus> {
    let mut exchanges = recording::list(recording, args.extract.is_some());
    if let Some(dir) = &args.extract {
        extract(&mut exchanges, dir, args.force)?;
    }
    let mut out = printer.stdout();
    let mut listed = 0;
    let mut text = String::new();
    let (mut items, mut places, mut files) = (Vec::new(), Vec::new(), Vec::new());
    for exchange in &mut exchanges {
        if args.format == ItemFormat::Json {
            let mut line = exchange.to_json(args.tokens).to_string();
            line.push('\n');
            out.write_all(line.as_bytes()).map_err(stdout_error)?;
        } else {
            text.push_str(&crate::render::sanitize(&exchange.heading()));
            text.push('\n');
        }
        let number = exchange.number;
        for listed_body in [&mut exchange.request, &mut exchange.response]
            .into_iter()
            .flatten()
        {
            listed += listed_body.media.len();
            if args.format == ItemFormat::Text {
                text.push_str(&listed_body.text(args.headers));
                let side = listed_body.side.name();
                places.extend(listed_body.media.iter().map(|_| format!("{number} {side}")));
                items.append(&mut listed_body.media);
                files.append(&mut listed_body.files);
            }
        }
    }
    if args.format == ItemFormat::Text {
        if !items.is_empty() {
            text.push('\n');
            text.push_str(&table_located(&items, &places, &files, args.tokens));
        }
        out.write_all(text.as_bytes()).map_err(stdout_error)?;
    }
    out.flush().map_err(stdout_error)?;
    printer.note(&format!(
        "{label}: {}, {} interaction{}, {} media item{} listed",
        recording.format.name(),
        exchanges.len(),
        recording::plural(exchanges.len()),
        crate::size::group_digits(listed as u64),
        recording::plural(listed),
    ));
    Ok(ExitStatus::Success)
}

/// Writes out every body's media, in the file's order, and records where.
fn extract(exchanges: &mut [Exchange], dir: &Path, force: bool) -> Result<()> {
    let mut writer = ImageWriter::new(dir, force, false)?;
    let bodies = || {
        exchanges
            .iter()
            .flat_map(|e| [e.request.as_ref(), e.response.as_ref()])
            .flatten()
    };
    let all: Vec<Item> = bodies().flat_map(|b| b.media.iter().cloned()).collect();
    let mut paths = extract_items(&mut writer, &all, false)?.into_iter();
    for body in exchanges
        .iter_mut()
        .flat_map(|e| [e.request.as_mut(), e.response.as_mut()])
        .flatten()
    {
        body.files = paths.by_ref().take(body.media.len()).collect();
    }
    Ok(())
}

/// `--events` of a recording: each streamed response's events.
fn streams(
    args: &InspectArgs,
    recording: &Recording,
    label: &str,
    printer: &Printer,
) -> Result<ExitStatus> {
    let mut out = printer.stdout();
    let mut count = 0;
    for body in recorded::bodies(recording) {
        let streamed = matches!(body.content, Content::Stream { .. })
            || matches!(
                body.body.kind,
                BodyKind::EventStream | BodyKind::AwsEventStream | BodyKind::JsonLines
            );
        if body.place.side != Side::Response || !streamed {
            continue;
        }
        count += 1;
        let listing = events::list(&body.body.bytes);
        let place = body.place.describe();
        let text = match args.format {
            ItemFormat::Json => {
                let value = listing.to_json(serde_json::json!({
                    "interaction": body.place.interaction,
                    "side": body.place.side.name(),
                    "line": body.line,
                }));
                format!("{value}\n")
            }
            ItemFormat::Text => format!(
                "{place} (line {}): {}\n{}",
                body.line,
                framing_of(&listing),
                listing.text()
            ),
        };
        out.write_all(text.as_bytes()).map_err(stdout_error)?;
    }
    out.flush().map_err(stdout_error)?;
    printer.note(&format!(
        "{label}: {}, {count} streamed response{}",
        recording.format.name(),
        recording::plural(count)
    ));
    Ok(ExitStatus::Success)
}

/// `--events` of an input that is no recording: the whole of it, one
/// stream body.
fn one_stream(
    args: &InspectArgs,
    input: &Input,
    max_document: u64,
    printer: &Printer,
) -> Result<ExitStatus> {
    let mut bytes = Vec::new();
    let read = match input {
        Input::Stdin => std::io::stdin()
            .lock()
            .take(max_document + 1)
            .read_to_end(&mut bytes),
        Input::Path(path) => std::fs::File::open(path)
            .and_then(|file| file.take(max_document + 1).read_to_end(&mut bytes)),
    };
    read.map_err(|source| Error::Read {
        path: input.error_path(),
        source,
    })?;
    if bytes.len() as u64 > max_document {
        return Err(Error::TooLarge {
            path: input.error_path(),
            line: None,
            limit: max_document,
        });
    }
    let listing = events::list(&bytes);
    let label = input.label();
    let text = match args.format {
        ItemFormat::Json => format!("{}\n", listing.to_json(serde_json::json!({"input": label}))),
        ItemFormat::Text => format!(
            "{}: {}\n{}",
            crate::render::sanitize(&label),
            framing_of(&listing),
            listing.text()
        ),
    };
    let mut out = printer.stdout();
    out.write_all(text.as_bytes()).map_err(stdout_error)?;
    out.flush().map_err(stdout_error)?;
    Ok(ExitStatus::Success)
}

/// `server-sent events, 12 events`, or `no events` for a body that does
/// not cut into any.
fn framing_of(listing: &events::StreamListing) -> String {
    match listing.framing {
        Some(framing) => format!(
            "{framing}, {} event{}",
            listing.rows.len(),
            recording::plural(listing.rows.len())
        ),
        None => "no events".to_string(),
    }
}
