//! HAR 1.2 files (`log.entries[]`), as Polly.js and browsers write them.

use serde_json::Value;

use super::{
    line_at, redact_uri, unbase64, Body, Format, Headers, Interaction, Recording, Request,
    Response, Stored,
};
use crate::json::raw_span;

use super::span_in;

/// Reads the entries of a HAR file; `bytes` is its text, for the line each
/// body starts on.
pub(super) fn read(bytes: &[u8], entries: &[Value]) -> Recording {
    let list = raw_span(bytes, "/log/entries");
    let interactions = entries
        .iter()
        .enumerate()
        .map(|(index, entry)| {
            let entry_span = list.and_then(|list| span_in(bytes, list, &format!("/{index}")));
            let at = |pointer: &str| {
                entry_span
                    .and_then(|entry| span_in(bytes, entry, &format!("/{pointer}")))
                    .map(|(start, _)| line_at(bytes, start))
            };
            let request = entry.get("request").map(|request| {
                let headers = headers_of(request);
                let post = request.get("postData");
                let body = match post.and_then(|p| p.get("text")).and_then(Value::as_str) {
                    Some(text) => Body::new(
                        text.as_bytes().to_vec(),
                        at("request/postData/text"),
                        Stored::Text,
                        &headers,
                    ),
                    None => {
                        let mut body = Body::absent();
                        let params = post.and_then(|p| p.get("params")).and_then(Value::as_array);
                        if params.is_some_and(|p| !p.is_empty()) {
                            body.line = at("request/postData/params");
                            body.note = Some(
                                "form fields (`postData.params`) with no text; not read"
                                    .to_string(),
                            );
                        }
                        body
                    }
                };
                Request {
                    method: request
                        .get("method")
                        .and_then(Value::as_str)
                        .map(str::to_string),
                    uri: request.get("url").and_then(Value::as_str).map(redact_uri),
                    headers,
                    body,
                }
            });
            let response = entry.get("response").map(|response| {
                let headers = headers_of(response);
                let content = response.get("content");
                let body = match content.and_then(|c| c.get("text")).and_then(Value::as_str) {
                    Some(text) => {
                        let line = at("response/content/text");
                        let base64 = content
                            .and_then(|c| c.get("encoding"))
                            .and_then(Value::as_str)
                            == Some("base64");
                        if base64 {
                            match unbase64(text) {
                                Ok(decoded) => Body::new(decoded, line, Stored::Base64, &headers),
                                Err(e) => {
                                    let mut body = Body::new(
                                        text.as_bytes().to_vec(),
                                        line,
                                        Stored::Text,
                                        &headers,
                                    );
                                    body.note = Some(format!(
                                        "`encoding: base64` but is not ({e}); kept as written"
                                    ));
                                    body
                                }
                            }
                        } else {
                            Body::new(text.as_bytes().to_vec(), line, Stored::Text, &headers)
                        }
                    }
                    None => Body::absent(),
                };
                Response {
                    status: response
                        .get("status")
                        .and_then(Value::as_u64)
                        .and_then(|s| u16::try_from(s).ok())
                        .filter(|s| *s != 0),
                    message: response
                        .get("statusText")
                        .and_then(Value::as_str)
                        .filter(|s| !s.is_empty())
                        .map(str::to_string),
                    headers,
                    body,
                }
            });
            Interaction {
                index,
                request,
                response,
            }
        })
        .collect();
    Recording {
        format: Format::Har,
        gzipped: false,
        interactions,
    }
}

fn headers_of(side: &Value) -> Headers {
    let mut headers = Headers::default();
    for header in side
        .get("headers")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let (Some(name), Some(value)) = (
            header.get("name").and_then(Value::as_str),
            header.get("value").and_then(Value::as_str),
        ) {
            headers.push(name, value);
        }
    }
    headers
}
