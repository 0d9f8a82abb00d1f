"""BACKUP CFSTRUCT takes IBM's generic names ("BACKUP CFSTRUCT (back up a CF
application structure) on z/OS": "An asterisk (*) on its own specifies all recoverable
CF structures. A trailing asterisk (*) matches all recoverable structure names with the
specified stem"): before, `BACKUP CFSTRUCT(*)` was refused as a structure named "*"."""

from __future__ import annotations

from qsg import QMgr
from qsg.core.memstore import MemoryStore
from qsg.core.objects import CFStructure
from qsg.core.sharing import QueueSharingGroup
from qsg.mqsc import commands
from qsg.mqsc.status import take
from tests.claims import keeps


def _mqsc(qm: QMgr, text: str) -> commands.Reply:
    return commands.run(commands.parse(text), qm, lambda: take(qm, qm.time))


def _group() -> QMgr:
    qm = QMgr("QM1", qsg=QueueSharingGroup("QSG1", store=MemoryStore()))
    qm.define_structure(CFStructure("ORDERS1", cf_level=5, recover=True))
    qm.define_structure(CFStructure("ORDERS2", cf_level=5, recover=True))
    qm.define_structure(CFStructure("ORDERSNR", cf_level=5, recover=False))
    qm.define_structure(CFStructure("PRICES", cf_level=5, recover=True))
    qm.define_structure(CFStructure("OLD", cf_level=2, recover=True))
    return qm


def _backed_up(qm: QMgr) -> list[str]:
    assert qm.qsg is not None
    store = qm.qsg.shared.store
    return sorted(
        n for n in qm.qsg.shared.structures if store.structure_status(n).backup_at is not None
    )


@keeps("docs/coupling-facility.md", "`*` on its own backs up every recoverable structure")
def test_backup_cfstruct_star_backs_up_every_recoverable_structure() -> None:
    qm = _group()
    qm.time = 40.0
    reply = _mqsc(qm, "BACKUP CFSTRUCT(*)")
    assert not reply.failed, reply.text
    assert _backed_up(qm) == ["ORDERS1", "ORDERS2", "PRICES"]
    assert [line.split()[1] for line in reply.lines[:-1]] == [
        "CFSTRUCT(ORDERS1)",
        "CFSTRUCT(ORDERS2)",
        "CFSTRUCT(PRICES)",
    ]


@keeps("docs/coupling-facility.md", "a stem with a trailing `*` those of its names")
def test_backup_cfstruct_of_a_stem_backs_up_the_recoverable_structures_it_matches() -> None:
    qm = _group()
    qm.time = 40.0
    assert not _mqsc(qm, "BACKUP CFSTRUCT(ORD*)").failed
    assert _backed_up(qm) == ["ORDERS1", "ORDERS2"]
    none = _mqsc(qm, "BACKUP CFSTRUCT(NOSUCH*)")
    assert none.failed
    assert none.lines[0] == (
        "CSQM090E !QM1 CSQMBCFS CFSTRUCT(NOSUCH*): no recoverable CF structure matches "
        "NOSUCH* (MQRCCF 3236, STATUS NOT_FOUND)"
    )


@keeps("README.md", "and so do DISPLAY CONN and BACKUP, RESET and RECOVER CFSTRUCT")
def test_display_conn_and_backup_reset_and_recover_cfstruct_act_from_the_console() -> None:
    qm = _group()
    qm.time = 40.0
    assert qm.qsg is not None
    store = qm.qsg.shared.store
    assert not _mqsc(qm, "BACKUP CFSTRUCT(PRICES)").failed
    assert store.structure_status("PRICES").backup_at == 40.0
    assert not _mqsc(qm, "RESET CFSTRUCT(PRICES) ACTION(FAIL)").failed
    assert store.structure_status("PRICES").failed
    assert not _mqsc(qm, "RECOVER CFSTRUCT(PRICES)").failed
    assert not store.structure_status("PRICES").failed
    qm.connect()
    assert _mqsc(qm, "DISPLAY CONN(*)").lines[1].startswith("CSQM201I !QM1 CONN(")
