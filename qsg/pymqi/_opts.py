"""pymqi's ``MQOpts`` behaviour on top of the rules layer's structures.

Exports ``MQOpts`` (pymqi's base class: of every facade structure, and of a program's
own, ``MQOpts(memlist, **kw)``), ``PymqiOpts`` (its accessors, as a mixin), ``Layout`` (a
structure's fields in IBM's order: name, ``struct`` format, default),
``ensure_not_unicode`` (pymqi's ``str`` check, with its message), ``to_string`` (IBM
``ibmmq``'s module function of that name) and ``MQLONG``.

A facade structure is a ``qsg.core.structs.MQOpts`` (so the async API takes it as it
is) that also behaves as pymqi 1.12's ``MQOpts``:

- ``pack()`` is ``struct.pack`` of every field in IBM's order with pymqi's formats,
  native byte order and alignment, as IBM's C compiler lays the structure out (MQLONG is
  ``i``; pointers ``P``; 64-bit handles ``q``; MQGMO's one-character fields ``c``, the
  byte pymqi packs with ``b``); strings are NUL-padded, as ``struct`` does. Like pymqi
  it packs every field the newest version has, whatever ``Version`` says: the queue
  manager reads only the fields of the version given.
- ``unpack(buffer)`` NUL-pads a short buffer to the structure's length (so a version-1
  MQGMO fills the version-1 fields and zeroes the rest); a longer one is
  ``struct.error``, as in pymqi.
- Names: ``set``, ``obj[name] = v`` and assignment of a name the structure does not have
  raise ``AttributeError`` (pymqi's ``set`` and ``__setitem__`` do; its plain attribute
  assignment would quietly add an attribute, which the facade's structures refuse, so
  that a misspelt field cannot be lost without a word; a program's own ``MQOpts``
  subclass keeps plain attributes, as pymqi's do).
- Lengths: a ``bytes`` value longer than its field is cut to the field's length when
  set, which is what pymqi's ``pack()`` gives MQ (pymqi keeps the longer value in the
  attribute until the call).
- Types: a ``str`` anywhere raises pymqi's ``TypeError`` ("Python 3 style string
  (unicode) found but not allowed here: `...`. Convert to bytes."), at once where pymqi
  raises it at the next MQ call. Anything else is kept as given and checked by
  ``pack()``, which raises what ``struct`` raises (``struct.error``) for an integer out
  of its field's range or a value of the wrong type, as pymqi does on the MQ call that
  packs it. The facade's calls pack their structures first, so an MQ call fails where
  pymqi's would.
"""

from __future__ import annotations

import copy
import ctypes
import functools
import operator
import struct
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from qsg.core import structs as core
from qsg.core.structs import FieldKind

MQLONG = "i"  # an MQLONG is a C int on every 64-bit platform MQ supports

#: A structure's fields in IBM's order: (name, struct format, default).
Layout = tuple[tuple[str, str, Any], ...]

_UNICODE = "Python 3 style string (unicode) found but not allowed here: `{0}`. Convert to bytes."


# Fields that hold bytes, never characters: ibmmq's to_string leaves them as they are.
BINARY_FIELDS = frozenset(
    {
        "AccountingToken",
        "AlternateSecurityId",
        "ConnectionId",
        "ConnTag",
        "CorrelId",
        "Facility",
        "GroupId",
        "MCASecurityId",
        "MsgId",
        "MsgToken",
        "PubAccountingToken",
        "RemoteSecurityId",
        "SubCorrelId",
        "TranInstanceId",
    }
)


def to_string(value: Any, encoding: str = "utf8") -> Any:
    """IBM ``ibmmq``'s ``to_string``: MQCHAR bytes as a ``str``, cut at the first NUL and
    stripped of blanks; anything else (or bytes that do not decode) unchanged."""
    if isinstance(value, bytes):
        try:
            return value.split(b"\0", 1)[0].decode(encoding).strip()
        except UnicodeError:
            pass
    return value


def ensure_not_unicode(value: Any) -> None:
    """Raise pymqi's ``TypeError`` for a ``str`` where MQ wants bytes."""
    if isinstance(value, str):
        raise TypeError(_UNICODE.format(value))


def _kind(fmt: str) -> FieldKind:
    """The rules layer's kind for a pymqi format: ``"l"`` for an MQLONG, ``("c", n)``
    for n characters; handles, pointers and arrays have kinds of their own."""
    if fmt == MQLONG:
        return "l"
    if fmt.endswith("s"):
        return ("c", int(fmt[:-1] or 1))
    return fmt


def _derived(layout: Layout) -> dict[str, Any]:
    """What pack, unpack and set need to know of a layout, computed once."""
    fmt = "".join(f for _, f, _ in layout)
    if any(f[-1] in "Pq" for _, f, _ in layout):
        # C rounds a structure holding pointers or 64-bit handles up to a multiple of 8
        # bytes (pymqi adds a "pad" field for it); struct does so for "0P" at the end.
        fmt += "0P"
    struct.calcsize(fmt)  # a bad layout fails when it is declared, not on first use
    return {
        "_layout": layout,
        "_format": fmt,
        "_counts": tuple((name, _count(f)) for name, f, _ in layout),
        "_order": tuple(name for name, _, _ in layout),
        # A tuple of the field values from the instance's __dict__, in IBM's order.
        "_getter": _getter(tuple(name for name, _, _ in layout)),
        "_names": frozenset(name for name, _, _ in layout),
        "_mutable": tuple(name for name, _, default in layout if isinstance(default, list)),
        # One string's length; an array of strings ("48s48s") is not cut when set.
        "_sizes": {
            name: int(f[:-1] or 1)
            for name, f, _ in layout
            if f[-1] == "s" and (f[:-1].isdigit() or f == "s")
        },
        "_defaults": {name: default for name, _, default in layout},
    }


def _getter(names: tuple[str, ...]) -> Callable[[dict[str, Any]], tuple[Any, ...]]:
    # Not a function: kept on a class, a function would become a method.
    if len(names) == 1:  # itemgetter of one name returns the value, not a tuple
        return functools.partial(_one, names[0])
    return operator.itemgetter(*names)


def _one(name: str, fields: dict[str, Any]) -> tuple[Any, ...]:
    return (fields[name],)


def _count(fmt: str) -> int:
    """How many values a field's format takes: ``"2i"`` two, ``"48s"`` one, ``"48s48s"``
    (an array of two strings, as pymqi writes one) two."""
    return len(struct.unpack(fmt, bytes(struct.calcsize(fmt))))


class PymqiOpts:
    """pymqi's ``MQOpts`` accessors; put it first in the bases of a structure class that
    also derives from ``qsg.core.structs.MQOpts`` and give it a ``_layout``."""

    _layout: ClassVar[Layout] = ()
    _format: ClassVar[str]
    _counts: ClassVar[tuple[tuple[str, int], ...]]
    _order: ClassVar[tuple[str, ...]]
    _getter: ClassVar[Any]  # (fields) -> values; see _getter()
    _names: ClassVar[frozenset[str]]
    _mutable: ClassVar[tuple[str, ...]]
    _sizes: ClassVar[dict[str, int]]
    #: Whether assigning a name that is not a field is refused (a structure of the
    #: facade) or makes a plain attribute (a program's own MQOpts, as in pymqi).
    _strict: ClassVar[bool] = False
    # The rules layer's bookkeeping, rebuilt here from the layout (see __init_subclass__).
    _fields: ClassVar[tuple[tuple[str, Any, FieldKind], ...]]
    _kinds: ClassVar[dict[str, FieldKind]]
    _defaults: ClassVar[dict[str, Any]]

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        if cls.__dict__.get("_layout"):
            for name, value in _derived(cls._layout).items():
                setattr(cls, name, value)
            # The rules layer's metaclass saw no fields declared in the class body: give
            # it the layout's, so its bookkeeping names every pymqi field.
            cls._fields = tuple((name, default, _kind(fmt)) for name, fmt, default in cls._layout)
            cls._kinds = {name: _kind(fmt) for name, fmt, _ in cls._layout}
            cls._strict = True

    def _use_layout(self, layout: Layout) -> None:
        """Give this structure a layout of its own (an RFH2 with folders, a program's
        own MQOpts): its attributes shadow the class's."""
        self.__dict__.update(_derived(layout))

    if TYPE_CHECKING:
        # Fields are made from the layout at run time; to a type checker any name is one.
        def __getattr__(self, name: str) -> Any: ...

    def __init__(self, **kw: Any) -> None:
        fields = self.__dict__
        fields.update(self._defaults)
        for name in self._mutable:  # list defaults (arrays) are the instance's own
            fields[name] = copy.copy(fields[name])
        if kw:
            self.set(**kw)

    # ---- names and values ---------------------------------------------------------
    def set(self, **kw: Any) -> None:
        """Set fields by keyword, as pymqi: an unknown name is ``AttributeError``, a
        ``str`` is pymqi's ``TypeError``."""
        fields = self.__dict__
        for name, value in kw.items():
            if name not in self._names:
                raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
            ensure_not_unicode(value)
            size = self._sizes.get(name)
            if size is not None and isinstance(value, bytes) and len(value) > size:
                # What pymqi's struct.pack hands MQ: the field cut to its length. The
                # queue manager underneath is given the same, not the longer value.
                value = value[:size]
            prop = getattr(type(self), name, None)
            if isinstance(prop, property):  # a field shown in another form (GroupStatus)
                prop.__set__(self, value)
            else:
                fields[name] = value

    def __setattr__(self, name: str, value: Any) -> None:
        if self._strict or name in getattr(self, "_names", ()):
            self.set(**{name: value})
        else:  # a program's own structure keeps any attribute, as pymqi's do
            object.__setattr__(self, name, value)

    def __setitem__(self, name: str, value: Any) -> None:
        self.set(**{name: value})

    def __getitem__(self, name: str) -> Any:
        if name not in self._names:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        return getattr(self, name)

    def get(self) -> dict[str, Any]:
        """Every field and its value, in IBM's order."""
        return {name: getattr(self, name) for name, _, _ in self._layout}

    # ---- binary form --------------------------------------------------------------
    def get_length(self) -> int:
        """The length of ``pack()``'s result."""
        return struct.calcsize(self._format)

    def pack(self) -> bytes:
        """The structure in IBM's binary layout (see the module's docstring)."""
        return struct.pack(self._format, *self._values())

    def _values(self) -> list[Any]:
        # Fields live in the instance's __dict__, as the layout's formats pack them: one
        # lookup each, one pass for pymqi's str check.
        values: Any = self._getter(self.__dict__)
        if self._mutable:  # arrays (CD's compression lists) pack as their items
            values = [x for v in values for x in (v if isinstance(v, list) else (v,))]
        if str in map(type, values):  # the common case costs one pass in C
            raise TypeError(_UNICODE.format(next(v for v in values if type(v) is str)))
        return list(values)

    def unpack(self, buff: bytes) -> Any:
        """Read the fields from IBM's binary layout; returns the structure itself."""
        ensure_not_unicode(buff)
        short = self.get_length() - len(buff)
        if short > 0:
            buff = bytes(buff) + b"\x00" * short
        self._assign(struct.unpack(self._format, buff))
        return self

    def _assign(self, values: tuple[Any, ...]) -> None:
        if not self._mutable:
            self.__dict__.update(zip(self._order, values, strict=True))
            return
        it = iter(values)
        for name, count in self._counts:
            if count == 1 and name not in self._mutable:
                self.__dict__[name] = next(it)
            else:  # an array, even of one value, comes back a list (as pymqi's)
                self.__dict__[name] = [next(it) for _ in range(count)]

    # ---- MQCHARV fields (ObjectString and the like) -----------------------------------
    def set_vs(
        self,
        vs_name: str,
        vs_value: bytes | str | None = None,
        vs_offset: int = 0,
        vs_buffer_size: int = 0,
        vs_ccsid: int = 0,
    ) -> None:
        """Point the MQCHARV ``vs_name`` (e.g. ``ObjectString``) at ``vs_value``.

        As in pymqi, ``ObjectString`` and ``SubName`` take a ``str`` (encoded as ASCII),
        the others bytes only.
        """
        name = vs_name.removesuffix("VSPtr")
        if isinstance(vs_value, str) and name in ("SubName", "ObjectString"):
            vs_value = vs_value.encode("ascii")
        ensure_not_unicode(vs_value)
        assert not isinstance(vs_value, str)  # ensure_not_unicode raised for it
        buffer = None if vs_value is None else ctypes.create_string_buffer(vs_value)
        self.set(
            **{
                f"{name}VSPtr": 0 if buffer is None else ctypes.addressof(buffer),
                f"{name}VSOffset": vs_offset,
                f"{name}VSBufSize": vs_buffer_size,
                f"{name}VSLength": 0 if vs_value is None else len(vs_value),
                f"{name}VSCCSID": vs_ccsid,
            }
        )
        # Keep the buffer alive as long as the structure points at it.
        store = self.__dict__.setdefault("_vs_store", {})
        store[name] = (buffer, vs_value)

    def get_vs(self, vs_name: str) -> bytes | None:
        """The value the MQCHARV ``vs_name`` points at (None when it points nowhere)."""
        name = vs_name.removesuffix("VSPtr")
        if not self[f"{name}VSPtr"]:
            return None
        held = self.__dict__.get("_vs_store", {}).get(name)
        value: bytes | None = None if held is None else held[1]
        return value

    def to_string(self, encoding: str = "utf8") -> Any:
        """IBM ``ibmmq``'s ``to_string()``: every character field (not MsgId and the other
        byte fields) becomes a ``str``, for printing; returns the structure. As in
        ``ibmmq`` the structure is changed: pack a copy made before, not this one."""
        fields = self.__dict__
        for name in self._order:
            if name not in BINARY_FIELDS and isinstance(fields[name], bytes):
                fields[name] = to_string(fields[name], encoding)
        return self

    # ---- printing, as pymqi -------------------------------------------------------
    def __str__(self) -> str:
        return "\n".join(f"{name}: {getattr(self, name)}" for name, _, _ in self._layout)

    def __repr__(self) -> str:
        return str(self.pack())


class MQOpts(PymqiOpts, core.MQOpts):
    """pymqi's ``MQOpts``: the base of the facade's structures and of a program's own.

    A program defines a structure pymqi lacks as pymqi documents it::

        class DLH(pymqi.MQOpts):
            def __init__(self, **kw):
                super().__init__([["StrucId", b"DLH ", "4s"], ["Version", 1, "i"], ...], **kw)

    each member ``[name, default, format]`` or ``[name, default, format, count]`` (an
    array: ``count`` values, a list default).
    """

    def __init__(self, memlist: Iterable[Sequence[Any]] | None = None, **kw: Any) -> None:
        if memlist is not None:
            layout = []
            for member in memlist:
                name, default, fmt = member[0], member[1], member[2]
                count = member[3] if len(member) > 3 else 1
                if count != 1:
                    fmt = f"{count}{fmt}" if len(fmt) == 1 else fmt * count
                layout.append((name, fmt, default))
            self._use_layout(tuple(layout))
        PymqiOpts.__init__(self, **kw)
