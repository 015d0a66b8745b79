//! Eight bytes of a JSON string looked at in one `u64`.
//!
//! Why: most strings of a small document are keys and short values of a few
//! to a few dozen bytes. For those, a call to a vector search (`memchr2`)
//! and a second pass for control characters cost more than the string's
//! bytes; a word at a time finds the string's end and its bytes to escape in
//! a few instructions, with no call (docs/speed.md, "Short strings").

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `word` that is zero. A byte above a zero may
/// be marked too (a borrow carries into it), never one below: the lowest mark
/// is exact.
fn zeros(word: u64) -> u64 {
    word.wrapping_sub(ONES) & !word & HIGH
}

/// The high bit of each byte of `word` (read little-endian) that JSON
/// escapes in a string: a quote, a backslash or a control character; with
/// `EE`, also a placeholder's first byte (0xEE, `json::lent`). As with
/// [`zeros`], only the lowest mark is sure to be exact.
pub(crate) fn special<const EE: bool>(word: u64) -> u64 {
    let control = word.wrapping_sub(ONES * 0x20) & !word & HIGH;
    let mut hits =
        control | zeros(word ^ (ONES * u64::from(b'"'))) | zeros(word ^ (ONES * u64::from(b'\\')));
    if EE {
        hits |= zeros(word ^ (ONES * 0xEE));
    }
    hits
}

/// The index of the lowest byte [`special`] marks in `hits` (not zero).
pub(crate) fn first(hits: u64) -> usize {
    (hits.trailing_zeros() / 8) as usize
}

/// The eight bytes of `bytes` from `at`, as a word.
pub(crate) fn at(bytes: &[u8], at: usize) -> u64 {
    let mut word = [0; 8];
    word.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(word)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every byte value in every lane, above every other: the lowest mark is
    /// the first byte that is special, and no other byte is taken for one.
    #[test]
    fn the_lowest_mark_is_the_first_special_byte() {
        let is = |b: u8, ee: bool| b == b'"' || b == b'\\' || b < 0x20 || (ee && b == 0xEE);
        for lane in 0..8 {
            for byte in 0..=255u8 {
                for other in [b'A', 0x80, 0xff, 0x20, 0x21, 0x7f, 0x00, b'"'] {
                    let mut bytes = [other; 8];
                    bytes[lane] = byte;
                    for ee in [false, true] {
                        let hits = match ee {
                            true => special::<true>(at(&bytes, 0)),
                            false => special::<false>(at(&bytes, 0)),
                        };
                        let expected = bytes.iter().position(|&b| is(b, ee));
                        let found = (hits != 0).then(|| first(hits));
                        assert_eq!(found, expected, "{lane} {byte:#x} {other:#x} {ee}");
                    }
                }
            }
        }
    }
}
