"""The PCF inquiries, answered as the DISPLAY they stand for.

Each builds a ``qsg.mqsc.display.Request`` from its parameters, selects the objects of
the queue manager's snapshot that answer it, and turns each into a reply's parameters
with ``qsg.mqsc.pcf_names``: one reply message per object. Nothing found is
MQRC_UNKNOWN_OBJECT_NAME (MQRCCF_CHANNEL_NOT_FOUND, MQRCCF_CHL_STATUS_NOT_FOUND for
channels).
"""

from __future__ import annotations

from qsg import CMQC
from qsg import CMQCFC as F
from qsg.core.errors import MQMIError
from qsg.core.qmgr import QMgr
from qsg.mqsc import display
from qsg.mqsc.attributes import QSGDISP, QUEUE_TYPES
from qsg.mqsc.display import Found, Request
from qsg.mqsc.pcf import Message, PCFError, Value
from qsg.mqsc.pcf_names import BARE, CF_STATUS_TYPES, FAMILIES, Name
from qsg.mqsc.pcf_parameters import Parameters, Reply, attributes_wanted, queue_type, scope
from qsg.mqsc.status import Snapshot


def _objects(request: Request, snapshot: Snapshot, missing: int) -> Reply:
    found = _select(request, snapshot)
    if not found:
        raise PCFError(missing, f"nothing matches {request.name}")
    family = FAMILIES[request.kind]
    return [_as_parameters(family, f) for f in found]


def _as_parameters(family: dict[str, Name], found: Found) -> list[tuple[int, Value]]:
    out: list[tuple[int, Value]] = []
    for keyword, value in found.attributes:
        name = family.get(BARE.get(keyword, keyword))
        if name is None:
            continue  # shown by MQSC only (ELEMMAX, APPLTYPE, CONN, ...)
        if name.listed:  # LOGQMGRS(QM1,QM2): an MQCFSL
            names = [n for n in str(value or "").split(",") if n]
            if names:
                out.append((name.parameter, names))
        elif name.binary:  # CONN(hex): the connection identifier's 24 bytes
            out.append((name.parameter, bytes.fromhex(str(value)).rjust(name.length, b"\0")))
        elif name.string:
            out.append((name.parameter, str(value or "")))
        elif name.values is not None and value is None:
            out.append((name.parameter, name.values[keyword]))
        elif name.values is not None and isinstance(value, str) and value in name.values:
            out.append((name.parameter, name.values[value]))
        elif isinstance(value, int):
            out.append((name.parameter, value))
    return out


#: QSGDisposition's values as DISPLAY's QSGDISP words; PCF's LIVE leaves the shared
#: queues out (``display.PCF_LIVE``).
_DISPOSITIONS = {
    CMQC.MQQSGD_LIVE: display.PCF_LIVE,
    CMQC.MQQSGD_ALL: "ALL",
    CMQC.MQQSGD_Q_MGR: "QMGR",
    CMQC.MQQSGD_COPY: "COPY",
    CMQC.MQQSGD_GROUP: "GROUP",
    CMQC.MQQSGD_PRIVATE: "PRIVATE",
    CMQC.MQQSGD_SHARED: "SHARED",
}


def _select(request: Request, snapshot: Snapshot) -> list[Found]:
    """``display.select``; MQRC_DB2_NOT_AVAILABLE as the reply's reason when GROUP
    objects are asked for while the shared repository is down."""
    try:
        return display.select(request, snapshot)
    except MQMIError as error:
        raise PCFError(error.reason, str(error)) from None


_Q_TYPES = {word: value for value, word in QUEUE_TYPES.items()}
_QSG_DISPS = {word: value for value, word in QSGDISP.items()}


def _disposition(p: Parameters, kind: str = "QUEUE") -> str:
    """QSGDisposition (MQIA_QSG_DISP) as a QSGDISP word for the ``kind`` of object
    asked for; MQQSGD_LIVE when not given, which in PCF is the QMGR and COPY objects
    only: a shared queue is listed for MQQSGD_ALL or MQQSGD_SHARED ("Inquire Queue";
    docs/mqsc.md). MQQSGD_SHARED is a queue's only ("Inquire Channel", "Inquire
    Process": LIVE, ALL, QMGR, COPY, GROUP, PRIVATE)."""
    value = p.integer(CMQC.MQIA_QSG_DISP)
    if value is None:
        return display.PCF_LIVE
    word = _DISPOSITIONS.get(value, "")
    if word not in display.DISPOSITIONS[kind]:
        raise PCFError(F.MQRCCF_CFIN_PARM_ID_ERROR, f"QSGDisposition {value}", CMQC.MQIA_QSG_DISP)
    return word


def inquire_q(message: Message, qm: QMgr, snapshot: Snapshot) -> Reply:
    p = Parameters(message)
    name = p.string(CMQC.MQCA_Q_NAME, required=True) or ""
    q_type = p.integer(CMQC.MQIA_Q_TYPE)
    everything, wanted = attributes_wanted("QUEUE", p.integers(F.MQIACF_Q_ATTRS))
    structure = p.string(CMQC.MQCA_CF_STRUC_NAME)
    disposition = _disposition(p)
    scope(p, qm)
    p.done()
    object_type = "QUEUE" if q_type in (None, CMQC.MQQT_ALL) else queue_type(q_type)
    selectors = (("CFSTRUCT", structure),) if structure else ()
    request = Request(
        object_type, name, everything, wanted, selectors=selectors, qsgdisp=disposition
    )
    return _objects(request, snapshot, CMQC.MQRC_UNKNOWN_OBJECT_NAME)


def inquire_q_names(message: Message, qm: QMgr, snapshot: Snapshot) -> Reply:
    p = Parameters(message)
    name = p.string(CMQC.MQCA_Q_NAME, required=True) or ""
    q_type = p.integer(CMQC.MQIA_Q_TYPE)
    disposition = _disposition(p)
    scope(p, qm)
    p.done()
    object_type = "QUEUE" if q_type in (None, CMQC.MQQT_ALL) else queue_type(q_type)
    request = Request(object_type, name, everything=True, qsgdisp=disposition)
    found = _select(request, snapshot)
    names = [f.name for f in found]
    # One name can be listed twice (its COPY and its GROUP object): each from its own.
    shown = [dict(f.attributes) for f in found]
    types = [_Q_TYPES[str(a["TYPE"])] for a in shown]
    disps = [_QSG_DISPS[str(a["QSGDISP"])] for a in shown]
    return [[(F.MQCACF_Q_NAMES, names), (F.MQIACF_Q_TYPES, types), (F.MQIACF_QSG_DISPS, disps)]]


def inquire_q_status(message: Message, qm: QMgr, snapshot: Snapshot) -> Reply:
    p = Parameters(message)
    name = p.string(CMQC.MQCA_Q_NAME, required=True) or ""
    kind = p.integer(F.MQIACF_Q_STATUS_TYPE)
    everything, wanted = attributes_wanted("QSTATUS", p.integers(F.MQIACF_Q_STATUS_ATTRS))
    scope(p, qm)
    p.done()
    if kind not in (None, F.MQIACF_Q_STATUS, F.MQIACF_Q_HANDLE):
        raise PCFError(F.MQRCCF_CFIN_PARM_ID_ERROR, f"StatusType {kind}", F.MQIACF_Q_STATUS_TYPE)
    status_type = "HANDLE" if kind == F.MQIACF_Q_HANDLE else "QUEUE"
    request = Request("QSTATUS", name, everything, wanted, type=status_type)
    return _objects(request, snapshot, CMQC.MQRC_UNKNOWN_OBJECT_NAME)


def inquire_channel(message: Message, qm: QMgr, snapshot: Snapshot) -> Reply:
    p = Parameters(message)
    name = p.string(F.MQCACH_CHANNEL_NAME, required=True) or ""
    channel_type = p.integer(F.MQIACH_CHANNEL_TYPE)
    everything, wanted = attributes_wanted("CHANNEL", p.integers(F.MQIACF_CHANNEL_ATTRS))
    disposition = _disposition(p, "CHANNEL")
    scope(p, qm)
    p.done()
    selectors: tuple[tuple[str, str], ...] = ()
    if channel_type not in (None, CMQC.MQCHT_ALL):
        names = FAMILIES["CHANNEL"]["CHLTYPE"].values or {}
        words = [w for w, v in names.items() if v == channel_type]
        if not words:
            raise PCFError(
                F.MQRCCF_CFIN_PARM_ID_ERROR, f"ChannelType {channel_type}", F.MQIACH_CHANNEL_TYPE
            )
        selectors = (("CHLTYPE", words[0]),)
    request = Request("CHANNEL", name, everything, wanted, selectors=selectors, qsgdisp=disposition)
    return _objects(request, snapshot, F.MQRCCF_CHANNEL_NOT_FOUND)


def inquire_channel_status(message: Message, qm: QMgr, snapshot: Snapshot) -> Reply:
    p = Parameters(message)
    name = p.string(F.MQCACH_CHANNEL_NAME, required=True) or ""
    instance = p.integer(F.MQIACH_CHANNEL_INSTANCE_TYPE)
    everything, wanted = attributes_wanted("CHSTATUS", p.integers(F.MQIACH_CHANNEL_INSTANCE_ATTRS))
    scope(p, qm)
    p.done()
    if instance not in (None, CMQC.MQOT_CURRENT_CHANNEL):
        raise PCFError(
            F.MQRCCF_CFIN_PARM_ID_ERROR,
            "only current channel status is kept",
            F.MQIACH_CHANNEL_INSTANCE_TYPE,
        )
    request = Request("CHSTATUS", name, everything, wanted)
    return _objects(request, snapshot, F.MQRCCF_CHL_STATUS_NOT_FOUND)


def inquire_q_mgr(message: Message, qm: QMgr, snapshot: Snapshot) -> Reply:
    p = Parameters(message)
    everything, wanted = attributes_wanted("QMGR", p.integers(F.MQIACF_Q_MGR_ATTRS))
    scope(p, qm)
    p.done()
    return _objects(Request("QMGR", "*", everything, wanted), snapshot, F.MQRCCF_NONE_FOUND)


def inquire_cf_struc(message: Message, qm: QMgr, snapshot: Snapshot) -> Reply:
    p = Parameters(message)
    name = p.string(CMQC.MQCA_CF_STRUC_NAME, required=True) or ""
    everything, wanted = attributes_wanted("CFSTRUCT", p.integers(F.MQIACF_CF_STRUC_ATTRS))
    p.done()  # no CommandScope: a CF structure is the group's (pcf_scope.UNSCOPED)
    request = Request("CFSTRUCT", name, everything, wanted)
    return _objects(request, snapshot, CMQC.MQRC_UNKNOWN_OBJECT_NAME)


def inquire_cf_struc_status(message: Message, qm: QMgr, snapshot: Snapshot) -> Reply:
    p = Parameters(message)
    name = p.string(CMQC.MQCA_CF_STRUC_NAME, required=True) or ""
    kind = p.integer(F.MQIACF_CF_STATUS_TYPE)
    p.done()  # no CommandScope (pcf_scope.UNSCOPED)
    words = {value: word for word, value in CF_STATUS_TYPES.items()}
    if kind is not None and kind not in words:
        raise PCFError(F.MQRCCF_CFIN_PARM_ID_ERROR, f"StatusType {kind}", F.MQIACF_CF_STATUS_TYPE)
    request = Request("CFSTATUS", name, everything=True, type=words.get(kind or 0, "SUMMARY"))
    return _objects(request, snapshot, CMQC.MQRC_UNKNOWN_OBJECT_NAME)


def _inquire_named(
    message: Message, qm: QMgr, snapshot: Snapshot, kind: str, parameter: int, selectors: int
) -> Reply:
    """Inquire Process, Inquire Namelist, Inquire Storage Class: a generic name, the
    attributes wanted and QSGDisposition (each reply carries its object's)."""
    p = Parameters(message)
    name = p.string(parameter, required=True) or ""
    everything, wanted = attributes_wanted(kind, p.integers(selectors))
    disposition = _disposition(p, kind)
    scope(p, qm)
    p.done()
    request = Request(kind, name, everything, wanted, qsgdisp=disposition)
    return _objects(request, snapshot, CMQC.MQRC_UNKNOWN_OBJECT_NAME)


def inquire_process(message: Message, qm: QMgr, snapshot: Snapshot) -> Reply:
    return _inquire_named(
        message, qm, snapshot, "PROCESS", CMQC.MQCA_PROCESS_NAME, F.MQIACF_PROCESS_ATTRS
    )


def inquire_namelist(message: Message, qm: QMgr, snapshot: Snapshot) -> Reply:
    return _inquire_named(
        message, qm, snapshot, "NAMELIST", CMQC.MQCA_NAMELIST_NAME, F.MQIACF_NAMELIST_ATTRS
    )


def inquire_stg_class(message: Message, qm: QMgr, snapshot: Snapshot) -> Reply:
    return _inquire_named(
        message, qm, snapshot, "STGCLASS", CMQC.MQCA_STORAGE_CLASS, F.MQIACF_STORAGE_CLASS_ATTRS
    )


def ping(message: Message, qm: QMgr, snapshot: Snapshot) -> Reply:
    p = Parameters(message)
    p.done()
    return [[]]


__all__ = [
    "inquire_cf_struc",
    "inquire_cf_struc_status",
    "inquire_channel",
    "inquire_channel_status",
    "inquire_namelist",
    "inquire_process",
    "inquire_q",
    "inquire_q_mgr",
    "inquire_q_names",
    "inquire_q_status",
    "inquire_stg_class",
    "ping",
]
