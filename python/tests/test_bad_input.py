"""Bad input gets a clear exception, never a crash: wrong types are
``TypeError`` naming the argument and the type; what the command line refuses
is ``RejectedError`` (exit 1) or ``UsageError`` (exit 2), both ``partkit.Error``
and ``ValueError``; the exceptions pickle; big documents go through."""

from __future__ import annotations

import base64
import copy
import json
import pickle
import subprocess
import sys

import pytest

import partkit
from conftest import FIXTURES

PNG = (FIXTURES / "tiny.png").read_bytes()
CHAT = {"model": "m", "messages": [{"role": "user", "content": "Hi"}]}

WRONG = [
    pytest.param(1, "int", id="int"),
    pytest.param(None, "NoneType", id="None"),
    pytest.param(object(), "object", id="object"),
    pytest.param({1, 2}, "set", id="set"),
    pytest.param(1.5, "float", id="float"),
    pytest.param(("a",), "tuple", id="tuple"),
]

CALLS = {
    "convert": (lambda doc: partkit.convert(doc, "anthropic"), "doc"),
    "convert_lines[0]": (lambda doc: partkit.convert_lines([doc], "anthropic"), "lines[0]"),
    "convert_lines[2]": (lambda doc: partkit.convert_lines(["{}", CHAT, doc], "anthropic"), "lines[2]"),
    "validate": (lambda doc: partkit.validate(doc), "doc_or_path"),
    "split": (lambda doc: partkit.split(doc), "reply"),
    "inspect": (lambda doc: partkit.inspect(doc), "doc"),
    "encode": (lambda doc: partkit.encode(doc), "source"),
    "resize": (lambda doc: partkit.resize(doc), "image_bytes"),
}


@pytest.mark.parametrize("value, type_name", WRONG)
@pytest.mark.parametrize("function", list(CALLS))
def test_wrong_type_is_a_type_error(function, value, type_name):
    call, argument = CALLS[function]
    if function.startswith("convert_lines") and value is None:
        # A None line is a missing value (a null cell), a failed line.
        result = call(value)
        index = int(argument[len("lines[") : -1])
        assert result[index] is None and index in result.errors
        return
    with pytest.raises(TypeError) as caught:
        call(value)
    message = str(caught.value)
    assert argument in message and type_name in message, message
    assert not isinstance(caught.value, partkit.Error)


@pytest.mark.parametrize("value", [1, None, object()], ids=["int", "None", "object"])
def test_lines_that_are_not_iterable(value):
    with pytest.raises(TypeError, match=type(value).__name__):
        partkit.convert_lines(value, "anthropic")  # type: ignore[arg-type]


@pytest.mark.parametrize("lines", [json.dumps(CHAT), CHAT], ids=["str", "dict"])
def test_a_single_document_is_not_lines(lines):
    with pytest.raises(TypeError):
        partkit.convert_lines(lines, "anthropic")


@pytest.mark.parametrize(
    "call",
    [
        lambda data: partkit.convert(data, "anthropic"),
        lambda data: partkit.convert_lines([data], "anthropic"),
        lambda data: partkit.validate(data),
        lambda data: partkit.split(data),
        lambda data: partkit.inspect(data),
    ],
    ids=["convert", "convert_lines", "validate", "split", "inspect"],
)
@pytest.mark.parametrize(
    "data",
    [
        {"model": "m", "messages": [], "temperature": float("nan")},
        [float("inf")],
        {"a": -float("inf")},
        {"a": object()},
        {("a",): 1},
        {"a": b"bytes"},
    ],
    ids=["nan", "inf", "-inf", "object", "tuple-key", "bytes-value"],
)
def test_data_that_is_not_json(call, data):
    with pytest.raises((TypeError, ValueError)) as caught:
        call(data)
    assert not isinstance(caught.value, partkit.Error)
    assert "not JSON data" in str(caught.value)


@pytest.mark.parametrize(
    "call",
    [
        lambda text: partkit.convert(text, "anthropic"),
        lambda text: partkit.split(text),
        lambda text: partkit.inspect(text),
    ],
    ids=["convert", "split", "inspect"],
)
@pytest.mark.parametrize("text", ["", "nope", "{", b"\xff\xfe", '{"a": "\\ud800"}'], ids=["empty", "word", "open", "not-utf8", "lone-surrogate-escape"])
def test_invalid_json_is_rejected(call, text):
    if text == "" and call(CHAT_TEXT_WITHOUT_MEDIA) == []:
        # inspect: no text is no document (the command line lists nothing
        # and exits 0), as for validate.
        assert call(text) == []
        return
    with pytest.raises(partkit.RejectedError) as caught:
        call(text)
    assert isinstance(caught.value, ValueError)
    assert caught.value.exit_code == 1
    assert str(caught.value).startswith("invalid JSON: ")


CHAT_TEXT_WITHOUT_MEDIA = '{"messages": [{"role": "user", "content": "Hi"}]}'


def test_invalid_json_is_a_finding_for_validate():
    (finding,) = partkit.validate("{")
    assert finding.rule == "invalid-json" and finding.severity == "error"


def test_invalid_lines_are_none():
    result = partkit.convert_lines(["nope", b"{", ""], "anthropic")
    assert list(result) == [None, None, None]
    assert all(message.startswith("invalid JSON: ") for message in result.errors.values())


def test_str_with_a_lone_surrogate():
    # Not encodable as UTF-8: refused as invalid UTF-8 bytes are.
    with pytest.raises(partkit.RejectedError, match="not valid Unicode text"):
        partkit.convert('{"a": "\ud800"}', "anthropic")


USAGE = {
    "convert to": lambda: partkit.convert(CHAT, "x"),  # type: ignore[arg-type]
    "convert from_": lambda: partkit.convert(CHAT, "anthropic", from_="x"),  # type: ignore[arg-type]
    "convert tool_media": lambda: partkit.convert(CHAT, "anthropic", tool_media="x"),  # type: ignore[arg-type]
    "convert on_unsupported": lambda: partkit.convert(CHAT, "anthropic", on_unsupported="x"),  # type: ignore[arg-type]
    "convert_lines to": lambda: partkit.convert_lines([CHAT], "x"),  # type: ignore[arg-type]
    "convert_lines tool_media": lambda: partkit.convert_lines([], "anthropic", tool_media="x"),  # type: ignore[arg-type]
    "convert_lines threads": lambda: partkit.convert_lines([CHAT], "anthropic", threads=0),
    "validate kind": lambda: partkit.validate(CHAT, kind="x"),  # type: ignore[arg-type]
    "validate profile": lambda: partkit.validate(CHAT, profile="x"),
    "validate target": lambda: partkit.validate(CHAT, target="x"),  # type: ignore[arg-type]
    "validate from_": lambda: partkit.validate(CHAT, from_="x"),  # type: ignore[arg-type]
    "validate path kind": lambda: partkit.validate(FIXTURES / "validate", kind="x"),  # type: ignore[arg-type]
    "encode to": lambda: partkit.encode(PNG, to="x"),  # type: ignore[arg-type]
    "encode mime_type": lambda: partkit.encode(PNG, mime_type="png"),
    "resize format": lambda: partkit.resize(PNG, format="x"),  # type: ignore[arg-type]
    "resize profile": lambda: partkit.resize(PNG, profile="x"),
    "resize max_bytes": lambda: partkit.resize(PNG, max_bytes=0),
    "resize max_dim": lambda: partkit.resize(PNG, max_dim=-3),
}


@pytest.mark.parametrize("case", list(USAGE))
def test_unknown_option_value_is_a_usage_error(case):
    with pytest.raises(partkit.UsageError) as caught:
        USAGE[case]()
    error = caught.value
    assert isinstance(error, partkit.Error) and isinstance(error, ValueError)
    assert error.exit_code == 2
    argument = case.split()[-1]
    assert str(error).startswith(f"{argument}="), str(error)


@pytest.mark.parametrize(
    "call",
    [
        lambda: partkit.convert(CHAT, None),  # type: ignore[arg-type]
        lambda: partkit.convert(CHAT, 3),  # type: ignore[arg-type]
        lambda: partkit.convert_lines([CHAT], "anthropic", threads=1.5),  # type: ignore[arg-type]
        lambda: partkit.convert_lines([CHAT], "anthropic", threads=True),
        lambda: partkit.resize(PNG, max_bytes="5MB"),  # type: ignore[arg-type]
        lambda: partkit.encode(PNG, name=5),  # type: ignore[arg-type]
        lambda: partkit.encode(PNG, max_part_bytes="5"),  # type: ignore[arg-type]
    ],
    ids=["to-None", "to-int", "threads-float", "threads-bool", "max_bytes-str", "name-int", "max_part_bytes-str"],
)
def test_wrong_option_type_is_a_type_error(call):
    with pytest.raises(TypeError):
        call()


def test_negative_max_part_bytes_is_a_usage_error():
    with pytest.raises(partkit.UsageError, match="max_part_bytes"):
        partkit.encode(PNG, max_part_bytes=-1)


@pytest.mark.parametrize(
    "error",
    [
        pytest.param(lambda: partkit.convert("nope", "anthropic"), id="rejected"),
        pytest.param(lambda: partkit.convert(CHAT, "x"), id="usage"),  # type: ignore[arg-type]
        pytest.param(lambda: partkit.validate("/no/such/path.json"), id="unreadable"),
        pytest.param(lambda: partkit.encode(b""), id="empty"),
    ],
)
def test_exceptions_pickle_and_copy(error):
    with pytest.raises(partkit.Error) as caught:
        error()
    original = caught.value
    for again in (pickle.loads(pickle.dumps(original)), copy.deepcopy(original)):
        assert type(again) is type(original)
        assert str(again) == str(original)
        assert again.exit_code == original.exit_code
    assert type(original).__module__ == "partkit"
    assert repr(original).startswith(type(original).__name__ + "(")


def test_exception_hierarchy():
    assert issubclass(partkit.RejectedError, partkit.Error)
    assert issubclass(partkit.UsageError, partkit.Error)
    assert issubclass(partkit.RejectedError, ValueError)
    assert issubclass(partkit.UsageError, ValueError)
    assert issubclass(partkit.Error, Exception)
    assert issubclass(partkit.LossWarning, UserWarning)
    assert (partkit.RejectedError.exit_code, partkit.UsageError.exit_code) == (1, 2)
    with pytest.raises(ValueError):
        partkit.convert("nope", "anthropic")


BIG = 20_000_000


def test_a_20_mb_document():
    text = json.dumps({"model": "m", "messages": [{"role": "user", "content": "x" * BIG}]})
    result = partkit.convert(text, "gemini", from_="openai-chat")
    assert result.text.startswith('{"contents":[{"role":"user","parts":[{"text":"xxx')
    assert "x" * BIG in result.text and len(result.text) < BIG + 200
    with pytest.raises(partkit.RejectedError, match="invalid JSON: EOF"):
        partkit.convert(text[:-1], "gemini")


def test_a_20_mb_image_part():
    # An oversize part (a PNG with 15 MB after it, 20 MB of base64) is a
    # finding of validate (test_validate compares such findings with the
    # command line), and refused by encode's cap.
    data = base64.b64encode(PNG + bytes(15_000_000)).decode()
    assert len(data) > BIG
    parts = [{"type": "image", "mimeType": "image/png", "data": data}]
    findings = partkit.validate(parts, profile="bedrock")
    assert [(f.rule, f.pointer) for f in findings] == [("limit-bytes", "/0/data")]
    assert findings[0].message == "15,000,091 bytes, over the bedrock profile's 3,932,160 bytes per image"
    with pytest.raises(partkit.RejectedError, match="20,000,008 bytes, over the cap of 5,000,000 bytes"):
        partkit.encode(b"\x89PNG\r\n\x1a\n" + bytes(BIG), max_part_bytes=5_000_000)


def test_deep_nesting_is_refused_without_a_crash():
    # Run where a crash cannot take the test session down.
    script = (
        "import partkit\n"
        "doc = '[' * 200000 + ']' * 200000\n"
        "for call in (lambda: partkit.convert(doc, 'anthropic'), lambda: partkit.split(doc), lambda: partkit.inspect(doc)):\n"
        "    try:\n"
        "        call()\n"
        "    except partkit.RejectedError as error:\n"
        "        print(error)\n"
        "print(partkit.validate(doc)[0].rule)\n"
        "print(partkit.convert_lines([doc], 'gemini').errors[0])\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert len(lines) == 5
    assert all("recursion limit exceeded" in line for line in lines[:3] + lines[4:])
    assert lines[3] == "invalid-json"

