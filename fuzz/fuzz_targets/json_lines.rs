//! The JSON Lines reader: one document at a time and a batch at a time give
//! the same lines, for any read buffer and batch budget the input picks.
#![no_main]

use std::io::{BufReader, Cursor};
use std::path::PathBuf;

use libfuzzer_sys::fuzz_target;
use partkit::io::{Documents, Layout};

fuzz_target!(|data: &[u8]| {
    let Some((&knobs, text)) = data.split_first() else {
        return;
    };
    let read_buffer = 1 + usize::from(knobs & 0x0f) * 7;
    let budget = 1 + usize::from(knobs >> 4) * 13;
    let open = |layout| {
        Documents::from_reader(
            Box::new(BufReader::with_capacity(
                read_buffer,
                Cursor::new(text.to_vec()),
            )),
            PathBuf::from("fuzz"),
            layout,
        )
    };
    for layout in [Layout::Auto, Layout::JsonLines] {
        let mut expected = Vec::new();
        let mut one = open(layout);
        let mut buf = Vec::new();
        while let Ok(Some(line)) = one.next_into(&mut buf) {
            expected.push((line, buf.clone()));
        }
        let mut many = open(layout);
        let mut got = Vec::new();
        if let Ok(Some(line)) = many.next_into(&mut buf) {
            got.push((line, buf.clone()));
        }
        if many.reads_lines() {
            let mut arena = Vec::new();
            loop {
                let mut docs = Vec::new();
                let more = many.fill_lines(&mut arena, &mut docs, budget, 3).unwrap();
                got.extend(
                    docs.into_iter()
                        .map(|(line, range)| (line, arena[range].to_vec())),
                );
                if !more {
                    break;
                }
            }
            assert_eq!(got, expected);
        }
    }
});
