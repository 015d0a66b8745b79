//! Finding media in a document (`scan`): NeMo Gym `ToolOutputImage` entries,
//! in a reply's `tool_output_images` list or bare.

use crate::contract::scan::{push_data_url, string, Found, Verdict, Walk};
use crate::dataurl;
use crate::json::Json;

const KIND: &str = "nemo-gym tool_output_image";

/// A `ToolOutputImage` entry outside a `tool_output_images` list (such as the
/// bare list `encode --to tool-output-image` prints): an object with a
/// data-URL `image_url` and at most a `label` besides.
pub(crate) fn recognize<'j>(
    value: &'j Json<'j>,
    pointer: &str,
    found: &mut Vec<Found<'j>>,
) -> Verdict {
    let Json::Object(members) = value else {
        return Verdict::Other;
    };
    let Some(url) = string(value, "image_url").filter(|u| dataurl::is_data_url(u)) else {
        return Verdict::Other;
    };
    if !members
        .iter()
        .all(|(key, _)| key == "image_url" || key == "label")
    {
        return Verdict::Other;
    }
    push_data_url(
        url,
        pointer.to_string(),
        KIND,
        string(value, "label"),
        found,
    );
    Verdict::Media
}

/// A reply's `tool_output_images` list (at `pointer`): each entry's
/// `image_url` is one item, whatever it holds (an entry without one is walked
/// as any value, with `walk`). Whether the member was such a list.
pub(crate) fn scan_member<'j>(
    key: &str,
    item: &'j Json<'j>,
    pointer: &str,
    found: &mut Vec<Found<'j>>,
    walk: Walk<'j>,
) -> bool {
    let ("tool_output_images", Json::Array(entries)) = (key, item) else {
        return false;
    };
    for (index, entry) in entries.iter().enumerate() {
        let at = format!("{pointer}/{index}");
        if let Some(url) = entry.get("image_url").and_then(Json::as_str) {
            push_data_url(url, at, KIND, string(entry, "label"), found);
        } else {
            walk(entry, at, found);
        }
    }
    true
}
