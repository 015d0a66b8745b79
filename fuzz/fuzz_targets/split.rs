//! `split` on arbitrary bytes: a reply is split or refused, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use partkit::split::{split_document, SplitOptions, SplitOutput};

fuzz_target!(|data: &[u8]| {
    for output in [SplitOutput::Parts, SplitOutput::Rest] {
        let options = SplitOptions {
            output,
            keep_bytes: true,
            pretty: false,
            at: Default::default(),
        };
        let _ = split_document(data, &options);
    }
});
