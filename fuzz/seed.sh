#!/usr/bin/env bash
# Seeds each fuzz target's corpus from the test fixtures (and the recordings
# in ../shared/realworld when they are there): fuzz/corpus/TARGET/.
set -euo pipefail
cd "$(dirname "$0")"
fixtures=../tests/fixtures
realworld=../../shared/realworld
json_targets=(json_lines json_tree convert split validate view)
for target in "${json_targets[@]}" data_url media_header decode_image; do
  mkdir -p "corpus/$target"
done
copy() { # copy FILE TARGET...: under a name made from its path
  local file=$1; shift
  local name
  name=$(printf '%s' "$file" | tr '/ ' '__')
  for target in "$@"; do cp "$file" "corpus/$target/$name"; done
}
while IFS= read -r -d '' file; do
  copy "$file" "${json_targets[@]}"
done < <(find "$fixtures" -type f \( -name '*.json' -o -name '*.jsonl' \) -size -256k -print0)
if [ -d "$realworld" ]; then
  while IFS= read -r -d '' file; do
    copy "$file" "${json_targets[@]}"
  done < <(find "$realworld" -type f -name '*.json' -size -256k -print0)
fi
for image in "$fixtures"/*.png "$fixtures"/*.PNG "$fixtures"/*.jpg "$fixtures"/*.gif "$fixtures"/*.webp "$fixtures"/doc.pdf; do
  [ -f "$image" ] || continue
  copy "$image" media_header decode_image
  # A data URL of it, for the data URL target.
  name=$(basename "$image" | tr ' ' '_')
  printf 'data:application/octet-stream;base64,%s' "$(base64 -w0 "$image")" > "corpus/data_url/$name.txt"
done
echo "seeded: $(find corpus -type f | wc -l) files in $(ls corpus | wc -l) corpora"
