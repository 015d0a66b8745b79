//! The command dispatcher: each arm turns clap's "as typed" arguments into the
//! library's options, calls one subcommand function, and prints its result.

pub mod encode;
pub mod split;

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::time::Duration;

use clap::ArgMatches;

use crate::cli::{Cli, Command, EncodeArgs, SplitArgs};
use crate::error::{Error, ExitStatus, Result};
use crate::fetch::FetchOptions;
use crate::output::{JsonStyle, Printer};

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
        Command::Generate(args) => {
            for path in crate::generate::write_all(&args.dir)? {
                printer.note(&format!("wrote {}", path.display()));
            }
            Ok(ExitStatus::Success)
        }
    }
}

fn stdout_error(source: io::Error) -> Error {
    Error::Write {
        path: PathBuf::from("<stdout>"),
        source,
    }
}

fn run_encode(args: EncodeArgs, matches: &ArgMatches, printer: &Printer) -> Result<ExitStatus> {
    let options = encode_options(&args, matches);
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
        to: args.to.into(),
    }
}

fn run_split(args: SplitArgs, printer: &Printer) -> Result<ExitStatus> {
    use crate::io::{Documents, Input, Layout};
    use split::{ImageWriter, SplitOptions, SplitOutput};

    let input = Input::from_arg(args.input.clone().unwrap_or_else(|| PathBuf::from("-")));
    let label = input.label();
    let layout = if args.jsonl {
        Layout::JsonLines
    } else {
        Layout::Auto
    };
    let mut documents = Documents::open(&input, layout)?;
    documents.detect()?;
    let json_lines = documents.is_json_lines();
    let output = match (args.rest, args.to) {
        (true, _) => SplitOutput::Rest,
        (false, Some(shape)) => SplitOutput::ToolResult {
            shape: shape.into(),
            call_id: args.call_id.clone().unwrap_or_default(),
            name: args.name.clone(),
        },
        (false, None) => SplitOutput::Parts,
    };
    let options = SplitOptions {
        output,
        keep_bytes: args.images_dir.is_some(),
        pretty: printer.is_pretty(),
    };
    let mut writer = match &args.images_dir {
        Some(dir) => Some(ImageWriter::new(dir, args.force, json_lines)?),
        None => None,
    };
    let mut out = BufWriter::new(io::stdout().lock());
    let mut rejected = 0usize;
    let mut notes: Vec<String> = Vec::new();
    crate::pipeline::for_each_document(
        &mut documents,
        |_, bytes| split::split_document(bytes, &options),
        |line, result| {
            match result {
                Ok(document) => {
                    if let Some(writer) = writer.as_mut() {
                        if !json_lines {
                            writer.check_free(&document.images)?;
                        }
                        writer.write(&document.images)?;
                    }
                    for note in document.notes {
                        if !notes.contains(&note) {
                            printer.warn(&note);
                            notes.push(note);
                        }
                    }
                    out.write_all(&document.output).map_err(stdout_error)?;
                    out.write_all(b"\n").map_err(stdout_error)?;
                }
                Err(error) => {
                    rejected += 1;
                    out.flush().map_err(stdout_error)?;
                    printer.error(&format!("{label}:{line}: {error}"));
                }
            }
            Ok(())
        },
    )?;
    out.flush().map_err(stdout_error)?;
    Ok(if rejected == 0 {
        ExitStatus::Success
    } else {
        ExitStatus::Failure
    })
}
