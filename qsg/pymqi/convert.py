"""pymqi's structures to the world's and back, around each call.

A program hands the facade pymqi's structures (``MD``, ``GMO``, ``PMO``, ``OD``); the
world's async MQI takes the rules layer's (``qsg.core.structs``), which hold the same
IBM fields. The facade copies the fields in before a call and writes them all back
after it, as pymqi unpacks the structure MQ returns: character fields come back
blank-padded to their full length, byte fields NUL-padded, and GroupStatus,
SegmentStatus and Segmentation as pymqi has them (an int, ``ord('G')``) rather than
as the rules layer keeps them (a byte string).

A ``str`` where MQ wants bytes is pymqi's ``TypeError``, raised when the structure is
packed for the call, with pymqi's words.
"""

from __future__ import annotations

from typing import Any, TypeVar

from qsg.core.structs import MQOpts

S = TypeVar("S", bound=MQOpts)

#: Single-character fields pymqi packs as a signed byte: an int there, bytes here.
_AS_INT = frozenset({"GroupStatus", "SegmentStatus", "Segmentation"})


def not_unicode(value: object) -> None:
    """pymqi's check where MQ wants bytes (``ensure_not_unicode``)."""
    if isinstance(value, str):
        raise TypeError(
            f"Python 3 style string (unicode) found but not allowed here: `{value}`. "
            "Convert to bytes."
        )


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
        pack = getattr(structure, "pack", None)
        if pack is not None:
            pack()  # what pymqi's call packs: its TypeError or struct.error, here
        return structure
    core = kind()
    kinds = kind._kinds
    values = {}
    for name, value in fields_of(structure).items():
        field_kind = kinds.get(name)
        if field_kind is None:
            continue  # a field of a later version the simulator does not use
        not_unicode(value)
        if name in _AS_INT and isinstance(value, int):
            value = bytes([value & 0xFF])
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
        if name in _AS_INT and isinstance(mine[name], int):
            value = value[0] if value else 0x20
        elif isinstance(kind, tuple) and isinstance(value, bytes):
            value = value.ljust(kind[1], b" " if kind[0] == "c" else b"\x00")
        out[name] = value
    _assign(structure, out)


def _assign(structure: Any, values: dict[str, Any]) -> None:
    for name, value in values.items():
        setattr(structure, name, value)


__all__ = ["fields_of", "not_unicode", "to_core", "write_back"]
