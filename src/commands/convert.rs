//! `partkit convert`: the command line's arguments into a
//! [`ConvertRequest`], each document's result printed.

use crate::cli::{ConvertArgs, ConvertKindArg, InvalidArgumentsArg, ToolMediaArg, UnsupportedArg};
use crate::convert::document::{convert_document, ConvertRequest, RolloutChoice};
use crate::convert::{ConvertOptions, OnInvalidArguments, OnUnsupported, ToolMedia};
use crate::error::{Error, ExitStatus, Result};
use crate::output::Printer;

use super::lines::Driver;
use super::{at_of, on_error_of, set_threads};

pub fn run(args: ConvertArgs, printer: &Printer) -> Result<ExitStatus> {
    let at = at_of(&args.pipeline.at)?;
    if args.bare && at.pointers().len() > 1 {
        return Err(Error::usage(
            "--bare prints one converted value per document: give one --at pointer",
        ));
    }
    set_threads(&args.pipeline.threads);
    let policy = on_error_of(&args.pipeline.on_error);
    let Some(mut driver) = Driver::open(args.input, args.jsonl, policy, false, printer)? else {
        return Ok(ExitStatus::Success);
    };
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
    let mut said: Vec<String> = Vec::new();
    driver.each(
        |_, bytes| convert_document(bytes, &request),
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
