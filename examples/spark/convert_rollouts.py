#!/usr/bin/env python3
"""Converts the requests of NeMo Gym rollouts to Anthropic Messages with Spark.

    python convert_rollouts.py INPUT OUTPUT_DIR --partkit PATH [--partitions N] [--empty K]

Spark in local mode reads INPUT (JSON Lines) as text, pipes every partition
through partkit, and writes OUTPUT_DIR as Spark does (part-00000, part-00001,
... in input order). partkit keeps every line accounted for: each input line
gives exactly one output line, a line it cannot convert gives `null`, and a
partition with no lines gives no output and exit 0 — so the job's output has
the input's rows, in order, and no partition fails the job.

--empty K puts K empty partitions in front of the data (a real job has them
whenever a filter or a skewed split leaves a partition with nothing).

Prints one summary line: lines in and out, partitions (and how many were
empty), seconds, and the worker threads of each partkit process.
"""

import argparse
import os
import shlex
import time

from local_spark import local_spark, read_lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("--partkit", required=True, help="the partkit binary")
    parser.add_argument("--partitions", type=int, default=8)
    parser.add_argument("--empty", type=int, default=0)
    args = parser.parse_args()

    spark = local_spark("partkit-rollouts")
    sc = spark.sparkContext
    started = time.monotonic()
    rows, sizes = read_lines(sc, args.input, args.partitions, args.empty)

    # One worker thread per partkit: Spark already runs a task per core, so
    # partkit's default of one worker per core would start cores² threads.
    command = [
        os.path.abspath(args.partkit), "convert",
        "--at", "/responses_create_params", "--to", "anthropic",
        "--on-error", "null", "-j", "1", "--quiet",
    ]
    converted = rows.pipe(shlex.join(command), checkCode=True)
    converted.saveAsTextFile(args.output)
    seconds = time.monotonic() - started
    lines_out = sum(
        sum(1 for _ in open(os.path.join(args.output, name), encoding="utf-8"))
        for name in os.listdir(args.output)
        if name.startswith("part-")
    )
    spark.stop()
    print(
        "spark job: %d lines in, %d out; %d partitions, %d empty; %.1f s; 1 worker thread per partkit"
        % (sum(sizes), lines_out, len(sizes), sizes.count(0), seconds)
    )


if __name__ == "__main__":
    main()
