#!/usr/bin/env python3
"""Checks the Spark job's output against its input, line by line.

    python check_output.py INPUT OUTPUT_DIR MANIFEST

- as many output lines as input lines, in order;
- each malformed input line's slot is exactly `null`;
- every other line is byte-identical to its input outside the value of
  responses_create_params (key order, number spelling and all);
- that value is an Anthropic Messages request holding every image (as a
  base64 PNG source), tool call and tool result the Responses request held,
  and a system prompt exactly when it had a system message (counted against
  the manifest).

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
    """The blocks of `kind` a value holds, at any depth (tool results' content too)."""
    if isinstance(value, dict):
        found = [value] if value.get("type") == kind else []
        return found + [b for v in value.values() for b in blocks(v, kind)]
    if isinstance(value, list):
        return [b for v in value for b in blocks(v, kind)]
    return []


def read_lines(path):
    """The file's lines, split at \\n alone.

    str.splitlines() also splits at U+2028, U+0085 and other separators that a
    JSON string may hold raw, which would cut one rollout into several lines.
    """
    with open(path, encoding="utf-8", newline="") as f:
        text = f.read()
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def fail(message):
    print("spark check: FAILED: " + message)
    sys.exit(1)


def main():
    input_path, output_dir, manifest_path = sys.argv[1:4]
    inputs = read_lines(input_path)
    outputs = []
    for name in sorted(n for n in os.listdir(output_dir) if n.startswith("part-")):
        outputs.extend(read_lines(os.path.join(output_dir, name)))
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
        if not isinstance(request.get("messages"), list):
            fail("line %d: not an Anthropic request (no messages list)" % number)
        if ("system" in request) != counts["system"]:
            fail("line %d: system is %s, the request %s a system message" % (
                number, "present" if "system" in request else "missing",
                "had" if counts["system"] else "had no"))
        if any("input_schema" not in tool for tool in request.get("tools", [])):
            fail("line %d: a tool without input_schema" % number)
        images = blocks(request, "image")
        # The data: URLs must have become inline base64 sources, sniffed as PNG.
        if any(image.get("source", {}).get("type") != "base64"
               or image["source"].get("media_type") != "image/png" for image in images):
            fail("line %d: an image that is not a base64 image/png source" % number)
        got = {
            "images": len(images),
            "calls": len(blocks(request, "tool_use")),
            "outputs": len(blocks(request, "tool_result")),
        }
        want = {key: counts[key] for key in got}
        if got != want:
            fail("line %d: kept %s of %s" % (number, got, want))
        for key in totals:
            totals[key] += got[key]
    print(
        "spark check: %d lines in, %d out, %d null; %d images, %d tool calls, %d tool results kept"
        % (len(inputs), len(outputs), nulls, totals["images"], totals["calls"], totals["outputs"])
    )


if __name__ == "__main__":
    main()
