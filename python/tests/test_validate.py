"""``partkit.validate`` against ``partkit validate --format json`` on the
repository's fixtures, the recordings and documents broken on purpose: the
same findings (rule, severity, pointer, message, line, path), in order, for
files, folders and documents held in memory."""

from __future__ import annotations

import base64
import dataclasses
import json
import os
from pathlib import Path
from typing import Any

import pytest

import partkit
from conftest import FIXTURES, REPO_ROOT, fixture_params, need_realworld
from shape_cases import read_documents

FIELDS = {"rule", "severity", "pointer", "message", "line", "path", "interaction", "side", "status"}

VALIDATE_FILES = sorted((FIXTURES / "validate").rglob("*.json")) + sorted(
    (FIXTURES / "validate-transcripts").rglob("*.json")
)

PNG = (FIXTURES / "tiny.png").read_bytes()
JPEG = (FIXTURES / "tiny.jpg").read_bytes()
B64_PNG = base64.b64encode(PNG).decode()
B64_JPEG = base64.b64encode(JPEG).decode()

# (api keyword options, command-line options)
OPTIONS: dict[str, tuple[dict[str, Any], list[str]]] = {
    "plain": ({}, []),
    "deep": ({"deep": True}, ["--deep"]),
    "profile-anthropic": ({"profile": "anthropic"}, ["--profile", "anthropic"]),
    "profile-gemini-deep": ({"profile": "gemini", "deep": True}, ["--profile", "gemini", "--deep"]),
    "target-gemini": ({"target": "gemini"}, ["--target", "gemini"]),
    "target-bedrock-profile": ({"target": "bedrock", "profile": "bedrock"}, ["--target", "bedrock", "--profile", "bedrock"]),
    "kind-reply": ({"kind": "reply"}, ["--kind", "reply"]),
    "kind-parts": ({"kind": "parts"}, ["--kind", "parts"]),
    "kind-transcript": ({"kind": "transcript"}, ["--kind", "transcript"]),
    "kind-rollout": ({"kind": "rollout"}, ["--kind", "rollout"]),
    "from-anthropic": ({"from_": "anthropic"}, ["--from", "anthropic"]),
}
FILE_OPTIONS = ["plain", "deep", "target-gemini"]


def broken_documents() -> dict[str, str]:
    """Documents that fire rules, by file name."""
    truncated = base64.b64encode(PNG[:60]).decode()
    reply = {
        "status": "ok",
        "tool_output_images": [
            {"image_url": f"data:image/jpeg;base64,{B64_PNG}", "label": "says jpeg"},
            {"image_url": "data:image/png;base64,!!!"},
            {"image_url": f"data:image/png;base64,{B64_PNG}", "label": 7},
            {"image_url": "https://example.com/a.png"},
            {"image_url": f"data:image/png;base64,{B64_PNG}", "extra": True},
            "not an object",
            {"image_url": f"data:image/jpg;base64,{B64_JPEG}"},
            {"image_url": f"data:image/png;base64,{truncated}"},
        ],
    }
    parts = [
        {"type": "text", "text": "Look: data:image/png;base64," + B64_PNG},
        {"type": "image", "data": B64_PNG},
        {"type": "image", "mimeType": "image/png", "data": ""},
        {"type": "image", "mimeType": "IMAGE/PNG", "data": B64_PNG},
        {"type": "image", "mimeType": "image/png", "data": B64_PNG.rstrip("=")},
        {"type": "video", "mimeType": "video/mp4", "data": "AAAA"},
        {"type": "file", "mimeType": "application/pdf", "data": B64_PNG},
    ]
    chat = {
        "model": "m",
        "messages": [
            {"role": "user", "content": "Weather?"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {"id": "call_1", "type": "function", "function": {"name": "weather", "arguments": "{not json"}},
                    {"id": "call_1", "type": "function", "function": {"name": "nowhere", "arguments": "{}"}},
                    {"id": "call_3", "type": "function", "function": {"name": "weather", "arguments": "[1]"}},
                ],
            },
            {"role": "tool", "tool_call_id": "call_1", "content": "sunny"},
            {"role": "tool", "tool_call_id": "call_9", "content": "orphan"},
            {"role": "assistant", "content": [{"type": "image_url", "image_url": {"url": f"data:image/png;base64,{B64_PNG}"}}]},
        ],
        "tools": [
            {"type": "function", "function": {"name": "weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}},
            {"type": "function", "function": {"name": "weather", "parameters": {"type": "wrong"}}},
        ],
    }
    anthropic = {
        "model": "claude",
        "max_tokens": 10,
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "  "}]},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "bad id!", "name": "f", "input": {}}]},
            {"role": "user", "content": []},
        ],
    }
    bedrock = {
        "messages": [
            {"role": "user", "content": [{"text": "a"}]},
            {"role": "user", "content": [{"document": {"format": "pdf", "name": "bad/name*", "source": {"bytes": B64_PNG}}}]},
        ]
    }
    duplicate = '{"result": 1, "result": 2, "tool_output_images": null}'
    lines = "\n".join(
        [
            json.dumps({"tool_output_images": [{"image_url": f"data:image/png;base64,{B64_PNG}"}]}),
            '{"tool_output_images": [',
            json.dumps(parts[:3]),
            "",
            (FIXTURES / "rollouts" / "rollouts.jsonl").read_text(encoding="utf-8").splitlines()[0],
            json.dumps({"just": "data"}),
        ]
    )
    return {
        "reply.json": json.dumps(reply, indent=2),
        "parts.json": json.dumps(parts),
        "chat.json": json.dumps(chat, indent=1),
        "nested/anthropic.json": json.dumps(anthropic),
        "nested/deeper/bedrock.json": json.dumps(bedrock),
        "duplicate.json": duplicate,
        "lines.jsonl": lines + "\n",
        "empty.json": "",
        "not-json.json": "{ this is not json",
        "ignored.txt": "not checked: not *.json",
    }


@pytest.fixture(scope="session")
def broken_dir(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("validate-broken")
    for name, text in broken_documents().items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return folder


def as_dicts(findings) -> list[dict]:
    assert all(isinstance(finding, partkit.Finding) for finding in findings)
    return [dataclasses.asdict(finding) for finding in findings]


def cli_findings(result, stdin: bool = False) -> list[dict]:
    assert result.returncode in (0, 1), str(result)
    rows = [json.loads(line) for line in result.lines]
    for row in rows:
        # A finding in a recording also names its interaction, side and
        # status; elsewhere the Python findings have None for them.
        if "interaction" in row:
            assert row["side"] in ("request", "response") and row["interaction"] > 0, row
        else:
            row.update(interaction=None, side=None, status=None)
        assert set(row) == FIELDS, row
        if stdin:
            assert row["path"] == "<stdin>", row
            row["path"] = None
    assert (result.returncode == 1) == any(row["severity"] == "error" for row in rows), str(result)
    return rows


def check_path(cli, path: str, option: str, pathlike: bool = False) -> list[dict]:
    options, cli_options = OPTIONS[option]
    expected = cli_findings(cli("validate", "--format", "json", *cli_options, path))
    got = as_dicts(partkit.validate(Path(path) if pathlike else path, **options))
    assert got == expected
    return expected


@pytest.fixture
def in_repo(monkeypatch):
    """Relative paths as the command line is given them, from the root."""
    monkeypatch.chdir(REPO_ROOT)


@pytest.mark.parametrize("option", FILE_OPTIONS)
@pytest.mark.parametrize("path", fixture_params(VALIDATE_FILES))
def test_fixture_file_matches_cli(cli, in_repo, path, option):
    check_path(cli, path.relative_to(REPO_ROOT).as_posix(), option, pathlike=option == "plain")


FOLDER_CASES = [
    pytest.param(folder, option, id=f"{folder}-{option}")
    for folder in ("tests/fixtures/validate", "tests/fixtures/validate-transcripts")
    for option in OPTIONS
] + [
    pytest.param("tests/fixtures", option, id=f"tests/fixtures-{option}")
    for option in ("plain", "deep", "target-gemini", "kind-rollout", "profile-anthropic")
]


@pytest.mark.parametrize("folder, option", FOLDER_CASES)
def test_fixture_folder_matches_cli(cli, in_repo, folder, option):
    check_path(cli, folder, option)


@pytest.mark.parametrize("option", ["plain", "deep", "target-bedrock-profile"])
def test_realworld_folder_matches_cli(cli, option):
    folder = need_realworld()
    findings = check_path(cli, str(folder), option)
    if option == "target-bedrock-profile":
        assert findings, "pre-flight for another shape finds something in the recordings"


@pytest.mark.parametrize("option", list(OPTIONS))
def test_broken_folder_matches_cli(cli, broken_dir, option):
    findings = check_path(cli, str(broken_dir), option, pathlike=option == "plain")
    assert any(row["severity"] == "error" for row in findings)


BROKEN_NAMES = [name for name in broken_documents() if name.endswith((".json", ".jsonl"))]


@pytest.mark.parametrize("option", ["plain", "deep", "profile-anthropic", "target-bedrock-profile", "kind-parts"])
@pytest.mark.parametrize("name", BROKEN_NAMES)
def test_broken_file_matches_cli(cli, broken_dir, name, option):
    check_path(cli, str(broken_dir / name), option)


def test_broken_documents_fire_many_rules(cli, broken_dir):
    rules = {finding.rule for finding in partkit.validate(broken_dir, deep=True)}
    expected = {
        "media-type-mismatch", "base64-invalid", "reply-image-label", "reply-image-not-data-url",
        "reply-image-unknown-key", "reply-image-not-object", "part-invalid", "media-empty",
        "duplicate-key", "invalid-json", "image-truncated", "tool-id-duplicate",
    }
    assert expected <= rules, expected - rules


@pytest.mark.parametrize("option", ["plain", "deep", "profile-anthropic", "target-gemini"])
@pytest.mark.parametrize("name", BROKEN_NAMES + ["fixtures/" + p.relative_to(FIXTURES).as_posix() for p in VALIDATE_FILES[:6]])
def test_in_memory_matches_cli_stdin(cli, broken_dir, name, option):
    path = FIXTURES / name[len("fixtures/"):] if name.startswith("fixtures/") else broken_dir / name
    raw = path.read_bytes()
    options, cli_options = OPTIONS[option]
    expected = cli_findings(cli("validate", "--format", "json", *cli_options, stdin=raw), stdin=True)
    assert as_dicts(partkit.validate(raw, **options)) == expected
    text = raw.decode("utf-8")
    if text.lstrip().startswith(("{", "[")):
        # A str is a document when it starts like one.
        assert as_dicts(partkit.validate(text, **options)) == expected
    assert as_dicts(partkit.validate(bytearray(raw), **options)) == expected


@pytest.mark.parametrize("path", fixture_params(VALIDATE_FILES + [document.path for document in read_documents()]))
def test_data_matches_cli_stdin(cli, path):
    # Python data is serialized compactly: the findings' pointers, rules and
    # messages are those of the text.
    data = json.loads(path.read_text(encoding="utf-8"))
    expected = cli_findings(cli("validate", "--format", "json", "--target", "bedrock", stdin=path.read_bytes()), stdin=True)
    assert as_dicts(partkit.validate(data, target="bedrock")) == expected


def test_big_image_over_profile_caps(cli, tmp_path, make_png):
    image = make_png(1300, 1100, seed=7, level=1)
    assert len(image) > 3_932_160
    parts = [{"type": "text", "text": "big"}, {"type": "image", "mimeType": "image/png", "data": base64.b64encode(image).decode()}]
    path = tmp_path / "big.json"
    path.write_text(json.dumps(parts), encoding="utf-8")
    expected = cli_findings(cli("validate", "--format", "json", "--profile", "bedrock", str(path)))
    got = as_dicts(partkit.validate(str(path), profile="bedrock"))
    assert got == expected
    assert [row["rule"] for row in got] == ["limit-bytes"]
    assert as_dicts(partkit.validate(parts, profile="bedrock")) == [dict(row, path=None) for row in expected]
    assert partkit.validate(parts, profile="openai") == []


@pytest.mark.parametrize(
    "missing",
    ["no/such/file.json", "/no/such/folder", "tests/fixtures/tiny.png/inside.json"],
)
def test_unreadable_path_is_a_usage_error(cli, in_repo, missing):
    expected = cli("validate", "--format", "json", missing)
    assert expected.returncode == 2, str(expected)
    with pytest.raises(partkit.UsageError) as caught:
        partkit.validate(missing)
    assert caught.value.exit_code == 2
    assert str(caught.value) == expected.error()
    assert "cannot read" in str(caught.value)


def test_a_str_is_a_path_unless_it_starts_like_json(in_repo):
    with pytest.raises(partkit.UsageError):
        partkit.validate("null")
    findings = partkit.validate('  {"tool_output_images": 7}')
    assert [(f.rule, f.path, f.line) for f in findings] == [("reply-images-not-list", None, 1)]
    # bytes are always a document.
    assert [f.rule for f in partkit.validate(os.fsencode("tests/fixtures/validate"))] == ["invalid-json"]


def test_findings_are_frozen():
    (finding,) = partkit.validate({"tool_output_images": 7})
    with pytest.raises(dataclasses.FrozenInstanceError):
        finding.rule = "x"  # type: ignore[misc]
    assert finding.severity == "error" and finding.pointer == "/tool_output_images"


def test_a_recording_finding_names_its_interaction_side_and_status():
    findings = partkit.validate(FIXTURES / "recordings" / "edge.yaml")
    assert [(f.rule, f.line, f.interaction, f.side, f.status) for f in findings] == [
        ("broken-stream", 13, 1, "response", 200),
        ("media-type-mismatch", 21, 2, "request", 200),
    ]
    # A document that is no recording leaves them None.
    plain = partkit.validate('{"type": "image", "data": "", "mimeType": "image/png"}')
    assert plain and all((f.interaction, f.side, f.status) == (None, None, None) for f in plain)
