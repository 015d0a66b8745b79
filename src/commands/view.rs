//! `partkit view`: the arguments into [`ViewOptions`], the page written to a
//! file (whole, then renamed into place) or to stdout.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::set_threads;
use crate::check::Depth;
use crate::cli::ViewArgs;
use crate::error::{Error, ExitStatus, Result};
use crate::io::{Input, Layout};
use crate::output::{stdout_error, Printer};
use crate::validate::{CheckOptions, Limits};
use crate::view::{DocOptions, MediaStyle, Totals, ViewOptions};

pub fn run(args: ViewArgs, printer: &Printer) -> Result<ExitStatus> {
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
    };
    let input = match &args.input {
        Some(path) if path.as_os_str() != "-" => Input::Path(path.clone()),
        _ => Input::Stdin,
    };
    let (totals, written) = match &args.output {
        Some(path) => (to_file(&input, &options, path)?, path.display().to_string()),
        None => {
            let mut out = printer.stdout();
            let totals = crate::view::write_page(&input, &options, &mut out, Path::new("-"))?;
            out.flush().map_err(stdout_error)?;
            (totals, "stdout".to_string())
        }
    };
    printer.note(&format!("wrote {written}: {}", describe(&totals)));
    Ok(ExitStatus::Success)
}

/// Writes the page beside `path` and renames it over `path` once whole.
fn to_file(input: &Input, options: &ViewOptions, path: &Path) -> Result<Totals> {
    let write_error = |source| Error::Write {
        path: path.to_path_buf(),
        source,
    };
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let temp = crate::io::temp_file_in(&dir).map_err(write_error)?;
    let mut out = std::io::BufWriter::with_capacity(1 << 16, temp);
    let totals = crate::view::write_page(input, options, &mut out, path)?;
    let temp = out.into_inner().map_err(|e| write_error(e.into_error()))?;
    temp.persist(path).map_err(|e| write_error(e.error))?;
    Ok(totals)
}

/// `3 documents, 4 images, 2 tool calls, 1 error, 0 warnings`.
fn describe(totals: &Totals) -> String {
    let plural = crate::size::count_of;
    [
        plural(totals.documents, "document"),
        plural(totals.images, "image"),
        plural(totals.calls, "tool call"),
        plural(totals.errors, "error"),
        plural(totals.warnings, "warning"),
    ]
    .join(", ")
}
