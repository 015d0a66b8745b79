"""Shared fixtures for the Python API's tests: where the repository, its
fixtures and the command-line binary are, a runner for the binary, and
helpers that read its output.

The suite checks the API against the command line: the binary is taken from
``PARTKIT_BIN`` (default ``target/debug/partkit`` under the repository root),
the real recordings from ``../shared/realworld`` beside the repository (tests
that need them are skipped when that folder is absent).
"""

from __future__ import annotations

import hashlib
import os
import random
import re
import struct
import subprocess
import threading
import zlib
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence, Union

import pytest

import partkit

REPO_ROOT = Path(__file__).resolve().parents[2]
FIXTURES = REPO_ROOT / "tests" / "fixtures"
REALWORLD = (REPO_ROOT / ".." / "shared" / "realworld").resolve()
REALWORLD_MISSING = f"real recordings not found at {REALWORLD} (../shared/realworld from the repository root)"

WARNING = "partkit: warning: "
ERROR = "partkit: error: "


def cli_binary() -> Path:
    given = os.environ.get("PARTKIT_BIN")
    path = Path(given) if given else REPO_ROOT / "target" / "debug" / "partkit"
    if not path.is_absolute():
        path = REPO_ROOT / path
    return path


def cli_env() -> dict[str, str]:
    """The environment both command lines run in, built from os.environ
    (the C-level environment of the test process may hold more, such as a
    COLUMNS that changes how help text wraps)."""
    env = dict(os.environ)
    env.pop("RAYON_NUM_THREADS", None)
    env["COLUMNS"] = "100"
    return env


def pytest_configure(config: pytest.Config) -> None:
    # The conversions warn a lot by design; the tests that care record the
    # warnings themselves (pytest.warns and catch_warnings still see them).
    config.addinivalue_line("filterwarnings", "ignore::partkit.LossWarning")


# --------------------------------------------------------------------------
# Fixture files, for parametrizing at collection time.


def rel(path: Path) -> str:
    """A fixture's id: its path under tests/fixtures, the recordings or tests
    (``shapes/<case>/<shape>.json``)."""
    for base in (FIXTURES, REALWORLD, REPO_ROOT / "tests"):
        try:
            return path.relative_to(base).as_posix()
        except ValueError:
            pass
    return path.as_posix()


def fixture_params(paths: Sequence[Path]) -> list:
    return [pytest.param(path, id=rel(path)) for path in paths]


def realworld_files() -> list[Path]:
    if not REALWORLD.is_dir():
        return []
    return sorted(REALWORLD.glob("*/*.json"))


def realworld_params() -> list:
    """The recordings as parameters, or one skipped parameter saying why."""
    files = realworld_files()
    if not files:
        return [pytest.param(None, id="realworld", marks=pytest.mark.skip(reason=REALWORLD_MISSING))]
    return [pytest.param(path, id="realworld/" + rel(path)) for path in files]


def need_realworld() -> Path:
    if not REALWORLD.is_dir():
        pytest.skip(REALWORLD_MISSING)
    return REALWORLD


# --------------------------------------------------------------------------
# The command-line binary.


@dataclass(frozen=True)
class CliResult:
    args: tuple[str, ...]
    returncode: int
    stdout: bytes
    stderr: str

    @property
    def text(self) -> str:
        """stdout as text, without the one final line break."""
        out = self.stdout.decode("utf-8")
        return out[:-1] if out.endswith("\n") else out

    @property
    def lines(self) -> list[str]:
        return self.stdout.decode("utf-8").splitlines()

    @property
    def warnings(self) -> list[str]:
        """The warnings on stderr, without ``partkit: warning: ``."""
        return [line[len(WARNING):] for line in self.stderr.splitlines() if line.startswith(WARNING)]

    @property
    def errors(self) -> list[str]:
        """The errors on stderr, without ``partkit: error: ``."""
        return [line[len(ERROR):] for line in self.stderr.splitlines() if line.startswith(ERROR)]

    def error(self, prefix: str = "") -> str:
        """The one error line's message after ``partkit: error: PREFIX``."""
        assert len(self.errors) == 1, f"expected one error line from {self.args}, got stderr:\n{self.stderr}"
        line = self.errors[0]
        assert line.startswith(prefix), f"error line {line!r} does not start with {prefix!r}"
        return line[len(prefix):]

    def __str__(self) -> str:
        return (
            f"partkit {' '.join(self.args)} -> exit {self.returncode}\n"
            f"stdout: {self.stdout[:500]!r}\nstderr: {self.stderr[:1000]}"
        )


class Cli:
    """Runs the binary; results are memoized by arguments, stdin and folder
    so that parametrized tests can share one run, and ``prefetch`` starts
    runs on a thread pool ahead of the tests that read them."""

    def __init__(self, binary: Path) -> None:
        self.binary = binary
        self._pool = ThreadPoolExecutor(max_workers=max(2, (os.cpu_count() or 2)) + 1)
        self._runs: dict[tuple, Future] = {}
        self._lock = threading.Lock()

    def _key(self, args: Sequence[Union[str, os.PathLike]], stdin: Optional[bytes], cwd: Path) -> tuple:
        digest = None if stdin is None else hashlib.sha256(stdin).hexdigest()
        return (tuple(str(arg) for arg in args), digest, str(cwd))

    def _run(self, args: tuple[str, ...], stdin: Optional[bytes], cwd: Path) -> CliResult:
        process = subprocess.run(
            [str(self.binary), *args],
            input=stdin if stdin is not None else b"",
            capture_output=True,
            cwd=cwd,
            env=cli_env(),
            timeout=120,
        )
        return CliResult(args, process.returncode, process.stdout, process.stderr.decode("utf-8", "replace"))

    def submit(self, *args: Union[str, os.PathLike], stdin: Union[bytes, str, None] = None, cwd: Optional[Path] = None) -> Future:
        if isinstance(stdin, str):
            stdin = stdin.encode("utf-8")
        cwd = cwd or REPO_ROOT
        key = self._key(args, stdin, cwd)
        with self._lock:
            future = self._runs.get(key)
            if future is None:
                future = self._pool.submit(self._run, tuple(str(arg) for arg in args), stdin, cwd)
                self._runs[key] = future
        return future

    def prefetch(self, runs: Sequence[tuple[Sequence[str], Union[bytes, str, None]]], cwd: Optional[Path] = None) -> None:
        for args, stdin in runs:
            self.submit(*args, stdin=stdin, cwd=cwd)

    def __call__(self, *args: Union[str, os.PathLike], stdin: Union[bytes, str, None] = None, cwd: Optional[Path] = None) -> CliResult:
        return self.submit(*args, stdin=stdin, cwd=cwd).result()

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO_ROOT


@pytest.fixture(scope="session")
def fixtures_dir() -> Path:
    return FIXTURES


@pytest.fixture(scope="session")
def realworld_dir() -> Path:
    return need_realworld()


@pytest.fixture(scope="session")
def partkit_bin() -> Path:
    binary = cli_binary()
    if not binary.is_file():
        if os.environ.get("PARTKIT_BIN"):
            # Asked for explicitly (as CI does): its absence is an error.
            pytest.fail(f"PARTKIT_BIN={os.environ['PARTKIT_BIN']} is not a file", pytrace=False)
        pytest.skip(f"the partkit binary is not at {binary}: run `cargo build` or set PARTKIT_BIN")
    return binary


@pytest.fixture(scope="session")
def cli(partkit_bin: Path):
    runner = Cli(partkit_bin)
    yield runner
    runner.close()


# --------------------------------------------------------------------------
# Helpers.


STDIN_LINE = re.compile(r"^<stdin>:(\d+): (.*)$", re.S)


def by_stdin_line(messages: Sequence[str]) -> dict[int, list[str]]:
    """``<stdin>:N: message`` lines as {N - 1: [message, ...]}."""
    found: dict[int, list[str]] = {}
    for message in messages:
        match = STDIN_LINE.match(message)
        assert match, f"not a <stdin>:N: message: {message!r}"
        found.setdefault(int(match.group(1)) - 1, []).append(match.group(2))
    return found


def png_bytes(width: int, height: int, seed: int = 1, level: int = 9) -> bytes:
    """An RGB PNG of random pixels (so it barely compresses), written with
    zlib and struct only."""
    rnd = random.Random(seed)
    row = width * 3
    pixels = rnd.randbytes(row * height)
    raw = b"".join(b"\x00" + pixels[y * row:(y + 1) * row] for y in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, level))
        + chunk(b"IEND", b"")
    )


@pytest.fixture(scope="session")
def make_png():
    return png_bytes


@pytest.fixture(scope="session")
def stdin_lines():
    return by_stdin_line
