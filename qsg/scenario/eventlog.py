"""The event log of a run as Parquet: one table, one schema, a column per event field.

Every event record (``qsg.events``) becomes one row. ``kind`` says which record it is;
``time`` (simulated seconds) and ``q_mgr`` are in every row; each other field of any
record is a column of its own, empty (null) in the rows of records without it. A field
name means the same thing, with the same type, in every record that has it (an import
of this module fails otherwise). ``SCHEMA`` is the table's schema; ``docs/events.md``
lists the columns and the records that fill them. The run's scopes (which queues are
shared, by which QSG) travel in the file's metadata, so ``read`` gives back everything
``qsg.scenario.summary.summarise`` needs.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from actors import events as actor_events
from actors.events import WorldEvent, kind_of
from qsg.core import events as rules_events
from qsg.scenario.summary import Scopes

#: 2: ``msg_id`` is fixed-size binary (24 bytes; an event's empty MsgId is null).
SCHEMA_VERSION = "2"
_TYPES: dict[Any, pa.DataType] = {
    float: pa.float64(),
    int: pa.int64(),
    str: pa.string(),
    bytes: pa.binary(),
    bool: pa.bool_(),
}

#: Every event record, by its ``kind``.
RECORDS: dict[str, type] = {
    getattr(cls, "kind", cls.__name__.lower()): cls for cls in typing.get_args(WorldEvent)
}


def _arrow_type(hint: Any) -> pa.DataType:
    """The column type of a field's annotation (``X | None`` is a nullable X)."""
    if isinstance(hint, types.UnionType):
        (inner,) = [a for a in typing.get_args(hint) if a is not type(None)]
        return _TYPES[inner]
    return _TYPES[hint]


def _columns() -> dict[str, pa.DataType]:
    columns: dict[str, pa.DataType] = {"kind": pa.string()}
    namespace = {**vars(actor_events), **vars(rules_events)}
    for cls in RECORDS.values():
        hints = typing.get_type_hints(cls, namespace)
        for f in dataclasses.fields(cls):
            wanted = _arrow_type(hints[f.name])
            known = columns.setdefault(f.name, wanted)
            if known != wanted:
                raise TypeError(
                    f"event field {f.name!r} of {cls.__name__} is {wanted}, "
                    f"elsewhere {known}: one column needs one type"
                )
    return columns


#: Identifiers kept at their fixed size: a MsgId is MQBYTE24, and the rules layer pads
#: one to 24 bytes when it is put. Read in half the time of variable-length binary.
FIXED = {"msg_id": 24}
_LOOSE = _columns()
COLUMNS = {name: pa.binary(FIXED[name]) if name in FIXED else t for name, t in _LOOSE.items()}


def _schema(columns: dict[str, pa.DataType]) -> pa.Schema:
    return pa.schema([pa.field(name, t, nullable=name != "kind") for name, t in columns.items()])


SCHEMA = _schema(COLUMNS)
_LOOSE_SCHEMA = _schema(_LOOSE)  # as the records give the identifiers, before ``_fixed``
_FIELDS = {kind: [f.name for f in dataclasses.fields(cls)] for kind, cls in RECORDS.items()}


def to_table(
    events: list[WorldEvent],
    scopes: Scopes,
    *,
    seed: int | None = None,
    warmup: tuple[float, float] | None = None,
) -> pa.Table:
    """The events as one Arrow table of ``SCHEMA``, the scopes in its metadata (and the
    seed, and a warm-up as its seconds and the event time it ends at). An
    event's empty identifier (``b""``: an ``invoke`` of a get has no MsgId) is null; if
    some identifier is of another length than MQ's (an application's descriptor
    before the put padded it), that column stays variable-length binary."""
    data: dict[str, list[Any]] = {name: [] for name in COLUMNS}
    for event in events:
        kind = kind_of(event)
        present = _FIELDS[kind]
        for name, column in data.items():
            if name == "kind":
                column.append(kind)
            else:
                column.append(getattr(event, name) if name in present else None)
    metadata = {
        b"qsg.schema_version": SCHEMA_VERSION.encode(),
        b"qsg.scopes": json.dumps(dataclasses.asdict(scopes), sort_keys=True).encode(),
    }
    if seed is not None:
        metadata[b"qsg.seed"] = str(seed).encode()
    if warmup is not None:
        metadata[b"qsg.warmup"] = json.dumps(list(warmup)).encode()
    table = pa.Table.from_pydict(data, schema=_LOOSE_SCHEMA.with_metadata(metadata))
    for name, width in FIXED.items():
        table = _fixed(table, name, width)
    return table


def _fixed(table: pa.Table, name: str, width: int) -> pa.Table:
    """``table`` with column ``name`` as binary of ``width`` bytes, empty values null
    (unchanged if some value is of another length)."""
    column = table[name]
    lengths = pc.binary_length(column)
    empty = pc.equal(lengths, pa.scalar(0, pa.int32()))
    fits = pc.or_kleene(empty, pc.equal(lengths, pa.scalar(width, pa.int32())))
    if not pc.all(fits).as_py():
        return table
    fixed = pc.if_else(empty, pa.scalar(None, column.type), column).cast(pa.binary(width))
    return table.set_column(
        table.schema.get_field_index(name), pa.field(name, pa.binary(width)), fixed
    )


#: Columns written with an encoding of their own rather than a dictionary: the time
#: (doubles that rise slowly: their bytes split into streams compress to about half and
#: decode twice as fast) and MsgIds (24 bytes, the first 16 "AMQ " and the queue
#: manager's name: written as what each shares with the one before, and the rest).
ENCODINGS = {"time": "BYTE_STREAM_SPLIT", "msg_id": "DELTA_BYTE_ARRAY"}


def write(
    path: str | Path,
    events: list[WorldEvent],
    scopes: Scopes,
    *,
    seed: int | None = None,
    warmup: tuple[float, float] | None = None,
) -> None:
    """Write the event log of a run to ``path`` (Parquet): ``warmup`` is (its seconds,
    the event time it ends at), for ``qsg metrics`` to leave it out as the summary does."""
    write_table(to_table(events, scopes, seed=seed, warmup=warmup), path)


def write_table(table: pa.Table, path: str | Path) -> None:
    """Write a table of ``SCHEMA`` (``to_table``'s) as an event log at ``path``: zstd,
    and ``ENCODINGS``."""
    pq.write_table(
        table,
        str(path),
        compression="zstd",
        use_dictionary=[c for c in table.column_names if c not in ENCODINGS],
        column_encoding=ENCODINGS,
    )


def read(path: str | Path) -> tuple[list[WorldEvent], Scopes]:
    """A run's events (the same records, in order) and scopes, from its Parquet log."""
    table = pq.read_table(str(path))
    metadata = table.schema.metadata or {}
    raw = json.loads(metadata.get(b"qsg.scopes", b"{}"))
    scopes = Scopes(raw.get("members", {}), raw.get("shared", {}), raw.get("structures", {}))
    events: list[WorldEvent] = []
    for row in table.to_pylist():
        kind = row["kind"]
        cls = RECORDS.get(kind)
        if cls is None:
            raise ValueError(f"{path}: unknown event kind {kind!r}")
        for name in FIXED:  # an empty identifier is written as null
            if row[name] is None:
                row[name] = b""
        # A column a log written before a field was added lacks: the field's default.
        events.append(cls(**{name: row[name] for name in _FIELDS[kind] if name in row}))
    return events, scopes


__all__ = [
    "COLUMNS",
    "ENCODINGS",
    "FIXED",
    "RECORDS",
    "SCHEMA",
    "SCHEMA_VERSION",
    "read",
    "to_table",
    "write",
    "write_table",
]
