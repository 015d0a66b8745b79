//! Validation findings as a table: one line per document, the (rule, pointer)
//! pairs it must give (`support::tables::finds`, over the binary with
//! `--format json`; the rule files check the messages).

use serde_json::json;

use super::support::tables::finds;

// One case a line, wider than rustfmt's width, so that a case reads as a row.
#[test]
#[rustfmt::skip]
fn findings_by_rule_and_pointer() {
    finds("gemini", json!({"contents": [{"role": "user", "parts": [{"text": "Hi"}]}, {"role": "model", "parts": [{"text": "Hello"}]}]}), &[]);
    finds("openai-chat", json!({"model": "gpt-4o", "messages": [{"role": "assistant", "content": null, "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}, {"role": "tool", "tool_call_id": "call_9", "content": "ok"}]}), &[("tool-undeclared", "/messages/0/tool_calls/0"), ("tool-result-orphan", "/messages/1")]);
    finds("openai-chat", json!({"model": "gpt-4o", "messages": [{"role": "assistant", "content": null, "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{"}}]}, {"role": "tool", "tool_call_id": "call_1", "content": "ok"}]}), &[("tool-arguments-json", "/messages/0/tool_calls/0")]);
    finds("anthropic", json!({"model": "c", "max_tokens": 9, "system": "s", "messages": [{"role": "user", "content": [{"type": "text", "text": ""}]}]}), &[("text-empty", "/messages/0/content/0")]);
    finds("anthropic", json!({"model": "c", "max_tokens": 9, "system": "s", "messages": [{"role": "assistant", "content": [{"type": "tool_use", "id": "a", "name": "f", "input": {}}, {"type": "tool_use", "id": "a", "name": "f", "input": {}}]}, {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "a", "content": "ok"}]}]}), &[("tool-undeclared", "/messages/0/content/0"), ("tool-id-duplicate", "/messages/0/content/1"), ("tool-undeclared", "/messages/0/content/1")]);
    finds("bedrock", json!({"modelId": "m", "messages": [{"role": "assistant", "content": [{"toolUse": {"toolUseId": "t1", "name": "f", "input": {}}}]}, {"role": "user", "content": [{"toolResult": {"toolUseId": "t2", "content": [{"text": "ok"}]}}]}]}), &[("tool-undeclared", "/messages/0/content/0/toolUse"), ("tool-result-orphan", "/messages/1/content/0/toolResult")]);
    finds("openai-responses", json!({"model": "m", "input": [{"type": "function_call_output", "call_id": "call_1", "output": "ok"}]}), &[("tool-result-orphan", "/input/0")]);
}
