"""The ``partkit`` command the package installs (the same command line, run
in-process by Python) against the binary: the same version, outputs, messages
and exit codes."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import partkit
from conftest import REPO_ROOT, cli_env
from shape_cases import shape_case, shape_cases


@pytest.fixture(scope="module")
def installed() -> Path:
    """The ``partkit`` script beside the interpreter running the tests."""
    scripts = Path(sys.executable).parent
    for name in ("partkit", "partkit.exe"):
        if (scripts / name).is_file():
            return scripts / name
    found = shutil.which("partkit", path=str(scripts))
    if not found:
        pytest.fail(f"the package's partkit command is not in {scripts}: is the package installed?")
    return Path(found)


def run_installed(installed: Path, *args: str, stdin: bytes = b"", cwd: Path = REPO_ROOT):
    return subprocess.run([str(installed), *args], input=stdin, capture_output=True, cwd=cwd, env=cli_env(), timeout=120)


def same_run(cli, installed, *args: str, stdin: bytes = b"", cwd: Path = REPO_ROOT):
    binary = cli(*args, stdin=stdin, cwd=cwd)
    script = run_installed(installed, *args, stdin=stdin, cwd=cwd)
    assert script.returncode == binary.returncode, f"{script.stderr!r}\n{binary}"
    assert script.stdout == binary.stdout
    assert script.stderr.decode() == binary.stderr
    return binary


def test_version_matches_the_binary(cli, installed):
    binary = cli("--version")
    script = run_installed(installed, "--version")
    assert script.returncode == binary.returncode == 0
    assert script.stdout == binary.stdout
    assert script.stdout.decode() == f"partkit {partkit.__version__}\n"
    assert partkit.__version__ == partkit._native.__version__


def test_python_m_partkit_cli(cli):
    # The script's module, run directly.
    run = subprocess.run([sys.executable, "-m", "partkit._cli", "--version"], capture_output=True, env=cli_env(), timeout=60)
    assert run.returncode == 0
    assert run.stdout == cli("--version").stdout


def files_to_anthropic() -> list:
    """One read document of each source shape whose case converts it to a
    reviewed anthropic document with the default options."""
    chosen = {}
    for case in shape_cases():
        if case.options or not case.written("anthropic"):
            continue
        for document in case.read_documents:
            if document.shape not in chosen and document.shape != "anthropic":
                chosen[document.shape] = document
    assert len(chosen) >= 4, sorted(chosen)
    return [pytest.param(d.path, id=d.id) for d in chosen.values()]


@pytest.mark.parametrize("case", files_to_anthropic())
def test_convert_file_matches_the_binary(cli, installed, case):
    binary = same_run(cli, installed, "convert", "--to", "anthropic", str(case.relative_to(REPO_ROOT)))
    assert binary.returncode == 0 and binary.stdout


def test_convert_stdin_with_warnings(cli, installed):
    stdin = shape_case("anthropic-thinking-dropped").read("anthropic").path.read_bytes()
    binary = same_run(cli, installed, "convert", "--to", "gemini", "--pretty", stdin=stdin)
    assert binary.warnings


@pytest.mark.parametrize(
    "args, stdin, code",
    [
        (["convert", "--to", "anthropic"], b"not json", 1),
        (["convert", "--to", "nowhere"], b"{}", 2),
        (["validate", "no/such/file.json"], b"", 2),
        (["validate", "--format", "json", "-"], b'{"tool_output_images": 7}', 1),
        (["encode", "tests/fixtures/empty.bin"], b"", 1),
        (["split", "--rest"], b'{"tool_output_images": [7]}', 1),
        (["convert", "--bogus-flag"], b"", 2),
        (["inspect", "--format", "json", "tests/fixtures/validate/clean/parts.json"], b"", 0),
        (["encode", "--to", "gemini", "tests/fixtures/tiny.gif"], b"", 1),
    ],
    ids=["invalid-json", "unknown-shape", "unreadable", "findings", "empty-media", "malformed-reply", "unknown-flag", "inspect", "gif-to-gemini"],
)
def test_exit_codes_and_messages_match_the_binary(cli, installed, args, stdin, code):
    binary = same_run(cli, installed, *args, stdin=stdin)
    assert binary.returncode == code


def test_resize_writes_the_same_file(cli, installed, tmp_path, make_png):
    image = tmp_path / "noise.png"
    image.write_bytes(make_png(40, 40, seed=9))
    cli("resize", "--max-bytes", "2000", str(image), "-o", str(tmp_path / "binary.png"))
    script = run_installed(installed, "resize", "--max-bytes", "2000", str(image), "-o", str(tmp_path / "script.png"))
    assert script.returncode == 0, script.stderr
    assert (tmp_path / "script.png").read_bytes() == (tmp_path / "binary.png").read_bytes()


@pytest.mark.parametrize("args", [["--help"], ["convert", "--help"], ["help", "validate"]], ids=["help", "convert-help", "help-validate"])
def test_help_matches_the_binary(cli, installed, args):
    binary = same_run(cli, installed, *args)
    assert binary.returncode == 0 and b"Usage: partkit" in binary.stdout
