//! `partkit split`: the command line's arguments into [`crate::split`]'s
//! options, each document's result printed, its images written out.

use crate::accounting::{Flow, OnError};
use crate::cli::SplitArgs;
use crate::error::{Error, ExitStatus, Result};
use crate::io::Input;
use crate::output::Printer;
use crate::recording::Recording;
use crate::shapes::Registered;
use crate::split::recorded::{split_recording as split_bodies, SplitOutcome};
use crate::split::{split_document, ImageWriter, SplitOptions, SplitOutput};

use super::lines::Driver;
use super::recorded::BodyRun;
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
    let recording =
        crate::recorded::open_input(args.input.as_deref(), max_document)?.zip(args.input.clone());
    let driver = match &recording {
        Some(_) => None,
        None => match Driver::open(
            args.input.clone(),
            args.jsonl,
            max_document,
            policy,
            true,
            printer,
        )? {
            Some(driver) => Some(driver),
            None => return Ok(ExitStatus::Success),
        },
    };
    // A recording's bodies are many documents, as JSON Lines' lines are.
    let json_lines = driver.as_ref().is_none_or(|d| d.is_json_lines());
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
    if let Some((recording, path)) = &recording {
        return split_recording(recording, path, &options, writer.as_mut(), policy, printer);
    }
    let Some(mut driver) = driver else {
        return Ok(ExitStatus::Success);
    };
    let mut notes: Vec<String> = Vec::new();
    driver.each(
        |bytes| split_document(bytes, &options),
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

/// Splits the tool replies among a recording's bodies, one output line each
/// ([`crate::split::recorded`]).
fn split_recording(
    recording: &Recording,
    path: &std::path::Path,
    options: &SplitOptions,
    mut writer: Option<&mut ImageWriter>,
    policy: OnError,
    printer: &Printer,
) -> Result<ExitStatus> {
    let mut run = BodyRun::new(Input::from_arg(path).label(), policy, printer);
    for (body, outcome) in split_bodies(recording, options) {
        let flow = match outcome {
            SplitOutcome::Split(document) => {
                if let Some(writer) = writer.as_mut() {
                    writer.write(&document.images)?;
                }
                run.warn(&body, &document.notes);
                run.write_with(|out| std::io::Write::write_all(out, &document.output))?
            }
            SplitOutcome::Passed(why) => {
                run.passed(&body, &why);
                Flow::Continue
            }
            SplitOutcome::Failed(message) => run.fail(&body, &message)?,
        };
        if flow == Flow::Stop {
            break;
        }
    }
    run.finish()
}
