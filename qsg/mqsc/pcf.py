"""PCF messages as bytes: IBM's layouts of MQCFH and the parameter structures.

A PCF message is an MQCFH (nine MQLONGs: Type, StrucLength, Version, Command,
MsgSeqNumber, Control, CompCode, Reason, ParameterCount) followed by ParameterCount
parameter structures, each starting with its Type and StrucLength:

- MQCFIN  integer:      Type, StrucLength (16), Parameter, Value
- MQCFST  string:       Type, StrucLength, Parameter, CodedCharSetId, StringLength, String
- MQCFIL  integer list: Type, StrucLength, Parameter, Count, Values
- MQCFSL  string list:  Type, StrucLength, Parameter, CodedCharSetId, Count, StringLength,
                        Strings (Count of StringLength bytes each)
- MQCFBS  byte string:  Type, StrucLength, Parameter, StringLength, String

Structures are padded to a multiple of 4 bytes. Integers are in the byte order the
message descriptor's Encoding names (MQENC_INTEGER_NORMAL big-endian, _REVERSED
little-endian). ``decode`` checks a request as a queue manager does and raises
``PCFError`` with the MQRCCF_* reason it would reply with; ``encode`` builds a reply.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

from qsg import CMQC
from qsg import CMQCFC as F
from qsg.core.errors import QSGError

#: A parameter's value: MQCFIN int, MQCFST str, MQCFIL list[int], MQCFSL list[str],
#: MQCFBS bytes.
Value = int | str | bytes | list[int] | list[str]

_DUPLICATE = {
    F.MQCFT_INTEGER: F.MQRCCF_CFIN_DUPLICATE_PARM,
    F.MQCFT_STRING: F.MQRCCF_CFST_DUPLICATE_PARM,
    F.MQCFT_INTEGER_LIST: F.MQRCCF_CFIN_DUPLICATE_PARM,
    F.MQCFT_STRING_LIST: F.MQRCCF_CFSL_DUPLICATE_PARM,
    F.MQCFT_BYTE_STRING: F.MQRCCF_CFBS_DUPLICATE_PARM,
}


class PCFError(QSGError, ValueError):
    """A request the command server refuses: ``reason`` is the MQRCCF_* (or MQRC_*) code
    of its reply; ``parameter`` the parameter at fault, when there is one; ``extra``
    what else the reply carries (a CF structure's MQIACF_CF_STRUC_STATUS)."""

    def __init__(
        self,
        reason: int,
        message: str,
        parameter: int = 0,
        *,
        extra: tuple[tuple[int, int], ...] = (),
    ) -> None:
        super().__init__(f"{message} (reason {reason})")
        self.reason = reason
        self.parameter = parameter
        self.extra = extra


@dataclass(frozen=True, slots=True)
class Header:
    """MQCFH's fields."""

    type: int = F.MQCFT_RESPONSE
    command: int = 0
    msg_seq_number: int = 1
    control: int = F.MQCFC_LAST
    comp_code: int = 0
    reason: int = 0
    version: int = F.MQCFH_VERSION_1


@dataclass(frozen=True, slots=True)
class Message:
    """A decoded PCF message: its header and its parameters by identifier, in order."""

    header: Header
    parameters: dict[int, Value] = field(default_factory=dict)


def byte_order(encoding: int) -> str:
    """``struct``'s byte order for an MQMD Encoding."""
    return "<" if encoding & CMQC.MQENC_INTEGER_MASK == CMQC.MQENC_INTEGER_REVERSED else ">"


def decode(data: bytes, encoding: int) -> Message:
    """A PCF command message; PCFError with the reason a queue manager gives if the
    bytes are not one."""
    order = byte_order(encoding)
    if len(data) < F.MQCFH_STRUC_LENGTH:
        raise PCFError(F.MQRCCF_MSG_LENGTH_ERROR, f"{len(data)} bytes: too short for an MQCFH")
    fields = struct.unpack_from(order + "9i", data)
    kind, length, version, command, seq, control, comp, reason, count = fields
    if kind not in (F.MQCFT_COMMAND, F.MQCFT_COMMAND_XR):
        raise PCFError(F.MQRCCF_CFH_TYPE_ERROR, f"MQCFH Type {kind} is not MQCFT_COMMAND")
    if length != F.MQCFH_STRUC_LENGTH:
        raise PCFError(F.MQRCCF_CFH_LENGTH_ERROR, f"MQCFH StrucLength {length} is not 36")
    if version not in (F.MQCFH_VERSION_1, F.MQCFH_VERSION_2, F.MQCFH_VERSION_3):
        raise PCFError(F.MQRCCF_CFH_VERSION_ERROR, f"MQCFH Version {version} is not 1..3")
    if seq != 1:
        raise PCFError(F.MQRCCF_CFH_MSG_SEQ_NUMBER_ERR, f"MQCFH MsgSeqNumber {seq} is not 1")
    if control != F.MQCFC_LAST:  # a command in several messages is not served
        raise PCFError(F.MQRCCF_CFH_CONTROL_ERROR, f"MQCFH Control {control} is not MQCFC_LAST")
    if count < 0:
        raise PCFError(F.MQRCCF_CFH_PARM_COUNT_ERROR, f"MQCFH ParameterCount {count} < 0")
    header = Header(kind, command, seq, control, comp, reason, version)
    parameters: dict[int, Value] = {}
    at = F.MQCFH_STRUC_LENGTH
    for _ in range(count):
        if at + 8 > len(data):
            raise PCFError(
                F.MQRCCF_CFH_PARM_COUNT_ERROR,
                f"ParameterCount {count}: the message ends after {len(parameters)} parameters",
            )
        kind, length = struct.unpack_from(order + "2i", data, at)
        if length < 8 or at + length > len(data):
            raise PCFError(
                _LENGTH_ERRORS.get(kind, F.MQRCCF_STRUCTURE_TYPE_ERROR),
                f"a parameter's StrucLength {length} runs past the message",
            )
        parameter, value = _parameter(data[at : at + length], kind, order)
        if parameter in parameters:
            raise PCFError(_DUPLICATE[kind], f"parameter {parameter} is given twice", parameter)
        parameters[parameter] = value
        at += length
    if at != len(data):
        raise PCFError(
            F.MQRCCF_MSG_LENGTH_ERROR, f"{len(data) - at} bytes follow the last parameter"
        )
    return Message(header, parameters)


_LENGTH_ERRORS = {
    F.MQCFT_INTEGER: F.MQRCCF_CFIN_LENGTH_ERROR,
    F.MQCFT_STRING: F.MQRCCF_CFST_LENGTH_ERROR,
    F.MQCFT_INTEGER_LIST: F.MQRCCF_CFIL_LENGTH_ERROR,
    F.MQCFT_STRING_LIST: F.MQRCCF_CFSL_LENGTH_ERROR,
    F.MQCFT_BYTE_STRING: F.MQRCCF_CFBS_LENGTH_ERROR,
}


def _parameter(raw: bytes, kind: int, order: str) -> tuple[int, Value]:
    """One parameter structure (``raw`` is exactly StrucLength bytes)."""
    length = len(raw)
    if kind == F.MQCFT_INTEGER:
        if length != F.MQCFIN_STRUC_LENGTH:
            raise PCFError(F.MQRCCF_CFIN_LENGTH_ERROR, f"MQCFIN StrucLength {length} is not 16")
        _, _, parameter, value = struct.unpack(order + "4i", raw)
        return parameter, value
    if kind == F.MQCFT_STRING:
        fixed = F.MQCFST_STRUC_LENGTH_FIXED
        if length < fixed or length % 4:
            raise PCFError(F.MQRCCF_CFST_LENGTH_ERROR, f"MQCFST StrucLength {length} is wrong")
        _, _, parameter, _ccsid, size = struct.unpack_from(order + "5i", raw)
        if size < 0 or fixed + size > length:
            raise PCFError(
                F.MQRCCF_CFST_STRING_LENGTH_ERR,
                f"MQCFST StringLength {size} does not fit",
                parameter,
            )
        return parameter, _text(raw[fixed : fixed + size])
    if kind == F.MQCFT_INTEGER_LIST:
        fixed = F.MQCFIL_STRUC_LENGTH_FIXED
        if length < fixed:
            raise PCFError(F.MQRCCF_CFIL_LENGTH_ERROR, f"MQCFIL StrucLength {length} is wrong")
        _, _, parameter, count = struct.unpack_from(order + "4i", raw)
        if count < 0:
            raise PCFError(F.MQRCCF_CFIL_COUNT_ERROR, f"MQCFIL Count {count} < 0", parameter)
        if length != fixed + 4 * count:
            raise PCFError(
                F.MQRCCF_CFIL_LENGTH_ERROR,
                f"MQCFIL StrucLength {length}: {count} values",
                parameter,
            )
        return parameter, list(struct.unpack_from(order + f"{count}i", raw, fixed))
    if kind == F.MQCFT_STRING_LIST:
        fixed = F.MQCFSL_STRUC_LENGTH_FIXED
        if length < fixed or length % 4:
            raise PCFError(F.MQRCCF_CFSL_LENGTH_ERROR, f"MQCFSL StrucLength {length} is wrong")
        _, _, parameter, _ccsid, count, size = struct.unpack_from(order + "6i", raw)
        # Bounded before built: Count and StringLength are checked against the bytes
        # the structure has, so a list is never larger than the message that holds it.
        # Every string takes at least a byte of them: 60 bytes holding "2,147,483,647
        # strings of 0 bytes" is refused, not two billion empty strings built.
        room = length - fixed
        if not 0 <= count <= room:
            raise PCFError(
                F.MQRCCF_CFSL_COUNT_ERROR,
                f"MQCFSL Count {count}: the structure has {room} bytes for its strings",
                parameter,
            )
        if size < 0:
            raise PCFError(
                F.MQRCCF_CFSL_STRING_LENGTH_ERR, f"MQCFSL StringLength {size}", parameter
            )
        if count * size > room:  # "inconsistent with the StringLength field value"
            raise PCFError(
                F.MQRCCF_CFSL_LENGTH_ERROR,
                f"MQCFSL StrucLength {length}: {count} strings of {size} do not fit",
                parameter,
            )
        strings = [_text(raw[fixed + i * size : fixed + (i + 1) * size]) for i in range(count)]
        return parameter, strings
    if kind == F.MQCFT_BYTE_STRING:
        fixed = F.MQCFBS_STRUC_LENGTH_FIXED
        if length < fixed or length % 4:
            raise PCFError(F.MQRCCF_CFBS_LENGTH_ERROR, f"MQCFBS StrucLength {length} is wrong")
        _, _, parameter, size = struct.unpack_from(order + "4i", raw)
        if size < 0 or fixed + size > length:
            raise PCFError(
                F.MQRCCF_CFBS_STRING_LENGTH_ERR,
                f"MQCFBS StringLength {size} does not fit",
                parameter,
            )
        return parameter, raw[fixed : fixed + size]
    raise PCFError(F.MQRCCF_STRUCTURE_TYPE_ERROR, f"parameter structure Type {kind} is unknown")


def _text(raw: bytes) -> str:
    """A string parameter: MQ pads with blanks (or NULs); they are not part of it."""
    return raw.decode("latin-1").rstrip(" \0")


# ---- encoding ------------------------------------------------------------------------
def _pad(data: bytes) -> bytes:
    return data + b"\0" * (-len(data) % 4)


def encode(
    header: Header,
    parameters: list[tuple[int, Value]],
    encoding: int,
    lengths: dict[int, int] | None = None,
) -> bytes:
    """A PCF message. A str becomes an MQCFST, blank-padded to ``lengths[parameter]``
    when given (MQ's fixed field lengths); a list of str an MQCFSL; a list of int an
    MQCFIL; bytes an MQCFBS; an int an MQCFIN."""
    order = byte_order(encoding)
    lengths = lengths or {}
    body = b"".join(_encode_one(p, v, order, lengths.get(p, 0)) for p, v in parameters)
    head = struct.pack(
        order + "9i",
        header.type,
        F.MQCFH_STRUC_LENGTH,
        header.version,
        header.command,
        header.msg_seq_number,
        header.control,
        header.comp_code,
        header.reason,
        len(parameters),
    )
    return head + body


def _encode_one(parameter: int, value: Value, order: str, width: int) -> bytes:
    if isinstance(value, bool | int):
        return struct.pack(
            order + "4i", F.MQCFT_INTEGER, F.MQCFIN_STRUC_LENGTH, parameter, int(value)
        )
    if isinstance(value, str):
        text = value.encode("latin-1", "replace").ljust(width)
        data = _pad(text)
        return (
            struct.pack(
                order + "5i",
                F.MQCFT_STRING,
                F.MQCFST_STRUC_LENGTH_FIXED + len(data),
                parameter,
                CMQC.MQCCSI_DEFAULT,
                len(text),
            )
            + data
        )
    if isinstance(value, bytes):
        data = _pad(value)
        return (
            struct.pack(
                order + "4i",
                F.MQCFT_BYTE_STRING,
                F.MQCFBS_STRUC_LENGTH_FIXED + len(data),
                parameter,
                len(value),
            )
            + data
        )
    if all(isinstance(v, int) for v in value):
        numbers = [int(v) for v in value]
        return struct.pack(
            order + f"4i{len(numbers)}i",
            F.MQCFT_INTEGER_LIST,
            F.MQCFIL_STRUC_LENGTH_FIXED + 4 * len(numbers),
            parameter,
            len(numbers),
            *numbers,
        )
    strings = [str(v).encode("latin-1", "replace") for v in value]
    size = max([width, *(len(s) for s in strings)]) if strings else width
    data = _pad(b"".join(s.ljust(size) for s in strings))
    return (
        struct.pack(
            order + "6i",
            F.MQCFT_STRING_LIST,
            F.MQCFSL_STRUC_LENGTH_FIXED + len(data),
            parameter,
            CMQC.MQCCSI_DEFAULT,
            len(strings),
            size,
        )
        + data
    )


__all__ = ["Header", "Message", "PCFError", "Value", "byte_order", "decode", "encode"]
