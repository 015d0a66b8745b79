//! `partkit resize`: the command line's arguments into
//! [`crate::resize::RunOptions`]; the run's results and reports printed
//! through the printer, under a progress bar of the bytes read.

use indicatif::ProgressBar;

use crate::cli::{ImageFormatArg, ReportStyleArg, ResizeArgs};
use crate::error::{Error, ExitStatus, Result};
use crate::output::Printer;
use crate::resize::{
    DecodeLimits, Destination, Format, FormatChoice, Limits, Output, Report, ReportStyle,
    ResizeOptions, RunOptions, Sink,
};

use super::{at_of, on_error_of, set_threads};

pub fn run(args: ResizeArgs, max_document: u64, printer: &Printer) -> Result<ExitStatus> {
    let options = run_options(args, max_document)?;
    let bar = printer.progress(1, "resizing");
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{spinner} {msg} {bar:30} {bytes}/{total_bytes} [{elapsed}]",
    ) {
        bar.set_style(style);
    }
    let status = crate::resize::run(&options, &Printed { printer, bar: &bar });
    bar.finish_and_clear();
    status
}

fn run_options(args: ResizeArgs, max_document: u64) -> Result<RunOptions> {
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
        inputs: args.inputs,
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
        max_document,
    };
    set_threads(&args.pipeline.threads);
    Ok(options)
}

/// The run's output through the printer; reports are printed with the
/// progress bar out of the way.
struct Printed<'a> {
    printer: &'a Printer,
    bar: &'a ProgressBar,
}

impl Sink for Printed<'_> {
    fn start(&self, bytes: u64) {
        self.bar.set_length(bytes.max(1));
    }

    fn report(&self, line: Report) {
        self.bar.suspend(|| match line {
            Report::Note(text) => self.printer.note(&text),
            Report::Warn(text) => self.printer.warn(&text),
            Report::Error(text) => self.printer.error(&text),
            Report::Json(value) => self.printer.report_json(&value),
        })
    }

    fn progress(&self, bytes: u64) {
        self.bar.inc(bytes);
    }

    fn stdout(&self) -> Box<dyn Output + '_> {
        // Resized images and documents are large: a 1 MiB buffer.
        Box::new(self.printer.stdout_with_capacity(1 << 20))
    }

    fn stdout_is_terminal(&self) -> bool {
        self.printer.stdout_is_terminal()
    }
}
