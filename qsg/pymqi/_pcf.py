"""pymqi's PCF structures: the header and parameters of a PCF message, as ``PCFExecute``
builds its requests and reads its replies, and as a program builds them itself.

Exports ``CFH`` (MQCFH), ``CFIN`` and ``CFIN64`` (integers), ``CFIL`` and ``CFIL64``
(integer lists), ``CFST`` (a string), ``CFSL`` (a string list), ``CFBS`` (a byte
string), ``CFGR`` (a group), and the filters ``CFIF``, ``CFSF`` and ``CFBF`` (IBM's
"PCF structures": "MQCFH - PCF header", "MQCFIN - PCF integer parameter", ...).

As in pymqi, a structure whose length varies takes its variable part and that part's
length as constructor keywords (``CFST(Parameter=..., String=b"Q1")``, ``CFIL(Values=[1,
2])``, ``CFSL(Strings=[...])``): the length fields (``StringLength``, ``Count``,
``StrucLength``) follow from them unless given, and a string is NUL-padded to a
multiple of four bytes, as IBM requires of every PCF structure. ``CFST(StringLength=n)``
with no string is the shape ``unpack`` fills, as pymqi reads a reply. A ``str`` is
pymqi's ``TypeError`` when packed (``PCFExecute`` encodes the ``str`` values it is
given). Fields are set by IBM's names only: a misspelt one is ``AttributeError``, as
for the facade's other structures.
"""

from __future__ import annotations

from typing import Any, ClassVar

from qsg.pymqi import CMQC, CMQCFC
from qsg.pymqi._opts import MQLONG, MQOpts

L = MQLONG
INTEGER64 = "q"


def padded(length: int) -> int:
    """``length`` rounded up to a multiple of 4 bytes: PCF structures are so aligned."""
    return length + -length % 4


class _PCF(MQOpts):
    """A PCF structure: its layout made per instance, its fields refused if misspelt."""

    _strict: ClassVar[bool] = True


class CFH(_PCF):
    """MQCFH, the PCF header (IBM: "MQCFH - PCF header"): nine MQLONGs."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(
            [
                ["Type", CMQCFC.MQCFT_COMMAND, L],
                ["StrucLength", CMQCFC.MQCFH_STRUC_LENGTH, L],
                ["Version", CMQCFC.MQCFH_VERSION_1, L],
                ["Command", CMQCFC.MQCMD_NONE, L],
                ["MsgSeqNumber", 1, L],
                ["Control", CMQCFC.MQCFC_LAST, L],
                ["CompCode", CMQC.MQCC_OK, L],
                ["Reason", CMQC.MQRC_NONE, L],
                ["ParameterCount", 0, L],
            ],
            **kw,
        )


class CFIN(_PCF):
    """MQCFIN, an integer parameter (IBM: "MQCFIN - PCF integer parameter")."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(
            [
                ["Type", CMQCFC.MQCFT_INTEGER, L],
                ["StrucLength", CMQCFC.MQCFIN_STRUC_LENGTH, L],
                ["Parameter", 0, L],
                ["Value", 0, L],
            ],
            **kw,
        )


class CFIN64(_PCF):
    """MQCFIN64, a 64-bit integer parameter (IBM: "MQCFIN64 - PCF 64-bit integer
    parameter"). IBM's four-byte Reserved field before ``Value`` is, as in pymqi, no
    field: the alignment ``struct`` gives the 64-bit ``Value``."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(
            [
                ["Type", CMQCFC.MQCFT_INTEGER64, L],
                ["StrucLength", CMQCFC.MQCFIN64_STRUC_LENGTH, L],
                ["Parameter", 0, L],
                ["Value", 0, INTEGER64],
            ],
            **kw,
        )


class CFIL(_PCF):
    """MQCFIL, an integer-list parameter (IBM: "MQCFIL - PCF integer list parameter")."""

    def __init__(self, **kw: Any) -> None:
        values = kw.pop("Values", [])
        count = kw.pop("Count", len(values))
        super().__init__(
            [
                ["Type", CMQCFC.MQCFT_INTEGER_LIST, L],
                ["StrucLength", CMQCFC.MQCFIL_STRUC_LENGTH_FIXED + 4 * count, L],
                ["Parameter", 0, L],
                ["Count", count, L],
                ["Values", list(values) or [0] * count, L, count],
            ],
            **kw,
        )


class CFIL64(_PCF):
    """MQCFIL64, a 64-bit integer-list parameter (IBM: "MQCFIL64 - PCF 64-bit integer
    list parameter")."""

    def __init__(self, **kw: Any) -> None:
        values = kw.pop("Values", [])
        count = kw.pop("Count", len(values))
        super().__init__(
            [
                ["Type", CMQCFC.MQCFT_INTEGER64_LIST, L],
                ["StrucLength", CMQCFC.MQCFIL64_STRUC_LENGTH_FIXED + 8 * count, L],
                ["Parameter", 0, L],
                ["Count", count, L],
                ["Values", list(values) or [0] * count, INTEGER64, count],
            ],
            **kw,
        )


class CFST(_PCF):
    """MQCFST, a string parameter (IBM: "MQCFST - PCF string parameter")."""

    def __init__(self, **kw: Any) -> None:
        string = kw.pop("String", b"")
        length = kw.pop("StringLength", len(string))
        super().__init__(
            [
                ["Type", CMQCFC.MQCFT_STRING, L],
                ["StrucLength", CMQCFC.MQCFST_STRUC_LENGTH_FIXED + padded(length), L],
                ["Parameter", 0, L],
                ["CodedCharSetId", CMQC.MQCCSI_DEFAULT, L],
                ["StringLength", length, L],
                ["String", string, f"{padded(length)}s"],
            ],
            **kw,
        )


class CFSL(_PCF):
    """MQCFSL, a string-list parameter (IBM: "MQCFSL - PCF string list parameter"):
    ``Count`` strings of ``StringLength`` bytes each (the longest one's, unless given)."""

    def __init__(self, **kw: Any) -> None:
        strings = list(kw.pop("Strings", []))
        length = kw.pop("StringLength", max(map(len, strings), default=0))
        count = kw.pop("Count", len(strings))
        size = padded(length) if count else 0
        # pymqi's layout: each string padded to four bytes, and at least one field.
        super().__init__(
            [
                ["Type", CMQCFC.MQCFT_STRING_LIST, L],
                ["StrucLength", CMQCFC.MQCFSL_STRUC_LENGTH_FIXED + size * count, L],
                ["Parameter", 0, L],
                ["CodedCharSetId", CMQC.MQCCSI_DEFAULT, L],
                ["Count", count, L],
                ["StringLength", size, L],
                ["Strings", strings or [b""] * max(count, 1), f"{size}s", max(count, 1)],
            ],
            **kw,
        )


class CFBS(_PCF):
    """MQCFBS, a byte-string parameter (IBM: "MQCFBS - PCF byte string parameter")."""

    def __init__(self, **kw: Any) -> None:
        string = kw.pop("String", b"")
        length = kw.pop("StringLength", len(string))
        super().__init__(
            [
                ["Type", CMQCFC.MQCFT_BYTE_STRING, L],
                ["StrucLength", CMQCFC.MQCFBS_STRUC_LENGTH_FIXED + padded(length), L],
                ["Parameter", 0, L],
                ["StringLength", length, L],
                ["String", string, f"{padded(length)}s"],
            ],
            **kw,
        )


class CFGR(_PCF):
    """MQCFGR, a group of the ``ParameterCount`` parameters after it (IBM: "MQCFGR -
    PCF group parameter")."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(
            [
                ["Type", CMQCFC.MQCFT_GROUP, L],
                ["StrucLength", CMQCFC.MQCFGR_STRUC_LENGTH, L],
                ["Parameter", 0, L],
                ["ParameterCount", kw.pop("ParameterCount", 0), L],
            ],
            **kw,
        )


class CFIF(_PCF):
    """MQCFIF, an integer filter (IBM: "MQCFIF - PCF integer filter parameter")."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(
            [
                ["Type", CMQCFC.MQCFT_INTEGER_FILTER, L],
                ["StrucLength", CMQCFC.MQCFIF_STRUC_LENGTH, L],
                ["Parameter", 0, L],
                ["Operator", 0, L],
                ["FilterValue", 0, L],
            ],
            **kw,
        )


class CFSF(_PCF):
    """MQCFSF, a string filter (IBM: "MQCFSF - PCF string filter parameter")."""

    def __init__(self, **kw: Any) -> None:
        value = kw.pop("FilterValue", b"")
        length = kw.pop("FilterValueLength", len(value))
        super().__init__(
            [
                ["Type", CMQCFC.MQCFT_STRING_FILTER, L],
                ["StrucLength", CMQCFC.MQCFSF_STRUC_LENGTH_FIXED + padded(length), L],
                ["Parameter", 0, L],
                ["Operator", 0, L],
                ["CodedCharSetId", CMQC.MQCCSI_DEFAULT, L],
                ["FilterValueLength", length, L],
                ["FilterValue", value, f"{padded(length)}s"],
            ],
            **kw,
        )


class CFBF(_PCF):
    """MQCFBF, a byte-string filter (IBM: "MQCFBF - PCF byte string filter parameter")."""

    def __init__(self, **kw: Any) -> None:
        value = kw.pop("FilterValue", b"")
        length = kw.pop("FilterValueLength", len(value))
        super().__init__(
            [
                ["Type", CMQCFC.MQCFT_BYTE_STRING_FILTER, L],
                ["StrucLength", CMQCFC.MQCFBF_STRUC_LENGTH_FIXED + padded(length), L],
                ["Parameter", 0, L],
                ["Operator", 0, L],
                ["FilterValueLength", length, L],
                ["FilterValue", value, f"{padded(length)}s"],
            ],
            **kw,
        )


__all__ = [
    "CFBF",
    "CFBS",
    "CFGR",
    "CFH",
    "CFIF",
    "CFIL",
    "CFIL64",
    "CFIN",
    "CFIN64",
    "CFSF",
    "CFSL",
    "CFST",
    "padded",
]
