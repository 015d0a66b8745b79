//! What `resize` says about each image: a line a person reads, or a JSON
//! object a program reads. The library only builds the lines ([`Report`]); the
//! caller prints them (the command through its printer, in input order).

use std::path::Path;

use super::{ResizeError, Resized};

/// How each image is reported on stderr.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ReportStyle {
    /// A line a person reads (silenced by `--quiet`).
    #[default]
    Text,
    /// One JSON object per image.
    Json,
}

/// One report line, held until it can be printed in input order.
#[derive(Debug, Clone, PartialEq)]
pub enum Report {
    /// A line a person reads (silenced by `--quiet`).
    Note(String),
    /// A warning (silenced by `--quiet`).
    Warn(String),
    /// An error about one input, image or document; the run goes on.
    Error(String),
    /// One `--report json` object.
    Json(serde_json::Value),
}

/// Where the reports of one input go, as they are made.
pub(super) type Emit<'r> = &'r mut dyn FnMut(Report);

/// What a report line names: the input, a JSON Lines line, a JSON pointer.
pub(super) struct Where<'a> {
    pub label: &'a str,
    pub line: Option<usize>,
    pub pointer: Option<&'a str>,
}

impl Where<'_> {
    pub fn text(&self) -> String {
        let mut text = self.label.to_string();
        if let Some(line) = self.line {
            text.push_str(&format!(":{line}"));
        }
        if let Some(pointer) = self.pointer {
            text.push_str(&format!(
                " {}",
                if pointer.is_empty() { "/" } else { pointer }
            ));
        }
        text
    }
}

/// Reports one image.
pub(super) fn report_image(
    style: ReportStyle,
    at: &Where<'_>,
    result: &std::result::Result<Resized, ResizeError>,
    output: Option<&Path>,
    quiet_unchanged: bool,
    report: Emit<'_>,
) {
    if let Ok(resized) = result {
        for warning in &resized.warnings {
            report(Report::Warn(format!("{}: {warning}", at.text())));
        }
    }
    if style == ReportStyle::Json {
        let mut value = serde_json::json!({ "input": at.label });
        if let Some(line) = at.line {
            value["line"] = line.into();
        }
        if let Some(pointer) = at.pointer {
            value["pointer"] = pointer.into();
        }
        match result {
            Ok(resized) => {
                value["status"] = if resized.changed() {
                    "resized"
                } else {
                    "unchanged"
                }
                .into();
                value["before"] = resized.before.to_json();
                value["after"] = resized.after.to_json();
                if resized.changed() {
                    value["reasons"] = resized.reasons.clone().into();
                    value["encodes"] = resized.encodes.into();
                    if resized.trials > 0 {
                        value["trial_encodes"] = resized.trials.into();
                    }
                    value["seconds"] = ((resized.seconds * 1000.0).round() / 1000.0).into();
                    if let Some(output) = output {
                        value["output"] = output.display().to_string().into();
                    }
                }
            }
            Err(error) => {
                value["status"] = "error".into();
                value["error"] = error.to_string().into();
            }
        }
        report(Report::Json(value));
        if let Err(error) = result {
            report(Report::Error(format!("{}: {error}", at.text())));
        }
        return;
    }
    match result {
        Ok(resized) if resized.changed() => {
            let written = output
                .map(|p| format!(", written to {}", p.display()))
                .unwrap_or_default();
            let trials = match resized.trials {
                0 => String::new(),
                1 => " and 1 of a sample".into(),
                n => format!(" and {n} of a sample"),
            };
            report(Report::Note(format!(
                "{}: {} → {} ({}; {} encode{}{trials}, {:.2} s{written})",
                at.text(),
                resized.before.describe(),
                resized.after.describe(),
                resized.reasons.join(", "),
                resized.encodes,
                if resized.encodes == 1 { "" } else { "s" },
                resized.seconds
            )));
        }
        Ok(resized) => {
            if !quiet_unchanged {
                report(Report::Note(format!(
                    "{}: {}: within every cap, unchanged",
                    at.text(),
                    resized.before.describe()
                )));
            }
        }
        Err(error) => report(Report::Error(format!("{}: {error}", at.text()))),
    }
}
