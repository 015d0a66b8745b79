"""``partkit.encode`` against ``partkit encode --to TO SOURCE``: the command
line prints a JSON array of one block, the API returns that block; the same
warnings, the same refusals with the same messages. Sources: paths, bytes
(with ``name=``), binary file objects, ``data:`` and https URLs."""

from __future__ import annotations

import base64
import io
import json
import warnings
from pathlib import Path

import pytest

import partkit
from conftest import FIXTURES

MEDIA = [
    "tiny.png", "tiny.jpg", "tiny.gif", "tiny.webp", "doc.pdf", "tone.wav", "tone.mp3",
    "note.txt", "noext", "jpeg-bytes.png", "SHOUT.PNG", "café ☕.png", "empty.bin",
]
TARGETS = ["canonical", "openai-chat", "openai-responses", "anthropic", "gemini", "bedrock", "mcp", "tool-output-image"]


@pytest.fixture
def in_fixtures(monkeypatch):
    monkeypatch.chdir(FIXTURES)


def cli_encode(cli, *args):
    return cli("encode", *args, cwd=FIXTURES)


def encoded(call):
    """(block, warnings, error) of an API call."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            block = call()
        except partkit.Error as error:
            return None, [], error
    assert all(w.category is partkit.LossWarning for w in caught)
    return block, [str(w.message) for w in caught], None


def the_block(result) -> dict:
    assert result.returncode == 0, str(result)
    array = json.loads(result.stdout)
    assert isinstance(array, list) and len(array) == 1, result.stdout
    return array[0]


def body(message: str) -> str:
    """A message without its leading ``source: `` label."""
    return message.split(": ", 1)[1]


def params(names, targets):
    return [pytest.param(name, to, id=f"{name}-{to}") for name in names for to in targets]


@pytest.mark.parametrize("name, to", params(MEDIA, TARGETS))
def test_path_matches_cli(cli, in_fixtures, name, to):
    expected = cli_encode(cli, "--to", to, name)
    for source in (name, Path(name)):
        block, said, error = encoded(lambda: partkit.encode(source, to=to))
        if expected.returncode == 0:
            assert error is None, f"{error!r}\n{expected}"
            assert block == the_block(expected)
            assert said == expected.warnings
        else:
            assert expected.returncode == 1, str(expected)
            assert isinstance(error, partkit.RejectedError), error
            assert str(error) == expected.error()


@pytest.mark.parametrize("name, to", params(MEDIA, TARGETS))
def test_bytes_and_file_object_match_cli(cli, name, to):
    # The command line names the source by its path; bytes have none, so
    # messages are compared after that label.
    expected = cli_encode(cli, "--to", to, name)
    raw = (FIXTURES / name).read_bytes()
    with open(FIXTURES / name, "rb") as file:
        calls = {
            "bytes": lambda: partkit.encode(raw, to=to, name=name),
            "bytearray": lambda: partkit.encode(bytearray(raw), to=to, name=name),
            "memoryview": lambda: partkit.encode(memoryview(raw), to=to, name=name),
            "file": lambda: partkit.encode(file, to=to),
        }
        for kind, call in calls.items():
            block, said, error = encoded(call)
            if expected.returncode == 0:
                assert error is None, f"{kind}: {error!r}\n{expected}"
                assert block == the_block(expected), kind
                assert [body(w) for w in said] == [body(w) for w in expected.warnings], kind
            else:
                assert isinstance(error, partkit.RejectedError), (kind, error)
                assert body(str(error)) == body(expected.error()), kind


@pytest.mark.parametrize("name, to", params(["empty.bin", "tone.wav"], ["anthropic"]))
def test_messages_name_the_file(cli, name, to, monkeypatch):
    expected = cli_encode(cli, "--to", to, name)
    assert expected.returncode == 1
    # Named as it was opened, as the command line names the path it was given.
    monkeypatch.chdir(FIXTURES)
    with open(name, "rb") as file, pytest.raises(partkit.RejectedError) as caught:
        partkit.encode(file, to=to)
    assert str(caught.value) == expected.error()


@pytest.mark.parametrize("name", ["tiny.png", "tiny.webp", "doc.pdf", "tone.wav", "tone.mp3"])
@pytest.mark.parametrize("to", ["canonical", "anthropic", "gemini", "openai-chat", "tool-output-image"])
def test_data_url_matches_cli(cli, name, to):
    media_type = partkit.encode(FIXTURES / name)["mimeType"]
    url = f"data:{media_type};base64," + base64.b64encode((FIXTURES / name).read_bytes()).decode()
    expected = cli_encode(cli, "--to", to, url)
    block, said, error = encoded(lambda: partkit.encode(url, to=to))
    if expected.returncode == 0:
        assert error is None, f"{error!r}\n{expected}"
        assert block == the_block(expected)
        assert said == expected.warnings
    else:
        assert isinstance(error, partkit.RejectedError)
        assert str(error) == expected.error()


@pytest.mark.parametrize(
    "url",
    [
        "data:text/plain,hello",
        "data:image/png;base64,!!!",
        "data:image/png;base64,",
        "data:;base64,AAAA",
        "data:image/png;base64," + base64.b64encode(b"GIF89a" + bytes(20)).decode(),
    ],
    ids=["not-base64", "bad-base64", "empty", "no-type", "declared-png-is-gif"],
)
def test_bad_data_url_matches_cli(cli, url):
    expected = cli_encode(cli, url)
    block, said, error = encoded(lambda: partkit.encode(url))
    if expected.returncode == 0:
        assert error is None
        assert block == the_block(expected) and said == expected.warnings
    else:
        assert expected.returncode == 1, str(expected)
        assert isinstance(error, partkit.RejectedError)
        assert str(error) == expected.error()


@pytest.mark.parametrize("to", ["canonical", "anthropic", "openai-chat", "gemini"])
def test_https_url_stays_a_url(cli, to):
    url = "https://example.com/shot.png?size=large#top"
    expected = cli_encode(cli, "--to", to, url)
    block, said, error = encoded(lambda: partkit.encode(url, to=to))
    if expected.returncode == 0:
        assert block == the_block(expected)
        assert url in json.dumps(block)
    else:
        assert str(error) == expected.error()


@pytest.mark.parametrize("cap", [0, 10, 90])
@pytest.mark.parametrize("name", ["tiny.png", "doc.pdf"])
def test_over_max_part_bytes(cli, in_fixtures, name, cap):
    expected = cli_encode(cli, "--max-part-bytes", str(cap), name)
    assert expected.returncode == 1, str(expected)
    raw = Path(name).read_bytes()
    with pytest.raises(partkit.RejectedError) as caught:
        partkit.encode(name, max_part_bytes=cap)
    assert str(caught.value) == expected.error()
    assert caught.value.exit_code == 1
    with pytest.raises(partkit.RejectedError) as caught:
        partkit.encode(raw, name=name, max_part_bytes=cap)
    assert body(str(caught.value)) == body(expected.error())


@pytest.mark.parametrize("name", ["tiny.png", "doc.pdf"])
def test_within_max_part_bytes(cli, in_fixtures, name):
    size = Path(name).stat().st_size
    expected = cli_encode(cli, "--max-part-bytes", str(size), name)
    assert partkit.encode(name, max_part_bytes=size) == the_block(expected)
    with open(name, "rb") as file:
        assert partkit.encode(file, max_part_bytes=size) == the_block(expected)


def test_file_object_over_cap_reports_its_size(cli):
    expected = cli_encode(cli, "--max-part-bytes", "10", "tiny.png")
    with open(FIXTURES / "tiny.png", "rb") as file, pytest.raises(partkit.RejectedError) as caught:
        partkit.encode(file, max_part_bytes=10)
    assert body(str(caught.value)) == body(expected.error())


def test_empty_is_rejected(cli, in_fixtures):
    expected = cli_encode(cli, "empty.bin")
    assert expected.returncode == 1
    with open("empty.bin", "rb") as file:
        for source in ("empty.bin", Path("empty.bin"), b"", io.BytesIO(b""), file):
            with pytest.raises(partkit.RejectedError) as caught:
                partkit.encode(source)
            assert body(str(caught.value)) == body(expected.error()) == "empty (a media part must carry bytes)"


@pytest.mark.parametrize(
    "options, cli_options",
    [
        ({"mime_type": "image/jpeg"}, ["--mime-type", "image/jpeg"]),
        ({"mime_type": "IMAGE/PNG"}, ["--mime-type", "IMAGE/PNG"]),
        ({"name": "renamed.png"}, ["--name", "renamed.png"]),
        ({"name": "chart", "to": "tool-output-image"}, ["--name", "chart", "--to", "tool-output-image"]),
    ],
    ids=["mime-jpeg", "mime-upper", "name", "label"],
)
def test_options_match_cli(cli, in_fixtures, options, cli_options):
    expected = cli_encode(cli, *cli_options, "tiny.png")
    block, said, error = encoded(lambda: partkit.encode("tiny.png", **options))
    assert error is None, error
    assert block == the_block(expected)
    assert said == expected.warnings


def test_bytes_take_the_type_from_the_name():
    # No magic number in text: the name's extension decides.
    raw = (FIXTURES / "note.txt").read_bytes()
    assert partkit.encode(raw, name="note.txt")["mimeType"] == "text/plain"
    with pytest.raises(partkit.RejectedError, match="cannot tell the media type"):
        partkit.encode(raw)


def test_mismatch_warns(in_fixtures):
    with pytest.warns(partkit.LossWarning, match="content is image/jpeg, not image/png") as caught:
        block = partkit.encode("jpeg-bytes.png")
    assert block["mimeType"] == "image/jpeg"
    assert all(w.filename == __file__ for w in caught)


def test_a_text_file_object_is_refused():
    with open(FIXTURES / "note.txt", encoding="utf-8") as file, pytest.raises(TypeError, match="'rb'"):
        partkit.encode(file)


def test_a_warning_quoting_a_huge_value_is_bounded_as_the_cli_bounds_it(cli):
    png = base64.b64encode((FIXTURES / "tiny.png").read_bytes()).decode()
    # As long as one argument of a command line may be, then far longer.
    for length in (100_000, 5_000_000):
        url = "data:image/" + "p" * length + ";base64," + png
        block, said, error = encoded(lambda: partkit.encode(url))
        assert error is None and block["mimeType"] == "image/png"
        assert len(said) == 1 and len(said[0]) < 2_200, len(said[0])
        assert "content is image/png" in said[0]
        if length == 100_000:
            assert said == cli_encode(cli, url).warnings


def test_messages_of_the_package_are_bounded():
    huge_type = type("T" * 1_000_000, (), {})
    for call in (
        lambda: partkit.encode(huge_type()),  # type: ignore[arg-type]
        lambda: partkit.convert(huge_type(), "anthropic"),  # type: ignore[arg-type]
        lambda: partkit.resize(huge_type()),  # type: ignore[arg-type]
    ):
        with pytest.raises(TypeError) as caught:
            call()
        assert len(str(caught.value)) < 2_200, len(str(caught.value))
    with pytest.raises(partkit.UsageError) as caught:
        partkit.encode(b"x", max_part_bytes=10**100_000)
    assert len(str(caught.value)) < 2_200 and "max_part_bytes=" in str(caught.value)


def test_an_endless_source_is_refused_as_the_cli_refuses_it(cli):
    expected = cli_encode(cli, "--mime-type", "image/png", "/dev/zero")
    assert expected.returncode == 2
    assert expected.error() == "/dev/zero: longer than 512 MiB, the most one document may be (--max-document-size raises it)"
    with pytest.raises(partkit.UsageError) as caught:
        partkit.encode("/dev/zero", mime_type="image/png")
    assert str(caught.value) == expected.error()


class Endless(io.RawIOBase):
    """A binary stream without an end, counting what it hands out."""

    def __init__(self) -> None:
        self.served = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:  # type: ignore[no-untyped-def]
        view = memoryview(buffer).cast("B")
        view[:] = bytes(len(view))
        self.served += len(view)
        return len(view)


def test_a_file_object_is_read_no_further_than_the_limit(monkeypatch):
    # The limit made small, so that the test holds kilobytes: a file object
    # read for ever would never return.
    monkeypatch.setattr(partkit._native, "max_document_size", lambda: 1_000)
    endless = Endless()
    try:
        partkit.encode(endless, mime_type="image/png")
    except partkit.Error:
        pass
    assert endless.served == 1_001
