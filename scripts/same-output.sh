#!/usr/bin/env bash
# Records what split, convert (to every shape), validate and inspect print for
# every fixture, every shape case (tests/shapes) and every recording in
# ../shared/realworld{,2}: stdout, stderr and exit code, one file per run,
# under OUT. A redesign that must not change behaviour runs it with the
# binary from before and the one from after, on the same tree, and compares:
# `diff -r BEFORE AFTER`.
#
#   scripts/same-output.sh BINARY OUT
set -euo pipefail
bin=$(realpath "$1")
out=$2
cd "$(dirname "$0")/.."
mkdir -p "$out"
shapes=(canonical openai-chat openai-responses anthropic gemini bedrock)
files=()
while IFS= read -r -d '' file; do files+=("$file"); done < <(
  find tests/fixtures tests/shapes ../shared/realworld ../shared/realworld2 -type f \
    \( -name '*.json' -o -name '*.jsonl' \) -print0 2>/dev/null | sort -z)
record() { # record NAME ARGS...: one run's output, error and code
  local name=$1; shift
  local code=0
  "$bin" "$@" >"$out/$name.out" 2>"$out/$name.err" </dev/null || code=$?
  # validate's summary says how long it took: the one part that may differ.
  sed -i -E 's/ in [0-9]+(\.[0-9]+)? s: / in T s: /' "$out/$name.err"
  echo "$code" >"$out/$name.code"
}
for file in "${files[@]}"; do
  key=$(printf '%s' "$file" | tr '/' '_')
  record "$key.split" split "$file"
  record "$key.validate" validate "$file"
  record "$key.validate-deep" validate --deep --format json "$file"
  record "$key.inspect" inspect --format json "$file"
  for shape in "${shapes[@]}"; do
    record "$key.convert-$shape" convert --to "$shape" "$file"
  done
done
echo "${#files[@]} files, $(find "$out" -name '*.code' | wc -l) runs recorded in $out"
