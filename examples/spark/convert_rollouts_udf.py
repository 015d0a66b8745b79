#!/usr/bin/env python3
"""Converts the requests of NeMo Gym rollouts to Anthropic Messages in a Spark UDF.

    python convert_rollouts_udf.py INPUT OUTPUT_DIR [--partitions N] [--empty K] [--threads T]

The same job as convert_rollouts.py, in-process: no partkit binary and no
pipe, but a `mapInPandas` function that hands each batch of lines to
`partkit.convert_lines(..., at="/responses_create_params")`, which converts
them on T threads (default 1) with the GIL released. Only
responses_create_params is converted, in place (as `partkit convert --at`
does): the response, reward and ids stay byte for byte.

Every line is accounted for: the function yields one row per line, the
converted line or null with the error in a second column, and OUTPUT_DIR is
written as Spark writes text (part-00000-..., part-00001-..., in input order)
with `null` for a line that failed, as `--on-error null` gives. The errors go
to stderr with their line numbers.

--empty K puts K empty partitions in front of the data. The workers must
import partkit: run this with the Python that has it installed (it is the
workers' Python unless PYSPARK_PYTHON says otherwise).

Prints one summary line: lines in and out, how many failed, partitions (and
how many were empty), seconds, and the threads of each convert_lines call.
"""

import argparse
import os
import sys
import time
import warnings

import pandas as pd
import partkit

from local_spark import local_spark, read_lines


def to_anthropic(batches, threads):
    """mapInPandas function: (line, value) rows in, (line, value, error) rows out,
    one for one."""
    for batch in batches:
        # One call for the batch, on `threads` threads with the GIL released. A
        # line that fails is None, its message in out.errors. The notes (here:
        # no request has max_tokens) stay in out.notes instead of warning in
        # every batch, as the pipe job's --quiet keeps them off the executors'
        # stderr.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", partkit.LossWarning)
            out = partkit.convert_lines(
                batch["value"].tolist(), "anthropic", at="/responses_create_params", threads=threads
            )
        errors = [out.errors.get(i) for i in range(len(out))]
        yield pd.DataFrame({"line": batch["line"].to_numpy(), "value": list(out), "error": errors})


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("--partitions", type=int, default=8)
    parser.add_argument("--empty", type=int, default=0)
    # Spark already runs a task per core: more threads per task would
    # oversubscribe them (the pipe job's -j 1).
    parser.add_argument("--threads", type=int, default=1, help="partkit threads per task")
    args = parser.parse_args()

    # The workers run this Python, which has partkit, pandas and pyarrow.
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import functions as F

    spark = local_spark("partkit-rollouts-udf")
    sc = spark.sparkContext
    started = time.monotonic()
    # Read as convert_rollouts.py does, so that --partitions and --empty mean the same.
    rows, sizes = read_lines(sc, args.input, args.partitions, args.empty)
    # Number the lines before the UDF, so that an error names its input line.
    starts = [sum(sizes[:p]) + 1 for p in range(len(sizes))]
    lines = rows.mapPartitionsWithIndex(lambda p, part: enumerate(part, starts[p])).toDF(
        "line long, value string"
    )

    # mapInPandas keeps the partitions, and each partition's rows in order.
    # Cached: the output and the error report read it without converting twice.
    threads = args.threads
    converted = lines.mapInPandas(
        lambda batches: to_anthropic(batches, threads), "line long, value string, error string"
    ).cache()
    converted.select(F.coalesce("value", F.lit("null"))).write.text(args.output)
    failed = converted.where("error IS NOT NULL").select("line", "error").collect()
    seconds = time.monotonic() - started
    for line, error in failed:
        print("partkit: error: line %d: %s" % (line, error), file=sys.stderr)
    lines_out = sum(
        sum(1 for _ in open(os.path.join(args.output, name), encoding="utf-8", newline="\n"))
        for name in os.listdir(args.output)
        if name.startswith("part-")
    )
    spark.stop()
    print(
        "spark udf job: %d lines in, %d out, %d failed; %d partitions, %d empty; %.1f s; "
        "%d thread%s per convert_lines call"
        % (sum(sizes), lines_out, len(failed), len(sizes), sizes.count(0), seconds,
           threads, "" if threads == 1 else "s")
    )


if __name__ == "__main__":
    main()
