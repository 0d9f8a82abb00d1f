"""Small helpers for driving a rules-layer queue manager in tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from qsg import CMQC, GMO, MD, PMO
from qsg.core.connection import Connection
from qsg.core.errors import MQMIError
from qsg.core.handle import Handle
from qsg.core.qmgr import QMgr

ALL = CMQC.MQOO_INPUT_SHARED | CMQC.MQOO_OUTPUT | CMQC.MQOO_BROWSE | CMQC.MQOO_INQUIRE
NO_SYNC_PUT = PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)
SYNC_PUT = CMQC.MQPMO_SYNCPOINT


def open_queue(qm: QMgr, name: str, options: int = ALL, conn: Connection | None = None) -> Handle:
    return (conn or qm.connect()).open(name, options)


def put(
    h: Handle, body: bytes, now: float, options: int = CMQC.MQPMO_NO_SYNCPOINT, **md: Any
) -> MD:
    """Put outside syncpoint unless told; return the MD with its output fields."""
    desc = MD(**md)
    h.put(body, desc, PMO(Options=options), now=now)
    return desc


def get(
    h: Handle,
    now: float,
    options: int = CMQC.MQGMO_NO_SYNCPOINT,
    md: MD | None = None,
    max_length: int | None = None,
    **gmo: Any,
) -> tuple[bytes, MD]:
    desc = MD() if md is None else md
    body = h.get(max_length, desc, GMO(Options=options, **gmo), now=now)
    return body, desc


def get_or_none(
    h: Handle, now: float, options: int = CMQC.MQGMO_NO_SYNCPOINT, md: MD | None = None
) -> tuple[bytes, MD] | None:
    """A get that answers None for MQRC_NO_MSG_AVAILABLE (and raises any other reason)."""
    from qsg import MQMIError

    try:
        return get(h, now, options, md)
    except MQMIError as error:
        if error.reason != CMQC.MQRC_NO_MSG_AVAILABLE:
            raise
        return None


def browse_first(h: Handle, now: float) -> tuple[bytes, MD]:
    return get(h, now, CMQC.MQGMO_BROWSE_FIRST)


def drain(h: Handle, now: float) -> list[bytes]:
    """Every body a non-syncpoint get returns now, in order."""
    from qsg import MQMIError

    bodies = []
    while True:
        try:
            bodies.append(get(h, now)[0])
        except MQMIError as error:
            if error.reason != CMQC.MQRC_NO_MSG_AVAILABLE:
                raise
            return bodies


def refusal_detail(comp: int, reason: int, call: Callable[..., object], *args: object) -> str:
    """``call(*args)``, which must raise MQMIError with completion code ``comp`` and
    ``reason``: the error's detail, for the test to hold its text."""
    with pytest.raises(MQMIError) as caught:
        call(*args)
    assert (caught.value.comp, caught.value.reason) == (comp, reason)
    return caught.value.detail
