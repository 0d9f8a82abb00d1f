"""The PCF commands that change queues, run as the MQSC commands they stand for.

CREATE_Q and CHANGE_Q are DEFINE and ALTER with the attributes given as parameters,
COPY_Q a DEFINE LIKE, DELETE_Q a DELETE (PURGE with MQPO_YES). Each is built as a
command object (``reader.command``) from the request's values, never written as MQSC
text: a name or a string is data, whatever characters it holds, and the reader's checks
apply to it as to a command read from a file, so both doors of the queue manager apply
one set of rules. Names are checked as MQ names first (``pcf_parameters.object_name``:
MQRCCF_OBJECT_NAME_ERROR, MQRCCF_CFST_STRING_LENGTH_ERR). A refusal is answered with
the reason a queue manager gives for it.
"""

from __future__ import annotations

from qsg import CMQC
from qsg import CMQCFC as F
from qsg.core import attributes as table
from qsg.core.attributes.kinds import Names, Text
from qsg.core.errors import MQMIError
from qsg.core.qmgr import QMgr
from qsg.mqsc import commands, dispositions, reader
from qsg.mqsc.errors import MQSCError
from qsg.mqsc.pcf import Message, PCFError, Value
from qsg.mqsc.pcf_parameters import (
    Q_TYPES,
    Parameters,
    Reply,
    id_error,
    object_name,
    queue_type,
    scope,
)
from qsg.mqsc.status import Snapshot

#: A command's word: (keyword, value or None, quoted), as ``reader.command`` takes it.
Word = tuple[str, str | None, bool]


def _attributes(left: dict[int, Value], object_type: str) -> list[Word]:
    """CREATE_Q's and CHANGE_Q's attribute parameters as the command's words: each an
    attribute of the table ``object_type`` takes, its value as MQSC writes it."""
    rows = {a.parameter: a for a in table.keywords(object_type).values() if a.parameter}
    words: list[Word] = []
    for parameter, value in left.items():
        a = rows.get(parameter)
        if a is None:
            raise PCFError(
                id_error(value), f"{object_type} takes no parameter {parameter}", parameter
            )
        if isinstance(a.kind, Names) and isinstance(value, list):
            value = ",".join(str(v).strip() for v in value)  # NAMES: an MQCFSL
        elif not isinstance(value, int | str) or isinstance(value, int) == (a.kind.length > 0):
            raise PCFError(id_error(value), f"{a.keyword}: wrong type of value", parameter)
        text = a.kind.text(value)
        if text is None:
            raise PCFError(F.MQRCCF_ATTR_VALUE_ERROR, f"{a.keyword} {value}", parameter)
        if a.bare:
            words.append((text, None, False))
        else:
            words.append((a.keyword, text, isinstance(a.kind, Text)))  # a string as given
    return words


def _run(qm: QMgr, verb: str, object_type: str, name: str, words: list[Word]) -> Reply:
    """Build the command from its parts and run it on ``qm``."""
    try:
        built = reader.command(verb, object_type, name, words)
    except MQSCError as error:
        raise PCFError(F.MQRCCF_ATTR_VALUE_ERROR, str(error)) from None
    try:
        reader.apply(qm, [built])
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


#: QSGDisposition's values as QSGDISP words (``qsg.mqsc.dispositions``).
_QSGDISP = {value: word for word, value in dispositions.WORDS.items()}


def _qsgdisp(p: Parameters) -> list[Word]:
    """QSGDisposition (MQIA_QSG_DISP) as the command's QSGDISP word, if given."""
    value = p.integer(CMQC.MQIA_QSG_DISP)
    if value is None:
        return []
    if value not in _QSGDISP:
        raise PCFError(F.MQRCCF_DISPOSITION_CONFLICT, f"QSGDisposition {value}", CMQC.MQIA_QSG_DISP)
    return [("QSGDISP", _QSGDISP[value], False)]


def create_q(message: Message, qm: QMgr, snapshot: Snapshot) -> Reply:
    return _define(message, qm, "DEFINE")


def change_q(message: Message, qm: QMgr, snapshot: Snapshot) -> Reply:
    return _define(message, qm, "ALTER")


def _define(message: Message, qm: QMgr, verb: str) -> Reply:
    p = Parameters(message)
    name = object_name(p.string(CMQC.MQCA_Q_NAME, required=True), CMQC.MQCA_Q_NAME)
    q_type = p.integer(CMQC.MQIA_Q_TYPE, required=True)
    replace = p.integer(F.MQIACF_REPLACE) if verb == "DEFINE" else None
    scope(p, qm)
    object_type = queue_type(q_type if q_type is not None else 0)
    disposition = _qsgdisp(p)
    words = [*_attributes(p.rest(), object_type), *disposition]
    if replace == F.MQRP_YES:
        words.append(("REPLACE", None, False))
    return _run(qm, verb, object_type, name, words)


def copy_q(message: Message, qm: QMgr, snapshot: Snapshot) -> Reply:
    p = Parameters(message)
    source = object_name(p.string(F.MQCACF_FROM_Q_NAME, required=True), F.MQCACF_FROM_Q_NAME)
    target = object_name(p.string(F.MQCACF_TO_Q_NAME, required=True), F.MQCACF_TO_Q_NAME)
    q_type = p.integer(CMQC.MQIA_Q_TYPE, required=True)
    replace = p.integer(F.MQIACF_REPLACE)
    scope(p, qm)
    object_type = queue_type(q_type if q_type is not None else 0)
    words = [("LIKE", source, True), *_attributes(p.rest(), object_type)]
    if replace == F.MQRP_YES:
        words.append(("REPLACE", None, False))
    return _run(qm, "DEFINE", object_type, target, words)


def delete_q(message: Message, qm: QMgr, snapshot: Snapshot) -> Reply:
    p = Parameters(message)
    name = object_name(p.string(CMQC.MQCA_Q_NAME, required=True), CMQC.MQCA_Q_NAME)
    q_type = p.integer(CMQC.MQIA_Q_TYPE)
    purge = p.integer(F.MQIACF_PURGE)
    disposition = _qsgdisp(p)
    scope(p, qm)
    p.done()
    found = qm.find(name)
    obj = found[1] if found is not None else None
    if disposition == [("QSGDISP", "GROUP", False)] and qm.qsg is not None:
        try:
            obj = qm.qsg.repository.get("QUEUE", name)  # the GROUP object is Db2's
        except MQMIError as error:
            raise PCFError(error.reason, str(error)) from None
    if obj is None:
        raise PCFError(CMQC.MQRC_UNKNOWN_OBJECT_NAME, f"no queue {name}")
    if q_type is not None and q_type != CMQC.MQQT_ALL and obj.q_type != q_type:
        raise PCFError(F.MQRCCF_OBJECT_WRONG_TYPE, f"{name} is another type of queue")
    object_type = Q_TYPES[obj.q_type]
    words: list[Word] = [*disposition]
    if purge == F.MQPO_YES and object_type == "QLOCAL":
        words.append(("PURGE", None, False))
    return _run(qm, "DELETE", object_type, name, words)


def clear_q(message: Message, qm: QMgr, snapshot: Snapshot) -> Reply:
    p = Parameters(message)
    name = object_name(p.string(CMQC.MQCA_Q_NAME, required=True), CMQC.MQCA_Q_NAME)
    scope(p, qm)
    p.done()
    try:
        commands.clear(qm, name)
    except MQMIError as error:
        reasons = {
            CMQC.MQRC_OBJECT_IN_USE: F.MQRCCF_OBJECT_OPEN,
            CMQC.MQRC_Q_TYPE_ERROR: F.MQRCCF_Q_WRONG_TYPE,
        }
        raise PCFError(reasons.get(error.reason, error.reason), str(error)) from None
    return [[]]


def _object(
    message: Message, qm: QMgr, verb: str, object_type: str, parameter: int, longest: int = 48
) -> Reply:
    """Create, Change or Delete of an object named by ``parameter`` (a namelist, a storage
    class), or Change Queue Manager (``parameter`` 0): the DEFINE, ALTER or DELETE it
    stands for, with its attributes as the command's words."""
    p = Parameters(message)
    name = ""
    if parameter:
        given = p.string(parameter, required=True)
        name = object_name(given, parameter, object_type.lower(), longest)
    replace = p.integer(F.MQIACF_REPLACE) if verb == "DEFINE" else None
    scope(p, qm)
    # QSGDisposition as the command's QSGDISP (a namelist's, a storage class's).
    words = _qsgdisp(p) if parameter else []
    words += _attributes(p.rest(), object_type) if verb != "DELETE" else []
    if verb == "DELETE":
        p.done()
    if replace == F.MQRP_YES:
        words.append(("REPLACE", None, False))
    return _run(qm, verb, object_type, name, words)


def _copy(
    message: Message, qm: QMgr, object_type: str, source: int, target: int, longest: int = 48
) -> Reply:
    """Copy Namelist, Copy Storage Class: a DEFINE LIKE the ``source`` object, named by
    ``target``, with the attributes given changed."""
    p = Parameters(message)
    what = object_type.lower()
    given = object_name(p.string(source, required=True), source, what, longest)
    name = object_name(p.string(target, required=True), target, what, longest)
    replace = p.integer(F.MQIACF_REPLACE)
    scope(p, qm)
    words = [("LIKE", given, True), *_qsgdisp(p), *_attributes(p.rest(), object_type)]
    if replace == F.MQRP_YES:
        words.append(("REPLACE", None, False))
    return _run(qm, "DEFINE", object_type, name, words)


def copy_namelist(message: Message, qm: QMgr, snapshot: Snapshot) -> Reply:
    return _copy(message, qm, "NAMELIST", F.MQCACF_FROM_NAMELIST_NAME, F.MQCACF_TO_NAMELIST_NAME)


def copy_stg_class(message: Message, qm: QMgr, snapshot: Snapshot) -> Reply:
    return _copy(message, qm, "STGCLASS", F.MQCACF_FROM_STORAGE_CLASS, F.MQCACF_TO_STORAGE_CLASS, 8)


def create_namelist(message: Message, qm: QMgr, snapshot: Snapshot) -> Reply:
    return _object(message, qm, "DEFINE", "NAMELIST", CMQC.MQCA_NAMELIST_NAME)


def change_namelist(message: Message, qm: QMgr, snapshot: Snapshot) -> Reply:
    return _object(message, qm, "ALTER", "NAMELIST", CMQC.MQCA_NAMELIST_NAME)


def delete_namelist(message: Message, qm: QMgr, snapshot: Snapshot) -> Reply:
    return _object(message, qm, "DELETE", "NAMELIST", CMQC.MQCA_NAMELIST_NAME)


def create_stg_class(message: Message, qm: QMgr, snapshot: Snapshot) -> Reply:
    return _object(message, qm, "DEFINE", "STGCLASS", CMQC.MQCA_STORAGE_CLASS, 8)


def change_stg_class(message: Message, qm: QMgr, snapshot: Snapshot) -> Reply:
    return _object(message, qm, "ALTER", "STGCLASS", CMQC.MQCA_STORAGE_CLASS, 8)


def delete_stg_class(message: Message, qm: QMgr, snapshot: Snapshot) -> Reply:
    return _object(message, qm, "DELETE", "STGCLASS", CMQC.MQCA_STORAGE_CLASS, 8)


def change_q_mgr(message: Message, qm: QMgr, snapshot: Snapshot) -> Reply:
    return _object(message, qm, "ALTER", "QMGR", 0)


__all__ = [
    "change_namelist",
    "change_q",
    "change_q_mgr",
    "change_stg_class",
    "clear_q",
    "copy_namelist",
    "copy_q",
    "copy_stg_class",
    "create_namelist",
    "create_q",
    "create_stg_class",
    "delete_namelist",
    "delete_q",
    "delete_stg_class",
]
