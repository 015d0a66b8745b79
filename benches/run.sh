#!/usr/bin/env bash
# partkit's speed on every hot path, side by side in one run with `cat` (the
# floor) and the peers that do the same job (GNU base64, jq, the Python
# reference validators, the Pillow resize recipe, vipsthumbnail).
#
#   benches/run.sh [CORPUS_DIR]
#
# CORPUS_DIR (default: $TMPDIR/partkit-corpus) holds what
# ../shared/bench/make_corpus.py writes; it is made there when a file is
# missing (about a minute and 1.6 GB), which needs a Python with numpy and
# Pillow. Keep it outside the repository.
#
# Environment:
#   PYTHON=...        a Python with Pillow, orjson and pybase64 for the Python
#                     peers and for making the corpus (default python3; a peer
#                     whose modules are missing is skipped with a note)
#   RUNS=5            timed runs per command (after one warm-up); the median is kept
#   SLOW_RUNS=3       timed runs (no warm-up) of the slow peers: jq, the Python
#                     stdlib validator, the Pillow recipe
#   ONLY=a,b          only these sections: encode validate split convert small inspect resize
#                     (small: 10,000 ~2.4 KB Chat bodies made by benches/python_convert.py)
#   PEERS=0           time partkit and cat only
#   PARTKIT_BASE=bin  also time this older partkit on every command ("before" columns)
#   CAP=4000000       the byte cap of the image resizes
#   RESULTS=dir       keep the raw figures (hyperfine JSON, peak RSS, reports) there
#
# Every command's stdout goes to /dev/null (resized images go to a scratch
# directory). Prints a markdown table to stdout, progress to stderr: per command
# the median wall time, cat's time on the same input divided by it (1.0 = as
# fast as reading the file), peak RSS (one extra run under /usr/bin/time) next
# to the input size, and each peer's median with partkit's time divided by it.
# Exits 1 when validate's verdicts on replies_1g.jsonl differ from the corpus
# manifest, 2 when it cannot run.
set -euo pipefail
started=$SECONDS
# Paths the caller gave, made absolute before moving to the repository's root.
corpus=$(realpath -m "${1:-${TMPDIR:-/tmp}/partkit-corpus}")
base=${PARTKIT_BASE:+$(realpath -m "$PARTKIT_BASE")}
keep=${RESULTS:+$(realpath -m "$RESULTS")}
cd "$(dirname "$0")/.."
python=${PYTHON:-python3}
runs=${RUNS:-5}
slow_runs=${SLOW_RUNS:-3}
only=${ONLY:-encode,validate,split,convert,small,inspect,resize}
peers=${PEERS:-1}
cap=${CAP:-4000000}
shared=$PWD/../shared/bench

die() { echo "benches/run.sh: $*" >&2; exit 2; }
want() { [[ ",$only," == *",$1,"* ]]; }
have() { command -v "$1" >/dev/null; }
for section in ${only//,/ }; do
  [[ " encode validate split convert small inspect resize " == *" $section "* ]] ||
    die "ONLY: no section '$section' (encode validate split convert small inspect resize)"
done
have hyperfine || die "needs hyperfine (apt-get install hyperfine)"
[ -x /usr/bin/time ] || die "needs /usr/bin/time for peak RSS (apt-get install time)"
[ -z "$base" ] || [ -x "$base" ] || die "PARTKIT_BASE=$base is not an executable"

images=$corpus/images
for f in replies_1g.jsonl replies_50m.jsonl transcript.json blob_200m.bin manifest.json \
  images/photo_05mp.jpg images/photo_12mp.jpg images/photo_24mp.jpg images/shot_12mp.png images/shot_24mp.png; do
  if [ ! -f "$corpus/$f" ]; then
    echo "== making the corpus in $corpus ($f is missing)" >&2
    "$python" "$shared/make_corpus.py" --out "$corpus" || die "could not make the corpus (PYTHON needs numpy and Pillow)"
    break
  fi
done

echo "== cargo build --release --locked" >&2
cargo build --release --locked -q
partkit=${CARGO_TARGET_DIR:-$PWD/target}/release/partkit
[[ $partkit == /* ]] || partkit=$PWD/$partkit

if [ -n "$keep" ]; then
  R=$keep; mkdir -p "$R"; rm -f "$R"/*.json "$R/rows.tsv"
else
  R=$(mktemp -d); trap 'rm -rf "$R"' EXIT
fi
scratch=$R/scratch; mkdir -p "$scratch"
{ printf 'meta\tcorpus\t%s\n' "$corpus"
  printf 'meta\tpartkit\t%s (%s)\n' "$("$partkit" --version)" "$(git describe --always --dirty 2>/dev/null || echo '?')"
  printf 'meta\truns\t%s (slow peers %s)\n' "$runs" "$slow_runs"
  printf 'meta\tcpus\t%s\n' "$(nproc)"
  [ -z "$base" ] || printf 'meta\tbase\t%s\n' "$base"; } >> "$R/rows.tsv"

# --- the verdicts gate: partkit must find exactly the images the corpus broke
replies=$corpus/replies_1g.jsonl
echo "== verdicts of validate on $replies" >&2
"$partkit" validate --format json "$replies" > "$R/findings.jsonl" 2>/dev/null || true
verdicts=0
python3 - "$corpus/manifest.json" "$R/findings.jsonl" > "$R/verdicts.txt" <<'PY' || verdicts=1
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
print(f"{'match' if want == got else 'DIFFER'}: manifest {want}; partkit {got} ({dict(rules)})")
sys.exit(0 if want == got else 1)
PY
cat "$R/verdicts.txt" >&2

# --- measuring. A command is measured once under its key, whatever asks for it.
cmdline() { printf '%q ' "$@"; }

# measure KEY RUNS WARMUPS COMMAND...: hyperfine's medians into $R/KEY.json
measure() {
  local key=$1 n=$2 warm=$3; shift 3
  [ -f "$R/$key.json" ] && return 0
  echo "== $key: $*" >&2
  hyperfine -N -i -w "$warm" -r "$n" --output=null --export-json "$R/$key.json" "$(cmdline "$@")" \
    >/dev/null 2>"$R/$key.hyperfine.log" || die "hyperfine failed on $key (see $R/$key.hyperfine.log)"
}

# floor FILE: cat's time on FILE, the denominator of every "× cat"
floor() { measure "cat.$(basename "$1")" "$runs" 1 cat "$1"; }

# row KEY KIND LABEL INPUT ARGS...: one partkit command; PARTKIT in ARGS stands
# for the binary (so a prefix like `taskset -c 0 PARTKIT ...` works). KIND tells
# the table what more to print: validate (longest line) or resize (the output).
row() {
  local key=$1 kind=$2 label=$3 input=$4; shift 4
  local now=() old=() arg
  for arg in "$@"; do
    if [ "$arg" = PARTKIT ]; then now+=("$partkit"); old+=("$base"); else now+=("$arg"); old+=("$arg"); fi
  done
  floor "$input"
  measure "$key" "$runs" 1 "${now[@]}"
  [ -z "$base" ] || measure "$key.base" "$runs" 1 "${old[@]}"
  # One more run for peak RSS (KiB) and the stderr (resize's --report json).
  /usr/bin/time -f %M -o "$R/$key.rss" "${now[@]}" >/dev/null 2>"$R/$key.stderr" || true
  printf 'row\t%s\t%s\t%s\t%s\n' "$key" "$kind" "$label" "$input" >> "$R/rows.tsv"
}

note() { printf 'note\t%s\t%s\n' "$1" "$2" >> "$R/rows.tsv"; }

# peer ROWKEY PEERKEY LABEL INPUT RUNS WARMUPS NEED COMMAND...: a tool doing the
# same job, on INPUT (when it is not the row's, the table scales by the sizes).
# NEED is a program or `python:module,module`; without it the peer is a note.
peer() {
  local rowkey=$1 key=$2 label=$3 input=$4 n=$5 warm=$6 need=$7; shift 7
  [ "$peers" = 0 ] && return 0
  local missing=
  if [[ $need == python:* ]]; then
    "$python" -c "import ${need#python:}" 2>/dev/null || missing="$python lacks ${need#python:}"
  elif ! have "$need"; then
    missing="$need is not installed"
  fi
  if [ -n "$missing" ]; then
    printf 'peer\t%s\t%s\t-\t%s\n' "$rowkey" "$label" "$missing" >> "$R/rows.tsv"
    return 0
  fi
  floor "$input"
  measure "$key" "$n" "$warm" "$@"
  printf 'peer\t%s\t%s\t%s\t%s\n' "$rowkey" "$label" "$key" "$input" >> "$R/rows.tsv"
}

blob=$corpus/blob_200m.bin
small=$corpus/replies_50m.jsonl
transcript=$corpus/transcript.json
photo=$images/photo_05mp.jpg
gnu_base64=base64
base64 --version 2>/dev/null | grep -q GNU || gnu_base64=gnu-base64 # a name that is missing

if want encode; then
  row encode_blob '' '`encode blob_200m.bin`' "$blob" PARTKIT encode --mime-type application/octet-stream "$blob"
  peer encode_blob base64_blob '`base64 -w0`' "$blob" "$runs" 1 "$gnu_base64" base64 -w0 "$blob"
  row encode_blob_jsonl '' '`encode --jsonl blob_200m.bin`' "$blob" PARTKIT encode --jsonl --mime-type application/octet-stream "$blob"
  peer encode_blob_jsonl base64_blob '`base64 -w0`' "$blob" "$runs" 1 "$gnu_base64" base64 -w0 "$blob"
  row encode_photo '' '`encode images/photo_05mp.jpg`' "$photo" PARTKIT encode "$photo"
  peer encode_photo base64_photo '`base64 -w0`' "$photo" "$runs" 1 "$gnu_base64" base64 -w0 "$photo"
fi

if want validate; then
  for cores in 2 1; do
    if [ $cores = 2 ]; then pin=(); else pin=(taskset -c 0); fi
    row "validate_$cores" validate "\`validate replies_1g.jsonl\` ($cores core$([ $cores = 2 ] && echo s))" "$replies" \
      "${pin[@]}" PARTKIT validate "$replies"
    peer "validate_$cores" pyval_fast 'py_validate.py orjson+pybase64' "$replies" "$runs" 1 python:orjson,pybase64 \
      "$python" "$shared/py_validate.py" "$replies" --json orjson --b64 pybase64
    peer "validate_$cores" pyval_std 'py_validate.py json+std' "$replies" "$slow_runs" 0 python:json \
      "$python" "$shared/py_validate.py" "$replies" --json json --b64 std
  done
  row validate_transcript '' '`validate transcript.json`' "$transcript" PARTKIT validate "$transcript"
fi

if want split; then
  row split_rest '' '`split --rest replies_1g.jsonl`' "$replies" PARTKIT split --rest "$replies"
  # jq takes over a minute on the whole gigabyte: it runs on the 50 MB prefix and is scaled.
  peer split_rest jq_del "\`jq -c 'del(.tool_output_images)'\`" "$small" "$slow_runs" 0 jq \
    jq -c 'del(.tool_output_images)' "$small"
  row split_parts '' '`split replies_1g.jsonl` (to parts)' "$replies" PARTKIT split "$replies"
fi

if want convert; then
  for shape in anthropic openai-chat openai-responses gemini bedrock canonical; do
    if [ $shape = gemini ]; then
      # Gemini carries no GIF: those parts become text instead of failing the run.
      row convert_$shape '' "\`convert --to $shape transcript.json\`" "$transcript" \
        PARTKIT convert --to $shape --on-unsupported text "$transcript"
      note convert_$shape 'with `--on-unsupported text` (Gemini takes no GIF)'
    else
      row convert_$shape '' "\`convert --to $shape transcript.json\`" "$transcript" PARTKIT convert --to $shape "$transcript"
    fi
    peer convert_$shape jq_messages "\`jq -c '.messages[]'\`" "$transcript" "$slow_runs" 0 jq jq -c '.messages[]' "$transcript"
  done
  # MCP and NeMo Gym hold single tool results, not transcripts: each line of the
  # replies is one (a NeMo Gym tool reply), so those two convert the 50 MB JSONL.
  for shape in mcp nemo-gym; do
    row convert_$shape '' "\`convert --to $shape replies_50m.jsonl\`" "$small" PARTKIT convert --to $shape "$small"
    note convert_$shape 'one tool result (a NeMo Gym reply) per line; the 2 lines holding a broken image fail'
  done
fi

if want small; then
  # Small documents: what a document costs when there is little to stream. The
  # same 10,000 Chat bodies benches/python_convert.py times through Python.
  small_chat=$scratch/small_chat_10k.jsonl
  python3 -c 'import sys; sys.path.insert(0, "benches"); from python_convert import small_lines
open(sys.argv[1], "w").write("\n".join(small_lines(10_000, 14)) + "\n")' "$small_chat"
  for cores in 2 1; do
    if [ $cores = 2 ]; then pin=(); else pin=(taskset -c 0); fi
    row "convert_small_$cores" '' "\`convert --to anthropic --jsonl\` 10,000 small Chat bodies ($cores core$([ $cores = 2 ] && echo s))" \
      "$small_chat" "${pin[@]}" PARTKIT convert --from openai-chat --to anthropic --jsonl "$small_chat"
    peer "convert_small_$cores" jq_small '`jq -c .`' "$small_chat" "$runs" 1 jq jq -c . "$small_chat"
  done
fi

if want inspect; then
  row inspect_transcript '' '`inspect transcript.json`' "$transcript" PARTKIT inspect "$transcript"
fi

if want resize; then
  row resize_transcript '' "\`resize --max-bytes $cap transcript.json\`" "$transcript" \
    PARTKIT resize --max-bytes "$cap" "$transcript"
  note resize_transcript 'no image over the cap: the document passes through'
  for name in photo_12mp.jpg photo_24mp.jpg shot_12mp.png shot_24mp.png; do
    in=$images/$name key=resize_${name%%.*}
    row "$key" resize "\`resize --max-bytes $cap $name\`" "$in" \
      PARTKIT resize --max-bytes "$cap" --report json -o "$scratch/$key.${name##*.}" "$in"
    # The recipe (PraisonAI's: scale *= 0.8, LANCZOS, optimize=True PNG until it
    # fits) writes its result, whose size the table reads.
    peer "$key" "recipe_${name%%.*}" 'Pillow recipe' "$in" "$slow_runs" 0 python:PIL \
      "$python" "$shared/resize_pillow.py" recipe "$in" --cap "$cap" --out "$R/recipe_${name%%.*}.png"
    # vipsthumbnail: one decode, one resize, one encode straight to the geometry
    # and format partkit chose (PNG with every filter tried, or JPEG at its quality).
    read -r w h format quality < <(python3 -c '
import json, sys
after = json.loads(open(sys.argv[1]).readline())["after"]
print(after["width"], after["height"], after["format"], round(after.get("quality") or 0))' "$R/$key.stderr" 2>/dev/null) ||
      { printf 'peer\t%s\tvipsthumbnail\t-\tpartkit made no report\n' "$key" >> "$R/rows.tsv"; continue; }
    if [ "$format" = jpeg ]; then out="$scratch/vips_$key.jpg[Q=$quality]"; else out="$scratch/vips_$key.png[filter=all]"; fi
    peer "$key" "vips_${name%%.*}" "vipsthumbnail to ${w}x${h} $format" "$in" "$runs" 1 vipsthumbnail \
      vipsthumbnail "$in" -s "${w}x${h}" -o "$out"
  done
fi

printf 'meta\tseconds\t%s\n' "$((SECONDS - started))" >> "$R/rows.tsv"
printf 'meta\tverdicts\t%s\n' "$(cat "$R/verdicts.txt")" >> "$R/rows.tsv"
python3 benches/table.py "$R" "$cap"
if [ $verdicts != 0 ]; then
  echo "benches/run.sh: validate's verdicts on replies_1g.jsonl differ from the manifest" >&2
  exit 1
fi
