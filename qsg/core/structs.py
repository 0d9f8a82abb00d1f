"""MQ's call structures, ``MD``, ``GMO``, ``PMO`` and ``OD``, as pymqi users know them.

A structure is a bag of IBM-named fields with IBM's defaults (``MQMD_DEFAULT`` and
friends). Fields are attributes (``md.MsgId``), items (``md["MsgId"]``) and constructor
keywords; an unknown name is an ``AttributeError``; character and byte fields take
``bytes`` only (a ``str`` is a ``TypeError``), as in pymqi. The queue manager writes
output fields back into the caller's structure, as MQ does.

The binary layouts of MQMD and MQXQH live in ``qsg.core.layouts``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from qsg import CMQC

# A field's kind: "l" is an MQLONG (int); ("c", n) an MQCHARn, ("b", n) an MQBYTEn.
FieldKind = str | tuple[str, int]


class MQOpts:
    """Base of the structures: fields, defaults and the pymqi-style accessors."""

    __slots__ = ()
    _fields: ClassVar[tuple[tuple[str, Any, FieldKind], ...]] = ()
    _kinds: ClassVar[dict[str, FieldKind]] = {}
    _defaults: ClassVar[tuple[tuple[str, Any], ...]] = ()

    def __init_subclass__(cls) -> None:
        cls._kinds = {name: kind for name, _, kind in cls._fields}
        cls._defaults = tuple((name, default) for name, default, _ in cls._fields)

    def __init__(self, **kw: Any) -> None:
        for name, default in self._defaults:
            object.__setattr__(self, name, default)
        if kw:
            self.set(**kw)

    def set(self, **kw: Any) -> None:
        """Set several fields at once, checking names and types as pymqi does."""
        for name, value in kw.items():
            kind = self._kinds.get(name)
            if kind is None:
                raise AttributeError(f"{type(self).__name__} has no field {name!r}")
            _check(type(self).__name__, name, kind, value)
            object.__setattr__(self, name, value)

    def get(self) -> dict[str, Any]:
        """Every field and its value, in IBM's field order."""
        return {name: getattr(self, name) for name, _, _ in self._fields}

    def __getitem__(self, name: str) -> Any:
        if name not in self._kinds:
            raise AttributeError(f"{type(self).__name__} has no field {name!r}")
        return getattr(self, name)

    def __setitem__(self, name: str, value: Any) -> None:
        self.set(**{name: value})

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.get() == other.get()  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]  # mutable, like pymqi's structures

    def __repr__(self) -> str:
        changed = [
            f"{name}={getattr(self, name)!r}"
            for name, default in self._defaults
            if getattr(self, name) != default
        ]
        return f"{type(self).__name__}({', '.join(changed)})"


def _check(struct: str, name: str, kind: FieldKind, value: Any) -> None:
    if kind == "l":
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"{struct}.{name} is an MQLONG: give an int, not {value!r}")
        if not -(2**31) <= value < 2**32:
            raise ValueError(f"{struct}.{name}={value} does not fit in an MQLONG")
        return
    if not isinstance(value, bytes):
        raise TypeError(
            f"{struct}.{name} is {'a character' if kind[0] == 'c' else 'a byte'} field: "
            f"give bytes, not {type(value).__name__}"
        )
    if len(value) > kind[1]:
        raise ValueError(f"{struct}.{name} holds at most {kind[1]} bytes, got {len(value)}")


def c(n: int) -> tuple[str, int]:
    return ("c", n)


def b(n: int) -> tuple[str, int]:
    return ("b", n)


class MD(MQOpts):
    """MQMD, the message descriptor (always with the version-2 fields, as pymqi)."""

    __slots__ = (
        "StrucId", "Version", "Report", "MsgType", "Expiry", "Feedback", "Encoding",
        "CodedCharSetId", "Format", "Priority", "Persistence", "MsgId", "CorrelId",
        "BackoutCount", "ReplyToQ", "ReplyToQMgr", "UserIdentifier", "AccountingToken",
        "ApplIdentityData", "PutApplType", "PutApplName", "PutDate", "PutTime",
        "ApplOriginData", "GroupId", "MsgSeqNumber", "Offset", "MsgFlags", "OriginalLength",
    )  # fmt: skip
    _fields = (
        ("StrucId", CMQC.MQMD_STRUC_ID, c(4)),
        ("Version", CMQC.MQMD_VERSION_1, "l"),
        ("Report", CMQC.MQRO_NONE, "l"),
        ("MsgType", CMQC.MQMT_DATAGRAM, "l"),
        ("Expiry", CMQC.MQEI_UNLIMITED, "l"),
        ("Feedback", CMQC.MQFB_NONE, "l"),
        ("Encoding", CMQC.MQENC_NATIVE, "l"),
        ("CodedCharSetId", CMQC.MQCCSI_Q_MGR, "l"),
        ("Format", CMQC.MQFMT_NONE, c(8)),
        ("Priority", CMQC.MQPRI_PRIORITY_AS_Q_DEF, "l"),
        ("Persistence", CMQC.MQPER_PERSISTENCE_AS_Q_DEF, "l"),
        ("MsgId", CMQC.MQMI_NONE, b(24)),
        ("CorrelId", CMQC.MQCI_NONE, b(24)),
        ("BackoutCount", 0, "l"),
        ("ReplyToQ", b"", c(48)),
        ("ReplyToQMgr", b"", c(48)),
        ("UserIdentifier", b"", c(12)),
        ("AccountingToken", CMQC.MQACT_NONE, b(32)),
        ("ApplIdentityData", b"", c(32)),
        ("PutApplType", CMQC.MQAT_NO_CONTEXT, "l"),
        ("PutApplName", b"", c(28)),
        ("PutDate", b"", c(8)),
        ("PutTime", b"", c(8)),
        ("ApplOriginData", b"", c(4)),
        ("GroupId", CMQC.MQGI_NONE, b(24)),
        ("MsgSeqNumber", 1, "l"),
        ("Offset", 0, "l"),
        ("MsgFlags", CMQC.MQMF_NONE, "l"),
        ("OriginalLength", CMQC.MQOL_UNDEFINED, "l"),
    )


class GMO(MQOpts):
    """MQGMO, the get-message options."""

    __slots__ = (
        "StrucId", "Version", "Options", "WaitInterval", "Signal1", "Signal2",
        "ResolvedQName", "MatchOptions", "GroupStatus", "SegmentStatus", "Segmentation",
        "Reserved1", "MsgToken", "ReturnedLength", "Reserved2", "MsgHandle",
    )  # fmt: skip
    _fields = (
        ("StrucId", CMQC.MQGMO_STRUC_ID, c(4)),
        ("Version", CMQC.MQGMO_VERSION_1, "l"),
        ("Options", CMQC.MQGMO_NO_WAIT, "l"),
        ("WaitInterval", 0, "l"),
        ("Signal1", 0, "l"),
        ("Signal2", 0, "l"),
        ("ResolvedQName", b"", c(48)),
        ("MatchOptions", CMQC.MQMO_MATCH_MSG_ID | CMQC.MQMO_MATCH_CORREL_ID, "l"),
        ("GroupStatus", CMQC.MQGS_NOT_IN_GROUP, c(1)),
        ("SegmentStatus", CMQC.MQSS_NOT_A_SEGMENT, c(1)),
        ("Segmentation", CMQC.MQSEG_INHIBITED, c(1)),
        ("Reserved1", b" ", c(1)),
        ("MsgToken", CMQC.MQMTOK_NONE, b(16)),
        ("ReturnedLength", -1, "l"),
        ("Reserved2", 0, "l"),
        ("MsgHandle", 0, "l"),
    )


class PMO(MQOpts):
    """MQPMO, the put-message options."""

    __slots__ = (
        "StrucId", "Version", "Options", "Timeout", "Context", "KnownDestCount",
        "UnknownDestCount", "InvalidDestCount", "ResolvedQName", "ResolvedQMgrName",
    )  # fmt: skip
    _fields = (
        ("StrucId", CMQC.MQPMO_STRUC_ID, c(4)),
        ("Version", CMQC.MQPMO_VERSION_1, "l"),
        ("Options", CMQC.MQPMO_NONE, "l"),
        ("Timeout", -1, "l"),
        ("Context", 0, "l"),
        ("KnownDestCount", 0, "l"),
        ("UnknownDestCount", 0, "l"),
        ("InvalidDestCount", 0, "l"),
        ("ResolvedQName", b"", c(48)),
        ("ResolvedQMgrName", b"", c(48)),
    )


class OD(MQOpts):
    """MQOD, the object descriptor."""

    __slots__ = (
        "StrucId", "Version", "ObjectType", "ObjectName", "ObjectQMgrName", "DynamicQName",
        "AlternateUserId", "ResolvedQName", "ResolvedQMgrName",
    )  # fmt: skip
    _fields = (
        ("StrucId", CMQC.MQOD_STRUC_ID, c(4)),
        ("Version", CMQC.MQOD_VERSION_1, "l"),
        ("ObjectType", CMQC.MQOT_Q, "l"),
        ("ObjectName", b"", c(48)),
        ("ObjectQMgrName", b"", c(48)),
        ("DynamicQName", b"AMQ.*", c(48)),
        ("AlternateUserId", b"", c(12)),
        ("ResolvedQName", b"", c(48)),
        ("ResolvedQMgrName", b"", c(48)),
    )


# pymqi's lower-case aliases, so code written for it reads the same.
md = MD
gmo = GMO
pmo = PMO
od = OD

#: The MQMD field names in IBM's order; a stored descriptor is a tuple in this order.
MD_FIELDS: tuple[str, ...] = tuple(name for name, _, _ in MD._fields)
MD_KINDS: dict[str, FieldKind] = MD._kinds


def blank_padded(value: bytes, length: int) -> bytes:
    """An MQCHAR field as MQ returns it: trailing blanks to its full length."""
    return value.ljust(length, b" ")[:length]


def name_of(value: bytes) -> bytes:
    """An object name as compared by MQ: trailing blanks and NULs are not part of it."""
    return value.rstrip(b" \x00")
