#!/usr/bin/env python3
"""The markdown table of benches/run.sh, from the figures it left in RESULTS_DIR.

  table.py RESULTS_DIR CAP

RESULTS_DIR/rows.tsv lists, tab-separated and in the order to print them:
  meta  NAME VALUE                  (corpus, partkit version, runs, ... for the footer)
  row   KEY KIND LABEL INPUT        (a partkit command; KIND '', validate or resize)
  peer  ROWKEY LABEL PEERKEY INPUT  (PEERKEY '-': skipped, INPUT then says why)
  note  KEY TEXT
and KEY.json (hyperfine), KEY.base.json (PARTKIT_BASE), KEY.rss (peak KiB),
KEY.stderr (resize's --report json), cat.FILE.json (cat of each input) and
recipe_NAME.png (the Pillow recipe's result) lie next to it.
After the table, each speed target of the project (docs/speed.md#targets) is
checked against the row it is about: met, not met (with the ratio), or not
measured in this run.
Only the standard library: it runs under any python3.
"""
import json
import os
import struct
import sys

results, cap = sys.argv[1], int(sys.argv[2])


def path(name):
    return os.path.join(results, name)


def timing(key):
    """(median seconds, the non-zero exit codes seen) of a hyperfine export."""
    run = json.load(open(path(key + ".json")))["results"][0]
    return run["median"], sorted({c for c in run.get("exit_codes") or [] if c})


def megabytes(n):
    return f"{n / 1e6:,.1f} MB" if n >= 10e6 else f"{n / 1e6:.2f} MB"


def exits(codes):
    return f"exit {', '.join(map(str, codes))}" if codes else ""


longest_lines = {}


def longest_line(file):
    if file not in longest_lines:
        with open(file, "rb", buffering=1 << 20) as f:
            longest_lines[file] = max(map(len, f), default=0)
    return longest_lines[file]


def png_size(file):
    """Width and height from a PNG's IHDR chunk."""
    with open(file, "rb") as f:
        head = f.read(24)
    return struct.unpack(">II", head[16:24])


def resize_note(key, name):
    """What partkit made of an image, against the cap and the recipe's result."""
    try:
        after = json.loads(open(path(key + ".stderr")).readline())["after"]
    except (OSError, ValueError, KeyError):
        return "no report (see the stderr of the run)"
    quality = f" q{after['quality']:.0f}" if after.get("quality") else ""
    text = (f"→ {after['width']}x{after['height']} {after['format']}{quality}, "
            f"{after['bytes']:,} B = {after['bytes'] / cap:.3f} × cap")
    recipe = path(f"recipe_{name}.png")
    if os.path.exists(recipe):
        w, h = png_size(recipe)
        text += f"; recipe → {w}x{h} png, {os.path.getsize(recipe):,} B (partkit keeps {after['width'] * after['height'] / (w * h):.2f}× its pixels)"
    return text


meta, rows, peers, notes = {}, [], {}, {}
for line in open(path("rows.tsv"), encoding="utf-8"):
    kind, *fields = line.rstrip("\n").split("\t")
    if kind == "meta":
        meta[fields[0]] = fields[1]
    elif kind == "row":
        rows.append(fields)
    elif kind == "peer":
        peers.setdefault(fields[0], []).append(fields[1:])
    elif kind == "note":
        notes.setdefault(fields[0], []).append(fields[1])

with_base = "base" in meta
head = ["path", "input", "median s", "× cat"]
if with_base:
    head += ["before s", "now ÷ before"]
head += ["peak RSS (× input)", "peer", "peer s", "partkit ÷ peer", "notes"]
print("| " + " | ".join(head) + " |")
print("|" + "|".join("---" if h in ("path", "peer", "notes") else "---:" for h in head) + "|")

for key, kind, label, input_file in rows:
    size = os.path.getsize(input_file)
    seconds, codes = timing(key)
    cat, _ = timing("cat." + os.path.basename(input_file))
    cells = [label, megabytes(size), f"{seconds:.3f}", f"{cat / seconds:.3f}"]
    if with_base:
        if os.path.exists(path(key + ".base.json")):
            before, before_codes = timing(key + ".base")
            differs = f" ({exits(before_codes) or 'exit 0'})" if before_codes != codes else ""
            cells += [f"{before:.3f}{differs}", f"{seconds / before:.2f}"]
        else:
            cells += ["", ""]
    try:
        rss = int(open(path(key + ".rss")).read().split()[-1]) * 1024
        cells.append(f"{rss / 2**20:,.1f} MiB ({rss / size:.2f}×)")
    except (OSError, ValueError, IndexError):
        cells.append("?")
    row_notes = [exits(codes)] + notes.get(key, [])
    if kind == "validate":
        row_notes.append(f"longest line {longest_line(input_file):,} B")
    if kind == "resize":
        row_notes.append(resize_note(key, key.removeprefix("resize_")))
    note_cell = "; ".join(n for n in row_notes if n)

    lines = []
    for peer_label, peer_key, peer_input in peers.get(key) or [(None, None, None)]:
        if peer_label is None:
            lines.append(["", "", ""])
        elif peer_key == "-":
            lines.append([f"{peer_label}: skipped, {peer_input}", "", ""])
        else:
            peer_seconds, peer_codes = timing(peer_key)
            if os.path.abspath(peer_input) != os.path.abspath(input_file):
                scale = size / os.path.getsize(peer_input)
                peer_label += f" on {os.path.basename(peer_input)}, scaled × {scale:.2f}"
                peer_seconds *= scale
            if peer_codes:
                peer_label += f" ({exits(peer_codes)})"
            lines.append([peer_label, f"{peer_seconds:.3f}", f"{seconds / peer_seconds:.3f}"])
    blank = [""] * len(cells)
    for i, peer_cells in enumerate(lines):
        print("| " + " | ".join((cells if i == 0 else blank) + peer_cells + [note_cell if i == 0 else ""]) + " |")

print()
print(f"{meta.get('partkit', 'partkit ?')} on {meta.get('corpus', '?')}, {meta.get('cpus', '?')} CPUs; "
      f"medians of {meta.get('runs', '?')} runs (hyperfine -N, stdout to /dev/null, page cache warm); "
      f"the whole run took {meta.get('seconds', '?')} s.")
print("× cat: cat's median on the same input ÷ partkit's (1.0 = as fast as reading the file). "
      "Peak RSS: one more run under /usr/bin/time, and its share of the input's size. "
      "partkit ÷ peer: below 1 is partkit faster. "
      + (f"Before: {meta['base']}. " if with_base else "")
      + "Every time is a whole process, start-up included.")
print(f"Verdicts of validate on replies_1g.jsonl: {meta.get('verdicts', '?')}")

# The targets: (row key, what is compared, the bound, what the target says).
# "cat" is the row's × cat, which must reach the bound; a peer key's prefix is
# the peer it is against, partkit ÷ that peer must stay within the bound.
TARGETS = [
    ("validate_2", "cat", 0.7, "validate 1 GB JSON Lines, 2 cores: ≥ 0.7× cat"),
    ("validate_1", "cat", 0.45, "validate 1 GB JSON Lines, 1 core: ≥ 0.45× cat"),
    ("split_parts", "cat", 0.7, "split to parts, 1 GB: ≥ 0.7× cat"),
    ("convert_small_2", "jq_small", 1 / 8, "10,000 small Chat bodies → Anthropic, 2 cores: ≥ 8× as fast as `jq -c .`"),
    ("resize_photo_12mp", "vips_", 1.5, "resize a 12 MP JPEG photo: ≤ 1.5× one vipsthumbnail pass"),
    ("resize_photo_24mp", "vips_", 1.5, "resize a 24 MP JPEG photo: ≤ 1.5× one vipsthumbnail pass"),
    ("resize_shot_12mp", "vips_", 0.75, "resize a 12 MP PNG screenshot: ≤ 0.75× one vipsthumbnail pass"),
    ("resize_shot_24mp", "vips_", 0.75, "resize a 24 MP PNG screenshot: ≤ 0.75× one vipsthumbnail pass"),
]


def verdict(key, against, bound):
    """(the measured ratio as text, met / not met / not measured)."""
    row = next((r for r in rows if r[0] == key), None)
    if row is None:
        return "", "not measured in this run"
    seconds, _ = timing(key)
    if against == "cat":
        cat, _ = timing("cat." + os.path.basename(row[3]))
        ratio = cat / seconds
        return f"{ratio:.3f}× cat (needs ≥ {bound:g})", "met" if ratio >= bound else "not met"
    for _, peer_key, peer_input in peers.get(key) or []:
        if peer_key.startswith(against) and os.path.exists(path(peer_key + ".json")):
            peer_seconds, _ = timing(peer_key)
            peer_seconds *= os.path.getsize(row[3]) / os.path.getsize(peer_input)
            ratio = seconds / peer_seconds
            return (f"partkit ÷ peer {ratio:.3f} (needs ≤ {bound:.3g})",
                    "met" if ratio <= bound else "not met")
    return "", "not measured in this run (the peer did not run)"


print()
print("| target | measured | verdict |")
print("|---|---:|---|")
for key, against, bound, text in TARGETS:
    measured, said = verdict(key, against, bound)
    print(f"| {text} | {measured} | {said} |")
print()
print("The Python rows (partkit.convert on dicts) are measured by benches/python_convert.py.")
