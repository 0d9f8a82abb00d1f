"""Spark's Python workers for ``qsg chaos`` on a local master (issue 33): forked from a
daemon (``qsg.commands.pipeline.worker_daemon``) that has imported a run's modules and frozen
them out of the collector's reach, so that no worker imports qsg again and the
collection after each task skips what the imports made. A module the daemon cannot
import is the workers' to import, as without it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from qsg.commands.pipeline import worker_daemon
from qsg.commands.pipeline.worker_daemon import (
    DAEMON_SETTING,
    MODULE,
    PRELOAD,
    PRELOAD_ENV,
    daemon_conf,
    preload,
    preloaded_names,
)
from tests.claims import keeps

ROOT = Path(__file__).parent.parent

#: Jobs of one task on local[1], one SparkContext after another in one driver (one JVM
#: and one Python started for all), each with the daemon and the executors' environment
#: that argv[1] gives (JSON: [daemon or "", {variable: value}] each): what each job's
#: worker had imported and frozen before the task's function ran. The function is this
#: script's (pickled by value): it imports nothing of qsg itself.
_WORKER_SEES = """
import json, sys
import pyarrow as pa
from qsg.commands.pipeline.spark import spark_session

def seen(batches):
    import gc, sys
    for _ in batches:
        yield pa.RecordBatch.from_pylist(
            [{"qsg": "qsg.chaos.campaign" in sys.modules, "frozen": gc.get_freeze_count()}]
        )

for daemon, env in json.loads(sys.argv[1]):
    conf = {"spark.python.daemon.module": daemon} if daemon else {}
    conf.update({f"spark.executorEnv.{name}": value for name, value in env.items()})
    spark = spark_session("local[1]", conf=conf)
    row = spark.range(1).mapInArrow(seen, "qsg boolean, frozen bigint").toArrow().to_pylist()[0]
    print(json.dumps(row), flush=True)
    spark.stop()
"""

#: Spark's own daemon (the control), qsg's, and qsg's told to import a module that
#: does not exist.
_DAEMONS: list[tuple[str, dict[str, str]]] = [
    ("", {}),
    (MODULE, {}),
    (MODULE, {PRELOAD_ENV: "qsg.no_such_module"}),
]


@pytest.fixture(scope="module")
def workers_saw() -> tuple[list[dict[str, object]], str]:
    """What the worker of each of ``_DAEMONS`` saw, in order, and the driver's stderr
    (the daemons' own)."""
    done = subprocess.run(
        [sys.executable, "-c", _WORKER_SEES, json.dumps(_DAEMONS)],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert len(rows) == len(_DAEMONS), done.stdout
    return rows, done.stderr


@pytest.mark.slow
@keeps("docs/pipeline.md", "it imports a run's modules once")
def test_a_worker_forked_from_qsgs_daemon_has_the_run_path_imported_and_frozen(
    workers_saw: tuple[list[dict[str, object]], str],
) -> None:
    # Spark's own daemon (the control): the worker has imported nothing of qsg's.
    (control, seen, _), _ = workers_saw
    assert control == {"qsg": False, "frozen": 0}
    assert seen["qsg"] is True
    assert isinstance(seen["frozen"], int) and seen["frozen"] > 10_000


@pytest.mark.slow
@keeps(
    "docs/pipeline.md",
    "A module the daemon cannot import is the workers' to import, as without it (the "
    "daemon says so in one line on stderr)",
)
def test_a_daemon_that_cannot_import_a_module_still_serves_workers(
    workers_saw: tuple[list[dict[str, object]], str],
) -> None:
    # The daemon reads the list from its environment: here the executors' own
    # (spark.executorEnv.*), which Spark passes on to the daemon it starts; the route
    # from the driver's environment is tests/test_chaos_on_spark.py's.
    (_, _, seen), stderr = workers_saw
    assert seen["qsg"] is False  # nothing of the run path imported ahead...
    assert isinstance(seen["frozen"], int) and seen["frozen"] > 0  # ...the rest frozen
    said = [line for line in stderr.splitlines() if "not imported ahead" in line]
    assert said == [
        "qsg worker daemon: not imported ahead: qsg.no_such_module: "
        "ModuleNotFoundError: No module named 'qsg.no_such_module'"
    ]


def test_a_module_that_fails_to_import_is_named_with_why_and_the_others_imported() -> None:
    failed = preload(["json", "qsg.no_such_module", "qsg.chaos.campaign"])
    assert failed == [
        "qsg.no_such_module: ModuleNotFoundError: No module named 'qsg.no_such_module'"
    ]
    assert "qsg.chaos.campaign" in sys.modules


@keeps("docs/pipeline.md", "`QSG_WORKER_PRELOAD` (names, comma-separated) replaces its list.")
def test_the_modules_preloaded_are_the_run_path_unless_the_environment_names_others() -> None:
    assert preloaded_names({}) == PRELOAD
    assert "qsg.chaos.campaign" in PRELOAD
    assert preloaded_names({PRELOAD_ENV: " json, ,csv "}) == ("json", "csv")
    assert preloaded_names({PRELOAD_ENV: ""}) == ()


@keeps(
    "docs/pipeline.md",
    "not pyarrow nor pandas, which start threads at import, and a fork copies only the "
    "thread that forks",
)
def test_the_daemon_preloads_neither_pyarrow_nor_pandas_which_start_threads() -> None:
    # pyspark.daemon imports its worker after the fork for that reason: a fork copies
    # only the thread that forks. The run path must not pull them in either.
    probe = "import sys, qsg.commands.pipeline.worker_daemon as d; d.preload(d.PRELOAD); " + (
        "print(sorted(m for m in ('pyarrow', 'pandas') if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert done.stdout.strip() == "[]"


def test_the_daemon_module_is_named_as_spark_will_run_it() -> None:
    assert worker_daemon.__name__ == MODULE
    assert daemon_conf("local[2]", None) == (f"{DAEMON_SETTING}={MODULE}",)


@pytest.mark.parametrize(
    ("master", "remote", "conf"),
    [
        ("local[2]", None, [f"{DAEMON_SETTING}=pyspark.daemon"]),
        ("local[2]", None, ["spark.pyspark.python=/opt/other/bin/python3"]),
        ("spark://head:7077", None, []),
        ("yarn", None, []),
        (None, "sc://head:15002", []),
    ],
)
@keeps(
    "docs/pipeline.md",
    "A `spark.python.daemon.module` of your own (`--conf` or `spark-defaults.conf`) wins,"
    " and a cluster's executors",
)
def test_a_daemon_of_the_users_or_a_spark_not_local_get_nothing_from_qsg(
    master: str | None, remote: str | None, conf: list[str]
) -> None:
    assert daemon_conf(master, remote, conf) == ()


@keeps(
    "docs/pipeline.md",
    "or workers of another Python (`PYSPARK_PYTHON`, `spark.pyspark.python`), are left "
    "with Spark's daemon",
)
def test_workers_of_another_python_keep_sparks_own_daemon() -> None:
    # Another Python may not hold qsg: a daemon it cannot import fails the whole job.
    other = {"PYSPARK_PYTHON": "/opt/other/bin/python3"}
    assert daemon_conf("local[2]", None, environ=other) == ()
    assert daemon_conf("local[2]", None, environ={"PYSPARK_PYTHON": sys.executable}) != ()
    assert daemon_conf("local[2]", None, environ={}) != ()


@keeps(
    "docs/pipeline.md",
    "A `spark.python.daemon.module` of your own (`--conf` or `spark-defaults.conf`) wins",
)
def test_a_daemon_named_in_spark_defaults_conf_is_left_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "spark-defaults.conf").write_text(f"{DAEMON_SETTING} my.daemon\n")
    monkeypatch.setenv("SPARK_CONF_DIR", str(tmp_path))
    assert daemon_conf("local[*]", None) == ()
