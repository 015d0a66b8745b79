//! `partkit validate` on transcripts (docs/commands/validate.md): the tool-call id rules
//! (tool-id-missing, tool-id-duplicate, tool-id-pattern), per shape.

use serde_json::json;

use super::support::exchange::*;
use super::support::findings::*;
use super::support::shapes::*;

// Long: a table of cases, one or more per shape.
#[test]
fn rule_tool_id_missing() {
    let mut cases = Vec::new();
    for shape in SHAPES {
        // A call with no id field (the conversation ends at it).
        let b = build(
            shape,
            None,
            &[
                User("Go."),
                Calls(vec![(None, "get_chart", value(json!({})))]),
            ],
        );
        if ids_optional(shape) {
            cases.push(built("a call without an id is allowed", &b, &[]));
        } else {
            cases.push(built(
                "a call without an id",
                &b,
                &[("tool-id-missing", b.call(0), "call of get_chart has no id")],
            ));
        }
        // A call with an empty id.
        let b = build(
            shape,
            None,
            &[
                User("Go."),
                Calls(vec![(Some(""), "get_chart", value(json!({})))]),
            ],
        );
        if shape == "gemini" {
            cases.push(built("an empty id reads as none (proto3)", &b, &[]));
        } else {
            cases.push(built(
                "a call with an empty id",
                &b,
                &[("tool-id-missing", b.call(0), "call of get_chart has no id")],
            ));
        }
        // A result with no id field, or an empty one, after a call with one.
        for (what, id) in [("no call id field", None), ("an empty call id", Some(""))] {
            let b = build(
                shape,
                None,
                &[
                    User("Go."),
                    Calls(vec![call("call_1", "get_chart", json!({}))]),
                    Results(vec![(id, "get_chart", "rising")]),
                ],
            );
            let absent = id.is_none() || shape == "gemini";
            let message = if absent && ids_optional(shape) {
                // Paired by name: it answers call_1, but does not echo its id.
                "the result of call call_1 (get_chart) has no call id; it must echo the call's id call_1"
            } else {
                "tool result has no call id"
            };
            cases.push(built(
                &format!("a result with {what}"),
                &b,
                &[("tool-id-missing", b.result(0), message)],
            ));
        }
    }
    // The missing tool_call_id of a single OpenAI Chat tool message.
    cases.push(case(
        "openai-chat: a single tool message without tool_call_id",
        &["--from", "openai-chat"],
        json!({"role": "tool", "content": "rising"}),
        &[("tool-id-missing", "", "tool result has no call id")],
    ));
    cases.push(case(
        "anthropic: a single tool_result without tool_use_id",
        &["--from", "anthropic"],
        json!({"type": "tool_result", "content": "rising"}),
        &[("tool-id-missing", "", "tool result has no call id")],
    ));
    cases.push(case(
        "bedrock: a single toolResult without toolUseId",
        &[],
        json!({"toolResult": {"content": [{"text": "rising"}]}}),
        &[(
            "tool-id-missing",
            "/toolResult",
            "tool result has no call id",
        )],
    ));
    check(cases);
}

#[test]
fn rule_tool_id_duplicate() {
    let mut cases = Vec::new();
    for shape in SHAPES {
        let b = build(
            shape,
            None,
            &[
                User("Chart Paris and Rome."),
                Calls(vec![
                    call("call_1", "get_chart", json!({"city": "Paris"})),
                    call("call_1", "get_chart", json!({"city": "Rome"})),
                ]),
                Results(vec![
                    result("call_1", "get_chart", "rising"),
                    result("call_1", "get_chart", "falling"),
                ]),
                Assistant("Done."),
            ],
        );
        let message = format!(
            "call id \"call_1\" is used twice (first by the call at {})",
            b.call(0)
        );
        cases.push(built(
            "two calls of one turn with one id",
            &b,
            &[("tool-id-duplicate", b.call(1), &message)],
        ));
        let b = chart_paris(
            shape,
            &[
                Results(vec![result("call_1", "get_chart", "rising")]),
                Assistant("Rising."),
                User("And Rome."),
                Calls(vec![call("call_1", "get_chart", json!({"city": "Rome"}))]),
                Results(vec![result("call_1", "get_chart", "falling")]),
            ],
        );
        let message = format!(
            "call id \"call_1\" is used twice (first by the call at {})",
            b.call(0)
        );
        cases.push(built(
            "an id used again in a later turn",
            &b,
            &[("tool-id-duplicate", b.call(1), &message)],
        ));
    }
    check(cases);
}

#[test]
fn rule_tool_id_pattern() {
    let mut cases = Vec::new();
    let long: &'static str = Box::leak("a".repeat(65).into_boxed_str());
    for (shape, id, pattern) in [
        ("anthropic", "call.1", "[a-zA-Z0-9_-]+"),
        ("anthropic", "call:1", "[a-zA-Z0-9_-]+"),
        ("bedrock", "call/1", "[a-zA-Z0-9_.:-]{1,64}"),
        ("bedrock", long, "[a-zA-Z0-9_.:-]{1,64}"),
    ] {
        let b = build(
            shape,
            None,
            &[
                User("Go."),
                Calls(vec![call(id, "get_chart", json!({}))]),
                Results(vec![result(id, "get_chart", "rising")]),
                Assistant("Done."),
            ],
        );
        let message = format!("call id {id:?} is outside {shape}'s pattern {pattern}");
        cases.push(built(
            &format!("id {id:?}"),
            &b,
            &[("tool-id-pattern", b.call(0), &message)],
        ));
    }
    // What each pattern allows; other shapes have none.
    for (shape, id) in [
        ("anthropic", "toolu_01A-b"),
        ("bedrock", "tooluse.01:A-b_c"),
        ("openai-chat", "call.1/ü"),
        ("openai-responses", "call.1/ü"),
        ("gemini", "call.1/ü"),
        ("canonical", "call.1/ü"),
    ] {
        let b = build(
            shape,
            None,
            &[
                User("Go."),
                Calls(vec![call(id, "get_chart", json!({}))]),
                Results(vec![result(id, "get_chart", "rising")]),
                Assistant("Done."),
            ],
        );
        cases.push(built(&format!("id {id:?} is allowed"), &b, &[]));
    }
    check(cases);
}
