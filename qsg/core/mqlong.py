"""MQLONG range checks at the MQI: what a structure may hold but an MQ call refuses.

An MQLONG is a signed 32-bit integer, -2**31 to 2**31-1. The structures (``qsg.core.
structs``) accept 0 to 2**32-1 as well, as pymqi's do, so that an unsigned view of a
field (a flag word with the top bit set) can be assigned; but no such value reaches the
queue manager through MQ's C interface, and one that got past MQPUT here would only fail
later, deep inside, when a channel or a dead-letter header packs the descriptor in IBM's
binary layout. So MQOPEN, MQPUT, MQPUT1 and MQGET refuse a field out of range at the
call, with the reason code IBM documents for that field ("MQPUT - Put message",
"MQGET - Get message" and each reason code's page in the IBM MQ reference); a field with
no code of its own fails with the error of its structure (MQRC_MD_ERROR,
MQRC_PMO_ERROR, MQRC_GMO_ERROR, MQRC_OD_ERROR).

The common call costs one dict lookup: a structure marks itself (``structs.WIDE``) when
one of its MQLONG fields is given a value above 2**31-1, and only a marked structure's
fields are looked at; one found all in range again loses its mark.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any

from qsg import CMQC
from qsg.core.errors import MQMIError
from qsg.core.structs import GMO, MD, OD, PMO, WIDE, MQOpts

MQLONG_MIN = -(2**31)
MQLONG_MAX = 2**31 - 1

#: The reason code for each MQLONG field with one of its own; the others get their
#: structure's error.
MD_REASONS: dict[str, int] = {
    "Report": CMQC.MQRC_REPORT_OPTIONS_ERROR,
    "MsgType": CMQC.MQRC_MSG_TYPE_ERROR,
    "Expiry": CMQC.MQRC_EXPIRY_ERROR,
    "Feedback": CMQC.MQRC_FEEDBACK_ERROR,
    "Priority": CMQC.MQRC_PRIORITY_ERROR,
    "Persistence": CMQC.MQRC_PERSISTENCE_ERROR,
    "MsgSeqNumber": CMQC.MQRC_MSG_SEQ_NUMBER_ERROR,
    "Offset": CMQC.MQRC_OFFSET_ERROR,
    "MsgFlags": CMQC.MQRC_MSG_FLAGS_ERROR,
    "OriginalLength": CMQC.MQRC_ORIGINAL_LENGTH_ERROR,
}
PMO_REASONS: dict[str, int] = {
    "Options": CMQC.MQRC_OPTIONS_ERROR,
    "Context": CMQC.MQRC_CONTEXT_HANDLE_ERROR,
}
GMO_REASONS: dict[str, int] = {
    "Options": CMQC.MQRC_OPTIONS_ERROR,
    "WaitInterval": CMQC.MQRC_WAIT_INTERVAL_ERROR,
    "Signal1": CMQC.MQRC_SIGNAL1_ERROR,
    "MatchOptions": CMQC.MQRC_MATCH_OPTIONS_ERROR,
    "MsgHandle": CMQC.MQRC_HMSG_ERROR,
}
OD_REASONS: dict[str, int] = {"ObjectType": CMQC.MQRC_OBJECT_TYPE_ERROR}


class _Checker:
    """The range check of one structure's MQLONG fields."""

    def __init__(self, cls: type[MQOpts], reasons: dict[str, int], default: int) -> None:
        self.name = cls.__name__
        self.fields = tuple(name for name, _, kind in cls._fields if kind == "l")
        self.values = itemgetter(*self.fields)
        self.reasons = {name: reasons.get(name, default) for name in self.fields}

    def __call__(self, structure: MQOpts) -> None:
        fields = structure.__dict__
        if WIDE not in fields:
            return  # no field was ever given more than an MQLONG holds
        values: Any = self.values(fields)
        for name, value in zip(self.fields, values, strict=True):
            if not MQLONG_MIN <= value <= MQLONG_MAX:
                raise MQMIError.failed(
                    self.reasons[name],
                    f"MQ{self.name}.{name}={value} is outside an MQLONG's range "
                    f"({MQLONG_MIN} to {MQLONG_MAX})",
                )
        del fields[WIDE]  # back in range: the structure may be used as it is


check_md = _Checker(MD, MD_REASONS, CMQC.MQRC_MD_ERROR)
check_pmo = _Checker(PMO, PMO_REASONS, CMQC.MQRC_PMO_ERROR)
check_gmo = _Checker(GMO, GMO_REASONS, CMQC.MQRC_GMO_ERROR)
check_od = _Checker(OD, OD_REASONS, CMQC.MQRC_OD_ERROR)


def check_put(md: MD, pmo: PMO) -> None:
    """MQPUT and MQPUT1: the descriptor's and the put options' MQLONGs in range."""
    if WIDE in md.__dict__ or WIDE in pmo.__dict__:  # the common put: two lookups
        check_md(md)
        check_pmo(pmo)


def check_get(md: MD, gmo: GMO) -> None:
    """MQGET: the descriptor's (its match fields among them) and the get options'."""
    if WIDE in md.__dict__ or WIDE in gmo.__dict__:
        check_md(md)
        check_gmo(gmo)


__all__ = ["MQLONG_MAX", "MQLONG_MIN", "check_get", "check_md", "check_od", "check_put"]
