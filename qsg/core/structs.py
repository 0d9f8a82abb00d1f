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

_LONG_MIN, _LONG_END = -(2**31), 2**32  # an MQLONG, signed or unsigned
_LONG_MAX = 2**31 - 1  # the largest a call accepts
#: A key no field has, in a structure's ``__dict__`` while some MQLONG field may hold a
#: value above ``_LONG_MAX`` (the unsigned half pymqi allows): the MQI calls look for it
#: (one dict lookup) and check the fields only then (``qsg.core.mqlong``).
WIDE = "\0wide"

# A field's kind: "l" is an MQLONG (int); "ch" one MQCHAR held as its character's code (an
# int, as IBM's header gives MQGS_* and pymqi holds it); ("c", n) an MQCHARn, ("b", n) an
# MQBYTEn.
FieldKind = str | tuple[str, int]


class _Field:
    __slots__ = ("default", "kind")

    def __init__(self, default: Any, kind: FieldKind) -> None:
        self.default = default
        self.kind = kind


def field(default: Any, kind: FieldKind) -> Any:
    """Declare a structure field: ``MsgId: bytes = field(CMQC.MQMI_NONE, b(24))``."""
    return _Field(default, kind)


class _Structure(type):
    """Collects the annotated fields of a class body, in declaration order.

    Fields live in the instance ``__dict__``: a new structure is one ``dict.update`` of
    the defaults, and the queue manager writes output fields back the same way, while
    an application's own assignments go through ``__setattr__`` and are checked.
    """

    def __new__(mcs, name: str, bases: tuple[type, ...], ns: dict[str, Any]) -> _Structure:
        declared = [(k, v) for k, v in ns.items() if isinstance(v, _Field)]
        for k, _ in declared:
            del ns[k]
        ns["_fields"] = tuple((k, f.default, f.kind) for k, f in declared)
        ns["_kinds"] = {k: f.kind for k, f in declared}
        ns["_defaults"] = {k: f.default for k, f in declared}
        return super().__new__(mcs, name, bases, ns)


class MQOpts(metaclass=_Structure):
    """Base of the structures: fields, defaults and the pymqi-style accessors."""

    _fields: ClassVar[tuple[tuple[str, Any, FieldKind], ...]]
    _kinds: ClassVar[dict[str, FieldKind]]
    _defaults: ClassVar[dict[str, Any]]

    def __init__(self, **kw: Any) -> None:
        fields = self.__dict__
        fields.update(self._defaults)
        if kw:
            kinds = self._kinds
            for name, value in kw.items():
                # The common keyword, an MQLONG given an int a call takes, is checked inline.
                if (
                    kinds.get(name) == "l"
                    and type(value) is int
                    and (_LONG_MIN <= value <= _LONG_MAX)
                ):
                    fields[name] = value
                else:
                    self.set(**{name: value})

    def __setattr__(self, name: str, value: Any) -> None:
        self.set(**{name: value})

    def set(self, **kw: Any) -> None:
        """Set several fields at once, checking names and types as pymqi does."""
        fields = self.__dict__
        for name, value in kw.items():
            kind = self._kinds.get(name)
            if kind is None:
                raise AttributeError(f"{type(self).__name__} has no field {name!r}")
            _check(type(self).__name__, name, kind, value)
            fields[name] = value
            if kind == "l" and value > _LONG_MAX:
                fields[WIDE] = True

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
        return isinstance(other, MQOpts) and type(other) is type(self) and self.get() == other.get()

    __hash__ = None  # type: ignore[assignment]  # mutable, like pymqi's structures

    def __repr__(self) -> str:
        changed = [
            f"{name}={getattr(self, name)!r}"
            for name, default in self._defaults.items()
            if getattr(self, name) != default
        ]
        return f"{type(self).__name__}({', '.join(changed)})"


def _check(struct: str, name: str, kind: FieldKind, value: Any) -> None:
    if kind == "l":
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"{struct}.{name} is an MQLONG: give an int, not {value!r}")
        if not _LONG_MIN <= value < _LONG_END:
            raise ValueError(f"{struct}.{name}={value} does not fit in an MQLONG")
        return
    if kind == "ch":
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(
                f"{struct}.{name} is one MQCHAR, held as its character's code: give an int "
                f"(e.g. CMQC.MQSEG_ALLOWED, ord('A')), not {value!r}"
            )
        if not -128 <= value < 256:  # pymqi's signed char, or the byte's unsigned code
            raise ValueError(f"{struct}.{name}={value} is not a character's code")
        return
    assert not isinstance(kind, str)
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

    StrucId: bytes = field(CMQC.MQMD_STRUC_ID, c(4))
    Version: int = field(CMQC.MQMD_VERSION_1, "l")
    Report: int = field(CMQC.MQRO_NONE, "l")
    MsgType: int = field(CMQC.MQMT_DATAGRAM, "l")
    Expiry: int = field(CMQC.MQEI_UNLIMITED, "l")
    Feedback: int = field(CMQC.MQFB_NONE, "l")
    Encoding: int = field(CMQC.MQENC_NATIVE, "l")
    CodedCharSetId: int = field(CMQC.MQCCSI_Q_MGR, "l")
    Format: bytes = field(CMQC.MQFMT_NONE, c(8))
    Priority: int = field(CMQC.MQPRI_PRIORITY_AS_Q_DEF, "l")
    Persistence: int = field(CMQC.MQPER_PERSISTENCE_AS_Q_DEF, "l")
    MsgId: bytes = field(CMQC.MQMI_NONE, b(24))
    CorrelId: bytes = field(CMQC.MQCI_NONE, b(24))
    BackoutCount: int = field(0, "l")
    ReplyToQ: bytes = field(b"", c(48))
    ReplyToQMgr: bytes = field(b"", c(48))
    UserIdentifier: bytes = field(b"", c(12))
    AccountingToken: bytes = field(CMQC.MQACT_NONE, b(32))
    ApplIdentityData: bytes = field(b"", c(32))
    PutApplType: int = field(CMQC.MQAT_NO_CONTEXT, "l")
    PutApplName: bytes = field(b"", c(28))
    PutDate: bytes = field(b"", c(8))
    PutTime: bytes = field(b"", c(8))
    ApplOriginData: bytes = field(b"", c(4))
    GroupId: bytes = field(CMQC.MQGI_NONE, b(24))
    MsgSeqNumber: int = field(1, "l")
    Offset: int = field(0, "l")
    MsgFlags: int = field(CMQC.MQMF_NONE, "l")
    OriginalLength: int = field(CMQC.MQOL_UNDEFINED, "l")


class GMO(MQOpts):
    """MQGMO, the get-message options."""

    StrucId: bytes = field(CMQC.MQGMO_STRUC_ID, c(4))
    Version: int = field(CMQC.MQGMO_VERSION_1, "l")
    Options: int = field(CMQC.MQGMO_NO_WAIT, "l")
    WaitInterval: int = field(0, "l")
    Signal1: int = field(0, "l")
    Signal2: int = field(0, "l")
    ResolvedQName: bytes = field(b"", c(48))
    MatchOptions: int = field(CMQC.MQMO_MATCH_MSG_ID | CMQC.MQMO_MATCH_CORREL_ID, "l")
    GroupStatus: int = field(CMQC.MQGS_NOT_IN_GROUP, "ch")
    SegmentStatus: int = field(CMQC.MQSS_NOT_A_SEGMENT, "ch")
    Segmentation: int = field(CMQC.MQSEG_INHIBITED, "ch")
    Reserved1: bytes = field(b" ", c(1))
    MsgToken: bytes = field(CMQC.MQMTOK_NONE, b(16))
    ReturnedLength: int = field(-1, "l")
    Reserved2: int = field(0, "l")
    MsgHandle: int = field(0, "l")


class PMO(MQOpts):
    """MQPMO, the put-message options."""

    StrucId: bytes = field(CMQC.MQPMO_STRUC_ID, c(4))
    Version: int = field(CMQC.MQPMO_VERSION_1, "l")
    Options: int = field(CMQC.MQPMO_NONE, "l")
    Timeout: int = field(-1, "l")
    Context: int = field(0, "l")
    KnownDestCount: int = field(0, "l")
    UnknownDestCount: int = field(0, "l")
    InvalidDestCount: int = field(0, "l")
    ResolvedQName: bytes = field(b"", c(48))
    ResolvedQMgrName: bytes = field(b"", c(48))


class OD(MQOpts):
    """MQOD, the object descriptor."""

    StrucId: bytes = field(CMQC.MQOD_STRUC_ID, c(4))
    Version: int = field(CMQC.MQOD_VERSION_1, "l")
    ObjectType: int = field(CMQC.MQOT_Q, "l")
    ObjectName: bytes = field(b"", c(48))
    ObjectQMgrName: bytes = field(b"", c(48))
    DynamicQName: bytes = field(b"AMQ.*", c(48))
    AlternateUserId: bytes = field(b"", c(12))
    ResolvedQName: bytes = field(b"", c(48))
    ResolvedQMgrName: bytes = field(b"", c(48))


# pymqi's lower-case aliases, so code written for it reads the same.
md = MD
gmo = GMO
pmo = PMO
od = OD

#: The MQMD field names in IBM's order; a stored descriptor is a tuple in this order.
MD_FIELDS: tuple[str, ...] = tuple(name for name, _, _ in MD._fields)
MD_KINDS: dict[str, FieldKind] = MD._kinds


#: The CCSID of UTF-8, in which a ``str`` body is sent, as pymqi sends it. IBM's headers
#: name no CCSID, only MQCCSI_*'s special values (IBM: "MQMD - CodedCharSetId field").
CCSID_UTF8 = 1208

#: The MQOO options that open a queue for input (at most one of them is allowed).
INPUT_OPTIONS = CMQC.MQOO_INPUT_AS_Q_DEF | CMQC.MQOO_INPUT_SHARED | CMQC.MQOO_INPUT_EXCLUSIVE


def name_of(value: bytes) -> bytes:
    """An object name as compared by MQ: trailing blanks and NULs are not part of it."""
    return value.rstrip(b" \x00")
