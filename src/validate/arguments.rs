//! Tool-call arguments against the declared tools, by NeMo Guardrails' rules:
//! arguments are a JSON object that validates against the tool's JSON Schema
//! (its draft from `$schema`, else 2020-12; `format` an annotation); a function
//! tool that declares no parameters accepts no arguments; a schema that is not
//! valid JSON Schema is itself a finding; a hosted tool known only by its type
//! is allow-list only.

use serde_json::Value;

use crate::json::lent::Lending;

/// Why a call's arguments (or a tool's schema) are refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArgumentProblem {
    pub rule: &'static str,
    pub message: String,
    /// For a schema that is not JSON Schema: a JSON pointer, relative to the
    /// schema, to the value that fails the meta-schema ("" otherwise).
    pub at: String,
}

fn problem(rule: &'static str, message: impl Into<String>) -> ArgumentProblem {
    ArgumentProblem {
        rule,
        message: message.into(),
        at: String::new(),
    }
}

/// Whether a schema declares no way to supply arguments: no schema, `{}`, or an
/// object schema naming no properties and opening no other channel
/// (`additionalProperties` present and not `false`, `patternProperties`,
/// `anyOf`/`oneOf`/`allOf`/`$ref`).
pub fn accepts_no_arguments(schema: Option<&Value>) -> bool {
    let Some(schema) = schema else { return true };
    let Some(map) = schema.as_object() else {
        return false;
    };
    if map.is_empty() {
        return true;
    }
    let names_properties = map
        .get("properties")
        .and_then(Value::as_object)
        .is_some_and(|p| !p.is_empty());
    let open_additional = map
        .get("additionalProperties")
        .is_some_and(|a| a != &Value::Bool(false));
    let other_channel = ["patternProperties", "anyOf", "oneOf", "allOf", "$ref"]
        .iter()
        .any(|key| map.contains_key(*key));
    let is_object_schema = map.get("type").and_then(Value::as_str) == Some("object");
    is_object_schema && !names_properties && !open_additional && !other_channel
}

/// Checks a declared schema: `Some(problem)` when it is not valid JSON Schema.
/// The verdict is kept for the thread's next document (`compiled.rs`).
pub fn check_schema(schema: &Value) -> Option<ArgumentProblem> {
    super::compiled::meta(schema, || check_meta(schema))
}

fn check_meta(schema: &Value) -> Option<ArgumentProblem> {
    match jsonschema::meta::validate(schema) {
        Ok(()) => None,
        Err(error) => {
            let at = error.instance_path().to_string();
            Some(ArgumentProblem {
                at: at.clone(),
                ..problem(
                    "tool-schema-invalid",
                    format!(
                        "the declared schema is not valid JSON Schema: {error} (at {})",
                        if at.is_empty() { "its root" } else { &at }
                    ),
                )
            })
        }
    }
}

/// Checks one call's arguments against its tool's schema (`None`: the tool
/// declares none). `call` is the call's id, for messages. Returns every
/// violation, one per failing schema path. Strings in the arguments may be
/// placeholders `lending` lends.
pub fn check_arguments(
    tool: &str,
    call: Option<&str>,
    schema: Option<&Value>,
    arguments: &Value,
    lending: &Lending,
) -> Vec<ArgumentProblem> {
    let who = match call {
        Some(id) => format!("call {id} ({tool})"),
        None => format!("call of {tool}"),
    };
    let Some(object) = arguments.as_object() else {
        return vec![problem(
            "tool-arguments-not-object",
            format!(
                "arguments of {who} must be a JSON object, not {}",
                crate::part::json_kind(arguments)
            ),
        )];
    };
    if accepts_no_arguments(schema) {
        if object.is_empty() {
            return Vec::new();
        }
        let names: Vec<&str> = object.keys().map(String::as_str).collect();
        return vec![problem(
            "tool-arguments-schema",
            format!(
                "{tool} declares no parameters, but {who} passes {}",
                names.join(", ")
            ),
        )];
    }
    let schema = schema.expect("a schema that accepts arguments exists");
    if check_schema(schema).is_some() {
        // Reported once on the tool; a broken schema validates nothing.
        return Vec::new();
    }
    let compiled = super::compiled::validator(schema, || {
        jsonschema::validator_for(schema).map_err(|error| error.to_string())
    });
    let validator = match compiled.as_ref() {
        Ok(validator) => validator,
        Err(error) => {
            return vec![problem(
                "tool-schema-invalid",
                format!("the schema of {tool} cannot be used: {error}"),
            )]
        }
    };
    // Strings lent from the input are checked as what they are.
    let arguments = lending.resolved_value(arguments);
    validator
        .iter_errors(&arguments)
        .map(|error| {
            let at = error.instance_path().to_string();
            let at = if at.is_empty() {
                "the arguments".to_string()
            } else {
                format!("arguments{at}")
            };
            problem(
                "tool-arguments-schema",
                format!("{at} of {who}: {error} (schema {})", error.schema_path()),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn verdict(schema: Option<Value>, arguments: Value) -> Vec<&'static str> {
        check_arguments("t", None, schema.as_ref(), &arguments, &Lending::NONE)
            .into_iter()
            .map(|p| p.rule)
            .collect()
    }

    fn ok(schema: Value, arguments: Value) {
        assert_eq!(
            verdict(Some(schema.clone()), arguments.clone()),
            Vec::<&str>::new(),
            "{schema} {arguments}"
        );
    }

    fn bad(schema: Value, arguments: Value) {
        assert_eq!(
            verdict(Some(schema.clone()), arguments.clone()),
            vec!["tool-arguments-schema"],
            "{schema} {arguments}"
        );
    }

    fn city() -> Value {
        json!({"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}}, "required": ["city"]})
    }

    #[test]
    fn types_and_required() {
        ok(city(), json!({"city": "Paris"}));
        ok(city(), json!({"city": "Paris", "days": 3}));
        bad(city(), json!({}));
        bad(city(), json!({"city": 3}));
        bad(city(), json!({"city": "Paris", "days": "3"}));
        bad(city(), json!({"city": "Paris", "days": 2.5}));
        bad(city(), json!({"city": null}));
        ok(city(), json!({"city": "Paris", "other": true}));
    }

    #[test]
    fn five_point_zero_is_an_integer() {
        ok(
            city(),
            serde_json::from_str(r#"{"city":"x","days":5.0}"#).unwrap(),
        );
        ok(
            city(),
            serde_json::from_str(r#"{"city":"x","days":12345678901234567890}"#).unwrap(),
        );
    }

    #[test]
    fn enums_and_consts() {
        let schema = json!({"type": "object", "properties": {"unit": {"enum": ["c", "f"]}, "v": {"const": 1}}});
        ok(schema.clone(), json!({"unit": "c"}));
        bad(schema.clone(), json!({"unit": "k"}));
        ok(schema.clone(), json!({"v": 1}));
        bad(schema, json!({"v": 2}));
    }

    #[test]
    fn nested_objects_and_arrays() {
        let schema = json!({"type": "object", "properties": {
            "point": {"type": "object", "properties": {"x": {"type": "number"}}, "required": ["x"]},
            "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 2}}});
        ok(schema.clone(), json!({"point": {"x": 1.5}, "tags": ["a"]}));
        bad(schema.clone(), json!({"point": {}}));
        bad(schema.clone(), json!({"point": {"x": "1"}}));
        bad(schema.clone(), json!({"tags": ["a", 1]}));
        bad(schema.clone(), json!({"tags": ["a", "b", "c"]}));
        ok(schema, json!({"tags": []}));
    }

    #[test]
    fn additional_properties_false() {
        let schema = json!({"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false});
        ok(schema.clone(), json!({"a": "x"}));
        bad(schema.clone(), json!({"a": "x", "b": 1}));
        ok(schema, json!({}));
    }

    #[test]
    fn compositions() {
        let schema = json!({"type": "object", "properties": {"v": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}});
        ok(schema.clone(), json!({"v": "x"}));
        ok(schema.clone(), json!({"v": 3}));
        bad(schema, json!({"v": [1]}));
        let one = json!({"oneOf": [
            {"type": "object", "properties": {"k": {"const": "a"}}, "required": ["k"]},
            {"type": "object", "properties": {"k": {"const": "b"}, "n": {"type": "integer"}}, "required": ["k", "n"]}]});
        ok(one.clone(), json!({"k": "a"}));
        ok(one.clone(), json!({"k": "b", "n": 1}));
        bad(one, json!({"k": "c"}));
    }

    #[test]
    fn format_is_an_annotation() {
        let schema = json!({"type": "object", "properties": {"d": {"type": "string", "format": "date"}, "e": {"type": "string", "format": "email"}}});
        ok(schema, json!({"d": "not a date", "e": "not an email"}));
    }

    #[test]
    fn numbers_and_strings_bounds() {
        let schema = json!({"type": "object", "properties": {
            "n": {"type": "number", "minimum": 0, "exclusiveMaximum": 10},
            "s": {"type": "string", "minLength": 2, "pattern": "^[a-z]+$"}}});
        ok(schema.clone(), json!({"n": 0, "s": "ab"}));
        bad(schema.clone(), json!({"n": -1}));
        bad(schema.clone(), json!({"n": 10}));
        bad(schema.clone(), json!({"s": "a"}));
        bad(schema, json!({"s": "AB"}));
    }

    #[test]
    fn the_draft_comes_from_dollar_schema() {
        // Draft 4's boolean exclusiveMinimum; in 2020-12 it would be invalid.
        let draft4 = json!({"$schema": "http://json-schema.org/draft-04/schema#", "type": "object",
                            "properties": {"a": {"type": "integer", "minimum": 0, "exclusiveMinimum": true}}});
        bad(draft4.clone(), json!({"a": 0}));
        ok(draft4, json!({"a": 1}));
    }

    #[test]
    fn no_parameter_tools_accept_no_arguments() {
        for schema in [
            None,
            Some(json!({})),
            Some(json!({"type": "object"})),
            Some(json!({"type": "object", "properties": {}})),
        ] {
            assert_eq!(
                verdict(schema.clone(), json!({})),
                Vec::<&str>::new(),
                "{schema:?}"
            );
            assert_eq!(
                verdict(schema.clone(), json!({"a": 1})),
                vec!["tool-arguments-schema"],
                "{schema:?}"
            );
        }
        let message = &check_arguments(
            "screenshot",
            Some("c1"),
            None,
            &json!({"x": 1}),
            &Lending::NONE,
        )[0]
        .message;
        assert_eq!(
            message,
            "screenshot declares no parameters, but call c1 (screenshot) passes x"
        );
    }

    #[test]
    fn schemas_with_another_channel_take_arguments() {
        for schema in [
            json!({"type": "object", "additionalProperties": true}),
            json!({"type": "object", "additionalProperties": {"type": "string"}}),
            json!({"type": "object", "patternProperties": {"^x": {"type": "string"}}}),
            json!({"type": "object", "anyOf": [{"properties": {"a": {"type": "string"}}}]}),
            json!({"type": "object", "$ref": "#/$defs/a", "$defs": {"a": {"type": "object"}}}),
        ] {
            assert!(!accepts_no_arguments(Some(&schema)), "{schema}");
            ok(schema, json!({"x1": "v"}));
        }
        assert!(accepts_no_arguments(Some(
            &json!({"type": "object", "additionalProperties": false})
        )));
        assert!(!accepts_no_arguments(Some(
            &json!({"type": "object", "properties": {"a": {}}})
        )));
    }

    #[test]
    fn arguments_must_be_an_object() {
        for arguments in [json!([1]), json!("x"), json!(3), json!(null), json!(true)] {
            assert_eq!(
                verdict(Some(city()), arguments),
                vec!["tool-arguments-not-object"]
            );
        }
    }

    #[test]
    fn invalid_schemas_are_findings_of_their_own() {
        assert!(check_schema(&json!({"type": "objekt"})).is_some());
        assert!(
            check_schema(&json!({"type": "object", "properties": {"a": {"type": 3}}})).is_some()
        );
        assert!(check_schema(&json!({"required": "a"})).is_some());
        assert!(check_schema(&city()).is_none());
        // A broken schema does not also fail every call against it.
        assert_eq!(
            verdict(
                Some(json!({"type": "objekt", "properties": {"a": {}}})),
                json!({"a": 1})
            ),
            Vec::<&str>::new()
        );
    }

    #[test]
    fn messages_name_the_tool_and_the_schema_path() {
        let problems = check_arguments(
            "get_chart",
            Some("c1"),
            Some(&city()),
            &json!({"city": 3}),
            &Lending::NONE,
        );
        assert_eq!(problems.len(), 1);
        assert!(
            problems[0]
                .message
                .starts_with("arguments/city of call c1 (get_chart): 3 is not of type \"string\""),
            "{}",
            problems[0].message
        );
        assert!(
            problems[0]
                .message
                .ends_with("(schema /properties/city/type)"),
            "{}",
            problems[0].message
        );
    }
}
