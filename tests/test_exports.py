"""``qsg.events``, the public names of the event stream's records, is complete: every
record the event log keeps (``WorldEvent``, each kind of docs/events.md) is exported
under its own name and listed in ``__all__``, and every name the docs give resolves."""

from __future__ import annotations

import dataclasses
import re
import typing
from pathlib import Path

import actors.events
import qsg.core.events
import qsg.events

ROOT = Path(__file__).parent.parent
RECORDS = typing.get_args(actors.events.WorldEvent)


def test_every_record_of_the_event_stream_is_exported_by_qsg_events() -> None:
    missing = [cls.__name__ for cls in RECORDS if cls.__name__ not in qsg.events.__all__]
    assert missing == []
    for cls in RECORDS:
        assert getattr(qsg.events, cls.__name__) is cls


def test_every_record_class_the_event_modules_define_is_in_the_stream() -> None:
    # A record defined but left out of WorldEvent would be missing from the event log's
    # schema (its columns are WorldEvent's fields) and from the exports alike.
    for module in (actors.events, qsg.core.events):
        defined = {
            cls
            for cls in vars(module).values()
            if dataclasses.is_dataclass(cls)
            and isinstance(cls, type)
            and cls.__module__ == module.__name__
        }
        assert defined <= set(RECORDS), module.__name__


def test_every_name_qsg_events_lists_resolves() -> None:
    for name in qsg.events.__all__:
        assert hasattr(qsg.events, name), name
    assert set(qsg.events.__all__) == {c.__name__ for c in RECORDS} | {
        "EventLog",
        "WorldEvent",
        "kind_of",
    }


def test_docs_events_md_names_each_kind_by_its_exported_record() -> None:
    doc = (ROOT / "docs" / "events.md").read_text()
    rows = dict(re.findall(r"^\| `([\w-]+)` \| `(\w+)` \|", doc, re.MULTILINE))
    assert rows == {cls.kind: cls.__name__ for cls in RECORDS}
    assert set(rows.values()) <= set(qsg.events.__all__)


def test_every_qsg_events_name_in_the_readme_and_docs_is_exported() -> None:
    texts = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    named = {n for path in texts for n in re.findall(r"qsg\.events\.(\w+)", path.read_text())}
    assert named
    assert named <= set(qsg.events.__all__)
