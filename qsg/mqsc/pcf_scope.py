"""PCF requests with a CommandScope: the response sets z/OS answers them in.

IBM, "Extended responses" and "Extended responses to commands using CommandScope":
each command generates one or more *sets* of responses; each set's messages are
numbered from 1 in MsgSeqNumber, the last has Control MQCFC_LAST; every response
carries MQBACF_RESPONSE_ID (the identifier of its set) and MQCACF_RESPONSE_Q_MGR_NAME
(the queue manager the set comes from), and a response may announce further sets with
MQBACF_RESPONSE_SET. "If a command uses the CommandScope parameter ... there is an
initial response set from the queue manager where the command was received" (with
MQIACF_COMMAND_INFO MQCMDI_CMDSCOPE_ACCEPTED and MQIACF_CMDSCOPE_Q_MGR_COUNT), "then a
separate set, or sets, of responses ... for each queue manager to which the command is
directed ... Finally, there is a response set from the receiving queue manager which
includes an overall summary response (type MQCFT_XR_SUMMARY)."

The final set here is an MQCFT_XR_MSG with MQIACF_COMMAND_INFO MQCMDI_CMDSCOPE_COMPLETED
and then that summary: IBM's ``ibmmq`` package (its PCFExecute) knows the replies to a
CommandScope are all in when it reads that MQCMDI_CMDSCOPE_COMPLETED message.
UNVERIFIED: the exact messages of z/OS's initial and final sets beyond the structures
IBM names (no z/OS trace was at hand), and the reason a CommandScope naming a member
that is not active is refused with: MQRC_Q_MGR_NOT_AVAILABLE (2059), the reason IBM's
REST API ("REST API error handling") gives for a member of a command scope that is not
running.

The rules here are synchronous and take what the actors found: each member's own set
(``qsg.mqsc.pcf_commands.process`` run on that member with ``scoped``), and which
members are active.
"""

from __future__ import annotations

import struct
from collections.abc import Mapping, Sequence

from qsg import CMQC
from qsg import CMQCFC as F
from qsg.mqsc.pcf import Header, PCFError, Value, byte_order, decode, encode
from qsg.mqsc.pcf_commands import LENGTHS, identified, kind_and_command

#: The QSGDisposition values whose definition the group holds once: a command with one
#: runs where it is received, so a CommandScope of another member is refused
#: (MQRCCF_DISPOSITION_CONFLICT: "CommandScope incompatible with QSGDisposition").
_GROUP_DISPOSITIONS = (CMQC.MQQSGD_GROUP, CMQC.MQQSGD_SHARED)


#: The commands whose PCF definition has no CommandScope: a CF structure is the group's,
#: the same from every member ("Inquire CF Structure", "Inquire CF Structure Status",
#: "Reset CF Structure"). Their CommandScope is a parameter they do not take.
UNSCOPED = frozenset(
    {F.MQCMD_INQUIRE_CF_STRUC, F.MQCMD_INQUIRE_CF_STRUC_STATUS, F.MQCMD_RESET_CF_STRUC}
)
#: The commands whose CommandScope names one queue manager, never ``*`` ("Backup CF
#: Structure", "Recover CF Structure": "blank ... or a queue manager name").
ONE_MEMBER = frozenset({F.MQCMD_BACKUP_CF_STRUC, F.MQCMD_RECOVER_CF_STRUC})


def scope_error(data: bytes, encoding: int, scope: str) -> int | None:
    """The reason a request's CommandScope ``scope`` is refused before it is sent to
    any member, or None: MQRCCF_CFST_PARM_ID_ERROR for a command that takes no
    CommandScope, MQRCCF_PARM_VALUE_ERROR ("not one of a list of acceptable values")
    for ``*`` where only a queue manager's name is allowed."""
    _, command = kind_and_command(data, encoding)
    if command in UNSCOPED:
        return F.MQRCCF_CFST_PARM_ID_ERROR
    if command in ONE_MEMBER and scope == "*":
        return F.MQRCCF_PARM_VALUE_ERROR
    return None


def command_scope(data: bytes, encoding: int) -> str:
    """The CommandScope a request names ("*" or a queue manager's name), "" when it
    names none or blanks (or its bytes are no request: the command server's usual
    answer says why)."""
    try:
        message = decode(data, encoding)
    except PCFError:
        return ""
    value = message.parameters.get(F.MQCACF_COMMAND_SCOPE)
    return value.strip().upper() if isinstance(value, str) else ""


def set_ids(msg_id: bytes, count: int) -> list[bytes]:
    """``count`` response set identifiers (MQ_RESPONSE_ID_LENGTH bytes each) for the
    request whose MsgId is ``msg_id``: unique to it, and the same on a replay."""
    base = msg_id[: F.MQ_RESPONSE_ID_LENGTH - 4].ljust(F.MQ_RESPONSE_ID_LENGTH - 4, b"\0")
    return [base + number.to_bytes(4, "big") for number in range(count)]


def extended(data: bytes, encoding: int) -> bytes:
    """The request as an MQCFT_COMMAND_XR: a command with a CommandScope is answered in
    extended responses alone ("Commands issued on z/OS generate only extended
    responses")."""
    kind, _ = kind_and_command(data, encoding)
    if kind != F.MQCFT_COMMAND:
        return data
    return struct.pack(byte_order(encoding) + "i", F.MQCFT_COMMAND_XR) + data[4:]


def conflict(data: bytes, encoding: int) -> bool:
    """Whether the request gives a QSGDisposition of GROUP or SHARED, which a
    CommandScope of another queue manager cannot go with."""
    try:
        message = decode(data, encoding)
    except PCFError:
        return False
    return message.parameters.get(CMQC.MQIA_QSG_DISP) in _GROUP_DISPOSITIONS


def refused(data: bytes, encoding: int, q_mgr: str, response_id: bytes, reason: int) -> list[bytes]:
    """The one response to a request whose CommandScope ``q_mgr`` cannot send: an
    MQCFT_XR_SUMMARY of MQCC_FAILED and ``reason``, naming MQCACF_COMMAND_SCOPE."""
    _, command = kind_and_command(data, encoding)
    header = Header(F.MQCFT_XR_SUMMARY, command, comp_code=CMQC.MQCC_FAILED, reason=reason)
    parameters = [
        *identified(response_id, q_mgr),
        (F.MQIACF_PARAMETER_ID, F.MQCACF_COMMAND_SCOPE),
    ]
    return [encode(header, parameters, encoding, LENGTHS)]


def gathered(
    data: bytes,
    encoding: int,
    receiver: str,
    ids: Sequence[bytes],
    sets: Mapping[str, list[bytes]],
) -> list[bytes]:
    """Every response to a request with a CommandScope, received by ``receiver`` and
    answered by ``sets`` (each member's own set, by member, made with ``ids[1 + i]``):
    the initial set (``ids[0]``), the members' sets, the final set (``ids[-1]``)."""
    _, command = kind_and_command(data, encoding)
    announced: list[tuple[int, Value]] = [(F.MQBACF_RESPONSE_SET, i) for i in ids[1:]]
    initial = [
        *identified(ids[0], receiver),
        (F.MQIACF_COMMAND_INFO, F.MQCMDI_CMDSCOPE_ACCEPTED),
        (F.MQIACF_CMDSCOPE_Q_MGR_COUNT, len(sets)),
        *announced,
    ]
    out = [encode(Header(F.MQCFT_XR_MSG, command), initial, encoding, LENGTHS)]
    failed = False
    for replies in sets.values():
        out += replies
        failed = failed or any(_comp_code(r, encoding) != CMQC.MQCC_OK for r in replies)
    completed = [
        *identified(ids[-1], receiver),
        (F.MQIACF_COMMAND_INFO, F.MQCMDI_CMDSCOPE_COMPLETED),
    ]
    out.append(
        encode(Header(F.MQCFT_XR_MSG, command, 1, F.MQCFC_NOT_LAST), completed, encoding, LENGTHS)
    )
    summary = Header(
        F.MQCFT_XR_SUMMARY,
        command,
        2,
        F.MQCFC_LAST,
        comp_code=CMQC.MQCC_FAILED if failed else CMQC.MQCC_OK,
        reason=F.MQRCCF_COMMAND_FAILED if failed else CMQC.MQRC_NONE,
    )
    out.append(encode(summary, identified(ids[-1], receiver), encoding, LENGTHS))
    return out


def _comp_code(reply: bytes, encoding: int) -> int:
    return int(struct.unpack_from(byte_order(encoding) + "i", reply, 24)[0])


__all__ = [
    "ONE_MEMBER",
    "UNSCOPED",
    "command_scope",
    "conflict",
    "extended",
    "gathered",
    "refused",
    "scope_error",
    "set_ids",
]
