# The extension module (python/src/): the library's operations on JSON text
# (and, for convert, on Python data).
# The package's functions (partkit/__init__.py) are the API; these are what
# they call.

from os import PathLike
from typing import Any, Callable, Optional, Union

__version__: str
__all__ = [
    "__version__",
    "bound",
    "convert",
    "convert_data",
    "convert_lines",
    "encode",
    "inspect",
    "main",
    "max_document_size",
    "resize",
    "split",
    "validate_document",
    "validate_path",
]

_Row = tuple[str, int, str, str, str, str, Optional[int], Optional[str], Optional[int]]

# The options of convert and convert_lines: to, from_, tool_media,
# on_unsupported, strict, at, at_missing, kind (the package's keyword arguments).
_ConvertOptions = dict[str, Any]
# The options of validate: profile, target, kind, deep, from_.
_ValidateOptions = dict[str, Any]

def convert(
    doc: Union[str, bytes], options: _ConvertOptions
) -> tuple[Union[str, bytes], Optional[str], list[str]]: ...
def convert_data(
    doc: Union[dict[str, Any], list[Any]], options: _ConvertOptions
) -> Optional[tuple[Any, str, list[str]]]: ...
def convert_lines(
    lines: list[Any],
    options: _ConvertOptions,
    threads: Optional[int],
    text_of: Callable[[Any, str], Union[str, bytes]],
) -> tuple[list[Any], list[tuple[int, str]], list[tuple[int, list[str]]]]: ...
def validate_path(path: Union[str, PathLike[str]], options: _ValidateOptions) -> list[_Row]: ...
def validate_document(doc: Union[str, bytes], options: _ValidateOptions) -> list[_Row]: ...
def encode(
    source: Union[str, bytes, PathLike[str]],
    label: Optional[str],
    to: str,
    name: Optional[str],
    mime_type: Optional[str],
    max_part_bytes: Optional[int],
) -> tuple[str, list[str]]: ...
def split(
    reply: Union[str, bytes],
) -> tuple[Union[str, bytes], list[tuple[str, str, Optional[str]]]]: ...
def resize(
    image: bytes,
    max_bytes: Optional[int],
    max_dim: Optional[int],
    format: str,
    profile_name: Optional[str],
) -> tuple[bytes, list[str]]: ...
def inspect(doc: Union[str, bytes]) -> list[str]: ...
def main(args: list[str]) -> int: ...
def bound(message: str) -> str: ...
def max_document_size() -> int: ...
