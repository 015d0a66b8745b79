//! `partkit config`: every section's settings in effect and their sources.

use std::io::Write;
use std::path::PathBuf;

use crate::config::{apply, show, Loaded};
use crate::error::{ExitStatus, Result};
use crate::output::{stdout_error, Printer};

pub fn run((loaded, cwd): &(Loaded, PathBuf), printer: &Printer) -> Result<ExitStatus> {
    let mut args = apply::default_args::validate();
    let bare = apply::default_args::validate_matches();
    let plan = apply::validate(&mut args, &bare, loaded, cwd);
    let (mut resize, resize_matches) = apply::default_args::resize();
    let (mut convert, convert_matches) = apply::default_args::convert();
    let text = [
        show::validate(&plan, loaded, cwd),
        show::section(
            "[resize]",
            &apply::resize(&mut resize, &resize_matches, loaded),
        ),
        show::section(
            "[convert]",
            &apply::convert(&mut convert, &convert_matches, loaded),
        ),
    ]
    .concat();
    let mut out = printer.stdout();
    out.write_all(text.as_bytes()).map_err(stdout_error)?;
    out.flush().map_err(stdout_error)?;
    Ok(ExitStatus::Success)
}
