"""Spark's Python workers forked from a daemon that has already imported a run's modules.

On Linux, Spark starts one Python daemon per executor (``python -m pyspark.daemon``, or
the module ``spark.python.daemon.module`` names) and forks a worker from it for each
task slot; a worker is reused from task to task (``spark.python.worker.reuse``, on by
default) and runs ``gc.collect()`` after each (``pyspark.daemon``). For ``qsg chaos``
on a local master this module is that daemon (``python -m qsg.commands.pipeline.worker_daemon``):

- it imports once what a run needs (``PRELOAD``: the campaign's run path, trio, the
  actors, the rules, numpy, msgpack), so the workers forked from it start with it
  imported instead of each importing it again (some 0.65 s of a core a worker:
  ``python -X importtime``, pyspark's worker 0.12 s and ``qsg.chaos.campaign`` 0.52 s);
- then ``gc.freeze()``: what the imports made is moved out of the collector's reach,
  so the collection after each task walks only what the task made (0.05-0.07 s a task
  otherwise, with qsg imported: 24 empty tasks on ``local[2]`` took 1.75 s unfrozen,
  0.87 s frozen), and forked workers do not copy the pages the collector would write
  to (Python's documentation of ``gc.freeze``);
- then it is ``pyspark.daemon``'s ``manager()``, unchanged.

Not pyarrow nor pandas: they start threads when imported (jemalloc's, Arrow's), and a
fork copies only the thread that forks; ``pyspark.daemon`` itself imports its worker
after the fork for that reason. A module that fails to import is left to the workers
(each task's closure names what it needs, and its import there raises as usual): the
daemon says so in one line on stderr and serves workers all the same.

``$QSG_WORKER_PRELOAD`` (names, comma-separated) replaces ``PRELOAD``: the daemon reads
it from its environment, which on a local master is the driver's (Spark's JVM passes
its own on).
"""

from __future__ import annotations

import gc
import importlib
import os
import sys
from collections.abc import Iterable, Mapping

from qsg.commands.pipeline.spark import spark_defaults

#: What a chaos run imports on a worker, besides PySpark's own worker module.
PRELOAD = ("pyspark.worker", "qsg.chaos.campaign", "actors.runtime")
#: The environment variable whose names replace ``PRELOAD`` (comma-separated).
PRELOAD_ENV = "QSG_WORKER_PRELOAD"
#: This module, as ``spark.python.daemon.module`` names it.
MODULE = "qsg.commands.pipeline.worker_daemon"
#: The Spark setting that names the daemon's module.
DAEMON_SETTING = "spark.python.daemon.module"
#: The Spark setting that names the workers' Python (over ``$PYSPARK_PYTHON``).
PYTHON_SETTING = "spark.pyspark.python"


def preload(names: Iterable[str]) -> list[str]:
    """Import each of ``names``; the ones that failed, each with why, in one line."""
    failed: list[str] = []
    for name in names:
        try:
            importlib.import_module(name)
        except Exception as error:  # the workers import it themselves, and say why
            failed.append(f"{name}: {type(error).__name__}: {error}")
    return failed


def preloaded_names(environ: Mapping[str, str]) -> tuple[str, ...]:
    """The modules to import: ``$QSG_WORKER_PRELOAD``'s if set, else ``PRELOAD``."""
    given = environ.get(PRELOAD_ENV)
    if given is None:
        return PRELOAD
    return tuple(name.strip() for name in given.split(",") if name.strip())


def daemon_conf(
    master: str | None,
    remote: str | None,
    conf: Iterable[str] = (),
    environ: Mapping[str, str] = os.environ,
) -> tuple[str, ...]:
    """The ``--conf`` settings that make this module the workers' daemon: for a local
    master only (a cluster's executors are not ours to set up: their Python may not
    hold qsg where the daemon starts), whose workers run this very Python (not another
    named by ``$PYSPARK_PYTHON`` or ``spark.pyspark.python``: a daemon that cannot be
    imported is a job that cannot start), and not if ``--conf`` or
    ``spark-defaults.conf`` names a daemon of its own."""
    given = {setting.partition("=")[0].strip() for setting in conf}
    defaults = spark_defaults()
    if (
        remote is not None
        or master is None
        or not master.startswith("local")
        or environ.get("PYSPARK_PYTHON", sys.executable) != sys.executable
        or any(key in given or key in defaults for key in (DAEMON_SETTING, PYTHON_SETTING))
    ):
        return ()
    return (f"{DAEMON_SETTING}={MODULE}",)


def main() -> None:
    """Import, freeze what was imported, then serve workers as ``pyspark.daemon`` does."""
    for failure in preload(preloaded_names(os.environ)):
        print(f"qsg worker daemon: not imported ahead: {failure}", file=sys.stderr, flush=True)
    gc.collect()  # no garbage of the imports frozen with the rest
    gc.freeze()
    # Here, not at the top: the driver imports this module only for ``daemon_conf``.
    from pyspark import daemon

    daemon.manager()


if __name__ == "__main__":
    main()
