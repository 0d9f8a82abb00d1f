"""One rule of fencing, whichever store keeps the lease (issue 29).

Holder-only work carries its grant's fencing token, and the store refuses it unless the
token is the lease's current one and the lease has not run out: "a member that paused
past its lease, and still believes it holds it, is refused rather than trusted"
(docs/mq-rules.md, the expiry scan of shared queues: IBM MQ, "Expired messages on
z/OS", shared queues are scanned by only one queue manager of the group at a time).
``qsg.core.lease.fence_holds`` is that rule; the in-process store's ``check_fence``, the
Redis store's, and the facility's scan script (in Lua) must all answer as it does.
"""

from __future__ import annotations

from collections.abc import Callable

from coupling.store import RedisStore
from qsg.core.lease import Fence, Grant, Refusal, fence_holds
from qsg.core.memstore import MemoryStore
from qsg.core.store import MessageStore, Ordering, StaleFenceError
from tests.claims import keeps

LENGTH = 10.0
ROLE = "EXPIRY.SCAN"


@keeps(
    "docs/mq-rules.md",
    (
        "Shared queues are scanned by one queue manager of the group at a time; when it ends, "
        "another takes over. qsg holds that role with a lease and fences the scan with its token."
    ),
)
def test_a_fence_holds_only_with_the_current_token_before_the_lease_runs_out() -> None:
    fence = Fence(ROLE, 2)
    assert fence_holds(fence, 2, 15.0, 14.9)
    assert not fence_holds(fence, 2, 15.0, 15.0)  # run out at its expiry exactly
    assert not fence_holds(fence, 3, 15.0, 1.0)  # a later grant took it over
    assert not fence_holds(fence, 1, 15.0, 1.0)  # an older token is no better
    assert not fence_holds(fence, 2, None, 1.0)  # given up (or never taken)
    assert not fence_holds(fence, None, None, 1.0)


def _granted(answer: Grant | Refusal) -> Grant:
    assert isinstance(answer, Grant), answer
    return answer


Judge = Callable[[Fence, float], bool]


def _story(store: MessageStore, holds: Judge) -> dict[str, bool]:
    """A lease's life in ``store``, with ``holds``'s verdict on a fence at each step."""
    a = store.lease(ROLE, "QM1", LENGTH)
    b = store.lease(ROLE, "QM2", LENGTH)
    verdicts = {"never taken": holds(Fence(ROLE, 1), 0.0)}
    first = _granted(a.acquire(0.0)).fence
    verdicts["granted"] = holds(first, 1.0)
    verdicts["at its expiry"] = holds(first, LENGTH)
    _granted(a.acquire(8.0))  # renewed: the same token, a later expiry
    verdicts["renewed"] = holds(first, 12.0)
    verdicts["run out"] = holds(first, 18.5)
    second = _granted(b.acquire(20.0)).fence
    verdicts["taken over, old"] = holds(first, 21.0)
    verdicts["taken over, new"] = holds(second, 21.0)
    assert b.release(_granted(b.acquire(22.0)))
    verdicts["given up"] = holds(second, 23.0)
    return verdicts


def _checked(store: MessageStore) -> Judge:
    def holds(fence: Fence, now: float) -> bool:
        try:
            store.check_fence(fence, now)
        except StaleFenceError:
            return False
        return True

    return holds


def _scanned(store: RedisStore) -> Judge:
    """The facility's own check, made by its scan script before a batch."""
    store.create_queue("Q", Ordering.FIFO)

    def holds(fence: Fence, now: float) -> bool:
        try:
            store.scan("Q", now, fence)
        except StaleFenceError:
            return False
        return True

    return holds


EXPECTED = {
    "never taken": False,
    "granted": True,
    "at its expiry": False,
    "renewed": True,
    "run out": False,
    "taken over, old": False,
    "taken over, new": True,
    "given up": False,
}


def test_the_in_process_store_fences_by_the_rule() -> None:
    store = MemoryStore()
    assert _story(store, _checked(store)) == EXPECTED


def test_the_coupling_facility_fences_by_the_same_rule(
    redis_store: Callable[[], RedisStore],
) -> None:
    store = redis_store()
    assert _story(store, _checked(store)) == EXPECTED


def test_the_scan_script_refuses_exactly_the_fences_the_rule_refuses(
    redis_store: Callable[[], RedisStore],
) -> None:
    store = redis_store()
    assert _story(store, _scanned(store)) == EXPECTED
