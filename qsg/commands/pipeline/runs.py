"""Finding runs' event logs under a directory or URI, and what each says of itself.

A run is a directory holding ``events.parquet`` (what ``qsg run --out`` and every
sweep point write). Its name in the pipeline's tables is its path below the directory
given (``.`` for the directory itself). ``list_runs`` finds them on the driver: in a
local directory by walking it, elsewhere through Spark's own listing (Hadoop's
FileSystem: whatever Spark reaches, over Spark Connect too), with their sizes. The
scopes (which queue manager is in which QSG, the shared queues and CF structures)
travel in each file's Parquet metadata; ``read_log`` reads them from the footer alone,
in the task that computes the run's tables.
"""

from __future__ import annotations

import glob
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from qsg.commands.pipeline.where import (
    arrow_fs,
    glob_base,
    is_glob,
    is_local,
    local_path,
    relative,
    to_uri,
)
from qsg.scenario.summary import Scopes

EVENTS = "events.parquet"


@dataclass(frozen=True, slots=True)
class RunLog:
    """One run's event log: its name, file (a path or URI), scopes and seed (None if
    not recorded), and its warm-up: seconds, and the event time it ends at (None: none).
    ``content``: the file's bytes, when Spark read them (a filesystem pyarrow cannot
    open: ``read_log``); the file is then not opened again."""

    run: str
    path: Path | str
    scopes: Scopes
    seed: int | None
    warmup: float = 0.0
    warmup_until: float | None = None
    content: bytes | None = None


@dataclass(frozen=True, slots=True)
class RunFile:
    """A run found by ``list_runs``: its name, its log's URI and size in bytes."""

    run: str
    uri: str
    size: int


def list_runs(spark: Any, root: str | Path, *, by_spark: bool | None = None) -> list[RunFile]:
    """Every run below ``root`` (a path or URI), sorted by name; ValueError naming
    ``root`` if there is none. A local directory is walked here (unless ``by_spark``);
    any other URI is listed by Spark."""
    uri = to_uri(root)
    if is_local(uri) and not by_spark:
        base = local_path(uri)
        if is_glob(str(base)):
            return _globbed(base)
        if base.is_file() and base.name == EVENTS:
            base = base.parent
        return [
            RunFile(p.parent.relative_to(base).as_posix(), p.as_uri(), p.stat().st_size)
            for p in _logs(base)
        ]
    if is_local(uri):  # Hadoop's globs are the pattern as typed, not percent-encoded
        uri = "file://" + local_path(uri).as_posix()
    if uri.endswith("/" + EVENTS):
        uri = uri[: -len(EVENTS) - 1]
    try:
        listed = (
            spark.read.format("binaryFile")
            .option("recursiveFileLookup", "true")
            .option("pathGlobFilter", EVENTS)
            .load(uri)
            .select("path", "length")
            .collect()
        )
    except Exception as error:
        if "PATH_NOT_FOUND" in str(error) or "does not exist" in str(error):
            raise ValueError(f"{uri}: no such directory") from None
        raise
    if not listed:
        raise ValueError(f"{uri}: no {EVENTS} below it (write runs with qsg run --out DIR)")
    # Runs are named below the pattern's fixed part: runs/day-* names day-1/a, day-2/a.
    named_from = to_uri(glob_base(uri)) if is_glob(uri) else uri
    found = [
        RunFile(
            relative(r["path"], named_from).removesuffix(EVENTS).rstrip("/") or ".",
            _spelled(r["path"]),
            int(r["length"]),
        )
        for r in listed
    ]
    return sorted(found, key=lambda r: r.run)


def _globbed(pattern: Path) -> list[RunFile]:
    """The runs below every directory (or event log) a local ``pattern`` matches, named
    below its fixed part; ValueError naming the pattern if it matches no run."""
    base = Path(glob_base(pattern.as_posix()))
    if "{" in pattern.as_posix():
        raise ValueError(f"{pattern}: a local pattern takes *, ? and [...] (not {{a,b}})")
    logs = set()
    for match in glob.glob(pattern.as_posix()):
        where = Path(match)
        if where.is_file() and where.name == EVENTS:
            logs.add(where)
        elif where.is_dir():
            logs.update(where.rglob(EVENTS))
    if not logs:
        raise ValueError(f"{pattern}: no {EVENTS} below what it matches")
    return [
        RunFile(p.parent.relative_to(base).as_posix(), p.as_uri(), p.stat().st_size)
        for p in sorted(logs)
    ]


def _spelled(uri: str) -> str:
    """A URI as ``to_uri`` spells it (Hadoop writes ``file:/x`` for ``file:///x``)."""
    return to_uri(uri)


def _logs(root: Path) -> list[Path]:
    """The event logs below a local ``root``, sorted (ValueError naming it if none)."""
    if not root.is_dir():
        raise ValueError(f"{root}: no such directory")
    found = sorted(root.rglob(EVENTS))
    if not found:
        raise ValueError(f"{root}: no {EVENTS} below it (write runs with qsg run --out DIR)")
    return found


def read_log(run: str, location: str | Path, content: bytes | None = None) -> RunLog:
    """The run named ``run`` whose log is at ``location`` (a path or URI): its scopes
    and seed, from the footer (ValueError naming the file if it is not a log). Given
    the file's ``content`` (read by Spark), from those bytes instead of the file."""
    source: Any = None if content is None else pa.BufferReader(content)
    if source is None:
        filesystem, path = arrow_fs(location)  # ValueError naming a URI it cannot open
    try:
        if source is None:
            source = filesystem.open_input_file(path)
        with source:
            metadata = pq.read_schema(source).metadata or {}
    except Exception as error:  # pyarrow's errors have no common root of their own
        raise ValueError(f"{location}: not a readable Parquet event log: {error}") from None
    raw: dict[str, Any] = json.loads(metadata.get(b"qsg.scopes", b"{}"))
    scopes = Scopes(raw.get("members", {}), raw.get("shared", {}), raw.get("structures", {}))
    seed = metadata.get(b"qsg.seed")
    where: Path | str = local_path(location) if is_local(location) else str(location)
    warmup, until = json.loads(metadata.get(b"qsg.warmup", b"[0.0, null]"))
    seed_value = int(seed) if seed is not None else None
    return RunLog(run, where, scopes, seed_value, warmup, until, content)


def find_runs(root: str | Path) -> list[RunLog]:
    """Every run under ``root`` (sorted by name); ValueError naming ``root`` if none."""
    root = Path(root)
    if root.is_file() and root.name == EVENTS:
        root = root.parent
    return [_read(root, path) for path in _logs(root)]


def _read(root: Path, path: Path) -> RunLog:
    return read_log(path.parent.relative_to(root).as_posix(), path)


def structure_rows(runs: list[RunLog]) -> list[tuple[str, str, str, str, int]]:
    """(run, qsg, queue, structure, size_kb) for every shared queue in a CF structure."""
    rows: list[tuple[str, str, str, str, int]] = []
    for r in runs:
        for qsg, structures in r.scopes.structures.items():
            for name, s in structures.items():
                rows.extend((r.run, qsg, q, name, int(s["size_kb"])) for q in s.get("queues", ()))
    return rows


__all__ = ["EVENTS", "RunFile", "RunLog", "find_runs", "list_runs", "read_log", "structure_rows"]
