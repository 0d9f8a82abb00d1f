"""Messages that carry an MQXQH: the transmission-queue header and its second Expiry.

IBM's "Expiry (MQLONG)" note 9 (and its z/OS and IBM i forms): a put to a remote queue wraps
the data in an MQXQH whose embedded MQMD has the same Expiry as the outer one; a direct
put to a transmission queue must already start with a valid MQXQH and have format
MQFMT_XMIT_Q_HEADER; on MQGET from any queue both Expiry fields are decremented; short
data is no error there; discard goes by the outer descriptor; an inner Expiry that ran
out while the outer did not is set to zero.
"""

from __future__ import annotations

import struct
from typing import Any

from qsg import CMQC
from qsg.core import expiry
from qsg.core.errors import MQMIError
from qsg.core.layouts import XQH, byte_order, read_inner_expiry, write_inner_expiry
from qsg.core.structs import MD


def wrap(md: MD, body: bytes, remote_q: str, remote_q_mgr: str) -> tuple[MD, bytes]:
    """The descriptor and data a put to a remote queue leaves on the transmission queue.

    Both Expiry fields are the application's (note 9, first point).
    """
    outer, data = wrap_descriptor(md.get(), body, remote_q, remote_q_mgr)
    return MD(**outer), data


def wrap_descriptor(
    desc: dict[str, Any], body: bytes, remote_q: str, remote_q_mgr: str
) -> tuple[dict[str, Any], bytes]:
    """``wrap`` for the engine, on a stored descriptor: the outer one and the data.

    The embedded MQMD is the application's, with the identifiers and context the put
    gave it, so the message arrives with the MsgId its sender was told.
    """
    inner = MD(**desc)
    inner.Version = CMQC.MQMD_VERSION_1
    header = XQH(remote_q.encode(), remote_q_mgr.encode(), inner).pack(desc["Encoding"])
    outer = dict(desc)
    outer["Format"] = CMQC.MQFMT_XMIT_Q_HEADER
    return outer, header + body


def check_direct_put(md: MD, body: bytes, *, enforce_max: bool) -> None:
    """Refuse a direct put to a transmission queue that IBM refuses.

    The data must begin with a valid MQXQH (MQRC_XQH_ERROR otherwise: wrong format,
    StrucId or Version, or too short to hold it), its Expiry must be valid, and it must
    agree with the outer Expiry (MQRC_EXPIRY_ERROR: "if the expiry value in the message
    descriptor written to the transmission queue is inconsistent with the value in the
    embedded message descriptor, an expiry error rejection occurs").
    """
    if md.Format != CMQC.MQFMT_XMIT_Q_HEADER:
        raise MQMIError.failed(
            CMQC.MQRC_XQH_ERROR,
            f"a put to a transmission queue needs Format MQFMT_XMIT_Q_HEADER, not {md.Format!r}",
        )
    if len(body) < CMQC.MQXQH_LENGTH_1:
        raise MQMIError.failed(
            CMQC.MQRC_XQH_ERROR,
            f"the data ({len(body)} bytes) is too short for an MQXQH ({CMQC.MQXQH_LENGTH_1})",
        )
    strucid, version = struct.unpack_from(byte_order(md.Encoding) + "4si", body)
    if strucid != CMQC.MQXQH_STRUC_ID or version != CMQC.MQXQH_VERSION_1:
        raise MQMIError.failed(
            CMQC.MQRC_XQH_ERROR, f"not a version-1 MQXQH: StrucId {strucid!r}, Version {version}"
        )
    inner = read_inner_expiry(body, md.Encoding)
    assert inner is not None  # the length was checked above
    expiry.check_expiry(inner, enforce_max=enforce_max, what="MQXQH.MsgDesc.Expiry")
    if inner != md.Expiry:
        raise MQMIError.failed(
            CMQC.MQRC_EXPIRY_ERROR,
            f"MQMD.Expiry={md.Expiry} disagrees with MQXQH.MsgDesc.Expiry={inner}",
        )


def decrement_inner(body: bytes, encoding: int, put_time: float, now: float) -> bytes:
    """The data with the embedded Expiry decremented by the time spent on the queue.

    Unchanged when the data is too short to hold it (no error) or the inner Expiry is
    unlimited (or not a valid lifetime); zero once the inner lifetime has run out.
    """
    inner = read_inner_expiry(body, encoding)
    if inner is None or inner <= 0:
        return body
    left = expiry.remaining(expiry.expires_at(put_time, inner), now)
    return write_inner_expiry(body, encoding, left) if left != inner else body
