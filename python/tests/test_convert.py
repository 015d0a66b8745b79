"""``partkit.convert`` against ``partkit convert --to TO --compact`` on the
same text through stdin: the same output text, the same warnings as notes, the
same refusals with the same message."""

from __future__ import annotations

import json
import warnings

import pytest

import partkit
from conftest import FIXTURES, fixture_params, realworld_params
from shape_cases import compact, read_documents, shape_case, shape_cases

TARGETS = ["anthropic", "openai-chat", "openai-responses", "gemini", "bedrock", "canonical"]
# Single tool results also go to the shapes that only hold one.
SINGLE_RESULT_TARGETS = ["mcp", "nemo-gym"]
ERROR_PREFIX = "<stdin>: "

SHAPES = ("canonical", "openai-chat", "openai-responses", "anthropic", "gemini", "bedrock", "mcp", "nemo-gym")

# The reviewed pair conversions, and every document of the shape cases
# (tests/shapes), read or written, as an input.
CONVERT_FILES = sorted((FIXTURES / "convert" / "matrix").glob("*.json")) + [
    document.path for case in shape_cases() for document in case.documents
]
DOCUMENTS = fixture_params(CONVERT_FILES) + realworld_params()


def targets_for(path) -> list[str]:
    if path is not None and (path.name.startswith("mcp.") or "tool-result" in path.parent.name):
        return TARGETS + SINGLE_RESULT_TARGETS
    return TARGETS


def with_targets(documents, targets=None) -> list:
    """(document, target) parameters: every target of each document."""
    params = []
    for param in documents:
        (path,) = param.values
        for to in targets or targets_for(path):
            params.append(pytest.param(path, to, id=f"{param.id}-{to}", marks=param.marks))
    return params


def cli_convert(cli, text: str, to: str, *options: str):
    return cli("convert", "--to", to, "--compact", *options, stdin=text)


@pytest.fixture(scope="module", autouse=True)
def prefetch(cli):
    """Start the command line's conversions of every document to every
    target, in the order the tests read them, on the runner's thread pool:
    they run while the tests call the API."""
    runs = []
    for param in DOCUMENTS:
        (path,) = param.values
        if path is not None:
            text = path.read_text(encoding="utf-8")
            runs += [(("convert", "--to", to, "--compact"), text) for to in targets_for(path)]
    cli.prefetch(runs)


@pytest.fixture
def document(request):
    path = request.param
    return path, path.read_text(encoding="utf-8")


def converted_or_error(call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = call()
        except partkit.Error as error:
            return None, error, caught
    return result, None, caught


def check_against_cli(result, error, caught, cli_result) -> None:
    if cli_result.returncode == 0:
        assert error is None, f"the API refused what the command line converts: {error!r}\n{cli_result}"
        assert cli_result.stdout.endswith(b"\n") and not cli_result.stdout.endswith(b"\n\n")
        assert result.text == cli_result.text
        assert result.json() == result.text
        assert result.notes == cli_result.warnings
        # Nothing but warnings on stderr.
        assert len(cli_result.stderr.splitlines()) == len(cli_result.warnings), cli_result.stderr
        assert [str(w.message) for w in caught] == result.notes
        assert all(w.category is partkit.LossWarning for w in caught)
    elif cli_result.returncode == 1:
        assert error is not None, f"the API converted what the command line refuses:\n{cli_result}"
        assert isinstance(error, partkit.RejectedError)
        assert error.exit_code == 1
        assert str(error) == cli_result.error(ERROR_PREFIX)
    else:
        pytest.fail(f"unexpected exit code\n{cli_result}")


@pytest.mark.parametrize("document, to", with_targets(DOCUMENTS), indirect=["document"])
def test_text_matches_cli(cli, document, to):
    path, text = document
    expected = cli_convert(cli, text, to)
    result, error, caught = converted_or_error(lambda: partkit.convert(text, to))
    check_against_cli(result, error, caught, expected)
    if result is not None:
        assert isinstance(result.text, str)
        assert result.source in SHAPES


@pytest.mark.parametrize("document, to", with_targets(DOCUMENTS, ["anthropic", "canonical"]), indirect=["document"])
def test_bytes_match_cli(cli, document, to):
    path, text = document
    expected = cli_convert(cli, text, to)
    result, error, caught = converted_or_error(lambda: partkit.convert(text.encode("utf-8"), to))
    check_against_cli(result, error, caught, expected)


DATA_TARGETS = ["anthropic", "openai-responses", "gemini", "bedrock"]


def data_text(text: str) -> str:
    """The JSON text of a document's Python data, as the text route makes it."""
    return json.dumps(json.loads(text), allow_nan=False)


@pytest.fixture(scope="module", autouse=True)
def prefetch_data(cli):
    runs = []
    for param in DOCUMENTS:
        (path,) = param.values
        if path is not None:
            text = data_text(path.read_text(encoding="utf-8"))
            runs += [(("convert", "--to", to, "--compact"), text) for to in DATA_TARGETS]
    cli.prefetch(runs)


@pytest.mark.parametrize("document, to", with_targets(DOCUMENTS, DATA_TARGETS), indirect=["document"])
def test_data_matches_cli(cli, document, to):
    # Data is converted without JSON text (python/src/data.rs), and gives
    # what the command line gives for the data's JSON text: the same value,
    # text, notes and refusals.
    path, text = document
    expected = cli_convert(cli, data_text(text), to)
    data = json.loads(text)
    result, error, caught = converted_or_error(lambda: partkit.convert(data, to))
    check_against_cli(result, error, caught, expected)
    if result is not None:
        assert result.value == json.loads(expected.stdout)


def document_params(documents) -> list:
    return [pytest.param(document, id=document.id) for document in documents]


def api_marks(case) -> list:
    """A skip for a case whose options.txt holds a flag partkit.convert has
    no keyword for (the Rust table test runs it)."""
    if case.api_options is None:
        return [pytest.mark.skip(reason=f"options.txt: {case.options}: no partkit.convert keyword")]
    return []


def case_params(cases) -> list:
    return [pytest.param(case, id=case.name, marks=api_marks(case)) for case in cases]


def detection_params() -> list:
    # A read document refused even as its own shape is not detected either.
    return [
        pytest.param(case, document, id=document.id, marks=api_marks(case))
        for case in shape_cases()
        for document in case.read_documents
        if not case.unreadable(document)
    ]


@pytest.mark.parametrize("case, document", detection_params())
def test_source_is_the_detected_shape(case, document):
    # Read documents are taken for their own shape, without a note, unless
    # <file>.detected.txt says otherwise: the shape (or the error), then the
    # notes detection adds before those of reading the document.
    text = document.text()
    options = case.api_options
    try:
        detected = partkit.convert(text, "canonical", **options)
    except partkit.RejectedError as error:
        got = [f"error: {error}"]
    else:
        try:
            reading = partkit.convert(text, "canonical", from_=detected.source, **options).notes
        except partkit.RejectedError:
            reading = []
        own = max(len(detected.notes) - len(reading), 0)
        got = [detected.source, *detected.notes[:own]]
    assert got == case.detection(document)


@pytest.mark.parametrize("document", document_params(read_documents()))
@pytest.mark.parametrize(
    "options, cli_options",
    [
        ({"strict": True}, ["--strict"]),
        ({"tool_media": "lift"}, ["--tool-media", "lift"]),
        ({"on_unsupported": "text"}, ["--on-unsupported", "text"]),
        ({"on_unsupported": "error"}, ["--on-unsupported", "error"]),
        ({"from_": "openai-chat"}, ["--from", "openai-chat"]),
        ({"from_": "auto"}, ["--from", "auto"]),
    ],
    ids=["strict", "lift", "unsupported-text", "unsupported-error", "from-chat", "from-auto"],
)
@pytest.mark.parametrize("to", ["openai-chat", "gemini"])
def test_options_match_cli(cli, document, options, cli_options, to):
    text = document.text()
    expected = cli_convert(cli, text, to, *cli_options)
    result, error, caught = converted_or_error(lambda: partkit.convert(text, to, **options))
    check_against_cli(result, error, caught, expected)


AUDIO_REQUEST = {
    "model": "m",
    "messages": [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "Transcribe this."},
                {"type": "input_audio", "input_audio": {"data": "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=", "format": "wav"}},
            ],
        }
    ],
}


@pytest.mark.parametrize("on_unsupported", [None, "error", "text"])
@pytest.mark.parametrize("to", ["anthropic", "openai-responses", "bedrock"])
def test_unsupported_part_matches_cli(cli, on_unsupported, to):
    # Audio a user attached: anthropic and Responses have no place for it.
    text = json.dumps(AUDIO_REQUEST)
    options = [] if on_unsupported is None else ["--on-unsupported", on_unsupported]
    expected = cli_convert(cli, text, to, "--from", "openai-chat", *options)
    result, error, caught = converted_or_error(
        lambda: partkit.convert(text, to, from_="openai-chat", on_unsupported=on_unsupported)
    )
    check_against_cli(result, error, caught, expected)


NUMBERS = (
    '{"model":"m","messages":[{"role":"user","content":"Hi"}],'
    '"temperature":1.50,"max_tokens":1e2,"seed":12345678901234567890123}'
)


@pytest.mark.parametrize("to", ["openai-responses", "openai-chat", "gemini", "bedrock", "canonical"])
def test_number_spelling_is_kept(cli, to):
    expected = cli_convert(cli, NUMBERS, to, "--from", "openai-chat")
    assert expected.returncode == 0, str(expected)
    for doc in (NUMBERS, NUMBERS.encode()):
        result = partkit.convert(doc, to, from_="openai-chat")
        assert "1.50" in result.text and "1e2" in result.text
        assert result.text == expected.text


def test_number_spelling_is_not_kept_from_data():
    # Python data has no spelling to keep: json.dumps writes 1.5 and 100.0.
    result = partkit.convert(json.loads(NUMBERS), "openai-chat", from_="openai-chat")
    assert "1.50" not in result.text and "1e2" not in result.text
    assert result.value["temperature"] == 1.5


def test_converted_value_is_parsed_once():
    result = partkit.convert(NUMBERS, "openai-chat", from_="openai-chat")
    assert result.value is result.value
    assert result.value["seed"] == 12345678901234567890123
    assert "Converted from openai-chat" in repr(result)


def test_notes_are_issued_as_loss_warnings(cli):
    case = shape_case("anthropic-thinking-dropped")
    text = case.read("anthropic").text()
    expected_notes = case.conversion("anthropic", "openai-chat").notes
    assert expected_notes
    with pytest.warns(partkit.LossWarning) as caught:
        result = partkit.convert(text, "openai-chat")
    assert result.notes == expected_notes == cli_convert(cli, text, "openai-chat").warnings
    assert [str(w.message) for w in caught] == expected_notes
    # Pointed at the caller, not at partkit's own code.
    assert all(w.filename == __file__ for w in caught)


def test_no_notes_no_warnings():
    case = shape_case("gemini-text-only")
    conversion = case.conversion("gemini", "openai-chat")
    assert conversion.notes == [] and conversion.target is not None
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = partkit.convert(case.read("gemini").text(), "openai-chat")
    assert result.notes == []


@pytest.mark.parametrize("case", case_params(shape_cases()))
def test_case_converts_as_reviewed(case):
    # Each conversion a shape case states, with its options: the reviewed
    # document (same keys in the same order), its notes, each issued as a
    # LossWarning (none without a notes file); a refusal's message.
    conversions = case.conversions()
    assert conversions
    for conversion in conversions:
        what = f"{case.name}: {conversion.id}"
        result, error, caught = converted_or_error(
            lambda: partkit.convert(
                conversion.source.text(), conversion.shape, from_=conversion.source.shape, **case.api_options
            )
        )
        if conversion.refused is not None:
            assert result is None, f"{what}: converted, want it refused"
            assert isinstance(error, partkit.RejectedError), what
            assert str(error) == conversion.refused, what
            continue
        assert error is None, f"{what}: refused: {error}"
        assert compact(result.text) == compact(conversion.target.text()), what
        assert result.source == conversion.source.shape, what
        if conversion.notes is not None:
            assert result.notes == conversion.notes, what
        assert [str(w.message) for w in caught] == result.notes, what


@pytest.mark.parametrize(
    "text",
    ["not json", "{", '{"messages": [}', "[1, 2,]", '{"a": 1} trailing', "\ufeff{}"],
    ids=["word", "open", "broken", "trailing-comma", "trailing-text", "bom"],
)
def test_invalid_json_matches_cli(cli, text):
    expected = cli_convert(cli, text, "anthropic")
    assert expected.returncode == 1, str(expected)
    with pytest.raises(partkit.RejectedError) as caught:
        partkit.convert(text, "anthropic")
    assert str(caught.value) == expected.error(ERROR_PREFIX)


def test_unknown_shape_matches_cli(cli):
    text = '{"hello": "world"}'
    expected = cli_convert(cli, text, "gemini")
    with pytest.raises(partkit.RejectedError) as caught:
        partkit.convert(text, "gemini")
    assert str(caught.value) == expected.error(ERROR_PREFIX)
    assert "cannot tell which shape" in str(caught.value)
