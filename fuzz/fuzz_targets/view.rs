//! `partkit view`'s HTML writer on arbitrary bytes (one document or JSON
//! Lines): never a panic, and nothing from the input becomes markup — the
//! page holds exactly its own one script, every section it opens is closed,
//! and it ends as a page does.
#![no_main]

use std::io::Cursor;
use std::path::{Path, PathBuf};

use libfuzzer_sys::fuzz_target;
use partkit::internals::{write_documents, DocOptions, Documents, ViewOptions};
use partkit::{Layout, DEFAULT_MAX_DOCUMENT};

fuzz_target!(|data: &[u8]| {
    let documents = Documents::from_reader(
        Box::new(Cursor::new(data.to_vec())),
        PathBuf::from("fuzz"),
        Layout::Auto,
        DEFAULT_MAX_DOCUMENT,
    );
    let options = ViewOptions {
        doc: DocOptions::default(),
        lines: None,
        layout: Layout::Auto,
        max_document: DEFAULT_MAX_DOCUMENT,
    };
    let mut page = Vec::new();
    if write_documents(documents, "fuzz <input>", &options, &mut page, Path::new("-")).is_err() {
        return;
    }
    let page = String::from_utf8(page).expect("the page is UTF-8");
    let count = |needle: &str| page.matches(needle).count();
    assert_eq!(count("<script"), 1, "the page's own script only");
    assert_eq!(count("<section"), count("</section>"));
    assert!(page.ends_with("</script></body></html>\n") || page.ends_with("</html>\n"));
});
