//! Property tests: for generated transcripts, every shape's document converted
//! to the canonical form and back is the same JSON value (docs/conversion.md), and
//! converting through canonical twice changes nothing more. Media stand in
//! every place a transcript has them: a user's image and PDF, an image in a
//! later user turn, images in tool results.

use partkit::convert::{convert, ConvertOptions};
use partkit::shapes::Shape;
use proptest::prelude::*;
use serde_json::{json, Value};

/// Shapes that hold whole transcripts.
const SHAPES: [Shape; 5] = [
    Shape::OpenaiChat,
    Shape::OpenaiResponses,
    Shape::Anthropic,
    Shape::Gemini,
    Shape::Bedrock,
];

fn png() -> String {
    use base64::Engine;
    let bytes = std::fs::read(super::fixture("tiny.png")).expect("fixture");
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

fn pdf() -> String {
    use base64::Engine;
    let bytes = std::fs::read(super::fixture("doc.pdf")).expect("fixture");
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-zA-Z0-9 ,.!?]{1,24}",
        Just("quotes \" and \\ backslashes".to_string()),
        Just("unicode: café ☕ 東京".to_string()),
        Just("line\nbreaks\ttabs".to_string()),
    ]
}

/// One tool exchange: an assistant turn with 1–3 calls, then their results.
fn exchange(
    index: usize,
    calls: usize,
    with_image: Vec<bool>,
    results: Vec<String>,
    arg: i64,
) -> Vec<Value> {
    let mut call_blocks = Vec::new();
    let mut result_blocks = Vec::new();
    for n in 0..calls {
        let id = format!("call_{index}_{n}");
        call_blocks.push(json!({"type": "tool_call", "id": id, "name": "lookup",
                                "arguments": {"n": arg + n as i64, "q": results[n].clone()}}));
        let mut content = vec![json!({"type": "text", "text": results[n].clone()})];
        if with_image[n] {
            content.push(json!({"type": "image", "mimeType": "image/png", "data": png()}));
        }
        result_blocks.push(
            json!({"type": "tool_result", "call_id": id, "name": "lookup",
                                  "is_error": false, "content": content}),
        );
    }
    vec![
        json!({"role": "assistant", "content": call_blocks}),
        json!({"role": "tool", "content": result_blocks}),
    ]
}

prop_compose! {
    fn transcript()(
        system in proptest::option::of(text()),
        opening in text(),
        image in any::<bool>(),
        document in any::<bool>(),
        later_image in any::<bool>(),
        exchanges in proptest::collection::vec(
            (1usize..=3, proptest::collection::vec(any::<bool>(), 3), proptest::collection::vec(text(), 3), -5i64..5),
            0..3),
        closing in proptest::option::of(text()),
        max_tokens in proptest::option::of(1u32..4096),
    ) -> Value {
        let mut first = vec![json!({"type": "text", "text": opening})];
        if image {
            first.push(json!({"type": "image", "mimeType": "image/png", "data": png()}));
        }
        if document {
            first.push(json!({"type": "file", "mimeType": "application/pdf", "data": pdf(), "name": "report.pdf"}));
        }
        let mut messages = vec![json!({"role": "user", "content": first})];
        for (index, (calls, images, results, arg)) in exchanges.into_iter().enumerate() {
            messages.extend(exchange(index, calls, images, results, arg));
        }
        if later_image {
            // Media in a later user turn too, after the tool exchanges.
            messages.push(json!({"role": "user", "content": [
                {"type": "image", "mimeType": "image/png", "data": png()},
                {"type": "text", "text": "and this one?"},
            ]}));
        }
        if let Some(closing) = closing {
            messages.push(json!({"role": "assistant", "content": [{"type": "text", "text": closing}]}));
        }
        let mut doc = json!({
            "model": "test-model",
            "tools": [{"name": "lookup", "description": "Look something up",
                       "parameters": {"type": "object", "properties": {"n": {"type": "integer"}, "q": {"type": "string"}}}}],
            "messages": messages,
        });
        if let Some(system) = system {
            doc["system"] = json!([{"type": "text", "text": system}]);
        }
        if let Some(max_tokens) = max_tokens {
            doc["max_tokens"] = json!(max_tokens);
        }
        doc
    }
}

fn to(value: &Value, from: Shape, to: Shape) -> Result<Value, String> {
    convert(value, Some(from), to, ConvertOptions::default())
        .map(|c| c.value)
        .map_err(|e| format!("{from} -> {to}: {e}"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn every_shape_round_trips_through_canonical(doc in transcript()) {
        for shape in SHAPES {
            let written = to(&doc, Shape::Canonical, shape).map_err(TestCaseError::fail)?;
            let canonical = to(&written, shape, Shape::Canonical).map_err(TestCaseError::fail)?;
            let back = to(&canonical, Shape::Canonical, shape).map_err(TestCaseError::fail)?;
            prop_assert_eq!(&back, &written, "{} -> canonical -> {}", shape, shape);
        }
    }

    #[test]
    fn canonical_round_trips_through_every_shape_it_fits(doc in transcript()) {
        // Canonical → A → canonical → A → canonical settles after one pass: what
        // the first trip dropped is the only difference.
        for shape in SHAPES {
            let once = to(&to(&doc, Shape::Canonical, shape).map_err(TestCaseError::fail)?, shape, Shape::Canonical)
                .map_err(TestCaseError::fail)?;
            let twice = to(&to(&once, Shape::Canonical, shape).map_err(TestCaseError::fail)?, shape, Shape::Canonical)
                .map_err(TestCaseError::fail)?;
            prop_assert_eq!(&twice, &once, "canonical -> {} -> canonical is stable", shape);
        }
    }
}
