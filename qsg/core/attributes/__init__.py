"""The attribute table: every attribute of every object type, in one place.

One table (``queues.py``, ``objects.py``) serves each door of the queue manager: the
MQSC reader takes its keywords and checks their values (``qsg.mqsc.schema``), DISPLAY
shows its rows in order (``qsg.mqsc.attributes``), PCF names them by its parameter
identifiers (``qsg.mqsc.pcf_names``), MQINQ and MQSET answer its selectors (``inquired``
and ``settable`` here, for ``qsg.core.handle``), and docs/mqsc.md lists it
(tests/test_attribute_table.py checks that the doc and the table agree).

A record keeps an attribute with behaviour in a field of its own (``Attribute.field``);
the others it keeps in its ``kept`` values, keyword to value, shown and inquired but
with no effect (``read`` gives IBM's default for one never set).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta
from typing import Any

from qsg.core.attributes.attribute import (
    KEPT,
    OBJECT_TYPES,
    QALIAS,
    QLOCAL,
    QMODEL,
    QREMOTE,
    QUEUES,
    Attribute,
)
from qsg.core.attributes.kinds import Choice, Kind, Names, Number, Text, Wire
from qsg.core.attributes.namelists import NAMELISTS, STAMPS, STORAGE_CLASSES
from qsg.core.attributes.objects import CF_STRUCTURES, CHANNELS, CHLTYPE, PROCESSES, Q_MGR
from qsg.core.attributes.qmgr import Q_MGR_FIXED, Q_MGR_KEPT
from qsg.core.attributes.queues import Q_TYPE, QUEUE

#: Every row, each family in DISPLAY's order; the dates last, on every object type.
ROWS: tuple[Attribute, ...] = (
    QUEUE + CHANNELS + CF_STRUCTURES + PROCESSES + Q_MGR + Q_MGR_FIXED + Q_MGR_KEPT
)
ROWS += NAMELISTS + STORAGE_CLASSES + STAMPS
#: The rows each object type shows, in DISPLAY's order.
TABLE: dict[str, tuple[Attribute, ...]] = {
    kind: tuple(a for a in ROWS if kind in a.displayed_on) for kind in OBJECT_TYPES
}
#: A record's kept values: (keyword, value) pairs in keyword order.
Kept = tuple[tuple[str, Any], ...]


def keywords(object_type: str) -> dict[str, Attribute]:
    """The keywords DEFINE and ALTER of ``object_type`` take, synonyms and bare words
    (SHARE, NOSHARE) included."""
    found: dict[str, Attribute] = {}
    for a in ROWS:
        if object_type in a.objects and a.given:
            words = a.kind.words if a.bare and a.kind.words is not None else (a.keyword,)
            for word in (*words, *a.synonyms):
                found[word] = a
    return found


def channel_type(record: object) -> str:
    """A channel record's CHLTYPE word (SDR, SVRCONN, ...); "" for another record."""
    value = getattr(record, "channel_type", None)
    return CHLTYPE.word(value) if value is not None else ""


def applies(a: Attribute, record: object) -> bool:
    """Whether ``a`` belongs to ``record``: every row does, but a channel's only to the
    CHLTYPEs it is for (BATCHSZ to message channels, SHARECNV to client channels)."""
    return not a.channel_types or channel_type(record) in a.channel_types


def not_for(chltype: str, keywords: Iterable[str]) -> list[str]:
    """The channel ``keywords`` (MQSC's, as given) that CHLTYPE ``chltype`` does not take."""
    rows = {a.keyword: a for a in TABLE["CHANNEL"]}
    return [
        k
        for k in keywords
        if k in rows and rows[k].channel_types and chltype not in rows[k].channel_types
    ]


def value_not_for(record: object) -> tuple[str, str] | None:
    """A channel ``record``'s first value its CHLTYPE does not take, as (keyword, word)
    (SPLPROT(REMOVE) on a receiver), or None."""
    chltype = channel_type(record)
    for a in TABLE["CHANNEL"]:
        words = dict(a.type_values).get(chltype)
        if words is not None and (word := a.kind.shown(read(record, a))) not in words:
            return a.keyword, str(word)
    return None


def read(record: object, a: Attribute) -> Any:
    """The value ``record`` (a definition, or the queue manager) has for ``a``; one
    never set is IBM's default for the record's type (a channel's CHLTYPE's own)."""
    default = a.default_for(channel_type(record)) if a.type_defaults else a.default
    if a.field:
        value: Any = record
        for part in a.field.split("."):
            value = getattr(value, part)
        return default if value is None else value
    return dict(getattr(record, "kept", ())).get(a.keyword, default)


def kept(base: Iterable[tuple[str, Any]], changes: Mapping[str, Any]) -> Kept:
    """``base``'s kept values with ``changes`` (keyword to value) made."""
    merged = dict(base)
    merged.update(changes)
    return tuple(sorted(merged.items()))


def stamps(epoch: datetime, now: float, *, created: bool) -> dict[str, str]:
    """The dates a change at simulated time ``now`` (seconds from the run's ``epoch``)
    sets, as DISPLAY shows them (yyyy-mm-dd, hh.mm.ss): ALTDATE and ALTTIME, and with
    ``created`` (DEFINE, a dynamic queue's MQOPEN) CRDATE and CRTIME too."""
    moment = epoch + timedelta(seconds=now)
    date, time = moment.strftime("%Y-%m-%d"), moment.strftime("%H.%M.%S")
    found = {"ALTDATE": date, "ALTTIME": time}
    if created:
        found.update(CRDATE=date, CRTIME=time)
    return found


def changed(record: Any, a: Attribute, value: Any) -> Any:
    """A frozen definition with ``a`` set to ``value`` (its field, or a kept value)."""
    if a.field:
        return dataclasses.replace(record, **{a.field: value})
    return dataclasses.replace(record, kept=kept(record.kept, {a.keyword: value}))


def queue_type(q_type: int) -> str:
    """QLOCAL, QMODEL, QALIAS or QREMOTE for an MQQT_* value."""
    return Q_TYPE.word(q_type)


def padded(a: Attribute, value: Any) -> int | bytes:
    """``value`` as MQINQ returns it: an int, or bytes blank-padded to MQ's length (a
    namelist's NAMES: each name padded, one after another)."""
    if isinstance(a.kind, Names):
        return b"".join(n.encode()[: a.kind.length].ljust(a.kind.length) for n in value)
    wire = a.kind.wire(value)
    if isinstance(wire, str):
        return wire.encode()[: a.kind.length].ljust(a.kind.length)
    return wire


def inquired(record: object, object_type: str, status: Mapping[str, int]) -> dict[int, Any]:
    """MQINQ's answers for ``record`` of ``object_type``, selector to value: every row
    IBM lets MQINQ read on it; a status row's value from ``status`` (CURDEPTH, ...)."""
    values: dict[int, Any] = {}
    for a in TABLE[object_type]:
        if not a.inquire:
            continue
        if a.role == "status":
            if a.keyword in status:
                values[a.parameter] = status[a.keyword]
            continue
        values[a.parameter] = padded(a, read(record, a))
    return values


def selectors(object_types: Iterable[str], *, settable: bool = False) -> dict[int, Attribute]:
    """The MQINQ selectors (or, with ``settable``, the MQSET ones) of any of
    ``object_types``."""
    found: dict[int, Attribute] = {}
    for kind in object_types:
        for a in TABLE[kind]:
            if a.inquire and (a.settable or not settable):
                found[a.parameter] = a
    return found


def mqset_value(a: Attribute, value: int | bytes) -> Any:
    """The record's value of an MQSET ``value`` for ``a``; ValueError when MQ refuses
    it (the caller answers ``a.set_error``)."""
    if isinstance(a.kind, Text):
        if not isinstance(value, bytes) or len(value) > a.kind.length:
            raise ValueError(f"{a.keyword}: at most {a.kind.length} bytes")
        return value.rstrip(b" \x00").decode()
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{a.keyword}: an integer attribute")
    if isinstance(a.kind, Choice):
        return a.kind.record(value)
    text = a.kind.text(value)
    if text is None:
        raise ValueError(f"{a.keyword}: {value}")
    return a.kind.parse(text, False)


__all__ = [
    "CHLTYPE",
    "KEPT",
    "OBJECT_TYPES",
    "QALIAS",
    "QLOCAL",
    "QMODEL",
    "QREMOTE",
    "QUEUES",
    "ROWS",
    "TABLE",
    "Attribute",
    "Choice",
    "Kept",
    "Kind",
    "Names",
    "Number",
    "Text",
    "Wire",
    "applies",
    "changed",
    "channel_type",
    "inquired",
    "kept",
    "keywords",
    "mqset_value",
    "not_for",
    "padded",
    "queue_type",
    "read",
    "selectors",
    "stamps",
]
