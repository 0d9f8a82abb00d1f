"""The event log says what the queue manager decided, not what the options suggest: a
get with MQGMO_SYNCPOINT_IF_PERSISTENT takes a persistent message in the unit of work
and a nonpersistent one outside it (IBM MQ, MQGMO options: SYNCPOINT_IF_PERSISTENT
"the request is to operate within the normal unit-of-work protocols" only "if the
message is persistent"), and a MessageGot row says so."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
import pytest
import trio

import qsg
from actors.clock import VirtualClock
from actors.events import MessageGot, MessagePut
from actors.topology import Topology
from qsg import CMQC, GMO, MD, PMO, MQMIError
from qsg.scenario import eventlog
from qsg.scenario.summary import Scopes
from tests.claims import keeps

NO_SYNC = PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)
IF_PERSISTENT = CMQC.MQGMO_SYNCPOINT_IF_PERSISTENT
PERSISTENCES = [CMQC.MQPER_PERSISTENT, CMQC.MQPER_NOT_PERSISTENT] * 3


async def run(path: Path, platform: int) -> list[tuple[bytes, bool]]:
    """Put persistent and nonpersistent messages, get each with SYNCPOINT_IF_PERSISTENT,
    back the unit of work out, and write the event log; returns each get's MsgId and
    whether the call took it in the unit of work (it came back at MQBACK)."""
    topology = Topology()
    topology.add_qmgr("QM1", platform=platform)
    topology.mqsc("QM1", "DEFINE QLOCAL(APP.IN)")
    async with qsg.start(topology, in_process=True) as world:
        conn = await world.connect("QM1")
        q = await conn.open("APP.IN", CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED)
        for persistence in PERSISTENCES:
            await q.put(b"m", MD(Persistence=persistence), NO_SYNC)
        got = []
        for _ in PERSISTENCES:
            md = MD()
            await q.get(None, md, GMO(Options=IF_PERSISTENT))
            got.append(md.MsgId)
        await conn.backout()
        back = []
        while True:
            md = MD()
            try:
                await q.get(None, md, GMO(Options=CMQC.MQGMO_NO_SYNCPOINT))
            except MQMIError:
                break
            back.append(md.MsgId)
        eventlog.write(path, list(world.events), Scopes())
    return [(msg_id, msg_id in back) for msg_id in got]


def rows(path: Path, kind: str) -> list[dict[str, object]]:
    table = pq.read_table(path).to_pylist()
    return [row for row in table if row["kind"] == kind]


@keeps(
    "docs/events.md",
    "`syncpoint`: got in the unit of work, so false for a nonpersistent message got with "
    "MQGMO_SYNCPOINT_IF_PERSISTENT; `persistent`: the message's",
)
@keeps("docs/rules.md", "the event log's `put` and `get` rows say the same.")
def test_every_message_got_row_says_what_the_get_decided_about_its_unit_of_work(
    tmp_path: Path,
) -> None:
    for platform in (CMQC.MQPL_ZOS, CMQC.MQPL_UNIX):
        path = tmp_path / f"events-{platform}.parquet"
        calls = trio.run(run, path, platform, clock=VirtualClock())
        assert [in_uow for _, in_uow in calls] == [
            p == CMQC.MQPER_PERSISTENT for p in PERSISTENCES
        ]  # what the calls did: persistent ones in the unit of work, backed out
        persistent_ids = {row["msg_id"] for row in rows(path, MessagePut.kind) if row["persistent"]}
        got = [row for row in rows(path, MessageGot.kind) if row["syncpoint"] is not None]
        first = got[: len(calls)]
        assert [row["msg_id"] for row in first] == [msg_id for msg_id, _ in calls]
        for row, (msg_id, in_uow) in zip(first, calls, strict=True):
            assert row["syncpoint"] is in_uow, row
            assert row["persistent"] is (msg_id in persistent_ids), row
            assert row["browse"] is False
        # The gets after the backout were outside syncpoint, whatever they got.
        assert all(row["syncpoint"] is False for row in got[len(calls) :])
        assert len(got) == len(calls) + sum(in_uow for _, in_uow in calls)


@keeps("docs/events.md", "MQPUT or MQPUT1 that put a message, with MQCC_OK or a warning")
@keeps("docs/events.md", "MQGET that returned a message, with MQCC_OK or a warning")
@keeps("docs/rules.md", "the event log's `put` and `get` rows say the same.")
async def test_a_put_or_get_that_completes_with_a_warning_is_in_the_event_log(
    virtual_clock: VirtualClock,
) -> None:
    # A warning is MQCC_WARNING: the call did its work (MQRC_PRIORITY_EXCEEDS_MAXIMUM
    # puts the message; MQRC_TRUNCATED_MSG_ACCEPTED removes it), so its event is owed.
    topology = Topology()
    topology.add_qmgr("QM1")
    topology.mqsc("QM1", "DEFINE QLOCAL(APP.IN)")
    async with qsg.start(topology, in_process=True) as world:
        conn = await world.connect("QM1")
        q = await conn.open("APP.IN", CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED)
        put = MD(Priority=12, Persistence=CMQC.MQPER_PERSISTENT)
        with pytest.raises(MQMIError, match="MQRC_PRIORITY_EXCEEDS_MAXIMUM"):
            await q.put(b"abc", put, NO_SYNC)
        got = MD()
        options = CMQC.MQGMO_ACCEPT_TRUNCATED_MSG | CMQC.MQGMO_NO_SYNCPOINT
        with pytest.raises(MQMIError, match="MQRC_TRUNCATED_MSG_ACCEPTED"):
            await q.get(1, got, GMO(Options=options))
        puts = world.events.of(MessagePut)
        gets = world.events.of(MessageGot)
        assert [(e.msg_id, e.size, e.persistent, e.syncpoint) for e in puts] == [  # type: ignore[union-attr]
            (put.MsgId, 3, True, False)
        ]
        assert [(e.msg_id, e.size, e.persistent, e.syncpoint) for e in gets] == [  # type: ignore[union-attr]
            (put.MsgId, 1, True, False)
        ]
