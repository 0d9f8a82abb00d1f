"""A job's tables written by its own tasks, then committed by the driver: one Spark job.

Handing every table's rows from the Python tasks to the JVM and writing each table
with its own ``DataFrameWriter`` job cost the metrics job about 20 s at any size
(12 s the rows crossing into the JVM and persisted, 8 s fifteen write jobs): 40 times
a bare scan of the events. Here the tasks write their tables' parts themselves, with
pyarrow, where the Python already holds them, and the driver commits them by renaming,
as Hadoop's ``FileOutputCommitter`` (its first algorithm) commits a job's output:

1. ``Stage.begin``: the job's staging directory ``OUT/_temporary/qsg-ID/`` (Spark,
   pyarrow and DuckDB skip names starting with ``_``), a directory per table in it.
   ``errorifexists`` refuses an existing table here, before anything runs.
2. Each task writes each run's rows of a table as ``NAME/run=RUN/part-00000.parquet``
   below it (``put``: the run a directory, not a column, as ``partitionBy("run")``
   lays it out), first under a hidden name then renamed: a task retried rewrites the
   same file, and a reader never sees half a part.
3. ``commit`` (the driver, when every task succeeded): each table's directory renamed
   to ``OUT/NAME`` (``overwrite``: the old one deleted first) with ``_SUCCESS``.
   ``discard`` (always): the staging directory deleted, and ``OUT`` too if the job
   made it and left nothing. A failed job leaves no table half-written.

Both ends open the URI through ``pyarrow.fs`` (``where.arrow_fs``). A URI pyarrow
cannot open (``abfss://``, ``hdfs://`` without libhdfs) is ``Stage.begin``'s ``None``:
the job then hands its rows to Spark's writers as before (``frames.write_tables``).
On an object store a rename is a copy, as it is for Hadoop's committer (S3A's magic
committer avoids it; that path is not measured here: no object store on this machine).
"""

from __future__ import annotations

import uuid
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from qsg.commands.pipeline.where import arrow_fs, child
from qsg.core.errors import QSGError

#: The directory below OUT where jobs stage their tables (Spark's own name for it).
STAGING = "_temporary"
#: The file a run's rows of a table are written as, in its partition's directory.
PART = "part-00000.parquet"
#: The column every staged table is partitioned by: ``NAME/run=RUN/``.
PARTITION = "run"
#: How a job's output may meet existing tables: Spark's save modes.
MODES = ("overwrite", "errorifexists")
#: Characters Spark escapes (``%XX``) in a partition directory's value (its
#: ``ExternalCatalogUtils.escapePathName``): so parts are named as Spark names them.
_ESCAPED = frozenset([*map(chr, range(1, 32)), *"\"#%'*/:=?\\\x7f{[]^"])


class TableExistsError(QSGError, RuntimeError):
    """``errorifexists`` and a table is there already (the message names it)."""


def partition_dir(run: str) -> str:
    """The directory of ``run``'s partition of a table: ``run=NAME``, escaped as Spark
    escapes it (``b/c``: ``run=b%2Fc``)."""
    return PARTITION + "=" + "".join(f"%{ord(c):02X}" if c in _ESCAPED else c for c in run)


def write_part(table: pa.Table, path: str, filesystem: Any = None) -> None:
    """One table (or a run's part of it) as a Parquet file: names (strings) as
    dictionaries, numbers as they are (a dictionary of times or counts is as big as
    they are, and Arrow hashes doubles slowly: a third of the time it took to write)."""
    strings = [f.name for f in table.schema if f.type == pa.string()]
    pq.write_table(table, path, filesystem=filesystem, use_dictionary=strings)


def _exists(filesystem: Any, path: str) -> bool:
    from pyarrow import fs

    return bool(filesystem.get_file_info(path).type != fs.FileType.NotFound)


@dataclass(frozen=True)
class Stage:
    """A job's staging directory (``uri``) for the tables ``names`` of ``out``."""

    out: str
    uri: str
    names: tuple[str, ...]
    mode: str
    #: Whether ``out`` was there before the job (if not, ``discard`` removes it empty).
    existed: bool

    @classmethod
    def begin(
        cls, out: str, names: Collection[str], mode: str, *, scratch: Collection[str] = ()
    ) -> Stage | None:
        """The staging directory of a job writing tables ``names`` below ``out`` (a
        URI), made with a directory per table (and per ``scratch`` table: staged for
        the job's own reading, never committed); ``None`` if pyarrow cannot open
        ``out``. TableExistsError naming the first table there already if ``mode`` is
        ``errorifexists``."""
        if mode not in MODES:
            raise ValueError(f"mode {mode!r}: one of {', '.join(MODES)}")
        try:
            filesystem, path = arrow_fs(out)
        except ValueError:
            return None
        if mode == "errorifexists":
            for name in names:
                if _exists(filesystem, f"{path}/{name}"):
                    raise TableExistsError(
                        f"{child(out, name)} already exists (mode errorifexists)"
                    )
        existed = _exists(filesystem, path)
        uri = child(out, STAGING, f"qsg-{uuid.uuid4().hex}")
        stage = cls(out, uri, tuple(names), mode, existed)
        _, staged = arrow_fs(uri)
        for name in [*names, *scratch]:
            filesystem.create_dir(f"{staged}/{name}", recursive=True)
        return stage

    def table(self, name: str) -> str:
        """The URI of table ``name`` while staged (for Spark to read before the commit)."""
        return child(self.uri, name)

    def commit(self) -> None:
        """Every staged table moved to ``out/NAME``, replacing what was there, with
        ``_SUCCESS``: called once every task has succeeded."""
        filesystem, staged = arrow_fs(self.uri)
        _, out = arrow_fs(self.out)
        for name in self.names:
            target = f"{out}/{name}"
            if _exists(filesystem, target):
                filesystem.delete_dir(target)
            _move_tree(filesystem, f"{staged}/{name}", target)
            with filesystem.open_output_stream(f"{target}/_SUCCESS"):
                pass

    def discard(self) -> None:
        """The staging directory gone; ``_temporary`` and ``out`` too if left empty and
        the job made them (a failed job leaves ``out`` as it found it)."""
        filesystem, staged = arrow_fs(self.uri)
        _, out = arrow_fs(self.out)
        if _exists(filesystem, staged):
            filesystem.delete_dir(staged)
        for path, made in ((f"{out}/{STAGING}", True), (out, not self.existed)):
            if made and _exists(filesystem, path) and not _listing(filesystem, path):
                filesystem.delete_dir(path)


#: pyarrow's filesystems that have keys, not directories (their ``type_name``).
_OBJECT_STORES = frozenset({"s3", "gcs"})


def _move_tree(filesystem: Any, source: str, target: str) -> None:
    """The directory ``source`` moved to ``target``: one rename on a filesystem that has
    directories (local, HDFS, Azure's with a hierarchical namespace); file by file on
    an object store, which has only keys (pyarrow's S3 and GCS filesystems refuse to
    move a "directory": it is a prefix of many keys). There the table appears a file at
    a time, and its ``_SUCCESS``, written after, is what says it is whole, as with
    Hadoop's own committers on S3."""
    from pyarrow import fs

    if filesystem.type_name not in _OBJECT_STORES:
        filesystem.move(source, target)
        return
    files = [
        info.path
        for info in filesystem.get_file_info(fs.FileSelector(source, recursive=True))
        if info.type == fs.FileType.File
    ]
    for path in files:  # a key needs no parent made first: a prefix is no object
        filesystem.move(path, f"{target}/{path[len(source) + 1 :]}")
    if _exists(filesystem, source):
        filesystem.delete_dir(source)


def _listing(filesystem: Any, path: str) -> list[Any]:
    from pyarrow import fs

    return list(filesystem.get_file_info(fs.FileSelector(path)))


def put(stage: str, name: str, run: str, rows: pa.Table) -> None:
    """``rows`` (run ``run``'s of table ``name``) written below the staging directory
    ``stage`` as ``name/run=RUN/part-00000.parquet``, without the run column; a run
    with no rows of the table writes nothing (as ``partitionBy`` writes no directory)."""
    if rows.num_rows == 0:
        return
    filesystem, staged = arrow_fs(stage)
    where = f"{staged}/{name}/{partition_dir(run)}"
    filesystem.create_dir(where, recursive=True)
    if PARTITION in rows.column_names:
        rows = rows.drop_columns([PARTITION])
    hidden = f"{where}/.{PART}.{uuid.uuid4().hex}"
    write_part(rows, hidden, filesystem)
    filesystem.move(hidden, f"{where}/{PART}")


__all__ = [
    "MODES",
    "PART",
    "PARTITION",
    "STAGING",
    "Stage",
    "TableExistsError",
    "partition_dir",
    "put",
    "write_part",
]
