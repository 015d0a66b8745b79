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
for target in "${json_targets[@]}" data_url media_header decode_image config pointer recording stream yaml_block; do
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
  # The recorded response bodies (SSE, JSON-array streams, AWS event stream
  # frames, gunzipped) as streams too, when PyYAML is there to read them.
  if python3 -c 'import yaml' 2>/dev/null; then
    python3 - "$cassettes" corpus/stream <<'PY'
import base64, gzip, json, pathlib, sys, yaml
root, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
def bodies(path):
    if path.suffix == ".har":
        for entry in json.loads(path.read_text())["log"]["entries"]:
            content = entry["response"].get("content", {})
            text = content.get("text") or ""
            yield base64.b64decode(text) if content.get("encoding") == "base64" else text.encode()
        return
    raw = path.read_bytes()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    doc = yaml.safe_load(raw)
    for response in (doc.get("responses") or []) + [i.get("response") or {} for i in doc.get("interactions") or []]:
        body = response.get("body")
        body = body.get("string") if isinstance(body, dict) else body
        yield body.encode() if isinstance(body, str) else body or b""
for path in sorted(root.glob("*/*")):
    if path.suffix not in (".har", ".yaml", ".yml", ".gz"):
        continue
    for n, body in enumerate(bodies(path)):
        if body[:2] == b"\x1f\x8b":
            body = gzip.decompress(body)
        if 0 < len(body) <= 256 << 10:
            (out / f"{path.parent.name}_{path.name}.{n}.body").write_bytes(body)
PY
  fi
  # The YAML cassettes as text for the block reader (the gzipped ones
  # inflated); libFuzzer's -max_len cuts the long ones to their openings.
  while IFS= read -r -d '' file; do
    case $file in
      *.gz) gunzip -c "$file" > "corpus/yaml_block/$(printf '%s' "$file" | tr '/ ' '__').txt" ;;
      *) copy "$file" yaml_block ;;
    esac
  done < <(find "$cassettes" -type f \( -name '*.yaml' -o -name '*.yml' -o -name '*.yaml.gz' \) -print0)
fi
# YAML the block reader must decline or read as the event parser does: block
# scalars with chomping and indentation indicators, quoted and odd keys, flow
# collections, anchors and aliases, comments, document markers, tags.
yaml=(
  $'a: |\n  one\n   two\n\n  three\nb: >-\n  folded\n  more\n\n   kept\n  end\nc: |+\n  keep\n\n'
  $'a: |2\n   indented\nb: >1-\n  x\nc: |-2\n    y\n'
  $'"quoted key": 1\n\'single \'\'key\'\'\': 2\n"esc\\tkey": 3\nplain key: 4\n? complex\n: value\n'
  $'a: [1, two, "three"]\nb: {c: d, e: [f]}\nc: []\nd: {}\n'
  $'base: &b\n  k: v\nref: *b\nmerge:\n  <<: *b\n  x: 1\nlist: &l [a, b]\n'
  $'# comment\na: 1 # trailing\nb: "x" # after quote\nc: |  # after indicator\n  text\n#end\n'
  $'---\na: 1\n...\n---\nb: 2\n'
  $'--- # start\n- a\n- b: c\n  d: e\n-   - nested\n- \n'
  $'a: !!binary |\n  aGk=\nb: !binary aGk=\nc: !!str 12\nd: !custom x\ne: !<tag:yaml.org,2002:str> y\nf: !!null\n'
  $'%YAML 1.2\n%TAG !e! tag:example.com,2000:\n---\na: !e!x 1\n'
  $'interactions:\n- request:\n    body: \'{"a": 1}\'\n    headers:\n      Content-Type:\n      - application/json\n    method: POST\n    uri: https://x/y?z=1\n  response:\n    body:\n      string: "line\\n\\u00e9 \\\n        joined"\n    status:\n      code: 200\n      message: OK\nversion: 1\n'
  $'a: plain\n  continued: not a key\n  - dash\n\n  after gap\nb: -1\nc: :x\nd: x:y\ne: a #b\n'
  $'a:\n- x\n-\n  y\nb:\n  - - z\nc:\n  d:\n    e:\n      f: deep\n'
  $'a: \'multi\n  line\n\n  single\'\nb: "multi\n\n  double \\\n  end"\n'
  $'key with spaces   : value\nkey: value with: colon\nurl: http://a:b@c\n'
  $'a: null\nb: ~\nc: true\nd: 0x1f\ne: .inf\nf: 1e3\ng: "1"\nh:\n'
)
for i in "${!yaml[@]}"; do
  printf '%s' "${yaml[$i]}" > "corpus/yaml_block/snippet.$i.yaml"
done
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
