#!/usr/bin/env bash
# CI: partkit inside a real distributed engine. PySpark in local mode pipes a
# few thousand NeMo Gym rollouts (images, tool calls, one malformed line, empty
# partitions) through `partkit convert`, and check_output.py asserts that every
# line is accounted for and every image and tool call survived. Then the same
# job runs in-process, the Python package's convert_lines in a mapInPandas UDF,
# and must pass the same check and write what the pipe job wrote.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v java >/dev/null; then
  echo "== installing a Java runtime for Spark"
  apt-get update -qq
  apt-get install -y -qq openjdk-17-jre-headless >/dev/null
fi

# A virtual environment with the pinned PySpark, reused while the pin stays the same.
pins=$(sha256sum examples/spark/requirements.txt | cut -c1-12)
venv="${TMPDIR:-/tmp}/partkit-spark-$pins"
if [ ! -x "$venv/bin/python" ]; then
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r examples/spark/requirements.txt
fi

cargo build --locked --quiet
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 examples/spark/make_rollouts.py --out "$work/rollouts.jsonl" --lines 3000 \
  --malformed 1 --manifest "$work/manifest.json"
# More partitions than the data fills, and two empty ones up front.
SPARK_LOCAL_IP=127.0.0.1 "$venv/bin/python" examples/spark/convert_rollouts.py \
  "$work/rollouts.jsonl" "$work/out" --partkit target/debug/partkit \
  --partitions 6 --empty 2 2>"$work/spark.log" | tee "$work/summary.txt" \
  || { cat "$work/spark.log"; exit 1; }
grep -Eq ', [1-9][0-9]* empty;' "$work/summary.txt" \
  || { echo "spark: the job had no empty partition"; exit 1; }
python3 examples/spark/check_output.py "$work/rollouts.jsonl" "$work/out" "$work/manifest.json"

# The partkit wheel in the Spark venv: the one .ci/run built, or one built here
# when this script runs on its own. --force-reinstall: the version stays
# 0.1.0 from build to build.
wheel=$(ls target/wheels/partkit-*.whl 2>/dev/null | head -n 1 || true)
if [ -z "$wheel" ]; then
  echo "== building the partkit wheel"
  "$venv/bin/pip" install --quiet --disable-pip-version-check maturin==1.16.0
  "$venv/bin/maturin" build --quiet --release --locked -o target/wheels
  wheel=$(ls target/wheels/partkit-*.whl | head -n 1)
fi
"$venv/bin/pip" install --quiet --disable-pip-version-check --force-reinstall --no-deps "$wheel"
# The workers are the venv's Python too, so that they import partkit.
PYSPARK_PYTHON="$venv/bin/python" SPARK_LOCAL_IP=127.0.0.1 "$venv/bin/python" \
  examples/spark/convert_rollouts_udf.py "$work/rollouts.jsonl" "$work/out-udf" \
  --partitions 6 --empty 2 2>"$work/spark-udf.log" | tee "$work/summary-udf.txt" \
  || { cat "$work/spark-udf.log"; exit 1; }
grep -Eq ', [1-9][0-9]* empty;' "$work/summary-udf.txt" \
  || { echo "spark: the UDF job had no empty partition"; exit 1; }
python3 examples/spark/check_output.py "$work/rollouts.jsonl" "$work/out-udf" "$work/manifest.json"
cmp -s <(cat "$work"/out/part-*) <(cat "$work"/out-udf/part-*) \
  || { echo "spark: the UDF job's output differs from the pipe job's"; exit 1; }
echo "spark: the UDF job wrote what the pipe job wrote, byte for byte"
