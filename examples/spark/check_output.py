#!/usr/bin/env python3
"""Checks the Spark job's output against its input, line by line.

    python check_output.py INPUT OUTPUT_DIR MANIFEST

- as many output lines as input lines, in order;
- each malformed input line's slot is exactly `null`;
- every other line is byte-identical to its input outside the value of
  responses_create_params (key order, number spelling and all);
- that value is an Anthropic Messages request holding every image, tool call
  and tool result the Responses request held (counted against the manifest).

Exits 1 with the first mismatch; prints one summary line otherwise.
"""

import json
import os
import sys

KEY = '{"responses_create_params":'


def value_end(text, start):
    """Where the JSON value starting at `start` ends (an object or array here)."""
    depth, i = 0, start
    while i < len(text):
        c = text[i]
        if c == '"':
            i += 1
            while text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif c in "{[":
            depth += 1
        elif c in "}]":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise ValueError("unterminated value")


def blocks(value, kind):
    """How many blocks of `kind` a value holds, at any depth."""
    if isinstance(value, dict):
        return (value.get("type") == kind) + sum(blocks(v, kind) for v in value.values())
    if isinstance(value, list):
        return sum(blocks(v, kind) for v in value)
    return 0


def fail(message):
    print("spark check: FAILED: " + message)
    sys.exit(1)


def main():
    input_path, output_dir, manifest_path = sys.argv[1:4]
    with open(input_path, encoding="utf-8") as f:
        inputs = f.read().splitlines()
    outputs = []
    for name in sorted(n for n in os.listdir(output_dir) if n.startswith("part-")):
        with open(os.path.join(output_dir, name), encoding="utf-8") as f:
            outputs.extend(f.read().splitlines())
    with open(manifest_path, encoding="utf-8") as f:
        manifest = json.load(f)

    if len(outputs) != len(inputs):
        fail("%d lines in, %d out" % (len(inputs), len(outputs)))
    totals = {"images": 0, "calls": 0, "outputs": 0}
    nulls = 0
    for number, (line, out, counts) in enumerate(zip(inputs, outputs, manifest["counts"]), 1):
        if counts is None:
            if out != "null":
                fail("line %d was malformed; its slot holds %.60r, not null" % (number, out))
            nulls += 1
            continue
        if not out.startswith(KEY):
            fail("line %d: output does not start with %s" % (number, KEY))
        rest_in = line[value_end(line, len(KEY)):]
        end = value_end(out, len(KEY))
        if out[end:] != rest_in:
            fail("line %d: the fields after responses_create_params changed" % number)
        request = json.loads(out[len(KEY):end])
        if not isinstance(request.get("messages"), list) or "system" not in request:
            fail("line %d: not an Anthropic request with a system prompt" % number)
        if any("input_schema" not in tool for tool in request.get("tools", [])):
            fail("line %d: a tool without input_schema" % number)
        got = {
            "images": blocks(request, "image"),
            "calls": blocks(request, "tool_use"),
            "outputs": blocks(request, "tool_result"),
        }
        if got != counts:
            fail("line %d: kept %s of %s" % (number, got, counts))
        for key in totals:
            totals[key] += got[key]
    print(
        "spark check: %d lines in, %d out, %d null; %d images, %d tool calls, %d tool results kept"
        % (len(inputs), len(outputs), nulls, totals["images"], totals["calls"], totals["outputs"])
    )


if __name__ == "__main__":
    main()
