//! `partkit inspect`: the command line's arguments into [`crate::inspect`]'s
//! call, the media items printed as a table or JSON Lines, their bytes written
//! out with `--extract`.

use crate::accounting::Flow;
use crate::cli::{InspectArgs, ItemFormat};
use crate::error::{ExitStatus, Result};
use crate::inspect::{inspect_at, table, Item};
use crate::output::Printer;
use crate::split::{ExtractedImage, ImageWriter};

use super::lines::{no_null, Driver};
use super::{at_of, on_error_of, set_threads};

pub fn run(args: InspectArgs, printer: &Printer) -> Result<ExitStatus> {
    let at = at_of(&args.pipeline.at)?;
    let policy = no_null(on_error_of(&args.pipeline.on_error), "inspect")?;
    set_threads(&args.pipeline.threads);
    let Some(mut driver) = Driver::open(args.input, args.jsonl, policy, true, printer)? else {
        return Ok(ExitStatus::Success);
    };
    let json_lines = driver.is_json_lines();
    let mut writer = match &args.extract {
        Some(dir) => Some(ImageWriter::new(dir, args.force, json_lines)?),
        None => None,
    };
    let extract = writer.is_some();
    // The text table is aligned over every item, so it is printed at the end.
    let mut items: Vec<Item> = Vec::new();
    let mut files: Vec<Option<String>> = Vec::new();
    let mut listed = 0usize;
    driver.each(
        |line, bytes| inspect_at(bytes, line, extract, &at),
        |run, line, _, result| {
            let found = match result {
                Ok(found) => found,
                Err(error) => return run.fail(line, &error),
            };
            run.tally.read_only();
            listed += found.len();
            let paths = match writer.as_mut() {
                Some(writer) => extract_items(writer, &found, json_lines)?,
                None => vec![None; found.len()],
            };
            match args.format {
                ItemFormat::Json => {
                    for (item, path) in found.iter().zip(&paths) {
                        let mut line = item.to_json(path.as_deref()).to_string();
                        line.push('\n');
                        run.write_raw(line.as_bytes())?;
                    }
                }
                ItemFormat::Text => {
                    items.extend(found);
                    files.extend(paths);
                }
            }
            Ok(Flow::Continue)
        },
    )?;
    if args.format == ItemFormat::Text {
        if items.is_empty() {
            if driver.run.tally.failed == 0 {
                printer.note(&format!("{}: no media found", driver.run.label));
            }
        } else {
            driver
                .run
                .write_raw(table(&items, json_lines, &files).as_bytes())?;
        }
    }
    let listed = format!(
        "{} media item{} listed",
        crate::size::group_digits(listed as u64),
        if listed == 1 { "" } else { "s" }
    );
    driver.finish(Some(&listed))
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
