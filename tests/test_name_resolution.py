"""What MQOPEN's names resolve to: local, alias and remote queues, queue-manager
aliases and transmission queues, with IBM's open-time reason codes ("Name resolution"
in IBM MQ's Application Programming guide; "Expiry (MQLONG)" note 9, the MQXQH)."""

from __future__ import annotations

import pytest

from qsg import CMQC, MD, OD, PMO, XQH, MQMIError, QMgr
from qsg.core.authority import Authority
from qsg.core.layouts import read_inner_expiry
from qsg.core.objects import AliasQueue, CFStructure, RemoteQueue
from qsg.core.sharing import QueueSharingGroup
from tests.claims import keeps
from tests.helpers import ALL, get, put

# The contract suite: each test runs on the in-process store and on the coupling facility's.
pytestmark = pytest.mark.usefixtures("each_store")


OUT = CMQC.MQOO_OUTPUT


@pytest.fixture
def qm() -> QMgr:
    qm = QMgr("QM1")
    qm.define_queue("APP.LOCAL", def_priority=2)
    qm.define_queue("QM3", usage=CMQC.MQUS_TRANSMISSION)
    qm.define_queue("TO.ANYWHERE", usage=CMQC.MQUS_TRANSMISSION)
    qm.define(AliasQueue("APP.ALIAS", target="APP.LOCAL", def_priority=7))
    qm.define(RemoteQueue("TO.QM3", remote_name="APP.IN", remote_q_mgr_name="QM3", def_priority=5))
    return qm


def read_back(qm: QMgr, queue: str) -> tuple[bytes, MD]:
    return get(qm.connect().open(queue, ALL), 1.0)


@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_UNKNOWN_OBJECT_NAME | a queue that is not defined (on a distributed platform, also "
        "one logically deleted)"
    ),
)
def test_an_unknown_name_gives_unknown_object_name(qm: QMgr) -> None:
    with pytest.raises(MQMIError, match=r"MQRC_UNKNOWN_OBJECT_NAME \(2085\)"):
        qm.connect().open("NO.SUCH.QUEUE", OUT)


# ---- alias queues ---------------------------------------------------------------------
@keeps(
    "docs/mq-rules.md",
    "An alias resolves to its base queue, with the alias's own defaults and inhibits.",
)
@keeps("docs/objects.md", "An alias gives its own DEFPRTY, DEFPSIST and PUT/GET inhibits")
def test_a_put_through_an_alias_lands_on_its_base_with_the_alias_defaults(qm: QMgr) -> None:
    h = qm.connect().open("APP.ALIAS", OUT | CMQC.MQOO_INQUIRE)
    assert h.name == "APP.LOCAL"
    put(h, b"via alias", 0.0)
    body, md = read_back(qm, "APP.LOCAL")
    assert body == b"via alias" and md.Priority == 7  # the alias's DEFPRTY, not the base's 2


@keeps("docs/objects.md", "MQINQ on an alias or a remote definition answers for that definition.")
def test_mqinq_on_an_alias_answers_for_the_alias_itself(qm: QMgr) -> None:
    h = qm.connect().open("APP.ALIAS", CMQC.MQOO_INQUIRE)
    assert h.inquire(CMQC.MQIA_Q_TYPE) == CMQC.MQQT_ALIAS
    assert h.inquire(CMQC.MQCA_BASE_Q_NAME) == b"APP.LOCAL".ljust(48)
    with pytest.raises(MQMIError, match=r"MQRC_SELECTOR_NOT_FOR_TYPE \(2068\)"):
        h.inquire(CMQC.MQIA_CURRENT_Q_DEPTH)


@keeps(
    "docs/mq-rules.md",
    "An alias resolves to its base queue, with the alias's own defaults and inhibits.",
)
@keeps(
    "docs/reason-codes.md",
    "MQRC_GET_INHIBITED | MQGET on a queue (or through an alias) with GET(DISABLED)",
)
@keeps("docs/objects.md", "An alias gives its own DEFPRTY, DEFPSIST and PUT/GET inhibits")
def test_an_alias_inhibits_puts_and_gets_of_its_own(qm: QMgr) -> None:
    qm.define(
        AliasQueue("APP.ALIAS", target="APP.LOCAL", inhibit_put=1, inhibit_get=1), replace=True
    )
    h = qm.connect().open("APP.ALIAS", ALL)
    with pytest.raises(MQMIError, match=r"MQRC_PUT_INHIBITED \(2051\)"):
        put(h, b"x", 0.0)
    put(qm.connect().open("APP.LOCAL", OUT), b"direct", 0.0)  # the base still takes puts
    with pytest.raises(MQMIError, match=r"MQRC_GET_INHIBITED \(2016\)"):
        get(h, 1.0)


@keeps(
    "docs/reason-codes.md",
    "MQRC_ALIAS_BASE_Q_TYPE_ERROR | MQOPEN of an alias whose TARGET is not a local or remote queue",
)
@keeps("docs/reason-codes.md", "MQRC_UNKNOWN_ALIAS_BASE_Q | an alias whose TARGET is not defined")
def test_an_alias_whose_base_is_missing_or_not_a_queue_fails_to_open(qm: QMgr) -> None:
    qm.define(AliasQueue("TO.NOWHERE", target="MISSING"))
    qm.define(AliasQueue("TO.ALIAS", target="APP.ALIAS"))
    qm.define(AliasQueue("TO.MODEL", target="SYSTEM.DEFAULT.MODEL.QUEUE"))
    conn = qm.connect()
    with pytest.raises(MQMIError, match=r"MQRC_UNKNOWN_ALIAS_BASE_Q \(2082\)"):
        conn.open("TO.NOWHERE", OUT)
    for name in ("TO.ALIAS", "TO.MODEL"):
        with pytest.raises(MQMIError, match=r"MQRC_ALIAS_BASE_Q_TYPE_ERROR \(2001\)"):
            conn.open(name, OUT)


# ---- remote queues and transmission queues --------------------------------------------
@keeps(
    "docs/mq-rules.md",
    (
        "A put to a remote queue goes to its transmission queue inside an MQXQH; an unknown queue "
        "manager goes by the default transmission queue; a queue-manager alias renames the queue "
        "manager and chooses the route."
    ),
)
def test_a_put_to_a_remote_queue_goes_to_its_transmission_queue_inside_an_mqxqh(qm: QMgr) -> None:
    # "Expiry (MQLONG)" note 9: "the queue manager places the message initially on a local
    # transmission queue, and prefixes the application message data with an MQXQH
    # structure. The queue manager sets the values of the two Expiry fields to be the same".
    od = OD(ObjectName=b"TO.QM3")
    h = qm.connect().open(od, OUT)
    assert (od.ResolvedQName, od.ResolvedQMgrName) == (b"APP.IN", b"QM3")
    md, pmo = MD(Expiry=600), PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)
    h.put(b"payload", md, pmo, now=0.0)
    assert pmo.ResolvedQName == b"APP.IN" and pmo.ResolvedQMgrName == b"QM3"
    assert qm.depth("QM3") == 1
    raw = qm.connect().open("QM3", ALL)
    data = raw.get(None, got := MD(), now=0.0)
    assert got.Format == CMQC.MQFMT_XMIT_Q_HEADER and got.Expiry == 600
    assert read_inner_expiry(data, got.Encoding) == 600
    header = XQH.unpack(data)
    assert header.RemoteQName.rstrip() == b"APP.IN" and header.RemoteQMgrName.rstrip() == b"QM3"
    assert header.MsgDesc.MsgId == md.MsgId  # the application's MsgId travels inside
    assert header.MsgDesc.Priority == 5  # DEFPRTY of the remote queue definition
    assert data[CMQC.MQXQH_LENGTH_1 :] == b"payload"


@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_OPTION_NOT_VALID_FOR_TYPE | MQCLOSE with DELETE of a queue that is not a permanent "
        "dynamic one; a remote queue opened for other than output or inquire"
    ),
)
def test_a_remote_queue_can_be_opened_for_output_and_inquire_only(qm: QMgr) -> None:
    conn = qm.connect()
    for option in (CMQC.MQOO_INPUT_SHARED, CMQC.MQOO_BROWSE, CMQC.MQOO_SET):
        with pytest.raises(MQMIError, match=r"MQRC_OPTION_NOT_VALID_FOR_TYPE \(2045\)"):
            conn.open("TO.QM3", OUT | option)
    h = conn.open("TO.QM3", CMQC.MQOO_INQUIRE)
    assert h.inquire(CMQC.MQCA_REMOTE_Q_MGR_NAME) == b"QM3".ljust(48)


@keeps("docs/reason-codes.md", "MQRC_UNKNOWN_REMOTE_Q_MGR | no route to the queue manager named")
@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_XMIT_Q_TYPE_ERROR, MQRC_XMIT_Q_USAGE_ERROR | the transmission queue named is not "
        "local, or not USAGE(XMITQ)"
    ),
)
@keeps(
    "docs/reason-codes.md",
    "MQRC_REMOTE_Q_NAME_ERROR | MQOPEN of a queue-manager alias (RNAME blank) as a queue",
)
@keeps(
    "docs/reason-codes.md",
    "MQRC_UNKNOWN_XMIT_Q, MQRC_UNKNOWN_DEF_XMIT_Q | XMITQ or DEFXMITQ names no queue",
)
def test_a_remote_queue_without_a_usable_transmission_queue_fails_to_open(qm: QMgr) -> None:
    qm.define_queue("NOT.XMIT")
    bad = {
        RemoteQueue("R1", remote_name="A", remote_q_mgr_name="QM3", xmit_q_name="NONE"): 2196,
        RemoteQueue("R2", remote_name="A", remote_q_mgr_name="QM3", xmit_q_name="NOT.XMIT"): 2092,
        RemoteQueue("R3", remote_name="A", remote_q_mgr_name="QM3", xmit_q_name="APP.ALIAS"): 2091,
        RemoteQueue("R4", remote_name="A", remote_q_mgr_name="QM7"): 2087,
        RemoteQueue("R5", remote_name="A", remote_q_mgr_name=""): 2087,
        RemoteQueue("R6", remote_q_mgr_name="QM3"): 2184,  # a queue-manager alias
    }
    for rdef, code in bad.items():
        qm.define(rdef)
        with pytest.raises(MQMIError, match=rf"\({code}\)"):
            qm.connect().open(rdef.name, OUT)


@keeps(
    "docs/objects.md",
    (
        "ObjectQMgrName first (blank, this queue manager or its QSG; a queue-manager alias; a "
        "transmission queue of that name; the default transmission queue), then ObjectName"
    ),
)
def test_object_q_mgr_name_picks_the_transmission_queue_of_that_name(qm: QMgr) -> None:
    h = qm.connect().open(OD(ObjectName=b"APP.IN", ObjectQMgrName=b"QM3"), OUT)
    put(h, b"x", 0.0)
    header = XQH.unpack(read_back(qm, "QM3")[0])
    assert header.RemoteQName.rstrip() == b"APP.IN" and header.RemoteQMgrName.rstrip() == b"QM3"


@keeps(
    "docs/mq-rules.md",
    (
        "A put to a remote queue goes to its transmission queue inside an MQXQH; an unknown queue "
        "manager goes by the default transmission queue; a queue-manager alias renames the queue "
        "manager and chooses the route."
    ),
)
def test_a_queue_manager_alias_renames_the_queue_manager_and_chooses_the_route(
    qm: QMgr,
) -> None:
    qm.define(RemoteQueue("BRANCH", remote_q_mgr_name="QM5", xmit_q_name="TO.ANYWHERE"))
    qm.define(RemoteQueue("MYSELF", remote_q_mgr_name="QM1"))
    put(qm.connect().open(OD(ObjectName=b"APP.IN", ObjectQMgrName=b"BRANCH"), OUT), b"b", 0.0)
    header = XQH.unpack(read_back(qm, "TO.ANYWHERE")[0])
    assert header.RemoteQMgrName.rstrip() == b"QM5"
    put(qm.connect().open(OD(ObjectName=b"APP.LOCAL", ObjectQMgrName=b"MYSELF"), OUT), b"l", 0.0)
    assert read_back(qm, "APP.LOCAL")[0] == b"l"  # an alias of this queue manager: local
    with pytest.raises(MQMIError, match=r"MQRC_UNKNOWN_REMOTE_Q_MGR \(2087\)"):
        qm.connect().open(OD(ObjectName=b"A", ObjectQMgrName=b"TO.QM3"), OUT)


@keeps(
    "docs/mq-rules.md",
    (
        "A put to a remote queue goes to its transmission queue inside an MQXQH; an unknown queue "
        "manager goes by the default transmission queue; a queue-manager alias renames the queue "
        "manager and chooses the route."
    ),
)
@keeps(
    "docs/reason-codes.md",
    "MQRC_UNKNOWN_XMIT_Q, MQRC_UNKNOWN_DEF_XMIT_Q | XMITQ or DEFXMITQ names no queue",
)
@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_DEF_XMIT_Q_TYPE_ERROR, MQRC_DEF_XMIT_Q_USAGE_ERROR | DEFXMITQ is not local, or not "
        "USAGE(XMITQ)"
    ),
)
def test_an_unknown_queue_manager_goes_by_the_default_transmission_queue(qm: QMgr) -> None:
    od = OD(ObjectName=b"APP.IN", ObjectQMgrName=b"QM9")
    with pytest.raises(MQMIError, match=r"MQRC_UNKNOWN_REMOTE_Q_MGR \(2087\)"):
        qm.connect().open(od, OUT)
    qm.def_xmit_q_name = "TO.ANYWHERE"
    put(qm.connect().open(od, OUT), b"x", 0.0)
    assert XQH.unpack(read_back(qm, "TO.ANYWHERE")[0]).RemoteQMgrName.rstrip() == b"QM9"
    qm.def_xmit_q_name = "MISSING"
    with pytest.raises(MQMIError, match=r"MQRC_UNKNOWN_DEF_XMIT_Q \(2197\)"):
        qm.connect().open(od, OUT)
    qm.def_xmit_q_name = "APP.LOCAL"
    with pytest.raises(MQMIError, match=r"MQRC_DEF_XMIT_Q_USAGE_ERROR \(2199\)"):
        qm.connect().open(od, OUT)
    with pytest.raises(MQMIError, match=r"MQRC_XMIT_Q_USAGE_ERROR \(2092\)"):
        qm.connect().open(OD(ObjectName=b"X", ObjectQMgrName=b"APP.LOCAL"), OUT)


@keeps("docs/mq-rules.md", "The QSG's name as ObjectQMgrName means this group.")
def test_the_qsg_name_as_queue_manager_name_means_this_group() -> None:
    group = QueueSharingGroup("QSG1")
    qm1, qm2 = QMgr("QM1", qsg=group), QMgr("QM2", qsg=group)
    qm1.define_structure(CFStructure("APP1"))
    qm1.define_queue("APP.SHARED", qsg_disp=CMQC.MQQSGD_SHARED, cf_struct="APP1")
    put(qm2.connect().open(OD(ObjectName=b"APP.SHARED", ObjectQMgrName=b"QSG1"), OUT), b"s", 0.0)
    assert get(qm1.connect().open("APP.SHARED", ALL), 1.0)[0] == b"s"


# ---- open options and sharing --------------------------------------------------------
@keeps(
    "docs/reason-codes.md",
    (
        "MQRC_OBJECT_IN_USE | MQOPEN for input of a queue open for exclusive input by another "
        "handle (or the reverse)"
    ),
)
@keeps(
    "docs/objects.md",
    "`MQOO_INPUT_EXCLUSIVE` excludes every other input open (`MQRC_OBJECT_IN_USE`)",
)
def test_an_exclusive_input_open_excludes_every_other_input_open(qm: QMgr) -> None:
    conn = qm.connect()
    exclusive = conn.open("APP.LOCAL", CMQC.MQOO_INPUT_EXCLUSIVE)
    for option in (CMQC.MQOO_INPUT_SHARED, CMQC.MQOO_INPUT_EXCLUSIVE, CMQC.MQOO_INPUT_AS_Q_DEF):
        with pytest.raises(MQMIError, match=r"MQRC_OBJECT_IN_USE \(2042\)"):
            qm.connect().open("APP.LOCAL", option)
    qm.connect().open("APP.LOCAL", OUT | CMQC.MQOO_BROWSE)  # output and browse are free
    exclusive.close()
    shared = [qm.connect().open("APP.LOCAL", CMQC.MQOO_INPUT_SHARED) for _ in range(2)]
    with pytest.raises(MQMIError, match=r"MQRC_OBJECT_IN_USE \(2042\)"):
        qm.connect().open("APP.LOCAL", CMQC.MQOO_INPUT_EXCLUSIVE)
    h = qm.connect().open("APP.LOCAL", CMQC.MQOO_INQUIRE)
    assert h.inquire(CMQC.MQIA_OPEN_INPUT_COUNT) == len(shared)


@keeps(
    "docs/objects.md",
    "`INPUT_AS_Q_DEF` takes DEFSOPT as it is at the open, `NOSHARE` makes a shared input exclusive",
)
def test_input_as_q_def_takes_defsopt_and_noshare_makes_shared_exclusive(qm: QMgr) -> None:
    qm.define_queue("EXCL.DEFAULT", def_input_open_option=CMQC.MQOO_INPUT_EXCLUSIVE)
    qm.connect().open("EXCL.DEFAULT", CMQC.MQOO_INPUT_AS_Q_DEF)
    with pytest.raises(MQMIError, match=r"MQRC_OBJECT_IN_USE \(2042\)"):
        qm.connect().open("EXCL.DEFAULT", CMQC.MQOO_INPUT_SHARED)
    qm.define_queue("NOT.SHAREABLE", shareability=CMQC.MQQA_NOT_SHAREABLE)
    first = qm.connect().open("NOT.SHAREABLE", CMQC.MQOO_INPUT_SHARED)
    assert first.options & CMQC.MQOO_INPUT_EXCLUSIVE
    with pytest.raises(MQMIError, match=r"MQRC_OBJECT_IN_USE \(2042\)"):
        qm.connect().open("NOT.SHAREABLE", CMQC.MQOO_INPUT_SHARED)


@keeps("docs/objects.md", "on a shared queue this holds across the QSG.")
def test_exclusive_input_on_a_shared_queue_holds_across_the_group() -> None:
    group = QueueSharingGroup("QSG1")
    qm1, qm2 = QMgr("QM1", qsg=group), QMgr("QM2", qsg=group)
    qm1.define_structure(CFStructure("APP1"))
    qm1.define_queue("APP.SHARED", qsg_disp=CMQC.MQQSGD_SHARED, cf_struct="APP1")
    qm1.connect().open("APP.SHARED", CMQC.MQOO_INPUT_EXCLUSIVE)
    with pytest.raises(MQMIError, match=r"MQRC_OBJECT_IN_USE \(2042\)"):
        qm2.connect().open("APP.SHARED", CMQC.MQOO_INPUT_SHARED)


@keeps(
    "docs/reason-codes.md",
    "MQRC_NOT_AUTHORIZED | the user may not open (or delete, or use an alternate user id)",
)
@keeps("docs/security.md", "with it, MQOPEN checks each access it asks for.")
@keeps(
    "docs/objects.md",
    (
        '`auth.grant("alice", "APP.*", "put", "get")` with setmqaut\'s operation names (`put`, '
        "`get`, `browse`, `inq`, `set`, `dlt`, `altusr`, or `all`); user `mqm` may do anything. "
        "MQOPEN needs the authority for each access it asks for (`MQRC_NOT_AUTHORIZED`)"
    ),
)
def test_open_needs_authority_for_each_access_it_asks_for() -> None:
    auth = Authority()
    auth.grant("app", "APP.*", "put")
    qm = QMgr("QM1", authority=auth)
    qm.define_queue("APP.LOCAL")
    qm.connect("app").open("APP.LOCAL", OUT)
    with pytest.raises(MQMIError, match=r"MQRC_NOT_AUTHORIZED \(2035\)"):
        qm.connect("app").open("APP.LOCAL", OUT | CMQC.MQOO_INPUT_SHARED)
    with pytest.raises(MQMIError, match=r"MQRC_NOT_AUTHORIZED \(2035\)"):
        qm.connect("intruder").open("APP.LOCAL", OUT)
    qm.connect("mqm").open("APP.LOCAL", ALL)  # an administrator may do anything


def test_a_shared_queue_name_is_one_namespace_with_the_members_own_queues() -> None:
    group = QueueSharingGroup("QSG1")
    qm1, qm2 = QMgr("QM1", qsg=group), QMgr("QM2", qsg=group)
    qm1.define_structure(CFStructure("APP1"))
    qm2.define_queue("APP.Q")
    with pytest.raises(ValueError, match="another QSGDISP"):
        qm2.define_queue("APP.Q", qsg_disp=CMQC.MQQSGD_SHARED, cf_struct="APP1")
    with pytest.raises(ValueError, match="CFSTRUCT\\(NOPE\\) is not defined"):
        qm1.define_queue("APP.R", qsg_disp=CMQC.MQQSGD_SHARED, cf_struct="NOPE")
    with pytest.raises(ValueError, match="in no queue-sharing group"):
        QMgr("QM3").define_queue("APP.S", qsg_disp=CMQC.MQQSGD_SHARED, cf_struct="APP1")


def test_msgdlvsq_cannot_change_while_messages_are_on_the_queue_even_uncommitted(
    qm: QMgr,
) -> None:
    conn = qm.connect()
    h = conn.open("APP.LOCAL", ALL)
    put(h, b"m", 0.0)
    get(h, 1.0, CMQC.MQGMO_SYNCPOINT)  # depth 0, one uncommitted get
    with pytest.raises(ValueError, match="MSGDLVSQ cannot change"):
        qm.alter_queue("APP.LOCAL", msg_delivery_sequence=CMQC.MQMDS_FIFO)
    conn.backout()
    assert get(h, 2.0)[0] == b"m"  # nothing was lost
