//! `partkit encode`: sources and `-t` texts, in command-line order, into
//! [`crate::encode`]'s options; the blocks printed as one JSON array or one
//! line each.

use std::io::Write;
use std::time::Duration;

use clap::ArgMatches;

use crate::accounting::{Flow, OnError};
use crate::cli::{EncodeArgs, OnErrorArgs};
use crate::encode;
use crate::encode::stream::{self, Block, Hold};
use crate::error::{ExitStatus, Result};
use crate::fetch::FetchOptions;
use crate::output::{stdout_error, write_json, Printer};

use super::lines::Lines;
use super::on_error_of;

/// Runs `encode`. `matches` gives the order of sources and `-t` texts, which
/// clap keeps in two lists.
pub fn run(
    args: EncodeArgs,
    matches: &ArgMatches,
    max_document: u64,
    printer: &Printer,
) -> Result<ExitStatus> {
    let options = encode_options(&args, matches, max_document);
    if let Some(policy) = args.on_error {
        let policy = on_error_of(&OnErrorArgs { on_error: policy });
        return run_each(&options, policy, printer);
    }
    // Each source is read whole before its block is printed, and its base64
    // written from the bytes straight into the output (see encode::stream);
    // what is printed is what encode::encode makes. An array is printed only
    // once every source is read; lines, each once its own source is.
    let hold = if args.jsonl { Hold::Each } else { Hold::All };
    let prepared = stream::prepare(&options, hold)?;
    for warning in &prepared.warnings {
        printer.warn(warning);
    }
    let mut out = printer.stdout();
    if args.jsonl {
        for block in prepared.blocks {
            stream::write_line(block, &mut out)?;
            out.write_all(b"\n").map_err(stdout_error)?;
        }
    } else {
        stream::write_array(prepared.blocks, &mut out, printer)?;
    }
    out.flush().map_err(stdout_error)?;
    Ok(ExitStatus::Success)
}

/// `encode --jsonl --on-error`: one line per source, a failed one reported
/// and replaced as the policy says. Sources are taken one at a time, each
/// read whole before its line is printed, so that one that fails while read
/// fails alone and memory holds one source at a time.
fn run_each(
    options: &encode::EncodeOptions,
    policy: OnError,
    printer: &Printer,
) -> Result<ExitStatus> {
    let sources = stream::Sources::new(options)?;
    // One line per source, not JSON Lines read: no count at the end.
    let mut run = Lines::named(String::new(), false, policy, false, printer);
    let mut worst_code = 0;
    for index in 0..options.sources.len() {
        let mut warnings = Vec::new();
        let result = sources.block(index, &mut warnings).and_then(|block| {
            block
                .map(|mut block| block.load().map(|()| block))
                .transpose()
        });
        for warning in &warnings {
            printer.warn(warning);
        }
        let flow = match result {
            Ok(None) => {
                run.tally.read_only();
                Flow::Continue
            }
            Ok(Some(Block::Ready { value, .. })) => {
                let mut line = Vec::new();
                write_json(&mut line, &value, false).expect("writing JSON into memory cannot fail");
                run.write(&line)?
            }
            Ok(Some(streamed)) => {
                // Loaded: only the output can fail now.
                stream::write_line(streamed, &mut run.out)?;
                run.write(b"")?
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
        // An unreadable source (one that could not be read whole, too) is
        // exit 2, as without --on-error, unless a null marks it.
        ExitStatus::Failure if worst_code == 2 => ExitStatus::Error,
        status => status,
    })
}

/// Puts sources and `-t` texts back in command-line order.
fn encode_options(
    args: &EncodeArgs,
    matches: &ArgMatches,
    max_document: u64,
) -> encode::EncodeOptions {
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
            max_document,
            ..FetchOptions::default()
        }),
        to: args.to,
        max_document,
    }
}
