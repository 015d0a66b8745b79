"""The recordings of ../shared/realworld/ and realworld2/ through partkit, checked against the SDK types.

For every recorded file (its shape is its folder; its HTTP status and its counts of
media, tool calls and tool results are in the folder's README table):

- a body the provider accepted (status 200) or a recorded response or tool result
  (status "—") must pass `partkit validate` (exit 0);
- it must convert to every other shape so that the output passes the target's SDK
  types and holds as many media items, tool calls and tool results as the input —
  or partkit warns about what it degraded or dropped, or exits 1 naming what the
  target cannot carry. A smaller count with no warning is a silent loss; an output
  the SDK refuses, or a message with empty content where the target refuses it,
  fails;
- A -> canonical -> A gives back A (the same JSON value, number spellings included).

The counters below read each shape with their own code, not partkit's readers, and
they are checked against the README's counts for every source file, so a counter that
misses a construct fails here instead of hiding a loss.
"""

import json
import re
import subprocess
from pathlib import Path

SHAPES = ["canonical", "openai-chat", "openai-responses", "anthropic", "gemini", "bedrock"]
SHARED = Path(__file__).resolve().parent.parent / ".." / "shared"
ROOTS = [SHARED / "realworld", SHARED / "realworld2"]


def table(root):
    """file ("shape/name.json") -> {"status", "media", "calls", "results"} from the README."""
    rows = {}
    shape = None
    for line in (root / "README.md").read_text().splitlines():
        heading = re.match(r"## (\S+)/ ", line)
        if heading:
            shape = heading.group(1)
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if shape and len(cells) >= 13 and cells[0].endswith(".json"):
            img, file, aud, vid, calls, results = (int(cell) for cell in cells[6:12])
            rows[f"{shape}/{cells[0]}"] = {
                "status": cells[5],
                "media": img + file + aud + vid,
                "calls": calls,
                "results": results,
            }
    return rows


def exact(text):
    """A JSON value whose numbers keep their spelling, so 1.0 and 1 differ."""
    return json.loads(text, parse_float=lambda s: ("float", s), parse_int=lambda s: ("int", s))


# ---- counting, per shape, by each shape's own constructs ----------------------------

SKIPPED_KEYS = {"tools", "toolConfig", "tool_config", "generationConfig", "usage", "metadata"}


def walk(value, visit):
    if isinstance(value, dict):
        if visit(value) == "stop":
            return
        for key, item in value.items():
            if key not in SKIPPED_KEYS:
                walk(item, visit)
    elif isinstance(value, list):
        for item in value:
            walk(item, visit)


def count(shape, body):
    totals = {"media": 0, "calls": 0, "results": 0}

    def add(kind):
        totals[kind] += 1

    def visit(node):
        kind = node.get("type")
        if shape == "openai-chat":
            if kind in ("image_url", "input_audio", "file"):
                add("media")
            if node.get("role") == "tool":
                add("results")
            for _ in node.get("tool_calls") or []:
                add("calls")
        elif shape == "openai-responses":
            if kind in ("input_image", "input_file", "input_audio"):
                add("media")
            if kind in ("function_call", "custom_tool_call"):
                add("calls")
            if kind in ("function_call_output", "custom_tool_call_output"):
                add("results")
        elif shape == "anthropic":
            if kind in ("image", "document") and isinstance(node.get("source"), dict):
                add("media")
            if kind in ("tool_use", "server_tool_use"):
                add("calls")
            if kind == "tool_result" or (isinstance(kind, str) and kind.endswith("_tool_result")):
                add("results")
        elif shape == "gemini":
            for key in ("inlineData", "inline_data", "fileData", "file_data"):
                if key in node:
                    add("media")
            if "functionCall" in node or "function_call" in node:
                add("calls")
            if "functionResponse" in node or "function_response" in node:
                add("results")
        elif shape == "bedrock":
            for key in ("image", "document", "video", "audio"):
                if isinstance(node.get(key), dict) and "source" in node[key]:
                    add("media")
            if isinstance(node.get("toolUse"), dict):
                add("calls")
            if isinstance(node.get("toolResult"), dict):
                add("results")
        elif shape == "canonical":
            if kind == "opaque":
                # A provider-only block kept whole (a server tool call, say): counted
                # by the shape it came from.
                for key, number in count(node.get("shape"), node.get("value")).items():
                    totals[key] += number
                return "stop"
            if kind in ("image", "file", "audio", "video") and "mimeType" in node:
                add("media")
            if kind == "tool_call":
                add("calls")
            if kind == "tool_result":
                add("results")
        elif shape == "mcp":
            if kind in ("image", "audio", "resource", "resource_link"):
                add("media")

    walk(body, visit)
    if shape == "mcp" and isinstance(body, dict) and "content" in body:
        totals["results"] = 1
    return totals


# ---- emptiness the targets refuse ----------------------------------------------------


def empty_messages(shape, body):
    """Where the output holds a message or system prompt with nothing in it."""
    found = []
    messages = body if isinstance(body, list) else None
    if isinstance(body, dict):
        messages = body.get("messages") or body.get("input") or body.get("contents")
        if shape in ("anthropic", "bedrock") and body.get("system") in ([], ""):
            found.append("an empty system")
        if shape == "openai-responses" and body.get("instructions") == "":
            found.append("empty instructions")
        if shape == "gemini" and isinstance(body.get("systemInstruction"), dict):
            if not body["systemInstruction"].get("parts"):
                found.append("an empty systemInstruction")
    if not isinstance(messages, list):
        return found
    for number, message in enumerate(messages):
        if not isinstance(message, dict):
            continue
        if shape == "gemini":
            if not message.get("parts"):
                found.append(f"contents[{number}] without parts")
            continue
        if shape == "openai-responses" and message.get("type") not in (None, "message"):
            continue
        content = message.get("content")
        empty = content in ("", []) or (content is None and not message.get("tool_calls"))
        if shape == "openai-chat" and message.get("role") == "assistant" and message.get("tool_calls"):
            empty = False
        if empty:
            found.append(f"message {number} ({message.get('role')}) with empty content")
    return found


# ---- SDK types for responses and single tool results ---------------------------------


# What a provider's response carries that no conversion can know (ids, timestamps,
# usage): filled in before the response types are checked, as a caller would.
# A Bedrock response names no model (it is in the URL), so a converted one
# has none either: the caller adds it, as the ids.
RESPONSE_METADATA = {
    "openai-chat": {"id": "chatcmpl-1", "created": 0, "model": "test-model"},
    "openai-responses": {"id": "resp_1", "created_at": 0, "parallel_tool_calls": True, "tool_choice": "auto", "tools": [], "model": "test-model"},
    "anthropic": {"id": "msg_1", "usage": {"input_tokens": 0, "output_tokens": 0}, "model": "test-model"},
    "bedrock": {"usage": {"inputTokens": 0, "outputTokens": 0, "totalTokens": 0}, "metrics": {"latencyMs": 0}},
}


def response_validator(shape):
    def check(body):
        for key, value in RESPONSE_METADATA.get(shape, {}).items():
            body.setdefault(key, value)
        if shape == "openai-responses":
            for number, item in enumerate(body.get("output") or []):
                if isinstance(item, dict) and item.get("type") in ("message", "function_call", "reasoning"):
                    item.setdefault("id", f"item_{number}")
                    if item["type"] != "reasoning":
                        item.setdefault("status", "completed")
        if shape == "openai-chat":
            from openai.types.chat import ChatCompletion

            ChatCompletion.model_validate(body)
        elif shape == "openai-responses":
            from openai.types.responses import Response

            Response.model_validate(body)
        elif shape == "anthropic":
            from anthropic.types import Message

            Message.model_validate(body)
        elif shape == "gemini":
            from google.genai import types

            types.GenerateContentResponse.model_validate(body)
        elif shape == "bedrock":
            import botocore.session
            from botocore.validate import ParamValidator

            model = botocore.session.get_session().get_service_model("bedrock-runtime")
            report = ParamValidator().validate(body, model.operation_model("Converse").output_shape)
            if report.has_errors():
                raise ValueError(report.generate_report())

    return check


def wrap_tool_result(shape, output):
    """A single converted tool result inside the smallest request the SDK types check."""
    if shape == "openai-chat":
        messages = output if isinstance(output, list) else [output]
        return {"model": "m", "messages": messages}
    if shape == "openai-responses":
        return {"model": "m", "input": output if isinstance(output, list) else [output]}
    if shape == "anthropic":
        return {"model": "m", "max_tokens": 1, "messages": [{"role": "user", "content": [output]}]}
    if shape == "gemini":
        parts = output if isinstance(output, list) else [output]
        return {"contents": [{"role": "user", "parts": parts}]}
    if shape == "bedrock":
        return {"modelId": "m", "messages": [{"role": "user", "content": [output]}]}
    return output


def is_response(shape, body):
    if not isinstance(body, dict):
        return False
    return (
        body.get("object") in ("chat.completion", "response")
        or body.get("type") == "message"
        or "candidates" in body
        or "output" in body and isinstance(body["output"], dict)
    )


def add_caller_fields(shape, body, source_shape):
    """What a caller adds to a converted request: a model where the source named none
    (a Gemini body keeps it in the URL) and Anthropic's max_tokens, never made up."""
    if not isinstance(body, dict) or shape not in ("openai-chat", "openai-responses", "anthropic", "bedrock"):
        return body
    body.setdefault("modelId" if shape == "bedrock" else "model", "test-model")
    # The checks use the SDKs' non-streaming request types; a streaming request
    # is the same type with `stream: true`.
    if body.get("stream") is True:
        body.pop("stream")
    if shape == "anthropic":
        body.setdefault("max_tokens", 1024)
    return body


# ---- the run ---------------------------------------------------------------------------


def check(partkit, validators, report, root):
    """Runs every check over the recordings; returns the figures for the closing note."""
    root = root.resolve()
    if not (root / "README.md").exists():
        print(f"skip  real recordings: {root} is absent")
        return None
    rows = table(root)
    figures = {"accepted": 0, "accepted_clean": 0, "conversions": 0, "damaged": 0, "round_trips": 0, "exact": 0}

    def run(args, stdin=None):
        return subprocess.run([partkit, *args], input=stdin, capture_output=True, text=True)

    for name, row in sorted(rows.items()):
        path = root / name
        source_shape = name.split("/")[0]
        text = path.read_text()
        body = json.loads(text)

        counted = count(source_shape, body)
        expected = {key: row[key] for key in ("media", "calls", "results")}
        report(counted == expected, f"{name}: counted as the README says", f"counted {counted}, README {expected}")

        accepted = row["status"] in ("200", "—")
        if accepted:
            figures["accepted"] += 1
            done = run(["validate", "--quiet", str(path)])
            clean = done.returncode == 0
            figures["accepted_clean"] += clean
            report(clean, f"{name}: validates clean", (done.stdout + done.stderr).strip()[:600])

        tool_result = source_shape == "mcp"
        extra = ["--call-id", "call_1", "--name", "a_tool"] if tool_result else []
        for target in SHAPES:
            if target == source_shape:
                continue
            figures["conversions"] += 1
            what = f"{name} -> {target}"
            done = run(["convert", "--to", target, "--compact", *extra, str(path)])
            if done.returncode == 1 and "error:" in done.stderr:
                report(True, what + " (refused)")
                continue
            if done.returncode != 0:
                figures["damaged"] += 1
                report(False, what, f"partkit exit {done.returncode}: {done.stderr.strip()[:400]}")
                continue
            output = json.loads(done.stdout)
            problems = []
            warned = "warning:" in done.stderr
            got = count(target, output)
            for key in ("media", "calls", "results"):
                if got[key] < counted[key] and not warned:
                    problems.append(f"{key} {counted[key]} -> {got[key]} without a warning")
                if got[key] > counted[key] and target != "openai-chat":
                    problems.append(f"{key} {counted[key]} -> {got[key]}")
            problems += empty_messages(target, output)
            if target in validators:
                try:
                    if tool_result:
                        validators[target](wrap_tool_result(target, output))
                    elif is_response(target, output):
                        response_validator(target)(output)
                    else:
                        validators[target](add_caller_fields(target, output, source_shape))
                except BaseException as error:  # noqa: BLE001
                    if isinstance(error, (KeyboardInterrupt, SystemExit)):
                        raise
                    problems.append(f"SDK: {type(error).__name__}: {error}".replace("\n", " ")[:400])
            figures["damaged"] += bool(problems)
            report(not problems, what, "; ".join(problems))

        # A -> canonical -> A
        figures["round_trips"] += 1
        there = run(["convert", "--from", source_shape, "--to", "canonical", "--compact", *extra[:2], str(path)])
        back = None
        if there.returncode == 0:
            back = run(["convert", "--from", "canonical", "--to", source_shape, "--compact"], there.stdout)
        same = back is not None and back.returncode == 0 and exact(back.stdout) == exact(text)
        figures["exact"] += same
        detail = (there.stderr + (back.stderr if back else "")).strip()[:300]
        if back is not None and back.returncode == 0 and not same:
            detail = first_difference(exact(text), exact(back.stdout)) + " " + detail
        report(same, f"{name}: round trip through canonical is exact", detail)

    print(
        f"real recordings ({root.name}): "
        "{accepted_clean}/{accepted} accepted bodies validate clean; "
        "{damaged}/{conversions} conversions damaged; {exact}/{round_trips} round trips exact".format(**figures)
    )
    return figures


def first_difference(a, b, path=""):
    if type(a) is not type(b):
        return f"{path or '/'}: {str(a)[:80]} != {str(b)[:80]}"
    if isinstance(a, dict):
        for key in list(a) + [k for k in b if k not in a]:
            if key not in a or key not in b:
                return f"{path}/{key}: only in {'input' if key in a else 'output'}"
            if a[key] != b[key]:
                return first_difference(a[key], b[key], f"{path}/{key}")
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path}: {len(a)} items != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return first_difference(x, y, f"{path}/{i}")
    return f"{path or '/'}: {str(a)[:80]} != {str(b)[:80]}"
