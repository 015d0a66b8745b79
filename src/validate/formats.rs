//! Findings in the formats CI systems read: GitHub Actions workflow
//! commands (`--format github`), which the runner turns into annotations on
//! the file and line.

use super::{Finding, Status};

impl Finding {
    /// `::error file=PATH,line=N,title=RULE::/pointer: message`; warnings as
    /// `::warning`, repairs (`--fix`) as `::notice`. Escaped as the workflow
    /// command syntax wants: `%`, CR and LF everywhere, and `,` and `:` in the
    /// properties too; other control characters are already escaped away.
    pub fn to_github(&self) -> String {
        let command = match self.status {
            Status::Error => "error",
            Status::Warning => "warning",
            Status::Fixed => "notice",
        };
        // Where in the document: a recording's interaction, then the pointer.
        let mut place = self
            .within
            .as_ref()
            .map(|place| place.describe())
            .unwrap_or_default();
        if !self.pointer.is_empty() {
            if !place.is_empty() {
                place.push(' ');
            }
            place.push_str(&self.pointer);
        }
        let message = if place.is_empty() {
            self.message.clone()
        } else {
            format!("{place}: {}", self.message)
        };
        format!(
            "::{command} file={},line={},title={}::{}",
            property(&crate::render::sanitize(&self.path)),
            self.line,
            property(self.rule),
            data(&crate::render::sanitize(&message)),
        )
    }
}

/// A workflow command's message.
fn data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A workflow command's property value.
fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(path: &str, status: Status, pointer: &str, message: &str) -> Finding {
        Finding {
            path: path.to_string(),
            line: 3,
            status,
            rule: "media-type-mismatch",
            pointer: pointer.to_string(),
            message: message.to_string(),
            within: None,
        }
    }

    #[test]
    fn workflow_commands_escape_what_the_syntax_reserves() {
        let plain = finding(
            "a.json",
            Status::Error,
            "/x/0",
            "content is image/jpeg, not image/png",
        );
        assert_eq!(
            plain.to_github(),
            "::error file=a.json,line=3,title=media-type-mismatch::/x/0: content is image/jpeg, not image/png"
        );
        let awkward = finding("dir,1/a:b%.json", Status::Warning, "", "100% sure:\r\nnext");
        assert_eq!(
            awkward.to_github(),
            "::warning file=dir%2C1/a%3Ab%25.json,line=3,title=media-type-mismatch::100%25 sure:\\r\\nnext"
        );
        let fixed = finding("a.json", Status::Fixed, "/x", "m");
        assert!(fixed.to_github().starts_with("::notice file=a.json,"));
    }
}
