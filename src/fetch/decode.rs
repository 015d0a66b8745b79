//! The content codings of a fetched body (`Content-Encoding`): gzip and
//! deflate are decoded as the body is read, anything else is refused, so
//! that what is sniffed, capped and inlined is the resource itself and not
//! its compressed form.
//!
//! ureq's own decoding (its `gzip` feature) is not used: it recognizes only
//! a header that is exactly `gzip`, has no deflate, and passes any other
//! coding through as if it were the body. One decoder for every coding the
//! header lists keeps a single rule: the bytes counted against the limits
//! are the decoded ones, so a small compressed body that inflates without
//! end stops at the limit like any endless body.

use std::fmt;
use std::io::{self, Cursor, Read};

use flate2::read::{DeflateDecoder, MultiGzDecoder, ZlibDecoder};

/// The most codings one body may be wrapped in: each is a decoder with its
/// own window, and real servers apply one.
const MAX_CODINGS: usize = 3;

/// A content coding partkit decodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Coding {
    Gzip,
    /// zlib-wrapped (RFC 9110), or raw deflate as some servers send it.
    Deflate,
}

impl Coding {
    fn name(self) -> &'static str {
        match self {
            Coding::Gzip => "gzip",
            Coding::Deflate => "deflate",
        }
    }
}

/// The codings `Content-Encoding` lists (every field line, comma-separated),
/// in the order the server applied them; `identity` is none. An unknown
/// coding is refused, said for a message.
pub(super) fn codings<'a>(values: impl Iterator<Item = &'a [u8]>) -> Result<Vec<Coding>, String> {
    let mut codings = Vec::new();
    for value in values {
        let value = String::from_utf8_lossy(value);
        for token in value.split(',').map(str::trim) {
            let coding = match token.to_ascii_lowercase().as_str() {
                "" | "identity" => continue,
                "gzip" | "x-gzip" => Coding::Gzip,
                "deflate" => Coding::Deflate,
                _ => {
                    return Err(format!(
                        "content encoding {} is not supported (gzip and deflate are)",
                        crate::echo::quoted(token)
                    ))
                }
            };
            codings.push(coding);
            if codings.len() > MAX_CODINGS {
                return Err(format!(
                    "more than {MAX_CODINGS} content encodings (Content-Encoding: {})",
                    crate::echo::plain(&value)
                ));
            }
        }
    }
    Ok(codings)
}

/// `body` with `codings` undone, last applied first. A decoder's failure
/// reads as an [`io::Error`] carrying an [`Undecodable`]; the body's own
/// failures (a timeout, a reset) come through as they were.
pub(super) fn decoded<'a>(body: impl Read + 'a, codings: &[Coding]) -> Box<dyn Read + 'a> {
    if codings.is_empty() {
        return Box::new(body);
    }
    let mut reader: Box<dyn Read + 'a> = Box::new(Marked(body));
    for &coding in codings.iter().rev() {
        let inner: Box<dyn Read + 'a> = match coding {
            Coding::Gzip => Box::new(MultiGzDecoder::new(reader)),
            Coding::Deflate => Box::new(Inflate::Undecided(Some(reader))),
        };
        reader = Box::new(Decoding { inner, coding });
    }
    Box::new(Unmarked(reader))
}

/// A body that does not decode as its `Content-Encoding` says.
#[derive(Debug)]
pub(super) struct Undecodable {
    coding: Coding,
    source: io::Error,
}

impl fmt::Display for Undecodable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the body does not decode as {} ({})",
            self.coding.name(),
            self.source
        )
    }
}

impl std::error::Error for Undecodable {}

/// A failure of the body under the decoders, carried through them.
#[derive(Debug)]
struct Transport(io::Error);

impl fmt::Display for Transport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for Transport {}

struct Marked<R>(R);

impl<R: Read> Read for Marked<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0
            .read(buf)
            .map_err(|error| io::Error::new(error.kind(), Transport(error)))
    }
}

/// A decoder whose own failures become [`Undecodable`].
struct Decoding<'a> {
    inner: Box<dyn Read + 'a>,
    coding: Coding,
}

impl Read for Decoding<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.read(buf).map_err(|error| {
            let passed = error
                .get_ref()
                .is_some_and(|inner| inner.is::<Transport>() || inner.is::<Undecodable>());
            if passed {
                error
            } else {
                io::Error::new(
                    io::ErrorKind::InvalidData,
                    Undecodable {
                        coding: self.coding,
                        source: error,
                    },
                )
            }
        })
    }
}

/// The decoders' output, with the body's own failures as they were.
struct Unmarked<'a>(Box<dyn Read + 'a>);

impl Read for Unmarked<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf).map_err(|error| {
            if !error.get_ref().is_some_and(|inner| inner.is::<Transport>()) {
                return error;
            }
            match error
                .into_inner()
                .map(|inner| inner.downcast::<Transport>())
            {
                Some(Ok(transport)) => transport.0,
                _ => unreachable!("checked to be a transport error"),
            }
        })
    }
}

/// Deflate, zlib-wrapped or raw: which one is told by the first two bytes
/// (a zlib header names method 8 and is a multiple of 31).
enum Inflate<'a> {
    Undecided(Option<Box<dyn Read + 'a>>),
    Decoding(Box<dyn Read + 'a>),
}

impl Read for Inflate<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let Inflate::Undecided(body) = self {
            let mut body = body.take().expect("an undecided stream has its body");
            let mut head = [0u8; 2];
            let mut filled = 0;
            while filled < 2 {
                match body.read(&mut head[filled..]) {
                    Ok(0) => break,
                    Ok(n) => filled += n,
                    Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                    Err(error) => {
                        *self = Inflate::Undecided(Some(body));
                        return Err(error);
                    }
                }
            }
            let zlib =
                filled == 2 && head[0] & 0x0F == 8 && u16::from_be_bytes(head).is_multiple_of(31);
            let whole = Cursor::new(head[..filled].to_vec()).chain(body);
            *self = Inflate::Decoding(if zlib {
                Box::new(ZlibDecoder::new(whole))
            } else {
                Box::new(DeflateDecoder::new(whole))
            });
        }
        match self {
            Inflate::Decoding(decoder) => decoder.read(buf),
            Inflate::Undecided(_) => unreachable!("decided above"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn codings_of(header: &str) -> Result<Vec<Coding>, String> {
        codings(std::iter::once(header.as_bytes()))
    }

    #[test]
    fn the_header_lists_codings_in_the_order_applied() {
        assert_eq!(codings_of(""), Ok(vec![]));
        assert_eq!(codings_of("identity"), Ok(vec![]));
        assert_eq!(codings_of("GZIP"), Ok(vec![Coding::Gzip]));
        assert_eq!(
            codings_of("x-gzip, Deflate"),
            Ok(vec![Coding::Gzip, Coding::Deflate])
        );
        let refused = codings_of("gzip, br").unwrap_err();
        assert_eq!(
            refused,
            "content encoding \"br\" is not supported (gzip and deflate are)"
        );
        assert!(codings_of(&"gzip,".repeat(1000)).unwrap_err().len() < 300);
    }

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), Default::default());
        encoder.write_all(data).unwrap();
        encoder.finish().unwrap()
    }

    fn read_all(mut reader: Box<dyn Read + '_>) -> io::Result<Vec<u8>> {
        let mut out = Vec::new();
        reader.read_to_end(&mut out).map(|_| out)
    }

    #[test]
    fn codings_are_undone_last_first() {
        let data = b"the resource itself".repeat(100);
        let mut zlib = flate2::write::ZlibEncoder::new(Vec::new(), Default::default());
        zlib.write_all(&gzip(&data)).unwrap();
        let twice = zlib.finish().unwrap();
        let reader = decoded(&twice[..], &[Coding::Gzip, Coding::Deflate]);
        assert_eq!(read_all(reader).unwrap(), data);
        let mut raw = flate2::write::DeflateEncoder::new(Vec::new(), Default::default());
        raw.write_all(&data).unwrap();
        let raw = raw.finish().unwrap();
        assert_eq!(
            read_all(decoded(&raw[..], &[Coding::Deflate])).unwrap(),
            data
        );
    }

    #[test]
    fn a_body_that_does_not_decode_says_so_and_a_transport_failure_stays_one() {
        let broken = gzip(b"some bytes");
        let error = read_all(decoded(&broken[..12], &[Coding::Gzip])).unwrap_err();
        let cause = error
            .get_ref()
            .and_then(|e| e.downcast_ref::<Undecodable>());
        assert!(cause.is_some_and(|c| c.coding == Coding::Gzip), "{error:?}");
        assert!(error
            .to_string()
            .starts_with("the body does not decode as gzip"));

        struct Failing;
        impl Read for Failing {
            fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
                Err(io::Error::new(io::ErrorKind::TimedOut, "slow"))
            }
        }
        for coding in [Coding::Gzip, Coding::Deflate] {
            let error = read_all(decoded(Failing, &[coding])).unwrap_err();
            assert_eq!(error.kind(), io::ErrorKind::TimedOut);
            assert_eq!(error.to_string(), "slow");
        }
    }
}
