//! The JSON Lines reader: one document at a time and a batch at a time give
//! the same lines, for any read buffer and batch budget the input picks; and
//! under any document size limit, forced JSON Lines read in batches give
//! every line exactly one slot, no document over the limit.
#![no_main]

use std::io::{BufReader, Cursor};
use std::path::PathBuf;

use libfuzzer_sys::fuzz_target;
use partkit::internals::{Documents, Slot};
use partkit::{Layout, DEFAULT_MAX_DOCUMENT};

fuzz_target!(|data: &[u8]| {
    let Some((&knobs, text)) = data.split_first() else {
        return;
    };
    let read_buffer = 1 + usize::from(knobs & 0x0f) * 7;
    let budget = 1 + usize::from(knobs >> 4) * 13;
    let open = |layout, limit| {
        Documents::from_reader(
            Box::new(BufReader::with_capacity(
                read_buffer,
                Cursor::new(text.to_vec()),
            )),
            PathBuf::from("fuzz"),
            layout,
            limit,
        )
    };
    for layout in [Layout::Auto, Layout::JsonLines] {
        let mut expected = Vec::new();
        let mut one = open(layout, DEFAULT_MAX_DOCUMENT);
        let mut buf = Vec::new();
        while let Ok(Some(line)) = one.next_into(&mut buf) {
            expected.push((line, buf.clone()));
        }
        let mut many = open(layout, DEFAULT_MAX_DOCUMENT);
        let mut got = Vec::new();
        if let Ok(Some(line)) = many.next_into(&mut buf) {
            got.push((line, buf.clone()));
        }
        if many.reads_lines() {
            let mut arena = Vec::new();
            loop {
                let mut slots = Vec::new();
                let more = many.fill_lines(&mut arena, &mut slots, budget, 3).unwrap();
                got.extend(slots.into_iter().filter_map(|(line, slot)| {
                    slot.document().map(|range| (line, arena[range].to_vec()))
                }));
                if !more {
                    break;
                }
            }
            assert_eq!(got, expected);
        }
    }
    // A small limit (from the budget knob): every line has its slot, in order.
    let limit = (knobs >> 4) as u64 * 3;
    let mut lines = open(Layout::JsonLines, limit);
    let mut arena = Vec::new();
    let mut seen = 0;
    loop {
        let mut slots = Vec::new();
        let more = lines.fill_lines(&mut arena, &mut slots, budget, 3).unwrap();
        for (line, slot) in slots {
            seen += 1;
            assert_eq!(line, seen);
            if let Slot::Document(range) = slot {
                assert!(range.len() as u64 <= limit);
            }
        }
        if !more {
            break;
        }
    }
    let breaks = text.iter().filter(|b| **b == b'\n').count();
    let unended = usize::from(text.last().is_some_and(|b| *b != b'\n'));
    assert_eq!(seen, breaks + unended);
});
