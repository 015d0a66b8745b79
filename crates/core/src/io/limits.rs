//! The most partkit holds in memory for one document (docs/limits.md).
//!
//! Why a limit at all: a JSON Lines line or a JSON file is read whole before
//! it is parsed, so an input without an end (`/dev/zero`, a stream that never
//! sends a line break) grew until the allocator aborted the process. Every
//! reader that holds a document stops at this size with
//! [`Error::TooLarge`](crate::error::Error::TooLarge) (exit 2) instead.
//!
//! The limit is a value, not a setting of the process: each operation's
//! options carry it (`max_document`, in bytes: a JSON file, a JSON Lines
//! line, an image to resize, an `encode` source), the command line fills it
//! from `--max-document-size`, and every reader is handed it when opened
//! ([`Documents::open`](crate::io::Documents::open),
//! [`Input::read_all`](crate::io::Input::read_all)). Two runs in one process
//! (a library caller's, say) may so have different limits.

/// The default: 512 MiB, ten times the largest request body any provider
/// takes, so that a real recording never meets it.
pub const DEFAULT_MAX_DOCUMENT: u64 = 512 << 20;

/// A size as the limit's message gives it: `512 MiB`, `5 MB`, or bytes.
pub fn describe(bytes: u64) -> String {
    let units: [(u64, &str); 6] = [
        (1 << 30, "GiB"),
        (1_000_000_000, "GB"),
        (1 << 20, "MiB"),
        (1_000_000, "MB"),
        (1 << 10, "KiB"),
        (1_000, "kB"),
    ];
    units
        .iter()
        .find(|(unit, _)| bytes >= *unit && bytes.is_multiple_of(*unit))
        .map_or_else(
            || format!("{} bytes", crate::size::group_digits(bytes)),
            |(unit, name)| format!("{} {name}", bytes / unit),
        )
}

#[cfg(test)]
mod tests {
    use super::describe;

    #[test]
    fn sizes_are_described_as_typed() {
        assert_eq!(describe(512 << 20), "512 MiB");
        assert_eq!(describe(2 << 30), "2 GiB");
        assert_eq!(describe(5_000_000), "5 MB");
        assert_eq!(describe(1_500), "1500 bytes".replace("1500", "1,500"));
        assert_eq!(describe(0), "0 bytes");
    }
}
