"""The metrics tables apply ``[run] warmup`` as the summary does (issue 32).

The rule (docs/capacity.md, "Warm-up"): the first S simulated seconds are left out of
every statistic, in the summary and in ``qsg metrics``' tables alike: no row of a
table falls inside the warm-up and no aggregate counts what happened in it; a latency
is one of a message put after it; the run's record (lease changes, faults) is kept
whenever it happened. The log keeps every event, and the ``runs`` table says how many
seconds were left out.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pyarrow.compute as pc

from qsg.commands.pipeline.run_tables import run_tables
from qsg.commands.pipeline.runs import read_log
from qsg.scenario import parse_scenario
from qsg.scenario.play import run_scenario
from qsg.scenario.recording import write_run
from tests.claims import keeps

WARM = """\
[run]
duration = 60
seed = 5
in_process = true
sample_interval = 5
warmup = 20

[qsg.QSG1]
members = ["QM1", "QM2"]
mqsc = "DEFINE QLOCAL(APP.SHARED) QSGDISP(SHARED) CFSTRUCT(APP1) MAXDEPTH(999999)"

[qsg.QSG1.structures.APP1]
size_kb = 65536

[[workload]]
type = "putter"
qmgr = "QM1"
queue = "APP.SHARED"
rate = 10

[[workload]]
type = "getter"
qmgr = "QM2"
queue = "APP.SHARED"

[[fault]]
at = 5
action = "kill"
qmgr = "QM2"
duration = 3
"""


@keeps(
    "docs/capacity.md",
    "`qsg metrics` (and `qsg report`, which reads its tables) applies the same warm-up",
)
@keeps("README.md", "a warm-up left out of every figure")
def test_no_metrics_row_or_statistic_comes_from_inside_the_warm_up(tmp_path: Path) -> None:
    result = run_scenario(parse_scenario(WARM))
    write_run(tmp_path, tmp_path / "warm.toml", result, copy=False)
    log = read_log(".", tmp_path / "events.parquet")
    assert log.warmup == 20.0 and log.warmup_until is not None
    tables = run_tables(log)
    (runs,) = tables["runs"].to_pylist()
    totals = result.summary.totals
    assert (runs["warmup"], runs["put"], runs["got"]) == (20.0, totals["put"], totals["got"])
    for name in ("throughput", "depth", "cf_usage", "qmgr_statistics"):
        table = tables[name]
        time = table["t" if name == "throughput" else "time"]
        assert table.num_rows and pc.min(time).as_py() >= log.warmup_until, name
    assert tables["faults"]["time"].to_pylist()[0] == 5.0  # the run's record: kept
    # The same log read with no warm-up has the first 20 s in it.
    whole = run_tables(dataclasses.replace(log, warmup=0.0, warmup_until=None))
    (all_of_it,) = whole["runs"].to_pylist()
    assert all_of_it["put"] > runs["put"] + 100  # ~200 puts in the first 20 s
    assert pc.min(whole["throughput"]["t"]).as_py() < log.warmup_until
