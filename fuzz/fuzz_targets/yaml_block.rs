//! The fast block-YAML reader against the event parser, on any UTF-8 text:
//! the block reader may decline a text (the event parser then reads it),
//! but where it builds a tree it is the event parser's, node for node
//! (kinds, lines, mapping keys in order, scalar text, tags and style), and
//! neither panics.
#![no_main]

use libfuzzer_sys::fuzz_target;
use partkit::internals::recording;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Err(difference) = recording::compare_yaml_readers(text) {
        panic!("the readers disagree on {text:?}: {difference}");
    }
});
