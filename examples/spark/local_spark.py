"""The Spark session and input both example jobs use: local mode on this
machine only, and the rollouts read into a set number of partitions."""

import os


def local_spark(app_name):
    """A local Spark (two cores) with no UI, the driver and block manager on
    loopback; its context logs errors only."""
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    from pyspark.sql import SparkSession

    spark = (
        SparkSession.builder.master("local[2]")
        .appName(app_name)
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        # No progress bar in the log that .ci/spark.sh shows when a job fails.
        .config("spark.ui.showConsoleProgress", "false")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def read_lines(sc, path, partitions, empty):
    """The file's lines in `partitions` partitions, with `empty` empty ones in
    front (union keeps the partitions' order), and each partition's size."""
    rows = sc.textFile(path, partitions)
    if empty:
        rows = sc.union([sc.parallelize([], empty), rows])
    return rows, rows.glom().map(len).collect()
