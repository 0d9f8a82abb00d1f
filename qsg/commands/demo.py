"""A short tour of the MQ rules layer, in simulated time (``./dev run``).

Until the scenario runner exists (issue 7) this is the main job: one queue manager
defined in MQSC, a priority queue, messages that expire on the queue with expiration
reports, a unit of work backed out, a put to a remote queue whose two Expiry fields both
count down on the transmission queue, and a dynamic reply queue. Every line printed
comes from the engine, not from this script's own arithmetic.
"""

from __future__ import annotations

from qsg import CMQC, GMO, MD, OD, PMO, MQMIError, QMgr
from qsg.core.events import Event
from qsg.core.handle import Handle
from qsg.core.layouts import read_inner_expiry
from qsg.mqsc import load

NO_SYNC = PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)
DEFINITIONS = """\
DEFINE QLOCAL(APP.ORDERS) MAXDEPTH(100) MSGDLVSQ(PRIORITY)
DEFINE QLOCAL(APP.REPLIES)
DEFINE QLOCAL(QM3) USAGE(XMITQ)
DEFINE QREMOTE(TO.QM3) RNAME(APP.IN) RQMNAME(QM3) XMITQ(QM3)
DEFINE QMODEL(REPLY.MODEL) DEFTYPE(TEMPDYN)
"""


def curdepth(handle: Handle) -> int:
    """MQINQ of MQIA_CURRENT_Q_DEPTH."""
    value = handle.inquire(CMQC.MQIA_CURRENT_Q_DEPTH)
    assert isinstance(value, int)
    return value


def main() -> None:
    events: list[Event] = []
    qm = QMgr("QM1", on_event=events.append)
    load(qm, DEFINITIONS, source="demo.mqsc")
    print(f"MQSC: {DEFINITIONS.strip().count(chr(10)) + 1} commands defined QM1's objects")
    conn = qm.connect(user="demo", appl_name="qsg demo")
    orders = conn.open("APP.ORDERS", CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED | CMQC.MQOO_INQUIRE)

    print("t=0s    put 4 orders: priority 9 expires in 2s (asks for an expiration report),")
    print("        priority 5 unlimited, priority 5 expires in 60s, priority 1 unlimited")
    for body, priority, expiry in [
        (b"urgent", 9, 20),
        (b"normal-a", 5, -1),
        (b"normal-b", 5, 600),
        (b"bulk", 1, -1),
    ]:
        md = MD(
            Priority=priority,
            Expiry=expiry,
            ReplyToQ=b"APP.REPLIES",
            Report=CMQC.MQRO_EXPIRATION_WITH_DATA if expiry == 20 else 0,
        )
        orders.put(body, md, NO_SYNC, now=0.0)
    print(f"        CURDEPTH {curdepth(orders)}")

    print("t=5s    the urgent order has expired but nobody looked: still counted in depth")
    print(f"        CURDEPTH {curdepth(orders)}, reports so far {qm.depth('APP.REPLIES')}")

    md = MD()
    body = orders.get(None, md, GMO(Options=CMQC.MQGMO_SYNCPOINT), now=5.0)
    print(
        f"t=5s    MQGET in syncpoint -> {body.decode()!r} (the expired head was discarded"
        f" on the way; report put at once, outside the unit of work)"
    )
    print(
        f"        remaining Expiry {md.Expiry}, CURDEPTH "
        f"{curdepth(orders)}, reports {qm.depth('APP.REPLIES')}"
    )
    conn.backout()
    md = MD()
    orders.get(None, md, GMO(Options=CMQC.MQGMO_NO_SYNCPOINT), now=6.0)
    print(f"t=6s    backed out and got again: BackoutCount {md.BackoutCount}")

    md = MD()
    body = orders.get(None, md, GMO(Options=CMQC.MQGMO_NO_SYNCPOINT), now=30.0)
    print(f"t=30s   MQGET -> {body.decode()!r}, remaining Expiry {md.Expiry} tenths (of 600)")

    replies = conn.open("APP.REPLIES", CMQC.MQOO_INPUT_SHARED)
    rmd = MD()
    data = replies.get(None, rmd, GMO(Options=CMQC.MQGMO_NO_SYNCPOINT), now=30.0)
    print(
        f"        the expiration report: MsgType {rmd.MsgType} (MQMT_REPORT), Feedback "
        f"{rmd.Feedback} (MQFB_EXPIRATION), data {data!r}"
    )

    conn.put1("TO.QM3", b"to QM3", MD(Expiry=300), NO_SYNC, now=30.0)
    xmit = conn.open("QM3", CMQC.MQOO_INPUT_SHARED)
    md = MD()
    data = xmit.get(None, md, GMO(Options=CMQC.MQGMO_NO_SYNCPOINT), now=42.5)
    print(
        f"t=42.5s a message 12.5s on the transmission queue: outer Expiry {md.Expiry}, "
        f"MQXQH Expiry {read_inner_expiry(data, md.Encoding)} (both were 300)"
    )

    od = OD(ObjectName=b"REPLY.MODEL", DynamicQName=b"DEMO.*")
    reply_q = conn.open(od, CMQC.MQOO_INPUT_EXCLUSIVE)
    print(f"t=45s   MQOPEN of a model queue made {reply_q.name}, a temporary dynamic queue;")
    reply_q.close()
    print(f"        MQCLOSE deleted it: {qm.find(reply_q.name) is None}")

    try:
        orders.put(b"bad", MD(Expiry=0), NO_SYNC, now=50.0)
    except MQMIError as error:
        print(f"t=50s   put with Expiry 0 -> {error}")
    kinds = ", ".join(sorted({type(e).__name__ for e in events}))
    print(f"        events: {len(events)} ({kinds})")


if __name__ == "__main__":
    main()
