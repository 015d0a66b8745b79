//! Byte sizes as people type them: `5000000`, `5MB`, `5MiB`, `500kB`, `1.5GB`.
//!
//! Decimal units are powers of 1000 and binary units powers of 1024, as the SI and
//! IEC prefixes say; units are case-insensitive, so `5mb` is 5,000,000 bytes.

/// Parses a size such as `5MB` (5,000,000) or `5MiB` (5,242,880) into bytes.
///
/// A fractional number is allowed when it names a whole number of bytes
/// (`1.5kB` = 1500, but `1.5B` is refused).
pub fn parse_size(text: &str) -> Result<u64, String> {
    let trimmed = text.trim();
    let split = trimmed
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '_'))
        .unwrap_or(trimmed.len());
    let (number, unit) = trimmed.split_at(split);
    let number = number.replace('_', "");
    let multiplier: u128 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "kb" | "k" => 1_000,
        "mb" | "m" => 1_000_000,
        "gb" | "g" => 1_000_000_000,
        "tb" | "t" => 1_000_000_000_000,
        "kib" => 1 << 10,
        "mib" => 1 << 20,
        "gib" => 1 << 30,
        "tib" => 1 << 40,
        _ => {
            return Err(format!(
                "invalid size {text:?}: unknown unit {unit:?} (use B, kB, MB, GB, KiB, MiB or GiB)"
            ))
        }
    };
    let (whole, fraction) = match number.split_once('.') {
        Some((w, f)) => (w, f),
        None => (number.as_str(), ""),
    };
    if whole.is_empty() && fraction.is_empty() || number.matches('.').count() > 1 {
        return Err(format!(
            "invalid size {text:?}: expected a number such as 5MB"
        ));
    }
    let invalid = || format!("invalid size {text:?}: too large");
    let mut value: u128 = 0;
    for digit in whole.bytes() {
        value = value
            .checked_mul(10)
            .and_then(|v| v.checked_add(u128::from(digit - b'0')))
            .ok_or_else(invalid)?;
    }
    value = value.checked_mul(multiplier).ok_or_else(invalid)?;
    // The fraction contributes digit * multiplier / 10^k, which must be whole.
    let mut scale: u128 = 1;
    let mut fraction_value: u128 = 0;
    for digit in fraction.bytes() {
        scale = scale.checked_mul(10).ok_or_else(invalid)?;
        fraction_value = fraction_value * 10 + u128::from(digit - b'0');
    }
    let fraction_bytes = fraction_value * multiplier;
    if !fraction_bytes.is_multiple_of(scale) {
        return Err(format!(
            "invalid size {text:?}: not a whole number of bytes"
        ));
    }
    value = value
        .checked_add(fraction_bytes / scale)
        .ok_or_else(invalid)?;
    u64::try_from(value).map_err(|_| invalid())
}

/// `1 image`, `1,204 images`: a count with its noun, grouped.
pub fn count_of(n: usize, noun: &str) -> String {
    format!(
        "{} {noun}{}",
        group_digits(n as u64),
        if n == 1 { "" } else { "s" }
    )
}

/// Formats a byte count with thousands separators: `5,242,880`.
pub fn group_digits(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_and_decimal_units() {
        assert_eq!(parse_size("5000000"), Ok(5_000_000));
        assert_eq!(parse_size("5MB"), Ok(5_000_000));
        assert_eq!(parse_size("5mb"), Ok(5_000_000));
        assert_eq!(parse_size("500kB"), Ok(500_000));
        assert_eq!(parse_size("500KB"), Ok(500_000));
        assert_eq!(parse_size("2GB"), Ok(2_000_000_000));
        assert_eq!(parse_size("0"), Ok(0));
        assert_eq!(parse_size("12B"), Ok(12));
    }

    #[test]
    fn binary_units() {
        assert_eq!(parse_size("5MiB"), Ok(5_242_880));
        assert_eq!(parse_size("5mib"), Ok(5_242_880));
        assert_eq!(parse_size("500KiB"), Ok(512_000));
        assert_eq!(parse_size("2GiB"), Ok(2_147_483_648));
    }

    #[test]
    fn fractions_must_be_whole_bytes() {
        assert_eq!(parse_size("1.5kB"), Ok(1_500));
        assert_eq!(parse_size("3.75MiB"), Ok(3_932_160));
        assert!(parse_size("1.5B").is_err());
        assert!(parse_size("1.2.3MB").is_err());
    }

    #[test]
    fn rejects_garbage() {
        assert!(parse_size("").is_err());
        assert!(parse_size("MB").is_err());
        assert!(parse_size("5 parsecs").is_err());
        assert!(parse_size("-5MB").is_err());
        assert!(parse_size("99999999999999999999TB").is_err());
    }

    #[test]
    fn groups_digits() {
        assert_eq!(group_digits(0), "0");
        assert_eq!(group_digits(999), "999");
        assert_eq!(group_digits(1_204), "1,204");
        assert_eq!(group_digits(5_242_880), "5,242,880");
    }
}
