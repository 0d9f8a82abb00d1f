"""Report messages the queue manager makes: the expiration report.

IBM, "Expiry (MQLONG)": "A report is generated when an expired message is discarded, if the
message specified one of the MQRO_EXPIRATION_* report options"; it is made at discard,
not at eligibility (note 3), and is never part of a unit of work (note 4).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from qsg import CMQC
from qsg.core.message import Message
from qsg.core.structs import MD, name_of

_EXPIRATION_BITS = CMQC.MQRO_EXPIRATION_WITH_FULL_DATA
#: MQRO_EXPIRATION_WITH_DATA carries this much of the original data.
WITH_DATA_LENGTH = 100


@dataclass(frozen=True, slots=True)
class Report:
    """A report to put: the destination and the message."""

    reply_to_q: str
    reply_to_q_mgr: str
    md: MD
    body: bytes


def wants_expiration_report(report_options: int) -> bool:
    return bool(report_options & CMQC.MQRO_EXPIRATION)


def expiration_report(
    msg: Message, *, q_mgr_name: str, new_msg_id: Callable[[], bytes]
) -> Report | None:
    """The expiration report owed for a discarded message, or None if none was asked for."""
    options = msg.desc["Report"]
    if not wants_expiration_report(options):
        return None  # the common case on a scan: decided before building anything
    original = MD()
    msg.to_md(original)
    return _report(
        original,
        msg.body,
        CMQC.MQFB_EXPIRATION,
        options & _EXPIRATION_BITS,
        (CMQC.MQRO_EXPIRATION_WITH_DATA, CMQC.MQRO_EXPIRATION_WITH_FULL_DATA),
        q_mgr_name,
        new_msg_id,
    )


def exception_report(
    original: MD, body: bytes, reason: int, *, q_mgr_name: str, new_msg_id: Callable[[], bytes]
) -> Report | None:
    """The exception report a message not delivered to its destination queue asked for
    (MQRO_EXCEPTION*): Feedback is the reason code of the failed put ("Report messages -
    Intra Group Queuing"); None if none was asked for."""
    level = original.Report & CMQC.MQRO_EXCEPTION_WITH_FULL_DATA
    if not level:
        return None
    return _report(
        original,
        body,
        reason,
        level,
        (CMQC.MQRO_EXCEPTION_WITH_DATA, CMQC.MQRO_EXCEPTION_WITH_FULL_DATA),
        q_mgr_name,
        new_msg_id,
    )


def _report(
    original: MD,
    body: bytes,
    feedback: int,
    level: int,
    data_levels: tuple[int, int],
    q_mgr_name: str,
    new_msg_id: Callable[[], bytes],
) -> Report:
    """A report on ``original``: no data, its first 100 bytes (``data_levels[0]``) or
    all of it (``data_levels[1]``); with the original's priority and persistence."""
    options = original.Report
    if level == data_levels[1]:
        data = body
    elif level == data_levels[0]:
        data = body[:WITH_DATA_LENGTH]
    else:
        data = b""
    md = MD(
        MsgType=CMQC.MQMT_REPORT,
        Feedback=feedback,
        Expiry=CMQC.MQEI_UNLIMITED,
        Priority=original.Priority,
        Persistence=original.Persistence,
        Encoding=original.Encoding,
        CodedCharSetId=original.CodedCharSetId,
        Format=original.Format if data else CMQC.MQFMT_NONE,
        # MQRO_NEW_MSG_ID and MQRO_COPY_MSG_ID_TO_CORREL_ID are the defaults (0).
        MsgId=original.MsgId if options & CMQC.MQRO_PASS_MSG_ID else new_msg_id(),
        CorrelId=original.CorrelId if options & CMQC.MQRO_PASS_CORREL_ID else original.MsgId,
        ReplyToQMgr=q_mgr_name.encode(),
        PutApplType=CMQC.MQAT_QMGR,
        PutApplName=q_mgr_name.encode()[:28],
        GroupId=original.GroupId,
        MsgSeqNumber=original.MsgSeqNumber,
        Offset=original.Offset,
        MsgFlags=original.MsgFlags,
        OriginalLength=len(body),
    )
    return Report(
        reply_to_q=name_of(original.ReplyToQ).decode(),
        reply_to_q_mgr=name_of(original.ReplyToQMgr).decode(),
        md=md,
        body=data,
    )
