#!/usr/bin/env bash
# partkit's speed, measured against `cat` on the same files in the same run.
#
#   benches/run.sh [CORPUS_DIR]
#
# CORPUS_DIR (default: $TMPDIR/partkit-corpus) holds the corpus that
# ../shared/bench/make_corpus.py writes; it is made there when missing, which
# needs Python with numpy and Pillow (set PYTHON to such an interpreter). Keep it
# outside the repository: it is over a gigabyte.
#
# Needs hyperfine. Prints one line per command with its median time, and the
# ratio of cat's time to partkit's (1.0 would be as fast as reading the file).
# Exits 1 when validate's verdicts differ from the corpus manifest.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=${1:-${TMPDIR:-/tmp}/partkit-corpus}
python=${PYTHON:-python3}
runs=${RUNS:-5}

if [ ! -f "$corpus/manifest.json" ]; then
  echo "== making the corpus in $corpus"
  "$python" ../shared/bench/make_corpus.py --out "$corpus" --only images,jsonl,small,transcript
fi
command -v hyperfine >/dev/null || { echo "benches/run.sh needs hyperfine (apt-get install hyperfine)" >&2; exit 2; }

cargo build --release --locked -q
partkit=$PWD/target/release/partkit
results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT

median() { # hyperfine JSON -> median seconds of the first command
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["median"])' "$1"
}

bench() { # name, command...
  local name=$1; shift
  hyperfine -N -w 1 -r "$runs" -i --output=null --export-json "$results/$name.json" "$*" >/dev/null 2>&1
  median "$results/$name.json"
}

replies=$corpus/replies_1g.jsonl
echo "== verdicts of validate on $replies"
"$partkit" validate --format json "$replies" > "$results/findings.jsonl" 2>/dev/null || true
python3 - "$corpus/manifest.json" "$results/findings.jsonl" <<'PY'
import collections, json, sys
manifest = json.load(open(sys.argv[1]))["replies_1g.jsonl"]
rules = collections.Counter(json.loads(line)["rule"] for line in open(sys.argv[2]))
broken = manifest["broken"]
want = {"bad base64": broken["bad_char"] + broken["bad_padding"],
        "type mismatch": broken["mime_mismatch"] + broken["not_image"],
        "valid": manifest["valid"]}
got = {"bad base64": rules["base64-invalid"] + rules["base64-noncanonical"],
       "type mismatch": rules["media-type-mismatch"],
       "valid": manifest["images"] - sum(rules.values())}
print(f"   manifest {want}\n   partkit  {got}  ({dict(rules)})")
sys.exit(0 if want == got else 1)
PY

cat_s=$(bench cat cat "$replies")
printf '%-34s %8.3f s\n' "cat replies_1g.jsonl" "$cat_s"
report() { # label, seconds
  python3 -c 'import sys; c, s = float(sys.argv[2]), float(sys.argv[3]); print(f"{sys.argv[1]:<34} {s:8.3f} s   {c / s:5.3f} x cat")' "$1" "$cat_s" "$2"
}
report "partkit validate replies_1g.jsonl" "$(bench validate "$partkit" validate "$replies")"
report "partkit split --rest replies_1g" "$(bench split_rest "$partkit" split --rest "$replies")"
report "partkit split replies_1g (parts)" "$(bench split_parts "$partkit" split "$replies")"

echo "== peak memory (max RSS, KiB)"
for args in "validate $replies" "split --rest $replies"; do
  # shellcheck disable=SC2086
  /usr/bin/time -f %M -o "$results/rss" "$partkit" $args >/dev/null 2>&1 || true
  rss=$(tail -1 "$results/rss")
  printf '%-34s %8s KiB (longest line %s bytes)\n' "partkit ${args%% *}" "$rss" \
    "$(awk '{ if (length($0) > m) m = length($0) } END { print m }' "$replies")"
done
