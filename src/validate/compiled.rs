//! The tool schemas a thread checked and compiled lately, with what came of
//! them.
//!
//! Why: a JSON Lines file of request bodies declares the same tools on every
//! line, and each body's check ran the meta-schema over its tools' schemas
//! and compiled them again (`jsonschema::validator_for`): a sixth of
//! validating a small body. A schema is looked up by its members in order,
//! not by `Value`'s equality, which ignores order: a validator built from a
//! schema written in another order may report errors in another order.

use std::cell::RefCell;
use std::rc::Rc;

use jsonschema::Validator;
use serde_json::Value;

use super::arguments::ArgumentProblem;

/// How many distinct schemas a thread keeps: a file's requests declare a
/// handful of tools.
const KEPT: usize = 16;

/// What came of one schema, each part made when first asked for.
#[derive(Default)]
struct Compiled {
    /// The meta-schema's verdict (`Some(None)`: valid).
    meta: Option<Option<ArgumentProblem>>,
    /// The validator, or why none could be built.
    validator: Option<Rc<Result<Validator, String>>>,
}

thread_local! {
    /// The schemas, most recently added last.
    static KEPT_SCHEMAS: RefCell<Vec<(Value, Compiled)>> = const { RefCell::new(Vec::new()) };
}

/// The meta-schema's verdict on `schema`: `check()`'s, kept.
pub fn meta(
    schema: &Value,
    check: impl FnOnce() -> Option<ArgumentProblem>,
) -> Option<ArgumentProblem> {
    with_entry(schema, |entry| entry.meta.get_or_insert_with(check).clone())
}

/// The validator of `schema`: `build()`'s, kept.
pub fn validator(
    schema: &Value,
    build: impl FnOnce() -> Result<Validator, String>,
) -> Rc<Result<Validator, String>> {
    with_entry(schema, |entry| {
        entry
            .validator
            .get_or_insert_with(|| Rc::new(build()))
            .clone()
    })
}

/// Runs `f` on the entry of `schema`, made (empty) when there is none; the
/// oldest is let go past [`KEPT`]. `f` must not ask for another schema.
fn with_entry<R>(schema: &Value, f: impl FnOnce(&mut Compiled) -> R) -> R {
    KEPT_SCHEMAS.with(|kept| {
        let mut kept = kept.borrow_mut();
        let at = match kept.iter().position(|(known, _)| same(known, schema)) {
            Some(at) => at,
            None => {
                if kept.len() == KEPT {
                    kept.remove(0);
                }
                kept.push((schema.clone(), Compiled::default()));
                kept.len() - 1
            }
        };
        f(&mut kept[at].1)
    })
}

/// Whether two values are the same, members in the same order.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(a), Value::Object(b)) => {
            a.len() == b.len()
                && a.iter()
                    .zip(b.iter())
                    .all(|((ka, va), (kb, vb))| ka == kb && same(va, vb))
        }
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same(a, b))
        }
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn schemas_are_the_same_only_in_the_same_order() {
        let a = json!({"type": "object", "properties": {"x": {"type": "integer"}, "y": {}}});
        let b = json!({"properties": {"x": {"type": "integer"}, "y": {}}, "type": "object"});
        assert!(same(&a, &a.clone()));
        assert_eq!(a, b);
        assert!(!same(&a, &b));
        assert!(!same(&json!([1, 2]), &json!([1, 2, 3])));
        assert!(!same(&json!({"a": 1.0}), &json!({"a": 1})));
    }

    #[test]
    fn a_schema_is_compiled_once_until_it_is_let_go() {
        let count = std::cell::Cell::new(0);
        let build = |schema: &Value| {
            validator(schema, || {
                count.set(count.get() + 1);
                jsonschema::validator_for(schema).map_err(|e| e.to_string())
            })
        };
        let first = json!({"const": 0});
        build(&first);
        build(&first);
        assert_eq!(count.get(), 1);
        for i in 1..=KEPT {
            build(&json!({ "const": i }));
        }
        assert_eq!(count.get(), 1 + KEPT);
        // The first was let go to make room: asked again, it is built again.
        build(&first);
        assert_eq!(count.get(), 2 + KEPT);
        let verdict = meta(&first, || None);
        assert_eq!(meta(&first, || unreachable!("kept")), verdict);
    }
}
