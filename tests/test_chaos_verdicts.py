"""A chaos campaign's verdicts judge by the run's final state, and say when a checker had
nothing to judge (issue 42): the same checkers as ``qsg exec --check``.

docs/chaos.md, "The checkers": a message still on a queue at the end is not lost (the
drain reads what it can; what it could not is read from the stores); a checker that had
nothing to judge is "not exercised"; the faults line says which scheduled faults
happened.
"""

from __future__ import annotations

from click.testing import CliRunner

from qsg.chaos import checkers
from qsg.chaos.campaign import run_one
from qsg.commands.cli import main
from qsg.scenario.load import parse_scenario
from tests.claims import keeps

#: Orders on a persistent shared queue; receipts on one whose gets are inhibited
#: (GET(DISABLED)): no MQGET can read them, the drain's included.
SCENARIO = """\
description = "a campaign target with a queue nobody can get from"

[run]
duration = 40
seed = 1
in_process = true

[qsg.QSG1]
members = ["QM1", "QM2"]
mqsc = \"\"\"
DEFINE QLOCAL(APP.WORK) QSGDISP(SHARED) CFSTRUCT(APP1) DEFPSIST(YES)
DEFINE QLOCAL(APP.RECEIPTS) QSGDISP(SHARED) CFSTRUCT(APP1) DEFPSIST(YES) GET(DISABLED)
\"\"\"

[qsg.QSG1.structures.APP1]
size_kb = 65536
recover = true

[qmgr.QM1]
[qmgr.QM2]

[[workload]]
name = "orders"
type = "putter"
qmgr = "QM1"
queue = "APP.WORK"
rate = 5
syncpoint = 3

[[workload]]
name = "workers"
type = "getter"
qmgr = "QM2"
queue = "APP.WORK"
syncpoint = 2

[[workload]]
name = "receipts"
type = "putter"
qmgr = "QM2"
queue = "APP.RECEIPTS"
rate = 2
"""
SEED = 11


@keeps(
    "docs/chaos.md",
    "What the drain cannot read (a queue in use exclusively, or GET(DISABLED)) stays where it "
    "is, and the run's **final state**, read from the stores at its end without an MQGET, finds "
    'it there, so that "lost" is decidable: a message still on a queue is not lost.',
)
@keeps("docs/chaos.md", "or `not exercised` when the run held nothing for it to judge")
def test_messages_the_drain_cannot_get_are_remaining_not_lost_and_idle_checkers_say_so() -> None:
    """The receipts stay on APP.RECEIPTS (MQGET there fails with MQRC_GET_INHIBITED,
    2016): the drain leaves them, the final state finds them, and none is lost. Nothing
    in the scenario expires, asks for a report or reads a group: those checkers were
    not exercised."""
    outcome = run_one(parse_scenario(SCENARIO), SEED, keep=True)
    verdicts = {v.name: v for v in outcome.verdicts}
    assert outcome.ok, [(v.name, v.summary(), v.involved[:3]) for v in outcome.failed()]
    assert outcome.result is not None and outcome.result.final is not None
    left = [p for p in outcome.result.final.places.values() if p == "QSG1 APP.RECEIPTS"]
    queue = verdicts["queue"]
    assert queue.counts["lost"] == 0 and queue.counts["remaining"] == len(left) > 30
    assert {n: v.status for n, v in verdicts.items() if not v.exercised} == {
        "expiry": checkers.NOT_EXERCISED,
        "scan-lease": checkers.NOT_EXERCISED,
        "group-order": checkers.NOT_EXERCISED,
        "expiry-reports": checkers.NOT_EXERCISED,
    }
    faults = verdicts["faults"]
    assert faults.counts["scheduled"] == len(faults.notes) > 0
    assert faults.counts["happened"] > 0 and faults.notes[-1].startswith("heal at ")


@keeps("docs/chaos.md", "`qsg chaos`'s table counts the runs of each apart")
def test_the_campaign_table_counts_runs_not_exercised_apart(tmp_path: object) -> None:
    """``qsg chaos``'s table: per checker, runs ok, failed and not exercised."""
    from pathlib import Path

    path = Path(str(tmp_path)) / "receipts.toml"
    path.write_text(SCENARIO)
    done = CliRunner().invoke(main, ["chaos", str(path), "--replay", str(SEED)])
    assert done.exit_code == 0, done.output
    assert "runs not exercised" in done.output
    assert "group-order     not exercised" in done.output
