#!/usr/bin/env bash
# partkit's recording reader against PyYAML (C and pure-Python loaders) and yq,
# on the shared YAML cassettes and on a large generated vcrpy cassette, side by
# side in one run (docs/speed.md, "Reading recordings").
#
#   benches/yaml.sh [WORK_DIR]
#
# WORK_DIR (default: $TMPDIR/partkit-yaml-bench) is where the generated cassette
# (about 45 MB) and inflated copies of the gzipped cassettes go; keep it outside
# the repository. The generated cassette is made once and reused.
#
# Environment:
#   PYTHON=...      a Python with PyYAML built against libyaml (default python3;
#                   checked with `yaml.__with_libyaml__`). Without one:
#                     python3 -m venv /tmp/yaml-venv && /tmp/yaml-venv/bin/pip install pyyaml
#   RUNS=5          reads per file (in-process medians) and whole runs
#   PURE_RUNS=1     reads per file for the pure-Python loader (slow)
#   INTERACTIONS=320  interactions in the generated cassette
#   CASSETTES=dir   the YAML cassettes (default ../shared/cassettes)
#
# Prints a markdown table to stdout (progress to stderr) and a verdict line;
# exits 1 when partkit's reader is under 10× the C loader on either input,
# 2 when it cannot run. Needs no network.
set -euo pipefail
work=$(realpath -m "${1:-${TMPDIR:-/tmp}/partkit-yaml-bench}")
cd "$(dirname "$0")/.."
python=${PYTHON:-python3}
cassettes=$(realpath -m "${CASSETTES:-../shared/cassettes}")
die() { echo "benches/yaml.sh: $*" >&2; exit 2; }

case $work in "$PWD"/*) die "WORK_DIR $work is inside the repository" ;; esac
[ -d "$cassettes" ] || die "no cassettes folder at $cassettes"
"$python" -c 'import yaml' 2>/dev/null ||
  die "$python has no PyYAML (python3 -m venv /tmp/yaml-venv && /tmp/yaml-venv/bin/pip install pyyaml; PYTHON=/tmp/yaml-venv/bin/python)"
"$python" -c 'import yaml, sys; sys.exit(not yaml.__with_libyaml__)' ||
  echo "benches/yaml.sh: $python's PyYAML has no libyaml: no C loader to compare with" >&2

echo "== cargo build --release --locked --example read_recording" >&2
cargo build --release --locked -q --example read_recording
reader=${CARGO_TARGET_DIR:-$PWD/target}/release/examples/read_recording
[[ $reader == /* ]] || reader=$PWD/$reader

echo "== $(git describe --always --dirty 2>/dev/null || echo '?'), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
exec "$python" benches/yaml_bench.py --reader "$reader" --cassettes "$cassettes" --work "$work" \
  --runs "${RUNS:-5}" --pure-runs "${PURE_RUNS:-1}" --interactions "${INTERACTIONS:-320}"
