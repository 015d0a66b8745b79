"""partkit: build, split, validate, convert, resize and inspect the content
parts of LLM prompts and tool replies, in-process.

Every function runs the same Rust library as the ``partkit`` command line and
gives the same outputs, findings and messages. Documents may be given as
Python data (``dict`` or ``list``) or as JSON text (``str`` or bytes); JSON text
keeps the spelling of its numbers in text output.

    >>> import partkit
    >>> body = {"messages": [{"role": "user", "content": "Hi"}], "model": "m"}
    >>> partkit.convert(body, "anthropic").value["messages"]
    [{'role': 'user', 'content': [{'type': 'text', 'text': 'Hi'}]}]
"""

from __future__ import annotations

import base64
import json
import os
import warnings
from dataclasses import dataclass
from typing import IO, Any, Iterable, Literal, Optional, Sequence, Union

from . import _native
from ._errors import Error, LossWarning, RejectedError, UsageError

__version__: str = _native.__version__

__all__ = [
    "Converted",
    "ConvertedLines",
    "Error",
    "Finding",
    "Image",
    "LossWarning",
    "RejectedError",
    "UsageError",
    "convert",
    "convert_lines",
    "encode",
    "inspect",
    "resize",
    "split",
    "validate",
]

Shape = Literal[
    "canonical",
    "openai-chat",
    "openai-responses",
    "anthropic",
    "gemini",
    "bedrock",
    "mcp",
    "nemo-gym",
]
"""A provider shape, by its command-line name."""

Document = Union[dict[str, Any], list[Any], str, bytes, bytearray, memoryview]
"""A JSON document: Python data, or its JSON text."""

Line = Union[dict[str, Any], list[Any], str, bytes, bytearray, memoryview, None]


def _said(message: str) -> str:
    """A message of the package's own, bounded as every message the command
    line prints is: a value quoted in it (a type's name, a number) cannot
    make it megabytes long."""
    return _native.bound(message)


def _type_name(value: Any) -> str:
    return _said(type(value).__name__)


def _text(doc: Any, what: str) -> Union[str, bytes]:
    """``doc`` as JSON text for the extension: ``str`` and ``bytes`` as they
    are, other buffers copied into ``bytes``, Python data serialized."""
    if isinstance(doc, (str, bytes)):
        return doc
    if isinstance(doc, (bytearray, memoryview)):
        return bytes(doc)
    if isinstance(doc, (dict, list)):
        try:
            # ASCII (non-ASCII as \u escapes): the faster encoder, and text the
            # extension reads in place, with no UTF-8 copy of it made.
            return json.dumps(doc, allow_nan=False)
        except (TypeError, ValueError) as error:
            raise TypeError(_said(f"{what} is not JSON data: {error}")) from None
    raise TypeError(
        _said(f"{what} must be a dict or list, or str or bytes of JSON text, not {_type_name(doc)}")
    )


_U64 = 2**64 - 1
_U32 = 2**32 - 1


def _count(what: str, value: Optional[int], maximum: int, minimum: int = 1) -> Optional[int]:
    """A whole-number option (``None`` passes): a wrong type is a
    ``TypeError``, a value out of range a :class:`UsageError`."""
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{what} must be an int or None, not {_type_name(value)}")
    if not minimum <= value <= maximum:
        # A number of thousands of digits is not spelled out (Python refuses
        # to make such a str, too).
        shown = str(value) if value.bit_length() <= 128 else f"<an int of {value.bit_length():,} bits>"
        raise UsageError(_said(f"{what}={shown}: give a whole number from {minimum} to {maximum:,}"))
    return value


def _convert_options(
    to: str,
    from_: str,
    tool_media: str,
    on_unsupported: Optional[str],
    strict: bool,
    at: Union[str, Sequence[str], None],
    at_missing: str,
    kind: Optional[str],
) -> dict[str, Any]:
    """The options of convert and convert_lines, as the extension takes them."""
    return {
        "to": to,
        "from_": from_,
        "tool_media": tool_media,
        "on_unsupported": on_unsupported,
        "strict": bool(strict),
        "at": _pointers(at),
        "at_missing": at_missing,
        "kind": kind,
    }


def _pointers(at: Union[str, Sequence[str], None]) -> list[str]:
    """``at`` as the list of pointers the extension takes."""
    if at is None:
        return []
    if isinstance(at, str):
        return [at]
    pointers = list(at)
    for pointer in pointers:
        if not isinstance(pointer, str):
            raise TypeError(f"at must be a JSON pointer or a list of them, not {_type_name(pointer)}")
    return pointers


def _is_data(doc: Any) -> bool:
    return isinstance(doc, (dict, list))


def _warn(notes: Iterable[str], stacklevel: int = 3) -> None:
    for note in notes:
        warnings.warn(note, LossWarning, stacklevel=stacklevel)


_UNSET: Any = object()


class Converted:
    """One converted document.

    ``text`` is the output exactly as ``partkit convert --compact`` prints it
    (without the line break); ``value`` is that parsed; ``source`` the shape
    the input was read as; ``notes`` the warnings (also issued as
    :class:`LossWarning`). A document given as a ``dict`` or ``list`` is
    converted to ``value`` directly (its payload strings are the input's own
    ``str`` objects where they pass through unchanged), and ``text`` is made
    from it when first asked.
    """

    __slots__ = ("_text", "source", "notes", "_value")

    def __init__(self, text: Any, source: Optional[str], notes: list[str], value: Any = _UNSET) -> None:
        self._text = text
        self.source = source
        self.notes = notes
        self._value = value

    @property
    def text(self) -> str:
        """The converted document's JSON text."""
        if self._text is _UNSET:
            # Compact, UTF-8, numbers as Python spells them: what the command
            # line prints for this value (the same text as a str input gives).
            self._text = json.dumps(self._value, ensure_ascii=False, separators=(",", ":"))
        text: str = self._text
        return text

    @property
    def value(self) -> Any:
        """The converted document as Python data (parsed once, when asked)."""
        if self._value is _UNSET:
            self._value = json.loads(self._text)
        return self._value

    def json(self) -> str:
        """The converted document's JSON text (the same as ``text``)."""
        return self.text

    def __repr__(self) -> str:
        return f"<partkit.Converted from {self.source}: {len(self.text):,} characters, {len(self.notes)} notes>"


def convert(
    doc: Document,
    to: Shape,
    *,
    from_: Union[Shape, Literal["auto"]] = "auto",
    tool_media: Literal["native", "lift"] = "native",
    on_unsupported: Optional[Literal["error", "text"]] = None,
    strict: bool = False,
    at: Union[str, Sequence[str], None] = None,
    at_missing: Literal["error", "skip"] = "error",
    kind: Optional[Literal["transcript", "rollout"]] = None,
) -> Converted:
    """Converts a transcript, request, response, tool result or NeMo Gym
    rollout to the shape ``to`` (``partkit convert --to TO``).

    ``at`` converts only the values at these JSON pointers, each put back in
    place (``--at``; ``at_missing="skip"`` passes over a document without
    one); ``kind`` reads documents as ``"rollout"`` or ``"transcript"``
    instead of recognizing NeMo Gym rollouts (``--kind``).

    Raises :class:`RejectedError` when it cannot be converted (what the
    command line exits 1 for) and :class:`UsageError` for an unknown option
    value.
    """
    if isinstance(doc, (dict, list)):
        # Converted as data where the extension can (exact dicts and lists of
        # JSON's types: docs/python.md#data-without-json-text), else as text.
        options = _convert_options(to, from_, tool_media, on_unsupported, strict, at, at_missing, kind)
        done = _native.convert_data(doc, options)
        if done is not None:
            value, data_source, data_notes = done
            _warn(data_notes)
            return Converted(_UNSET, data_source, data_notes, value)
    text = _text(doc, "doc")
    options = _convert_options(to, from_, tool_media, on_unsupported, strict, at, at_missing, kind)
    output, source, notes = _native.convert(text, options)
    if isinstance(output, bytes):
        output = output.decode("utf-8")
    _warn(notes)
    converted = Converted(output, source, notes)
    return converted


class ConvertedLines(list[Any]):
    """The outputs of :func:`convert_lines`, one per input line, in order:
    the converted line (``str`` for a ``str`` line, ``bytes`` for a bytes
    line, Python data for a ``dict`` or ``list`` line), or ``None`` for a line
    that failed.

    ``errors`` maps the index of each failed line to its one-line message;
    ``notes`` the index of each line with warnings to them.
    """

    errors: dict[int, str]
    notes: dict[int, list[str]]

    def __init__(
        self,
        outputs: Iterable[Any],
        errors: dict[int, str],
        notes: dict[int, list[str]],
    ) -> None:
        super().__init__(outputs)
        self.errors = errors
        self.notes = notes


def convert_lines(
    lines: Iterable[Line],
    to: Shape,
    *,
    from_: Union[Shape, Literal["auto"]] = "auto",
    tool_media: Literal["native", "lift"] = "native",
    on_unsupported: Optional[Literal["error", "text"]] = None,
    strict: bool = False,
    at: Union[str, Sequence[str], None] = None,
    at_missing: Literal["error", "skip"] = "error",
    kind: Optional[Literal["transcript", "rollout"]] = None,
    threads: Optional[int] = None,
) -> ConvertedLines:
    """Converts many documents at once, on every core (or ``threads`` of
    them) with the GIL released: the call for a Spark ``mapInPandas`` or Ray
    ``map_batches`` UDF. A line that fails is ``None`` in the result, its
    message in ``.errors``; the others are not affected (``partkit convert
    --jsonl --on-error null``); a ``None`` line (a null cell) is such a
    failed line. The options are :func:`convert`'s. Each distinct note is
    warned once.
    """
    if isinstance(lines, (str, bytes, bytearray, memoryview, dict)):
        raise TypeError(
            f"lines must be an iterable of documents, not one {_type_name(lines)} "
            "(for one document, call convert)"
        )
    threads = _count("threads", threads, 4096)
    items = list(lines)
    for index, item in enumerate(items):
        # A line of the wrong type is refused before the options are looked
        # at, as it always was.
        if item is not None and not isinstance(item, (str, bytes, bytearray, memoryview, dict, list)):
            _text(item, f"lines[{index}]")
    options = _convert_options(to, from_, tool_media, on_unsupported, strict, at, at_missing, kind)
    # Data lines come back as data: converted as data (see convert), or else
    # through their JSON text and parsed here.
    outputs, errors, notes = _native.convert_lines(items, options, threads, _text)
    for index, item in enumerate(items):
        output = outputs[index]
        if isinstance(output, str) and _is_data(item):
            outputs[index] = json.loads(output)
    said: set[str] = set()
    for _, line_notes in notes:
        for note in line_notes:
            if note not in said:
                said.add(note)
                _warn([note])
    return ConvertedLines(outputs, dict(errors), dict(notes))


@dataclass(frozen=True)
class Finding:
    """One finding of :func:`validate`, as a line of ``partkit validate
    --format json`` holds it. ``path`` is ``None`` for a document given in
    memory; ``line`` is the line its document starts on. A finding in a body
    of a recording (a cassette, a HAR file) also names its ``interaction``
    (from 1), its ``side`` (``"request"`` or ``"response"``) and the
    ``status`` the provider answered it with; elsewhere these are ``None``."""

    rule: str
    severity: str
    pointer: str
    message: str
    line: int
    path: Optional[str]
    interaction: Optional[int] = None
    side: Optional[str] = None
    status: Optional[int] = None


def validate(
    doc_or_path: Union[Document, "os.PathLike[str]"],
    *,
    profile: Optional[str] = None,
    target: Optional[Shape] = None,
    kind: Optional[Literal["reply", "parts", "transcript", "rollout"]] = None,
    deep: bool = False,
    from_: Union[Shape, Literal["auto"]] = "auto",
) -> list[Finding]:
    """Checks tool replies, canonical parts, transcripts and rollouts
    (``partkit validate``) and returns the findings, errors and warnings,
    in order.

    ``doc_or_path`` is a path (an ``os.PathLike``, or a ``str`` that does not
    start with ``{`` or ``[``: a file, or a folder whose ``*.json`` and
    ``*.jsonl`` files are checked) or a document (JSON or JSON Lines text, or
    Python data). A path that cannot be read raises :class:`UsageError`.
    """
    options = {"profile": profile, "target": target, "kind": kind, "deep": bool(deep), "from_": from_}
    if isinstance(doc_or_path, os.PathLike) or (
        isinstance(doc_or_path, str) and not doc_or_path.lstrip().startswith(("{", "["))
    ):
        path = os.fspath(doc_or_path)
        if isinstance(path, bytes):
            path = os.fsdecode(path)
        rows = _native.validate_path(path, options)
    else:
        rows = _native.validate_document(_text(doc_or_path, "doc_or_path"), options)
    return [
        Finding(
            rule=rule,
            severity=severity,
            pointer=pointer,
            message=message,
            line=line,
            path=None if path == "<document>" else path,
            interaction=interaction,
            side=side,
            status=status,
        )
        for path, line, severity, rule, pointer, message, interaction, side, status in rows
    ]


def encode(
    source: Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, IO[bytes]],
    *,
    to: Union[Shape, Literal["tool-output-image"]] = "canonical",
    name: Optional[str] = None,
    mime_type: Optional[str] = None,
    max_part_bytes: Optional[int] = None,
) -> dict[str, Any]:
    """Turns one file, ``data:`` URL, http(s) URL (kept as a URL), bytes or
    binary file object into a content block of the shape ``to`` (``partkit
    encode --to TO SOURCE``). The media type is sniffed from the bytes;
    ``name``'s extension is the fallback for bytes. Raises
    :class:`RejectedError` for an empty, unrecognized or oversize source, and
    :class:`UsageError` for one longer than the most one document may be
    (512 MiB, the command line's ``--max-document-size``): a file object is
    read no further than that.
    """
    label: Optional[str] = name
    if isinstance(source, (bytearray, memoryview)):
        source = bytes(source)
    elif hasattr(source, "read") and not isinstance(source, (str, bytes, os.PathLike)):
        # A file object is named in messages as it was opened, and its part by
        # the file's own name, as a path would be.
        file_name = getattr(source, "name", None)
        if isinstance(file_name, str):
            label = file_name
            if name is None:
                name = os.path.basename(file_name)
        source = _read_within_limit(source)
    elif isinstance(source, os.PathLike):
        source = os.fspath(source)
        if isinstance(source, bytes):
            source = os.fsdecode(source)
    elif not isinstance(source, (str, bytes)):
        raise TypeError(
            "source must be a path, a data: URL, bytes or a binary file object, "
            f"not {_type_name(source)}"
        )
    # 0 is a cap, as for the command line: every part with bytes is over it.
    max_part_bytes = _count("max_part_bytes", max_part_bytes, _U64, minimum=0)
    block, notes = _native.encode(source, label, to, name, mime_type, max_part_bytes)
    _warn(notes)
    encoded: dict[str, Any] = json.loads(block)
    return encoded


def _read_within_limit(file: IO[bytes]) -> bytes:
    """A binary file object's bytes, read up to one byte past the document
    limit (an endless stream, such as ``/dev/zero``, is then refused as too
    large, as the command line refuses it, instead of read for ever)."""
    room = _native.max_document_size() + 1
    chunks: list[bytes] = []
    while room > 0:
        # In pieces: a read of n bytes sets n bytes aside before it reads.
        chunk = file.read(min(room, 16 << 20))
        if not isinstance(chunk, bytes):
            if chunk is None and chunks:
                break
            raise TypeError("encode reads binary file objects (open the file with 'rb')")
        if not chunk:
            break
        chunks.append(chunk)
        room -= len(chunk)
    return b"".join(chunks)


@dataclass(frozen=True)
class Image:
    """An image taken out of a tool reply by :func:`split` (NeMo Gym's
    ``ToolOutputImage``): its media type, base64 data and label."""

    media_type: str
    data: str
    label: Optional[str] = None

    @property
    def image_url(self) -> str:
        """The image as a ``data:`` URL."""
        return f"data:{self.media_type};base64,{self.data}"

    def decode(self) -> bytes:
        """The image's bytes."""
        return base64.b64decode(self.data)


def split(reply: Document) -> tuple[Any, list[Image]]:
    """Splits a tool reply into the reply without its ``tool_output_images``
    and those images, as NeMo Gym's ``split_tool_output_images`` does: a
    reply that is not an object, or has no such key, comes back unchanged
    with no images; ``null`` means no images; a malformed list raises
    :class:`RejectedError`. The rest is Python data for Python data, else
    JSON text (``partkit split --rest``)."""
    rest, images = _native.split(_text(reply, "reply"))
    if _is_data(reply):
        rest = json.loads(rest)
    return rest, [Image(media_type, data, label) for media_type, data, label in images]


def resize(
    image_bytes: Union[bytes, bytearray, memoryview],
    *,
    max_bytes: Optional[int] = None,
    max_dim: Optional[int] = None,
    format: Literal["keep", "png", "jpeg", "webp"] = "keep",
    profile: Optional[str] = None,
) -> bytes:
    """Brings a PNG, JPEG, GIF or WebP image under ``max_bytes`` decoded bytes
    (default 5 MB, or the profile's cap) and ``max_dim`` pixels a side, as
    ``partkit resize`` does; an image within every cap comes back as it is.
    Raises :class:`RejectedError` for bytes that are no image it reads.
    """
    if isinstance(image_bytes, (bytearray, memoryview)):
        image_bytes = bytes(image_bytes)
    if not isinstance(image_bytes, bytes):
        raise TypeError(f"image_bytes must be bytes, not {_type_name(image_bytes)}")
    max_bytes = _count("max_bytes", max_bytes, _U64)
    max_dim = _count("max_dim", max_dim, _U32)
    resized, notes = _native.resize(image_bytes, max_bytes, max_dim, format, profile)
    _warn(notes)
    return resized


def inspect(doc: Document) -> list[dict[str, Any]]:
    """Lists every media item of a document of any shape, each a dict as a
    line of ``partkit inspect --format json`` holds it."""
    return [json.loads(item) for item in _native.inspect(_text(doc, "doc"))]
