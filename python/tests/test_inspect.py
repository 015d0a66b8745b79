"""``partkit.inspect`` against ``partkit inspect --format json`` on stdin:
one dict per media item, each the parsed line the command line prints."""

from __future__ import annotations

import json

import pytest

import partkit
from conftest import FIXTURES, fixture_params, realworld_params
from shape_cases import read_documents

ERROR_PREFIX = "<stdin>:1: "
DOCUMENTS = (
    fixture_params(
        sorted((FIXTURES / "validate").rglob("*.json"))
        + sorted((FIXTURES / "validate-transcripts").rglob("*.json"))
        + [document.path for document in read_documents()]
        + [FIXTURES / "split" / "pretty.json"]
    )
    + realworld_params()
)


def cli_items(result) -> list[dict]:
    assert result.returncode == 0, str(result)
    return [json.loads(line) for line in result.lines]


@pytest.mark.parametrize("path", DOCUMENTS)
def test_matches_cli(cli, path):
    raw = path.read_bytes()
    expected = cli_items(cli("inspect", "--format", "json", stdin=raw))
    assert partkit.inspect(raw) == expected
    assert partkit.inspect(raw.decode("utf-8")) == expected
    assert partkit.inspect(json.loads(raw)) == expected


def test_finds_every_kind_of_item():
    items = partkit.inspect((FIXTURES / "validate" / "clean" / "parts.json").read_text(encoding="utf-8"))
    assert [(item["pointer"], item["kind"], item["sniffed"]) for item in items] == [
        ("/1", "canonical image", "image/png"),
        ("/2", "canonical file", "application/pdf"),
        ("/3", "canonical audio", "audio/wav"),
        ("/4", "canonical image", None),
    ]
    assert items[0]["width"] == 4 and items[0]["height"] == 3 and items[0]["bytes"] == 91


@pytest.mark.parametrize(
    "text",
    ["nope", '{"a": ', '{"a": 1} {"b": 2}'],
    ids=["word", "cut", "two-documents-on-a-line"],
)
def test_invalid_json_matches_cli(cli, text):
    expected = cli("inspect", "--format", "json", stdin=text)
    assert expected.returncode == 1, str(expected)
    with pytest.raises(partkit.RejectedError) as caught:
        partkit.inspect(text)
    assert str(caught.value) == expected.error(ERROR_PREFIX)


def test_nothing_to_list(cli):
    doc = '{"messages": [{"role": "user", "content": "no media"}]}'
    assert cli_items(cli("inspect", "--format", "json", stdin=doc)) == partkit.inspect(doc) == []


@pytest.mark.parametrize("path", fixture_params([FIXTURES / "rollouts" / "rollouts.jsonl"]))
def test_json_lines_match_cli(cli, path):
    raw = path.read_bytes()
    expected = cli_items(cli("inspect", "--format", "json", stdin=raw))
    assert expected
    assert partkit.inspect(raw) == expected
