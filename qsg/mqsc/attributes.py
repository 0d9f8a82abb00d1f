"""Each object of a snapshot as DISPLAY shows it: MQSC attribute names and values.

The rows and their order are the attribute table's (``qsg.core.attributes``). An
object becomes an ordered list of ``(KEYWORD, value)``: the value as MQSC spells it
(``QLOCAL``, ``SHARED``, ``ENABLED``, a number), or None for a keyword shown bare
(``SHARE``, ``NOTRIGGER``). The identifying keywords come first and are always shown;
the others when asked for by name or by ALL. The same lists serve WHERE filtering, so a
filter compares what the administrator would see.
"""

from __future__ import annotations

from collections.abc import Mapping

from qsg import CMQC
from qsg.core import attributes as table
from qsg.core.attributes.objects import CHLTYPE
from qsg.core.attributes.queues import QSGDISP as _QSGDISP
from qsg.core.objects import ProcessDefinition
from qsg.mqsc.status import ChannelView, HandleView, QueueView, Snapshot, StructureView

Value = str | int | None
Attributes = list[tuple[str, Value]]

QSGDISP = {v: k for k, v in _QSGDISP.values.items()}
QUEUE_TYPES = {
    CMQC.MQQT_LOCAL: "QLOCAL",
    CMQC.MQQT_MODEL: "QMODEL",
    CMQC.MQQT_ALIAS: "QALIAS",
    CMQC.MQQT_REMOTE: "QREMOTE",
}
CHANNEL_TYPES = {v: k for k, v in CHLTYPE.values.items()}


def shown(
    record: object, object_type: str, status: Mapping[str, Value] | None = None
) -> Attributes:
    """The rows of the attribute table ``object_type`` shows, in order, as DISPLAY
    shows them: ``(KEYWORD, value)``, or ``(WORD, None)`` for a bare keyword (SHARE).
    Status rows (CURDEPTH, ...) come from ``status``, and only with it."""
    out: Attributes = []
    for a in table.TABLE[object_type]:
        if not table.applies(a, record):
            continue  # a channel attribute of another CHLTYPE
        if a.role == "status":
            if status is not None:
                out.append((a.keyword, status[a.keyword]))
            continue
        value = a.kind.shown(table.read(record, a))
        out.append((str(value), None) if a.bare else (a.keyword, value))
    return out


def queue(view: QueueView) -> Attributes:
    """DISPLAY QUEUE: QUEUE, TYPE and QSGDISP first, then the type's own attributes,
    then a local queue's CURDEPTH, IPPROCS and OPPROCS."""
    status = None
    if view.local and view.obj.qsg_disp != CMQC.MQQSGD_GROUP:  # a GROUP object has none
        status = {"CURDEPTH": view.depth, "IPPROCS": view.ipprocs, "OPPROCS": view.opprocs}
    return shown(view.obj, table.queue_type(view.obj.q_type), status)


def _yes(flag: bool) -> str:
    return "YES" if flag else "NO"


def queue_status(view: QueueView) -> Attributes:
    """DISPLAY QSTATUS TYPE(QUEUE): the queue's status on this queue manager. UNCOM is
    YES or NO, as z/OS gives it."""
    return [
        ("QSTATUS", view.obj.name),
        ("TYPE", "QUEUE"),
        ("QSGDISP", QSGDISP[view.obj.qsg_disp]),
        ("CURDEPTH", view.depth),
        ("IPPROCS", view.ipprocs),
        ("OPPROCS", view.opprocs),
        ("UNCOM", _yes(view.uncommitted > 0)),
    ]


def handle_status(view: QueueView, handle: HandleView) -> Attributes:
    """DISPLAY QSTATUS TYPE(HANDLE): one open handle of the queue."""
    options = handle.options
    return [
        ("QSTATUS", view.obj.name),
        ("TYPE", "HANDLE"),
        ("QSGDISP", QSGDISP[view.obj.qsg_disp]),
        ("APPLTAG", handle.appl_tag),
        ("APPLTYPE", "USER"),
        ("CONN", f"{handle.connection:016X}"),
        ("USERID", handle.user),
        ("INPUT", handle.input),
        ("OUTPUT", _yes(bool(options & CMQC.MQOO_OUTPUT))),
        ("BROWSE", _yes(bool(options & CMQC.MQOO_BROWSE))),
        ("INQUIRE", _yes(bool(options & CMQC.MQOO_INQUIRE))),
        ("SET", _yes(bool(options & CMQC.MQOO_SET))),
    ]


def channel(view: ChannelView) -> Attributes:
    """DISPLAY CHANNEL."""
    return shown(view.definition, "CHANNEL")


def channel_status(view: ChannelView, *, saved: bool = False) -> Attributes:
    """DISPLAY CHSTATUS: the current status of a channel instance, or (``saved``) its
    common status fields alone, as SAVED shows them."""
    d = view.definition
    ident: Attributes = [
        ("CHSTATUS", d.name),
        ("CHLDISP", view.disposition),
        ("XMITQ", d.xmit_q_name),
        ("CONNAME", d.conn_name),
    ]
    if saved:
        return [
            *ident,
            ("SAVED", None),
            ("CHLTYPE", CHANNEL_TYPES[d.channel_type]),
            ("STATUS", view.status),
        ]
    return [
        *ident,
        ("CURRENT", None),
        ("CHLTYPE", CHANNEL_TYPES[d.channel_type]),
        ("STATUS", view.status),
        ("STOPREQ", "NO"),
        ("MSGS", view.messages),
        ("BATCHES", view.batches),
        ("BATCHSZ", d.batch_size),
        *((("QMNAME", view.q_mgr),) if view.q_mgr else ()),
    ]


def channel_short_status(view: ChannelView, here: str = "") -> Attributes:
    """DISPLAY CHSTATUS SHORT: a channel instance as the group's shared status has it
    (z/OS reads it from Db2): its STATUS and QMNAME, the queue manager that runs it
    (``here``, the displaying one, for a private instance)."""
    d = view.definition
    return [
        ("CHSTATUS", d.name),
        ("CHLDISP", view.disposition),
        ("XMITQ", d.xmit_q_name),
        ("CONNAME", d.conn_name),
        ("SHORT", None),
        ("STATUS", view.status),
        ("QMNAME", view.q_mgr or here),
    ]


def qmgr(snapshot: Snapshot) -> Attributes:
    """DISPLAY QMGR, from the values ``status.take`` read off the queue manager."""
    given = {**snapshot.attributes, "QMNAME": snapshot.q_mgr, "QSGNAME": snapshot.qsg}
    out: Attributes = []
    for a in table.TABLE["QMGR"]:
        value = a.kind.shown(given.get(a.keyword, a.default))
        out.append((str(value), None) if a.bare else (a.keyword, value))  # SYNCPT bare
    return out


def cf_structure(view: StructureView) -> Attributes:
    """DISPLAY CFSTRUCT, with the offload rules as MQSC writes them (``OFFLD1SZ(32K)``)."""
    return shown(view.definition, "CFSTRUCT")


def process(definition: ProcessDefinition) -> Attributes:
    """DISPLAY PROCESS."""
    return shown(definition, "PROCESS")


def cf_status(view: StructureView, kind: str = "SUMMARY") -> list[Attributes]:
    """DISPLAY CFSTATUS TYPE(SUMMARY | CONNECT | BACKUP | SMDS): one answer for SUMMARY
    and BACKUP, one per member for CONNECT and SMDS (SMDS only with OFFLOAD(SMDS)).
    SUMMARY: SIZEMAX is the structure's size in KB, SIZEUSED the share of its elements
    in use (per cent); ENTSMAX and ENTSUSED count entries (one a message); ELEMMAX and
    ELEMUSED, the elements, are this simulator's own. STATUS is ACTIVE or FAILED (a
    CONNECT line's is its member's connection: FAILED too when that member lost
    connectivity to the structure);
    BACKUP's is NONE until a BACKUP CFSTRUCT; LOGQMGRS names the members whose logs
    hold records since the backup (those a recovery reads), and LOGRECS (this
    simulator's) how many records they wrote."""
    name = view.definition.name
    state = view.state
    fail_date, fail_time = view.failed
    head: Attributes = [("CFSTATUS", name), ("TYPE", kind)]
    if kind == "CONNECT":
        answers: list[Attributes] = []
        for member in view.members:
            # Each member's connection: FAILED with the structure, or alone when the
            # member lost connectivity to it (IBM: "the queue manager connection to
            # this structure has failed"), dated by its own loss.
            lost = view.connections_failed.get(member)
            status = "FAILED" if view.status == "FAILED" or lost else "ACTIVE"
            date, time = (fail_date, fail_time) if view.status == "FAILED" else lost or ("", "")
            answers.append(
                [
                    *head,
                    ("QMNAME", member),
                    ("STATUS", status),
                    ("FAILDATE", date),
                    ("FAILTIME", time),
                ]
            )
        return answers
    if kind == "SMDS":
        if view.definition.offload != "SMDS" or view.definition.cf_level < 5:
            return []
        status = "FAILED" if view.status == "FAILED" else "ACTIVE"
        return [
            [*head, ("SMDS", member), ("STATUS", status), ("ACCESS", "ENABLED")]
            for member in view.members
        ]
    if kind == "BACKUP":
        backup_date, backup_time = view.backed_up
        status = view.status
        if status != "FAILED" and (state is None or state.backup_at is None):
            status = "NONE"
        size = state.backup_bytes if state is not None else 0
        return [
            [
                *head,
                ("STATUS", status),
                ("BKUPDATE", backup_date),
                ("BKUPTIME", backup_time),
                ("BKUPSIZE", -(-size // (1024 * 1024))),
                ("BKUPMSGS", state.backup_messages if state is not None else 0),
                ("LOGQMGRS", ",".join(state.log_members if state is not None else ())),
                ("LOGRECS", state.log_records if state is not None else 0),
                ("FAILDATE", fail_date),
                ("FAILTIME", fail_time),
            ]
        ]
    used = view.elements * 100 // view.max_elements if view.max_elements else 0
    return [
        [
            *head,
            ("CFTYPE", "APPL"),
            ("STATUS", view.status),
            ("SIZEMAX", view.definition.size_kb),
            ("SIZEUSED", used),
            ("ENTSMAX", view.max_entries),
            ("ENTSUSED", view.entries),
            ("ELEMMAX", view.max_elements),
            ("ELEMUSED", view.elements),
            ("FAILDATE", fail_date),
            ("FAILTIME", fail_time),
        ]
    ]


__all__ = [
    "CHANNEL_TYPES",
    "QSGDISP",
    "QUEUE_TYPES",
    "Attributes",
    "Value",
    "cf_status",
    "cf_structure",
    "channel",
    "channel_short_status",
    "channel_status",
    "handle_status",
    "process",
    "qmgr",
    "queue",
    "queue_status",
    "shown",
]
