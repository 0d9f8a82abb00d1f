"""Finding runs' event logs under a directory, and what each says of itself.

A run is a directory holding ``events.parquet`` (what ``qsg run --out`` and every
sweep point write). Its name in the pipeline's tables is its path below the directory
given (``.`` for the directory itself). The scopes (which queue manager is in which
QSG, the shared queues and CF structures) travel in each file's Parquet metadata;
they are read here on the driver, from the footers alone, and become literals of
each run's read (its name, which queues are a QSG's) and a small table of CF structures.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from qsg.scenario.summary import Scopes

EVENTS = "events.parquet"


@dataclass(frozen=True, slots=True)
class RunLog:
    """One run's event log: its name, file, scopes and seed (None if not recorded)."""

    run: str
    path: Path
    scopes: Scopes
    seed: int | None


def find_runs(root: str | Path) -> list[RunLog]:
    """Every run under ``root`` (sorted by name); ValueError naming ``root`` if none."""
    root = Path(root)
    if root.is_file() and root.name == EVENTS:
        root = root.parent
    if not root.is_dir():
        raise ValueError(f"{root}: no such directory")
    found = sorted(root.rglob(EVENTS))
    if not found:
        raise ValueError(f"{root}: no {EVENTS} below it (write runs with qsg run --out DIR)")
    return [_read(root, path) for path in found]


def _read(root: Path, path: Path) -> RunLog:
    try:
        metadata = pq.read_schema(path).metadata or {}
    except Exception as error:  # pyarrow's errors have no common root of their own
        raise ValueError(f"{path}: not a readable Parquet event log: {error}") from None
    raw: dict[str, Any] = json.loads(metadata.get(b"qsg.scopes", b"{}"))
    scopes = Scopes(raw.get("members", {}), raw.get("shared", {}), raw.get("structures", {}))
    seed = metadata.get(b"qsg.seed")
    name = path.parent.relative_to(root).as_posix()
    return RunLog(name, path, scopes, int(seed) if seed is not None else None)


def structure_rows(runs: list[RunLog]) -> list[tuple[str, str, str, str, int]]:
    """(run, qsg, queue, structure, size_kb) for every shared queue in a CF structure."""
    rows: list[tuple[str, str, str, str, int]] = []
    for r in runs:
        for qsg, structures in r.scopes.structures.items():
            for name, s in structures.items():
                rows.extend((r.run, qsg, q, name, int(s["size_kb"])) for q in s.get("queues", ()))
    return rows


__all__ = ["EVENTS", "RunLog", "find_runs", "structure_rows"]
