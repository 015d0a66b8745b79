#!/usr/bin/env bash
# Seeds each fuzz target's corpus from the test fixtures and the shape cases'
# documents (and the recordings in ../shared/realworld when they are there):
# fuzz/corpus/TARGET/.
set -euo pipefail
cd "$(dirname "$0")"
fixtures=../tests/fixtures
shapes=../tests/shapes
realworld=../../shared/realworld
cassettes=../../shared/cassettes
json_targets=(json_lines json_tree convert split validate view)
for target in "${json_targets[@]}" data_url media_header decode_image config pointer recording stream; do
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
done < <(find "$fixtures" "$shapes" -type f \( -name '*.json' -o -name '*.jsonl' \) -size -256k -print0)
if [ -d "$realworld" ]; then
  while IFS= read -r -d '' file; do
    copy "$file" "${json_targets[@]}"
  done < <(find "$realworld" -type f -name '*.json' -size -256k -print0)
fi
# Recordings: every cassette and HAR file; the chunk fixtures as streams.
if [ -d "$cassettes" ]; then
  while IFS= read -r -d '' file; do
    copy "$file" recording
  done < <(find "$cassettes" -type f ! -name README.md -size -1024k -print0)
  while IFS= read -r -d '' file; do
    copy "$file" stream
  done < <(find "$cassettes" -type f -name '*.chunks.txt' -print0)
fi
for image in "$fixtures"/*.png "$fixtures"/*.PNG "$fixtures"/*.jpg "$fixtures"/*.gif "$fixtures"/*.webp "$fixtures"/doc.pdf; do
  [ -f "$image" ] || continue
  copy "$image" media_header decode_image
  # A data URL of it, for the data URL target.
  name=$(basename "$image" | tr ' ' '_')
  printf 'data:application/octet-stream;base64,%s' "$(base64 -w0 "$image")" > "corpus/data_url/$name.txt"
done
# Config files: the fixtures (every key, a pyproject.toml table, a misspelt
# key) and the repository's own pyproject.toml (no table).
for file in "$fixtures"/config/*.toml ../pyproject.toml; do
  copy "$file" config
done
# Pointers: a pointer line, then a small document, for pointers that select
# the whole, a message, a part, an image, and ones RFC 6901 says select nothing.
pointers=("" /messages/0/content /tool_output_images/0 /contents/0/parts/0 /0 /messages/01 /0/-)
while IFS= read -r -d '' file; do
  name=$(printf '%s' "$file" | tr '/ ' '__')
  for i in "${!pointers[@]}"; do
    { printf '%s\n' "${pointers[$i]}"; cat "$file"; } > "corpus/pointer/$name.$i"
  done
done < <(find "$fixtures" "$shapes" -type f -name '*.json' -size -16k -print0)
echo "seeded: $(find corpus -type f | wc -l) files in $(ls corpus | wc -l) corpora"
