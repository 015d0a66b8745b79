//! Media sniffing and image header checks on arbitrary bytes: no panic, and
//! an image that passes its header check has pixels.
#![no_main]

use libfuzzer_sys::fuzz_target;
use partkit::internals::check_bytes;
use partkit::Depth;
use partkit::media;

fuzz_target!(|data: &[u8]| {
    let _ = media::sniff(data);
    for declared in [
        "image/png",
        "image/jpeg",
        "image/gif",
        "image/webp",
        "application/pdf",
    ] {
        if let Ok((_, Some((width, height)))) = check_bytes(data, declared, Depth::Header) {
            assert!(
                width > 0 && height > 0,
                "{declared} passed at {width}x{height}"
            );
        }
    }
    if let Ok(format) = partkit::resize::sniff_format(data) {
        if let Ok((width, height)) = partkit::resize::decode::dimensions(data, format) {
            assert!(width > 0 && height > 0);
        }
    }
});
