//! Key order. The writer puts the keys the model holds in a fixed order
//! and what it kept after them, as they came; a server that wrote its keys
//! in another order (a `title` before the `mimeType`, `_meta` before
//! `isError`, the TypeScript SDK's `result` before `id`) gets them back in
//! its order through a hint that lists them, recorded only when needed.

use serde_json::{Map, Value};

use crate::contract::ext::{Mine, Own};
use crate::json::Object;

/// Records under `$<hint>` the keys of `map` when the writer's order, `first`
/// (those present), the rest as they came, then `last`, is not theirs.
pub(super) fn record<O: Object>(map: &O, first: &[&str], last: &[&str], hint: &str, own: &mut Own) {
    let present = |keys: &[&str]| -> Vec<String> {
        keys.iter()
            .filter(|key| map.contains_key(key))
            .map(|key| key.to_string())
            .collect()
    };
    let mut written = present(first);
    let keys = || map.members().map(|(key, _)| key);
    written.extend(
        keys()
            .filter(|key| !first.contains(key) && !last.contains(key))
            .map(str::to_string),
    );
    written.extend(present(last));
    if !written.iter().map(String::as_str).eq(keys()) {
        let keys = keys().map(Value::from).collect();
        own.hint(hint, Value::Array(keys));
    }
}

/// Puts the keys of `map` in the order `$<hint>` lists (any it does not
/// list after them, as they are).
pub(super) fn restore(map: &mut Map<String, Value>, hint: &str, mine: Mine<'_>) {
    let Some(Value::Array(keys)) = mine.hint(hint) else {
        return;
    };
    let mut rest = std::mem::take(map);
    for key in keys.iter().filter_map(Value::as_str) {
        if let Some(value) = rest.shift_remove(key) {
            map.insert(key.to_string(), value);
        }
    }
    map.extend(rest);
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::shapes::Shape;
    use crate::transcript::Extensions;

    fn hinted(value: Value, first: &[&str], last: &[&str]) -> Option<Value> {
        let mut own = Own::new();
        record(value.as_object().unwrap(), first, last, "keys", &mut own);
        let mut extensions = Extensions::new();
        own.store(&mut extensions, Shape::Mcp);
        Mine::of(&extensions, Shape::Mcp).hint("keys").cloned()
    }

    #[test]
    fn only_an_order_the_writer_would_change_is_recorded() {
        let first = &["type", "uri"];
        assert_eq!(
            hinted(json!({"type": 1, "uri": 2, "x": 3}), first, &[]),
            None
        );
        assert_eq!(hinted(json!({"type": 1, "x": 3}), first, &[]), None);
        assert_eq!(
            hinted(json!({"x": 3, "type": 1}), first, &[]),
            Some(json!(["x", "type"]))
        );
        assert_eq!(
            hinted(json!({"id": 1, "result": 2}), &[], &["result"]),
            None
        );
        assert_eq!(
            hinted(json!({"result": 2, "id": 1}), &[], &["result"]),
            Some(json!(["result", "id"]))
        );
    }

    #[test]
    fn restores_the_listed_order() {
        let mut extensions = Extensions::new();
        let mut own = Own::new();
        own.hint("keys", json!(["b", "a"]));
        own.store(&mut extensions, Shape::Mcp);
        let mut map = json!({"a": 1, "c": 3, "b": 2}).as_object().unwrap().clone();
        restore(&mut map, "keys", Mine::of(&extensions, Shape::Mcp));
        assert_eq!(Value::Object(map).to_string(), r#"{"b":2,"a":1,"c":3}"#);
    }
}
