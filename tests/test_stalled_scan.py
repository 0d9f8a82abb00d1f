"""A lease holder that stalls mid-scan and wakes after its lease moved is refused, in
process and on Redis, even when it finds nothing to discard (issue 26).

docs/architecture.md: a scan carries its token and the script refuses a stale one; shared queues
are scanned by one member per lease ("Expired messages on z/OS"). The ``stall_scan``
fault pauses the expiry-scan lease holder with its scan begun; a peer takes the lease
over; the holder's scan then runs with the old token. On Redis the facility's scan
script fenced each queue it scanned, but a scan that found no queue worth scanning ran
no script and was recorded as a scan under the stale token: the chaos campaign on Redis
found it (run seed 695425565, once ``stall_scan`` existed).
"""

from __future__ import annotations

import threading

import pytest
import trio

import qsg
from actors.clock import VirtualClock
from actors.events import ExpiryScanned, FaultInjected, LeaseChanged
from actors.faults import inject
from qsg.chaos import checkers, history
from qsg.core import bugs
from qsg.scenario.model import Fault
from qsg.scenario.summary import Scopes
from tests.claims import keeps

SCOPES = Scopes({"QM1": "QSG1", "QM2": "QSG1"}, {"QSG1": ["APP.SHARED"]})


def _topology() -> qsg.Topology:
    """QM1 starts first and holds the expiry-scan lease (10 s: twice EXPRYINT); QM2
    scans too. APP.SHARED is empty: no queue is ever worth scanning."""
    topology = qsg.Topology()
    topology.add_qsg("QSG1", members=["QM1", "QM2"])
    topology.mqsc(
        "QM1",
        """
        ALTER QMGR EXPRYINT(5)
        DEFINE CFSTRUCT(APP1)
        DEFINE QLOCAL(APP.SHARED) QSGDISP(SHARED) CFSTRUCT(APP1)
    """,
    )
    topology.mqsc("QM2", "ALTER QMGR EXPRYINT(5)")
    return topology


async def _stall(redis_url: str | None) -> list[qsg.events.WorldEvent]:
    async with qsg.start(
        _topology(), in_process=redis_url is None, redis_url=redis_url, faults=True
    ) as world:
        await trio.sleep(3)
        await inject(world, "stall_scan", Fault(3.0, "stall_scan", amount=20.0))
        await trio.sleep(30)
        return list(world.events.history)


@pytest.mark.parametrize("where", ["in process", "redis"])
@keeps(
    "docs/edges.md",
    "A peer takes the lease over with a newer fencing token; when the holder wakes, its scan "
    "goes on with the old token, and the coupling facility must refuse it.",
)
@keeps(
    "docs/edges.md",
    "its `fault` event's `detail` names the member and the token it stalled with.",
)
@keeps(
    "docs/edges.md",
    "With the test-only switch that skips the fencing check (`qsg.core.bugs.SKIP_FENCING`) the "
    "stale scan runs and the `scan-lease` checker reports it",
)
@keeps(
    "docs/mq-rules.md",
    (
        "Shared queues are scanned by one queue manager of the group at a time; when it ends, "
        "another takes over. qsg holds that role with a lease and fences the scan with its token."
    ),
)
def test_a_holder_stalled_mid_scan_past_its_lease_is_refused_when_it_wakes(
    where: str, request: pytest.FixtureRequest
) -> None:
    url = None if where == "in process" else request.getfixturevalue("cf_url")
    events = trio.run(_stall, url, clock=VirtualClock())
    (stalled,) = [e for e in events if isinstance(e, FaultInjected) and e.action == "stall_scan"]
    assert stalled.detail == "QM1 stalled mid-scan under token 1 for 20 s"
    holders = [(e.q_mgr, e.token) for e in events if isinstance(e, LeaseChanged)]
    assert holders[:2] == [("QM1", 1), ("QM2", 2)]  # the lease moved during the stall
    scans = [e for e in events if isinstance(e, ExpiryScanned) and e.shared]
    assert not any(e.q_mgr == "QM1" and e.token == 1 and e.time >= 3 for e in scans)
    assert checkers.check_scans(history.read(events, SCOPES)).ok

    with bugs.injected(bugs.SKIP_FENCING):  # the scan the fencing refuses is caught
        events = trio.run(_stall, url, clock=VirtualClock())
    verdict = checkers.check_scans(history.read(events, SCOPES))
    assert not verdict.ok and verdict.involved == ["QM1@23 token 1"]


@keeps(
    "docs/edges.md",
    "a paused member is now woken to stop when a run ends, as a service manager sends "
    "SIGCONT after SIGTERM.",
)
def test_a_world_that_ends_while_a_member_is_paused_wakes_it_to_stop() -> None:
    """A member paused (SIGSTOP) when the run ends is woken to stop, as a service
    manager's stop sends SIGCONT after SIGTERM. Its clean-ups are shielded (its scanner
    gives its expiry-scan lease up): they waited for a resume that never came, and the
    run never ended (the chaos-facilities campaign, seed 48, run 135, whose SIGTERM
    could not end it either). The run plays in a thread, so that a hang fails the test
    instead of holding it."""
    events: list[qsg.events.WorldEvent] = []

    async def main() -> None:
        async with qsg.start(_topology(), in_process=True, faults=True) as world:
            await trio.sleep(3)
            await inject(world, "stall_scan", Fault(3.0, "stall_scan", amount=100.0))
            await trio.sleep(2)
            events.extend(world.events.history)

    done = threading.Event()
    threading.Thread(target=lambda: (qsg.run(main), done.set()), daemon=True).start()
    assert done.wait(30), "the world never ended"
    stalled = [e for e in events if isinstance(e, FaultInjected) and e.action == "stall_scan"]
    assert len(stalled) == 1 and stalled[0].detail.startswith("QM1 stalled mid-scan")
