"""The queue-sharing group's shared repository: the definitions every member can read.

On z/OS it is a set of Db2 tables (IBM: "Queue sharing groups", "Managing group
objects"): the single definition of each QSGDISP(GROUP) object, from which every member
keeps its own QSGDISP(COPY) on page set 0, and the single definition of each
QSGDISP(SHARED) queue and CF structure. qsg keeps it in one of two stores, as it keeps
the coupling facility's messages: in process (``MemoryRepositoryStore``, here) or on the
coupling facility's server under the group's own keys (``coupling.repository``), so a
run on a server keeps its group definitions there.

A store is a set of tables (a *kind*: QUEUE, CHANNEL, PROCESS, NAMELIST, STGCLASS,
CFSTRUCT, ...) of text
rows by name: ``RepositoryStore``. Any layer may add a table of its own (shared channel
status, say) with rows it encodes itself. ``GroupRepository`` adds what the queue
managers use: definitions as records, and Db2's availability. While the repository is
unavailable (the ``repository_unavailable`` fault: Db2 down) every call fails with
MQRC_DB2_NOT_AVAILABLE (2342); the members keep the definitions they already read, so
running work on known objects goes on.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any, Protocol

from qsg import CMQC
from qsg.core.errors import MQMIError
from qsg.core.objects import (
    AliasQueue,
    CFStructure,
    ChannelDefinition,
    NamelistDefinition,
    ProcessDefinition,
    RemoteQueue,
    StorageClass,
)
from qsg.core.queue import QueueDefinition

#: The records a repository row can hold, by the name a row gives its class.
RECORDS: dict[str, type] = {
    cls.__name__: cls
    for cls in (
        QueueDefinition,
        AliasQueue,
        RemoteQueue,
        ChannelDefinition,
        ProcessDefinition,
        NamelistDefinition,
        StorageClass,
        CFStructure,
    )
}
#: The tables of definitions: queues of every type share one namespace, as in MQ.
KINDS = ("QUEUE", "CHANNEL", "PROCESS", "NAMELIST", "STGCLASS", "CFSTRUCT")

Definition = Any  # one of ``RECORDS``' classes (a frozen dataclass)


class RepositoryStore(Protocol):
    """Rows of text by table (``kind``) and name: what both stores keep."""

    def read(self, kind: str, name: str) -> str | None:
        """The row ``name`` of table ``kind``, or None."""

    def write(self, kind: str, name: str, row: str) -> None:
        """Insert or replace the row ``name`` of table ``kind``."""

    def remove(self, kind: str, name: str) -> bool:
        """Delete the row ``name`` of table ``kind``; whether it was there."""

    def read_all(self, kind: str) -> dict[str, str]:
        """Every row of table ``kind``, by name."""


class MemoryRepositoryStore:
    """The repository in process: one dict per table, rows kept as the server keeps
    them (text), so both stores give the same answers for the same calls."""

    def __init__(self) -> None:
        self._tables: dict[str, dict[str, str]] = {}

    def read(self, kind: str, name: str) -> str | None:
        return self._tables.get(kind, {}).get(name)

    def write(self, kind: str, name: str, row: str) -> None:
        self._tables.setdefault(kind, {})[name] = row

    def remove(self, kind: str, name: str) -> bool:
        return self._tables.get(kind, {}).pop(name, None) is not None

    def read_all(self, kind: str) -> dict[str, str]:
        return dict(self._tables.get(kind, {}))


def encode(record: Definition) -> str:
    """A definition as a row: its class's name and its fields, in JSON."""
    name = type(record).__name__
    if name not in RECORDS:
        raise TypeError(f"a repository row cannot hold a {name}")
    fields = {f.name: getattr(record, f.name) for f in dataclasses.fields(record)}
    return json.dumps({"record": name, "fields": fields}, sort_keys=True)


def decode(row: str) -> Definition:
    """``encode``'s inverse: JSON's lists are the records' tuples again."""
    data = json.loads(row)
    fields = {k: _tuples(v) for k, v in data["fields"].items()}
    return RECORDS[data["record"]](**fields)


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


class GroupRepository:
    """The group's definitions over a ``RepositoryStore``, and whether Db2 is up.

    ``unavailable`` says why the repository cannot be reached ('' while it can); the
    fault kinds ``repository_unavailable`` and ``repository_available`` set it.
    """

    def __init__(self, store: RepositoryStore | None = None) -> None:
        self.store: RepositoryStore = store if store is not None else MemoryRepositoryStore()
        self.unavailable = ""
        #: A member process of a multi-process run (``open_world(only=...)``) is building
        #: its topology, whose MQSC every process of the run applies: a GROUP object that
        #: another process already wrote, identical, is not "already defined".
        self.joining = False

    def check(self) -> None:
        """MQRC_DB2_NOT_AVAILABLE (2342) while the repository cannot be reached."""
        if self.unavailable:
            raise MQMIError.failed(
                CMQC.MQRC_DB2_NOT_AVAILABLE,
                f"the shared repository (Db2) is not available: {self.unavailable}",
            )

    def get(self, kind: str, name: str) -> Definition | None:
        """The definition ``name`` of table ``kind`` (a GROUP or SHARED object), or None."""
        self.check()
        row = self.store.read(kind, name)
        return decode(row) if row is not None else None

    def put(self, kind: str, record: Definition) -> None:
        """Insert or replace a definition (its ``name`` is the row's)."""
        self.check()
        self.store.write(kind, record.name, encode(record))

    def delete(self, kind: str, name: str) -> bool:
        """Delete a definition; whether it was there."""
        self.check()
        return self.store.remove(kind, name)

    def all(self, kind: str) -> dict[str, Definition]:
        """Every definition of table ``kind``, by name, in name order."""
        self.check()
        rows = self.store.read_all(kind)
        return {name: decode(rows[name]) for name in sorted(rows)}

    def group_objects(self, kind: str) -> dict[str, Definition]:
        """The QSGDISP(GROUP) definitions of table ``kind`` (its SHARED ones left out)."""
        return {
            name: record
            for name, record in self.all(kind).items()
            if getattr(record, "qsg_disp", CMQC.MQQSGD_GROUP) == CMQC.MQQSGD_GROUP
        }


def _conforms(store: MemoryRepositoryStore) -> RepositoryStore:
    return store  # mypy --strict checks here that the in-process store is a RepositoryStore


__all__ = [
    "KINDS",
    "RECORDS",
    "Definition",
    "GroupRepository",
    "MemoryRepositoryStore",
    "RepositoryStore",
    "decode",
    "encode",
]
