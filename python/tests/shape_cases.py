"""The shape cases of ``tests/shapes/`` (see the README there), read the way
``tests/cli/shape_cases.rs`` reads them, for the Python tests.

Each folder is one conversation written in several shapes:

- ``<shape>.json`` is read, and is what every other read document converts
  to (and converts to itself);
- ``<shape>.in.json`` is only read, ``<shape>.out.json`` only written;
- ``<from>.<to>.notes.txt`` lists the notes of a conversion, one a line (no
  file: none); ``<shape>.<shape>.notes.txt`` is a document's own round trip,
  or a ``<shape>.in.json`` converted to its ``<shape>.out.json``;
- ``<from>.<to>.refused.txt`` is the message of a conversion that fails;
- ``<file>.detected.txt`` is what detection makes of a read document when it
  is not its own shape without a note: the shape (or ``error: <message>``),
  then detection's notes;
- ``options.txt`` holds the ``convert`` flags of every conversion of the
  folder.

A file whose name means nothing is an error here too, so a layout the Rust
test would reject cannot be read quietly by the Python tests.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Optional

from conftest import REPO_ROOT

SHAPES_DIR = REPO_ROOT / "tests" / "shapes"

SHAPES = ("canonical", "openai-chat", "openai-responses", "anthropic", "gemini", "bedrock", "mcp", "nemo-gym")

# How each `options.txt` line is spelled as a keyword of partkit.convert.
# `--on-invalid-arguments`, `--call-id` and `--name` have no keyword (the
# Python API does not offer them): cases using them are run by the Rust test
# only.
API_OPTIONS = {
    "--strict": ("strict", True),
    "--on-unsupported": ("on_unsupported", None),
    "--tool-media": ("tool_media", None),
}
CLI_ONLY_OPTIONS = ("--on-invalid-arguments", "--call-id", "--name")


def shape_named(name: str, path: Path) -> str:
    if name not in SHAPES:
        raise ValueError(f"{path}: no shape {name!r}")
    return name


def lines_of(path: Optional[Path]) -> list[str]:
    """A file of lines (notes, detections); absent means none."""
    if path is None or not path.exists():
        return []
    return path.read_text(encoding="utf-8").splitlines()


def compact(text: str) -> str:
    """JSON text re-written compactly, keys in the order they come: two
    documents compare equal only with the same keys in the same order."""
    return json.dumps(json.loads(text), ensure_ascii=False, separators=(",", ":"))


@dataclass(frozen=True)
class Document:
    case: str
    shape: str
    # The file name without `.json`: `anthropic`, `anthropic.in`, `anthropic.out`.
    stem: str
    path: Path

    @property
    def is_read(self) -> bool:
        return not self.stem.endswith(".out")

    @property
    def is_written(self) -> bool:
        return not self.stem.endswith(".in")

    @property
    def only_read(self) -> bool:
        return self.stem.endswith(".in")

    @property
    def id(self) -> str:
        return f"{self.case}/{self.stem}"

    def text(self) -> str:
        return self.path.read_text(encoding="utf-8")


@dataclass(frozen=True)
class Conversion:
    """One conversion a case states: ``source`` to ``shape`` gives ``target``
    (a document) with ``notes``, or is refused with ``refused``."""

    source: Document
    shape: str
    target: Optional[Document] = None
    # None: the notes are not stated (a written-only document's round trip).
    notes: Optional[list[str]] = None
    refused: Optional[str] = None

    @property
    def id(self) -> str:
        to = self.target.stem if self.target else self.shape
        return f"{self.source.stem} -> {to}"


@dataclass
class Case:
    name: str
    dir: Path
    options: list[str] = field(default_factory=list)
    documents: list[Document] = field(default_factory=list)
    notes: dict[tuple[str, str], Path] = field(default_factory=dict)
    refusals: dict[tuple[str, str], Path] = field(default_factory=dict)
    detections: dict[str, Path] = field(default_factory=dict)

    @classmethod
    def load(cls, folder: Path) -> "Case":
        case = cls(folder.name, folder)
        for path in sorted(folder.iterdir()):
            name = path.name
            pair = case._pair(name, path)
            if name in ("README.md",) or name.endswith((".findings.txt", ".via-canonical.notes.txt")):
                continue  # README; validation and through-canonical: the Rust test's
            elif name == "options.txt":
                case.options = [line.strip() for line in lines_of(path) if line.strip()]
            elif name.endswith(".notes.txt") and pair:
                case.notes[pair] = path
            elif name.endswith(".refused.txt") and pair:
                case.refusals[pair] = path
            elif name.endswith(".detected.txt"):
                case.detections[name[: -len(".detected.txt")]] = path
            elif name.endswith(".json"):
                stem = name[: -len(".json")]
                shape = stem.removesuffix(".in").removesuffix(".out")
                case.documents.append(Document(case.name, shape_named(shape, path), stem, path))
            else:
                raise ValueError(f"{path}: not a case file (tests/shapes/README.md says which are)")
        reads = [d.shape for d in case.documents if d.is_read]
        writes = [d.shape for d in case.documents if d.is_written]
        if not reads or len(set(reads)) != len(reads) or len(set(writes)) != len(writes):
            raise ValueError(f"{folder}: want one read document at least, and at most one read and one written a shape")
        return case

    @staticmethod
    def _pair(name: str, path: Path) -> Optional[tuple[str, str]]:
        for suffix in (".notes.txt", ".refused.txt"):
            if name.endswith(suffix) and not name.endswith(".via-canonical.notes.txt"):
                parts = name[: -len(suffix)].split(".")
                if len(parts) == 2:
                    return shape_named(parts[0], path), shape_named(parts[1], path)
        return None

    def read(self, shape: str) -> Optional[Document]:
        return next((d for d in self.documents if d.shape == shape and d.is_read), None)

    def written(self, shape: str) -> Optional[Document]:
        return next((d for d in self.documents if d.shape == shape and d.is_written), None)

    @property
    def read_documents(self) -> list[Document]:
        return [d for d in self.documents if d.is_read]

    @property
    def written_documents(self) -> list[Document]:
        return [d for d in self.documents if d.is_written]

    @property
    def api_options(self) -> Optional[dict[str, Any]]:
        """``options.txt`` as keywords of partkit.convert, or None when a
        flag has no keyword."""
        options: dict[str, Any] = {}
        for line in self.options:
            flag, _, value = line.partition(" ")
            if flag in CLI_ONLY_OPTIONS:
                return None
            if flag not in API_OPTIONS:
                raise ValueError(f"{self.dir / 'options.txt'}: unknown option line {line!r}")
            keyword, fixed = API_OPTIONS[flag]
            options[keyword] = fixed if fixed is not None else value.strip()
        return options

    @property
    def cli_options(self) -> list[str]:
        return [word for line in self.options for word in line.split(" ", 1)]

    def unreadable(self, document: Document) -> bool:
        """A `<shape>.in.json` refused as its own shape or as canonical: it
        is not detected either."""
        return document.only_read and any(
            (document.shape, to) in self.refusals for to in (document.shape, "canonical")
        )

    def conversions(self) -> list[Conversion]:
        """Every conversion the case states: each read document to each
        written one (itself included: its round trip), each written-only
        document to itself, and each refusal."""
        found = []
        for source in self.read_documents:
            for target in self.written_documents:
                notes = lines_of(self.notes.get((source.shape, target.shape)))
                found.append(Conversion(source, target.shape, target, notes))
        for document in self.written_documents:
            if not document.is_read:
                found.append(Conversion(document, document.shape, document))
        for (source, to), path in self.refusals.items():
            document = self.read(source)
            assert document is not None, f"{path}: no {source} document is read"
            found.append(Conversion(document, to, refused=path.read_text(encoding="utf-8").removesuffix("\n")))
        return found

    def conversion(self, source: str, to: str) -> Conversion:
        """The one conversion of the read `source` document to `to`."""
        (found,) = [c for c in self.conversions() if c.source.is_read and c.source.shape == source and c.shape == to]
        return found

    def detection(self, document: Document) -> list[str]:
        """What detection must make of a read document: its shape (or
        ``error: <message>``), then the notes detection adds."""
        if document.stem in self.detections:
            return lines_of(self.detections[document.stem])
        return [document.shape]


@lru_cache(maxsize=None)
def _cases() -> tuple[Case, ...]:
    return tuple(Case.load(folder) for folder in sorted(SHAPES_DIR.iterdir()) if folder.is_dir())


def shape_cases() -> list[Case]:
    """Every case folder, sorted by name; never empty, and covering the
    shapes the cases are about (else the tests that read them would pass on
    nothing)."""
    cases = list(_cases())
    assert len(cases) >= 40, f"only {len(cases)} case folders under {SHAPES_DIR}"
    read = {d.shape for case in cases for d in case.read_documents}
    assert read >= {"canonical", "openai-chat", "openai-responses", "anthropic", "gemini", "bedrock"}, read
    return cases


def shape_case(name: str) -> Case:
    for case in shape_cases():
        if case.name == name:
            return case
    raise KeyError(f"no shape case {name!r} under {SHAPES_DIR}")


def read_documents() -> list[Document]:
    """Every read document of every case (the inputs), in case order."""
    return [document for case in shape_cases() for document in case.read_documents]


def all_documents() -> list[Document]:
    """Every document of every case, read or written."""
    return [document for case in shape_cases() for document in case.documents]
