"""``partkit.split`` against ``partkit split --rest`` (the rest of the reply)
and ``partkit split`` (canonical parts: the rest as text, then each image's
label and the image), and NeMo Gym's ``split_tool_output_images`` rules."""

from __future__ import annotations

import base64
import json

import pytest

import partkit
from conftest import FIXTURES

ERROR_PREFIX = "<stdin>:1: "
IMAGES = {name: (FIXTURES / name).read_bytes() for name in ("tiny.png", "tiny.gif", "tiny.webp", "tiny.jpg")}


def url(name: str, media_type: str) -> str:
    return f"data:{media_type};base64," + base64.b64encode(IMAGES[name]).decode()


def replies() -> list:
    """Every reply of the split fixtures, one document each, and some more."""
    params = [pytest.param((FIXTURES / "split" / "pretty.json").read_text(encoding="utf-8"), id="pretty.json")]
    for number, line in enumerate((FIXTURES / "split" / "replies.jsonl").read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            params.append(pytest.param(line, id=f"replies.jsonl:{number}"))
    more = {
        "three-kinds": {"text": "ok", "tool_output_images": [
            {"image_url": url("tiny.jpg", "image/jpeg"), "label": None},
            {"label": "webp first", "image_url": url("tiny.webp", "image/webp")},
            {"image_url": url("tiny.png", "image/png"), "label": ""},
        ], "n": 12345678901234567890123},
        "null-images": {"result": "x", "tool_output_images": None},
        "empty-list": {"tool_output_images": []},
        "no-key": {"result": {"nested": [1, 2]}},
        "not-a-list": {"tool_output_images": "data:image/png;base64,AAAA"},
        "remote-url": {"tool_output_images": [{"image_url": "https://example.com/a.png"}]},
        "unknown-key": {"tool_output_images": [{"image_url": url("tiny.png", "image/png"), "alt": "x"}]},
        "no-url": {"tool_output_images": [{"label": "x"}]},
        "entry-not-object": {"tool_output_images": [url("tiny.png", "image/png")]},
        "bad-base64": {"tool_output_images": [{"image_url": "data:image/png;base64,@@@"}]},
    }
    params += [pytest.param(json.dumps(reply), id=name) for name, reply in more.items()]
    params += [
        pytest.param('{"keep": 1.50, "tool_output_images": null, "big": 1e2}', id="number-spelling"),
        pytest.param("[1, 2]", id="list"),
        pytest.param('"just text"', id="string"),
        pytest.param("42", id="number"),
        pytest.param("null", id="null"),
    ]
    return params


REPLIES = replies()


def images_of_parts(parts: list) -> tuple[str, list]:
    """The rest text and (media type, data, label) of each image in the
    command line's canonical parts."""
    assert parts[0]["type"] == "text"
    rest, images, label = parts[0]["text"], [], None
    for part in parts[1:]:
        if part["type"] == "text":
            assert label is None, parts
            label = part["text"]
        else:
            assert part["type"] == "image", part
            images.append((part["mimeType"], part["data"], label))
            label = None
    assert label is None, parts
    return rest, images


@pytest.mark.parametrize("reply", REPLIES)
def test_matches_cli(cli, reply):
    rest_run = cli("split", "--rest", stdin=reply)
    parts_run = cli("split", stdin=reply)
    assert rest_run.returncode == parts_run.returncode, f"{rest_run}\n{parts_run}"
    try:
        rest, images = partkit.split(reply)
    except partkit.RejectedError as error:
        assert rest_run.returncode == 1, f"the API refused what the command line splits: {error!r}\n{rest_run}"
        assert str(error) == rest_run.error(ERROR_PREFIX) == parts_run.error(ERROR_PREFIX)
        return
    assert rest_run.returncode == 0, f"the API split what the command line refuses\n{rest_run}"
    assert rest == rest_run.text
    cli_rest, cli_images = images_of_parts(json.loads(parts_run.stdout))
    # An empty label is no label part (the model would get an empty text).
    assert [(i.media_type, i.data, i.label or None) for i in images] == cli_images
    assert cli_rest == rest
    for image in images:
        assert image.image_url == f"data:{image.media_type};base64,{image.data}"


@pytest.mark.parametrize("reply", REPLIES)
def test_kinds_match_cli(cli, reply):
    rest_run = cli("split", "--rest", stdin=reply)
    try:
        data = json.loads(reply)
    except ValueError:
        data = None  # invalid JSON has no Python data
    for given, check in (
        (reply.encode(), lambda rest: rest == rest_run.stdout.rstrip(b"\n")),
        (data, lambda rest: rest == json.loads(rest_run.stdout)),
    ):
        if not isinstance(given, (bytes, dict, list)):
            continue
        try:
            rest, _ = partkit.split(given)
        except partkit.RejectedError as error:
            assert rest_run.returncode == 1 and str(error) == rest_run.error(ERROR_PREFIX)
        else:
            assert rest_run.returncode == 0, str(rest_run)
            assert type(rest) is type(given)
            assert check(rest)


def test_images_decode_to_their_bytes():
    reply = json.loads((FIXTURES / "split" / "replies.jsonl").read_text(encoding="utf-8").splitlines()[0])
    rest, images = partkit.split(reply)
    assert rest == {"step": 1}
    assert [(image.media_type, image.label) for image in images] == [("image/png", "first"), ("image/gif", None)]
    assert images[0].decode() == IMAGES["tiny.png"]
    assert images[1].decode() == IMAGES["tiny.gif"]
    (pretty,) = partkit.split((FIXTURES / "split" / "pretty.json").read_bytes())[1]
    assert pretty.decode() == IMAGES["tiny.gif"] and pretty.label == "Frame 1"


def test_nemo_gym_semantics():
    # Not an object: as it was, no images.
    assert partkit.split([1, {"tool_output_images": []}]) == ([1, {"tool_output_images": []}], [])
    assert partkit.split("[1,2]") == ("[1,2]", [])
    assert partkit.split(b'"text"') == (b'"text"', [])
    # No key: as it was.
    assert partkit.split({"a": 1}) == ({"a": 1}, [])
    # null: no images, and the key is gone.
    assert partkit.split({"a": 1, "tool_output_images": None}) == ({"a": 1}, [])
    # A malformed list is refused, naming the entry.
    with pytest.raises(partkit.RejectedError, match=r"tool_output_images\[1\]"):
        partkit.split({"tool_output_images": [{"image_url": url("tiny.png", "image/png")}, {"image_url": 7}]})
    with pytest.raises(partkit.RejectedError, match="must be a list or null"):
        partkit.split({"tool_output_images": {}})


def test_the_input_is_not_changed():
    reply = {"keep": True, "tool_output_images": [{"image_url": url("tiny.png", "image/png")}]}
    before = json.dumps(reply)
    rest, images = partkit.split(reply)
    assert json.dumps(reply) == before
    assert rest == {"keep": True} and len(images) == 1


def test_image_is_frozen():
    _, (image,) = partkit.split({"tool_output_images": [{"image_url": url("tiny.png", "image/png"), "label": "a"}]})
    assert image == partkit.Image("image/png", base64.b64encode(IMAGES["tiny.png"]).decode(), "a")
    with pytest.raises(AttributeError):
        image.label = "b"  # type: ignore[misc]


def test_number_spelling_is_kept():
    rest, _ = partkit.split('{"keep": 1.50, "tool_output_images": null, "big": 1e2}')
    assert rest == '{"keep":1.50,"big":1e2}'
