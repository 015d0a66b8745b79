//! Shape detection and every shape's reader and writer: arbitrary JSON
//! converted to every target never panics, and what converts is JSON.
#![no_main]

use libfuzzer_sys::fuzz_target;
use partkit::convert::document::{convert_document, ConvertRequest};
use partkit::shapes::Shape;
use partkit::SharedBytes;

fuzz_target!(|data: &[u8]| {
    if serde_json::from_slice::<serde::de::IgnoredAny>(data).is_err() {
        return;
    }
    let bytes = SharedBytes::new(data.to_vec());
    for to in Shape::ALL {
        let request = ConvertRequest {
            to,
            ..ConvertRequest::default()
        };
        if let Ok(converted) = convert_document(&bytes, &request) {
            let output = converted.into_bytes(data);
            if let Err(e) = serde_json::from_slice::<serde_json::Value>(&output) {
                panic!(
                    "{to:?} output is not JSON ({e}): {}",
                    String::from_utf8_lossy(&output)
                );
            }
        }
    }
});
