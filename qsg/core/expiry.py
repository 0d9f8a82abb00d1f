"""Expiry arithmetic: MQMD.Expiry is a lifetime in tenths of a second.

IBM: "Expiry (MQLONG)", "MDEXP (10-digit signed integer)" (IBM i). Time is the
simulator's ``now`` in seconds, passed in; nothing here reads a clock.
"""

from __future__ import annotations

import math

from qsg import CMQC
from qsg.core.errors import MQMIError

#: The largest Expiry a queue manager enforcing the maximum accepts (zh note 1).
MAX_EXPIRY = 999_999_999


def check_expiry(expiry: int, *, enforce_max: bool, what: str = "MQMD.Expiry") -> None:
    """Refuse an Expiry MQPUT/MQPUT1 would refuse, with MQRC_EXPIRY_ERROR.

    Zero, or negative other than MQEI_UNLIMITED, is always an error (note 1); above
    999 999 999 only when the queue manager enforces the maximum (zh note 1, IBM's
    AMQ_ENFORCE_MAX_EXPIRY_ERROR). No report is generated for a refused put.
    """
    if expiry == CMQC.MQEI_UNLIMITED:
        return
    if expiry <= 0:
        raise MQMIError.failed(
            CMQC.MQRC_EXPIRY_ERROR, f"{what}={expiry}: must be > 0 or MQEI_UNLIMITED (-1)"
        )
    if enforce_max and expiry > MAX_EXPIRY:
        raise MQMIError.failed(
            CMQC.MQRC_EXPIRY_ERROR, f"{what}={expiry}: above the maximum {MAX_EXPIRY}"
        )


def expires_at(put_time: float, expiry: int) -> float | None:
    """When a message put at ``put_time`` becomes eligible for discard; None if never."""
    if expiry == CMQC.MQEI_UNLIMITED:
        return None
    return put_time + expiry / 10


def is_expired(expires: float | None, now: float) -> bool:
    """Whether a message has passed its expiry time (and may only be discarded)."""
    return expires is not None and expires <= now


def remaining(expires: float | None, now: float) -> int:
    """What is left of a lifetime, in tenths of a second, as MQGET reports it.

    MQEI_UNLIMITED for an unlimited message; otherwise the tenths left rounded up, and 0
    once the time has passed. (Rounding to 1e-6 first keeps 60.1 - 0.1 from becoming
    600.0000001 tenths and so 601.)
    """
    if expires is None:
        return CMQC.MQEI_UNLIMITED
    tenths = (expires - now) * 10
    left = math.ceil(tenths)
    if tenths - (left - 1) < 1e-6:
        # Just over a whole tenth, where rounding decides. Elsewhere rounding to 1e-6
        # cannot change the ceiling (``round`` with digits was a thirtieth of a world
        # message's time).
        left = math.ceil(round(tenths, 6))
    return left if left > 0 else 0
