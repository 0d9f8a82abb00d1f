"""The lease election on the simulator's clock, on a real server (issue 5).

One holder at a time; a renewal keeps the token and any acquisition raises it; takeover
once the holder stops renewing; release on a clean stop; a paused holder that wakes
after its lease ran out is refused when it scans (its token is stale). Shared queues
"are scanned by only one queue manager in a queue sharing group" (IBM, "Expired
messages on z/OS").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import coupling.store
from coupling.lease import EXPIRY_SCAN, Grant, Refusal
from coupling.scripts import SCAN, Script
from coupling.store import RedisStore
from qsg import CMQC, QMgr
from qsg.core.events import Discarded, Event
from qsg.core.lease import Fence, MemberLease
from qsg.core.memstore import MemoryStore
from qsg.core.objects import CFStructure
from qsg.core.sharing import QueueSharingGroup
from qsg.core.store import MessageStore, StaleFenceError
from tests.claims import keeps
from tests.helpers import ALL, put

LENGTH = 10.0


def lease(store: MessageStore, member: str, role: str = EXPIRY_SCAN) -> MemberLease:
    return store.lease(role, member, LENGTH)


@pytest.fixture(params=["memory", "redis"])
def a_store(request: pytest.FixtureRequest) -> Callable[[], MessageStore]:
    """The election's rules are the same whichever store keeps the lease: each test runs
    on the in-process store (``qsg.core.lease.LocalLease``) and on the facility's."""
    if request.param == "memory":
        return MemoryStore
    make: Callable[[], MessageStore] = request.getfixturevalue("redis_store")
    return make


def granted(answer: Grant | Refusal) -> Grant:
    assert isinstance(answer, Grant), answer
    return answer


@keeps("docs/coupling-facility.md", "The lease on a role: one holder at a time")
def test_one_holder_at_a_time(a_store: Callable[[], MessageStore]) -> None:
    store = a_store()
    a, b = lease(store, "QM1"), lease(store, "QM2")
    first = granted(a.acquire(0.0))
    assert first.acquired and first.token == 1 and first.previous is None
    refused = b.acquire(5.0)
    assert isinstance(refused, Refusal)
    assert (refused.holder, refused.token, refused.expires) == ("QM1", 1, LENGTH)


@keeps("docs/coupling-facility.md", "renewed by its holder (same token)")
def test_a_renewal_keeps_the_token_and_moves_the_expiry(
    a_store: Callable[[], MessageStore],
) -> None:
    a = lease(a_store(), "QM1")
    granted(a.acquire(0.0))
    renewed = granted(a.acquire(8.0))
    assert not renewed.acquired and renewed.token == 1 and renewed.expires == 18.0


@keeps("docs/coupling-facility.md", "taken over once it runs out (new token)")
def test_another_member_takes_over_once_the_holder_stops_renewing(
    a_store: Callable[[], MessageStore],
) -> None:
    store = a_store()
    a, b = lease(store, "QM1"), lease(store, "QM2")
    granted(a.acquire(0.0))
    assert isinstance(b.acquire(9.9), Refusal)
    took = granted(b.acquire(10.0))  # the lease ran out at 10.0
    assert took.acquired and took.token == 2 and took.previous == "QM1"


def test_the_old_holder_gets_a_new_token_after_its_lease_ran_out(
    a_store: Callable[[], MessageStore],
) -> None:
    a = lease(a_store(), "QM1")
    granted(a.acquire(0.0))
    again = granted(a.acquire(30.0))
    assert again.acquired and again.token == 2


@keeps("docs/coupling-facility.md", "released on a clean stop.")
def test_a_clean_stop_releases_the_lease_for_the_next_member_at_once(
    a_store: Callable[[], MessageStore],
) -> None:
    store = a_store()
    a, b = lease(store, "QM1"), lease(store, "QM2")
    grant = granted(a.acquire(0.0))
    assert a.release(grant)
    took = granted(b.acquire(1.0))
    assert took.token == 2 and took.previous is None
    assert not a.release(grant)  # no longer QM1's to give up


def test_roles_are_independent(a_store: Callable[[], MessageStore]) -> None:
    store = a_store()
    granted(lease(store, "QM1").acquire(0.0))
    other = granted(lease(store, "QM2", role="CHANNEL.INITIATOR").acquire(0.0))
    assert other.token == 1


@pytest.fixture
def scanner(redis_store: Callable[[], RedisStore]) -> tuple[QMgr, RedisStore]:
    """A member with a shared queue holding one message that expires at 1.0."""
    store = redis_store()
    qm = QMgr("QM1", qsg=QueueSharingGroup("QSG1", store=store))
    qm.define_structure(CFStructure("APP1"))
    qm.define_queue("Q", qsg_disp=CMQC.MQQSGD_SHARED, cf_struct="APP1")
    put(qm.connect().open("Q", ALL), b"short-lived", 0.0, Expiry=10)
    return qm, store


@keeps(
    "docs/coupling-facility.md",
    "the facility refuses a stale one (`StaleFenceError`), so a member that paused past its "
    "lease cannot scan.",
)
@keeps(
    "docs/mq-rules.md",
    (
        "Shared queues are scanned by one queue manager of the group at a time; when it ends, "
        "another takes over. qsg holds that role with a lease and fences the scan with its token."
    ),
)
def test_a_paused_holder_that_wakes_after_a_takeover_cannot_scan(
    scanner: tuple[QMgr, RedisStore],
) -> None:
    qm, store = scanner
    paused = granted(lease(store, "QM1").acquire(0.0))
    granted(lease(store, "QM2").acquire(12.0))  # QM1 slept through its lease
    with pytest.raises(StaleFenceError) as refused:
        qm.scan_expired(12.5, shared=True, fence=paused.fence)
    assert refused.value.current == 2
    assert qm.depth("Q") == 1  # nothing was discarded under the stale token


def test_a_holder_whose_lease_ran_out_cannot_scan_even_before_a_takeover(
    scanner: tuple[QMgr, RedisStore],
) -> None:
    qm, store = scanner
    paused = granted(lease(store, "QM1").acquire(0.0))
    with pytest.raises(StaleFenceError):
        qm.scan_expired(10.0, shared=True, fence=paused.fence)


@keeps(
    "docs/coupling-facility.md",
    "if the lease is lost between two, the error carries what the earlier batches discarded "
    "(`.discarded`), and `QMgr.scan_expired` accounts for those (events, expiration reports) "
    "before it raises.",
)
def test_a_lease_lost_between_two_batches_of_a_scan_still_accounts_for_the_first(
    scanner: tuple[QMgr, RedisStore], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A scan proves its lease batch by batch. Taken over between two batches, it stops
    # there; the first batch's messages are gone from the queue all the same, so their
    # discards (and any expiration reports) must still be accounted for, not lost.
    monkeypatch.setattr(coupling.store, "SCAN_BATCH", 2)
    qm, store = scanner
    seen: list[Event] = []
    qm.on_event = seen.append
    h = qm.connect().open("Q", ALL)
    for body in (b"b", b"c", b"d", b"e"):
        put(h, body, 0.0, Expiry=10)  # expire at 1.0, with the scanner's own message
    holder = granted(lease(store, "QM1").acquire(0.0))
    scans = 0
    run = store.transport.run

    def taken_over_after_the_first_batch(script: Script, keys: Any, args: Any) -> Any:
        nonlocal scans
        if script is SCAN:
            scans += 1
            if scans == 2:
                granted(lease(store, "QM2").acquire(10.0))  # QM1's lease ran out at 10.0
        return run(script, keys, args)

    monkeypatch.setattr(store.transport, "run", taken_over_after_the_first_batch)
    with pytest.raises(StaleFenceError) as refused:
        qm.scan_expired(5.0, shared=True, fence=holder.fence)
    assert len(refused.value.discarded) == 2
    discards = [e for e in seen if isinstance(e, Discarded)]
    assert [e.msg_id for e in discards] == [m.msg_id for m in refused.value.discarded]
    assert qm.depth("Q") == 3  # the second batch discarded nothing


def test_the_holder_scans_with_its_current_token(scanner: tuple[QMgr, RedisStore]) -> None:
    qm, store = scanner
    holder = granted(lease(store, "QM1").acquire(0.0))
    assert qm.scan_expired(5.0, shared=True, fence=holder.fence) == 1
    assert qm.depth("Q") == 0


@settings(
    max_examples=40,
    deadline=None,
    # a_store is a factory: each example makes its own store, nothing carries over.
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    steps=st.lists(
        st.tuples(
            st.sampled_from(("QM1", "QM2", "QM3")),
            st.sampled_from(("acquire", "acquire", "release")),
            st.sampled_from((0.0, 1.0, 4.0, 10.0, 11.0)),
        ),
        max_size=30,
    )
)
def test_at_most_one_holder_and_tokens_only_grow(
    a_store: Callable[[], MessageStore], steps: list[tuple[str, str, float]]
) -> None:
    store = a_store()  # a fresh one for every example
    now, holder, expires, token = 0.0, None, 0.0, 0
    grants: dict[str, Grant] = {}
    for member, action, advance in steps:
        now += advance
        ours = lease(store, member)
        if action == "release":
            if member in grants and ours.release(grants.pop(member)):
                holder = None
            continue
        answer = ours.acquire(now)
        if isinstance(answer, Grant):
            # Only a free lease, one that ran out, or one's own is granted.
            assert holder in (None, member) or expires <= now
            # A renewal keeps the token; every acquisition raises it.
            assert answer.token == (token + 1 if answer.acquired else token)
            holder, expires, token = member, answer.expires, answer.token
            grants[member] = answer
        else:
            assert answer.holder == holder and answer.expires > now


@pytest.mark.parametrize("length", [0.0, -1.0])
def test_a_lease_s_length_must_be_positive_in_either_store(
    a_store: Callable[[], MessageStore], length: float
) -> None:
    # A lease that runs out the moment it is granted could never be renewed: refused
    # when the member's lease is made, naming the role and the length.
    with pytest.raises(ValueError, match=f"lease {EXPIRY_SCAN}: its length must be positive"):
        a_store().lease(EXPIRY_SCAN, "QM1", length)
    assert a_store().lease(EXPIRY_SCAN, "QM1", 0.5).length == 0.5


def test_a_grant_and_a_refusal_name_the_role_and_a_renewal_is_no_acquisition(
    a_store: Callable[[], MessageStore],
) -> None:
    # A renewal keeps the holder's token and is not a new acquisition (acquired False,
    # the previous holder the member itself); a refusal names the role and its holder.
    store = a_store()
    a, b = lease(store, "QM1"), lease(store, "QM2")
    granted(a.acquire(0.0))
    renewed = granted(a.acquire(1.0))
    assert (renewed.role, renewed.acquired, renewed.previous) == (EXPIRY_SCAN, False, "QM1")
    refused = b.acquire(2.0)
    assert isinstance(refused, Refusal) and refused.role == EXPIRY_SCAN


def test_a_grant_from_before_a_lapse_cannot_release_the_member_s_new_lease(
    a_store: Callable[[], MessageStore],
) -> None:
    # Release gives up the lease only for the grant that holds it now: the same member's
    # grant from before its lease ran out (an older token) releases nothing.
    store = a_store()
    a, b = lease(store, "QM1"), lease(store, "QM2")
    old = granted(a.acquire(0.0))
    new = granted(a.acquire(30.0))  # ran out at 10.0: a new token
    assert new.token == old.token + 1
    assert not a.release(old)
    assert isinstance(b.acquire(31.0), Refusal)


def test_a_fence_of_a_role_never_leased_is_stale_with_no_current_token(
    a_store: Callable[[], MessageStore],
) -> None:
    # A fence is good only against its lease as it stands: for a role nobody ever held
    # the store refuses it, and says there is no current token.
    store = a_store()
    with pytest.raises(StaleFenceError) as stale:
        store.check_fence(Fence("NEVER.HELD", 1), 0.0)
    assert stale.value.current is None


def test_a_stale_fence_s_refusal_names_the_current_token(
    a_store: Callable[[], MessageStore],
) -> None:
    # After a takeover the old holder's fence is refused naming the new grant's token.
    store = a_store()
    old = granted(lease(store, "QM1").acquire(0.0))
    new = granted(lease(store, "QM2").acquire(12.0))
    with pytest.raises(StaleFenceError) as stale:
        store.check_fence(old.fence, 12.0)
    assert stale.value.current == new.token == 2
