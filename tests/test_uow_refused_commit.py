"""A unit of work whose commit one store refuses, in process (issue 45).

The coupling facility's store may refuse a commit (``commit_may_refuse``: the structure
failed under the unit of work, and its commit backs the work out and answers
MQRC_BACKED_OUT). ``UnitOfWork`` asks that store first, so that a refusal finds nothing
committed anywhere and the other stores back out with it: IBM's MQCMIT, "If the unit of
work cannot be committed ... the queue manager backs out the unit of work" with
MQRC_BACKED_OUT (2003). These tests wrap the in-process store as one that refuses,
as no test built one before (a Redis store was needed to see it).
"""

from __future__ import annotations

import pytest

from qsg import CMQC, MD, MQMIError
from qsg.core.memstore import MemoryStore
from qsg.core.message import Message
from qsg.core.store import Ordering, UowId
from qsg.core.uow import UnitOfWork


class _Refusing(MemoryStore):
    """The in-process store as a facility whose commit may refuse: ``refusal`` set, its
    commit backs the unit of work out (with MQRC_BACKED_OUT, as the facility does) or
    answers another reason and changes nothing."""

    commit_may_refuse = True

    def __init__(self) -> None:
        super().__init__()
        self.refusal = 0

    def commit(self, uow: UowId) -> None:
        if self.refusal == CMQC.MQRC_BACKED_OUT:
            self.backout(uow)
        if self.refusal:
            raise MQMIError.failed(self.refusal, "refused")
        super().commit(uow)


def _store(store: MemoryStore) -> MemoryStore:
    store.create_queue("Q", Ordering.FIFO)
    return store


def _put(store: MemoryStore, uow: UnitOfWork) -> None:
    store.put("Q", Message(MD().get(), b"x", 0.0, None, 0), uow.id, 100)
    uow.add(store, 1.0, persistent=False)


def test_a_store_whose_commit_may_refuse_is_committed_first_whenever_it_joins() -> None:
    plain, other, refusing = MemoryStore(), MemoryStore(), _Refusing()
    uow = UnitOfWork("uow", lambda: 7)
    for store in (plain, other, refusing, plain):
        uow.enlist(store)
    assert uow.stores == [refusing, plain, other]


def test_a_refused_commit_backs_the_unit_of_work_out_in_every_store() -> None:
    # MQCMIT: the unit of work cannot be committed; every store backs it out, 2003.
    plain, refusing = _store(MemoryStore()), _store(_Refusing())
    uow = UnitOfWork("uow", lambda: 7)
    _put(plain, uow)
    _put(refusing, uow)
    refusing.refusal = CMQC.MQRC_BACKED_OUT
    with pytest.raises(MQMIError) as refused:
        uow.commit()
    assert refused.value.reason == CMQC.MQRC_BACKED_OUT
    assert (plain.depth("Q"), plain.uncommitted("Q")) == (0, 0)
    assert (refusing.depth("Q"), refusing.uncommitted("Q")) == (0, 0)
    assert (uow.stores, uow.count, uow.recovery_id) == ([], 0, 0)


def test_a_commit_refused_for_another_reason_leaves_the_unit_of_work_in_flight() -> None:
    # Only MQRC_BACKED_OUT says the store backed the work out; another reason (the
    # facility's connection lost, 2548) leaves the unit of work for MQBACK to end.
    plain, refusing = _store(MemoryStore()), _store(_Refusing())
    uow = UnitOfWork("uow", lambda: 7)
    _put(plain, uow)
    _put(refusing, uow)
    refusing.refusal = CMQC.MQRC_CF_STRUC_FAILED
    with pytest.raises(MQMIError) as refused:
        uow.commit()
    assert refused.value.reason == CMQC.MQRC_CF_STRUC_FAILED
    assert (plain.uncommitted("Q"), refusing.uncommitted("Q")) == (1, 1)
    assert (uow.stores, uow.count) == ([refusing, plain], 2)


def test_a_second_refusing_store_refusing_after_the_first_committed_backs_nothing_out() -> None:
    # The first store has committed: backing out would undo nothing there, so the
    # refusal is passed on as it is and the unit of work is not ended.
    first, second = _store(_Refusing()), _store(_Refusing())
    uow = UnitOfWork("uow", lambda: 7)
    _put(second, uow)
    _put(first, uow)
    assert uow.stores == [first, second]
    second.refusal = CMQC.MQRC_BACKED_OUT
    with pytest.raises(MQMIError) as refused:
        uow.commit()
    assert refused.value.reason == CMQC.MQRC_BACKED_OUT
    assert (first.depth("Q"), first.uncommitted("Q")) == (1, 0)
    assert uow.count == 2
