//! The AWS event-stream binary framing (`application/vnd.amazon.eventstream`,
//! Bedrock's ConverseStream and InvokeAgent). Each frame is: a 12-byte
//! prelude (total length, headers length, both big-endian u32, then the
//! CRC-32 of those 8 bytes), the headers, the payload, and the CRC-32 of
//! everything before it. Both checksums are checked: a frame that fails one,
//! or that the body ends inside, is reported, never dropped.

use serde_json::Value;

use super::{Event, StreamProblem};

/// The smallest frame: prelude and message checksum, nothing between.
const LEAST: usize = 16;

/// One frame's header value, by its wire type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HeaderValue {
    Bool(bool),
    Byte(i8),
    Short(i16),
    Int(i32),
    Long(i64),
    Bytes(Vec<u8>),
    String(String),
    /// Milliseconds since the epoch.
    Timestamp(i64),
    Uuid([u8; 16]),
}

/// One decoded frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    /// Where it starts in the body.
    pub offset: usize,
    pub headers: Vec<(String, HeaderValue)>,
    pub payload: Vec<u8>,
}

impl Frame {
    /// The string value of header `name`.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find_map(|(key, value)| match value {
            HeaderValue::String(text) if key == name => Some(text.as_str()),
            _ => None,
        })
    }

    /// The frame as an [`Event`]: named by `:event-type` (or, for an
    /// exception or error, `:exception-type` or `:error-code`), its payload
    /// read as JSON when it is.
    pub fn into_event(self) -> Event {
        let kind = self.header(":message-type").unwrap_or("event");
        let exception = kind != "event";
        let name = if exception {
            self.header(":exception-type")
                .or(self.header(":error-code"))
                .unwrap_or(kind)
        } else {
            self.header(":event-type").unwrap_or("")
        };
        let name = (!name.is_empty()).then(|| name.to_string());
        let (data, json) = match serde_json::from_slice::<Value>(&self.payload) {
            Ok(value) => (value, true),
            Err(_) => match self.header(":error-message") {
                Some(message) => (Value::String(message.to_string()), false),
                None => (
                    Value::String(String::from_utf8_lossy(&self.payload).into_owned()),
                    false,
                ),
            },
        };
        Event {
            name,
            id: None,
            data,
            json,
            exception,
        }
    }
}

fn be32(bytes: &[u8]) -> u32 {
    u32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])
}

/// Every frame of `body`, in order, each checked.
pub fn frames(body: &[u8]) -> Result<Vec<Frame>, StreamProblem> {
    let mut frames = Vec::new();
    let mut offset = 0;
    while offset < body.len() {
        let frame = frames.len();
        let rest = &body[offset..];
        if rest.len() < 12 {
            return Err(StreamProblem::CutFrame {
                frame,
                offset,
                needed: 12,
                left: rest.len(),
            });
        }
        let total = be32(rest) as usize;
        let headers_len = be32(&rest[4..]) as usize;
        let prelude_crc = be32(&rest[8..]);
        let computed = crc32fast::hash(&rest[..8]);
        if computed != prelude_crc {
            return Err(StreamProblem::BadChecksum {
                frame,
                offset,
                which: "prelude",
                found: prelude_crc,
                computed,
            });
        }
        if total < LEAST || headers_len > total - LEAST {
            return Err(StreamProblem::BadFrame {
                frame,
                offset,
                message: format!(
                    "a total length of {total} cannot hold {headers_len} bytes of headers"
                ),
            });
        }
        if rest.len() < total {
            return Err(StreamProblem::CutFrame {
                frame,
                offset,
                needed: total,
                left: rest.len(),
            });
        }
        let message_crc = be32(&rest[total - 4..]);
        let computed = crc32fast::hash(&rest[..total - 4]);
        if computed != message_crc {
            return Err(StreamProblem::BadChecksum {
                frame,
                offset,
                which: "message",
                found: message_crc,
                computed,
            });
        }
        let headers =
            headers(&rest[12..12 + headers_len]).map_err(|message| StreamProblem::BadFrame {
                frame,
                offset,
                message,
            })?;
        frames.push(Frame {
            offset,
            headers,
            payload: rest[12 + headers_len..total - 4].to_vec(),
        });
        offset += total;
    }
    Ok(frames)
}

/// A frame's headers: each a 1-byte name length, the name, a 1-byte type
/// and the value (strings and byte arrays after a 2-byte length).
fn headers(mut bytes: &[u8]) -> Result<Vec<(String, HeaderValue)>, String> {
    fn take<'b>(bytes: &mut &'b [u8], count: usize) -> Result<&'b [u8], String> {
        if bytes.len() < count {
            return Err("a header runs past the headers' end".to_string());
        }
        let (head, tail) = bytes.split_at(count);
        *bytes = tail;
        Ok(head)
    }
    fn number<const N: usize>(bytes: &mut &[u8]) -> Result<[u8; N], String> {
        let mut out = [0; N];
        out.copy_from_slice(take(bytes, N)?);
        Ok(out)
    }
    let mut found = Vec::new();
    while !bytes.is_empty() {
        let length = take(&mut bytes, 1)?[0] as usize;
        let name = String::from_utf8(take(&mut bytes, length)?.to_vec())
            .map_err(|_| "a header name is not UTF-8".to_string())?;
        let value =
            match take(&mut bytes, 1)?[0] {
                0 => HeaderValue::Bool(true),
                1 => HeaderValue::Bool(false),
                2 => HeaderValue::Byte(i8::from_be_bytes(number(&mut bytes)?)),
                3 => HeaderValue::Short(i16::from_be_bytes(number(&mut bytes)?)),
                4 => HeaderValue::Int(i32::from_be_bytes(number(&mut bytes)?)),
                5 => HeaderValue::Long(i64::from_be_bytes(number(&mut bytes)?)),
                kind @ (6 | 7) => {
                    let length = u16::from_be_bytes(number(&mut bytes)?) as usize;
                    let value = take(&mut bytes, length)?.to_vec();
                    if kind == 6 {
                        HeaderValue::Bytes(value)
                    } else {
                        HeaderValue::String(String::from_utf8(value).map_err(|_| {
                            format!("header `{name}` is a string that is not UTF-8")
                        })?)
                    }
                }
                8 => HeaderValue::Timestamp(i64::from_be_bytes(number(&mut bytes)?)),
                9 => HeaderValue::Uuid(number(&mut bytes)?),
                other => return Err(format!("header `{name}` has unknown type {other}")),
            };
        found.push((name, value));
    }
    Ok(found)
}
