"""The PCF commands a queue manager's command server serves, on the MQSC processor.

Each inquiry becomes a DISPLAY ``Request`` (``qsg.mqsc.display``) answered from the same
snapshot the console reads, its objects turned into parameters (``qsg.mqsc.pcf_names``):
one reply message per object, MsgSeqNumber counting from 1, the last with MQCFC_LAST.
CREATE_Q, CHANGE_Q, COPY_Q and DELETE_Q become the MQSC DEFINE, ALTER, DEFINE LIKE and
DELETE they stand for, and run through the MQSC reader; CLEAR_Q clears a local queue as
CLEAR QLOCAL does. So one implementation serves MQSC and PCF.

A request that is not well-formed PCF, or that names a parameter the command does not
take, is answered with a single MQCFT_RESPONSE of MQCC_FAILED and the MQRCCF_* reason
(and MQIACF_PARAMETER_ID naming the parameter at fault), never an exception.
"""

from __future__ import annotations

from collections.abc import Callable

from qsg import CMQC
from qsg import CMQCFC as F
from qsg.core.errors import MQMIError
from qsg.core.qmgr import QMgr
from qsg.mqsc import commands, display, reader, schema
from qsg.mqsc.display import Found, Request
from qsg.mqsc.errors import MQSCError
from qsg.mqsc.pcf import Header, Message, PCFError, Value, decode, encode
from qsg.mqsc.pcf_names import BARE, FAMILIES, QUEUE, Name, keyword_of
from qsg.mqsc.status import Snapshot

_Q_TYPES = {CMQC.MQQT_LOCAL: "QLOCAL", CMQC.MQQT_MODEL: "QMODEL", CMQC.MQQT_ALIAS: "QALIAS",
            CMQC.MQQT_REMOTE: "QREMOTE"}  # fmt: skip


def process(data: bytes, encoding: int, qm: QMgr, snapshot: Snapshot) -> list[bytes]:
    """The reply messages to one PCF request ``data`` (its MQMD Encoding given).

    A request of type MQCFT_COMMAND is answered as the distributed platforms answer it:
    an MQCFT_RESPONSE per object, the last with MQCFC_LAST. One of type
    MQCFT_COMMAND_XR (what z/OS wants, and pymqi's PCFExecute sends) is answered as
    z/OS answers it: an MQCFT_XR_ITEM per object, then an MQCFT_XR_SUMMARY with
    MQCFC_LAST carrying the command's completion code and reason."""
    command, extended = 0, False
    try:
        message = decode(data, encoding)
        command = message.header.command
        extended = message.header.type == F.MQCFT_COMMAND_XR
        handler = _COMMANDS.get(command)
        if handler is None:
            raise PCFError(F.MQRCCF_CFH_COMMAND_ERROR, f"command {command} is not served")
        replies = handler(message, qm, snapshot)
    except PCFError as error:
        extra: list[tuple[int, Value]] = []
        if error.parameter:
            extra.append((F.MQIACF_PARAMETER_ID, error.parameter))
        kind = F.MQCFT_XR_SUMMARY if extended else F.MQCFT_RESPONSE
        header = Header(kind, command, comp_code=CMQC.MQCC_FAILED, reason=error.reason)
        return [encode(header, extra, encoding)]
    if extended:
        replies = [r for r in replies if r]  # a command's empty reply is its summary
        replies.append([])
    out = []
    for number, parameters in enumerate(replies, start=1):
        last = number == len(replies)
        kind = F.MQCFT_RESPONSE
        if extended:
            kind = F.MQCFT_XR_SUMMARY if last else F.MQCFT_XR_ITEM
        header = Header(kind, command, number, F.MQCFC_LAST if last else F.MQCFC_NOT_LAST)
        out.append(encode(header, parameters, encoding, _LENGTHS))
    return out


Reply = list[list[tuple[int, Value]]]
Handler = Callable[[Message, QMgr, Snapshot], Reply]

#: Each string parameter's padded length, from the families' tables.
_LENGTHS = {n.parameter: n.length for family in FAMILIES.values() for n in family.values()
            if n.string}  # fmt: skip
_LENGTHS[F.MQCACF_Q_NAMES] = 48


# ---- reading a request's parameters ------------------------------------------------
class _Parameters:
    """A request's parameters, each taken at most once; those left are refused."""

    def __init__(self, message: Message) -> None:
        self._left = dict(message.parameters)

    def string(self, parameter: int, *, required: bool = False) -> str | None:
        value = self._take(parameter, required)
        if value is None:
            return None
        if not isinstance(value, str):
            raise PCFError(F.MQRCCF_CFIN_PARM_ID_ERROR, "expected a string", parameter)
        return value

    def integer(self, parameter: int, *, required: bool = False) -> int | None:
        value = self._take(parameter, required)
        if value is None:
            return None
        if not isinstance(value, int):
            raise PCFError(F.MQRCCF_CFST_PARM_ID_ERROR, "expected an integer", parameter)
        return value

    def integers(self, parameter: int) -> list[int] | None:
        value = self._take(parameter, False)
        if value is None:
            return None
        if not isinstance(value, list) or not all(isinstance(v, int) for v in value):
            raise PCFError(F.MQRCCF_CFIL_PARM_ID_ERROR, "expected an integer list", parameter)
        return [int(v) for v in value]

    def rest(self) -> dict[int, Value]:
        left, self._left = self._left, {}
        return left

    def done(self) -> None:
        """Refuse a parameter the command does not take."""
        for parameter, value in self._left.items():
            raise PCFError(_id_error(value), f"parameter {parameter} is not taken", parameter)

    def _take(self, parameter: int, required: bool) -> Value | None:
        if parameter not in self._left:
            if required:
                raise PCFError(F.MQRCCF_PARM_COUNT_TOO_SMALL,
                               f"required parameter {parameter} is missing", parameter)  # fmt: skip
            return None
        return self._left.pop(parameter)


def _id_error(value: Value) -> int:
    if isinstance(value, int):
        return F.MQRCCF_CFIN_PARM_ID_ERROR
    if isinstance(value, str):
        return F.MQRCCF_CFST_PARM_ID_ERROR
    if isinstance(value, bytes):
        return F.MQRCCF_CFBS_PARM_ID_ERROR
    if value and all(isinstance(v, str) for v in value):
        return F.MQRCCF_CFSL_PARM_ID_ERROR
    return F.MQRCCF_CFIL_PARM_ID_ERROR


def _scope(p: _Parameters, qm: QMgr) -> None:
    """CommandScope: only this queue manager's own is served over PCF."""
    scope = p.string(F.MQCACF_COMMAND_SCOPE)
    if scope not in (None, "", qm.name):
        raise PCFError(F.MQRCCF_COMMAND_FAILED,
                       f"CommandScope {scope!r}: only {qm.name} answers here",
                       F.MQCACF_COMMAND_SCOPE)  # fmt: skip


def _wanted(family: str, selectors: list[int] | None) -> tuple[bool, tuple[str, ...]]:
    """(ALL?, keywords) from an attribute selector list (MQIACF_ALL or identifiers)."""
    if selectors is None or F.MQIACF_ALL in selectors:
        return True, ()
    words = tuple(k for k in (keyword_of(family, s) for s in selectors) if k is not None)
    return False, words


# ---- inquiries -----------------------------------------------------------------------
def _objects(request: Request, snapshot: Snapshot, missing: int) -> Reply:
    found = display.select(request, snapshot)
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
        if name.string:
            out.append((name.parameter, str(value or "")))
        elif name.values is not None and value is None:
            out.append((name.parameter, name.values[keyword]))
        elif name.values is not None and isinstance(value, str) and value in name.values:
            out.append((name.parameter, name.values[value]))
        elif isinstance(value, int):
            out.append((name.parameter, value))
    return out


def _inquire_q(message: Message, qm: QMgr, snapshot: Snapshot) -> Reply:
    p = _Parameters(message)
    name = p.string(CMQC.MQCA_Q_NAME, required=True) or ""
    q_type = p.integer(CMQC.MQIA_Q_TYPE)
    everything, wanted = _wanted("QUEUE", p.integers(F.MQIACF_Q_ATTRS))
    structure = p.string(CMQC.MQCA_CF_STRUC_NAME)
    p.integer(CMQC.MQIA_QSG_DISP)  # every disposition a member sees is answered
    _scope(p, qm)
    p.done()
    object_type = "QUEUE" if q_type in (None, CMQC.MQQT_ALL) else _q_type(q_type)
    selectors = (("CFSTRUCT", structure),) if structure else ()
    request = Request(object_type, name, everything, wanted, selectors=selectors)
    return _objects(request, snapshot, CMQC.MQRC_UNKNOWN_OBJECT_NAME)


def _q_type(value: int) -> str:
    if value not in _Q_TYPES:
        raise PCFError(F.MQRCCF_Q_TYPE_ERROR, f"QType {value} is not known", CMQC.MQIA_Q_TYPE)
    return _Q_TYPES[value]


def _inquire_q_names(message: Message, qm: QMgr, snapshot: Snapshot) -> Reply:
    p = _Parameters(message)
    name = p.string(CMQC.MQCA_Q_NAME, required=True) or ""
    q_type = p.integer(CMQC.MQIA_Q_TYPE)
    p.integer(CMQC.MQIA_QSG_DISP)
    _scope(p, qm)
    p.done()
    object_type = "QUEUE" if q_type in (None, CMQC.MQQT_ALL) else _q_type(q_type)
    found = display.select(Request(object_type, name, everything=True), snapshot)
    names = [f.name for f in found]
    types = [snapshot.queues[n].obj.q_type for n in names]
    disps = [snapshot.queues[n].obj.qsg_disp for n in names]
    return [[(F.MQCACF_Q_NAMES, names), (F.MQIACF_Q_TYPES, types), (F.MQIACF_QSG_DISPS, disps)]]


def _inquire_q_status(message: Message, qm: QMgr, snapshot: Snapshot) -> Reply:
    p = _Parameters(message)
    name = p.string(CMQC.MQCA_Q_NAME, required=True) or ""
    kind = p.integer(F.MQIACF_Q_STATUS_TYPE)
    everything, wanted = _wanted("QSTATUS", p.integers(F.MQIACF_Q_STATUS_ATTRS))
    _scope(p, qm)
    p.done()
    if kind not in (None, F.MQIACF_Q_STATUS, F.MQIACF_Q_HANDLE):
        raise PCFError(F.MQRCCF_CFIN_PARM_ID_ERROR, f"StatusType {kind}", F.MQIACF_Q_STATUS_TYPE)
    status_type = "HANDLE" if kind == F.MQIACF_Q_HANDLE else "QUEUE"
    request = Request("QSTATUS", name, everything, wanted, type=status_type)
    return _objects(request, snapshot, CMQC.MQRC_UNKNOWN_OBJECT_NAME)


def _inquire_channel(message: Message, qm: QMgr, snapshot: Snapshot) -> Reply:
    p = _Parameters(message)
    name = p.string(F.MQCACH_CHANNEL_NAME, required=True) or ""
    channel_type = p.integer(F.MQIACH_CHANNEL_TYPE)
    everything, wanted = _wanted("CHANNEL", p.integers(F.MQIACF_CHANNEL_ATTRS))
    _scope(p, qm)
    p.done()
    selectors: tuple[tuple[str, str], ...] = ()
    if channel_type not in (None, F.MQCHT_ALL):
        names = FAMILIES["CHANNEL"]["CHLTYPE"].values or {}
        words = [w for w, v in names.items() if v == channel_type]
        if not words:
            raise PCFError(F.MQRCCF_CFIN_PARM_ID_ERROR, f"ChannelType {channel_type}",
                           F.MQIACH_CHANNEL_TYPE)  # fmt: skip
        selectors = (("CHLTYPE", words[0]),)
    request = Request("CHANNEL", name, everything, wanted, selectors=selectors)
    return _objects(request, snapshot, F.MQRCCF_CHANNEL_NOT_FOUND)


def _inquire_channel_status(message: Message, qm: QMgr, snapshot: Snapshot) -> Reply:
    p = _Parameters(message)
    name = p.string(F.MQCACH_CHANNEL_NAME, required=True) or ""
    instance = p.integer(F.MQIACH_CHANNEL_INSTANCE_TYPE)
    everything, wanted = _wanted("CHSTATUS", p.integers(F.MQIACH_CHANNEL_INSTANCE_ATTRS))
    _scope(p, qm)
    p.done()
    if instance not in (None, F.MQOT_CURRENT_CHANNEL):
        raise PCFError(F.MQRCCF_CFIN_PARM_ID_ERROR, "only current channel status is kept",
                       F.MQIACH_CHANNEL_INSTANCE_TYPE)  # fmt: skip
    request = Request("CHSTATUS", name, everything, wanted)
    return _objects(request, snapshot, F.MQRCCF_CHL_STATUS_NOT_FOUND)


def _inquire_q_mgr(message: Message, qm: QMgr, snapshot: Snapshot) -> Reply:
    p = _Parameters(message)
    everything, wanted = _wanted("QMGR", p.integers(F.MQIACF_Q_MGR_ATTRS))
    _scope(p, qm)
    p.done()
    return _objects(Request("QMGR", "*", everything, wanted), snapshot, F.MQRCCF_NONE_FOUND)


def _inquire_cf_struc(message: Message, qm: QMgr, snapshot: Snapshot) -> Reply:
    p = _Parameters(message)
    name = p.string(CMQC.MQCA_CF_STRUC_NAME, required=True) or ""
    everything, wanted = _wanted("CFSTRUCT", p.integers(F.MQIACF_CF_STRUC_ATTRS))
    _scope(p, qm)
    p.done()
    request = Request("CFSTRUCT", name, everything, wanted)
    return _objects(request, snapshot, CMQC.MQRC_UNKNOWN_OBJECT_NAME)


def _inquire_cf_struc_status(message: Message, qm: QMgr, snapshot: Snapshot) -> Reply:
    p = _Parameters(message)
    name = p.string(CMQC.MQCA_CF_STRUC_NAME, required=True) or ""
    kind = p.integer(F.MQIACF_CF_STATUS_TYPE)
    _scope(p, qm)
    p.done()
    if kind not in (None, F.MQIACF_CF_STATUS_SUMMARY):
        raise PCFError(F.MQRCCF_CFIN_PARM_ID_ERROR, "only TYPE(SUMMARY) is kept",
                       F.MQIACF_CF_STATUS_TYPE)  # fmt: skip
    request = Request("CFSTATUS", name, everything=True)
    return _objects(request, snapshot, CMQC.MQRC_UNKNOWN_OBJECT_NAME)


def _ping(message: Message, qm: QMgr, snapshot: Snapshot) -> Reply:
    p = _Parameters(message)
    p.done()
    return [[]]


# ---- changes, through MQSC -----------------------------------------------------------
def _attributes(left: dict[int, Value], object_type: str) -> list[str]:
    """CREATE_Q's and CHANGE_Q's attribute parameters as MQSC words."""
    allowed = schema.KEYWORDS[object_type]
    words = []
    for parameter, value in left.items():
        keyword = keyword_of("QUEUE", parameter)
        name = QUEUE.get(keyword or "")
        if keyword is None or name is None or (
            keyword not in allowed and keyword not in ("SHARE", "TRIGGER")
        ):  # fmt: skip
            raise PCFError(_id_error(value), f"{object_type} takes no parameter {parameter}",
                           parameter)  # fmt: skip
        if name.string and isinstance(value, str):
            words.append(f"{keyword}('{value.replace(chr(39), chr(39) * 2)}')")
        elif name.values is not None and isinstance(value, int):
            text = [w for w, v in name.values.items() if v == value]
            if not text:
                raise PCFError(F.MQRCCF_ATTR_VALUE_ERROR, f"{keyword} {value}", parameter)
            words.append(text[0] if keyword in ("SHARE", "TRIGGER") else f"{keyword}({text[0]})")
        elif name.values is None and not name.string and isinstance(value, int):
            words.append(f"{keyword}({value})")
        else:
            raise PCFError(_id_error(value), f"{keyword}: wrong type of value", parameter)
    return words


def _run_mqsc(qm: QMgr, text: str) -> Reply:
    parsed = commands.parse(text)
    if parsed.error is not None:
        raise PCFError(F.MQRCCF_ATTR_VALUE_ERROR, " ".join(parsed.error))
    for command in parsed.commands:
        try:
            reader.apply(qm, [command])
        except MQSCError as error:
            raise PCFError(_refusal(error), str(error)) from None
    return [[]]


def _refusal(error: MQSCError) -> int:
    """The reason a PCF reply gives for a change the queue manager refused."""
    cause = error.__cause__
    if isinstance(cause, MQMIError):
        return {CMQC.MQRC_OBJECT_IN_USE: F.MQRCCF_OBJECT_OPEN}.get(cause.reason, cause.reason)
    text = str(error)
    if "already defined with another type" in text:
        return F.MQRCCF_OBJECT_WRONG_TYPE
    if "already defined" in text:
        return F.MQRCCF_OBJECT_ALREADY_EXISTS
    if "there is no" in text or "names no" in text:
        return CMQC.MQRC_UNKNOWN_OBJECT_NAME
    return F.MQRCCF_ATTR_VALUE_ERROR


def _create_q(message: Message, qm: QMgr, snapshot: Snapshot) -> Reply:
    return _define(message, qm, "DEFINE")


def _change_q(message: Message, qm: QMgr, snapshot: Snapshot) -> Reply:
    return _define(message, qm, "ALTER")


def _define(message: Message, qm: QMgr, verb: str) -> Reply:
    p = _Parameters(message)
    name = p.string(CMQC.MQCA_Q_NAME, required=True) or ""
    q_type = p.integer(CMQC.MQIA_Q_TYPE, required=True)
    replace = p.integer(F.MQIACF_REPLACE) if verb == "DEFINE" else None
    _scope(p, qm)
    object_type = _q_type(q_type if q_type is not None else 0)
    words = _attributes(p.rest(), object_type)
    if replace == F.MQRP_YES:
        words.append("REPLACE")
    return _run_mqsc(qm, f"{verb} {object_type}('{name}') {' '.join(words)}")


def _copy_q(message: Message, qm: QMgr, snapshot: Snapshot) -> Reply:
    p = _Parameters(message)
    source = p.string(F.MQCACF_FROM_Q_NAME, required=True) or ""
    target = p.string(F.MQCACF_TO_Q_NAME, required=True) or ""
    q_type = p.integer(CMQC.MQIA_Q_TYPE, required=True)
    replace = p.integer(F.MQIACF_REPLACE)
    _scope(p, qm)
    object_type = _q_type(q_type if q_type is not None else 0)
    words = _attributes(p.rest(), object_type)
    if replace == F.MQRP_YES:
        words.append("REPLACE")
    return _run_mqsc(qm, f"DEFINE {object_type}('{target}') LIKE('{source}') {' '.join(words)}")


def _delete_q(message: Message, qm: QMgr, snapshot: Snapshot) -> Reply:
    p = _Parameters(message)
    name = p.string(CMQC.MQCA_Q_NAME, required=True) or ""
    q_type = p.integer(CMQC.MQIA_Q_TYPE)
    purge = p.integer(F.MQIACF_PURGE)
    _scope(p, qm)
    p.done()
    found = qm.find(name)
    if found is None:
        raise PCFError(CMQC.MQRC_UNKNOWN_OBJECT_NAME, f"no queue {name}")
    if q_type is not None and q_type != CMQC.MQQT_ALL and found[1].q_type != q_type:
        raise PCFError(F.MQRCCF_OBJECT_WRONG_TYPE, f"{name} is another type of queue")
    object_type = _Q_TYPES[found[1].q_type]
    extra = " PURGE" if purge == F.MQPO_YES and object_type == "QLOCAL" else ""
    return _run_mqsc(qm, f"DELETE {object_type}('{name}'){extra}")


def _clear_q(message: Message, qm: QMgr, snapshot: Snapshot) -> Reply:
    p = _Parameters(message)
    name = p.string(CMQC.MQCA_Q_NAME, required=True) or ""
    _scope(p, qm)
    p.done()
    try:
        commands.clear(qm, name)
    except MQMIError as error:
        reasons = {CMQC.MQRC_OBJECT_IN_USE: F.MQRCCF_OBJECT_OPEN,
                   CMQC.MQRC_Q_TYPE_ERROR: F.MQRCCF_Q_WRONG_TYPE}  # fmt: skip
        raise PCFError(reasons.get(error.reason, error.reason), str(error)) from None
    return [[]]


_COMMANDS: dict[int, Handler] = {
    F.MQCMD_INQUIRE_Q: _inquire_q, F.MQCMD_INQUIRE_Q_NAMES: _inquire_q_names,
    F.MQCMD_INQUIRE_Q_STATUS: _inquire_q_status, F.MQCMD_INQUIRE_CHANNEL: _inquire_channel,
    F.MQCMD_INQUIRE_CHANNEL_STATUS: _inquire_channel_status,
    F.MQCMD_INQUIRE_Q_MGR: _inquire_q_mgr, F.MQCMD_INQUIRE_CF_STRUC: _inquire_cf_struc,
    F.MQCMD_INQUIRE_CF_STRUC_STATUS: _inquire_cf_struc_status,
    F.MQCMD_CREATE_Q: _create_q, F.MQCMD_CHANGE_Q: _change_q, F.MQCMD_COPY_Q: _copy_q,
    F.MQCMD_DELETE_Q: _delete_q, F.MQCMD_CLEAR_Q: _clear_q, F.MQCMD_PING_Q_MGR: _ping,
}  # fmt: skip

__all__ = ["process"]
