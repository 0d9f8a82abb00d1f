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

import struct

from qsg import CMQC
from qsg import CMQCFC as F
from qsg.core.qmgr import QMgr
from qsg.mqsc import pcf_changes as changes
from qsg.mqsc import pcf_inquiries as inquiries
from qsg.mqsc import pcf_structures as structures
from qsg.mqsc.pcf import Header, Message, PCFError, Value, byte_order, decode, encode
from qsg.mqsc.pcf_connections import LENGTHS as CONNECTION_LENGTHS
from qsg.mqsc.pcf_connections import inquire_connection
from qsg.mqsc.pcf_names import FAMILIES
from qsg.mqsc.pcf_parameters import Handler
from qsg.mqsc.status import Snapshot

#: The response set identifier of a reply whose request named none (the first set's is
#: "arbitrary", IBM says): 24 zero bytes, MQ_RESPONSE_ID_LENGTH.
NO_RESPONSE_ID = bytes(F.MQ_RESPONSE_ID_LENGTH)


def process(
    data: bytes,
    encoding: int,
    qm: QMgr,
    snapshot: Snapshot,
    *,
    response_id: bytes = NO_RESPONSE_ID,
    scoped: bool = False,
) -> list[bytes]:
    """The reply messages to one PCF request ``data`` (its MQMD Encoding given).

    A request of type MQCFT_COMMAND is answered as the distributed platforms answer it:
    an MQCFT_RESPONSE per object, the last with MQCFC_LAST. One of type
    MQCFT_COMMAND_XR (what z/OS wants, and pymqi's PCFExecute sends) is answered as
    z/OS answers it, in a set of extended responses: an MQCFT_XR_ITEM per object, then
    an MQCFT_XR_SUMMARY with MQCFC_LAST carrying the command's completion code and
    reason; each starts with MQBACF_RESPONSE_ID (``response_id``, the set's) and
    MQCACF_RESPONSE_Q_MGR_NAME (``qm``'s name), as IBM's "Extended responses" says
    every extended response does. ``scoped``: the request was sent here by a command
    scope (``qsg.mqsc.pcf_scope``), so its CommandScope is not this queue manager's
    to check."""
    command, extended = 0, False
    try:
        message = decode(data, encoding)
        command = message.header.command
        extended = message.header.type == F.MQCFT_COMMAND_XR
        if scoped:
            message = without_scope(message)
        handler = _COMMANDS.get(command)
        if handler is None:
            raise PCFError(F.MQRCCF_CFH_COMMAND_ERROR, f"command {command} is not served")
        replies = handler(message, qm, snapshot)
    except PCFError as error:
        extra: list[tuple[int, Value]] = []
        if error.parameter:
            extra.append((F.MQIACF_PARAMETER_ID, error.parameter))
        extra.extend(error.extra)
        kind = F.MQCFT_XR_SUMMARY if extended else F.MQCFT_RESPONSE
        header = Header(kind, command, comp_code=CMQC.MQCC_FAILED, reason=error.reason)
        if extended:
            extra = [*identified(response_id, qm.name), *extra]
        return [encode(header, extra, encoding, _LENGTHS)]
    if extended:
        replies = [r for r in replies if r]  # a command's empty reply is its summary
        replies.append([])
    out = []
    for number, parameters in enumerate(replies, start=1):
        last = number == len(replies)
        kind = F.MQCFT_RESPONSE
        if extended:
            kind = F.MQCFT_XR_SUMMARY if last else F.MQCFT_XR_ITEM
            parameters = [*identified(response_id, qm.name), *parameters]
        header = Header(kind, command, number, F.MQCFC_LAST if last else F.MQCFC_NOT_LAST)
        out.append(encode(header, parameters, encoding, _LENGTHS))
    return out


def identified(response_id: bytes, q_mgr: str) -> list[tuple[int, Value]]:
    """The two parameters every extended response starts with: its set's identifier
    (MQBACF_RESPONSE_ID, an MQCFBS) and the queue manager that made the set
    (MQCACF_RESPONSE_Q_MGR_NAME, an MQCFST of 48)."""
    return [(F.MQBACF_RESPONSE_ID, response_id), (F.MQCACF_RESPONSE_Q_MGR_NAME, q_mgr)]


def without_scope(message: Message) -> Message:
    """``message`` without its CommandScope (MQCACF_COMMAND_SCOPE)."""
    kept = {k: v for k, v in message.parameters.items() if k != F.MQCACF_COMMAND_SCOPE}
    return Message(message.header, kept)


def structure_changed(
    data: bytes, encoding: int, replies: list[bytes]
) -> tuple[str, list[str], bool] | None:
    """For a Reset, Backup or Recover CF Structure request that succeeded: its MQSC verb,
    the structure it named and whether a Recover purged it (Purge MQPO_YES): what the
    world does after it (``actors.admin``)."""
    verbs = {structures.RESET: "RESET", structures.BACKUP: "BACKUP", structures.RECOVER: "RECOVER"}
    _, command = _kind_and_command(data, encoding)
    if command not in verbs or not replies:
        return None
    comp_code = struct.unpack_from(byte_order(encoding) + "9i", replies[-1])[6]
    if comp_code != CMQC.MQCC_OK:
        return None
    parameters = decode(data, encoding).parameters
    name = parameters.get(CMQC.MQCA_CF_STRUC_NAME)
    purge = command == structures.RECOVER and parameters.get(F.MQIACF_PURGE) == F.MQPO_YES
    return verbs[command], [str(name).strip()], purge


def command_failed(
    data: bytes, encoding: int, q_mgr: str = "", response_id: bytes = NO_RESPONSE_ID
) -> bytes:
    """The one reply to a request whose command failed inside the queue manager ``q_mgr``
    (a defect, not a refusal): MQCC_FAILED, MQRCCF_COMMAND_FAILED, in the shape the
    request's type asks for (an MQCFT_XR_SUMMARY to an MQCFT_COMMAND_XR)."""
    kind, command = _kind_and_command(data, encoding)
    extended = kind == F.MQCFT_COMMAND_XR
    reply = F.MQCFT_XR_SUMMARY if extended else F.MQCFT_RESPONSE
    header = Header(reply, command, comp_code=CMQC.MQCC_FAILED, reason=F.MQRCCF_COMMAND_FAILED)
    parameters = identified(response_id, q_mgr) if extended else []
    return encode(header, parameters, encoding, _LENGTHS)


def describe(data: bytes, encoding: int) -> str:
    """A request as a log names it: ``PCF MQCMD_INQUIRE_Q (13)``."""
    _, command = _kind_and_command(data, encoding)
    return f"PCF {_COMMAND_NAMES.get(command, 'MQCMD_?')} ({command})"


def kind_and_command(data: bytes, encoding: int) -> tuple[int, int]:
    """MQCFH's Type and Command, as far as the bytes have them (0 where they do not)."""
    return _kind_and_command(data, encoding)


def _kind_and_command(data: bytes, encoding: int) -> tuple[int, int]:
    """MQCFH's Type and Command, as far as the bytes have them (0 where they do not)."""
    if len(data) < 16:
        return 0, 0
    kind, _, _, command = struct.unpack_from(byte_order(encoding) + "4i", data)
    return kind, command


#: IBM's name of each command number (cmqcfc.h), the first of its synonyms.
_COMMAND_NAMES = {
    value: name
    for name, value in sorted(vars(F).items(), reverse=True)
    if name.startswith("MQCMD_") and isinstance(value, int)
}


#: Each string parameter's padded length, from the families' tables.
_LENGTHS = {
    n.parameter: n.length for family in FAMILIES.values() for n in family.values() if n.string
}
_LENGTHS[F.MQCACF_Q_NAMES] = 48
_LENGTHS[F.MQCACF_RESPONSE_Q_MGR_NAME] = 48
_LENGTHS.update(CONNECTION_LENGTHS)
LENGTHS = _LENGTHS


_COMMANDS: dict[int, Handler] = {
    F.MQCMD_INQUIRE_Q: inquiries.inquire_q,
    F.MQCMD_INQUIRE_Q_NAMES: inquiries.inquire_q_names,
    F.MQCMD_INQUIRE_Q_STATUS: inquiries.inquire_q_status,
    F.MQCMD_INQUIRE_CHANNEL: inquiries.inquire_channel,
    F.MQCMD_INQUIRE_CHANNEL_STATUS: inquiries.inquire_channel_status,
    F.MQCMD_INQUIRE_PROCESS: inquiries.inquire_process,
    F.MQCMD_INQUIRE_Q_MGR: inquiries.inquire_q_mgr,
    F.MQCMD_INQUIRE_CF_STRUC: inquiries.inquire_cf_struc,
    F.MQCMD_INQUIRE_CF_STRUC_STATUS: inquiries.inquire_cf_struc_status,
    F.MQCMD_INQUIRE_CONNECTION: inquire_connection,
    F.MQCMD_PING_Q_MGR: inquiries.ping,
    structures.RESET: structures.reset_cf_struc,
    structures.BACKUP: structures.backup_cf_struc,
    structures.RECOVER: structures.recover_cf_struc,
    F.MQCMD_CREATE_Q: changes.create_q,
    F.MQCMD_CHANGE_Q: changes.change_q,
    F.MQCMD_COPY_Q: changes.copy_q,
    F.MQCMD_DELETE_Q: changes.delete_q,
    F.MQCMD_CLEAR_Q: changes.clear_q,
    F.MQCMD_CHANGE_Q_MGR: changes.change_q_mgr,
    F.MQCMD_INQUIRE_NAMELIST: inquiries.inquire_namelist,
    F.MQCMD_CREATE_NAMELIST: changes.create_namelist,
    F.MQCMD_CHANGE_NAMELIST: changes.change_namelist,
    F.MQCMD_COPY_NAMELIST: changes.copy_namelist,
    F.MQCMD_DELETE_NAMELIST: changes.delete_namelist,
    F.MQCMD_INQUIRE_STG_CLASS: inquiries.inquire_stg_class,
    F.MQCMD_CREATE_STG_CLASS: changes.create_stg_class,
    F.MQCMD_CHANGE_STG_CLASS: changes.change_stg_class,
    F.MQCMD_COPY_STG_CLASS: changes.copy_stg_class,
    F.MQCMD_DELETE_STG_CLASS: changes.delete_stg_class,
}

__all__ = [
    "LENGTHS",
    "NO_RESPONSE_ID",
    "command_failed",
    "describe",
    "identified",
    "kind_and_command",
    "process",
    "without_scope",
]
