"""The group's shared repository, in process and on the coupling facility's server: the
same calls give the same answers (IBM: "Managing group objects": one definition of each
GROUP object, in Db2, from which each member makes its COPY)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest

from actors.topology import Topology
from coupling.cleanup import delete_group
from coupling.repository import RedisRepositoryStore
from coupling.transport import BlockingTransport
from qsg import CMQC
from qsg.core.errors import MQMIError
from qsg.core.grouprepo import GroupRepository, MemoryRepositoryStore, decode, encode
from qsg.core.objects import AliasQueue, ChannelDefinition, ProcessDefinition
from qsg.core.queue import QueueDefinition
from qsg.core.sharing import QueueSharingGroup
from qsg.mqsc import MQSCError
from tests.claims import keeps

_groups = itertools.count(1)


@pytest.fixture(params=["memory", "redis"])
def repository(request: pytest.FixtureRequest) -> Iterator[GroupRepository]:
    if request.param == "memory":
        yield GroupRepository(MemoryRepositoryStore())
        return
    transport: BlockingTransport = request.getfixturevalue("cf_transport")
    name = f"R{next(_groups)}"
    yield GroupRepository(RedisRepositoryStore(transport, name))
    delete_group(transport, name)


GROUP = CMQC.MQQSGD_GROUP


@keeps(
    "docs/mqsc.md",
    "or on the CF's server under the group's own keys\n(`qsg:{QSG1}:r:QUEUE`",
)
def test_a_definition_read_back_equals_the_one_written_in_either_store(
    repository: GroupRepository,
) -> None:
    queue = QueueDefinition("APP.IN", max_depth=77, qsg_disp=GROUP, kept=(("STGCLASS", "X"),))
    alias = AliasQueue("APP.ALIAS", target="APP.IN", qsg_disp=GROUP)
    channel = ChannelDefinition("TO.QM3", CMQC.MQCHT_SENDER, xmit_q_name="QM3", qsg_disp=GROUP)
    repository.put("QUEUE", queue)
    repository.put("QUEUE", alias)
    repository.put("CHANNEL", channel)
    assert repository.get("QUEUE", "APP.IN") == queue
    assert repository.all("QUEUE") == {"APP.ALIAS": alias, "APP.IN": queue}
    assert repository.get("CHANNEL", "TO.QM3") == channel
    assert repository.get("PROCESS", "TO.QM3") is None


def test_a_deleted_definition_is_gone_and_a_second_delete_finds_nothing(
    repository: GroupRepository,
) -> None:
    repository.put("PROCESS", ProcessDefinition("P1", qsg_disp=GROUP))
    assert repository.delete("PROCESS", "P1")
    assert not repository.delete("PROCESS", "P1")
    assert repository.all("PROCESS") == {}


def test_group_objects_leave_out_the_shared_queues_kept_beside_them(
    repository: GroupRepository,
) -> None:
    shared = QueueDefinition("SQ", qsg_disp=CMQC.MQQSGD_SHARED, cf_struct="APP1")
    group = QueueDefinition("GQ", qsg_disp=GROUP)
    repository.put("QUEUE", shared)
    repository.put("QUEUE", group)
    assert repository.group_objects("QUEUE") == {"GQ": group}


def test_while_db2_is_unavailable_every_call_fails_with_2342(
    repository: GroupRepository,
) -> None:
    """MQRC_DB2_NOT_AVAILABLE (2342): "Db2 manager messages (CSQ5...)" and the
    reason-code list."""
    repository.unavailable = "repository_unavailable fault"
    with pytest.raises(MQMIError) as refused:
        repository.get("QUEUE", "X")
    assert refused.value.reason == CMQC.MQRC_DB2_NOT_AVAILABLE
    with pytest.raises(MQMIError):
        repository.put("QUEUE", QueueDefinition("X", qsg_disp=GROUP))
    repository.unavailable = ""
    assert repository.all("QUEUE") == {}


def test_a_row_holds_only_the_definition_records() -> None:
    with pytest.raises(TypeError, match=r"^a repository row cannot hold a dict$"):
        encode({"name": "X"})
    assert decode(encode(QueueDefinition("Q"))) == QueueDefinition("Q")


@keeps(
    "docs/mqsc.md",
    "a GROUP object another process already wrote\n  identically is no conflict",
)
def test_a_process_joining_a_running_group_replays_its_group_objects_without_conflict(
    cf_transport: BlockingTransport,
) -> None:
    """Each process of a multi-process run applies the whole topology's MQSC: the GROUP
    object the first one wrote is, identical, no "already defined" for the next, and
    every process's members get their copies; a different one still conflicts."""
    name = f"R{next(_groups)}"
    topology = Topology()
    topology.add_qsg(name, members=["QM1", "QM2"])
    topology.mqsc("QM1", "DEFINE QLOCAL(G) MAXDEPTH(5) QSGDISP(GROUP)")
    try:
        first = QueueSharingGroup(
            name, repository=GroupRepository(RedisRepositoryStore(cf_transport, name))
        )
        topology.build({name: first})
        second = QueueSharingGroup(
            name, repository=GroupRepository(RedisRepositoryStore(cf_transport, name))
        )
        second.repository.joining = True
        qmgrs = topology.build({name: second})
        assert qmgrs["QM2"].local.queues["G"].qsg_disp == CMQC.MQQSGD_COPY
        topology.mqsc("QM2", "DEFINE QLOCAL(G) MAXDEPTH(6) QSGDISP(GROUP)")
        third = QueueSharingGroup(
            name, repository=GroupRepository(RedisRepositoryStore(cf_transport, name))
        )
        third.repository.joining = True
        with pytest.raises(MQSCError, match=r"QLOCAL\(G\) QSGDISP\(GROUP\) is already defined"):
            topology.build({name: third})
    finally:
        delete_group(cf_transport, name)
