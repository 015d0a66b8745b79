//! The JSON pointers that readers and writers pass down for their errors,
//! built without the formatting machinery: a small document's conversion
//! builds dozens of them, and `format!` spent a tenth of its time on them.

/// `base` followed by the array index `index` (`/messages` → `/messages/3`).
pub fn item(base: &str, index: usize) -> String {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut rest = index;
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    let mut pointer = String::with_capacity(base.len() + 1 + digits.len() - at);
    pointer.push_str(base);
    pointer.push('/');
    pointer.extend(digits[at..].iter().map(|&digit| char::from(digit)));
    pointer
}

/// `base` followed by `path`: member names the code spells (`content`,
/// `function/arguments`), never ones read from the input, so nothing in them
/// needs escaping (a name read from the input goes through
/// [`crate::json::pointer_token`] first).
pub fn member(base: &str, path: &str) -> String {
    debug_assert!(!path.contains('~'), "{path} needs escaping");
    [base, "/", path].concat()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_are_spelled_as_format_spells_them() {
        for index in [0, 1, 9, 10, 99, 100, 12_345, usize::MAX] {
            assert_eq!(item("/messages", index), format!("/messages/{index}"));
            assert_eq!(item("", index), format!("/{index}"));
        }
        assert_eq!(member("/messages/0", "content"), "/messages/0/content");
        assert_eq!(member("", "tools"), "/tools");
        assert_eq!(member("/a", "function/arguments"), "/a/function/arguments");
    }
}
