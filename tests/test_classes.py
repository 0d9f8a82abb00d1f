"""Per-class figures (qsg/scenario/classes.py): applications of several classes sharing
one queue each get their own row in the summary.

The rules pinned: a putter's row counts the messages it put (its connection's user
names it) and their latency from that first MQPUT to their MQGET by anyone; a
getter's row counts the messages it got; the rows of one queue add up to the queue's
row; a warm-up leaves out what the summary leaves out. And MQ's own rule the figures
show: on a queue delivering in priority order (MSGDLVSQ(PRIORITY), the default) a
priority 9 message waits less than a priority 0 one in the same queue.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from qsg.commands.cli import main
from qsg.commands.replicate import combine
from qsg.scenario import parse_scenario
from qsg.scenario.play import run_scenario
from tests.claims import keeps

MIXED = """\
[run]
duration = 120
seed = 5
in_process = true
{warmup}

[qsg.QSG1]
members = ["QM1", "QM2"]
mqsc = "DEFINE QLOCAL(APP.WORK) QSGDISP(SHARED) CFSTRUCT(APP1) MAXDEPTH(999999)"

[qsg.QSG1.structures.APP1]
size_kb = 65536
recover = true

[[workload]]
name = "bulk"
type = "putter"
qmgr = "QM1"
queue = "APP.WORK"
rate = 16
size = 1000
priority = 0
persistence = "nonpersistent"

[[workload]]
name = "urgent"
type = "putter"
qmgr = "QM2"
queue = "APP.WORK"
rate = 4
size = 30000
priority = 9
persistence = "persistent"

[[workload]]
name = "fast"
type = "getter"
qmgr = "QM1"
queue = "APP.WORK"
service = {{ dist = "exponential", mean = 0.05 }}

[[workload]]
name = "slow"
type = "getter"
qmgr = "QM2"
queue = "APP.WORK"
service = {{ dist = "exponential", mean = 0.2 }}
"""


def _rows(summary: object) -> dict[tuple[str, str], dict[str, object]]:
    return {(r["role"], r["workload"]): r for r in summary.classes}  # type: ignore[attr-defined]


@keeps("README.md", "each class of application sharing a queue")
def test_each_class_sharing_a_queue_has_its_own_figures_adding_up_to_the_queues():
    result = run_scenario(parse_scenario(MIXED.format(warmup="")))
    rows = _rows(result.summary)
    assert set(rows) == {("put", "bulk"), ("put", "urgent"), ("get", "fast"), ("get", "slow")}
    bulk, urgent = rows[("put", "bulk")], rows[("put", "urgent")]
    assert (bulk["size_mean"], bulk["persistent"]) == (1000, 0.0)
    assert (urgent["size_mean"], urgent["persistent"]) == (30000, 1.0)
    queue = result.summary.queue("QSG1", "APP.WORK")
    assert bulk["messages"] + urgent["messages"] == queue["put"]
    assert rows[("get", "fast")]["messages"] + rows[("get", "slow")]["messages"] == queue["got"]
    # The faster getter gets more: it is back at the queue four times as often.
    assert rows[("get", "fast")]["messages"] > 2 * rows[("get", "slow")]["messages"]
    # 20 a second on 25 a second of service: a queue forms, and priority 9 messages go
    # to the head of it (MSGDLVSQ(PRIORITY)); most of either find a getter waiting.
    assert urgent["latency_mean"] < bulk["latency_mean"] / 2
    assert urgent["latency_p99"] < bulk["latency_p99"] / 2


def test_a_classs_latency_is_its_own_messages_put_to_get():
    result = run_scenario(parse_scenario(MIXED.format(warmup="")))
    rows = _rows(result.summary)
    queue = result.summary.queue("QSG1", "APP.WORK")
    # Every get is one getter's: the getters' latencies are the queue's, split, so the
    # queue's mean is theirs weighted by their gets.
    weights = {w: rows[("get", w)]["messages"] for w in ("fast", "slow")}
    pooled = sum(rows[("get", w)]["latency_mean"] * n for w, n in weights.items())
    assert pooled / sum(weights.values()) == pytest.approx(queue["latency_mean"])


def test_a_warm_up_leaves_the_first_seconds_out_of_each_class_too():
    whole = _rows(run_scenario(parse_scenario(MIXED.format(warmup=""))).summary)
    warmed = _rows(run_scenario(parse_scenario(MIXED.format(warmup="warmup = 60"))).summary)
    for key, row in warmed.items():
        assert 0 < row["messages"] < whole[key]["messages"]


def test_replications_give_each_class_its_interval():
    one = run_scenario(parse_scenario(MIXED.format(warmup=""))).summary.to_json()
    two = run_scenario(parse_scenario(MIXED.format(warmup="")), seed=6).summary.to_json()
    combined = combine([one, two])["classes"]
    assert {(r["role"], r["workload"]) for r in combined} == set(
        _rows(run_scenario(parse_scenario(MIXED.format(warmup=""))).summary)
    )
    assert all(r["messages"]["n"] == 2 for r in combined)


def test_qsg_run_prints_the_classes_of_a_shared_queue(tmp_path):
    path = tmp_path / "mixed.toml"
    path.write_text(MIXED.format(warmup="").replace("duration = 120", "duration = 20"))
    result = CliRunner().invoke(main, ["run", str(path), "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "Classes" in result.output and "urgent" in result.output
