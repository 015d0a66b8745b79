#!/usr/bin/env python3
"""Checks that two partkit binaries say the same of the same inputs.

    benches/same_outputs.py BEFORE AFTER [CORPUS_DIR]

Runs a set of commands with each binary on every file of ../shared/realworld/,
../shared/realworld2/ and ../shared/cassettes/ (when present), `validate` (with
and without `--target`) on every JSON file of tests/fixtures/ and tests/shapes/
(the documents with findings to point at), on 2,000 of the
benchmark's small Chat bodies (benches/python_convert.py) and, when
CORPUS_DIR is given, on the benchmark corpus (benches/run.sh), and compares
exit codes, stdout and stderr. Wall times in summary lines ("in 0.3 s") are
the one thing allowed to differ. Written files (split's parts) are compared
by name and bytes. Prints one line per difference and a count; exits 1 when
anything differs. A speed change must not change what partkit says
(docs/speed.md#targets).
"""

import filecmp
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
TIMING = re.compile(rb" in [0-9.]+ s\b")
SHAPES = ["anthropic", "openai-chat", "openai-responses", "gemini", "bedrock", "canonical"]

# Commands run on every recorded file; {} is the file.
PER_FILE = [
    ["validate", "{}"],
    ["validate", "--format", "json", "{}"],
    ["inspect", "{}"],
    ["split", "--rest", "{}"],
] + [["convert", "--to", shape, "{}"] for shape in SHAPES] + [
    # Told the shape, a small document is read from the borrowed tree by a
    # reader that reads one (docs/speed.md); told the wrong one, it fails,
    # and the errors must agree too.
    ["convert", "--from", shape, "--to", "openai-chat" if shape == "anthropic" else "anthropic", "{}"]
    for shape in SHAPES
]

# Commands run on the test suite's own documents, many of them with
# findings: where each points, and what a conversion would refuse or drop.
PER_TEST_FILE = [
    ["validate", "--format", "json", "{}"],
    ["validate", "--format", "json", "--target", "anthropic", "{}"],
    ["validate", "--format", "json", "--target", "gemini", "{}"],
]

# Commands run on the benchmark corpus; {} is the corpus folder.
CORPUS = [
    ["validate", "{}/replies_1g.jsonl"],
    ["validate", "-j", "1", "{}/replies_50m.jsonl"],
    ["validate", "{}/transcript.json"],
    ["split", "--rest", "{}/replies_1g.jsonl"],
    ["split", "--on-error", "null", "{}/replies_50m.jsonl"],
    ["split", "--images-dir", "parts", "{}/replies_50m.jsonl"],
    ["inspect", "{}/replies_50m.jsonl"],
    ["convert", "--to", "anthropic", "{}/transcript.json"],
    ["convert", "--to", "gemini", "--on-error", "null", "{}/replies_50m.jsonl"],
]


def run(binary, args, cwd):
    """Exit code, stdout, stderr (timings blanked) of one run in `cwd`."""
    done = subprocess.run([binary] + args, cwd=cwd, capture_output=True)
    return done.returncode, done.stdout, TIMING.sub(b" in _ s", done.stderr)


def same_trees(a, b):
    """Whether two folders hold the same file names and bytes."""
    compared = filecmp.dircmp(a, b)
    if compared.left_only or compared.right_only or compared.funny_files:
        return False
    _, mismatch, errors = filecmp.cmpfiles(a, b, compared.common_files, shallow=False)
    if mismatch or errors:
        return False
    return all(same_trees(os.path.join(a, d), os.path.join(b, d)) for d in compared.common_dirs)


def compare(before, after, args, differences):
    """Runs `args` with both binaries, each in a folder of its own."""
    with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
        first, second = run(before, args, a), run(after, args, b)
        label = " ".join(args)
        for name, x, y in zip(("exit code", "stdout", "stderr"), first, second):
            if x != y:
                differences.append(f"{label}: {name} differs")
        if not same_trees(a, b):
            differences.append(f"{label}: written files differ")


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__.strip().splitlines()[2].strip())
    before, after = (str(Path(p).resolve()) for p in sys.argv[1:3])
    files = sorted(
        p
        for folder in ("realworld", "realworld2", "cassettes")
        if (SHARED / folder).is_dir()
        for p in (SHARED / folder).rglob("*")
        if p.is_file() and p.suffix in (".json", ".jsonl", ".yaml", ".yml", ".har")
    )
    differences, runs = [], 0
    for path in files:
        for command in PER_FILE:
            compare(before, after, [str(path) if a == "{}" else a for a in command], differences)
            runs += 1
    test_files = sorted(
        p
        for folder in ("fixtures", "shapes")
        for p in (ROOT / "tests" / folder).rglob("*")
        if p.is_file() and p.suffix in (".json", ".jsonl")
    )
    for path in test_files:
        for command in PER_TEST_FILE:
            compare(before, after, [str(path) if a == "{}" else a for a in command], differences)
            runs += 1
    with tempfile.TemporaryDirectory() as folder:
        # The benchmark's small Chat bodies (benches/python_convert.py).
        sys.path.insert(0, str(ROOT / "benches"))
        from python_convert import small_lines
        small = Path(folder) / "small.jsonl"
        small.write_text("\n".join(small_lines(2_000, 14)) + "\n")
        for target in ("anthropic", "gemini", "openai-responses", "bedrock"):
            command = ["convert", "--from", "openai-chat", "--to", target, "--jsonl", str(small)]
            compare(before, after, command, differences)
            runs += 1
        for command in (["validate", str(small)], ["validate", "--target", "gemini", str(small)]):
            compare(before, after, command, differences)
            runs += 1
    if len(sys.argv) == 4:
        corpus = str(Path(sys.argv[3]).resolve())
        for command in CORPUS:
            compare(before, after, [a.replace("{}", corpus) for a in command], differences)
            runs += 1
    for line in differences:
        print(line)
    print(
        f"{runs} runs on {len(files) + len(test_files)} files: {len(differences)} differences",
        file=sys.stderr,
    )
    sys.exit(1 if differences else 0)


if __name__ == "__main__":
    main()
