#!/usr/bin/env python3
"""Checks partkit's converted output against the providers' official SDK types.

    python conformance/check.py PATH/TO/partkit

Every canonical transcript in conformance/transcripts/ is converted with
`partkit convert --to SHAPE` to each provider shape, and the output is validated
with the type the provider's own SDK uses for that request:

  openai-chat       openai.types.chat.completion_create_params.CompletionCreateParamsNonStreaming
  openai-responses  openai.types.responses.response_create_params.ResponseCreateParamsNonStreaming
  anthropic         anthropic.types.message_create_params.MessageCreateParamsNonStreaming
  gemini            google.genai.types (Content, Tool, ToolConfig, GenerationConfig), camelCase
  bedrock           botocore's ParamValidator on the bedrock-runtime Converse input
  mcp               mcp.types.CallToolResult (each tool result of each transcript)

pydantic validates `Iterable[...]` fields of TypedDicts lazily (and its lazy
iterators can panic when consumed), so TypedDicts are checked here field by
field (`deep_check`): each Iterable is walked item by item, each Union arm is
tried in full, and a key the TypedDict does not declare is an error.

A part a shape cannot carry that a user attached must make partkit exit 1; such
a conversion counts as passed when partkit refuses it, naming the part and shape.
The reviewed pair conversions of the test suite (tests/fixtures/convert/matrix/
A.to.B.json) are validated against B's types as well, and so is the conversation of
every NeMo Gym rollout in tests/fixtures/rollouts/ converted to each shape. The last line is
"N passed, M failed"; the exit code is 1 when anything failed.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def deep_check(tp, value, path="$"):
    """Checks `value` against the type `tp` in full; raises ValueError naming the path."""
    import collections.abc
    import types
    import typing

    import typing_extensions
    from pydantic import TypeAdapter

    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin in (typing.Annotated, typing_extensions.Annotated):
        return deep_check(args[0], value, path)
    if origin in (typing_extensions.Required, typing_extensions.NotRequired, typing.Required, typing.NotRequired):
        return deep_check(args[0], value, path)
    if origin in (typing.Union, types.UnionType):
        errors = []
        for arm in args:
            try:
                return deep_check(arm, value, path)
            except ValueError as error:
                errors.append(str(error))
        raise ValueError(f"{path}: matches no arm of the union: " + " | ".join(e[:160] for e in errors[:4]))
    if origin in (collections.abc.Iterable, list, typing.List, collections.abc.Sequence):
        if isinstance(value, (str, bytes, dict)) or not isinstance(value, list):
            raise ValueError(f"{path}: expected a list")
        for i, item in enumerate(value):
            deep_check(args[0], item, f"{path}[{i}]")
        return None
    if typing_extensions.is_typeddict(tp):
        if not isinstance(value, dict):
            raise ValueError(f"{path}: expected an object for {tp.__name__}")
        hints = typing.get_type_hints(tp, include_extras=True)
        unknown = set(value) - set(hints)
        if unknown:
            raise ValueError(f"{path}: {tp.__name__} has no key {sorted(unknown)}")
        # The SDKs mark required keys with Required[...] inside total=False
        # TypedDicts, which __required_keys__ does not always reflect.
        required_marks = (typing_extensions.Required, typing.Required)
        optional_marks = (typing_extensions.NotRequired, typing.NotRequired)
        total = getattr(tp, "__total__", True)
        required = {
            key
            for key, hint in hints.items()
            if typing.get_origin(hint) in required_marks
            or (total and typing.get_origin(hint) not in optional_marks)
        }
        missing = required - set(value)
        if missing:
            raise ValueError(f"{path}: {tp.__name__} needs {sorted(missing)}")
        for key, item in value.items():
            deep_check(hints[key], item, f"{path}.{key}")
        return None
    import pydantic

    if isinstance(tp, type) and issubclass(tp, pydantic.BaseModel) and isinstance(value, dict):
        # Response models accept unknown keys; a request must not carry them.
        known = set()
        for name, field in tp.model_fields.items():
            known.update({name, field.alias or name})
        unknown = set(value) - known
        if unknown:
            raise ValueError(f"{path}: {tp.__name__} has no key {sorted(unknown)}")
    try:
        TypeAdapter(tp).validate_python(value)
    except Exception as error:  # noqa: BLE001
        raise ValueError(f"{path}: {str(error).splitlines()[0:3]}") from None
    return None


def openai_chat(body):
    from openai.types.chat import completion_create_params

    deep_check(completion_create_params.CompletionCreateParamsNonStreaming, body)


def openai_responses(body):
    from openai.types.responses import response_create_params

    deep_check(response_create_params.ResponseCreateParamsNonStreaming, body)


def anthropic(body):
    from anthropic.types import message_create_params

    deep_check(message_create_params.MessageCreateParamsNonStreaming, body)


def gemini(body):
    from google.genai import types

    allowed = {"contents", "systemInstruction", "tools", "toolConfig", "generationConfig"}
    unknown = set(body) - allowed
    if unknown:
        raise ValueError(f"unknown request keys {sorted(unknown)}")
    for content in body.get("contents", []):
        types.Content.model_validate(content)
    if "systemInstruction" in body:
        types.Content.model_validate(body["systemInstruction"])
    for tool in body.get("tools", []):
        types.Tool.model_validate(tool)
    if "toolConfig" in body:
        types.ToolConfig.model_validate(body["toolConfig"])
    if "generationConfig" in body:
        types.GenerationConfig.model_validate(body["generationConfig"])
    # The REST API's functionResponse.response must be an object.
    for content in body.get("contents", []):
        for part in content.get("parts", []):
            response = part.get("functionResponse", {}).get("response")
            if response is not None and not isinstance(response, dict):
                raise ValueError("functionResponse.response is not an object")


def bedrock(body):
    import botocore.session
    from botocore.validate import ParamValidator

    model = botocore.session.get_session().get_service_model("bedrock-runtime")
    report = ParamValidator().validate(body, model.operation_model("Converse").input_shape)
    if report.has_errors():
        raise ValueError(report.generate_report())


def mcp(result):
    import mcp.types

    mcp.types.CallToolResult.model_validate(result)


VALIDATORS = {
    "openai-chat": openai_chat,
    "openai-responses": openai_responses,
    "anthropic": anthropic,
    "gemini": gemini,
    "bedrock": bedrock,
}

# Conversions that must be refused: (transcript, shape) → text the error names.
REFUSED = {
    ("audio_user.json", "anthropic"): "audio part",
    ("audio_user.json", "openai-responses"): "audio part",
}


# Bodies each validator must refuse, so that a check that cannot fail shows.
NEGATIVE = [
    ("openai-chat", {"model": "m", "messages": [{"role": "tool", "tool_call_id": "c", "content": [
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}]}]},
     "an image in a tool message"),
    ("openai-chat", {"model": "m", "messages": [{"role": "assistant", "tool_calls": [
        {"id": "c", "type": "function", "function": {"name": "f", "arguments": {"x": 1}}}]}]},
     "arguments as an object"),
    ("openai-responses", {"model": "m", "input": [{"type": "message", "role": "user", "content": [
        {"type": "input_image", "image_url": "data:image/png;base64,AAAA"}]}]},
     "input_image without detail in a message"),
    ("anthropic", {"model": "m", "max_tokens": 1, "messages": [{"role": "user", "content": [
        {"type": "image", "source": {"type": "base64", "media_type": "image/bmp", "data": "AAAA"}}]}]},
     "a BMP image"),
    ("anthropic", {"model": "m", "max_tokens": 1, "messages": [{"role": "user", "content": [
        {"type": "text", "text": "x", "bogus": 1}]}]},
     "an unknown key on a block"),
    ("gemini", {"contents": [{"role": "user", "parts": [{"functionResponse": {"name": "f", "response": [1]}}]}]},
     "functionResponse.response as a list"),
    ("bedrock", {"modelId": "m", "messages": [{"role": "user", "content": [{"toolResult": {
        "toolUseId": "t", "content": [{"audio": {"format": "wav", "source": {"bytes": "AAAA"}}}]}}]}]},
     "audio inside a toolResult"),
]


def run_partkit(partkit, args, stdin):
    return subprocess.run([partkit, "convert", *args], input=stdin, capture_output=True, text=True)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    partkit = sys.argv[1]
    passed = failed = 0

    def report(ok, what, detail=""):
        nonlocal passed, failed
        if ok:
            passed += 1
            print(f"ok    {what}")
        else:
            failed += 1
            print(f"FAIL  {what}: {detail}")

    for shape, body, description in NEGATIVE:
        try:
            VALIDATORS[shape](body)
            report(False, f"{shape} refuses {description}", "the validator accepted it")
        except BaseException as error:  # noqa: BLE001
            if isinstance(error, (KeyboardInterrupt, SystemExit)):
                raise
            report(True, f"{shape} refuses {description}")

    for path in sorted((HERE / "transcripts").glob("*.json")):
        text = path.read_text()
        for shape, validate in VALIDATORS.items():
            what = f"{path.name} -> {shape}"
            done = run_partkit(partkit, ["--from", "canonical", "--to", shape, "--compact"], text)
            expected_refusal = REFUSED.get((path.name, shape))
            if expected_refusal:
                ok = done.returncode == 1 and expected_refusal in done.stderr and shape in done.stderr
                report(ok, what + " (refused)", done.stderr.strip() or "partkit did not refuse it")
                continue
            if done.returncode != 0:
                report(False, what, f"partkit exit {done.returncode}: {done.stderr.strip()}")
                continue
            try:
                validate(json.loads(done.stdout))
                report(True, what)
            # pydantic-core raises a PanicException (a BaseException) on some
            # invalid input while iterating; it is a failed check all the same.
            except BaseException as error:  # noqa: BLE001
                if isinstance(error, (KeyboardInterrupt, SystemExit)):
                    raise
                report(False, what, f"{type(error).__name__}: {error}".replace("\n", " ")[:400])
        # Every tool result of the transcript, as an MCP CallToolResult.
        transcript = json.loads(text)
        for message in transcript.get("messages", []):
            for block in message.get("content", []):
                if block.get("type") != "tool_result":
                    continue
                what = f"{path.name} tool_result {block.get('call_id')} -> mcp"
                done = run_partkit(partkit, ["--from", "canonical", "--to", "mcp", "--compact"], json.dumps(block))
                if done.returncode != 0:
                    report(False, what, done.stderr.strip())
                    continue
                try:
                    mcp(json.loads(done.stdout))
                    report(True, what)
                except Exception as error:  # noqa: BLE001
                    report(False, what, str(error).replace("\n", " ")[:400])

    # Every reviewed pair conversion of the test suite (tests/cli/convert_matrix.rs).
    for path in sorted((HERE.parent / "tests/fixtures/convert/matrix").glob("*.to.*.json")):
        shape = path.name.split(".to.")[1][: -len(".json")]
        if shape not in VALIDATORS:
            continue
        what = f"matrix {path.name}"
        body = json.loads(path.read_text())["output"]
        if path.name.startswith("gemini.") and isinstance(body, dict):
            # A Gemini body names no model (it is in the URL), so a request
            # converted from one needs the caller's model added.
            body.setdefault("modelId" if shape == "bedrock" else "model", "test-model")
        try:
            VALIDATORS[shape](body)
            report(True, what)
        except BaseException as error:  # noqa: BLE001
            if isinstance(error, (KeyboardInterrupt, SystemExit)):
                raise
            report(False, what, f"{type(error).__name__}: {error}".replace("\n", " ")[:400])

    # The conversations of NeMo Gym rollouts (tests/cli/rollouts.rs), bare.
    # A rollout's request names no model (NeMo Gym sets it when it sends), and
    # Anthropic's max_tokens is never made up: the caller adds both.
    rollouts = (HERE.parent / "tests/fixtures/rollouts/rollouts.jsonl").read_text()
    for shape, validate in VALIDATORS.items():
        # To openai-responses the conversation comes back as NeMo Gym wrote it,
        # nulls included (`"text": null`, `"logprobs": null`, a reasoning item's
        # `"content": null`), which the SDK's TypedDicts do not allow though the
        # recorded servers took them: same-shape output reproduces its input.
        if shape in ("mcp", "openai-responses"):
            continue
        done = run_partkit(partkit, ["--to", shape, "--bare", "--compact", "--quiet"], rollouts)
        if done.returncode != 0:
            report(False, f"rollouts -> {shape}", f"partkit exit {done.returncode}: {done.stderr.strip()}")
            continue
        for number, line in enumerate(done.stdout.splitlines(), 1):
            what = f"rollouts.jsonl:{number} -> {shape}"
            body = json.loads(line)
            if shape != "gemini":
                body["modelId" if shape == "bedrock" else "model"] = "test-model"
            if shape == "anthropic":
                body.setdefault("max_tokens", 1024)
            try:
                validate(body)
                report(True, what)
            except BaseException as error:  # noqa: BLE001
                if isinstance(error, (KeyboardInterrupt, SystemExit)):
                    raise
                report(False, what, f"{type(error).__name__}: {error}".replace("\n", " ")[:400])

    # The recorded bodies of ../shared/realworld/ and realworld2/
    # (conformance/realworld.py). PARTKIT_REALWORLD names other folders of
    # that layout (separated by ":"); an absent folder is skipped.
    import realworld

    roots = os.environ.get("PARTKIT_REALWORLD")
    for root in roots.split(":") if roots else realworld.ROOTS:
        realworld.check(partkit, VALIDATORS, report, Path(root))

    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
