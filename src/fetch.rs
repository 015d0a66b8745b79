//! Downloading `http(s)` URLs for `encode --fetch`: redirects followed only to
//! http(s), content codings decoded, the byte cap, the document limit and the
//! timeout enforced while reading, not after.

use std::io::Read;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use ureq::ResponseExt;

use crate::error::{Error, Result};
use crate::size::group_digits;

mod decode;
mod location;

/// Limits on one download.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FetchOptions {
    /// The whole download (connect, redirects, body) must finish within this.
    pub timeout: Duration,
    /// Refuse a body larger than this many bytes (checked as the bytes arrive).
    pub max_bytes: Option<u64>,
    /// How many redirects to follow.
    pub max_redirects: u32,
    /// Refuse a body larger than this too, as too large a document
    /// (docs/limits.md).
    pub max_document: u64,
}

impl Default for FetchOptions {
    fn default() -> Self {
        FetchOptions {
            timeout: Duration::from_secs(30),
            max_bytes: None,
            max_redirects: 5,
            max_document: crate::io::DEFAULT_MAX_DOCUMENT,
        }
    }
}

/// A downloaded body and what the server said about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fetched {
    pub bytes: Vec<u8>,
    /// The `Content-Type` header, if any (as sent).
    pub content_type: Option<String>,
    /// The URL the body came from, after redirects.
    pub final_url: String,
}

/// A download that could not be made or whose answer was unusable (exit 2). A
/// body over the cap is a rejection instead (exit 1): the part is too large.
fn fetch_error(url: &str, reason: impl Into<String>) -> Error {
    Error::Fetch {
        url: redact_url(url),
        reason: reason.into(),
    }
}

pub use crate::dataurl::is_http_url;

/// Downloads `url` within the limits: the cap (`max_bytes`) and the document
/// limit (`max_document`) both bound the decoded body, and a
/// declared `Content-Length` over either is refused before the body is read.
pub fn fetch(url: &str, options: &FetchOptions) -> Result<Fetched> {
    let deadline = Instant::now() + options.timeout;
    // Redirects are followed here, one at a time, so that each target is
    // checked before it is asked for (see `location`).
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .max_redirects(0)
        .max_redirects_will_error(false)
        .http_status_as_error(false)
        .accept_encoding("gzip, deflate")
        .user_agent(concat!("partkit/", env!("CARGO_PKG_VERSION")))
        .build()
        .into();
    let mut current = url.to_string();
    let mut redirects = 0;
    let mut response = loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(fetch_error(url, "timed out"));
        }
        let response = agent
            .get(&current)
            .config()
            .timeout_global(Some(left))
            .build()
            .call()
            .map_err(|e| fetch_error(url, describe(&e)))?;
        let Some(location) = redirect_target(&response) else {
            break response;
        };
        if redirects == options.max_redirects {
            return Err(fetch_error(url, "too many redirects"));
        }
        redirects += 1;
        let location = location.map_err(|why| fetch_error(url, why))?;
        current = location::follow(&current, &location).map_err(|why| {
            let from = (current != url).then_some(current.as_str());
            fetch_error(url, why.says(from))
        })?;
    };
    let final_url = response.get_uri().to_string();
    let status = response.status();
    if !status.is_success() {
        let reason = status.canonical_reason().unwrap_or("");
        return Err(fetch_error(
            url,
            format!("HTTP {} {reason}", status.as_u16())
                .trim_end()
                .to_string(),
        ));
    }
    let headers = response.headers();
    let content_type = headers
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let codings = decode::codings(
        headers
            .get_all("content-encoding")
            .iter()
            .map(|v| v.as_bytes()),
    )
    .map_err(|why| fetch_error(url, why))?;
    let bounds = Bounds {
        cap: options.max_bytes,
        limit: options.max_document,
    };
    // A declared length is the decoded size only when nothing is to be decoded.
    let declared_len = headers
        .get("content-length")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok())
        .filter(|_| codings.is_empty());
    if let Some(len) = declared_len {
        if len > bounds.least() {
            return Err(bounds.exceeded(url, Some(len)));
        }
    }
    let body = response.body_mut().with_config().limit(u64::MAX).reader();
    let mut bytes = Vec::with_capacity(declared_len.unwrap_or(0) as usize);
    decode::decoded(body, &codings)
        .take(bounds.least().saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| fetch_error(url, describe_io(&e)))?;
    if bytes.len() as u64 > bounds.least() {
        return Err(bounds.exceeded(url, None));
    }
    Ok(Fetched {
        bytes,
        content_type,
        final_url,
    })
}

/// Where a redirect response points: `None` for an answer that is no
/// redirect; the `Location` as text, or why it is unusable.
fn redirect_target(
    response: &ureq::http::Response<ureq::Body>,
) -> Option<std::result::Result<String, String>> {
    if !matches!(response.status().as_u16(), 301 | 302 | 303 | 307 | 308) {
        return None;
    }
    let location = response.headers().get("location")?;
    Some(
        location
            .to_str()
            .map(str::to_string)
            .map_err(|_| "redirect location is not text".to_string()),
    )
}

/// The two bounds on a body: `--max-part-bytes` (a refusal of the part,
/// exit 1) and the document limit (the input cannot be read whole, exit 2).
/// Whichever is smaller is met first.
struct Bounds {
    cap: Option<u64>,
    limit: u64,
}

impl Bounds {
    fn least(&self) -> u64 {
        self.cap.map_or(self.limit, |cap| cap.min(self.limit))
    }

    fn exceeded(&self, url: &str, declared: Option<u64>) -> Error {
        match self.cap {
            Some(max) if max <= self.limit => too_large(url, max, declared),
            _ => Error::TooLarge {
                path: PathBuf::from(redact_url(url)),
                line: None,
                limit: self.limit,
            },
        }
    }
}

fn too_large(url: &str, max: u64, declared: Option<u64>) -> Error {
    Error::refused(redact_url(url), BodyTooLarge { declared, max })
}

/// A fetched body over the cap (`--max-part-bytes`): the cause of the
/// [`Error::Rejected`] naming the URL.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("body is {}, over the cap of {} bytes", body_size(.declared), group_digits(*.max))]
pub struct BodyTooLarge {
    /// The size the server declared; `None`: the body ran past the cap.
    pub declared: Option<u64>,
    /// The cap, in bytes.
    pub max: u64,
}

fn body_size(declared: &Option<u64>) -> String {
    match declared {
        Some(len) => format!("{} bytes", group_digits(*len)),
        None => "larger".to_string(),
    }
}

fn describe(error: &ureq::Error) -> String {
    match error {
        ureq::Error::Timeout(_) => "timed out".to_string(),
        ureq::Error::TooManyRedirects => "too many redirects".to_string(),
        ureq::Error::HostNotFound => "host not found".to_string(),
        ureq::Error::ConnectionFailed => "connection failed".to_string(),
        ureq::Error::BadUri(uri) => {
            format!("bad URL {}", redact_message(uri))
        }
        ureq::Error::Io(io) => describe_io(io),
        other => redact_message(&other.to_string()),
    }
}

fn describe_io(error: &std::io::Error) -> String {
    // ureq reports its own failures (a timeout while reading the body) as io errors
    // wrapping a ureq::Error.
    if let Some(inner) = error
        .get_ref()
        .and_then(|e| e.downcast_ref::<ureq::Error>())
    {
        return describe(inner);
    }
    if let Some(undecodable) = error
        .get_ref()
        .and_then(|e| e.downcast_ref::<decode::Undecodable>())
    {
        return redact_message(&undecodable.to_string());
    }
    if error.kind() == std::io::ErrorKind::TimedOut {
        return "timed out".to_string();
    }
    redact_message(&error.to_string())
}

/// A URL without its user information, query and fragment: signed URLs carry
/// secrets there, and `user:password@` is a secret outright.
pub fn redact_url(url: &str) -> String {
    let (kept, cut) = match url.find(['?', '#']) {
        Some(at) => (&url[..at], true),
        None => (url, false),
    };
    let without_user = match kept.split_once("://") {
        Some((scheme, rest)) => {
            let authority_end = rest.find('/').unwrap_or(rest.len());
            match rest[..authority_end].rfind('@') {
                Some(at) => format!("{scheme}://{}", &rest[at + 1..]),
                None => kept.to_string(),
            }
        }
        None => kept.to_string(),
    };
    if cut {
        format!("{without_user}?…")
    } else {
        without_user
    }
}

/// Redacts every URL in a message (an HTTP library's error may quote one, such
/// as a redirect's `Location`): user information is removed, and everything from
/// the first `?` on is cut.
pub fn redact_message(message: &str) -> String {
    let message = match message.find('?') {
        Some(at) if message.contains("://") => format!("{}?…", &message[..at]),
        _ => message.to_string(),
    };
    message
        .split(' ')
        .map(|word| {
            if word.contains("://") {
                redact_url(word)
            } else {
                word.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_body_over_the_cap_is_a_rejection_with_a_typed_cause() {
        let error = too_large("https://u:p@h/a.png?k=s", 1_000, Some(2_000));
        assert_eq!(error.exit_code(), 1);
        let cause = std::error::Error::source(&error).and_then(|c| c.downcast_ref());
        assert_eq!(
            cause,
            Some(&BodyTooLarge {
                declared: Some(2_000),
                max: 1_000
            })
        );
        let printed = format!("{:#}", anyhow::Error::from(error));
        assert_eq!(
            printed,
            format!(
                "{}: body is 2,000 bytes, over the cap of 1,000 bytes",
                redact_url("https://u:p@h/a.png?k=s")
            )
        );
        let printed = format!(
            "{:#}",
            anyhow::Error::from(too_large("https://h/a", 10, None))
        );
        assert_eq!(
            printed,
            "https://h/a: body is larger, over the cap of 10 bytes"
        );
    }

    #[test]
    fn urls_lose_their_secrets() {
        assert_eq!(redact_url("https://h/a.png"), "https://h/a.png");
        assert_eq!(redact_url("https://h/a.png?sig=x#f"), "https://h/a.png?…");
        assert_eq!(redact_url("https://u:pw@h:8/a.png"), "https://h:8/a.png");
        assert_eq!(redact_url("https://h/a@b.png"), "https://h/a@b.png");
        assert_eq!(
            redact_message("location header is malformed: http://h/my shot.png?sig=S"),
            "location header is malformed: http://h/my shot.png?…"
        );
        assert_eq!(
            redact_message("bad url http://u:p@h/x"),
            "bad url http://h/x"
        );
    }
}
