#!/usr/bin/env python3
"""Writes NeMo Gym rollout lines for the Spark example, deterministically.

    python make_rollouts.py --out rollouts.jsonl --lines 3000 [--seed 7] [--malformed 1]
                            [--manifest manifest.json]

Each line has the fields of NeMo Gym's example_rollouts.jsonl files, in their
order: responses_create_params (an OpenAI Responses request with every unset
field written as null), response (a Responses response whose output holds the
model's calls and the tool outputs the agent ran), reward, the environment's
own fields, _ng_task_index and _ng_rollout_index. Images are real PNGs.
Lines are written as UTF-8 (not \\u-escaped) and some instructions hold
quotes, backslashes, a tab, non-ASCII text and U+2028, so the check's
byte-for-byte comparison and its line splitting meet what real files hold.

The manifest says which lines are malformed and, per line, how many images,
function calls and function call outputs its request's input holds (some
tool outputs carry a screenshot) and whether it has a system message: what a
conversion of responses_create_params must keep.
"""

import argparse
import base64
import json
import random
import struct
import zlib

CLICK = {
    "name": "click",
    "parameters": {
        "type": "object",
        "properties": {
            "x": {"type": "integer", "description": "X pixel coordinate"},
            "y": {"type": "integer", "description": "Y pixel coordinate"},
        },
        "required": ["x", "y"],
        "additionalProperties": False,
    },
    "strict": True,
    "type": "function",
    "description": "Click at pixel coordinates (x, y) in the image.",
}

SYSTEM = (
    "You are a visual assistant. The image has pixel coordinates starting at (0, 0) in the "
    "top-left corner. Use the click tool to click on the center of the specified colored circle."
)

# What the user asks for; all but the first need escaping in JSON or are not ASCII.
TASKS = [
    "Click on the %s circle.",
    "Click on the \"%s\" circle.",
    "Click the %s circle in C:\\shapes\\board.png.",
    "Click on the %s circle.\tThen stop.",
    "Klicke auf den Kreis \u201e%s\u201c.",
    "\u70b9\u51fb %s \u5706\u5708\u3002",
    "Click on the %s circle.\u2028(One line, with a line separator in it.)",
]


def png(width, height, rgb):
    """A solid-colour RGB PNG with a diagonal stripe (so sizes differ)."""
    rows = bytearray()
    for y in range(height):
        rows.append(0)  # filter: none
        for x in range(width):
            rows.extend((255 - c for c in rgb) if x == y else rgb)

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(bytes(rows), 9))
        + chunk(b"IEND", b"")
    )


def request(items):
    return {
        "background": None, "include": None, "input": items, "instructions": None,
        "max_output_tokens": None, "max_tool_calls": None, "metadata": None, "model": None,
        "parallel_tool_calls": True, "previous_response_id": None, "prompt": None,
        "reasoning": None, "service_tier": None, "store": None, "temperature": None,
        "text": None, "tool_choice": "auto", "tools": [CLICK], "top_logprobs": None,
        "top_p": None, "truncation": None, "user": None, "stream": None,
    }


def response(rng, output):
    return {
        "id": "resp_%032x" % rng.getrandbits(128), "created_at": 1772855749.0, "error": None,
        "incomplete_details": None, "instructions": None, "metadata": None,
        "model": "Qwen/Qwen3-VL-2B-Instruct", "object": "response", "output": output,
        "parallel_tool_calls": True, "temperature": None, "tool_choice": "auto",
        "tools": [CLICK], "top_p": None, "usage": {
            "input_tokens": 774, "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": 70, "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": 844,
        }, "user": None,
    }


def call(call_id, x, y):
    return {
        "arguments": json.dumps({"x": x, "y": y}), "call_id": call_id, "name": "click",
        "type": "function_call", "id": call_id, "status": "completed",
    }


def call_output(call_id, x, y, screenshot=None):
    output = json.dumps({"x": x, "y": y}, separators=(",", ":"))
    if screenshot:
        # A tool that answers with the screen after the click.
        output = [
            {"text": output, "type": "input_text"},
            {"detail": "auto", "type": "input_image", "image_url": "data:image/png;base64," + screenshot},
        ]
    return {
        "call_id": call_id, "output": output,
        "type": "function_call_output", "id": None, "status": None,
    }


def rollout(rng, index, images):
    """One rollout line and what its request's input holds."""
    colour = rng.choice(["red", "blue", "cyan", "orange", "yellow"])
    image = rng.choice(images)
    system = rng.random() < 0.9
    items = [{"content": SYSTEM, "role": "system", "type": "message"}] if system else []
    items.append({"content": [
        {"detail": "auto", "type": "input_image", "image_url": "data:image/png;base64," + image},
        {"text": rng.choice(TASKS) % colour, "type": "input_text"},
    ], "role": "user", "type": "message"})
    counts = {"images": 1, "calls": 0, "outputs": 0, "system": system}
    # Some rollouts carry earlier turns: a call, its output, the model's remark.
    for turn in range(rng.choice([0, 0, 1, 2])):
        call_id = "call_%d_%d" % (index, turn)
        x, y = rng.randrange(400), rng.randrange(400)
        screenshot = rng.choice(images) if rng.random() < 0.3 else None
        counts["images"] += screenshot is not None
        items += [call(call_id, x, y), call_output(call_id, x, y, screenshot), {
            "id": "msg_%d_%d" % (index, turn),
            "content": [{"annotations": [], "text": "Clicked; trying again.", "type": "output_text"}],
            "role": "assistant", "status": "completed", "type": "message",
        }]
        counts["calls"] += 1
        counts["outputs"] += 1
    x, y = rng.randrange(400), rng.randrange(400)
    if rng.random() < 0.2:
        # A model that writes its tool call as text.
        text = '<tool_call>\n{"name": "click", "arguments": {"x": %d, "y": %d}}\n</tool_call>' % (x, y)
        output = [{
            "id": "msg_%d" % index,
            "content": [{"annotations": [], "text": text, "type": "output_text", "logprobs": None}],
            "role": "assistant", "status": "completed", "type": "message",
        }]
    else:
        call_id = "chatcmpl-tool-%016x" % rng.getrandbits(64)
        output = [call(call_id, x, y), call_output(call_id, x, y)]
    line = {
        "responses_create_params": request(items),
        "response": response(rng, output),
        "reward": rng.choice([0.0, 1.0]),
        "clicked_x": x, "clicked_y": y, "hit": rng.random() < 0.5,
        "_ng_task_index": index // 4, "_ng_rollout_index": index % 4,
    }
    return json.dumps(line, ensure_ascii=False, separators=(",", ":")), counts


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--lines", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--malformed", type=int, default=1)
    parser.add_argument("--manifest")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    images = [
        base64.b64encode(png(size, size, rgb)).decode()
        for size, rgb in [(8, (255, 0, 0)), (16, (0, 0, 255)), (32, (0, 200, 200)), (64, (255, 140, 0))]
    ]
    # Malformed lines at fixed places spread over the file.
    bad = sorted({(k + 1) * args.lines // (args.malformed + 1) for k in range(args.malformed)})
    manifest = {"lines": args.lines, "malformed": bad, "counts": []}
    with open(args.out, "w", encoding="utf-8") as out:
        for index in range(args.lines):
            line, counts = rollout(rng, index, images)
            if index in bad:
                line = line[: len(line) // 2]  # cut in the middle: not JSON
                counts = None
            manifest["counts"].append(counts)
            out.write(line + "\n")
    if args.manifest:
        with open(args.manifest, "w", encoding="utf-8") as out:
            json.dump(manifest, out)


if __name__ == "__main__":
    main()
