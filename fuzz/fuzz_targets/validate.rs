//! `validate` on arbitrary bytes, recognized as any kind: findings, never a
//! panic; a document that is not JSON is exactly one `invalid-json`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use partkit::validate::{check_document, CheckOptions, KindChoice};

fuzz_target!(|data: &[u8]| {
    for kind in [
        KindChoice::Auto,
        KindChoice::Reply,
        KindChoice::Parts,
        KindChoice::Transcript(None),
    ] {
        let options = CheckOptions {
            kind,
            ..CheckOptions::default()
        };
        let report = check_document(data, &options);
        if serde_json::from_slice::<serde::de::IgnoredAny>(data).is_err() {
            assert_eq!(report.issues.len(), 1);
            assert_eq!(report.issues[0].rule, "invalid-json");
        }
    }
});
