//! The borrowed JSON tree: it reads what serde_json reads (duplicate keys
//! included), the payload scanner agrees with it, and the duplicate finder
//! never panics.
#![no_main]

use libfuzzer_sys::fuzz_target;
use partkit::internals::json;

fuzz_target!(|data: &[u8]| {
    let tree = json::parse(data);
    let value = serde_json::from_slice::<serde_json::Value>(data);
    match (&tree, &value) {
        (Ok(tree), Ok(value)) => assert_eq!(&tree.to_value(), value),
        (Err(_), Err(_)) => {}
        (Ok(_), Err(e)) => panic!("the tree reads what serde_json refuses: {e}"),
        (Err(e), Ok(_)) => panic!("the tree refuses what serde_json reads: {e}"),
    }
    let _ = json::duplicate_keys(data);
    if let Ok(parsed) = json::lent::parse(data) {
        let _ = parsed;
    }
    let _ = json::lent::scan(data);
});
