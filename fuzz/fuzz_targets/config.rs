//! The config reader on arbitrary text, read as a `partkit.toml` and as a
//! `pyproject.toml`: settings or an error naming the file, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // A file that is not UTF-8 is refused before it is parsed.
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for name in ["partkit.toml", "pyproject.toml"] {
        if let Err(error) = partkit::internals::read_config_text(text, name) {
            let message = error.to_string();
            assert!(message.starts_with(name), "{message}");
            assert_eq!(error.exit_code(), 2, "{message}");
        }
    }
});
