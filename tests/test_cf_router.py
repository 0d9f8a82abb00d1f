"""Each coupling facility its own store (issue 48, "More than one facility").

A group with several facilities keeps each facility's structures in that facility's
store (its own in-process store, or its own server), and a router in front of them
(``qsg.core.router``) sends each call to the store of the facility holding the queue's
structure now. These tests hold the pieces: a unit of work spanning two refusing stores
commits in two phases, the router answers as one store, and a facility's loss moves
its structures the same way in process and on servers.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from coupling.store import RedisStore
from qsg import CMQC
from qsg.core.errors import MQMIError
from qsg.core.message import Message
from qsg.core.store import Ordering
from qsg.core.uow import UnitOfWork


def _message(body: bytes, persistent: bool = True) -> Message:
    desc = {
        "MsgId": body.ljust(24, b"\0"),
        "CorrelId": b"\0" * 24,
        "GroupId": b"\0" * 24,
        "MsgSeqNumber": 1,
        "Offset": 0,
        "MsgFlags": 0,
        "Persistence": CMQC.MQPER_PERSISTENT if persistent else CMQC.MQPER_NOT_PERSISTENT,
    }
    return Message(desc, body, 0.0, None, 0)


def _structure_queue(store: RedisStore, structure: str, queue: str) -> None:
    store.define_structure(structure, size_kb=1024, cf_level=5)
    store.create_queue(queue, Ordering.PRIORITY, structure)


def test_a_unit_of_work_on_two_refusing_stores_commits_in_neither_when_the_second_lost_it(
    redis_store: Callable[[], RedisStore],
) -> None:
    """MQCMIT: MQRC_BACKED_OUT (2003) "the unit of work has been backed out", whole: with
    two facilities' stores in one unit of work, a structure's failure under the one
    committed second must not leave the first one's work committed alone."""
    first, second = redis_store(), redis_store()
    _structure_queue(first, "APP1", "Q1")
    _structure_queue(second, "APP2", "Q2")
    uow = UnitOfWork(("QM1", 1), lambda: 1)
    for store, queue in ((second, "Q2"), (first, "Q1")):
        store.put(queue, _message(b"m"), uow.id, 100)
        uow.add(store, 0.0, persistent=True)
    assert uow.stores == [first, second]  # the refusing stores, the last enlisted first
    second.fail_structure("APP2", 1.0)
    with pytest.raises(MQMIError, match=r"MQRC_BACKED_OUT \(2003\): CF structure APP2 failed"):
        uow.commit()
    assert first.depth("Q1") == 0
