//! Cassettes and HAR files (any bytes, as a file's content): a recording or
//! an error naming the file, never a panic; the interactions are numbered in
//! order, and a body's line is within the file.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;
use partkit::internals::recording;

fuzz_target!(|data: &[u8]| {
    let lines = data.iter().filter(|&&b| b == b'\n').count() + 1;
    if let Ok(read) = recording::parse(data, Path::new("fuzz.yaml")) {
        for (at, interaction) in read.interactions.iter().enumerate() {
            assert_eq!(interaction.index, at);
            let bodies = [
                interaction.request.as_ref().map(|r| &r.body),
                interaction.response.as_ref().map(|r| &r.body),
            ];
            // A gzipped file's lines are those of what it inflates to.
            if !read.gzipped {
                for body in bodies.into_iter().flatten() {
                    if let Some(line) = body.line {
                        assert!(line >= 1 && line <= lines, "line {line} of {lines}");
                    }
                }
            }
        }
    }
    let _ = recording::chunks(data);
});
