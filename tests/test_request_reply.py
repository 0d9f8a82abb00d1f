"""The request/reply pattern of IBM's "Dynamic queues" ("Uses of dynamic queues"): a client
creates a dynamic reply-to queue, names it in ReplyToQ, a server replies to it, and the
client closes it with the delete option. The reply copies the request's remaining
expiry, as "Expiry (MQLONG)" note 7 allows."""

from __future__ import annotations

import pytest

from qsg import CMQC, GMO, MD, OD, PMO, MQMIError, QMgr
from qsg.core.queue import QueueDefinition
from tests.helpers import ALL

# The contract suite: each test runs on the in-process store and on the coupling facility's.
pytestmark = pytest.mark.usefixtures("each_store")


NO_SYNC_GET = GMO(Options=CMQC.MQGMO_NO_SYNCPOINT)


def test_a_client_gets_its_reply_on_a_dynamic_queue_it_then_deletes() -> None:
    qm = QMgr("QM1")
    qm.define_queue("APP.REQUESTS")
    qm.define(
        QueueDefinition(
            "APP.REPLY.MODEL",
            q_type=CMQC.MQQT_MODEL,
            definition_type=CMQC.MQQDT_PERMANENT_DYNAMIC,
        )
    )
    client, server = qm.connect("client"), qm.connect("server")

    # The client: "Create a dynamic queue. Supply its name in the ReplyToQ field of the
    # message descriptor structure of the request message. Place the request on a queue
    # being processed by a server."
    od = OD(ObjectName=b"APP.REPLY.MODEL", DynamicQName=b"CLIENT1.*")
    replies = client.open(od, CMQC.MQOO_INPUT_EXCLUSIVE)
    request = MD(MsgType=CMQC.MQMT_REQUEST, ReplyToQ=od.ObjectName, Expiry=300)
    client.put1(
        "APP.REQUESTS", b"what time is it", request, PMO(Options=CMQC.MQPMO_NO_SYNCPOINT), now=0.0
    )
    assert request.ReplyToQMgr == b"QM1"  # filled in by the queue manager

    # The server, 10 s later, replies with the remaining expiry of the request (note 7:
    # "Copy the remaining expiry time from the request message to the reply message").
    inbox = server.open("APP.REQUESTS", CMQC.MQOO_INPUT_SHARED)
    got = MD()
    assert inbox.get(None, got, NO_SYNC_GET, now=10.0) == b"what time is it"
    assert got.Expiry == 200 and got.MsgType == CMQC.MQMT_REQUEST
    reply = MD(MsgType=CMQC.MQMT_REPLY, CorrelId=got.MsgId, Expiry=got.Expiry)
    to = OD(ObjectName=got.ReplyToQ, ObjectQMgrName=got.ReplyToQMgr)
    server.put1(to, b"ten past", reply, PMO(Options=CMQC.MQPMO_SYNCPOINT), now=10.0)
    server.commit()

    # "The server can then place the reply message on the reply-to queue. Finally, the
    # client could process the reply, and close the reply-to queue with the delete option."
    answer = MD(CorrelId=request.MsgId)
    gmo = GMO(Options=CMQC.MQGMO_NO_SYNCPOINT, MatchOptions=CMQC.MQMO_MATCH_CORREL_ID)
    assert replies.get(None, answer, gmo, now=15.0) == b"ten past"
    assert answer.Expiry == 150  # 300 tenths, less 10 s on the request and 5 s here
    replies.close(CMQC.MQCO_DELETE)
    assert qm.find(od.ObjectName.decode()) is None
    with pytest.raises(MQMIError, match=r"MQRC_UNKNOWN_OBJECT_NAME \(2085\)"):
        server.open(od.ObjectName, ALL)
