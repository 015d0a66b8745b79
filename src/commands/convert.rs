//! `partkit convert`: the command line's arguments into a
//! [`ConvertRequest`], each document's result printed.

use crate::cli::{ConvertArgs, ConvertKindArg, InvalidArgumentsArg, ToolMediaArg, UnsupportedArg};
use std::path::Path;

use crate::accounting::OnError;
use crate::convert::document::{convert_document, convert_large, ConvertRequest, RolloutChoice};
use crate::convert::recorded::{convert_recording as convert_bodies, BodyOutcome};
use crate::convert::{ConvertOptions, OnInvalidArguments, OnUnsupported, ToolMedia};
use crate::document::Open;
use crate::error::{Error, ExitStatus, Result};
use crate::io::Input;
use crate::output::Printer;
use crate::recording::Recording;

use super::lines::{Driver, Lines};
use super::recorded::BodyRun;
use super::{at_of, on_error_of, set_threads};

pub fn run(args: ConvertArgs, max_document: u64, printer: &Printer) -> Result<ExitStatus> {
    let at = at_of(&args.pipeline.at)?;
    if args.bare && at.pointers().len() > 1 {
        return Err(Error::usage(
            "--bare prints one converted value per document: give one --at pointer",
        ));
    }
    set_threads(&args.pipeline.threads);
    let policy = on_error_of(&args.pipeline.on_error);
    let input = args.input;
    let request = ConvertRequest {
        from: args.from.shape(),
        to: args.to,
        options: ConvertOptions {
            on_unsupported: args.on_unsupported.map(|p| match p {
                UnsupportedArg::Error => OnUnsupported::Error,
                UnsupportedArg::Text => OnUnsupported::Text,
            }),
            tool_media: match args.tool_media {
                ToolMediaArg::Native => ToolMedia::Native,
                ToolMediaArg::Lift => ToolMedia::Lift,
            },
            on_invalid_arguments: match args.on_invalid_arguments {
                InvalidArgumentsArg::Error => OnInvalidArguments::Error,
                InvalidArgumentsArg::Keep => OnInvalidArguments::Keep,
            },
            strict: args.strict,
            call_id: args.call_id,
            tool_name: args.name,
        },
        pretty: printer.is_pretty(),
        at,
        rollout: match args.kind {
            None => RolloutChoice::Recognize,
            Some(ConvertKindArg::Rollout) => RolloutChoice::Always,
            Some(ConvertKindArg::Transcript) => RolloutChoice::Never,
        },
        bare: args.bare,
    };
    if let Some(recording) = crate::recorded::open_input(input.as_deref(), max_document)? {
        let path = input.as_deref().unwrap_or(std::path::Path::new("-"));
        return convert_recording(&recording, path, policy, &request, printer);
    }
    let open = Open {
        whole: !args.jsonl,
        max_document,
    };
    if let Some(status) = convert_large_file(input.as_deref(), open, policy, &request, printer)? {
        return Ok(status);
    }
    let Some(mut driver) = Driver::open(input, args.jsonl, max_document, policy, false, printer)?
    else {
        return Ok(ExitStatus::Success);
    };
    let mut said: Vec<String> = Vec::new();
    driver.each(
        |bytes| convert_document(bytes, &request),
        |run, line, input, result| match result {
            Ok(mut document) => {
                run.warn(line, std::mem::take(&mut document.notes), &mut said);
                run.write_with(|out| document.write_to(out, input))
            }
            Err(error) => run.fail(line, &error.to_string()),
        },
    )?;
    driver.finish(None)
}

/// Converts a large regular file's one document with its payloads left in
/// the file ([`convert_large`] decides); `None` when that does not apply (the
/// caller then goes the way of any input).
fn convert_large_file(
    input: Option<&Path>,
    open: Open,
    policy: OnError,
    request: &ConvertRequest,
    printer: &Printer,
) -> Result<Option<ExitStatus>> {
    let converted = match convert_large(input, open, request) {
        Ok(None) => return Ok(None),
        Ok(Some(converted)) => Ok(converted),
        Err(error) => Err(error),
    };
    // The route applies only to a named file.
    let Some(path) = input else {
        return Ok(None);
    };
    let source = Input::from_arg(path);
    let mut run = Lines::named(source.label(), false, policy, false, printer);
    match converted {
        Ok(mut converted) => {
            run.warn(1, converted.notes(), &mut Vec::new());
            run.write_with(|out| converted.write_to(out, path))?;
        }
        Err(error) => {
            run.fail(1, &error.to_string())?;
        }
    }
    run.finish(None).map(Some)
}

/// Converts every body of a recording, one output line each
/// ([`crate::convert::recorded`]).
fn convert_recording(
    recording: &Recording,
    path: &Path,
    policy: OnError,
    request: &ConvertRequest,
    printer: &Printer,
) -> Result<ExitStatus> {
    let mut run = BodyRun::new(Input::from_arg(path).label(), policy, printer);
    for converted in convert_bodies(recording, request) {
        let body = &converted.body;
        let flow = match &converted.outcome {
            BodyOutcome::Converted(document) => {
                run.warn(body, &document.notes);
                run.write_with(|out| document.write_to(out, &converted.input))?
            }
            BodyOutcome::Passed(why) => {
                run.passed(body, why);
                crate::accounting::Flow::Continue
            }
            BodyOutcome::Failed(message) => run.fail(body, message)?,
        };
        if flow == crate::accounting::Flow::Stop {
            break;
        }
    }
    run.finish()
}
