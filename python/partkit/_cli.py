"""The ``partkit`` command the wheel installs: the same command line as the
Rust binary, run in-process."""

from __future__ import annotations

import signal
import sys

from . import _native


def main() -> None:
    """Runs ``partkit`` with ``sys.argv`` and exits with its code."""
    # As the binary: Ctrl-C ends the run at once (Python's handler would only
    # run once the command returned), and a closed pipe is the command's to
    # handle (it already is: Python ignores SIGPIPE, as Rust programs do).
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    sys.stdout.flush()
    sys.stderr.flush()
    code = _native.main(["partkit", *sys.argv[1:]])
    sys.exit(code)


if __name__ == "__main__":
    main()
