"""pymqi's structures to the world's and back, around each call.

A program hands the facade pymqi's structures (``MD``, ``GMO``, ``PMO``, ``OD``); the
world's async MQI takes the rules layer's (``qsg.core.structs``), which hold the same
IBM fields. The facade copies the fields in before a call and writes them all back
after it, as pymqi unpacks the structure MQ returns: character fields come back
blank-padded to their full length, byte fields NUL-padded. GroupStatus, SegmentStatus
and Segmentation are ints on both sides (``ord('G')``, IBM's header's character
constant); a structure of a program's own that holds them as one-byte ``bytes`` gets
them back so.

A ``str`` where MQ wants bytes is pymqi's ``TypeError``, raised when the structure is
packed for the call, with pymqi's words.
"""

from __future__ import annotations

from typing import Any, TypeVar

from qsg.core.structs import MQOpts

S = TypeVar("S", bound=MQOpts)

#: Single-character fields, held as their character's code (an int) by pymqi and here.
_AS_INT = frozenset({"GroupStatus", "SegmentStatus", "Segmentation"})


def not_unicode(value: object) -> None:
    """pymqi's check where MQ wants bytes (``ensure_not_unicode``)."""
    if isinstance(value, str):
        raise TypeError(
            f"Python 3 style string (unicode) found but not allowed here: `{value}`. "
            "Convert to bytes."
        )


def packs(structure: Any) -> None:
    """Pack ``structure`` as pymqi packs it for the call, for its errors alone (a
    ``struct.error`` for a value its field cannot hold). Whether a structure packs
    depends on its values alone, so values that packed once are remembered and not
    packed again (a program's GMO, reused unchanged, or a fresh MD)."""
    pack = getattr(structure, "pack", None)
    if pack is None:
        return
    try:
        key = (_core_kind(structure), *structure.__dict__.values())
        if key in _PACKED:
            return
    except TypeError:  # an array field (a list): not hashable, not remembered
        pack()
        return
    pack()
    if len(_PACKED) >= _REMEMBERED:
        _PACKED.clear()
    _PACKED.add(key)


def _core_kind(structure: Any) -> type:
    """The rules layer's class a structure is one of (the key ``to_core`` looks up)."""
    for kind in type(structure).__mro__:
        if kind.__module__ == "qsg.core.structs":
            return kind
    return type(structure)


#: Values of structures that packed (at most ``_REMEMBERED``, then forgotten at once).
_PACKED: set[tuple[Any, ...]] = set()
_REMEMBERED = 4096


def fields_of(structure: Any) -> dict[str, Any]:
    """A pymqi-style structure's fields: its ``get()``."""
    got = structure.get()
    if not isinstance(got, dict):
        raise TypeError(f"{type(structure).__name__} is not an MQ structure")
    return got


def to_core(structure: Any, kind: type[S]) -> S:
    """The rules layer's ``kind`` holding ``structure``'s fields (``structure`` itself if
    it is one already)."""
    if isinstance(structure, kind):
        # ``packs``, inline (this runs for every structure of every call).
        try:
            if (kind, *structure.__dict__.values()) in _PACKED:
                return structure
        except TypeError:
            pass
        packs(structure)
        return structure
    core = kind()
    kinds = kind._kinds
    values = {}
    for name, value in fields_of(structure).items():
        field_kind = kinds.get(name)
        if field_kind is None:
            continue  # a field of a later version the simulator does not use
        not_unicode(value)
        if name in _AS_INT and isinstance(value, bytes) and len(value) == 1:
            value = value[0]
        elif isinstance(field_kind, tuple) and isinstance(value, bytes):
            value = value[: field_kind[1]]
        values[name] = value
    core.set(**values)
    return core


def write_back(core: MQOpts, structure: Any) -> None:
    """Every field of ``core`` into ``structure`` as pymqi unpacks it."""
    if structure is core:
        return
    mine = fields_of(structure)
    out = {}
    for name, value in core.get().items():
        if name not in mine:
            continue
        kind = core._kinds[name]
        if name in _AS_INT and isinstance(mine[name], bytes):
            value = bytes((value & 0xFF,))
        elif isinstance(kind, tuple) and isinstance(value, bytes):
            value = value.ljust(kind[1], b" " if kind[0] == "c" else b"\x00")
        out[name] = value
    _assign(structure, out)


def _assign(structure: Any, values: dict[str, Any]) -> None:
    for name, value in values.items():
        setattr(structure, name, value)


__all__ = ["fields_of", "not_unicode", "packs", "to_core", "write_back"]
