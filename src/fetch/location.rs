//! Where a redirect leads: a `Location` resolved against the URL that
//! answered it (RFC 3986 §5.2), or refused when it names a scheme other than
//! http(s).
//!
//! Why this is done here and not left to the HTTP client: ureq joins a
//! `Location` it cannot parse as an absolute `http::Uri` (`file:///etc/passwd`,
//! `mailto:…`) as a path on the same host, and asks for
//! `GET /file:///etc/passwd` instead of refusing. So redirects are followed
//! one at a time, and each target is checked before it is asked for.

use super::redact_url;

/// Why a redirect is not followed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Unfollowed {
    /// To a scheme other than http(s); the target as messages show it.
    OtherScheme(String),
    /// To something that is no URL.
    BadLocation(String),
}

impl Unfollowed {
    /// The reason, for a message about fetching a URL; `from` names the URL
    /// that redirected when it is not that one (a later hop).
    pub(super) fn says(&self, from: Option<&str>) -> String {
        let from = from
            .map(|url| format!(" from {}", redact_url(url)))
            .unwrap_or_default();
        match self {
            Unfollowed::OtherScheme(target) => {
                format!("redirect{from} to {target} refused (only http and https are followed)")
            }
            Unfollowed::BadLocation(target) => format!("bad redirect location{from}: {target}"),
        }
    }
}

/// The URL a redirect from `base` (an absolute http(s) URL) to `location`
/// asks for next, without a fragment (a fragment is never sent); or why it
/// is not followed.
pub(super) fn follow(base: &str, location: &str) -> Result<String, Unfollowed> {
    let location = location.trim();
    let resolved = match scheme_of(location) {
        Some(scheme)
            if scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https") =>
        {
            format!(
                "{}{}",
                scheme.to_ascii_lowercase(),
                &location[scheme.len()..]
            )
        }
        Some(_) => return Err(Unfollowed::OtherScheme(shown(location))),
        None => resolve(base, location),
    };
    let resolved = match resolved.find('#') {
        Some(at) => resolved[..at].to_string(),
        None => resolved,
    };
    if resolved.parse::<ureq::http::Uri>().is_err() {
        return Err(Unfollowed::BadLocation(shown(location)));
    }
    Ok(resolved)
}

/// A redirect target as messages show it: without credentials or query,
/// a `data:` URL without its payload, and cut short.
fn shown(location: &str) -> String {
    let redacted = if location
        .get(..5)
        .is_some_and(|s| s.eq_ignore_ascii_case("data:"))
    {
        match location.split_once(',') {
            Some((header, _)) => format!("{header},…"),
            None => location.to_string(),
        }
    } else {
        redact_url(location)
    };
    crate::echo::plain(&redacted).to_string()
}

/// The scheme of an absolute URL (`ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`
/// before the first `:`), or `None` for a relative reference.
fn scheme_of(reference: &str) -> Option<&str> {
    let end = reference.find(':')?;
    let scheme = &reference[..end];
    let mut chars = scheme.chars();
    let first = chars.next()?;
    let valid = first.is_ascii_alphabetic()
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    valid.then_some(scheme)
}

/// A relative reference resolved against `base`.
fn resolve(base: &str, reference: &str) -> String {
    let (scheme, rest) = base.split_once("://").unwrap_or(("http", base));
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, after) = rest.split_at(authority_end);
    let path_end = after.find(['?', '#']).unwrap_or(after.len());
    let (base_path, base_tail) = after.split_at(path_end);
    let base_query = match base_tail.find('#') {
        Some(at) => &base_tail[..at],
        None => base_tail,
    };
    if let Some(network) = reference.strip_prefix("//") {
        return format!("{scheme}://{network}");
    }
    let (ref_path, ref_tail) =
        reference.split_at(reference.find(['?', '#']).unwrap_or(reference.len()));
    let (path, tail) = if ref_path.is_empty() {
        // A query, a fragment, or nothing: the base's path, with the base's
        // query unless the reference has its own.
        let tail = if ref_tail.starts_with('?') {
            ref_tail.to_string()
        } else {
            format!("{base_query}{ref_tail}")
        };
        (base_path.to_string(), tail)
    } else if ref_path.starts_with('/') {
        (remove_dot_segments(ref_path), ref_tail.to_string())
    } else {
        let merged = match base_path.rfind('/') {
            Some(at) => format!("{}{ref_path}", &base_path[..=at]),
            None => format!("/{ref_path}"),
        };
        (remove_dot_segments(&merged), ref_tail.to_string())
    };
    let path = if path.is_empty() {
        "/".to_string()
    } else {
        path
    };
    format!("{scheme}://{authority}{path}{tail}")
}

/// RFC 3986 §5.2.4: `.` and `..` segments taken out of a path.
fn remove_dot_segments(path: &str) -> String {
    let mut output: Vec<&str> = Vec::new();
    let segments: Vec<&str> = path.split('/').collect();
    let last = segments.len() - 1;
    for (index, segment) in segments.iter().enumerate() {
        match *segment {
            "." => {
                if index == last {
                    output.push("");
                }
            }
            ".." => {
                if output.len() > 1 {
                    output.pop();
                }
                if index == last {
                    output.push("");
                }
            }
            other => output.push(other),
        }
    }
    let joined = output.join("/");
    if path.starts_with('/') && !joined.starts_with('/') {
        format!("/{joined}")
    } else {
        joined
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 3986 §5.4's examples, on an http base.
    #[test]
    fn relative_references_resolve_as_rfc_3986_says() {
        let base = "http://a/b/c/d;p?q";
        let cases = [
            ("g", "http://a/b/c/g"),
            ("./g", "http://a/b/c/g"),
            ("g/", "http://a/b/c/g/"),
            ("/g", "http://a/g"),
            ("//g", "http://g"),
            ("?y", "http://a/b/c/d;p?y"),
            ("g?y", "http://a/b/c/g?y"),
            ("#s", "http://a/b/c/d;p?q#s"),
            ("g#s", "http://a/b/c/g#s"),
            (";x", "http://a/b/c/;x"),
            ("", "http://a/b/c/d;p?q"),
            (".", "http://a/b/c/"),
            ("./", "http://a/b/c/"),
            ("..", "http://a/b/"),
            ("../", "http://a/b/"),
            ("../g", "http://a/b/g"),
            ("../..", "http://a/"),
            ("../../g", "http://a/g"),
            ("../../../g", "http://a/g"),
            ("/./g", "http://a/g"),
            ("/../g", "http://a/g"),
            ("g.", "http://a/b/c/g."),
            ("..g", "http://a/b/c/..g"),
            ("./../g", "http://a/b/g"),
            ("g/./h", "http://a/b/c/g/h"),
            ("g/../h", "http://a/b/c/h"),
        ];
        for (reference, expected) in cases {
            assert_eq!(resolve(base, reference), expected, "{reference:?}");
        }
        assert_eq!(resolve("https://h:8", "x.png"), "https://h:8/x.png");
        assert_eq!(resolve("https://h?q", "/x"), "https://h/x");
    }

    #[test]
    fn http_targets_are_followed_without_their_fragment() {
        let base = "http://a/b/c";
        assert_eq!(follow(base, "HTTPS://x/y#f").unwrap(), "https://x/y");
        assert_eq!(follow(base, " ../y.png ").unwrap(), "http://a/y.png");
        assert_eq!(follow(base, "//x:81/y").unwrap(), "http://x:81/y");
    }

    #[test]
    fn other_schemes_are_refused_and_shown_without_secrets() {
        for location in [
            "file:///etc/passwd",
            "ftp://h/x.png",
            "javascript:alert(1)",
            "mailto:a@b",
            "gopher://h",
        ] {
            let refused = follow("http://a/b", location).unwrap_err();
            assert_eq!(refused, Unfollowed::OtherScheme(location.to_string()));
            assert_eq!(
                refused.says(None),
                format!("redirect to {location} refused (only http and https are followed)")
            );
        }
        let refused = follow("http://a/", "file://u:secret@h/p?token=secret").unwrap_err();
        assert_eq!(
            refused.says(Some("http://u:pw@a/hop?k=secret")),
            "redirect from http://a/hop?… to file://h/p?… refused (only http and https are followed)"
        );
        let payload = "A".repeat(10_000);
        let refused = follow("http://a/", &format!("data:image/png;base64,{payload}")).unwrap_err();
        assert_eq!(
            refused,
            Unfollowed::OtherScheme("data:image/png;base64,…".to_string())
        );
        let long = format!("file:///{}", "x".repeat(10_000));
        assert!(follow("http://a/", &long).unwrap_err().says(None).len() < 300);
    }

    #[test]
    fn a_target_that_is_no_url_is_refused_without_its_query() {
        let refused = follow("http://a/", "http://h/my shot.png?sig=S").unwrap_err();
        assert_eq!(
            refused.says(None),
            "bad redirect location: http://h/my shot.png?…"
        );
    }
}
