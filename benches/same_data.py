#!/usr/bin/env python3
"""partkit.convert on Python data against the same on its JSON text.

A dict or list is converted without JSON text (python/src/data.rs); this
checks that it gives what the text route gives (the package's own
``json.dumps`` of it, converted as text, as every release before did): the
same source shape, notes, output text and value, or the same refusal. It
runs every JSON file of the recordings in ../shared/realworld and
../shared/realworld2 (or the folders given) to six target shapes, with no
options, ``tool_media="lift"`` and ``strict=True``. Prints each difference
and a count; exits 1 when there is one, 2 when nothing could be read (0,
saying so, when the default folders are not there: CI runs it, and the
tests skip the recordings then too).

  python benches/same_data.py [FOLDER ...]
"""
from __future__ import annotations

import json
import pathlib
import sys
import warnings

import partkit

TARGETS = ("anthropic", "openai-chat", "openai-responses", "gemini", "bedrock", "canonical")
OPTIONS = ({}, {"tool_media": "lift"}, {"strict": True})
SHARED = pathlib.Path(__file__).resolve().parent.parent.parent / "shared"


def outcome(call):
    try:
        result = call()
    except (partkit.Error, TypeError) as error:
        return type(error).__name__, str(error)
    return result.source, result.notes, result.text, result.value


def main(argv):
    roots = [pathlib.Path(a) for a in argv]
    if not roots:
        roots = [root for root in (SHARED / "realworld", SHARED / "realworld2") if root.is_dir()]
        if not roots:
            print(f"same_data.py: skipped: no recordings under {SHARED}")
            return 0
    files = [path for root in roots for path in sorted(root.rglob("*.json"))]
    warnings.simplefilter("ignore", partkit.LossWarning)
    runs = differences = read = 0
    for path in files:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, ValueError):
            continue
        read += 1
        for to in TARGETS:
            for options in OPTIONS:
                runs += 1
                got = outcome(lambda: partkit.convert(data, to, **options))
                want = outcome(lambda: partkit.convert(partkit._text(data, "doc"), to, **options))
                if got != want:
                    differences += 1
                    print(f"differs: {path} --to {to} {options}: {str(got)[:160]} | {str(want)[:160]}")
    if not read:
        print("same_data.py: no JSON file to read", file=sys.stderr)
        return 2
    print(f"{runs:,} conversions of {read} files: {differences} differences")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
