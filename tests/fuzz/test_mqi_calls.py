"""MQI calls through the pymqi facade (``qsg.pymqi``) as a careless or hostile program
makes them: MQOPEN, MQPUT, MQPUT1 and MQGET with any value in any field of MQOD, MQMD,
MQPMO and MQGMO (and any open options and buffer length), in a sequence. Each call
completes, or fails with an MQ completion and reason code (``MQMIError``; pymqi's own
``PYIFError``, or pymqi's ``struct.error`` for a value a field cannot hold, before
MQ sees it): never another Python
exception, never a hang, and in bounded memory (a 2 GiB buffer length allocates
nothing it has no message for). IBM: "MQI reason codes", "MQOPEN", "MQPUT", "MQGET".

One exception is kept out: a get with MQGMO_WAIT and WaitInterval MQWI_UNLIMITED on an
empty queue waits for ever, in MQ as here; a waiting get here is given at most 5 s.

The default run is short (``./dev test``); ``-m slow`` runs the long one.
"""

from __future__ import annotations

import contextlib
import faulthandler
import struct
import time
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import qsg
from actors.topology import Topology
from qsg import pymqi
from qsg.commands.exec.runner import facade_bound
from qsg.core import structs as core
from qsg.pymqi import CMQC
from tests.bounds import memory_bound
from tests.claims import keeps

QUEUE = "TEST.1"
ALTERNATE = CMQC.MQOO_ALTERNATE_USER_AUTHORITY
MQLONG = st.one_of(
    st.sampled_from([0, 1, -1, 2, 4, 2**31 - 1, -(2**31), 9, 10, 65535, 0x7FFFFFFF]),
    st.integers(-(2**31), 2**31 - 1),
)


def _options(prefix: str) -> st.SearchStrategy[int]:
    """Any MQLONG, or an OR of IBM's named options ``prefix``*."""
    named = sorted(
        {v for k, v in vars(CMQC).items() if k.startswith(prefix) and isinstance(v, int)}
    )
    flags = st.lists(st.sampled_from(named), max_size=4).map(lambda vs: _or(vs))
    return st.one_of(flags, MQLONG)


def _or(values: list[int]) -> int:
    out = 0
    for v in values:
        out |= v
    return out


def _field(kind: Any, name: str) -> st.SearchStrategy[Any]:
    if kind == "l":
        return _options(_PREFIX[name]) if name in _PREFIX else MQLONG
    if kind == "ch":
        return st.integers(0, 255)
    size = kind[1]
    named = [
        b"",
        b"AMQ.*",
        QUEUE.encode(),
        b"QM1",
        b"QSG1",
        b"SYSTEM.ADMIN.COMMAND.QUEUE",
        b"SYSTEM.COMMAND.INPUT",
        CMQC.MQFMT_STRING,
        b"MD  ",
        b"\xff" * size,
    ]
    return st.one_of(st.sampled_from(named), st.binary(max_size=size + 2))


_PREFIX = {
    "Options": "",
    "Report": "MQRO_",
    "MatchOptions": "MQMO_",
    "MsgFlags": "MQMF_",
    "Persistence": "MQPER_",
    "MsgType": "MQMT_",
    "ObjectType": "MQOT_",
}


def _fields(struct: type[core.MQOpts], options: str) -> st.SearchStrategy[dict[str, Any]]:
    """A few of ``struct``'s fields, each any value of its kind."""
    strategies = {name: _field(kind, name) for name, _, kind in struct._fields}
    if "Options" in strategies:
        strategies["Options"] = _options(options)
    names = st.lists(st.sampled_from(sorted(strategies)), max_size=4, unique=True)
    return names.flatmap(
        lambda ns: st.fixed_dictionaries({n: strategies[n] for n in ns})  # type: ignore[misc]
    )


@dataclass(frozen=True)
class Call:
    verb: str  # open, put, put1, get
    od: dict[str, Any]
    md: dict[str, Any]
    opts: dict[str, Any]  # PMO or GMO
    open_options: int
    length: int | None
    body: bytes


CALLS = st.builds(
    Call,
    verb=st.sampled_from(["open", "put", "put1", "get"]),
    od=_fields(core.OD, "MQOO_"),
    md=_fields(core.MD, "MQRO_"),
    opts=st.one_of(_fields(core.PMO, "MQPMO_"), _fields(core.GMO, "MQGMO_")),
    open_options=_options("MQOO_"),
    length=st.one_of(st.none(), st.sampled_from([0, 1, -1, 2**31 - 1, 4 * 2**20]), MQLONG),
    body=st.binary(max_size=64),
)


def topology() -> Topology:
    t = Topology()
    t.add_qsg("QSG1", members=["QM1", "QM2"])
    t.mqsc("QM1", f"DEFINE CFSTRUCT(APP1)\nDEFINE QLOCAL({QUEUE}) QSGDISP(SHARED) CFSTRUCT(APP1)")
    t.add_qmgr("QM3", platform=CMQC.MQPL_UNIX)
    t.mqsc("QM3", f"DEFINE QLOCAL({QUEUE}) MAXMSGL(1000)")
    return t


def _struct(cls: type, fields: dict[str, Any]) -> Any:
    """``cls`` with ``fields`` as a program would set them; a field pymqi itself refuses
    is left at its default (that is pymqi's check, not the MQI's)."""
    out = cls()
    for name, value in fields.items():
        with contextlib.suppress(pymqi.PYIFError, TypeError, ValueError):
            out.set(**{name: value})
    return out


def _gmo(fields: dict[str, Any]) -> Any:
    gmo = _struct(pymqi.GMO, {k: v for k, v in fields.items() if k in pymqi.GMO().get()})
    if gmo.Options & CMQC.MQGMO_WAIT and not 0 <= gmo.WaitInterval <= 5000:
        gmo.WaitInterval = 5000  # MQWI_UNLIMITED waits for ever, in MQ too
    return gmo


def _call(qmgr: Any, queue: Any, call: Call) -> None:
    md = _struct(pymqi.MD, call.md)
    od = _struct(pymqi.OD, {"ObjectName": QUEUE.encode(), **call.od})
    pmo = _struct(pymqi.PMO, {k: v for k, v in call.opts.items() if k in pymqi.PMO().get()})
    if call.verb == "open":
        pymqi.Queue(qmgr, od, call.open_options).close()
    elif call.verb == "put":
        queue.put(call.body, md, pmo)
    elif call.verb == "put1":
        qmgr.put1(od, call.body, md, pmo)
    else:
        queue.get(call.length, md, _gmo(call.opts))


def _reason(qmgr: Any, queue: Any, call: Call) -> int:
    """The reason code ``call`` completes with (0: none; -1: pymqi refused it: a
    ``PYIFError``, or the ``struct.error`` pymqi's pack() raises for a value its field
    cannot hold, such as b"" for a 1-byte field)."""
    failure: pymqi.MQMIError | None = None
    try:
        _call(qmgr, queue, call)
    except pymqi.MQMIError as error:
        failure = error
    except (pymqi.PYIFError, struct.error):
        return -1
    if failure is None:
        return 0
    assert failure.comp in (CMQC.MQCC_WARNING, CMQC.MQCC_FAILED), failure
    assert 2000 <= failure.reason <= 6999, failure  # IBM's MQRC_* range
    return int(failure.reason)


def run_calls(q_mgr: str, calls: list[Call]) -> list[int]:
    """``calls`` by a program connected to ``q_mgr``, in a started world: the reason of
    each (0: it completed), within 60 s and 256 MiB."""
    reasons: list[int] = []

    def body() -> None:
        qmgr = pymqi.connect(q_mgr)
        queue = pymqi.Queue(qmgr, QUEUE, CMQC.MQOO_INPUT_SHARED | CMQC.MQOO_OUTPUT)
        # Out of syncpoint: on z/OS a put with neither option is in syncpoint.
        queue.put(b"seed message", pymqi.MD(), pymqi.PMO(Options=CMQC.MQPMO_NO_SYNCPOINT))
        for call in calls:
            reasons.append(_reason(qmgr, queue, call))
        qmgr.disconnect()

    async def main() -> None:
        async with (
            qsg.start(topology(), in_process=True) as world,
            facade_bound(world, virtual=True),
        ):
            body()

    started = time.monotonic()
    faulthandler.dump_traceback_later(120, exit=True)  # a hang: every thread's stack
    try:
        with memory_bound():
            qsg.run(main)
    finally:
        faulthandler.cancel_dump_traceback_later()
    assert time.monotonic() - started < 60
    return reasons


def test_a_get_with_a_buffer_of_two_gibibytes_allocates_only_the_message() -> None:
    # MQGET "BufferLength": the length of the buffer the program gives; a message longer
    # is MQRC_TRUNCATED_MSG_FAILED. The length is no reason to allocate that much.
    get = Call("get", {}, {}, {}, 0, 2**31 - 1, b"")
    assert run_calls("QM1", [get, get]) == [0, CMQC.MQRC_NO_MSG_AVAILABLE]


STRATEGY = dict(
    q_mgr=st.sampled_from(["QM1", "QM3"]), calls=st.lists(CALLS, min_size=1, max_size=8)
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**STRATEGY)
@example(q_mgr="QM3", calls=[Call("put", {}, {"Priority": 20}, {}, 0, None, b"x")])
@example(q_mgr="QM1", calls=[Call("put1", {"ObjectName": b"\xff" * 48}, {}, {}, 0, None, b"")])
@example(  # an alternate user id that is not text: was a UnicodeDecodeError out of MQOPEN
    q_mgr="QM3",
    calls=[
        Call("open", {"AlternateUserId": b"\x80"}, {}, {}, ALTERNATE | CMQC.MQOO_OUTPUT, None, b"")
    ],
)
@keeps(
    "docs/security.md",
    (
        "Any call, with any value in any field of MQOD, MQMD, MQPMO and MQGMO, completes or fails "
        "with an MQ reason code"
    ),
)
def test_every_mqi_call_with_any_field_values_completes_or_gives_a_reason_code(
    q_mgr: str, calls: list[Call]
) -> None:
    assert len(run_calls(q_mgr, calls)) == len(calls)


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**STRATEGY)
def test_many_mqi_calls_with_any_field_values_complete_or_give_reason_codes(
    q_mgr: str, calls: list[Call]
) -> None:
    assert len(run_calls(q_mgr, calls)) == len(calls)
