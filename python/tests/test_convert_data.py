"""``partkit.convert`` and ``convert_lines`` on Python data: converted
without JSON text, the payload strings handed through by reference, and
everything the walk does not take sent the JSON text route, with the text
route's result (test_convert.py checks the data route against the command
line on every fixture and recording)."""

from __future__ import annotations

import base64
import collections
import json
import math
import sys

import pytest

import partkit

PNG = base64.b64encode(
    bytes.fromhex(
        "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
        "1f15c4890000000d49444154789c63000100000500010d0a2db40000000049454e44ae426082"
    )
    * 4
).decode()
DATA_URL = f"data:image/png;base64,{PNG}"


def chat(*content, **extra):
    return {"model": "m", "messages": [{"role": "user", "content": list(content)}], **extra}


def image_url(url=DATA_URL):
    return {"type": "image_url", "image_url": {"url": url}}


def anthropic_image(data=PNG):
    return {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": data}}


def by_text(doc, to, **options):
    """The text route: the document's JSON text as the package makes it
    (or its refusal), converted."""
    return partkit.convert(partkit._text(doc, "doc"), to, **options)


def outcome(call):
    try:
        result = call()
    except (partkit.Error, TypeError) as error:
        return type(error), str(error)
    return result.source, result.notes, result.text, result.value


def test_a_payload_that_passes_through_is_the_same_object():
    url = "".join(["data:image/png;base64,", PNG])  # a str of its own
    data = "".join([PNG])
    out = partkit.convert(chat(image_url(url)), "openai-responses").value
    image = out["input"][0]["content"][0]
    assert image["image_url"] is url
    doc = {"max_tokens": 9, "model": "m", "messages": [{"role": "user", "content": [anthropic_image(data)]}]}
    out = partkit.convert(doc, "gemini", from_="anthropic").value
    assert out["contents"][0]["parts"][0]["inlineData"]["data"] is data


def test_a_payload_cut_from_a_data_url_is_a_new_equal_string():
    out = partkit.convert(chat(image_url()), "anthropic")
    source = out.value["messages"][0]["content"][0]["source"]
    assert source == {"type": "base64", "media_type": "image/png", "data": PNG}
    assert out.text == by_text(chat(image_url()), "anthropic").text


def test_a_key_the_output_repeats_is_one_str():
    # As json.loads does: each name made once a document, then used again.
    doc = chat(*[{"type": "text", "text": f"part {i}"} for i in range(60)], image_url())
    out = partkit.convert(doc, "anthropic").value
    blocks = out["messages"][0]["content"]
    keys = [next(key for key in block if key == "type") for block in blocks]
    assert len(keys) == 61 and all(key is keys[0] for key in keys)
    # Past the names kept, keys are still right, only made each time.
    many = {"model": "m", "messages": [{"role": "user", "content": "hi"}], "metadata": {f"k{i}": i for i in range(200)}}
    assert partkit.convert(many, "openai-chat").value == by_text(many, "openai-chat").value
    assert json.dumps(partkit.convert(many, "openai-chat").value) == json.dumps(by_text(many, "openai-chat").value)


def test_the_value_is_made_first_and_the_text_when_asked():
    doc = chat({"type": "text", "text": "café 東京 \u2028 \x00 \"q\" \\"}, image_url(), temperature=1e-05, top_p=0.5, seed=2**63)
    got = partkit.convert(doc, "openai-responses")
    assert got._value is not partkit._UNSET and got._text is partkit._UNSET
    want = by_text(doc, "openai-responses")
    assert got.text == want.text
    assert "1e-05" in got.text and "café" in got.text
    assert got.value == want.value and got.source == want.source
    assert got.json() == got.text and "characters" in repr(got)


@pytest.mark.parametrize(
    "doc",
    [
        pytest.param(chat({"type": "text", "text": "a"}, temperature=math.nan), id="nan"),
        pytest.param(chat({"type": "text", "text": "a"}, seed=10**30), id="big-int"),
        pytest.param(chat({"type": "text", "text": "a"}, seed=-(10**30)), id="big-negative-int"),
        pytest.param(chat({"type": "text", "text": "a"}, stop=("x", "y")), id="tuple"),
        pytest.param(collections.OrderedDict(chat({"type": "text", "text": "a"})), id="dict-subclass"),
        pytest.param(chat({"type": "text", "text": "a"}, metadata={1: "int key", None: "none key"}), id="non-str-keys"),
        pytest.param(chat({"type": "text", "text": "a\ud800"}), id="lone-surrogate"),
        pytest.param(chat({"type": "text", "text": "a"}, metadata={"x": object()}), id="not-json"),
        pytest.param(chat({"type": "text", "text": "\ue000" + "0\ue001"}, image_url()), id="placeholder-characters"),
        pytest.param(chat({"type": "text", "text": "a"}, metadata=[[[[[]]]]] * 2), id="nested"),
        pytest.param({"responses_create_params": {"input": [{"role": "user", "content": "Hi"}]}, "reward": 1.0}, id="rollout"),
        pytest.param({"messages": "nope"}, id="refused"),
        pytest.param([{"role": "user", "content": "Hi"}], id="list"),
    ],
)
@pytest.mark.parametrize("to", ["anthropic", "openai-responses"])
def test_data_gives_what_its_text_gives(doc, to):
    assert outcome(lambda: partkit.convert(doc, to)) == outcome(lambda: by_text(doc, to))


def test_nesting_deeper_than_the_parser_takes_is_refused_as_text_is():
    deep: list = []
    for _ in range(200):
        deep = [deep]
    doc = chat({"type": "text", "text": "a"}, metadata=deep)
    got = outcome(lambda: partkit.convert(doc, "anthropic"))
    assert got[0] is partkit.RejectedError and "recursion limit" in got[1]
    assert got == outcome(lambda: by_text(doc, "anthropic"))


def test_options_that_splice_text_take_the_text_route():
    doc = {"id": 7, "body": chat(image_url())}
    got = partkit.convert(doc, "anthropic", at="/body")
    assert got.text == by_text(doc, "anthropic", at="/body").text
    rollout = {"responses_create_params": {"input": [{"role": "user", "content": "Hi"}]}, "reward": 1.0}
    for kind in ("rollout", "transcript"):
        assert outcome(lambda: partkit.convert(rollout, "anthropic", kind=kind)) == outcome(
            lambda: by_text(rollout, "anthropic", kind=kind)
        )


def test_the_input_is_left_as_it_was():
    doc = chat(image_url(), {"type": "text", "text": "hi"})
    before = json.dumps(doc)
    out = partkit.convert(doc, "anthropic").value
    out["messages"][0]["content"].clear()
    assert json.dumps(doc) == before


def test_a_large_document_walks_once_and_counts_its_references():
    # Every payload string of the output is the input's own or a new one
    # that nothing else holds: no reference is leaked or lost.
    images = ["".join([PNG, "AAAA" * i]) for i in range(50)]
    doc = {"max_tokens": 9, "model": "m", "messages": [
        {"role": "user", "content": [anthropic_image(data) for data in images]}]}
    counts = [sys.getrefcount(data) for data in images]
    out = partkit.convert(doc, "gemini", from_="anthropic").value
    parts = out["contents"][0]["parts"]
    assert [part["inlineData"]["data"] for part in parts] == images
    assert all(part["inlineData"]["data"] is data for part, data in zip(parts, images))
    assert [sys.getrefcount(data) for data in images] == [n + 1 for n in counts]
    del out, parts
    assert [sys.getrefcount(data) for data in images] == counts


def test_lines_of_data_and_text_mixed():
    lines = [
        chat(image_url()),
        json.dumps(chat(image_url())),
        None,
        collections.OrderedDict(chat({"type": "text", "text": "a"})),
        bytearray(json.dumps(chat({"type": "text", "text": "b"})).encode()),
        {"messages": "nope"},
        [{"role": "user", "content": "Hi"}],
        chat({"type": "text", "text": "a"}, seed=10**30),
    ]
    got = partkit.convert_lines(lines, "anthropic", threads=2)
    assert got.errors.keys() == {2, 5}
    for index, line in enumerate(lines):
        if index in got.errors:
            assert got[index] is None
            continue
        text = line if isinstance(line, (str, bytearray)) else json.dumps(line)
        want = partkit.convert(bytes(text) if isinstance(text, bytearray) else text, "anthropic")
        if isinstance(line, (dict, list)):
            assert got[index] == want.value, index
        elif isinstance(line, bytearray):
            assert got[index] == want.text.encode(), index
        else:
            assert got[index] == want.text, index
    assert got.errors[5] == str(outcome(lambda: partkit.convert(lines[5], "anthropic"))[1])


def test_a_bad_line_is_a_type_error_as_before():
    with pytest.raises(TypeError, match=r"lines\[1\]"):
        partkit.convert_lines([chat(image_url()), 7], "anthropic")
    # Before the options are looked at.
    with pytest.raises(TypeError, match=r"lines\[1\]"):
        partkit.convert_lines([chat(image_url()), 7], "anthropic", tool_media="nope")
    with pytest.raises(partkit.UsageError):
        partkit.convert_lines([chat(image_url())], "anthropic", tool_media="nope")
