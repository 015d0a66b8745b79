//! The command dispatcher: each arm turns clap's "as typed" arguments into the
//! library's options, calls one subcommand function, and prints its result.

pub mod convert;
pub mod inspect;
pub mod lines;
pub mod resize;
pub mod split;
pub mod validate;

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::time::Duration;

use clap::ArgMatches;

use crate::accounting::{Flow, OnError};
use crate::cli::{
    AtArgs, Cli, Command, ConvertArgs, EncodeArgs, InspectArgs, OnErrorArgs, SplitArgs,
    ThreadsArgs, ValidateArgs,
};
use crate::encode;
use crate::error::{Error, ExitStatus, Result};
use crate::fetch::FetchOptions;
use crate::output::{JsonStyle, Printer};
use crate::subdoc::{At, AtMissing};

/// Runs a parsed command line. `matches` is needed where the order of
/// different options matters (`encode -t`).
pub fn run(cli: Cli, matches: &ArgMatches) -> Result<ExitStatus> {
    let style = if cli.global.pretty {
        JsonStyle::Pretty
    } else if cli.global.compact {
        JsonStyle::Compact
    } else {
        JsonStyle::Auto
    };
    let printer = Printer::new(style, cli.global.quiet);
    match cli.command {
        Command::Encode(args) => {
            let sub = matches.subcommand_matches("encode").unwrap_or(matches);
            run_encode(args, sub, &printer)
        }
        Command::Split(args) => run_split(args, &printer),
        Command::Validate(args) => run_validate(args, &printer),
        Command::Inspect(args) => run_inspect(args, &printer),
        Command::Resize(args) => run_resize(args, &printer),
        Command::Convert(args) => run_convert(args, &printer),
        Command::Generate(args) => {
            for path in crate::generate::write_all(&args.dir)? {
                printer.note(&format!("wrote {}", path.display()));
            }
            Ok(ExitStatus::Success)
        }
    }
}

/// The `--at` pointers, checked.
fn at_of(args: &AtArgs) -> Result<At> {
    let missing = match args.at_missing {
        crate::cli::AtMissingArg::Error => AtMissing::Error,
        crate::cli::AtMissingArg::Skip => AtMissing::Skip,
    };
    At::new(&args.at, missing).map_err(|e| Error::usage(e.to_string()))
}

fn on_error_of(args: &OnErrorArgs) -> OnError {
    match args.on_error {
        crate::cli::OnErrorArg::Skip => OnError::Skip,
        crate::cli::OnErrorArg::Null => OnError::Null,
        crate::cli::OnErrorArg::Stop => OnError::Stop,
    }
}

/// Starts the worker pool: `-j N` workers, else as many as
/// `RAYON_NUM_THREADS` says, else one per core. (Started now rather than at
/// the first parallel step, so that a run's threads are known from its start.)
fn set_threads(args: &ThreadsArgs) {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(threads) = args.threads {
        builder = builder.num_threads(usize::from(threads));
    }
    // A second run in one process (a library caller) keeps the first pool.
    let _ = builder.build_global();
}

fn stdout_error(source: io::Error) -> Error {
    Error::Write {
        path: PathBuf::from("<stdout>"),
        source,
    }
}

fn run_encode(args: EncodeArgs, matches: &ArgMatches, printer: &Printer) -> Result<ExitStatus> {
    let options = encode_options(&args, matches);
    if let Some(policy) = args.on_error {
        let policy = on_error_of(&OnErrorArgs { on_error: policy });
        return run_encode_each(&options, policy, printer);
    }
    let encoded = encode::encode(&options)?;
    for warning in &encoded.warnings {
        printer.warn(warning);
    }
    let mut out = BufWriter::new(io::stdout().lock());
    if args.jsonl {
        for block in &encoded.blocks {
            crate::output::write_json(&mut out, block, false).map_err(stdout_error)?;
            out.write_all(b"\n").map_err(stdout_error)?;
        }
    } else {
        printer
            .write_json(&mut out, &encoded.blocks)
            .map_err(stdout_error)?;
    }
    out.flush().map_err(stdout_error)?;
    Ok(ExitStatus::Success)
}

/// `encode --jsonl --on-error`: one line per source, a failed one reported
/// and replaced as the policy says.
fn run_encode_each(
    options: &encode::EncodeOptions,
    policy: OnError,
    printer: &Printer,
) -> Result<ExitStatus> {
    let (results, warnings) = encode::encode_each(options)?;
    for warning in &warnings {
        printer.warn(warning);
    }
    // One line per source, not JSON Lines read: no count at the end.
    let mut run = lines::Lines::named(String::new(), false, policy, false, printer);
    let mut worst_code = 0;
    for result in results {
        let flow = match result {
            Ok(None) => {
                run.tally.read_only();
                Flow::Continue
            }
            Ok(Some(block)) => {
                let mut line = Vec::new();
                crate::output::write_json(&mut line, &block, false)
                    .expect("writing JSON into memory cannot fail");
                run.write(&line)?
            }
            Err(error) => {
                worst_code = worst_code.max(error.exit_code());
                run.fail_saying(&format!("{:#}", anyhow::Error::from(error)))?
            }
        };
        if flow == Flow::Stop {
            break;
        }
    }
    Ok(match run.finish(None)? {
        // An unreadable source is exit 2, as without --on-error, unless a
        // null marks it.
        ExitStatus::Failure if worst_code == 2 => ExitStatus::Error,
        status => status,
    })
}

/// Puts sources and `-t` texts back in command-line order.
fn encode_options(args: &EncodeArgs, matches: &ArgMatches) -> encode::EncodeOptions {
    let mut ordered: Vec<(usize, encode::SourceSpec)> = Vec::new();
    let source_indices = matches.indices_of("sources").into_iter().flatten();
    for (index, arg) in source_indices.zip(&args.sources) {
        ordered.push((index, encode::SourceSpec::classify(arg)));
    }
    let text_indices = matches.indices_of("text").into_iter().flatten();
    for (index, text) in text_indices.zip(&args.text) {
        ordered.push((index, encode::SourceSpec::Text(text.clone())));
    }
    ordered.sort_by_key(|(index, _)| *index);
    let mut sources: Vec<encode::SourceSpec> = ordered.into_iter().map(|(_, s)| s).collect();
    if sources.is_empty() {
        sources.push(encode::SourceSpec::Stdin);
    }
    encode::EncodeOptions {
        sources,
        part_type: args.part_type.map(Into::into),
        mime_type: args.mime_type.clone(),
        name: args.name.clone(),
        max_part_bytes: args.max_part_bytes,
        strict: args.strict,
        fetch: args.fetch.then(|| FetchOptions {
            timeout: Duration::from_secs(args.timeout),
            ..FetchOptions::default()
        }),
        to: args.to,
    }
}

fn run_split(args: SplitArgs, printer: &Printer) -> Result<ExitStatus> {
    use crate::io::{Input, Layout};
    use split::{ImageWriter, SplitOptions, SplitOutput};

    if args.to == Some(crate::shapes::Shape::Gemini) && args.name.is_none() {
        return Err(Error::usage(
            "--to gemini needs --name: a Gemini function response names its tool",
        ));
    }
    let at = at_of(&args.pipeline.at)?;
    set_threads(&args.pipeline.threads);
    let input = Input::from_arg(args.input.clone().unwrap_or_else(|| PathBuf::from("-")));
    let layout = if args.jsonl {
        Layout::JsonLines
    } else {
        Layout::Auto
    };
    let Some(mut documents) = lines::open_documents(&input, layout)? else {
        return Ok(ExitStatus::Success);
    };
    let json_lines = documents.is_json_lines();
    let output = match (args.rest, args.to) {
        (true, _) => SplitOutput::Rest,
        (false, Some(shape)) => SplitOutput::ToolResult {
            shape,
            call_id: args.call_id.clone().unwrap_or_default(),
            name: args.name.clone(),
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
    let mut run = lines::Lines::new(
        &input,
        &documents,
        on_error_of(&args.pipeline.on_error),
        true,
        printer,
    );
    let mut notes: Vec<String> = Vec::new();
    crate::pipeline::for_each_document(
        &mut documents,
        |_, bytes| split::split_document(bytes, &options),
        |line, result| match result {
            Ok(document) => {
                if let Some(writer) = writer.as_mut() {
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
    run.finish(None)
}

fn run_validate(args: ValidateArgs, printer: &Printer) -> Result<ExitStatus> {
    validate::run(args, printer)
}

fn run_inspect(args: InspectArgs, printer: &Printer) -> Result<ExitStatus> {
    use crate::cli::ItemFormat;
    use crate::io::{Input, Layout};

    let at = at_of(&args.pipeline.at)?;
    let policy = lines::no_null(on_error_of(&args.pipeline.on_error), "inspect")?;
    set_threads(&args.pipeline.threads);
    let input = Input::from_arg(args.input.clone().unwrap_or_else(|| PathBuf::from("-")));
    let layout = if args.jsonl {
        Layout::JsonLines
    } else {
        Layout::Auto
    };
    let Some(mut documents) = lines::open_documents(&input, layout)? else {
        return Ok(ExitStatus::Success);
    };
    let json_lines = documents.is_json_lines();
    let mut writer = match &args.extract {
        Some(dir) => Some(split::ImageWriter::new(dir, args.force, json_lines)?),
        None => None,
    };
    let extract = writer.is_some();
    let mut items = Vec::new();
    let mut files: Vec<Option<String>> = Vec::new();
    let mut run = lines::Lines::new(&input, &documents, policy, true, printer);
    let mut listed = 0usize;
    crate::pipeline::for_each_document(
        &mut documents,
        |line, bytes| inspect::inspect_at(bytes, line, extract, &at),
        |line, result| {
            let found = match result {
                Ok(found) => found,
                Err(error) => return run.fail(line, &error),
            };
            run.tally.read_only();
            listed += found.len();
            let mut paths: Vec<Option<String>> = vec![None; found.len()];
            if let Some(writer) = writer.as_mut() {
                let extracted: Vec<(usize, split::ExtractedImage)> = found
                    .iter()
                    .enumerate()
                    .filter_map(|(i, item)| {
                        item.extracted
                            .clone()
                            .filter(|e| e.bytes.is_some())
                            .map(|e| (i, e))
                    })
                    .collect();
                let images: Vec<split::ExtractedImage> =
                    extracted.iter().map(|(_, e)| e.clone()).collect();
                if !json_lines {
                    writer.check_free(&images)?;
                }
                for ((i, _), path) in extracted.iter().zip(writer.write(&images)?) {
                    paths[*i] = Some(path.display().to_string());
                }
            }
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
            if run.tally.failed == 0 {
                printer.note(&format!("{}: no media found", run.label));
            }
        } else {
            run.write_raw(inspect::table(&items, json_lines, &files).as_bytes())?;
        }
    }
    let listed = format!(
        "{} media item{} listed",
        crate::size::group_digits(listed as u64),
        if listed == 1 { "" } else { "s" }
    );
    run.finish(Some(&listed))
}

fn run_resize(args: crate::cli::ResizeArgs, printer: &Printer) -> Result<ExitStatus> {
    use crate::cli::{ImageFormatArg, ReportStyleArg};
    use crate::resize::{DecodeLimits, Format, FormatChoice, Limits, ResizeOptions};
    use resize::{Destination, ReportStyle, RunOptions};

    let format = match args.format {
        ImageFormatArg::Keep => FormatChoice::Keep,
        ImageFormatArg::Png => FormatChoice::To(Format::Png),
        ImageFormatArg::Jpeg => FormatChoice::To(Format::Jpeg),
        ImageFormatArg::Webp => FormatChoice::To(Format::Webp),
        ImageFormatArg::Json | ImageFormatArg::Text => {
            return Err(Error::usage(
                "--format names the image format (keep, png, jpeg, webp); the report's style is --report text|json",
            ))
        }
    };
    let mut limits = match args.profile {
        Some(profile) => Limits::from_profile(profile.profile()),
        None => Limits::default(),
    };
    if let Some(max) = args.max_bytes {
        limits.max_bytes = Some(max);
    }
    limits.max_encoded_bytes = args.max_encoded_bytes.or(limits.max_encoded_bytes);
    limits.max_dim = args.max_dim.or(limits.max_dim);
    limits.max_pixels = args.max_pixels.or(limits.max_pixels);
    let destination = match (&args.output, &args.out_dir, args.in_place) {
        (Some(path), _, _) => Destination::File(path.clone()),
        (_, Some(dir), _) => Destination::Dir(dir.clone()),
        (_, _, true) => Destination::InPlace,
        _ => Destination::Stdout,
    };
    let options = RunOptions {
        inputs: args.inputs.clone(),
        resize: ResizeOptions {
            limits,
            format,
            decode: DecodeLimits {
                max_pixels: args.max_decode_pixels,
                max_alloc: args.max_decode_pixels.saturating_mul(8),
            },
        },
        destination,
        report: match args.report {
            ReportStyleArg::Text => ReportStyle::Text,
            ReportStyleArg::Json => ReportStyle::Json,
        },
        jsonl: args.jsonl,
        at: at_of(&args.pipeline.at)?,
        on_error: on_error_of(&args.pipeline.on_error),
    };
    set_threads(&args.pipeline.threads);
    resize::run(&options, printer)
}

fn run_convert(args: ConvertArgs, printer: &Printer) -> Result<ExitStatus> {
    use crate::convert::{ConvertOptions, OnInvalidArguments, OnUnsupported, ToolMedia};
    use crate::io::{Input, Layout};

    let at = at_of(&args.pipeline.at)?;
    if args.bare && at.pointers().len() > 1 {
        return Err(Error::usage(
            "--bare prints one converted value per document: give one --at pointer",
        ));
    }
    set_threads(&args.pipeline.threads);
    let input = Input::from_arg(args.input.clone().unwrap_or_else(|| PathBuf::from("-")));
    let layout = if args.jsonl {
        Layout::JsonLines
    } else {
        Layout::Auto
    };
    let Some(mut documents) = lines::open_documents(&input, layout)? else {
        return Ok(ExitStatus::Success);
    };
    let request = convert::ConvertRequest {
        from: args.from.shape(),
        to: args.to,
        options: ConvertOptions {
            on_unsupported: args.on_unsupported.map(|p| match p {
                crate::cli::UnsupportedArg::Error => OnUnsupported::Error,
                crate::cli::UnsupportedArg::Text => OnUnsupported::Text,
            }),
            tool_media: match args.tool_media {
                crate::cli::ToolMediaArg::Native => ToolMedia::Native,
                crate::cli::ToolMediaArg::Lift => ToolMedia::Lift,
            },
            on_invalid_arguments: match args.on_invalid_arguments {
                crate::cli::InvalidArgumentsArg::Error => OnInvalidArguments::Error,
                crate::cli::InvalidArgumentsArg::Keep => OnInvalidArguments::Keep,
            },
            strict: args.strict,
            call_id: args.call_id.clone(),
            tool_name: args.name.clone(),
        },
        pretty: printer.is_pretty(),
        at,
        rollout: match args.kind {
            None => convert::RolloutChoice::Recognize,
            Some(crate::cli::ConvertKindArg::Rollout) => convert::RolloutChoice::Always,
            Some(crate::cli::ConvertKindArg::Transcript) => convert::RolloutChoice::Never,
        },
        bare: args.bare,
    };
    let mut run = lines::Lines::new(
        &input,
        &documents,
        on_error_of(&args.pipeline.on_error),
        false,
        printer,
    );
    let mut said: Vec<String> = Vec::new();
    crate::pipeline::for_each_document(
        &mut documents,
        |_, bytes| convert::convert_document(bytes, &request),
        |line, result| match result {
            Ok(document) => {
                run.warn(line, document.notes, &mut said);
                run.write(&document.output)
            }
            Err(error) => run.fail(line, &error.to_string()),
        },
    )?;
    run.finish(None)
}
