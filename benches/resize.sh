#!/usr/bin/env bash
# partkit resize against the Pillow recipe (PraisonAI's loop: scale *= 0.8 with
# LANCZOS and an optimize=True PNG until it fits) and vipsthumbnail, on the
# corpus images that are over a 4,000,000-byte cap.
#
#   benches/resize.sh [IMAGES_DIR]
#
# IMAGES_DIR (default: $TMPDIR/partkit-corpus/images) holds the images that
# ../shared/bench/make_corpus.py writes (made there when missing). Needs
# hyperfine, vipsthumbnail (Debian's libvips-tools) and a Python with Pillow
# (set PYTHON; numpy too when the corpus must be made). CAP and RUNS change
# the cap (default 4000000) and the number of timed runs (default 3).
#
# Prints, per image: the median wall time of partkit, of the recipe and of
# vipsthumbnail making a PNG at the recipe's final geometry (one resize, one
# encode: the floor for that output); partkit's share of the recipe's time;
# partkit's output bytes as a share of the cap; and the pixels partkit kept
# as a share of the recipe's. The issue's targets: time at most 1/3 of the
# recipe, bytes between 0.85 and 1.0 of the cap, pixels at least the recipe's.
set -euo pipefail
cd "$(dirname "$0")/.."
images=${1:-${TMPDIR:-/tmp}/partkit-corpus/images}
python=${PYTHON:-python3}
cap=${CAP:-4000000}
runs=${RUNS:-3}
recipe=$PWD/../shared/bench/resize_pillow.py

if [ ! -f "$images/shot_24mp.png" ]; then
  echo "== making the corpus images in $(dirname "$images")"
  "$python" ../shared/bench/make_corpus.py --out "$(dirname "$images")" --only images
fi
for tool in hyperfine vipsthumbnail; do
  command -v "$tool" >/dev/null || { echo "benches/resize.sh needs $tool" >&2; exit 2; }
done

cargo build --release --locked -q
partkit=$PWD/target/release/partkit
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

median() { # hyperfine JSON -> median seconds
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["median"])' "$1"
}

printf '%-15s %9s %9s %9s %7s %11s %9s  %s\n' image partkit recipe vips ratio bytes/cap pixels 'partkit output'
for name in photo_12mp.jpg photo_24mp.jpg shot_12mp.png shot_24mp.png; do
  in=$images/$name
  ext=${name##*.}
  # One run of each for the outputs: partkit's report, the recipe's geometry.
  "$partkit" resize "$in" --max-bytes "$cap" -o "$work/partkit.$ext" --report json 2>"$work/report.json"
  "$python" "$recipe" recipe "$in" --cap "$cap" >"$work/recipe.txt"
  geometry=$(grep -o -- '-> [0-9]*x[0-9]*' "$work/recipe.txt" | cut -c4-)
  hyperfine -N -w 1 -r "$runs" --output=null --export-json "$work/p.json" \
    "$partkit resize $in --max-bytes $cap -o $work/timed.$ext" >/dev/null 2>&1
  hyperfine -N -r "$runs" --output=null --export-json "$work/r.json" \
    "$python $recipe recipe $in --cap $cap" >/dev/null 2>&1
  hyperfine -N -w 1 -r "$runs" --output=null --export-json "$work/v.json" \
    "vipsthumbnail $in -s $geometry -o $work/vips.png[filter=all]" >/dev/null 2>&1
  python3 - "$name" "$cap" "$geometry" "$(median "$work/p.json")" "$(median "$work/r.json")" \
    "$(median "$work/v.json")" "$work/report.json" <<'PY'
import json, sys
name, cap, geometry, p, r, v, report = sys.argv[1:]
cap, p, r, v = int(cap), float(p), float(r), float(v)
after = json.loads(open(report).read().splitlines()[0])["after"]
rw, rh = (int(n) for n in geometry.split("x"))
pixels = after["width"] * after["height"] / (rw * rh)
quality = f" q{after['quality']:.0f}" if "quality" in after else ""
print(f"{name:<15} {p:8.3f}s {r:8.3f}s {v:8.3f}s {p / r:7.3f} {after['bytes'] / cap:11.3f} {pixels:8.2f}x"
      f"  {after['width']}x{after['height']} {after['format']}{quality} {after['bytes']:,} B"
      f" (recipe {geometry})")
PY
done
