"""The exceptions and the warning category partkit raises.

They live in a module of their own so that the extension module can raise
them (it imports them from here) and the package can re-export them.
"""

from __future__ import annotations


class Error(Exception):
    """Anything partkit refuses; ``str()`` is the command line's one-line message."""

    #: The exit code the command line ends with for the same failure.
    exit_code: int = 2


class RejectedError(Error, ValueError):
    """The input was read but is refused (the command line's exit 1): invalid
    JSON, a document of no known shape, a part the target cannot carry, a
    source over ``max_part_bytes``."""

    exit_code = 1


class UsageError(Error, ValueError):
    """partkit could not run as asked (the command line's exit 2): an option
    value it does not know, a path it cannot read."""

    exit_code = 2


class LossWarning(UserWarning):
    """Something the conversion dropped or changed, by the documented policy
    (the warnings the command line prints on stderr)."""


# Shown (and pickled) as the package's names: partkit.RejectedError.
for _class in (Error, RejectedError, UsageError, LossWarning):
    _class.__module__ = "partkit"
del _class
