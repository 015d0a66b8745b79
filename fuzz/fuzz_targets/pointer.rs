//! `--at` pointers on arbitrary documents: the first line is a pointer, the
//! rest a document. Each gives a selection or an error, never a panic; a
//! selection's pointer leads serde_json's own pointer reader to the same
//! value, and a pointer that selects nothing leads it to none.
#![no_main]

use libfuzzer_sys::fuzz_target;
use partkit::internals::LocateError;
use partkit::{At, AtMissing};
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let split = data.iter().position(|&b| b == b'\n').unwrap_or(data.len());
    let Ok(pointer) = std::str::from_utf8(&data[..split]) else {
        return;
    };
    let document = data.get(split + 1..).unwrap_or_default();
    let Ok(at) = At::new(&[pointer.to_string()], AtMissing::Error) else {
        // Refused as --at is: not RFC 6901.
        return;
    };
    let located = at.locate(document);
    let Ok(whole) = serde_json::from_slice::<Value>(document) else {
        return;
    };
    match located {
        Ok(found) => {
            assert_eq!(found.len(), 1);
            let value = &document[found[0].range.clone()];
            let value: Value = serde_json::from_slice(value).expect("a selection is a JSON value");
            assert_eq!(found[0].pointer, pointer);
            assert_eq!(whole.pointer(pointer), Some(&value), "{pointer}");
        }
        Err(LocateError::Missing(missing)) => {
            assert_eq!(missing, pointer);
            assert_eq!(whole.pointer(pointer), None, "{pointer}");
        }
        Err(error) => panic!("{pointer}: serde_json reads what --at refuses: {error}"),
    }
});
