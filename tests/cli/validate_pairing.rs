//! `partkit validate` on transcripts (docs/commands/validate.md): calls and their results
//! (tool-call-unanswered, tool-result-orphan, tool-result-duplicate,
//! tool-result-position), and Gemini's id-less pairing by name and order.

use serde_json::{json, Value};

use super::support::exchange::*;
use super::support::findings::*;
use super::support::shapes::*;

#[test]
fn rule_tool_call_unanswered() {
    let mut cases = Vec::new();
    for shape in SHAPES {
        let b = build(
            shape,
            None,
            &[
                User("Chart Paris and Rome."),
                Calls(vec![
                    call("call_1", "get_chart", json!({"city": "Paris"})),
                    call("call_2", "get_chart", json!({"city": "Rome"})),
                ]),
                Results(vec![result("call_1", "get_chart", "rising")]),
                Assistant("Rome did not answer."),
            ],
        );
        cases.push(built(
            "a call with no result",
            &b,
            &[(
                "tool-call-unanswered",
                b.call(1),
                "call call_2 (get_chart) has no result in the tool results right after it",
            )],
        ));
        let b = chart_paris(shape, &[User("Well?")]);
        cases.push(built(
            "the user speaks instead of the result",
            &b,
            &[(
                "tool-call-unanswered",
                b.call(0),
                "call call_1 (get_chart) has no result in the tool results right after it",
            )],
        ));
        // A conversation that stops at the calls: the results are to come.
        let b = build(
            shape,
            None,
            &[
                User("Chart Paris and Rome."),
                Calls(vec![
                    call("call_1", "get_chart", json!({"city": "Paris"})),
                    call("call_2", "get_chart", json!({"city": "Rome"})),
                ]),
            ],
        );
        cases.push(built("the conversation ends at the calls", &b, &[]));
        let b = build(
            shape,
            None,
            &[
                User("Chart Paris and Rome."),
                Calls(vec![
                    call("call_1", "get_chart", json!({"city": "Paris"})),
                    call("call_2", "get_chart", json!({"city": "Rome"})),
                ]),
                Results(vec![result("call_1", "get_chart", "rising")]),
            ],
        );
        cases.push(built("the conversation ends inside the results", &b, &[]));
    }
    check(cases);
}

// Long: a table of conversations and the findings each gives.
#[test]
fn id_less_gemini_calls_pair_with_results_by_name_and_order() {
    let none = |name: &'static str, args: Value| (None, name, value(args));
    let answer = |name: &'static str, text: &'static str| (None, name, text);
    let two_calls = || {
        Calls(vec![
            none("get_chart", json!({"city": "Paris"})),
            none("get_chart", json!({"city": "Rome"})),
        ])
    };
    let mut cases = Vec::new();
    for shape in ["gemini", "canonical"] {
        let b = build(
            shape,
            None,
            &[
                User("Chart Paris and Rome."),
                two_calls(),
                Results(vec![
                    answer("get_chart", "rising"),
                    answer("get_chart", "falling"),
                ]),
                Assistant("Paris rises, Rome falls."),
            ],
        );
        cases.push(built(
            "two id-less calls of one function, two results",
            &b,
            &[],
        ));
        let b = build(
            shape,
            None,
            &[
                User("Chart Paris, then the weather."),
                Calls(vec![
                    none("get_chart", json!({"city": "Paris"})),
                    none("get_weather", json!({"city": "Paris"})),
                ]),
                Results(vec![
                    answer("get_weather", "sunny"),
                    answer("get_chart", "rising"),
                ]),
                Assistant("Sunny and rising."),
            ],
        );
        cases.push(built(
            "results of two functions in the other order",
            &b,
            &[],
        ));
        let b = build(
            shape,
            None,
            &[
                User("Chart Paris and Rome."),
                two_calls(),
                Results(vec![answer("get_chart", "rising")]),
                Assistant("Only one came back."),
            ],
        );
        cases.push(built(
            "one result too few",
            &b,
            &[(
                "tool-call-unanswered",
                b.call(1),
                "call of get_chart has no result in the tool results right after it",
            )],
        ));
        let b = build(
            shape,
            None,
            &[
                User("Chart Paris."),
                Calls(vec![none("get_chart", json!({"city": "Paris"}))]),
                Results(vec![
                    answer("get_chart", "rising"),
                    answer("get_chart", "rising again"),
                ]),
                Assistant("Twice?"),
            ],
        );
        cases.push(built("one result too many", &b, &[(
            "tool-result-duplicate",
            b.result(1),
            "every call of get_chart in the turn before already has its result; this one answers a call a second time",
        )]));
        let b = build(
            shape,
            None,
            &[
                User("Chart Paris."),
                Calls(vec![none("get_chart", json!({"city": "Paris"}))]),
                Results(vec![answer("get_weather", "sunny")]),
                Assistant("Hm."),
            ],
        );
        cases.push(built("a result of a function the turn did not call", &b, &[
            ("tool-result-orphan", b.result(0), "result of get_weather, but the turn before has no unanswered call of get_weather"),
            ("tool-call-unanswered", b.call(0), "call of get_chart has no result in the tool results right after it"),
        ]));
    }
    check(cases);
}

#[test]
fn rule_tool_result_orphan() {
    let mut cases = Vec::new();
    for shape in SHAPES {
        let b = chart_paris(
            shape,
            &[
                Results(vec![
                    result("call_1", "get_chart", "rising"),
                    result("call_9", "get_chart", "falling"),
                ]),
                Assistant("Done."),
            ],
        );
        cases.push(built(
            "a result whose id no call has",
            &b,
            &[(
                "tool-result-orphan",
                b.result(1),
                "tool result for call_9, but no call has that id",
            )],
        ));
    }
    // In a request, a result before any call is an orphan; a bare list may
    // start inside a conversation (a tool result written as messages), so
    // there the results before its first assistant message are not.
    for shape in ["openai-chat", "anthropic", "canonical"] {
        let b = build(
            shape,
            None,
            &[
                User("Hi."),
                Results(vec![result("call_9", "get_chart", "rising")]),
                Assistant("Hm."),
            ],
        );
        cases.push(built(
            "a request that starts with a result",
            &b,
            &[(
                "tool-result-orphan",
                b.result(0),
                "tool result for call_9, but no call has that id",
            )],
        ));
    }
    cases.push(
        case(
            "openai-chat: a list that starts with a tool message and its lifted media",
            &[],
            json!([chat_result("call_9", "[tool returned media; see the next user message]"),
               {"role": "user", "content": [text("Output of tool call call_9:"), chat_image()]}]),
            &[],
        )
        .images(1),
    );
    cases.push(case(
        "canonical: a list that starts with a tool message",
        &["--from", "canonical"],
        json!([
            canonical_results(vec![canonical_result("call_9", "get_chart", "rising")]),
            canonical_user("Thanks.")
        ]),
        &[],
    ));
    check(cases);
}

#[test]
fn rule_tool_result_duplicate() {
    let mut cases = Vec::new();
    for shape in SHAPES {
        let b = chart_paris(
            shape,
            &[
                Results(vec![
                    result("call_1", "get_chart", "rising"),
                    result("call_1", "get_chart", "rising again"),
                ]),
                Assistant("Done."),
            ],
        );
        cases.push(built(
            "a call answered twice",
            &b,
            &[(
                "tool-result-duplicate",
                b.result(1),
                "call call_1 is answered more than once",
            )],
        ));
        let b = chart_paris(
            shape,
            &[
                Results(vec![result("call_1", "get_chart", "rising")]),
                Assistant("Rising. Once more?"),
                Results(vec![result("call_1", "get_chart", "rising again")]),
            ],
        );
        cases.push(built(
            "a call answered again turns later",
            &b,
            &[(
                "tool-result-duplicate",
                b.result(1),
                "call call_1 is answered more than once",
            )],
        ));
    }
    check(cases);
}

#[test]
fn rule_tool_result_position() {
    let mut cases = Vec::new();
    for shape in SHAPES {
        // Anthropic: not in the next message. OpenAI: not in the tool messages
        // right after the call. Reported once, at the result.
        let b = chart_paris(
            shape,
            &[
                User("Hurry."),
                Assistant("Working on it."),
                Results(vec![result("call_1", "get_chart", "rising")]),
            ],
        );
        let message = format!(
            "the result of call call_1 is not in the tool results right after its call (at {})",
            b.call(0)
        );
        cases.push(built(
            "a result after other messages",
            &b,
            &[("tool-result-position", b.result(0), &message)],
        ));
    }
    check(cases);
}
