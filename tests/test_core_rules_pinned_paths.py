"""Rules-level tests of the paths a message takes through qsg/core (the router over the
coupling facilities' stores, the intra-group queuing agent, name resolution, the MQPUT
and MQGET engine, MQINQ on a handle): synchronous and fast, so that `./dev mutate`
(tests in `[tool.mutmut]`'s selection) can tell their mutants apart (issue 45). Each
names the MQ rule or the doc sentence it pins.
"""

from __future__ import annotations

from qsg import MD
from qsg.core.facilities import FAILED, KEPT, Move, Placement
from qsg.core.memstore import MemoryStore
from qsg.core.message import Message
from qsg.core.objects import CFStructure
from qsg.core.router import Router
from qsg.core.store import Ordering


def _msg(body: bytes = b"m") -> Message:
    desc = MD(Persistence=1, MsgId=body[:24].ljust(24, b"\0")).get()
    return Message(desc, body, 0.0, None, 0)


def _router(*structures: CFStructure) -> Router:
    facilities = ("CF01", "CF02", "CF03")
    definitions = {s.name: s for s in structures}
    router = Router(
        Placement(facilities), {f: MemoryStore() for f in facilities}, MemoryStore(), definitions.get
    )
    for s in structures:
        router.define_structure(s.name, size_kb=1024, cf_level=5)
        router.create_queue(f"Q.{s.name}", Ordering.FIFO, s.name)
    return router


# ---- router: a coupling facility's server dies ----------------------------------------
def test_a_crashed_facility_fails_the_units_of_work_with_work_on_a_structure_left_there() -> None:
    # "Handling failure of a coupling facility": a duplexed structure carries on in its
    # other instance; any other structure stays in the failed facility, and a unit of
    # work with work on it can no longer commit (it is backed out, MQRC_BACKED_OUT).
    plain = CFStructure("APP1", recover=True, preference=("CF01", "CF02"))
    duplex = CFStructure("DUP1", recover=True, duplex=True, preference=("CF01", "CF02"))
    router = _router(plain, duplex)
    assert router.placement.secondary == {"DUP1": "CF02"}
    router.put("Q.APP1", _msg(b"plain"), "u1", 10)
    router.put("Q.DUP1", _msg(b"dup"), "u2", 10)
    moves = router.crash("CF01")
    assert sorted(moves, key=lambda m: m.structure) == [
        Move("APP1", FAILED, "CF01"),
        Move("DUP1", KEPT, "CF02"),
    ]
    assert router.placement.primary == {"APP1": "CF01", "DUP1": "CF02"}
    assert "CF01" not in router.placement.alive
    assert router.backed_out("u1") == (
        "coupling facility CF01 failed while the unit of work had work in it"
    )
    assert router.backed_out("u2") is None
    # The duplexed structure's unit of work lives on in its survivor only.
    assert router.prepare("u2") is None
    router.commit("u2")
    assert router.store_of("CF02").depth("Q.DUP1") == 1
    assert router.store_of("CF01").uncommitted("Q.DUP1") == 1  # the dead one, untouched
