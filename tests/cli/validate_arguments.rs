//! `partkit validate` on transcripts (docs/commands/validate.md): tool-call arguments
//! against declared schemas by NeMo Guardrails' rules (more than 40 cases), and
//! hosted tools without a schema.

use serde_json::{json, Value};

use super::support::exchange::*;
use super::support::findings::*;
use super::support::shapes::*;

// ---------------------------------------------------------------------------
// Tool-call arguments against declared schemas (NeMo Guardrails' rules)

/// What validate must say about one call.
enum Verdict {
    /// No finding.
    Clean,
    /// One finding on the call.
    Call(&'static str, &'static str),
    /// Findings on the call, in order.
    Calls(&'static [(&'static str, &'static str)]),
    /// The schema is not JSON Schema: one finding at this pointer inside it.
    Schema(&'static str, &'static str),
}

/// One argument case: the tool `f`'s schema, a call's arguments, the verdict.
struct ArgCase {
    what: &'static str,
    schema: Option<Value>,
    args: Args,
    verdict: Verdict,
    /// The shapes the case may be written in (`None`: all).
    only: Option<&'static [&'static str]>,
}

fn arg_case(what: &'static str, schema: Option<Value>, args: Value, verdict: Verdict) -> ArgCase {
    ArgCase {
        what,
        schema,
        args: Args::Value(args),
        verdict,
        only: None,
    }
}

/// Arguments with the literal spelling `text` (`5.0`, big integers).
fn literal(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

fn nested_schema() -> Value {
    json!({"type": "object", "properties": {
        "point": {"type": "object", "properties": {"x": {"type": "number"}, "y": {"type": "number"}}, "required": ["x"]},
        "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 2}}})
}

fn closed_schema() -> Value {
    json!({"type": "object", "properties": {"city": {"type": "string"}}, "additionalProperties": false})
}

fn any_of_schema() -> Value {
    json!({"type": "object", "properties": {"v": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}, "required": ["v"]})
}

fn one_of_schema() -> Value {
    json!({"oneOf": [
        {"type": "object", "properties": {"kind": {"const": "city"}, "name": {"type": "string"}}, "required": ["kind", "name"]},
        {"type": "object", "properties": {"kind": {"const": "point"}, "x": {"type": "number"}}, "required": ["kind", "x"]}]})
}

fn bounds_schema() -> Value {
    json!({"type": "object", "properties": {
        "n": {"type": "number", "minimum": 0, "exclusiveMaximum": 10},
        "s": {"type": "string", "minLength": 2, "pattern": "^[a-z]+$"},
        "unit": {"enum": ["c", "f"]},
        "version": {"const": 2}}})
}

fn formats_schema() -> Value {
    json!({"type": "object", "properties": {
        "day": {"type": "string", "format": "date"},
        "mail": {"type": "string", "format": "email"},
        "site": {"type": "string", "format": "uri"}}})
}

fn draft4_schema() -> Value {
    // Draft 4's boolean exclusiveMinimum; under 2020-12 it would be invalid.
    json!({"$schema": "http://json-schema.org/draft-04/schema#", "type": "object",
           "properties": {"n": {"type": "integer", "minimum": 0, "exclusiveMinimum": true}}})
}

// Long: the table of cases, one per schema rule.
fn arg_cases() -> Vec<ArgCase> {
    use Verdict::{Call, Calls, Clean, Schema};
    const BAD: &str = "tool-arguments-schema";
    const NOT_OBJECT: &str = "tool-arguments-not-object";
    let no_params = "f declares no parameters, but call call_1 (f) passes a";
    vec![
        // Types and required properties.
        arg_case("a required string", Some(chart_schema()), json!({"city": "Paris"}), Clean),
        arg_case("an optional integer", Some(chart_schema()), json!({"city": "Paris", "days": 3}), Clean),
        arg_case("5.0 is an integer", Some(chart_schema()), literal(r#"{"city": "Paris", "days": 5.0}"#), Clean),
        arg_case("a big integer", Some(chart_schema()), literal(r#"{"city": "Paris", "days": 12345678901234567890}"#), Clean),
        arg_case("a property the schema does not name", Some(chart_schema()), json!({"city": "Paris", "units": "metric"}), Clean),
        arg_case("the required property missing", Some(chart_schema()), json!({}),
            Call(BAD, "the arguments of call call_1 (f): \"city\" is a required property (schema /required)")),
        arg_case("a number for a string", Some(chart_schema()), json!({"city": 3}),
            Call(BAD, "arguments/city of call call_1 (f): 3 is not of type \"string\" (schema /properties/city/type)")),
        arg_case("null for a string", Some(chart_schema()), json!({"city": null}),
            Call(BAD, "arguments/city of call call_1 (f): null is not of type \"string\" (schema /properties/city/type)")),
        arg_case("a string for an integer", Some(chart_schema()), json!({"city": "Paris", "days": "3"}),
            Call(BAD, "arguments/days of call call_1 (f): \"3\" is not of type \"integer\" (schema /properties/days/type)")),
        arg_case("2.5 for an integer", Some(chart_schema()), literal(r#"{"city": "Paris", "days": 2.5}"#),
            Call(BAD, "arguments/days of call call_1 (f): 2.5 is not of type \"integer\" (schema /properties/days/type)")),
        arg_case("every violation, one finding each", Some(chart_schema()), json!({"city": 3, "days": 0}),
            Calls(&[(BAD, "arguments/city of call call_1 (f): 3 is not of type \"string\" (schema /properties/city/type)"),
                    (BAD, "arguments/days of call call_1 (f): 0 is less than the minimum of 1 (schema /properties/days/minimum)")])),
        // Enums, consts, bounds.
        arg_case("an enum value", Some(bounds_schema()), json!({"unit": "c"}), Clean),
        arg_case("a value outside the enum", Some(bounds_schema()), json!({"unit": "k"}),
            Call(BAD, "arguments/unit of call call_1 (f): \"k\" is not one of \"c\" or \"f\" (schema /properties/unit/enum)")),
        arg_case("the const", Some(bounds_schema()), json!({"version": 2}), Clean),
        arg_case("not the const", Some(bounds_schema()), json!({"version": 3}),
            Call(BAD, "arguments/version of call call_1 (f): 2 was expected (schema /properties/version/const)")),
        arg_case("numbers in bounds", Some(bounds_schema()), json!({"n": 0, "s": "ab"}), Clean),
        arg_case("under the minimum", Some(bounds_schema()), json!({"n": -1}),
            Call(BAD, "arguments/n of call call_1 (f): -1 is less than the minimum of 0 (schema /properties/n/minimum)")),
        arg_case("at the exclusive maximum", Some(bounds_schema()), json!({"n": 10}),
            Call(BAD, "arguments/n of call call_1 (f): 10 is greater than or equal to the maximum of 10 (schema /properties/n/exclusiveMaximum)")),
        arg_case("too short", Some(bounds_schema()), json!({"s": "a"}),
            Call(BAD, "arguments/s of call call_1 (f): \"a\" is shorter than 2 characters (schema /properties/s/minLength)")),
        arg_case("off the pattern", Some(bounds_schema()), json!({"s": "AB"}),
            Call(BAD, "arguments/s of call call_1 (f): \"AB\" does not match \"^[a-z]+$\" (schema /properties/s/pattern)")),
        // Nested objects and arrays.
        arg_case("a nested object and an array", Some(nested_schema()), json!({"point": {"x": 1.5, "y": 2}, "tags": ["a", "b"]}), Clean),
        arg_case("an empty array", Some(nested_schema()), json!({"tags": []}), Clean),
        arg_case("a nested required property missing", Some(nested_schema()), json!({"point": {"y": 2}}),
            Call(BAD, "arguments/point of call call_1 (f): \"x\" is a required property (schema /properties/point/required)")),
        arg_case("a nested wrong type", Some(nested_schema()), json!({"point": {"x": "1"}}),
            Call(BAD, "arguments/point/x of call call_1 (f): \"1\" is not of type \"number\" (schema /properties/point/properties/x/type)")),
        arg_case("an array item of the wrong type", Some(nested_schema()), json!({"tags": ["a", 1]}),
            Call(BAD, "arguments/tags/1 of call call_1 (f): 1 is not of type \"string\" (schema /properties/tags/items/type)")),
        arg_case("too many array items", Some(nested_schema()), json!({"tags": ["a", "b", "c"]}),
            Call(BAD, "arguments/tags of call call_1 (f): [\"a\",\"b\",\"c\"] has more than 2 items (schema /properties/tags/maxItems)")),
        // additionalProperties: false.
        arg_case("additionalProperties false, named properties only", Some(closed_schema()), json!({"city": "Paris"}), Clean),
        arg_case("additionalProperties false, an extra property", Some(closed_schema()), json!({"city": "Paris", "days": 3}),
            Call(BAD, "the arguments of call call_1 (f): Additional properties are not allowed ('days' was unexpected) (schema /additionalProperties)")),
        // anyOf and oneOf.
        arg_case("anyOf, the first branch", Some(any_of_schema()), json!({"v": "x"}), Clean),
        arg_case("anyOf, the second branch", Some(any_of_schema()), json!({"v": 3}), Clean),
        arg_case("anyOf, no branch", Some(any_of_schema()), json!({"v": [1]}),
            Call(BAD, "arguments/v of call call_1 (f): [1] is not valid under any of the schemas listed in the 'anyOf' keyword (schema /properties/v/anyOf)")),
        arg_case("oneOf, one branch", Some(one_of_schema()), json!({"kind": "point", "x": 1}), Clean),
        arg_case("oneOf, no branch", Some(one_of_schema()), json!({"kind": "city"}),
            Call(BAD, "the arguments of call call_1 (f): {\"kind\":\"city\"} is not valid under any of the schemas listed in the 'oneOf' keyword (schema /oneOf)")),
        // format is an annotation, not asserted.
        arg_case("format: date, email, uri not asserted", Some(formats_schema()),
            json!({"day": "not a date", "mail": "not an email", "site": "not a uri"}), Clean),
        arg_case("format does not excuse the type", Some(formats_schema()), json!({"day": 20240101}),
            Call(BAD, "arguments/day of call call_1 (f): 20240101 is not of type \"string\" (schema /properties/day/type)")),
        // The draft comes from $schema.
        arg_case("draft-04 exclusiveMinimum: true excludes the minimum", Some(draft4_schema()), json!({"n": 0}),
            Call(BAD, "arguments/n of call call_1 (f): 0 is less than or equal to the minimum of 0 (schema /properties/n/exclusiveMinimum)")),
        arg_case("draft-04: above the minimum", Some(draft4_schema()), json!({"n": 1}), Clean),
        // Tools that declare no parameters accept no arguments.
        arg_case("no schema, no arguments", None, json!({}), Clean),
        arg_case("no schema, an argument", None, json!({"a": 1}), Call(BAD, no_params)),
        arg_case("an empty schema, no arguments", Some(json!({})), json!({}), Clean),
        arg_case("an empty schema, an argument", Some(json!({})), json!({"a": 1}), Call(BAD, no_params)),
        arg_case("an object schema with no properties, an argument", Some(json!({"type": "object"})), json!({"a": 1}), Call(BAD, no_params)),
        arg_case("empty properties, an argument", Some(json!({"type": "object", "properties": {}})), json!({"a": true}), Call(BAD, no_params)),
        arg_case("additionalProperties false and no properties, an argument",
            Some(json!({"type": "object", "properties": {}, "additionalProperties": false})), json!({"a": 1}), Call(BAD, no_params)),
        // ... unless the schema opens another channel.
        arg_case("additionalProperties true opens a channel",
            Some(json!({"type": "object", "additionalProperties": true})), json!({"a": 1}), Clean),
        arg_case("additionalProperties as a schema opens a channel, and applies",
            Some(json!({"type": "object", "additionalProperties": {"type": "string"}})), json!({"a": 1}),
            Call(BAD, "arguments/a of call call_1 (f): 1 is not of type \"string\" (schema /additionalProperties/type)")),
        arg_case("patternProperties opens a channel",
            Some(json!({"type": "object", "patternProperties": {"^x_": {"type": "integer"}}})), json!({"x_1": 1}), Clean),
        arg_case("allOf opens a channel",
            Some(json!({"type": "object", "allOf": [{"properties": {"a": {"type": "integer"}}}]})), json!({"a": 1}), Clean),
        arg_case("$ref opens a channel",
            Some(json!({"type": "object", "$ref": "#/$defs/point", "$defs": {"point": {"type": "object", "properties": {"x": {"type": "number"}}}}})),
            json!({"x": "1"}),
            Call(BAD, "arguments/x of call call_1 (f): \"1\" is not of type \"number\" (schema /$defs/point/properties/x/type)")),
        // Invalid schemas are findings of their own, and validate nothing.
        arg_case("a type that is no JSON type", Some(json!({"type": "objekt", "properties": {"a": {}}})), json!({"a": 1}),
            Schema("/type", "tool \"f\": the declared schema is not valid JSON Schema: \"objekt\" is not valid under any of the schemas listed in the 'anyOf' keyword (at /type)")),
        arg_case("required as a string", Some(json!({"type": "object", "properties": {"a": {}}, "required": "a"})), json!({}),
            Schema("/required", "tool \"f\": the declared schema is not valid JSON Schema: \"a\" is not of type \"array\" (at /required)")),
        arg_case("a nested property type that is a number", Some(json!({"type": "object", "properties": {"a": {"type": 3}}})), json!({"a": 1}),
            Schema("/properties/a/type", "tool \"f\": the declared schema is not valid JSON Schema: 3 is not valid under any of the schemas listed in the 'anyOf' keyword (at /properties/a/type)")),
        arg_case("a negative minLength", Some(json!({"type": "object", "properties": {"a": {"type": "string", "minLength": -1}}})), json!({"a": ""}),
            Schema("/properties/a/minLength", "tool \"f\": the declared schema is not valid JSON Schema: -1 is less than the minimum of 0 (at /properties/a/minLength)")),
        // Arguments that are not an object.
        arg_case("an array", Some(chart_schema()), json!(["Paris"]),
            Call(NOT_OBJECT, "arguments of call call_1 (f) must be a JSON object, not an array")),
        arg_case("a number", Some(chart_schema()), json!(42),
            Call(NOT_OBJECT, "arguments of call call_1 (f) must be a JSON object, not a number")),
        arg_case("true", None, json!(true),
            Call(NOT_OBJECT, "arguments of call call_1 (f) must be a JSON object, not a boolean")),
        ArgCase {
            what: "a JSON string",
            schema: Some(chart_schema()),
            args: Args::Value(json!("Paris")),
            verdict: Call(NOT_OBJECT, "arguments of call call_1 (f) must be a JSON object, not a string"),
            only: Some(&["openai-chat", "openai-responses", "anthropic", "gemini", "bedrock"]),
        },
        // Arguments strings that are not JSON (the OpenAI shapes; canonical keeps them).
        ArgCase {
            what: "arguments cut short",
            schema: Some(chart_schema()),
            args: Args::Raw(r#"{"city": "Par"#),
            verdict: Call("tool-arguments-json", r#"arguments of call call_1 (f) are not JSON: {"city": "Par"#),
            only: Some(&["openai-chat", "openai-responses", "canonical"]),
        },
        ArgCase {
            what: "empty arguments",
            schema: None,
            args: Args::Raw(""),
            verdict: Call("tool-arguments-json", "arguments of call call_1 (f) are an empty string, not JSON"),
            only: Some(&["openai-chat", "openai-responses"]),
        },
        ArgCase {
            what: "arguments in single quotes",
            schema: Some(chart_schema()),
            args: Args::Raw("{'city': 'Paris'}"),
            verdict: Call("tool-arguments-json", "arguments of call call_1 (f) are not JSON: {'city': 'Paris'}"),
            only: Some(&["openai-chat", "openai-responses"]),
        },
    ]
}

#[test]
fn tool_arguments_against_declared_schemas() {
    let all = arg_cases();
    assert!(all.len() >= 40, "{} argument cases", all.len());
    let mut cases = Vec::new();
    let mut next = 0;
    for arg in all {
        // Each case in the next shape it may be written in.
        let shape = loop {
            let shape = SHAPES[next % SHAPES.len()];
            next += 1;
            if arg.only.is_none_or(|only| only.contains(&shape)) {
                break shape;
            }
        };
        let tools = [("f", arg.schema.clone())];
        let b = build(
            shape,
            Some(&tools),
            &[
                User("Go."),
                Calls(vec![(Some("call_1"), "f", arg.args.clone())]),
            ],
        );
        let schema = format!(
            "{}{}",
            schema_at(shape, 0),
            match &arg.verdict {
                Verdict::Schema(at, _) => at,
                _ => "",
            }
        );
        let want: Vec<(&str, &str, &str)> = match &arg.verdict {
            Verdict::Clean => vec![],
            Verdict::Call(rule, message) => vec![(*rule, b.call(0), *message)],
            Verdict::Calls(list) => list
                .iter()
                .map(|(rule, message)| (*rule, b.call(0), *message))
                .collect(),
            Verdict::Schema(_, message) => vec![("tool-schema-invalid", schema.as_str(), *message)],
        };
        cases.push(built(arg.what, &b, &want));
    }
    check(cases);
}

#[test]
fn hosted_tools_without_a_schema_are_allow_list_only() {
    check(vec![
        case(
            "openai-responses: web_search called with arguments",
            &[],
            responses_with_tools(json!([{"type": "web_search"}, responses_tool("get_chart", Some(chart_schema()))]), json!([
                responses_user("Search the web."),
                responses_call("call_1", "web_search", r#"{"query": "Paris weather"}"#),
                responses_result("call_1", "sunny"),
                {"type": "web_search_call", "id": "ws_1", "status": "completed", "action": {"type": "search", "query": "Rome"}},
                {"role": "assistant", "content": "Sunny."}])),
            &[],
        ),
        case(
            "anthropic: a server tool (bash) called through tool_use",
            &[],
            anthropic_with_tools(json!([{"type": "bash_20250124", "name": "bash"}]), json!([
                anthropic_user("List the files."),
                anthropic_blocks("assistant", vec![anthropic_call("toolu_1", "bash", json!({"command": "ls -la"}))]),
                anthropic_blocks("user", vec![anthropic_result("toolu_1", "a.txt")]),
                {"role": "assistant", "content": "One file."}])),
            &[],
        ),
        case(
            "anthropic: web search through server_tool_use",
            &[],
            anthropic_with_tools(json!([{"type": "web_search_20250305", "name": "web_search", "max_uses": 3}]), json!([
                anthropic_user("Search the web."),
                anthropic_blocks("assistant", vec![
                    json!({"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {"query": "Paris"}}),
                    json!({"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": []}),
                    text("Sunny.")])])),
            &[],
        ),
        // A function tool of the same name is checked by its schema.
        case(
            "anthropic: a function tool named like a server tool, with no parameters",
            &[],
            anthropic_with_tools(json!([anthropic_tool("web_search", json!({"type": "object", "properties": {}}))]), json!([
                anthropic_user("Search the web."),
                anthropic_blocks("assistant", vec![anthropic_call("toolu_1", "web_search", json!({"query": "Paris"}))])])),
            &[("tool-arguments-schema", "/messages/1/content/0",
               "web_search declares no parameters, but call toolu_1 (web_search) passes query")],
        ),
        case(
            "openai-responses: a call of a hosted tool that is not declared",
            &[],
            responses_with_tools(json!([responses_tool("get_chart", Some(chart_schema()))]), json!([
                responses_user("Search the web."),
                responses_call("call_1", "web_search", r#"{"query": "Paris weather"}"#)])),
            &[("tool-undeclared", "/input/1",
               "call call_1 (web_search) calls a tool the document does not declare (declared: get_chart)")],
        ),
    ]);
}
