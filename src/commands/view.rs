//! `partkit view`: the arguments into [`ViewOptions`], the page written to a
//! file (whole, then renamed into place, or into a device or FIFO as it is
//! drawn) or to stdout.

use std::io::Write;
use std::path::Path;

use super::set_threads;
use crate::check::Depth;
use crate::cli::ViewArgs;
use crate::error::{Error, ExitStatus, Result};
use crate::io::replace::Replacement;
use crate::io::{Input, Layout};
use crate::output::{stdout_error, Printer};
use crate::validate::{CheckOptions, Limits};
use crate::view::{DocOptions, MediaStyle, Totals, ViewOptions};

pub fn run(args: ViewArgs, max_document: u64, printer: &Printer) -> Result<ExitStatus> {
    if args.output.is_none() && printer.stdout_is_terminal() {
        return Err(Error::usage(
            "the page is HTML: write it to a file with -o FILE, or redirect stdout",
        ));
    }
    set_threads(&args.threads);
    let profile = args.profile.map(|p| p.profile());
    let options = ViewOptions {
        doc: DocOptions {
            check: CheckOptions {
                target: args.target,
                depth: Depth::Header,
                limits: Limits::with_profile(profile, None, None, None),
                ..CheckOptions::default()
            },
            media: MediaStyle {
                full_images: args.full_images,
            },
        },
        lines: args.lines.clone(),
        layout: if args.jsonl {
            Layout::JsonLines
        } else {
            Layout::Auto
        },
        max_document,
    };
    let input = match &args.input {
        Some(path) if path.as_os_str() != "-" => Input::Path(path.clone()),
        _ => Input::Stdin,
    };
    let (totals, written) = match &args.output {
        Some(path) => (to_file(&input, &options, path)?, path.display().to_string()),
        None => {
            let mut out = printer.stdout();
            let totals =
                crate::view::write_page(&input, &options, &mut out, Path::new("<stdout>"))?;
            out.flush().map_err(stdout_error)?;
            (totals, "stdout".to_string())
        }
    };
    printer.note(&format!("wrote {written}: {}", describe(&totals)));
    Ok(ExitStatus::Success)
}

/// Writes the page to `path` as every output file is written
/// ([`Replacement`]): beside it, renamed over it once whole, with what the
/// file replaced keeps; into a device or a FIFO directly; through a symlink.
fn to_file(input: &Input, options: &ViewOptions, path: &Path) -> Result<Totals> {
    let mut out = std::io::BufWriter::with_capacity(1 << 16, Replacement::new(path)?);
    let totals = crate::view::write_page(input, options, &mut out, path)?;
    let page = out.into_inner().map_err(|e| {
        let (error, page) = e.into_parts();
        page.get_ref().error(error)
    })?;
    page.commit()?;
    Ok(totals)
}

/// `3 documents, 4 images, 2 tool calls, 1 error, 0 warnings`, after
/// `2 interactions, ` for a recording.
fn describe(totals: &Totals) -> String {
    let plural = crate::size::count_of;
    totals
        .interactions
        .map(|n| plural(n, "interaction"))
        .into_iter()
        .chain([
            plural(totals.documents, "document"),
            plural(totals.images, "image"),
            plural(totals.calls, "tool call"),
            plural(totals.errors, "error"),
            plural(totals.warnings, "warning"),
        ])
        .collect::<Vec<_>>()
        .join(", ")
}
