//! Streamed response bodies (any bytes): framed into events or refused with
//! a problem, and assembled as each shape or refused, never a panic; what
//! assembles is a document its shape's reader reads without panicking.
#![no_main]

use libfuzzer_sys::fuzz_target;
use partkit::assemble::{assemble, parse};
use partkit::convert::read;
use partkit::shapes::Shape;

fuzz_target!(|data: &[u8]| {
    let _ = parse(data);
    let mut tries = vec![None];
    tries.extend(Shape::ALL.into_iter().map(Some));
    for shape in tries {
        if let Ok(assembled) = assemble(data, shape) {
            let _ = read(&assembled.response, Some(assembled.shape));
        }
    }
});
