//! Bounded image decoding: whatever the header declares, a decode stays
//! within its limits (the fuzzer's own memory limit catches one that does
//! not) and never panics.
#![no_main]

use libfuzzer_sys::fuzz_target;
use partkit::resize::{decode, sniff_format, DecodeLimits};

fuzz_target!(|data: &[u8]| {
    let Ok(format) = sniff_format(data) else {
        return;
    };
    let limits = DecodeLimits {
        max_pixels: 4_000_000,
        max_alloc: 64 << 20,
    };
    if let Ok(decoded) = decode::decode(data, format, &limits) {
        let _ = decoded;
    }
});
