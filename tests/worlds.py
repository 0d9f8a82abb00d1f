"""Topologies the world tests share."""

from __future__ import annotations

from actors.costs import Costs
from actors.topology import Topology

QM1_DEFINITIONS = """
    ALTER QMGR EXPRYINT(5)
    DEFINE CFSTRUCT(APP1) CFLEVEL(5)
    DEFINE QLOCAL(APP.SHARED) QSGDISP(SHARED) CFSTRUCT(APP1) MSGDLVSQ(PRIORITY)
    DEFINE QLOCAL(APP.REPLIES)
    DEFINE QLOCAL(QM3) USAGE(XMITQ)
    DEFINE QREMOTE(TO.QM3) RNAME(APP.IN) RQMNAME(QM3) XMITQ(QM3)
    DEFINE QREMOTE(TO.NOWHERE) RNAME(NO.SUCH.QUEUE) RQMNAME(QM3) XMITQ(QM3)
    DEFINE CHANNEL(QM1.TO.QM3) CHLTYPE(SDR) CONNAME('QM3') XMITQ(QM3) BATCHSZ(10)
"""
QM3_DEFINITIONS = """
    DEFINE QLOCAL(APP.IN)
    DEFINE CHANNEL(QM1.TO.QM3) CHLTYPE(RCVR)
"""


def qsg_and_qm3(costs: Costs | None = None, *, qm2_expiry: int | None = 5) -> Topology:
    """QSG1 of QM1 and QM2 sharing APP.SHARED; QM3 outside it, reached by a channel."""
    topology = Topology(costs)
    topology.add_qsg("QSG1", members=["QM1", "QM2"])
    topology.add_qmgr("QM3")
    topology.mqsc("QM1", QM1_DEFINITIONS, source="qm1.mqsc")
    if qm2_expiry:
        topology.mqsc("QM2", f"ALTER QMGR EXPRYINT({qm2_expiry})", source="qm2.mqsc")
    topology.mqsc("QM3", QM3_DEFINITIONS, source="qm3.mqsc")
    return topology
