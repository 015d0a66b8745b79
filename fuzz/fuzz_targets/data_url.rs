//! Data URLs and base64: parsing never panics, and the strict, lenient and
//! length readings agree with each other.
#![no_main]

use libfuzzer_sys::fuzz_target;
use partkit::internals::{b64, dataurl};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(url) = dataurl::parse(&text) {
        check_base64(url.payload);
    }
    check_base64(&text);
});

fn check_base64(text: &str) {
    let strict = b64::decode_strict(text);
    let mut scratch = Vec::new();
    let checked = b64::check_strict(text, &mut scratch);
    match (&strict, &checked) {
        (Ok(bytes), Ok(len)) => assert_eq!(bytes.len(), *len),
        (Err(_), Err(_)) => {}
        _ => panic!("decode_strict and check_strict disagree on {text:?}"),
    }
    if let Ok(bytes) = &strict {
        assert_eq!(b64::decoded_len(text), Some(bytes.len() as u64));
        assert_eq!(b64::encode(bytes), text, "strict base64 is canonical");
        let (lenient, _) = b64::decode_lenient(text).expect("strict is lenient too");
        assert_eq!(&lenient, bytes);
    } else {
        let _ = b64::decode_lenient(text);
    }
    let _ = b64::preview(text);
}
