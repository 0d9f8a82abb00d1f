"""Every shipped scenario runs (some shortened), and its summary and events show what the
scenario's own header says to look for.

The checks are made from the events, message by message, where the header makes a claim
about messages (which expired, what Expiry arrived), and from the summary where it makes
one about totals, so a broken rule shows up as a named message or a wrong count.
"""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path

import pytest

from actors.events import (
    ChannelDelivered,
    ExpiryScanned,
    LeaseChanged,
    MessageGot,
    MessagePut,
    ReplyReceived,
)
from qsg.commands.pipeline.sweep_file import load_sweep
from qsg.core.events import Discarded, ReportPut
from qsg.scenario import load_scenario
from qsg.scenario.play import RunResult, load_script, run_scenario
from tests.claims import keeps

SCENARIOS = Path(__file__).parent.parent / "scenarios"


def play(name: str, cf_url: str, duration: float | None = None) -> RunResult:
    scenario = load_scenario(SCENARIOS / name)
    if duration is not None:
        scenario = dataclasses.replace(
            scenario, run=dataclasses.replace(scenario.run, duration=duration)
        )
    return run_scenario(scenario, redis_url=cf_url)


def left_at_end(result: RunResult, scope_queue: str) -> int:
    """The last sampled depth of a queue (the run samples once more at its end)."""
    from actors.events import DepthSampled

    samples = [e for e in result.events if isinstance(e, DepthSampled) and e.queue == scope_queue]
    return samples[-1].depth


def is_sweep(path: Path) -> bool:
    return "vary" in tomllib.loads(path.read_text())


def test_every_shipped_scenario_is_valid() -> None:
    toml = sorted(SCENARIOS.glob("*.toml"))
    assert len(toml) + len(list(SCENARIOS.glob("*.py"))) >= 6
    for path in toml:
        if is_sweep(path):  # a qsg sweep file: its base scenario and every point load
            assert load_sweep(path).description, f"{path.name} says what it demonstrates"
            continue
        scenario = load_scenario(path)
        assert scenario.description, f"{path.name} says what it demonstrates"
        assert path.read_text().startswith("#"), f"{path.name} opens with what it shows"


@pytest.mark.slow
def test_shared_queue_expiry_expires_exactly_the_messages_no_getter_reached_in_time(
    cf_url: str,
) -> None:
    # "Expiry (MQLONG)": an expired message is never returned; it is discarded by the get
    # or browse that meets it or by the scan, and a report is made for each discard.
    result = play("shared-queue-expiry.toml", cf_url, duration=40)
    puts = {
        e.msg_id: e for e in result.events if isinstance(e, MessagePut) and e.queue == "APP.ORDERS"
    }
    got = {
        e.msg_id: e.time
        for e in result.events
        if isinstance(e, MessageGot) and e.queue == "APP.ORDERS"
    }
    expired = {
        e.msg_id: e.time
        for e in result.events
        if isinstance(e, Discarded) and e.queue == "APP.ORDERS"
    }
    assert expired, "some orders expired: the getter is slower than the putter"
    for msg_id, time in got.items():
        assert time < puts[msg_id].time + 3.0 + 1e-9, f"{msg_id!r} was got after it expired"
    for msg_id, time in expired.items():
        assert time >= puts[msg_id].time + 3.0 - 0.1, f"{msg_id!r} was discarded before expiry"
    row = result.summary.queue("QSG1", "APP.ORDERS")
    left = left_at_end(result, "APP.ORDERS")
    assert row["put"] == len(puts) == row["got"] + row["expired"] + left
    reports = [e for e in result.events if isinstance(e, ReportPut)]
    assert row["reports"] == row["expired"] == len(reports)
    assert {e.queue for e in reports} == {"APP.REPORTS"}  # none went to a dead-letter queue
    assert row["latency_p99"] < 3.0
    assert [lease["holder"] for lease in result.summary.leases] == ["QM1"]


@pytest.mark.slow
def test_request_reply_answers_every_request_through_dynamic_reply_queues(cf_url: str) -> None:
    result = play("request-reply.toml", cf_url, duration=15)
    (row,) = result.summary.requesters
    assert row["requests"] == row["replies"] > 0 and row["timeouts"] == 0
    replies = [e for e in result.events if isinstance(e, ReplyReceived)]
    assert all(e.queue.startswith("PRICE.") for e in replies)  # the generated names
    assert len({e.queue for e in replies}) == 4  # one reply queue per requester
    # Replies from QM2's server went by the transmission queue and the channel.
    sent = result.summary.queue("QM2", "QM1")["put"]
    delivered = result.summary.channels[0]["delivered"]
    # All delivered but what was still on the transmission queue or in a batch on the
    # way when the run stopped (at most a batch, BATCHSZ(10), at these rates).
    assert sent > 0 and sent - 10 <= delivered <= sent


@pytest.mark.slow
def test_remote_queue_expiry_arrives_counted_down_by_the_time_on_the_way(cf_url: str) -> None:
    # "Expiry (MQLONG)" note 9: both Expiry fields of a message on a transmission queue are
    # decremented; the one that arrives is the put Expiry less the time spent.
    result = play("remote-queue-expiry.toml", cf_url, duration=90)
    put = {e.msg_id: e for e in result.events if isinstance(e, MessagePut)}
    delivered = [e for e in result.events if isinstance(e, ChannelDelivered)]
    assert delivered
    waited_long = 0
    for d in delivered:
        elapsed_tenths = (d.time - put[d.msg_id].time) * 10
        counted = put[d.msg_id].expiry - d.expiry
        # Whole tenths are counted at each of the two hops (the transmission queue, the
        # transit), so up to two partial tenths go uncounted, never more.
        assert elapsed_tenths - 2 < counted <= elapsed_tenths + 1e-6, d
        waited_long += elapsed_tenths > 50  # those held while the channel was stopped
    assert waited_long > 0
    xmitq = result.summary.queue("QM1", "QM3")
    assert xmitq["expired"] > 0 and xmitq["reports"] == xmitq["expired"]
    assert result.summary.queue("QM3", "APP.IN")["latency_p99"] < 20.0


@pytest.mark.slow
def test_expiry_scan_failover_has_one_scanner_at_a_time_and_a_new_token(cf_url: str) -> None:
    # "Expired messages on z/OS": shared queues are scanned by only one queue manager of the QSG;
    # if it terminates, another takes over.
    result = play("expiry-scan-failover.toml", cf_url)
    leases = [e for e in result.events if isinstance(e, LeaseChanged)]
    assert [(e.q_mgr, e.token) for e in leases[:1]] == [("QM1", 1)]
    assert len(leases) == 2 and leases[1].q_mgr in ("QM2", "QM3") and leases[1].token == 2
    assert 40 < leases[1].time <= 50  # within the 10 s lease of QM1's last renewal
    holder_at = lambda t: [e for e in leases if e.time <= t][-1].q_mgr  # noqa: E731
    scans = [e for e in result.events if isinstance(e, ExpiryScanned) and e.shared]
    assert scans and all(e.q_mgr == holder_at(e.time) for e in scans)
    row = result.summary.queue("QSG1", "APP.AUDIT")
    assert row["got"] == 0
    assert row["expired"] == row["put"] - left_at_end(result, "APP.AUDIT")
    assert result.summary.totals["kills"] == result.summary.totals["restarts"] == 1


@pytest.mark.slow
def test_the_capacity_run_balances_puts_and_gets_across_members(cf_url: str) -> None:
    result = play("capacity.toml", cf_url, duration=20)
    rows = {row["q_mgr"]: row for row in result.summary.qmgrs}
    assert sorted(rows) == ["QM1", "QM2", "QM3", "QM4"]
    for row in rows.values():
        assert 300 < row["put"] < 900 and row["got"] > 0  # 30/s for 20 s, in units of 10
    queue = result.summary.queue("QSG1", "APP.PAYMENTS")
    assert queue["got"] == queue["put"] - left_at_end(result, "APP.PAYMENTS")
    assert 0 < queue["latency_p50"] <= queue["latency_p99"]
    # Persistent, committed every 10 and 5: nothing expired, nothing dead-lettered.
    assert queue["expired"] == queue["dead_lettered"] == 0


def test_the_groups_script_resumes_the_group_after_the_restart(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # IBM, "Putting and getting a group that spans units of work": "If all the units of
    # work have been committed, the entire group has been put successfully, and the STATUS
    # queue is empty."
    result = run_scenario(load_script(SCENARIOS / "groups-across-restart.py"))
    out = capsys.readouterr().out
    assert "group as read: m1 m2 m3 m4 m5 m6 m7 m8 m9 m10 m11 m12 (1 GroupId)" in out
    assert "STATUS depth: 0" in out
    row = result.summary.queue("QM1", "APP.GROUPS")
    assert (row["put"], row["got"]) == (13, 12)  # message 9's first put was backed out
    assert result.summary.totals["kills"] == result.summary.totals["restarts"] == 1


@keeps("README.md", "one seed draws every random choice of a run")
@keeps("docs/scenarios.md", "then the same seed gives exactly the same events")
def test_a_seeded_in_process_run_repeats_exactly() -> None:
    # One seed, one run: the same events (in process, trio's scheduling is seeded too).
    scenario = load_scenario(SCENARIOS / "shared-queue-expiry.toml")
    scenario = dataclasses.replace(
        scenario, run=dataclasses.replace(scenario.run, duration=10, in_process=True)
    )
    first, second = run_scenario(scenario), run_scenario(scenario)
    assert first.events == second.events and first.summary == second.summary
    other = run_scenario(scenario, seed=99)
    assert other.events != first.events


@pytest.mark.slow
def test_a_wall_clock_scenario_runs_its_workloads_from_its_own_start() -> None:
    # In wall-clock mode trio's clock does not start at 0: start, stop and fault times
    # count from the run's own beginning.
    from qsg.scenario import parse_scenario
    from tests.test_event_log import SMALL

    small = SMALL.replace("duration = 20", 'duration = 1.5\nclock = "wall"')
    result = run_scenario(parse_scenario(small, "wall.toml"))
    row = result.summary.queue("QSG1", "APP.SHARED")
    assert row["put"] >= 5 and row["got"] >= 1  # 10 a second for 1.5 s of real time
