//! The YAML cassettes: vcrpy, R/Ruby VCR, go-vcr and langchain-aws.

use super::yaml::{Node, Scalar};
use super::{
    redact_uri, unbase64, Body, Format, Headers, Interaction, Recording, Request, Response, Stored,
};

/// Each interaction's request and response nodes, where present.
type Sides<'a> = Vec<(Option<Node<'a>>, Option<Node<'a>>)>;

/// Reads the interactions of a YAML cassette, telling its format by its keys.
/// The tree is consumed: a body's text moves into the body when it is stored
/// as text, and each interaction's nodes are dropped once it is read, so the
/// text of a cassette is not held twice (docs/recordings.md).
pub(super) fn read(mut root: Node<'_>) -> Result<Recording, String> {
    let (format, pairs): (Format, Sides<'_>) = if root
        .get("http_interactions")
        .and_then(Node::items)
        .is_some()
    {
        (
            Format::Vcr,
            sides(take_list(&mut root, "http_interactions")),
        )
    } else if let Some(list) = root.get("interactions").and_then(Node::items) {
        let go = list.iter().any(|item| {
            item.get("request").and_then(|r| r.get("url")).is_some()
                || item.get("response").and_then(|r| r.get("code")).is_some()
        });
        let format = if go { Format::GoVcr } else { Format::Vcrpy };
        (format, sides(take_list(&mut root, "interactions")))
    } else if root.get("requests").and_then(Node::items).is_some()
        && root.get("responses").and_then(Node::items).is_some()
    {
        let requests = take_list(&mut root, "requests");
        let responses = take_list(&mut root, "responses");
        let n = requests.len().max(responses.len());
        let mut requests = requests.into_iter();
        let mut responses = responses.into_iter();
        let pairs = (0..n)
            .map(|_| (requests.next(), responses.next()))
            .collect();
        (Format::LangchainAws, pairs)
    } else {
        return Err(
                "a YAML document, not a cassette (no `interactions`, `http_interactions`, or `requests` and `responses` lists)"
                    .to_string(),
            );
    };
    drop(root);
    let interactions = pairs
        .into_iter()
        .enumerate()
        .map(|(index, (request, response))| Interaction {
            index,
            request: request.map(read_request),
            response: response.map(read_response),
        })
        .collect();
    Ok(Recording {
        format,
        gzipped: false,
        interactions,
    })
}

/// The items of the sequence under `key` in the root mapping, taken out of it.
fn take_list<'a>(root: &mut Node<'a>, key: &str) -> Vec<Node<'a>> {
    match root.get_mut(key) {
        Some(Node::Seq(items, _)) => std::mem::take(items),
        _ => Vec::new(),
    }
}

fn sides(list: Vec<Node<'_>>) -> Sides<'_> {
    list.into_iter()
        .map(|mut item| (item.take("request"), item.take("response")))
        .collect()
}

fn read_request(mut node: Node<'_>) -> Request {
    let headers = read_headers(node.get("headers"));
    let body = read_body(&mut node, &headers);
    Request {
        method: node.get("method").and_then(Node::text).map(str::to_string),
        uri: node
            .get("uri")
            .or_else(|| node.get("url"))
            .and_then(Node::text)
            .map(redact_uri),
        headers,
        body,
    }
}

fn read_response(mut node: Node<'_>) -> Response {
    let headers = read_headers(node.get("headers"));
    let body = read_body(&mut node, &headers);
    // vcrpy and VCR: `status: {code, message}`; R vcr also `status: 200`;
    // go-vcr: `code: 200` and `status: 200 OK`.
    let (status, message) = match node.get("status") {
        Some(status @ Node::Map(..)) => (
            status
                .get("code")
                .and_then(Node::text)
                .and_then(|c| c.parse().ok()),
            status
                .get("message")
                .and_then(Node::text)
                .map(str::to_string),
        ),
        Some(status) => {
            let text = status.text().unwrap_or("");
            let (code, message) = text.split_once(' ').unwrap_or((text, ""));
            (
                code.parse().ok(),
                (!message.is_empty()).then(|| message.to_string()),
            )
        }
        None => (None, None),
    };
    let status = status.or_else(|| {
        node.get("code")
            .and_then(Node::text)
            .and_then(|c| c.parse().ok())
    });
    Response {
        status,
        message,
        headers,
        body,
    }
}

/// Headers as a mapping of names to a value or a list of values; a value
/// stored as `!!binary` is decoded (as text, where it is UTF-8).
fn read_headers(node: Option<&Node<'_>>) -> Headers {
    let mut headers = Headers::default();
    let Some(entries) = node.and_then(Node::entries) else {
        return headers;
    };
    for (name, value) in entries {
        let Some(name) = name.text() else { continue };
        let values: Vec<&Node<'_>> = match value {
            Node::Seq(items, _) => items.iter().collect(),
            other => vec![other],
        };
        for value in values {
            let text = match value {
                Node::Scalar(scalar) if scalar.is_binary() => match unbase64(&scalar.text) {
                    Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
                    Err(_) => scalar.text.to_string(),
                },
                Node::Scalar(scalar) => scalar.text.to_string(),
                other => other.to_json().to_string(),
            };
            headers.push(name, &text);
        }
    }
    headers
}

/// The body of a request or response node: `parsed_body` (a mapping written
/// back as JSON), or `body` as a scalar, `{string: …}` or
/// `{base64_string: …}`.
fn read_body(node: &mut Node<'_>, headers: &Headers) -> Body {
    if let Some(parsed) = node.get_mut("parsed_body").filter(|n| !n.is_null()) {
        return match parsed {
            Node::Scalar(scalar) => scalar_body(scalar, headers),
            structured => {
                let text = structured.to_json().to_string();
                Body::new(
                    text.into_bytes(),
                    Some(structured.line()),
                    Stored::Structured,
                    headers,
                )
            }
        };
    }
    match node.get_mut("body") {
        None => Body::absent(),
        Some(Node::Scalar(scalar)) => scalar_body(scalar, headers),
        Some(map @ Node::Map(..)) => {
            let line = map.line();
            if let Some(Node::Scalar(scalar)) = map.get_mut("base64_string") {
                // Base64 whether tagged or not; a null is no body.
                if scalar.is_null() {
                    return scalar_body(scalar, headers);
                }
                return decoded(scalar, headers);
            }
            match map.get_mut("string") {
                Some(Node::Scalar(scalar)) => scalar_body(scalar, headers),
                Some(other) => {
                    let text = other.to_json().to_string();
                    Body::new(
                        text.into_bytes(),
                        Some(other.line()),
                        Stored::Structured,
                        headers,
                    )
                }
                None => {
                    let mut body = Body::absent();
                    body.line = Some(line);
                    body.note = Some(
                        "a body mapping with neither `string` nor `base64_string`".to_string(),
                    );
                    body
                }
            }
        }
        Some(Node::Seq(_, line)) => {
            let mut body = Body::absent();
            body.line = Some(*line);
            body.note = Some("a body recorded as a list; not read".to_string());
            body
        }
    }
}

fn scalar_body(scalar: &mut Scalar<'_>, headers: &Headers) -> Body {
    if scalar.is_null() {
        let mut body = Body::absent();
        body.line = Some(scalar.line);
        return body;
    }
    if scalar.is_binary() {
        return decoded(scalar, headers);
    }
    Body::new(take_text(scalar), Some(scalar.line), Stored::Text, headers)
}

/// A scalar's text as bytes, moved out of the tree when it owns it.
fn take_text(scalar: &mut Scalar<'_>) -> Vec<u8> {
    std::mem::take(&mut scalar.text).into_owned().into_bytes()
}

/// A scalar holding base64: its bytes, or the text kept with a note when it
/// does not decode.
fn decoded(scalar: &mut Scalar<'_>, headers: &Headers) -> Body {
    match unbase64(&scalar.text) {
        Ok(bytes) => Body::new(bytes, Some(scalar.line), Stored::Base64, headers),
        Err(e) => {
            let mut body = Body::new(take_text(scalar), Some(scalar.line), Stored::Text, headers);
            body.note = Some(format!(
                "tagged as base64 but is not ({e}); kept as written"
            ));
            body
        }
    }
}
