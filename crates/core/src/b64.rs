//! Base64 as parts carry it: strict reading where a rule demands it, lenient reading
//! (line breaks, no padding, URL-safe alphabet) elsewhere, and sizes without decoding.
//! Each reads the text it is given: a caller that may hold the placeholder of a
//! payload lent from the input resolves it first
//! (`crate::json::lent::Lending::with_resolved`).

use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig, STANDARD};
use base64::engine::DecodePaddingMode;
use base64::Engine;

/// The longest prefix of a payload that messages may show (docs/limits.md).
pub const SHOWN_PREFIX: usize = 32;

/// Why a base64 payload was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Base64Error {
    #[error("invalid base64: empty payload")]
    Empty,
    #[error("invalid base64: character {} at offset {offset}", describe_byte(*.byte))]
    InvalidByte { offset: usize, byte: u8 },
    #[error("invalid base64: length {len} is not a multiple of 4")]
    Length { len: usize },
    #[error("invalid base64: bad padding")]
    Padding,
    #[error(
        "invalid base64: the last character at offset {offset} has bits set that no byte uses"
    )]
    LastSymbol { offset: usize },
}

fn describe_byte(byte: u8) -> String {
    if byte.is_ascii_graphic() {
        format!("{:?}", byte as char)
    } else {
        format!("0x{byte:02x}")
    }
}

impl From<base64::DecodeError> for Base64Error {
    fn from(error: base64::DecodeError) -> Self {
        match error {
            base64::DecodeError::InvalidByte(offset, b'=') => {
                let _ = offset;
                Base64Error::Padding
            }
            base64::DecodeError::InvalidByte(offset, byte) => {
                Base64Error::InvalidByte { offset, byte }
            }
            base64::DecodeError::InvalidLength(len) => Base64Error::Length { len },
            base64::DecodeError::InvalidLastSymbol(offset, _) => Base64Error::LastSymbol { offset },
            base64::DecodeError::InvalidPadding => Base64Error::Padding,
        }
    }
}

/// What lenient decoding had to forgive, for a warning.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Leniency {
    pub whitespace: bool,
    pub url_safe: bool,
    pub unpadded: bool,
}

impl Leniency {
    /// Whether the payload was already canonical.
    pub fn is_canonical(&self) -> bool {
        !(self.whitespace || self.url_safe || self.unpadded)
    }

    /// A description such as `line-wrapped, URL-safe`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if self.whitespace {
            parts.push("line-wrapped");
        }
        if self.url_safe {
            parts.push("URL-safe");
        }
        if self.unpadded {
            parts.push("unpadded");
        }
        parts.join(", ")
    }
}

/// Encodes bytes as canonical (standard, padded) base64.
pub fn encode(bytes: &[u8]) -> String {
    STANDARD.encode(bytes)
}

/// Decodes canonical base64 strictly: standard alphabet, correct padding, no
/// whitespace, no stray bits in the last character.
pub fn decode_strict(text: &str) -> Result<Vec<u8>, Base64Error> {
    if text.is_empty() {
        return Err(Base64Error::Empty);
    }
    // The SIMD decoder first (a sixth of the time); what it refuses, the
    // scalar one refuses too and says where and why.
    if let Ok(bytes) = base64_simd::STANDARD.decode_to_vec(text) {
        return Ok(bytes);
    }
    if !text.len().is_multiple_of(4) {
        return Err(
            first_bad_byte(text.as_bytes()).unwrap_or(Base64Error::Length { len: text.len() })
        );
    }
    STANDARD.decode(text).map_err(Base64Error::from)
}

/// [`decode_strict`] into `out` (cleared first; reused between calls).
pub fn decode_strict_into(text: &str, out: &mut Vec<u8>) -> Result<(), Base64Error> {
    out.clear();
    if base64_simd::STANDARD.decode_append(text, out).is_ok() && !text.is_empty() {
        return Ok(());
    }
    out.clear();
    decode_strict(text).map(|bytes| out.extend_from_slice(&bytes))
}

/// Checks base64 strictly, decoding into `scratch` (reused between calls so that a
/// scan of many payloads allocates once).
pub fn check_strict(text: &str, scratch: &mut Vec<u8>) -> Result<usize, Base64Error> {
    if text.is_empty() {
        return Err(Base64Error::Empty);
    }
    if !text.len().is_multiple_of(4) {
        return Err(
            first_bad_byte(text.as_bytes()).unwrap_or(Base64Error::Length { len: text.len() })
        );
    }
    scratch.clear();
    STANDARD
        .decode_vec(text, scratch)
        .map_err(Base64Error::from)?;
    Ok(scratch.len())
}

fn first_bad_byte(bytes: &[u8]) -> Option<Base64Error> {
    let body_end = bytes.iter().rposition(|&b| b != b'=').map_or(0, |i| i + 1);
    bytes[..body_end]
        .iter()
        .position(|&b| !(b.is_ascii_alphanumeric() || b == b'+' || b == b'/'))
        .map(|offset| Base64Error::InvalidByte {
            offset,
            byte: bytes[offset],
        })
}

const LENIENT_STANDARD: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);
const LENIENT_URL_SAFE: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::URL_SAFE,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// Decodes base64 leniently: ASCII whitespace is ignored, padding may be missing,
/// and the URL-safe alphabet is accepted. Reports what it forgave.
pub fn decode_lenient(text: &str) -> Result<(Vec<u8>, Leniency), Base64Error> {
    let mut leniency = Leniency::default();
    let compact: std::borrow::Cow<'_, str> = if text.bytes().any(|b| b.is_ascii_whitespace()) {
        leniency.whitespace = true;
        text.chars()
            .filter(|c| !c.is_ascii_whitespace())
            .collect::<String>()
            .into()
    } else {
        text.into()
    };
    if compact.is_empty() {
        return Err(Base64Error::Empty);
    }
    leniency.unpadded = !compact.len().is_multiple_of(4);
    let url_safe = compact.bytes().any(|b| b == b'-' || b == b'_');
    let standard = compact.bytes().any(|b| b == b'+' || b == b'/');
    let engine = if url_safe && !standard {
        leniency.url_safe = true;
        &LENIENT_URL_SAFE
    } else {
        &LENIENT_STANDARD
    };
    let bytes = engine
        .decode(compact.as_bytes())
        .map_err(Base64Error::from)?;
    Ok((bytes, leniency))
}

/// The decoded size of canonical padded base64, computed from its length and
/// padding without decoding. `None` when the length is not a multiple of four.
pub fn decoded_len(text: &str) -> Option<u64> {
    let bytes = text.as_bytes();
    if !bytes.len().is_multiple_of(4) {
        return None;
    }
    let padding = bytes
        .iter()
        .rev()
        .take(2)
        .take_while(|&&b| b == b'=')
        .count();
    Some((bytes.len() / 4 * 3 - padding) as u64)
}

/// The length of the canonical base64 text for `n` bytes.
pub fn encoded_len(n: u64) -> u64 {
    n.div_ceil(3) * 4
}

/// At most the first `SHOWN_PREFIX` characters of a payload, marked when cut.
pub fn preview(payload: &str) -> String {
    match payload.char_indices().nth(SHOWN_PREFIX) {
        Some((cut, _)) => format!("{}…", &payload[..cut]),
        None => payload.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_accepts_only_canonical() {
        assert_eq!(decode_strict("aGVsbG8=").unwrap(), b"hello");
        assert_eq!(decode_strict("aGk=").unwrap(), b"hi");
        assert_eq!(decode_strict(""), Err(Base64Error::Empty));
        assert_eq!(
            decode_strict("aGVsbG8"),
            Err(Base64Error::Length { len: 7 })
        );
        assert_eq!(
            decode_strict("aGVs\nbG8="),
            Err(Base64Error::InvalidByte {
                offset: 4,
                byte: b'\n'
            })
        );
        assert_eq!(
            decode_strict("aGV*bG8="),
            Err(Base64Error::InvalidByte {
                offset: 3,
                byte: b'*'
            })
        );
        assert_eq!(
            decode_strict("aGVsbG8_"),
            Err(Base64Error::InvalidByte {
                offset: 7,
                byte: b'_'
            })
        );
        assert_eq!(decode_strict("aGk=aGk="), Err(Base64Error::Padding));
        // "aGl=" has bits in the last symbol that no byte uses.
        assert!(matches!(
            decode_strict("aGl="),
            Err(Base64Error::LastSymbol { .. })
        ));
    }

    #[test]
    fn lenient_forgives_and_says_what() {
        let (bytes, how) = decode_lenient("aGVs\r\nbG8=").unwrap();
        assert_eq!(bytes, b"hello");
        assert!(how.whitespace && !how.unpadded && !how.url_safe);
        let (bytes, how) = decode_lenient("aGVsbG8").unwrap();
        assert_eq!(bytes, b"hello");
        assert!(how.unpadded);
        let (bytes, how) = decode_lenient("-_8").unwrap();
        assert_eq!(bytes, [0xfb, 0xff]);
        assert!(how.url_safe && how.unpadded);
        assert_eq!(how.describe(), "URL-safe, unpadded");
        let (_, how) = decode_lenient("aGVsbG8=").unwrap();
        assert!(how.is_canonical());
        assert!(decode_lenient("a*b=").is_err());
        assert_eq!(decode_lenient(" \n"), Err(Base64Error::Empty));
    }

    #[test]
    fn sizes_without_decoding() {
        assert_eq!(decoded_len("aGVsbG8="), Some(5));
        assert_eq!(decoded_len("aGk="), Some(2));
        assert_eq!(decoded_len("aGVsbG8h"), Some(6));
        assert_eq!(decoded_len(""), Some(0));
        assert_eq!(decoded_len("abc"), None);
        for n in 0..20u64 {
            let text = encode(&vec![7u8; n as usize]);
            assert_eq!(decoded_len(&text), Some(n));
            assert_eq!(encoded_len(n), text.len() as u64);
        }
    }

    #[test]
    fn previews_are_cut() {
        let long = "A".repeat(100);
        assert_eq!(preview(&long).chars().count(), SHOWN_PREFIX + 1);
        assert_eq!(preview("abc"), "abc");
    }

    #[test]
    fn the_simd_decoder_accepts_only_what_the_scalar_one_does() {
        // Every text of up to 8 characters over a small alphabet that covers
        // the cases (padding, unused bits, bad bytes), both ways.
        let alphabet = [b'A', b'Q', b'g', b'/', b'=', b'-'];
        for len in 0..=8u32 {
            for n in 0..alphabet.len().pow(len) {
                let text: Vec<u8> = (0..len)
                    .map(|i| alphabet[n / alphabet.len().pow(i) % alphabet.len()])
                    .collect();
                let text = std::str::from_utf8(&text).unwrap();
                let simd = base64_simd::STANDARD.decode_to_vec(text).ok();
                let scalar = STANDARD.decode(text).ok().filter(|_| !text.is_empty());
                assert_eq!(simd.filter(|_| !text.is_empty()), scalar, "{text:?}");
            }
        }
    }

    #[test]
    fn check_strict_reuses_scratch() {
        let mut scratch = Vec::new();
        assert_eq!(check_strict("aGVsbG8=", &mut scratch), Ok(5));
        assert_eq!(scratch, b"hello");
        assert!(check_strict("aGV", &mut scratch).is_err());
    }
}
