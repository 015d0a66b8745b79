"""``partkit.convert_lines`` against ``partkit convert --to TO --jsonl
--on-error null`` on the same lines: the same outputs line for line, ``None``
where the command line writes ``null``, the same messages and notes by line;
the same from several Python threads at once."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

import pytest

import partkit
from conftest import FIXTURES, realworld_files
from shape_cases import read_documents, shape_case

TARGETS = ["anthropic", "openai-chat", "openai-responses", "gemini", "bedrock", "canonical"]

# Lines that fail, each for its own reason; none of them blank (the command
# line skips blank lines, so its line numbers would no longer be indexes).
INVALID = [
    "not json",
    '{"messages": [',
    '{"hello": "world"}',
    "[1, 2, 3]",
    '"a string"',
    '{"messages": [{"role": "user", "content": 7}], "model": "m"}',
]
NUMBERS = (
    '{"model":"m","messages":[{"role":"user","content":"Hi"}],'
    '"temperature":1.50,"max_tokens":1e2}'
)


def compact(path) -> str:
    return json.dumps(json.loads(path.read_text(encoding="utf-8")), ensure_ascii=False, separators=(",", ":"))


def corpus() -> list[str]:
    """One document a line: NeMo Gym rollouts as written, every read
    document of the shape cases, a few recordings, and the invalid lines in
    between."""
    lines = (FIXTURES / "rollouts" / "rollouts.jsonl").read_text(encoding="utf-8").splitlines()
    lines += [compact(document.path) for document in read_documents()]
    lines += [compact(path) for path in realworld_files()[::6]]
    lines.insert(2, INVALID[0])
    lines.insert(5, INVALID[1])
    lines += INVALID[2:]
    lines.append(NUMBERS)
    assert all(line.strip() and "\n" not in line for line in lines)
    return lines


LINES = corpus()


@pytest.fixture(scope="module")
def expected(cli):
    """The command line's outputs, errors and notes for every target."""
    stdin = "\n".join(LINES) + "\n"
    runs = {to: cli.submit("convert", "--to", to, "--jsonl", "--on-error", "null", stdin=stdin) for to in TARGETS}
    return {to: run.result() for to, run in runs.items()}


def cli_view(result, stdin_lines):
    assert result.returncode == 0, str(result)
    outputs = [None if line == "null" else line for line in result.lines]
    assert len(outputs) == len(LINES), str(result)
    errors = {index: messages[0] for index, messages in stdin_lines(result.errors).items()}
    assert all(len(messages) == 1 for messages in stdin_lines(result.errors).values())
    notes = stdin_lines(result.warnings)
    return outputs, errors, notes


@pytest.mark.parametrize("to", TARGETS)
def test_str_lines_match_cli(expected, stdin_lines, to):
    outputs, errors, notes = cli_view(expected[to], stdin_lines)
    result = partkit.convert_lines(LINES, to)
    assert isinstance(result, partkit.ConvertedLines) and isinstance(result, list)
    assert list(result) == outputs
    assert result.errors == errors
    assert result.notes == notes
    # Every invalid line failed, and only the lines that failed are None.
    assert {LINES.index(line) for line in INVALID} <= set(errors)
    assert {index for index, output in enumerate(result) if output is None} == set(errors)
    assert all(isinstance(output, str) for output in result if output is not None)


@pytest.mark.parametrize("to", TARGETS)
def test_bytes_lines_match_cli(expected, stdin_lines, to):
    outputs, errors, notes = cli_view(expected[to], stdin_lines)
    lines = [line.encode("utf-8") for line in LINES]
    lines[0] = bytearray(lines[0])
    lines[1] = memoryview(lines[1])
    result = partkit.convert_lines(lines, to)
    assert list(result) == [None if out is None else out.encode("utf-8") for out in outputs]
    assert all(isinstance(output, bytes) for output in result if output is not None)
    assert result.errors == errors
    assert result.notes == notes


@pytest.mark.parametrize("to", TARGETS)
def test_data_lines_match_cli(expected, stdin_lines, to):
    outputs, errors, _ = cli_view(expected[to], stdin_lines)
    lines = []
    for line in LINES:
        try:
            lines.append(json.loads(line))
        except ValueError:
            lines.append(line)  # the invalid text stays text
    parsed = [(line, out) for line, out in zip(lines, outputs) if isinstance(line, (dict, list))]
    result = partkit.convert_lines(lines, to)
    for index, (line, output) in enumerate(zip(lines, result)):
        want = outputs[index]
        if want is None:
            assert output is None and index in result.errors, index
        elif isinstance(line, (dict, list)):
            assert output == json.loads(want), index
        else:
            assert output == want, index
    assert set(result.errors) == set(errors)
    assert parsed


def test_mixed_kinds_come_back_as_given(expected, stdin_lines):
    outputs, _, _ = cli_view(expected["canonical"], stdin_lines)
    index = next(i for i, out in enumerate(outputs) if out is not None)
    line = LINES[index]
    result = partkit.convert_lines([line, line.encode(), json.loads(line), "nope"], "canonical")
    assert result[0] == outputs[index]
    assert result[1] == outputs[index].encode()
    assert result[2] == json.loads(outputs[index])
    assert result[3] is None and set(result.errors) == {3}


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_threads_give_the_same_result(threads):
    default = partkit.convert_lines(LINES, "gemini")
    given = partkit.convert_lines(LINES, "gemini", threads=threads)
    assert list(given) == list(default)
    assert given.errors == default.errors
    assert given.notes == default.notes


def test_from_several_python_threads(expected, stdin_lines):
    wanted = {to: cli_view(expected[to], stdin_lines) for to in TARGETS}
    # Each of the four threads runs several calls, half of them on a pool of
    # their own.
    jobs = [(TARGETS[i % len(TARGETS)], None if i % 2 else 2) for i in range(16)]

    def run(job):
        to, threads = job
        # (LossWarning is filtered out for the whole suite: catch_warnings is
        # not safe across threads.)
        result = partkit.convert_lines(LINES, to, threads=threads)
        return to, list(result), result.errors, result.notes

    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(run, jobs))
    assert len(results) == len(jobs)
    for to, outputs, errors, notes in results:
        assert (outputs, errors, notes) == wanted[to], to


def test_convert_and_convert_lines_agree():
    result = partkit.convert_lines(LINES, "bedrock")
    for index, line in enumerate(LINES):
        try:
            one = partkit.convert(line, "bedrock")
        except partkit.RejectedError as error:
            assert result[index] is None
            assert result.errors[index] == str(error)
        else:
            assert result[index] == one.text
            assert result.notes.get(index, []) == one.notes


def test_options_match_cli(cli, stdin_lines):
    stdin = "\n".join(LINES) + "\n"
    cli_result = cli("convert", "--to", "gemini", "--jsonl", "--on-error", "null", "--strict", "--tool-media", "lift", stdin=stdin)
    outputs, errors, notes = cli_view(cli_result, stdin_lines)
    result = partkit.convert_lines(LINES, "gemini", strict=True, tool_media="lift")
    assert list(result) == outputs
    assert result.errors == errors
    assert result.notes == notes
    # --strict turns drops into failures.
    assert len(errors) > len(partkit.convert_lines(LINES, "gemini").errors)


def test_number_spelling_is_kept():
    result = partkit.convert_lines([NUMBERS, NUMBERS.encode()], "openai-responses", from_="openai-chat")
    assert '"temperature":1.50' in result[0] and "1e2" in result[0]
    assert result[1] == result[0].encode()


def test_each_distinct_note_is_warned_once():
    line = shape_case("anthropic-thinking-dropped").read("anthropic").text()
    with pytest.warns(partkit.LossWarning) as caught:
        result = partkit.convert_lines([line] * 5, "openai-chat")
    assert set(result.notes) == {0, 1, 2, 3, 4}
    distinct = list(dict.fromkeys(note for notes in result.notes.values() for note in notes))
    assert [str(w.message) for w in caught] == distinct
    assert all(w.filename == __file__ for w in caught)


def test_empty_input():
    result = partkit.convert_lines([], "anthropic")
    assert list(result) == [] and result.errors == {} and result.notes == {}


def test_generator_of_lines():
    result = partkit.convert_lines((line for line in LINES[:3]), "canonical")
    assert len(result) == 3


def test_a_blank_line_fails_on_its_own():
    # The command line skips blank lines; here every item is a document, so
    # an empty one fails without touching its neighbours.
    good = LINES[0]
    result = partkit.convert_lines([good, "", good], "canonical")
    assert result[0] == result[2] is not None
    assert result[1] is None
    assert result.errors[1].startswith("invalid JSON: EOF")


ROLLOUTS = (FIXTURES / "rollouts" / "rollouts.jsonl").read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize(
    "options, flags",
    [
        ({"at": "/responses_create_params"}, ["--at", "/responses_create_params"]),
        ({"at": ["/nothing/here"], "at_missing": "skip"}, ["--at", "/nothing/here", "--at-missing", "skip"]),
        ({"at": "/nothing/here"}, ["--at", "/nothing/here"]),
        ({"kind": "transcript"}, ["--kind", "transcript"]),
        ({"kind": "rollout"}, ["--kind", "rollout"]),
    ],
    ids=["at", "at-missing-skip", "at-missing-error", "kind-transcript", "kind-rollout"],
)
def test_at_and_kind_match_cli(cli, stdin_lines, options, flags):
    # The rollouts, the Spark recipe's lines: --at converts the request in
    # place, the rest of each line byte for byte.
    lines = ROLLOUTS + [INVALID[0]]
    expected = cli("convert", "--to", "anthropic", "--jsonl", "--on-error", "null", *flags, stdin="\n".join(lines) + "\n")
    assert expected.returncode == 0, str(expected)
    result = partkit.convert_lines(lines, "anthropic", **options)
    assert list(result) == [None if line == "null" else line for line in expected.lines]
    assert result.errors == {index: messages[0] for index, messages in stdin_lines(expected.errors).items()}
    one = partkit.convert(lines[0], "anthropic", **options) if 0 not in result.errors else None
    if one is not None:
        assert one.text == result[0]


def test_a_missing_line_is_a_failed_line():
    result = partkit.convert_lines([ROLLOUTS[0], None, b"{"], "anthropic", at="/responses_create_params")
    assert result[0] is not None and result[1] is None and result[2] is None
    assert sorted(result.errors) == [1, 2]
    assert "None" in result.errors[1]


@pytest.mark.parametrize("at", [["/a", "/a/b"], ["no-slash"]], ids=["nested", "not-a-pointer"])
def test_bad_pointers_are_usage_errors(cli, at):
    flags = [flag for pointer in at for flag in ("--at", pointer)]
    expected = cli("convert", "--to", "anthropic", *flags, stdin=ROLLOUTS[0])
    assert expected.returncode == 2
    with pytest.raises(partkit.UsageError):
        partkit.convert(ROLLOUTS[0], "anthropic", at=at)
    with pytest.raises(partkit.UsageError):
        partkit.convert_lines([ROLLOUTS[0]], "anthropic", at=at)
