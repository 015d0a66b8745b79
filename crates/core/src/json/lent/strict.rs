//! Strict base64 checked while a payload streams past the scanner.
//!
//! Why: a file's payloads are read once by the scan; a check of each (what
//! `inspect` and `validate` do first) read every one again, whole, from the
//! file. Checked here, in pieces of any size while they are in the cache, a
//! payload found strict needs only its first bytes read again (for the
//! header); one that is not is checked again the usual way, which says where
//! and why.
//!
//! The verdict is `base64_simd`'s on the whole text, computed piecewise: a
//! text is strict base64 when every 4-character group but the last is four
//! alphabet characters and the last is a valid final group (padding and
//! unused bits as the checker wants them). The last whole group seen is held
//! back until the text ends.

/// Characters of a payload fed in order, in pieces of any size.
#[derive(Debug)]
pub(super) struct Strict {
    ok: bool,
    len: usize,
    /// A group begun in an earlier piece.
    partial: [u8; 4],
    partial_len: usize,
    /// The last whole group, not checked yet: it may be the final one.
    last: Option<[u8; 4]>,
}

impl Default for Strict {
    fn default() -> Strict {
        Strict {
            ok: true,
            len: 0,
            partial: [0; 4],
            partial_len: 0,
            last: None,
        }
    }
}

impl Strict {
    pub fn feed(&mut self, piece: &[u8]) {
        if !self.ok {
            return;
        }
        self.len += piece.len();
        let mut rest = piece;
        if self.partial_len > 0 {
            let take = (4 - self.partial_len).min(rest.len());
            self.partial[self.partial_len..self.partial_len + take].copy_from_slice(&rest[..take]);
            self.partial_len += take;
            rest = &rest[take..];
            if self.partial_len < 4 {
                return;
            }
            self.partial_len = 0;
            let group = self.partial;
            self.hold(group);
        }
        let whole = rest.len() / 4 * 4;
        if whole > 0 {
            let (run, last) = rest[..whole].split_at(whole - 4);
            if let Some(held) = self.last.take() {
                self.ok &= inner(&held);
            }
            self.ok &= inner(run);
            self.last = Some(last.try_into().expect("four bytes"));
        }
        let left = &rest[whole..];
        self.partial[..left.len()].copy_from_slice(left);
        self.partial_len = left.len();
    }

    /// Whether everything checked so far passed: every byte fed but the
    /// last 7 at most (held back) is then an alphabet character.
    pub fn passing(&self) -> bool {
        self.ok
    }

    fn hold(&mut self, group: [u8; 4]) {
        if let Some(held) = self.last.replace(group) {
            self.ok &= inner(&held);
        }
    }

    /// The decoded size, when everything fed is strict base64.
    pub fn finish(&self) -> Option<u64> {
        let last = self.last.filter(|_| self.ok && self.partial_len == 0)?;
        base64_simd::STANDARD.check(&last).ok()?;
        let padding = last.iter().rev().take_while(|&&b| b == b'=').count();
        Some((self.len / 4 * 3 - padding) as u64)
    }
}

/// Whole groups that are not the last: alphabet characters only (a run the
/// checker accepts and that does not end in padding has none inside it).
fn inner(run: &[u8]) -> bool {
    run.is_empty() || (run[run.len() - 1] != b'=' && base64_simd::STANDARD.check(run).is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The piecewise verdict is the whole text's, for every way of cutting it.
    #[test]
    fn pieces_of_any_size_agree_with_the_whole() {
        let texts: [&[u8]; 14] = [
            b"QUJD",
            b"QUI=",
            b"QQ==",
            b"QUJDQUJDQUI=",
            b"QUJDQUJDQQ==",
            b"QUJDQUJDQR==",
            b"QUI=QUJD",
            b"QQ==QUJDQUJD",
            b"QUJDQUJDQUJ",
            b"QUJDQUJ=QUJD",
            b"QUJD QUJD",
            b"QUJDQUJD-_JD",
            b"QUJDQUJDQUJDQUJDQUJDQUJDQUJDQUJDQUJDQUJDQUJDQUJDQUJDQUJDQUJDQUJDQUJDQUJD",
            b"QUJDQUJDQUJDQUJDQUJDQUJDQUJDQUJDQUJDQUJDQUJDQUJDQUJDQUJDQUJDQUJDQUJDQ=Jg",
        ];
        for text in texts {
            let expected = base64_simd::STANDARD
                .check(text)
                .ok()
                .map(|()| base64_simd::STANDARD.decode_to_vec(text).unwrap().len() as u64);
            for size in 1..=text.len() {
                let mut strict = Strict::default();
                for piece in text.chunks(size) {
                    strict.feed(piece);
                }
                assert_eq!(
                    strict.finish(),
                    expected,
                    "{} in pieces of {size}",
                    String::from_utf8_lossy(text)
                );
            }
            // Uneven pieces, and empty ones.
            let mut strict = Strict::default();
            let mut rest = text;
            for size in [0, 1, 0, 5, 2, 3, 7].iter().cycle() {
                if rest.is_empty() {
                    break;
                }
                let (piece, after) = rest.split_at((*size).min(rest.len()));
                strict.feed(piece);
                rest = after;
            }
            assert_eq!(
                strict.finish(),
                expected,
                "{}",
                String::from_utf8_lossy(text)
            );
        }
    }
}
