//! `partkit inspect`: the command line's arguments into [`crate::inspect`]'s
//! call, the media items printed as a table or JSON Lines, their bytes written
//! out with `--extract`. A recording (and `--events`) goes to [`recorded`].

mod recorded;

use crate::accounting::{Flow, OnError};
use crate::cli::{InspectArgs, ItemFormat};
use crate::document::Open;
use crate::error::{ExitStatus, Result};
use crate::inspect::{inspect_at, inspect_large, table, Item};
use crate::io::Input;
use crate::output::Printer;
use crate::split::{ExtractedImage, ImageWriter};

use super::lines::{no_null, Driver, Lines};
use super::{at_of, on_error_of, set_threads};

pub fn run(args: InspectArgs, max_document: u64, printer: &Printer) -> Result<ExitStatus> {
    let at = at_of(&args.pipeline.at)?;
    let policy = no_null(on_error_of(&args.pipeline.on_error), "inspect")?;
    set_threads(&args.pipeline.threads);
    if let Some(status) = recorded::run(&args, args.jsonl || at.is_active(), max_document, printer)?
    {
        return Ok(status);
    }
    let open = Open {
        whole: !args.jsonl && !at.is_active(),
        max_document,
    };
    if let Some(status) = inspect_large_file(&args, open, policy, printer)? {
        return Ok(status);
    }
    let Some(mut driver) = Driver::open(
        args.input.clone(),
        args.jsonl,
        max_document,
        policy,
        true,
        printer,
    )?
    else {
        return Ok(ExitStatus::Success);
    };
    let mut listing = Listing::new(&args, driver.is_json_lines())?;
    let extract = listing.writer.is_some();
    driver.each_numbered(
        |line, bytes| inspect_at(bytes, line, extract, &at),
        |run, line, _, result| listing.document(run, line, result),
    )?;
    listing.finish(driver.run)
}

/// Inspects a large regular file's one document with its payloads left in
/// the file ([`inspect_large`] decides); `None` when that does not apply.
fn inspect_large_file(
    args: &InspectArgs,
    open: Open,
    policy: OnError,
    printer: &Printer,
) -> Result<Option<ExitStatus>> {
    let (Some(path), Some(items)) = (
        args.input.as_deref(),
        inspect_large(args.input.as_deref(), open, args.extract.is_some()),
    ) else {
        return Ok(None);
    };
    let mut run = Lines::named(Input::from_arg(path).label(), false, policy, true, printer);
    let mut listing = Listing::new(args, false)?;
    listing.document(&mut run, 1, Ok(items))?;
    listing.finish(run).map(Some)
}

/// What a run has listed: items in a table (printed at the end, aligned
/// over all of them) or as JSON Lines (printed as they come), and the files
/// `--extract` wrote.
struct Listing<'a> {
    args: &'a InspectArgs,
    json_lines: bool,
    writer: Option<ImageWriter>,
    items: Vec<Item>,
    files: Vec<Option<String>>,
    listed: usize,
}

impl<'a> Listing<'a> {
    fn new(args: &'a InspectArgs, json_lines: bool) -> Result<Listing<'a>> {
        let writer = match &args.extract {
            Some(dir) => Some(ImageWriter::new(dir, args.force, json_lines)?),
            None => None,
        };
        Ok(Listing {
            args,
            json_lines,
            writer,
            items: Vec::new(),
            files: Vec::new(),
            listed: 0,
        })
    }

    /// One document's items (or why it has none).
    fn document(
        &mut self,
        run: &mut Lines<'_>,
        line: usize,
        result: std::result::Result<Vec<Item>, String>,
    ) -> Result<Flow> {
        let found = match result {
            Ok(found) => found,
            Err(error) => return run.fail(line, &error),
        };
        run.tally.read_only();
        self.listed += found.len();
        let paths = match self.writer.as_mut() {
            Some(writer) => extract_items(writer, &found, self.json_lines)?,
            None => vec![None; found.len()],
        };
        match self.args.format {
            ItemFormat::Json => {
                for (item, path) in found.iter().zip(&paths) {
                    let mut line = if self.args.tokens {
                        item.to_json_with_tokens(path.as_deref())
                    } else {
                        item.to_json(path.as_deref())
                    }
                    .to_string();
                    line.push('\n');
                    run.write_raw(line.as_bytes())?;
                }
            }
            ItemFormat::Text => {
                self.items.extend(found);
                self.files.extend(paths);
            }
        }
        Ok(Flow::Continue)
    }

    /// The table, and the end of the run.
    fn finish(self, mut run: Lines<'_>) -> Result<ExitStatus> {
        if self.args.format == ItemFormat::Text {
            if self.items.is_empty() {
                if run.tally.failed == 0 {
                    run.note(&format!("{}: no media found", run.label));
                }
            } else {
                run.write_raw(
                    table(&self.items, self.json_lines, &self.files, self.args.tokens).as_bytes(),
                )?;
            }
        }
        let listed = format!(
            "{} media item{} listed",
            crate::size::group_digits(self.listed as u64),
            if self.listed == 1 { "" } else { "s" }
        );
        run.finish(Some(&listed))
    }
}

/// Writes out the bytes of one document's items that have any; each item's
/// file, in item order.
fn extract_items(
    writer: &mut ImageWriter,
    found: &[Item],
    json_lines: bool,
) -> Result<Vec<Option<String>>> {
    let mut paths: Vec<Option<String>> = vec![None; found.len()];
    let extracted: Vec<(usize, ExtractedImage)> = found
        .iter()
        .enumerate()
        .filter_map(|(i, item)| {
            item.extracted
                .clone()
                .filter(|e| e.bytes.is_some())
                .map(|e| (i, e))
        })
        .collect();
    let images: Vec<ExtractedImage> = extracted.iter().map(|(_, e)| e.clone()).collect();
    if !json_lines {
        writer.check_free(&images)?;
    }
    for ((i, _), path) in extracted.iter().zip(writer.write(&images)?) {
        paths[*i] = Some(path.display().to_string());
    }
    Ok(paths)
}
