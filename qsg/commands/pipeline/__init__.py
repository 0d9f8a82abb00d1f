"""The data pipeline on Spark (PySpark): metrics, capacity sweeps and the report.

- ``spark``: the one SparkSession builder (``local[*]`` by default, any master URL, or
  Spark Connect).
- ``where``: paths and URIs (``file://``, ``s3a://``, ``hdfs://``...), resolved on the driver.
- ``runs``: finding runs' event logs under a directory or URI, and their scopes.
- ``frames``: the jobs' DataFrames: work dealt to tasks, tables packed, written.
- ``metrics``: the metrics tables from the event logs (docs/pipeline.md).
- ``theory``: queueing closed forms the simulator is validated against.
- ``sweep_file`` / ``sweep``: a sweep file's points, played as one Spark job; the knee.
- ``report``: the self-contained HTML report.
- ``chaos``, ``head_start``, ``jvm``: ``qsg chaos --master``: a campaign's seeds in
  chunks that shrink, the driver's child playing the first ones while Spark starts, a
  lean driver JVM (and its class archive) on a local master.
- ``worker_daemon``: on a local master, the Python workers forked from a daemon that has
  imported a run's modules and frozen them out of the collector's reach.
- ``command``: ``qsg metrics``, ``qsg sweep``, ``qsg report``.

Spark is imported only when a session is asked for: the rest of qsg never needs Java.
"""
