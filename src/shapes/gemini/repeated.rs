//! Repeated fields written as one value.
//!
//! Google's JSON parser (protobuf's JSON mapping) takes a single value where a
//! list is expected: `"parts": {"text": "…"}` is a list of one part, and the
//! API answers such a body as it answers the list (the R client ellmer sends
//! `systemInstruction.parts` so). The reader takes every repeated field it
//! reads in either form; where it met a single value it records the field's
//! dotted path (relative to the object whose extensions hold the hint, list
//! indexes included) in a `$single` hint, and the writer gives the single
//! value back where the list still holds exactly one item. Everything else is
//! written as a list, as the SDK types have it.

use serde_json::{Map, Value};

use super::{add_hint, hint};
use crate::contract::ext::Own;
use crate::json::{Node, View};
use crate::transcript::Extensions;

/// The items of a repeated field with their pointers: a list's items, or the
/// one value written in its place (at the field's own pointer). The flag says
/// it was a single value.
pub(super) fn items<'v, N: Node>(value: &'v N, at: &str) -> (Vec<(String, &'v N)>, bool) {
    match value.view() {
        View::Array(list) => (
            list.iter()
                .enumerate()
                .map(|(i, item)| (format!("{at}/{i}"), item))
                .collect(),
            false,
        ),
        _ => (vec![(at.to_string(), value)], true),
    }
}

/// The dotted paths of the fields written as one value, gathered while a
/// reader walks an object, for its `$single` hint.
#[derive(Debug, Default)]
pub(super) struct Singles(Vec<Value>);

impl Singles {
    /// Notes that the field at `path` was written as one value (when `single`).
    pub(super) fn note(&mut self, path: &str, single: bool) {
        if single {
            self.0.push(Value::String(path.to_string()));
        }
    }

    /// Records the paths in `own` (nothing when there are none).
    pub(super) fn store(self, own: &mut Own) {
        if !self.0.is_empty() {
            own.hint("single", Value::Array(self.0));
        }
    }

    /// Records the paths in some extensions that already exist.
    pub(super) fn add_to(self, extensions: &mut Extensions) {
        if !self.0.is_empty() {
            add_hint(extensions, "single", Value::Array(self.0));
        }
    }
}

/// The paths a `$single` hint names, deepest first (an index into a list is
/// followed before that list itself becomes one value).
pub(super) fn paths(extensions: &Extensions) -> Vec<String> {
    let mut paths: Vec<String> = hint(extensions, "single")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_string)
        .collect();
    paths.sort_by_key(|path| std::cmp::Reverse(path.split('.').count()));
    paths
}

/// Writes as one value each list at `paths` inside `map` that holds exactly
/// one item (a list the transcript changed since is left a list).
pub(super) fn restore(map: &mut Map<String, Value>, paths: &[String]) {
    for path in paths {
        let (holder, last) = match path.rsplit_once('.') {
            Some((parent, last)) => (object_at(map, parent), last),
            None => (Some(&mut *map), path.as_str()),
        };
        let Some(slot) = holder.and_then(|holder| holder.get_mut(last)) else {
            continue;
        };
        if matches!(slot, Value::Array(list) if list.len() == 1) {
            if let Value::Array(list) = slot.take() {
                *slot = list.into_iter().next().expect("one item");
            }
        }
    }
}

/// The object at a dotted path (object keys and list indexes) inside `map`.
fn object_at<'m>(
    map: &'m mut Map<String, Value>,
    path: &str,
) -> Option<&'m mut Map<String, Value>> {
    let mut segments = path.split('.');
    let mut current = map.get_mut(segments.next()?)?;
    for segment in segments {
        current = match current {
            Value::Object(inner) => inner.get_mut(segment)?,
            Value::Array(list) => list.get_mut(segment.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    current.as_object_mut()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_single_value_is_a_list_of_one_at_the_fields_pointer() {
        let list = json!([{"text": "a"}, {"text": "b"}]);
        let (found, single) = items(&list, "/parts");
        assert!(!single);
        assert_eq!(found[1].0, "/parts/1");
        let one = json!({"text": "a"});
        let (found, single) = items(&one, "/parts");
        assert!(single);
        assert_eq!(found, vec![("/parts".to_string(), &one)]);
    }

    #[test]
    fn lists_of_one_go_back_to_single_values_deepest_first() {
        let mut extensions = Extensions::new();
        let mut singles = Singles::default();
        singles.note("tools", true);
        singles.note("contents", false);
        singles.note("tools.0.functionDeclarations", true);
        singles.note("systemInstruction.parts", true);
        singles.add_to(&mut extensions);
        let mut body = json!({
            "systemInstruction": {"parts": [{"text": "s"}, {"text": "t"}]},
            "contents": [{"parts": [{"text": "a"}]}],
            "tools": [{"functionDeclarations": [{"name": "f"}]}]
        });
        restore(body.as_object_mut().unwrap(), &paths(&extensions));
        assert_eq!(
            body,
            json!({
                // Two parts now: a list again.
                "systemInstruction": {"parts": [{"text": "s"}, {"text": "t"}]},
                // Not written as one value: left a list.
                "contents": [{"parts": [{"text": "a"}]}],
                "tools": {"functionDeclarations": {"name": "f"}}
            })
        );
    }
}
