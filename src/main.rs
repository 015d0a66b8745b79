//! The doorway: parse, run, and turn the outcome into an exit code.

use std::io::Write;
use std::process::ExitCode;

use clap::error::ErrorKind;
use partkit::sanitize;
use partkit::Outcome;

fn main() -> ExitCode {
    match partkit::run_cli(std::env::args_os()) {
        Outcome::Status(status) => ExitCode::from(status.code()),
        Outcome::Clap(error) => match error.kind() {
            ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                let _ = error.print();
                ExitCode::from(
                    if error.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                        2
                    } else {
                        0
                    },
                )
            }
            _ => {
                // clap's message spans several lines: what is wrong, sometimes the
                // arguments it means on the lines after, then tips and usage after a
                // blank line. Keep the first paragraph, on one line.
                let rendered = error.render().to_string();
                let paragraph: Vec<&str> = rendered
                    .lines()
                    .take_while(|line| !line.trim().is_empty())
                    .map(str::trim)
                    .collect();
                let message = paragraph.join(" ");
                let message = message.strip_prefix("error: ").unwrap_or(&message);
                report(&format!("{message} (see --help)"));
                ExitCode::from(2)
            }
        },
        Outcome::Failed(error) => {
            if error.is_broken_pipe() {
                return ExitCode::SUCCESS;
            }
            let code = error.exit_code();
            report(&format!("{:#}", anyhow::Error::from(error)));
            ExitCode::from(code)
        }
    }
}

fn report(message: &str) {
    let _ = writeln!(
        std::io::stderr().lock(),
        "partkit: error: {}",
        sanitize(message)
    );
}
