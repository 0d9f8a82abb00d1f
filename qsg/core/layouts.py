"""IBM's binary layouts: MQMD version 1 and 2, MQXQH, MQDLH and MQTM.

Offsets and lengths are IBM's (cmqc.h: 324, 364, 428, 172 and 684 bytes). Data too short
for a layout is refused with the structure's own reason code (MQRC_MD_ERROR,
MQRC_XQH_ERROR, MQRC_DLH_ERROR, MQRC_TM_ERROR), never a ``struct.error``. Integers follow
the ``Encoding`` given (MQENC_NATIVE on x86 is little-endian, "reversed"); character
fields are blank-padded and byte fields NUL-padded, as MQ writes them.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from qsg import CMQC
from qsg.core.errors import MQMIError
from qsg.core.structs import MD, MD_FIELDS

# MQMD version 1, then the five fields version 2 adds.
_MD1 = "4s i i i i i i i 8s i i 24s 24s i 48s 48s 12s 32s 32s i 28s 8s 8s 4s"
_MD2_EXTRA = " 24s i i i i"
_XQH_HEAD = "4s i 48s 48s"
_DLH = "4s i i 48s 48s i i 8s i 28s 8s 8s"
_TM = "4s i 48s 48s 64s i 256s 128s 128s"

#: Offset of MQMD.Expiry in an MQMD, and of the embedded MQMD's Expiry in an MQXQH.
MD_EXPIRY_OFFSET = 16
XQH_MSGDESC_OFFSET = 104
XQH_INNER_EXPIRY_OFFSET = XQH_MSGDESC_OFFSET + MD_EXPIRY_OFFSET


def byte_order(encoding: int) -> str:
    """The struct byte-order prefix for an MQ ``Encoding``."""
    integer = encoding & CMQC.MQENC_INTEGER_MASK
    return ">" if integer == CMQC.MQENC_INTEGER_NORMAL else "<"


def _struct(fmt: str, encoding: int) -> struct.Struct:
    return struct.Struct(byte_order(encoding) + fmt)


_MD_CHAR = {name for name, _, kind in MD._fields if kind != "l" and kind[0] == "c"}


def pack_md(md: MD, version: int | None = None, encoding: int | None = None) -> bytes:
    """MQMD in IBM's layout: 324 bytes for version 1, 364 for version 2."""
    version = md.Version if version is None else version
    if version not in (CMQC.MQMD_VERSION_1, CMQC.MQMD_VERSION_2):
        raise ValueError(f"MQMD version must be 1 or 2, not {version}")
    enc = md.Encoding if encoding is None else encoding
    names = MD_FIELDS[: 24 if version == 1 else 29]
    fmt = _MD1 + (_MD2_EXTRA if version == 2 else "")
    values = []
    for name in names:
        value = getattr(md, name)
        if name == "Version":
            value = version
        elif name in _MD_CHAR:
            value = value.ljust(_char_len(name), b" ")
        values.append(value)
    try:
        return _struct(fmt, enc).pack(*values)
    except struct.error as error:  # an MQLONG the structure holds but the layout cannot
        raise MQMIError.failed(CMQC.MQRC_MD_ERROR, f"MQMD cannot be packed: {error}") from None


def unpack_md(
    data: bytes,
    encoding: int = CMQC.MQENC_NATIVE,
    *,
    version: int | None = None,
) -> MD:
    """An MD from IBM's layout; the version (1 or 2) is read from the data unless given
    (an MQXQH holds a version-1 layout whatever its Version field says).

    MQRC_MD_ERROR for data too short for the version, or a version that is neither.
    """
    if len(data) < CMQC.MQMD_LENGTH_1:
        raise MQMIError.failed(
            CMQC.MQRC_MD_ERROR,
            f"an MQMD needs at least {CMQC.MQMD_LENGTH_1} bytes, got {len(data)}",
        )
    order = byte_order(encoding)
    if version is None:
        version = struct.unpack_from(order + "i", data, 4)[0]
    if version not in (CMQC.MQMD_VERSION_1, CMQC.MQMD_VERSION_2):
        raise MQMIError.failed(CMQC.MQRC_MD_ERROR, f"MQMD.Version={version}: it is 1 or 2")
    if version == CMQC.MQMD_VERSION_2 and len(data) < CMQC.MQMD_LENGTH_2:
        raise MQMIError.failed(
            CMQC.MQRC_MD_ERROR,
            f"a version-2 MQMD needs {CMQC.MQMD_LENGTH_2} bytes, got {len(data)}",
        )
    fmt = _MD1 + (_MD2_EXTRA if version == CMQC.MQMD_VERSION_2 else "")
    values = struct.unpack_from(order + fmt, data)
    md = MD()
    for name, value in zip(MD_FIELDS, values, strict=False):
        object.__setattr__(md, name, value)
    return md


def _char_len(name: str) -> int:
    kind = MD._kinds[name]
    assert not isinstance(kind, str)
    return kind[1]


@dataclass(frozen=True, slots=True)
class XQH:
    """MQXQH, the transmission-queue header: where to and the original (v1) MQMD."""

    RemoteQName: bytes
    RemoteQMgrName: bytes
    MsgDesc: MD
    StrucId: bytes = CMQC.MQXQH_STRUC_ID
    Version: int = CMQC.MQXQH_VERSION_1

    def pack(self, encoding: int = CMQC.MQENC_NATIVE) -> bytes:
        head = _struct(_XQH_HEAD, encoding).pack(
            self.StrucId,
            self.Version,
            self.RemoteQName.ljust(48, b" "),
            self.RemoteQMgrName.ljust(48, b" "),
        )
        return head + pack_md(self.MsgDesc, version=1, encoding=encoding)

    @classmethod
    def unpack(cls, data: bytes, encoding: int = CMQC.MQENC_NATIVE) -> XQH:
        """MQRC_XQH_ERROR for data too short to hold an MQXQH. The embedded descriptor
        is an MQMD1 (IBM: "MsgDesc (MQMD1)"): it is read as one even when its Version
        field claims 2, as a sender that copied an application's MQMD2 may write it."""
        if len(data) < CMQC.MQXQH_LENGTH_1:
            raise MQMIError.failed(
                CMQC.MQRC_XQH_ERROR, f"an MQXQH needs {CMQC.MQXQH_LENGTH_1} bytes, got {len(data)}"
            )
        strucid, version, rq, rqm = _struct(_XQH_HEAD, encoding).unpack_from(data)
        inner = unpack_md(
            data[XQH_MSGDESC_OFFSET : CMQC.MQXQH_LENGTH_1], encoding, version=CMQC.MQMD_VERSION_1
        )
        inner.Version = CMQC.MQMD_VERSION_1
        return cls(rq, rqm, inner, strucid, version)


@dataclass(frozen=True, slots=True)
class DLH:
    """MQDLH, the dead-letter header put in front of a message on the dead-letter queue."""

    Reason: int
    DestQName: bytes
    DestQMgrName: bytes
    Encoding: int
    CodedCharSetId: int
    Format: bytes
    PutApplType: int = CMQC.MQAT_QMGR
    PutApplName: bytes = b""
    PutDate: bytes = b""
    PutTime: bytes = b""
    StrucId: bytes = CMQC.MQDLH_STRUC_ID
    Version: int = CMQC.MQDLH_VERSION_1

    def pack(self, encoding: int = CMQC.MQENC_NATIVE) -> bytes:
        return _struct(_DLH, encoding).pack(
            self.StrucId,
            self.Version,
            self.Reason,
            self.DestQName.ljust(48, b" "),
            self.DestQMgrName.ljust(48, b" "),
            self.Encoding,
            self.CodedCharSetId,
            self.Format.ljust(8, b" "),
            self.PutApplType,
            self.PutApplName.ljust(28, b" "),
            self.PutDate.ljust(8, b" "),
            self.PutTime.ljust(8, b" "),
        )

    @classmethod
    def unpack(cls, data: bytes, encoding: int = CMQC.MQENC_NATIVE) -> DLH:
        """MQRC_DLH_ERROR for data too short to hold an MQDLH."""
        if len(data) < CMQC.MQDLH_LENGTH_1:
            raise MQMIError.failed(
                CMQC.MQRC_DLH_ERROR, f"an MQDLH needs {CMQC.MQDLH_LENGTH_1} bytes, got {len(data)}"
            )
        (sid, ver, reason, dq, dqm, enc, ccsid, fmt, pat, pan, pd, pt) = _struct(
            _DLH, encoding
        ).unpack_from(data)
        return cls(reason, dq, dqm, enc, ccsid, fmt, pat, pan, pd, pt, sid, ver)


@dataclass(frozen=True, slots=True)
class TM:
    """MQTM, the trigger message: which queue to serve and how to start its server,
    from the application queue's definition and its process definition."""

    QName: bytes
    ProcessName: bytes = b""
    TriggerData: bytes = b""
    ApplType: int = 0
    ApplId: bytes = b""
    EnvData: bytes = b""
    UserData: bytes = b""
    StrucId: bytes = CMQC.MQTM_STRUC_ID
    Version: int = CMQC.MQTM_VERSION_1

    def pack(self, encoding: int = CMQC.MQENC_NATIVE) -> bytes:
        return _struct(_TM, encoding).pack(
            self.StrucId,
            self.Version,
            self.QName.ljust(48, b" "),
            self.ProcessName.ljust(48, b" "),
            self.TriggerData.ljust(64, b" "),
            self.ApplType,
            self.ApplId.ljust(256, b" "),
            self.EnvData.ljust(128, b" "),
            self.UserData.ljust(128, b" "),
        )

    @classmethod
    def unpack(cls, data: bytes, encoding: int = CMQC.MQENC_NATIVE) -> TM:
        if len(data) < CMQC.MQTM_LENGTH_1:
            raise MQMIError.failed(
                CMQC.MQRC_TM_ERROR, f"an MQTM needs {CMQC.MQTM_LENGTH_1} bytes, got {len(data)}"
            )
        (sid, ver, q, process, tdata, atype, appl, env, user) = _struct(_TM, encoding).unpack_from(
            data
        )
        return cls(q, process, tdata, atype, appl, env, user, sid, ver)


def read_inner_expiry(data: bytes, encoding: int) -> int | None:
    """The Expiry of the MQMD inside an MQXQH, or None when the data is too short."""
    if len(data) < XQH_INNER_EXPIRY_OFFSET + 4:
        return None
    value: int = struct.unpack_from(byte_order(encoding) + "i", data, XQH_INNER_EXPIRY_OFFSET)[0]
    return value


def write_inner_expiry(data: bytes, encoding: int, expiry: int) -> bytes:
    """The data with the embedded MQMD's Expiry replaced (unchanged when too short)."""
    if len(data) < XQH_INNER_EXPIRY_OFFSET + 4:
        return data
    buf = bytearray(data)
    struct.pack_into(byte_order(encoding) + "i", buf, XQH_INNER_EXPIRY_OFFSET, expiry)
    return bytes(buf)


assert struct.calcsize("<" + _MD1) == CMQC.MQMD_LENGTH_1
assert struct.calcsize("<" + _MD1 + _MD2_EXTRA) == CMQC.MQMD_LENGTH_2
assert struct.calcsize("<" + _XQH_HEAD) + CMQC.MQMD_LENGTH_1 == CMQC.MQXQH_LENGTH_1
assert struct.calcsize("<" + _DLH) == CMQC.MQDLH_LENGTH_1
assert struct.calcsize("<" + _TM) == CMQC.MQTM_LENGTH_1
