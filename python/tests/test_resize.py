"""``partkit.resize`` against ``partkit resize [--max-bytes N] [--max-dim D]
[--format F] [--profile P] IMAGE -o OUT``: the same bytes out, the same
refusals; an image within every cap comes back as it is."""

from __future__ import annotations

import pytest

import partkit
from conftest import FIXTURES


@pytest.fixture(scope="module")
def images(tmp_path_factory, make_png) -> dict:
    """Images by name: noisy PNGs over small caps, and the tiny fixtures."""
    folder = tmp_path_factory.mktemp("resize")
    made = {"noise.png": make_png(64, 48, seed=3), "noise-wide.png": make_png(90, 20, seed=4)}
    for name, data in made.items():
        (folder / name).write_bytes(data)
    paths = {name: folder / name for name in made}
    for name in ("tiny.png", "tiny.jpg", "tiny.gif", "tiny.webp", "café ☕.png"):
        paths[name] = FIXTURES / name
    return paths


CASES = [
    ("noise.png", {"max_bytes": 4000}),
    ("noise.png", {"max_bytes": 4000, "format": "jpeg"}),
    ("noise.png", {"max_bytes": 3000, "format": "webp"}),
    ("noise.png", {"max_bytes": 6000, "format": "png"}),
    ("noise.png", {"max_bytes": 100_000, "max_dim": 16}),
    ("noise-wide.png", {"max_bytes": 2500}),
    ("noise-wide.png", {"max_dim": 30, "format": "jpeg"}),
    ("tiny.jpg", {"max_dim": 2}),
    ("tiny.gif", {"max_dim": 2}),
    ("tiny.webp", {"max_dim": 2}),
    ("tiny.png", {"max_dim": 3, "format": "jpeg"}),
    ("tiny.png", {"max_dim": 1}),
    ("tiny.gif", {"profile": "gemini"}),
    ("café ☕.png", {"max_dim": 2, "format": "webp"}),
]
WITHIN = [
    ("noise.png", {"max_bytes": 100_000}),
    ("noise.png", {}),
    ("tiny.png", {"profile": "anthropic"}),
    ("tiny.jpg", {"max_dim": 4, "format": "png"}),
    ("tiny.gif", {"max_bytes": 91}),
    ("tiny.webp", {"profile": "bedrock", "format": "jpeg"}),
]
FLAGS = {"max_bytes": "--max-bytes", "max_dim": "--max-dim", "format": "--format", "profile": "--profile"}


def cli_resize(cli, path, out, options):
    args = ["resize"]
    for key, value in options.items():
        args += [FLAGS[key], str(value)]
    return cli(*args, str(path), "-o", str(out))


def case_id(case) -> str:
    name, options = case
    return name + "-" + "-".join(f"{k}={v}" for k, v in options.items())


@pytest.mark.parametrize("name, options", CASES, ids=[case_id(c) for c in CASES])
def test_resized_bytes_match_cli(cli, images, tmp_path, name, options):
    path = images[name]
    out = tmp_path / "out.bin"
    expected = cli_resize(cli, path, out, options)
    assert expected.returncode == 0, str(expected)
    original = path.read_bytes()
    resized = partkit.resize(original, **options)
    assert resized == out.read_bytes()
    assert resized != original
    if "max_bytes" in options:
        assert len(resized) <= options["max_bytes"]
    # Other buffers give the same.
    assert partkit.resize(bytearray(original), **options) == resized
    assert partkit.resize(memoryview(original), **options) == resized


@pytest.mark.parametrize("name, options", WITHIN, ids=[case_id(c) for c in WITHIN])
def test_within_caps_comes_back_unchanged(cli, images, tmp_path, name, options):
    path = images[name]
    out = tmp_path / "out.bin"
    expected = cli_resize(cli, path, out, options)
    assert expected.returncode == 0, str(expected)
    original = path.read_bytes()
    assert out.read_bytes() == original
    assert partkit.resize(original, **options) == original


@pytest.mark.parametrize(
    "name, options",
    [("noise.png", {"max_bytes": 10}), ("tiny.jpg", {"max_bytes": 50}), ("noise.png", {"max_bytes": 200, "format": "jpeg"})],
    ids=["png-10", "jpeg-50", "to-jpeg-200"],
)
def test_cannot_fit_matches_cli(cli, images, tmp_path, name, options):
    path = images[name]
    expected = cli_resize(cli, path, tmp_path / "out.bin", options)
    assert expected.returncode == 1, str(expected)
    with pytest.raises(partkit.RejectedError) as caught:
        partkit.resize(path.read_bytes(), **options)
    assert caught.value.exit_code == 1
    assert str(caught.value) == expected.error(f"{path}: ")


@pytest.mark.parametrize(
    "data, message",
    [
        ((FIXTURES / "doc.pdf").read_bytes(), "application/pdf is not an image type partkit can resize"),
        ((FIXTURES / "tone.wav").read_bytes(), "audio/wav is not an image type partkit can resize"),
        (b"hello", "not an image partkit recognizes"),
    ],
    ids=["pdf", "wav", "text"],
)
def test_not_an_image_is_rejected(cli, tmp_path, data, message):
    # The command line reads a file that is not an image as a JSON document
    # (resize also fits the images inside documents): it refuses it too, with
    # a JSON message.
    path = tmp_path / "input.bin"
    path.write_bytes(data)
    expected = cli("resize", str(path), "-o", str(tmp_path / "out.bin"))
    assert expected.returncode == 1, str(expected)
    with pytest.raises(partkit.RejectedError) as caught:
        partkit.resize(data)
    assert str(caught.value) == message
    assert caught.value.exit_code == 1


def test_broken_image_matches_cli(cli, tmp_path):
    data = b"\x89PNG\r\n\x1a\n" + bytes(10)
    path = tmp_path / "broken.png"
    path.write_bytes(data)
    expected = cli("resize", str(path), "-o", str(tmp_path / "out.bin"))
    assert expected.returncode == 1, str(expected)
    with pytest.raises(partkit.RejectedError) as caught:
        partkit.resize(data)
    assert str(caught.value) == expected.error(f"{path}: ")


def test_empty_bytes_are_rejected():
    # (The command line reads an empty file as a JSON stream of no documents
    # and writes nothing, with exit 0: for bytes there is no such reading.)
    with pytest.raises(partkit.RejectedError, match="not an image"):
        partkit.resize(b"")
