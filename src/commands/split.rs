//! `partkit split`: the command line's arguments into [`crate::split`]'s
//! options, each document's result printed, its images written out.

use crate::cli::SplitArgs;
use crate::error::{Error, ExitStatus, Result};
use crate::output::Printer;
use crate::shapes::Registered;
use crate::split::{split_document, ImageWriter, SplitOptions, SplitOutput};

use super::lines::Driver;
use super::{at_of, on_error_of, set_threads};

pub fn run(args: SplitArgs, max_document: u64, printer: &Printer) -> Result<ExitStatus> {
    if let (Some(shape), None) = (args.to, &args.name) {
        if let Some(why) = shape.dialect().tool_result_needs_name() {
            return Err(Error::usage(format!("--to {shape} needs --name: {why}")));
        }
    }
    let at = at_of(&args.pipeline.at)?;
    set_threads(&args.pipeline.threads);
    let policy = on_error_of(&args.pipeline.on_error);
    let Some(mut driver) =
        Driver::open(args.input, args.jsonl, max_document, policy, true, printer)?
    else {
        return Ok(ExitStatus::Success);
    };
    let json_lines = driver.is_json_lines();
    let output = match (args.rest, args.to) {
        (true, _) => SplitOutput::Rest,
        (false, Some(shape)) => SplitOutput::ToolResult {
            shape,
            call_id: args.call_id.unwrap_or_default(),
            name: args.name,
        },
        (false, None) => SplitOutput::Parts,
    };
    let options = SplitOptions {
        output,
        keep_bytes: args.images_dir.is_some(),
        pretty: printer.is_pretty(),
        at,
    };
    let mut writer = match &args.images_dir {
        Some(dir) => Some(ImageWriter::new(dir, args.force, json_lines)?),
        None => None,
    };
    let mut notes: Vec<String> = Vec::new();
    driver.each(
        |_, bytes| split_document(bytes, &options),
        |run, line, _, result| match result {
            Ok(document) => {
                if let Some(writer) = writer.as_mut() {
                    // One document's names are known before any is written:
                    // refuse them all rather than leave half its images.
                    if !json_lines {
                        writer.check_free(&document.images)?;
                    }
                    writer.write(&document.images)?;
                }
                run.warn(line, document.notes, &mut notes);
                run.write(&document.output)
            }
            Err(error) => run.fail(line, &error.to_string()),
        },
    )?;
    driver.finish(None)
}
