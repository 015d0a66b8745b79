//! Enum values written as numbers.
//!
//! Protobuf's JSON mapping takes an enum value by its name or by its number,
//! and Vertex AI clients that ask for `$alt=json;enum-encoding=int` send
//! numbers (`"type": 6` for OBJECT); the API answers them as it answers the
//! names. The reader reads both wherever it reads an enum (a Schema's `type`,
//! `functionCallingConfig.mode`); other shapes get the names' meaning, and a
//! Gemini input's numbers come back on the Gemini round trip.

use serde_json::Value;

use crate::json::{Node, View};

/// `Schema.type`, by number (the `Type` enum of the Gemini and Vertex AI APIs).
pub(super) const SCHEMA_TYPES: &[&str] = &[
    "TYPE_UNSPECIFIED",
    "STRING",
    "NUMBER",
    "INTEGER",
    "BOOLEAN",
    "ARRAY",
    "OBJECT",
    "NULL",
];

/// `FunctionCallingConfig.Mode`, by number, as far as both APIs number it
/// alike (`VALIDATED` has no number partkit relies on: it is kept as written).
pub(super) const CALLING_MODES: &[&str] = &["MODE_UNSPECIFIED", "AUTO", "ANY", "NONE"];

/// The name of an enum value written as a name or as a number of `table`, and
/// whether it was a number. (A number is read from its `Value`: a tree's view
/// of a number does not give its text.)
pub(super) fn name<'v, N: Node>(value: &'v N, table: &[&'static str]) -> Option<(&'v str, bool)> {
    match value.view() {
        View::String(name) => Some((name, false)),
        View::Number => value
            .to_value()
            .as_u64()
            .and_then(|n| usize::try_from(n).ok())
            .and_then(|n| table.get(n))
            .map(|name| (*name, true)),
        _ => None,
    }
}

/// The number of the value named `name` in `table`.
pub(super) fn number(name: &str, table: &[&str]) -> Option<Value> {
    table
        .iter()
        .position(|known| *known == name)
        .map(|n| Value::from(n as u64))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn enum_values_are_read_by_name_or_number() {
        assert_eq!(name(&json!(6), SCHEMA_TYPES), Some(("OBJECT", true)));
        assert_eq!(name(&json!(7), SCHEMA_TYPES), Some(("NULL", true)));
        assert_eq!(
            name(&json!("STRING"), SCHEMA_TYPES),
            Some(("STRING", false))
        );
        assert_eq!(name(&json!(42), SCHEMA_TYPES), None);
        assert_eq!(name(&json!(-1), SCHEMA_TYPES), None);
        assert_eq!(name(&json!(2), CALLING_MODES), Some(("ANY", true)));
        assert_eq!(number("NONE", CALLING_MODES), Some(json!(3)));
        assert_eq!(number("VALIDATED", CALLING_MODES), None);
    }
}
