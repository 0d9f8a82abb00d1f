"""Depth sampling goes on while a member is paused.

A run samples every application queue's CURDEPTH each ``sample_interval`` (the
DepthSampled events the summary's peak depth and the report's depth chart read). A
paused queue manager answers nothing, but the others do: their queues, and the QSG's
shared queues through a member that is up, are sampled on time throughout the pause.
(Found by issue 42's figures work: the sampler waited on the paused member, so no queue
was sampled until it was back, a peak could be missed, and one statistics interval
stretched over the whole pause.)
"""

from __future__ import annotations

from actors.events import DepthSampled, QMgrStatistics
from qsg.scenario.load import parse_scenario
from qsg.scenario.play import run_scenario
from tests.claims import keeps

PAUSED = """
description = "a member paused while the others are sampled"
[run]
duration = 40
seed = 3
in_process = true
sample_interval = 2
[qsg.QSG1]
members = ["QM1", "QM2", "QM3"]
mqsc = '''
DEFINE CFSTRUCT(APP1) CFLEVEL(5)
DEFINE QLOCAL(APP.SHARED) QSGDISP(SHARED) CFSTRUCT(APP1)
'''
[qmgr.QM1]
mqsc = "DEFINE QLOCAL(APP.LOCAL)"
[qmgr.QM2]
[qmgr.QM3]
[[workload]]
name = "shared"
type = "putter"
qmgr = "QM1"
queue = "APP.SHARED"
rate = 5
[[workload]]
name = "local"
type = "putter"
qmgr = "QM1"
queue = "APP.LOCAL"
rate = 5
[[fault]]
at = 20
action = "pause"
qmgr = "QM1"
duration = 7
"""


@keeps(
    "docs/scenarios.md",
    "A queue manager that is down or paused is left out of the samples it cannot answer "
    "(its QSG's shared queues are sampled through another member)",
)
def test_while_a_member_is_paused_the_others_and_the_shared_queues_are_sampled_on_time() -> None:
    events = run_scenario(parse_scenario(PAUSED, "<paused>")).events
    shared = sorted(e.time for e in events if isinstance(e, DepthSampled) and e.shared)
    local = sorted(
        e.time
        for e in events
        if isinstance(e, DepthSampled) and e.queue == "APP.LOCAL" and e.q_mgr == "QM1"
    )
    # The shared queue every 2 s through the pause (sampled by QM2 or QM3 meanwhile).
    for at in (22.0, 24.0, 26.0):
        assert at in shared, (at, shared)
    # QM1's own queue is not sampled while it is paused, and is again after.
    assert not [t for t in local if 20.0 < t < 27.0], local
    assert any(28.0 <= t <= 30.0 for t in local), local
    # Each member's statistics interval stays the sample interval long (the last, the
    # run's end, may be shorter): none stretched over the pause.
    intervals = [e.interval for e in events if isinstance(e, QMgrStatistics)]
    assert max(intervals) <= 2.0 + 1e-9, max(intervals)
