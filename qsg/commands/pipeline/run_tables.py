"""One run's metrics tables, from its event log, in Arrow (no Spark, no I/O but the read).

Every metrics table is per run: no value of one run depends on another's events. So
the pipeline gives each run to one Spark task, and the task computes all of the run's
tables here, vectorised (Arrow's C++ kernels), in one read of the file and without a
shuffle. ``SCHEMAS`` fixes each table's columns and types (docs/pipeline.md lists them).

Definitions are the run summary's (``qsg.scenario.summary``): latency is from a
message's first MQPUT anywhere in the run (an application's put, or a channel agent's
delivery) to each MQGET that returned it, browses not counted; percentiles are exact
nearest-rank.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from actors.statistics import VERBS
from qsg.commands.pipeline.runs import RunLog
from qsg.commands.pipeline.where import arrow_fs
from qsg.core import geometry
from qsg.scenario.eventlog import COLUMNS, FIXED
from qsg.scenario.sizing import usage_arrays
from qsg.scenario.summary import RECORD_KINDS, rank

#: The latency CDF's points: the 1st to the 100th percentile.
CDF_POINTS = [p / 100 for p in range(1, 101)]
#: Faults after which a lease holder no longer scans (the start of a failover gap).
HOLDER_LOST = ("pause", "cf_unavailable", "kill")

_S, _D, _L, _B = pa.string(), pa.float64(), pa.int64(), pa.bool_()


def _schema(*columns: tuple[str, pa.DataType]) -> pa.Schema:
    return pa.schema([pa.field(name, kind) for name, kind in columns])


#: Every table's columns, in order, with their types.
SCHEMAS: dict[str, pa.Schema] = {
    "runs": _schema(
        ("run", _S),
        ("seed", _L),
        ("warmup", _D),
        ("events", _L),
        ("end", _D),
        ("seconds", _D),
        ("put", _L),
        ("got", _L),
        ("expired", _L),
    ),
    "throughput": _schema(
        ("run", _S),
        ("scope", _S),
        ("queue", _S),
        ("q_mgr", _S),
        ("t", _D),
        ("put", _L),
        ("got", _L),
        ("interval", _D),
    ),
    "latency": _schema(
        ("run", _S),
        ("scope", _S),
        ("queue", _S),
        ("q_mgr", _S),
        ("messages", _L),
        ("mean", _D),
        ("p50", _D),
        ("p90", _D),
        ("p99", _D),
        ("max", _D),
    ),
    "latency_cdf": _schema(("run", _S), ("scope", _S), ("queue", _S), ("p", _D), ("latency", _D)),
    "depth": _schema(
        ("run", _S),
        ("scope", _S),
        ("queue", _S),
        ("q_mgr", _S),
        ("time", _D),
        ("depth", _L),
        ("shared", _B),
    ),
    "expiry": _schema(
        ("run", _S),
        ("scope", _S),
        ("queue", _S),
        ("discarded", _L),
        ("by_get", _L),
        ("by_browse", _L),
        ("by_scan", _L),
        ("bytes", _L),
        ("overdue_mean", _D),
        ("overdue_max", _D),
        ("held_byte_seconds", _D),
    ),
    "scans": _schema(
        ("run", _S), ("q_mgr", _S), ("shared", _B), ("cause", _S), ("scans", _L), ("discarded", _L)
    ),
    "reports": _schema(
        ("run", _S), ("q_mgr", _S), ("queue", _S), ("feedback", _L), ("reports", _L)
    ),
    "channels": _schema(
        ("run", _S),
        ("channel", _S),
        ("t", _D),
        ("sender", _S),
        ("batches", _L),
        ("messages", _L),
        ("bytes", _L),
        ("delivered", _L),
        ("expired_in_transit", _L),
        ("interval", _D),
        ("busy_seconds", _D),
    ),
    "cf_usage": _schema(
        ("run", _S),
        ("qsg", _S),
        ("structure", _S),
        ("time", _D),
        ("entries", _L),
        ("size_kb", _L),
        ("used", _D),
        ("elements", _L),
        ("max_elements", _L),
        ("percent_full", _D),
    ),
    "qmgr_statistics": _schema(
        ("run", _S),
        ("q_mgr", _S),
        ("time", _D),
        ("interval", _D),
        ("cpus", _L),
        ("cpu_seconds", _D),
        ("cpu_busy", _D),
        *[(verb, _L) for verb in VERBS],
        ("cf_accesses", _L),
        ("smds_writes", _L),
        ("smds_reads", _L),
        ("calls_per_second", _D),
        ("cf_accesses_per_second", _D),
    ),
    "leases": _schema(
        ("run", _S), ("time", _D), ("role", _S), ("holder", _S), ("token", _L), ("previous", _S)
    ),
    "faults": _schema(
        ("run", _S), ("time", _D), ("action", _S), ("target", _S), ("q_mgr", _S), ("detail", _S)
    ),
    "failover_gaps": _schema(
        ("run", _S),
        ("role", _S),
        ("taken_at", _D),
        ("holder", _S),
        ("previous", _S),
        ("token", _L),
        ("lost_at", _D),
        ("gap", _D),
    ),
    "recoveries": _schema(
        ("run", _S),
        ("recovery", _S),
        ("time", _D),
        ("q_mgr", _S),
        ("failed", _S),
        ("units", _L),
        ("lost", _L),
        ("failed_at", _D),
        ("duration", _D),
    ),
}

#: The event log's columns some table reads (the others are never decoded).
READ = (
    "kind",
    "time",
    "q_mgr",
    "queue",
    "msg_id",
    "size",
    "browse",
    "expiry",
    "depth",
    "shared",
    "by",
    "cause",
    "discarded",
    "feedback",
    "channel",
    "messages",
    "role",
    "token",
    "previous",
    "action",
    "target",
    "detail",
    "failed",
    "units",
    "lost",
    "qsg",
    "structure",
    "interval",
    "cpus",
    "cpu_seconds",
    *VERBS,
    "cf_accesses",
    "smds_writes",
    "smds_reads",
    "busy",
)


#: Columns read as Parquet keeps them, dictionaries: a few names, not a million.
DICTIONARIES = [c for c in READ if COLUMNS[c] == pa.string()]


def read_events(run: RunLog) -> pa.Table:
    """The columns of ``run``'s event log that the tables use. A column with no value
    in the file (its statistics say so: most runs have no faults, say) is not decoded,
    and one the file lacks is null: both come back as nulls."""
    source: Any = run.path
    if run.content is not None:  # read by Spark: the bytes, not the file
        source = pa.BufferReader(run.content)
    elif not isinstance(source, Path):  # a URI: through its pyarrow filesystem
        filesystem, path = arrow_fs(source)
        source = filesystem.open_input_file(path)
    have = set(pq.read_schema(source).names)
    log = pq.ParquetFile(source, read_dictionary=[c for c in DICTIONARIES if c in have])
    schema, meta = log.schema_arrow, log.metadata
    empty = set(schema.names) - _valued(meta)
    read = [c for c in READ if c in schema.names and c not in empty]
    table = log.read(columns=read)
    n = table.num_rows
    zeros = pa.py_buffer(bytes(8 * (n + 1)))  # every null column's buffers, shared
    for name in READ:
        if name not in read:
            kind = schema.field(name).type if name in schema.names else COLUMNS[name]
            table = table.append_column(pa.field(name, kind), _nulls(n, kind, zeros))
    return table.select(list(READ))


def _nulls(n: int, kind: pa.DataType, zeros: pa.Buffer) -> pa.Array:
    """``n`` nulls of ``kind`` on ``zeros``, at least ``8 * (n + 1)`` zero bytes (for a
    number, bool, string, binary or dictionary of them): its validity bits say null,
    its offsets and values are zero. ``pa.nulls`` zeroes new buffers for each column."""
    if pa.types.is_dictionary(kind):
        indices = pa.Array.from_buffers(kind.index_type, n, [zeros, zeros], null_count=n)
        return pa.DictionaryArray.from_arrays(indices, pa.array([], kind.value_type))
    if pa.types.is_string(kind) or pa.types.is_binary(kind):
        return pa.Array.from_buffers(kind, n, [zeros, zeros, zeros], null_count=n)
    if pa.types.is_boolean(kind) or pa.types.is_integer(kind) or pa.types.is_floating(kind):
        return pa.Array.from_buffers(kind, n, [zeros, zeros], null_count=n)
    return pa.nulls(n, kind)  # wider than 8 bytes a value (a MsgId): its own buffers


def _valued(meta: pq.FileMetaData) -> set[str]:
    """The columns with a value in some row group (or no statistics to say otherwise)."""
    valued: set[str] = set()
    for g in range(meta.num_row_groups):
        group = meta.row_group(g)
        for i in range(group.num_columns):
            column = group.column(i)
            stats = column.statistics
            if stats is None or not stats.has_null_count or stats.null_count < group.num_rows:
                valued.add(column.path_in_schema)
    return valued


class RunEvents:
    """One run's events with each event's ``scope`` (the QSG for a shared queue at one
    of its members, else the queue manager), and their kinds, looked up once.

    A run with a warm-up (``[run] warmup``) keeps, as its summary does, only the events
    from its end on, but for the run's record (lease changes, faults, kills, restarts,
    the facility's failures): every table then leaves the warm-up out of its rows and
    its statistics, and a latency is one of a message put after it.
    """

    def __init__(self, run: RunLog, events: pa.Table, interval: float = 1.0) -> None:
        if interval <= 0:
            raise ValueError(f"the time bucket must be above 0 s, not {interval}")
        self.run, self.interval = run, interval
        if run.warmup_until is not None:
            after = pc.greater_equal(events["time"], _lit(float(run.warmup_until)))
            record = pc.is_in(events["kind"], pa.array(RECORD_KINDS, pa.string()))
            events = events.filter(pc.or_(after, record))
        # The kind as one dictionary: "is it a put?" compares the few codes, not a
        # million strings.
        kind = _dictionary(events["kind"])
        self.kind = kind
        self.codes = {k: i for i, k in enumerate(kind.dictionary.to_pylist())}
        q_mgr, queue = _dictionary(events["q_mgr"]), _dictionary(events["queue"])
        events = events.set_column(events.schema.get_field_index("kind"), "kind", kind)
        events = events.set_column(events.schema.get_field_index("q_mgr"), "q_mgr", q_mgr)
        events = events.set_column(events.schema.get_field_index("queue"), "queue", queue)
        self.events = events.append_column("scope", _scope(q_mgr, queue, run))

    def count(self, kind: str) -> int:
        """How many events are of this kind."""
        if kind not in self.codes:
            return 0
        found: int = pc.sum(self.is_kind(kind)).as_py() or 0
        return found

    def of(self, *kinds: str, columns: Sequence[str] | None = None) -> pa.Table:
        """The events of these kinds, in the log's order (only ``columns``, if given)."""
        events = self.events if columns is None else self.events.select(list(columns))
        if not any(k in self.codes for k in kinds):  # none in the log: no pass over it
            return events.slice(0, 0)
        return events.filter(self.is_kind(*kinds))

    def is_kind(self, *kinds: str, among: pa.Table | None = None) -> Any:
        """Whether each event (of ``among``, some of these events, if given) is of one
        of these kinds."""
        if among is None:
            indices: Any = self.kind.indices
        else:
            indices = pa.chunked_array([c.indices for c in among["kind"].chunks], pa.int32())
        # A comparison per kind asked for: cheaper than a hash lookup per event.
        found = pc.equal(indices, pa.scalar(-1, pa.int32()))
        for code in {self.codes[k] for k in kinds if k in self.codes}:
            found = pc.or_(found, pc.equal(indices, pa.scalar(code, pa.int32())))
        return found

    def bucket(self, time: pa.ChunkedArray) -> pa.ChunkedArray:
        """The start of the time bucket of each time."""
        return pc.multiply(pc.floor(pc.divide(time, self.interval)), self.interval)


def _dictionary(column: pa.ChunkedArray) -> pa.DictionaryArray:
    """``column`` as one dictionary array (one dictionary for every chunk)."""
    if not pa.types.is_dictionary(column.type):
        column = pc.dictionary_encode(column)
    return column.unify_dictionaries().combine_chunks()


def _scope(q_mgr: pa.DictionaryArray, queue: pa.DictionaryArray, run: RunLog) -> pa.Array:
    """Each event's scope, worked out on the dictionaries' codes: a table of the scope
    of every (queue manager, queue) pair, looked up once per event (no strings)."""
    names, queues = q_mgr.dictionary.to_pylist(), queue.dictionary.to_pylist()
    shared_at = {
        (m, q): qsg
        for qsg, shared in run.scopes.shared.items()
        for m, group in run.scopes.members.items()
        if group == qsg
        for q in shared
    }
    if not shared_at:  # no shared queue in this run: every scope is its queue manager
        return q_mgr
    out = list(dict.fromkeys([*names, *shared_at.values()]))
    code = {name: i for i, name in enumerate(out)}
    # Row m, column q: the scope of queue q at queue manager m (a null name is the last).
    lookup = [
        None if m is None else code[shared_at.get((m, q), m)]
        for m in [*names, None]
        for q in [*queues, None]
    ]
    m_codes, q_codes = q_mgr.indices, queue.indices
    if q_mgr.null_count:
        m_codes = pc.fill_null(m_codes, _lit(len(names), pa.int32()))
    if queue.null_count:
        q_codes = pc.fill_null(q_codes, _lit(len(queues), pa.int32()))
    pair = pc.add(pc.multiply(m_codes, pa.scalar(len(queues) + 1, pa.int32())), q_codes)
    indices = pc.take(pa.array(lookup, pa.int32()), pair)
    # Every code is one of ``out``'s: no need to check them all again.
    return pa.DictionaryArray.from_arrays(indices, pa.array(out, _S), safe=False)


def _finish(name: str, table: pa.Table, run: str) -> pa.Table:
    """``table`` with the run's name, as ``SCHEMAS[name]`` (its columns in order)."""
    schema = SCHEMAS[name]
    if "run" not in table.column_names:
        table = table.append_column("run", _repeat(run, _S, table.num_rows))
    return table.select(schema.names).cast(schema)


_KINDS: dict[type, pa.DataType] = {bool: _B, int: _L, float: _D, str: _S}


def _lit(value: bool | int | float | str, kind: pa.DataType | None = None) -> pa.Scalar:
    """A Python value as an Arrow scalar of its plain type (or ``kind``). Given the bare
    value, a compute function infers its type, and pyarrow tries to import dateutil on
    the way, every time: 150 us a call, 30 calls a run."""
    return pa.scalar(value, kind or _KINDS[type(value)])


def _repeat(value: Any, kind: pa.DataType, n: int) -> pa.Array:
    """``value`` ``n`` times (without a Python list of them)."""
    return pa.repeat(pa.scalar(value, kind), n)


def _rows(name: str, rows: Sequence[dict[str, Any]]) -> pa.Table:
    return pa.Table.from_pylist(list(rows), schema=SCHEMAS[name])


def _ones(mask: Any) -> pa.ChunkedArray | pa.Array:
    """1 where ``mask`` holds, else 0 (null counts as not)."""
    return pc.cast(pc.fill_null(mask, _lit(False)) if mask.null_count else mask, _L)


def _not_browse(table: pa.Table) -> Any:
    return pc.invert(pc.fill_null(table["browse"], _lit(False)))


def _group(
    table: pa.Table, keys: list[str], aggregations: list[tuple[Any, ...]], names: list[str]
) -> pa.Table:
    """``table`` grouped by ``keys``, aggregated, the aggregates called ``names``.

    Single-threaded: Spark runs the runs' tasks side by side already, and so the groups
    come out in the order they first appear. A double key (a time) is grouped by its
    bits, their high half folded into the low: Arrow hashes a double, or its bits as
    they are (a whole number of seconds leaves the low half zero), slowly."""
    doubles = [k for k in keys if table.schema.field(k).type == _D]
    for k in doubles:
        table = table.set_column(table.schema.get_field_index(k), k, _fold(table[k]))
    out = table.group_by(keys, use_threads=False).aggregate(aggregations)
    out = out.rename_columns([*keys, *names])
    for k in doubles:
        out = out.set_column(out.schema.get_field_index(k), k, _unfold(out[k]))
    return out


def _fold(column: pa.ChunkedArray) -> pa.ChunkedArray:
    """Doubles as 64-bit words, the high 32 bits also XORed into the low (undone by
    ``_unfold``: the high half is unchanged)."""
    bits = pa.chunked_array([c.view(pa.uint64()) for c in column.chunks], pa.uint64())
    return pc.bit_wise_xor(bits, pc.shift_right(bits, pa.scalar(32, pa.uint64())))


def _unfold(column: pa.ChunkedArray) -> pa.ChunkedArray:
    bits = pc.bit_wise_xor(column, pc.shift_right(column, pa.scalar(32, pa.uint64())))
    return pa.chunked_array([c.view(_D) for c in bits.chunks], _D)


@dataclass(frozen=True)
class Messages:
    """A run's messages: their MQPUTs (applications' puts and channel agents'
    deliveries), the MQGETs that returned one (not browses) and the expiry discards; for
    each get and discard, the index among ``puts`` of its message's first MQPUT anywhere
    (``got_from``, ``gone_from``: null if that put is not in the log)."""

    put: Any  # which events are MQPUTs
    got: Any  # which events are MQGETs that returned a message
    puts: pa.Table  # time, size, expiry
    gets: pa.Table  # scope, queue, q_mgr, time
    gone: pa.Table  # time, scope, queue, by
    got_from: pa.ChunkedArray
    gone_from: pa.ChunkedArray

    @classmethod
    def of(cls, ev: RunEvents) -> Messages:
        e = ev.events
        put, got = ev.is_kind("put", "delivered"), pc.and_(ev.is_kind("get"), _not_browse(e))
        puts = e.select(["time", "size", "expiry", "msg_id"]).filter(put)
        gets = e.select(["scope", "queue", "q_mgr", "time", "msg_id"]).filter(got)
        gone = e.select(["time", "scope", "queue", "by", "msg_id"]).filter(ev.is_kind("discard"))
        # One hash of the puts' msg_ids for the gets and the discards alike. The log is
        # in the order things happened: a msg_id's first index among the puts is its
        # first MQPUT anywhere (index_in answers the first of duplicates).
        probe = pa.chunked_array(
            [*gets["msg_id"].chunks, *gone["msg_id"].chunks], e.schema.field("msg_id").type
        )
        first = first_index(probe.combine_chunks(), puts["msg_id"].combine_chunks())
        n = gets.num_rows
        return cls(
            put,
            got,
            puts.drop_columns(["msg_id"]),
            gets.drop_columns(["msg_id"]),
            gone.drop_columns(["msg_id"]),
            first.slice(0, n),
            first.slice(n),
        )


#: MQ's MsgId: MQBYTE24, as the event log keeps it.
MSG_ID_LENGTH = FIXED["msg_id"]
_MIX = pa.scalar(0x9E3779B97F4A7C15, pa.uint64())  # odd: multiplying by it loses nothing


def first_index(probe: pa.Array, values: pa.Array) -> pa.Array:
    """For each of ``probe``'s byte strings, the index of its first occurrence among
    ``values`` (null if it is not there): ``pc.index_in`` with nulls skipped, exactly.

    A MsgId is 24 bytes: three 64-bit words, mixed into one integer key, hash several
    times faster than the bytes (Arrow hashes a binary value and compares it where it
    is stored, two cache misses a lookup). Keys can collide, so every match is checked
    against the bytes, and any mismatch falls back to looking the bytes up. A null
    matches nothing."""
    keys = _key(probe), _key(values)
    if keys[0] is not None and keys[1] is not None:
        first = pc.index_in(keys[0], value_set=keys[1])
        if pc.all(pc.equal(pc.take(values, first), probe)).as_py() is not False:
            return first
    # A MsgId missing from an event (null) is no message's: it matches nothing.
    return pc.index_in(probe, value_set=values, skip_nulls=True)


def _key(ids: pa.Array) -> pa.Array | None:
    """Each 24-byte value's three words mixed into one 64-bit integer (None unless
    every value is 24 bytes long, none null)."""
    n = len(ids)
    if ids.null_count:
        return None
    if ids.type == pa.binary(MSG_ID_LENGTH):
        fixed = ids
    elif pa.types.is_binary(ids.type):
        if n and pc.min_max(pc.binary_length(ids)).as_py() != {
            "min": MSG_ID_LENGTH,
            "max": MSG_ID_LENGTH,
        }:
            return None
        # Every value the same length: the data buffer is the values back to back.
        offsets = pa.Array.from_buffers(
            pa.int32(), n + 1, [None, ids.buffers()[1]], offset=ids.offset
        )
        start = offsets[0].as_py() if n else 0
        data = ids.buffers()[2].slice(start, n * MSG_ID_LENGTH) if n else pa.py_buffer(b"")
        fixed = pa.Array.from_buffers(pa.binary(MSG_ID_LENGTH), n, [None, data])
    else:
        return None
    # The values as 64-bit words, three a MsgId: word j of each is at 3i + j.
    width = MSG_ID_LENGTH // 8
    words = pa.Array.from_buffers(
        pa.uint64(), width * n, [None, fixed.buffers()[1]], offset=width * fixed.offset
    )
    starts = _strided(n, width)
    key = None
    for j in range(width):
        word = pc.take(words.slice(j), starts)
        key = word if key is None else pc.add(pc.multiply(key, _MIX), word)
    return key


#: 0, w, 2w, ... for the widest call so far (by stride w): kept, a task's runs being
#: of like sizes. Taking these is twice as quick as slicing each word out of the bytes.
_STRIDED: dict[int, pa.Array] = {}


def _strided(n: int, width: int) -> pa.Array:
    """0, ``width``, 2 ``width``, ... (``n`` of them)."""
    made = _STRIDED.get(width)
    if made is None or len(made) < n:
        size = max(n, 2 * len(made)) if made is not None else n
        kind = pa.int32() if width * size < 2**31 else pa.int64()
        step = pa.repeat(pa.scalar(width, kind), size)
        made = _STRIDED[width] = pc.subtract(pc.cumulative_sum(step), pa.scalar(width, kind))
    return made.slice(0, n)


def runs(ev: RunEvents, m: Messages) -> pa.Table:
    """One row: seed, warm-up left out, events, the last event's time, the seconds the
    figures cover (from the warm-up's end, else the run's start, 0, to the last event:
    the summary's ``totals.seconds``), puts, gets, discards."""
    e = ev.events
    end = pc.max(e["time"]).as_py()
    since = ev.run.warmup_until if ev.run.warmup_until is not None else 0.0
    return _rows(
        "runs",
        [
            {
                "run": ev.run.run,
                "seed": ev.run.seed,
                "warmup": ev.run.warmup,
                "events": e.num_rows,
                "end": end,
                "seconds": None if end is None else end - since,
                "put": ev.count("put"),
                "got": m.gets.num_rows,
                "expired": m.gone.num_rows,
            }
        ],
    )


def throughput(ev: RunEvents, m: Messages) -> pa.Table:
    """Messages put and got per time bucket, per queue and queue manager."""
    moving = pc.or_(m.put, m.got)
    moves = ev.events.select(["queue", "q_mgr", "time"]).filter(moving)
    got = pc.filter(m.got, moving)
    keys = ["scope", "queue", "q_mgr", "t"]
    # Counted per queue and queue manager: the scope follows from the two.
    table = _tally(moves, ["queue", "q_mgr"], ev.interval, got)
    if table is not None:
        scope = _scope(table["q_mgr"].combine_chunks(), table["queue"].combine_chunks(), ev.run)
        table = table.add_column(0, "scope", scope)
    else:  # a key too wide to pack into one integer: group by each column
        frame = pa.table(
            {
                "scope": ev.events["scope"].filter(moving),
                "queue": moves["queue"],
                "q_mgr": moves["q_mgr"],
                "t": ev.bucket(moves["time"]),
                "put": _ones(pc.invert(got)),
                "got": _ones(got),
            }
        )
        table = _group(frame, keys, [("put", "sum"), ("got", "sum")], ["put", "got"])
    table = table.append_column("interval", _repeat(ev.interval, _D, table.num_rows))
    return _finish("throughput", table, ev.run.run)


def _tally(table: pa.Table, names: list[str], interval: float, flag: Any) -> pa.Table | None:
    """Per ``names`` (dictionary columns) and time bucket ``t`` of ``table``'s time: the
    rows where ``flag`` holds (``got``) and where it does not (``put``), in the order of
    the names' dictionary codes, then of time. None if the key does not fit one 64-bit
    integer.

    A hash of one integer is several times cheaper than grouping by four columns, so
    the codes of the names, the bucket's number and the flag are packed into one and
    counted (``value_counts``), and unpacked on the few rows that come out."""
    time = table["time"]
    if table.num_rows == 0 or time.null_count:
        return None
    try:
        key, dictionaries, widths = _pack(table, names)
    except ValueError:
        return None
    bucket = pc.cast(pc.floor(pc.divide(time, _lit(interval))), _L, safe=False)
    low, high = (v.as_py() for v in pc.min_max(bucket).values())
    span = high - low + 1
    if math.prod(widths) * span * 2 >= 2**62:
        return None
    key = pc.add(
        pc.multiply(key, _lit(span)), bucket if low == 0 else pc.subtract(bucket, _lit(low))
    )
    counted = pc.value_counts(pc.add(pc.multiply(key, _lit(2)), _ones(flag)))
    packed, counts = counted.field("values"), counted.field("counts")
    flagged = pc.equal(pc.bit_wise_and(packed, _lit(1)), _lit(1))
    groups = (
        pa.table(
            {
                "key": pc.shift_right(packed, _lit(1)),
                "put": pc.if_else(flagged, _lit(0), counts),
                "got": pc.if_else(flagged, counts, _lit(0)),
            }
        )
        .group_by("key", use_threads=False)
        .aggregate([("put", "sum"), ("got", "sum")])
    )
    groups = groups.take(pc.sort_indices(groups["key"]))
    named, number = pc.divide(groups["key"], _lit(span)), groups["key"]
    number = pc.add(pc.subtract(number, pc.multiply(named, _lit(span))), _lit(low))
    return pa.table(
        {
            **dict(zip(names, _unpack(named, dictionaries, widths), strict=True)),
            "t": pc.multiply(pc.cast(number, _D), _lit(interval)),  # the bucket's start, in s
            "put": groups["put_sum"],
            "got": groups["got_sum"],
        }
    )


def _encoded(column: pa.ChunkedArray) -> pa.ChunkedArray:
    """``column`` dictionary-encoded (as it is, if it is already)."""
    return column if pa.types.is_dictionary(column.type) else pc.dictionary_encode(column)


def _codes(column: pa.ChunkedArray) -> tuple[pa.ChunkedArray, pa.Array]:
    """A dictionary column's codes (a null is one code more than the dictionary has),
    and its dictionary (with a null at that code). The codes are the dictionary's own
    (int32): arithmetic with an int64 makes int64s of them on the way."""
    if column.num_chunks > 1:
        column = column.unify_dictionaries()
    dictionary = (
        column.chunk(0).dictionary if column.num_chunks else pa.array([], column.type.value_type)
    )
    codes = pa.chunked_array([c.indices for c in column.chunks], column.type.index_type)
    if codes.null_count:
        codes = pc.fill_null(codes, _lit(len(dictionary), column.type.index_type))
    return codes, pa.concat_arrays([dictionary, pa.nulls(1, dictionary.type)])


def latencies(m: Messages) -> pa.Table:
    """Every MQGET that returned a message (not a browse) whose first MQPUT is in the
    run: where (scope, queue, q_mgr) and its latency (the time since that first put);
    in order of latency."""
    gets, put_at = m.gets, pc.take(m.puts["time"], m.got_from)
    table = gets.select(["scope", "queue", "q_mgr"]).append_column(
        "latency", pc.subtract(gets["time"], put_at)
    )
    if put_at.null_count:
        table = table.filter(pc.is_valid(put_at))
    return table.take(pc.sort_indices(table["latency"]))


def nearest_rank(ascending: pa.Array, p: float) -> float | None:
    """The nearest-rank ``p`` quantile of ``ascending`` values (None if none)."""
    n = len(ascending)
    return float(ascending[rank(p, n) - 1].as_py()) if n else None


def _quantiles(lat: pa.Table, keys: list[str], points: Sequence[float]) -> pa.Table:
    """Per group of ``keys`` (dictionary columns): ``messages``, ``mean`` and the
    nearest-rank quantile of ``latency`` at each point (columns ``q0``, ``q1``, ...),
    from ``latencies`` (ascending), the groups in the order of their names' codes."""
    key, dictionaries, widths = _pack(lat, keys)
    # A stable sort by group keeps each group's latencies ascending, and puts them
    # side by side: a rank is then an offset from the group's start.
    order = pc.sort_indices(key)
    values = pc.take(lat["latency"], order).combine_chunks()
    runs = pc.run_end_encode(pc.take(key, order).combine_chunks())
    ends = runs.run_ends.to_pylist()
    starts = [0, *ends[:-1]] if ends else []
    counts = [e - b for b, e in zip(starts, ends, strict=True)]
    # One take for every point of every group: point i's values are rows i*g..i*g+g-1.
    at = [b + rank(p, n) - 1 for p in points for b, n in zip(starts, counts, strict=True)]
    taken = pc.take(values, pa.array(at, _L))
    g = len(counts)
    columns: dict[str, Any] = dict(
        zip(keys, _unpack(runs.values, dictionaries, widths), strict=True)
    )
    columns["messages"] = pa.array(counts, _L)
    columns["mean"] = pa.array(
        [pc.mean(values.slice(b, n)).as_py() for b, n in zip(starts, counts, strict=True)], _D
    )
    for i in range(len(points)):
        columns[f"q{i}"] = taken.slice(i * g, g)
    return pa.table(columns)


def _pack(table: pa.Table, names: list[str]) -> tuple[Any, list[pa.Array], list[int]]:
    """The codes of ``names`` (dictionary columns) packed into one integer a row, with
    each one's dictionary (a null last) and width. ValueError if they need more than 62
    bits (a million names in each of three columns)."""
    codes, dictionaries = zip(*(_codes(table[n]) for n in names), strict=True)
    widths = [len(d) for d in dictionaries]
    if math.prod(widths) >= 2**62:
        raise ValueError(f"too many distinct {', '.join(names)} to pack: {widths}")
    key = None
    for column, width in zip(codes, widths, strict=True):
        key = column if key is None else pc.add(pc.multiply(key, _lit(width)), column)
    return key, list(dictionaries), widths


def _unpack(packed: Any, dictionaries: list[pa.Array], widths: list[int]) -> list[Any]:
    """Each name's values from ``_pack``'s integers (inverse of it), as dictionary
    arrays on its dictionary."""
    out = []
    rest = packed
    for dictionary, width in reversed(list(zip(dictionaries, widths, strict=True))):
        quotient = pc.divide(rest, _lit(width, rest.type))
        digit = pc.subtract(rest, pc.multiply(quotient, _lit(width, rest.type)))
        out.append(
            pa.chunked_array(
                [pa.DictionaryArray.from_arrays(c, dictionary) for c in _chunks(digit)]
            )
        )
        rest = quotient
    return out[::-1]


def _chunks(values: pa.Array | pa.ChunkedArray) -> list[pa.Array]:
    return values.chunks if isinstance(values, pa.ChunkedArray) else [values]


def _per_queue(lat: pa.Table) -> pa.Table:
    """``_quantiles`` per queue (scope and queue) at every point of the CDF (the
    latency table's p50, p90, p99 and max are among them)."""
    return _quantiles(lat, ["scope", "queue"], CDF_POINTS)


def latency(ev: RunEvents, lat: pa.Table, per_queue: pa.Table | None = None) -> pa.Table:
    """Latency per queue: count, mean, p50, p90, p99, max (seconds); a row per queue
    manager that got from it, and one with ``q_mgr`` ``*`` for all of them
    (``per_queue``: ``_per_queue(lat)``, if already made)."""
    points, names = [0.5, 0.9, 0.99, 1.0], ["p50", "p90", "p99", "max"]
    by_member = _quantiles(lat, ["scope", "queue", "q_mgr"], points)
    named = {f"q{i}": name for i, name in enumerate(names)}
    by_member = by_member.rename_columns([named.get(c, c) for c in by_member.column_names])
    overall = _per_queue(lat) if per_queue is None else per_queue
    overall = overall.select(
        ["scope", "queue", "messages", "mean", *[f"q{CDF_POINTS.index(p)}" for p in points]]
    )
    overall = overall.rename_columns(["scope", "queue", "messages", "mean", *names])
    overall = overall.append_column("q_mgr", _repeat("*", _S, overall.num_rows))
    return pa.concat_tables([_finish("latency", t, ev.run.run) for t in (by_member, overall)])


def latency_cdf(ev: RunEvents, lat: pa.Table, per_queue: pa.Table | None = None) -> pa.Table:
    """The latency distribution per queue: its 1st to 100th percentiles."""
    stats = (_per_queue(lat) if per_queue is None else per_queue).to_pylist()
    return _rows(
        "latency_cdf",
        [
            {
                "run": ev.run.run,
                "scope": g["scope"],
                "queue": g["queue"],
                "p": p,
                "latency": g[f"q{i}"],
            }
            for g in stats
            for i, p in enumerate(CDF_POINTS)
        ],
    )


def depth(ev: RunEvents) -> pa.Table:
    """The sampled CURDEPTH of every queue over time (a shared queue sampled once for
    its QSG, by whichever member sampled it)."""
    columns = ["scope", "queue", "q_mgr", "time", "depth", "shared"]
    return _finish("depth", ev.of("depth", columns=columns), ev.run.run)


def expiry(ev: RunEvents, m: Messages) -> pa.Table:
    """Expired messages discarded per queue: how many, by whom (a get, a browse or the
    scan), their bytes, and how long past its expiry each still held its place before
    it was discarded (``overdue``: from its first MQPUT's time plus its Expiry), and the
    storage that held (``held_byte_seconds``)."""
    gone, first = m.gone, m.gone_from
    put_at, size = pc.take(m.puts["time"], first), pc.take(m.puts["size"], first)
    expires = pc.add(put_at, pc.divide(pc.cast(pc.take(m.puts["expiry"], first), _D), _lit(10.0)))
    # A discard whose put is not in the log counts, with no bytes and no overdue.
    overdue = pc.max_element_wise(pc.subtract(gone["time"], expires), _lit(0.0))
    by = gone["by"]
    frame = pa.table(
        {
            "scope": gone["scope"],
            "queue": gone["queue"],
            "size": size,
            "overdue": overdue,
            "get": _ones(pc.equal(by, _lit("get"))),
            "browse": _ones(pc.equal(by, _lit("browse"))),
            "scan": _ones(pc.equal(by, _lit("scan"))),
            "held": pc.multiply(overdue, pc.cast(size, _D)),
        }
    )
    table = _group(
        frame,
        ["scope", "queue"],
        [
            ("overdue", "count", pc.CountOptions("all")),
            ("get", "sum"),
            ("browse", "sum"),
            ("scan", "sum"),
            ("size", "sum"),
            ("overdue", "mean"),
            ("overdue", "max"),
            ("held", "sum"),
        ],
        [
            "discarded",
            "by_get",
            "by_browse",
            "by_scan",
            "bytes",
            "overdue_mean",
            "overdue_max",
            "held_byte_seconds",
        ],
    )
    return _finish("expiry", table, ev.run.run)


def scans(ev: RunEvents) -> pa.Table:
    """Expiry scans per queue manager, kind (shared: of the QSG's shared queues) and
    cause: how many, and the messages they discarded."""
    keys = ["q_mgr", "shared", "cause"]
    table = _group(
        ev.of("scan", columns=[*keys, "discarded"]),
        keys,
        [([], "count_all"), ("discarded", "sum")],
        ["scans", "discarded"],
    )
    return _finish("scans", table, ev.run.run)


def reports(ev: RunEvents) -> pa.Table:
    """Report messages put, per queue manager that put them, the queue they went to and
    their Feedback (MQFB_EXPIRATION: 258)."""
    keys = ["q_mgr", "queue", "feedback"]
    table = _group(ev.of("report", columns=keys), keys, [([], "count_all")], ["reports"])
    return _finish("reports", table, ev.run.run)


def channels(ev: RunEvents) -> pa.Table:
    """Channel throughput per channel and time bucket: batches, messages and bytes the
    sender committed, messages the receiver delivered, those that expired on the way,
    and the seconds the sender spent on the batches it committed in the bucket."""
    moved = ev.of(
        "batch",
        "delivered",
        "expired-in-transit",
        columns=["kind", "channel", "time", "q_mgr", "messages", "size", "busy"],
    )
    batch = ev.is_kind("batch", among=moved)
    frame = pa.table(
        {
            "channel": moved["channel"],
            "t": ev.bucket(moved["time"]),
            "sender": pc.if_else(batch, moved["q_mgr"], pa.scalar(None, _S)),
            "batches": _ones(batch),
            "messages": pc.if_else(batch, pc.fill_null(moved["messages"], _lit(0)), _lit(0)),
            "bytes": pc.if_else(batch, pc.fill_null(moved["size"], _lit(0)), _lit(0)),
            "delivered": _ones(ev.is_kind("delivered", among=moved)),
            "expired_in_transit": _ones(ev.is_kind("expired-in-transit", among=moved)),
            "busy_seconds": pc.if_else(batch, pc.fill_null(moved["busy"], _lit(0.0)), _lit(0.0)),
        }
    )
    sums = ["batches", "messages", "bytes", "delivered", "expired_in_transit", "busy_seconds"]
    table = _group(
        frame, ["channel", "t"], [("sender", "max"), *[(s, "sum") for s in sums]], ["sender", *sums]
    )
    table = table.append_column("interval", _repeat(ev.interval, _D, table.num_rows))
    return _finish("channels", table, ev.run.run)


def cf_usage(ev: RunEvents) -> pa.Table:
    """CF structure usage over time: at each depth sample of a QSG, the entries (the
    messages, expired-undiscarded included) in each structure, against its SIZE (SIZE KB
    hold SIZE entries: ``used`` is the fraction of them), and its elements and percent
    full as the run's summary gives them (``qsg.scenario.sizing.usage``: the 63 KB rule
    and the structure's OFFLDnTH/OFFLDnSZ rules, per put)."""
    rows = {
        (qsg, queue): (name, int(s["size_kb"]))
        for qsg, structures in ev.run.scopes.structures.items()
        for name, s in structures.items()
        for queue in s.get("queues", ())
    }
    sampled = ev.of("depth", columns=["scope", "queue", "time", "depth", "shared"])
    sampled = sampled.filter(pc.fill_null(sampled["shared"], _lit(False)))
    names, which, size, pair = _structure_of(sampled, rows)
    keys = ["scope", "structure", "time", "size_kb"]
    joined = pa.table(
        {
            "scope": sampled["scope"],
            "time": sampled["time"],
            "queue": sampled["queue"],
            "depth": sampled["depth"],
            "structure": pa.DictionaryArray.from_arrays(pc.take(which, pair), pa.array(names, _S)),
            "size_kb": pc.take(size, pair),
        }
    )
    joined = joined.filter(pc.is_valid(joined["size_kb"]))
    # A queue sampled twice at one instant (the periodic sample and the end's) counts
    # once, its last depth, as in the summary.
    joined = _group(joined, [*keys, "queue"], [("depth", "last")], ["depth"])
    table = _group(joined, keys, [("depth", "sum")], ["entries"]).rename_columns(
        ["qsg", "structure", "time", "size_kb", "entries"]
    )
    puts = _puts_by_structure(ev, rows)
    # One structure's samples at a time, in time order, as the summary sizes them
    # (``sizing.usage_arrays``: arrays, no Python step per row while no rule fires).
    elements = np.zeros(table.num_rows, np.int64)
    full = np.zeros(table.num_rows, np.float64)
    qsg_codes, qsg_names = _codes(_encoded(table["qsg"]))
    struct_codes, struct_names = _codes(_encoded(table["structure"]))
    qsg_of, struct_of = qsg_codes.to_numpy(), struct_codes.to_numpy()
    times, counts = table["time"].to_numpy(), table["entries"].to_numpy()
    sizes = table["size_kb"].to_numpy()
    for q, qsg in enumerate(qsg_names.to_pylist()):
        for t, name in enumerate(struct_names.to_pylist()):
            rows_here = np.flatnonzero((qsg_of == q) & (struct_of == t))
            if not rows_here.size:
                continue
            rows_here = rows_here[np.argsort(times[rows_here], kind="stable")]
            put_times, put_sizes = puts.get(
                (qsg, name), (np.zeros(0, np.float64), np.zeros(0, np.int64))
            )
            rules = ev.run.scopes.structures[qsg][name].get("rules", ())
            elements[rows_here], full[rows_here] = usage_arrays(
                times[rows_here],
                counts[rows_here],
                put_times,
                put_sizes,
                int(sizes[rows_here[0]]),
                rules,
            )
    # What SIZE holds (qsg.core.geometry.max_entries and max_elements, on the columns).
    most = pc.multiply(table["size_kb"], _lit(geometry.ENTRIES_PER_KB))
    room = pc.multiply(table["size_kb"], _lit(geometry.ELEMENTS_PER_KB))
    table = (
        table.append_column("used", pc.divide(pc.cast(table["entries"], _D), pc.cast(most, _D)))
        .append_column("elements", pa.array(elements, _L))
        .append_column("max_elements", room)
        .append_column("percent_full", pa.array(full, _D))
    )
    return _finish("cf_usage", table, ev.run.run)


def _structure_of(
    table: pa.Table, rows: dict[tuple[str, str], tuple[str, int]]
) -> tuple[list[str], pa.Array, pa.Array, pa.ChunkedArray]:
    """The structures' names, and each (scope, queue) code pair's structure (an index
    into the names) and SIZE, with each row's pair: looked up on the dictionaries' codes,
    a handful of pairs, not a Python step per row."""
    (scope, scopes), (queue, queues) = _codes(table["scope"]), _codes(table["queue"])
    pairs = [rows.get((s, q)) for s in scopes.to_pylist() for q in queues.to_pylist()]
    names = sorted({p[0] for p in pairs if p is not None})
    which = pa.array([None if p is None else names.index(p[0]) for p in pairs], pa.int32())
    size = pa.array([None if p is None else p[1] for p in pairs], _L)
    pair = pc.add(pc.multiply(scope, _lit(len(queues))), queue).combine_chunks()
    return names, which, size, pair


def _puts_by_structure(
    ev: RunEvents, rows: dict[tuple[str, str], tuple[str, int]]
) -> dict[tuple[str, str], tuple[np.ndarray, np.ndarray]]:
    """The times and body sizes of every MQPUT to each structure's queues, in time
    order (the log's order at a tie), by (QSG, structure): what ``sizing.usage`` sizes
    them from. In numpy on the dictionaries' codes: a put is a (scope, queue) code pair,
    a pair's structure is looked up once, and the log is already in time order (sorted
    only if it is not): no hashing of strings per put, no Python step per put."""
    puts = ev.of("put", columns=["scope", "queue", "time", "size"])
    if not rows or not puts.num_rows:
        return {}
    names, which, _, pair = _structure_of(puts, rows)
    scopes = _codes(puts["scope"])[1].to_pylist()
    queues = len(_codes(puts["queue"])[1])
    pairs = pair.to_numpy()
    structure = pc.fill_null(which, _lit(-1, pa.int32())).to_numpy()[pairs]
    times = pc.cast(puts["time"], _D).to_numpy()
    sizes = pc.cast(pc.fill_null(puts["size"], _lit(0)), _L).to_numpy()
    if len(times) > 1 and not bool(np.all(times[1:] >= times[:-1])):
        order = np.argsort(times, kind="stable")
        pairs, structure, times, sizes = pairs[order], structure[order], times[order], sizes[order]
    group = (pairs // queues) * len(names) + structure  # (scope, structure) as one code
    out: dict[tuple[str, str], tuple[np.ndarray, np.ndarray]] = {}
    for code in np.flatnonzero(np.bincount(group[structure >= 0])).tolist():
        mine = group == code
        scope, index = divmod(code, len(names))
        out[(scopes[scope], names[index])] = (times[mine], sizes[mine])
    return out


def qmgr_statistics(ev: RunEvents) -> pa.Table:
    """Each queue manager's message manager statistics at each interval (SMF 115's
    QMST* counts by verb), its processor busy fraction over the interval (processor
    seconds charged / (interval x CPUs)) and its calls and CF accesses a second."""
    columns = [
        "q_mgr",
        "time",
        "interval",
        "cpus",
        "cpu_seconds",
        *VERBS,
        "cf_accesses",
        "smds_writes",
        "smds_reads",
    ]
    table = ev.of("qmgr-statistics", columns=columns)
    seconds = table["interval"]
    capacity = pc.multiply(seconds, pc.cast(table["cpus"], _D))
    calls = table[VERBS[0]]
    for verb in VERBS[1:]:
        calls = pc.add(calls, table[verb])
    # An interval of no length (the end's sample at the instant of the last) has no rate.
    empty = pc.less_equal(seconds, _lit(0.0))
    none = pa.scalar(None, _D)
    table = (
        table.append_column(
            "cpu_busy", pc.if_else(empty, none, pc.divide(table["cpu_seconds"], capacity))
        )
        .append_column(
            "calls_per_second", pc.if_else(empty, none, pc.divide(pc.cast(calls, _D), seconds))
        )
        .append_column(
            "cf_accesses_per_second",
            pc.if_else(empty, none, pc.divide(pc.cast(table["cf_accesses"], _D), seconds)),
        )
    )
    return _finish("qmgr_statistics", table, ev.run.run)


def leases(ev: RunEvents) -> pa.Table:
    """Every lease change: when, the role, the new holder, its fencing token, the
    previous holder."""
    table = ev.of("lease")
    return _finish(
        "leases",
        table.rename_columns(["holder" if c == "q_mgr" else c for c in table.column_names]),
        ev.run.run,
    )


def faults(ev: RunEvents) -> pa.Table:
    """Every fault injected or lifted: when, the action, its target, and why the world
    refused it (``detail``, empty if it did not)."""
    return _finish("faults", ev.of("fault"), ev.run.run)


def _failures(ev: RunEvents) -> dict[str, list[float]]:
    """When each queue manager stopped being able to work: killed, paused, or cut off
    from the coupling facility."""
    lost: dict[str, list[float]] = defaultdict(list)
    for e in (
        ev.of("kill", "fault").select(["kind", "q_mgr", "time", "action", "target"]).to_pylist()
    ):
        if e["kind"] == "kill":
            lost[e["q_mgr"]].append(e["time"])
        elif e["action"] in HOLDER_LOST:
            lost[e["target"] or e["q_mgr"]].append(e["time"])
    return lost


def _latest(times: Iterable[float], after: float, until: float) -> float | None:
    within = [t for t in times if after <= t <= until]
    return max(within) if within else None


def failover_gaps(ev: RunEvents) -> pa.Table:
    """Each takeover of a lease from another holder, and the failover gap: the time
    from the previous holder's failure (kill, pause, or loss of the coupling facility,
    after it took the lease) to the takeover, with no one holding the duty. A takeover
    with no failure before it (the holder stopped cleanly) has no gap (null)."""
    changes = ev.of("lease").select(["time", "role", "q_mgr", "token", "previous"]).to_pylist()
    lost = _failures(ev)
    acquired: dict[str, float] = {}
    rows = []
    for c in sorted(changes, key=lambda c: (c["role"], c["time"], c["token"])):
        since = acquired.get(c["role"])
        acquired[c["role"]] = c["time"]
        previous = c["previous"]
        if not previous or previous == c["q_mgr"]:
            continue
        lost_at = _latest(lost.get(previous, ()), since or 0.0, c["time"])
        rows.append(
            {
                "run": ev.run.run,
                "role": c["role"],
                "taken_at": c["time"],
                "holder": c["q_mgr"],
                "token": c["token"],
                "previous": previous,
                "lost_at": lost_at,
                "gap": None if lost_at is None else c["time"] - lost_at,
            }
        )
    return _rows("failover_gaps", rows)


def recoveries(ev: RunEvents) -> pa.Table:
    """Recoveries and how long after the failure each came: ``peer`` rows are a member
    backing out a failed member's units of work (``failed``, from its kill); ``cf`` rows
    are a CF structure recovered after the facility failed (from the ``cf_fail``)."""
    kills: dict[str, list[float]] = defaultdict(list)
    cf_fails: list[float] = []
    rows = []
    for e in ev.of("kill", "fault", "peer-recovery", "cf-recovery").to_pylist():
        if e["kind"] == "kill":
            kills[e["q_mgr"]].append(e["time"])
        elif e["kind"] == "fault":
            if e["action"] == "cf_fail":
                cf_fails.append(e["time"])
        elif e["kind"] == "peer-recovery":
            rows.append(
                {
                    "recovery": "peer",
                    "time": e["time"],
                    "q_mgr": e["q_mgr"],
                    "failed": e["failed"],
                    "units": e["units"],
                    "lost": None,
                }
            )
        else:
            failed = "/".join(x for x in (e["qsg"], e["structure"]) if x is not None)
            rows.append(
                {
                    "recovery": "cf",
                    "time": e["time"],
                    "q_mgr": e["q_mgr"],
                    "failed": failed,
                    "units": e["units"],
                    "lost": e["lost"],
                }
            )
    for r in rows:
        before = kills.get(r["failed"], []) if r["recovery"] == "peer" else cf_fails
        r["run"] = ev.run.run
        r["failed_at"] = _latest(before, -math.inf, r["time"])
        r["duration"] = None if r["failed_at"] is None else r["time"] - r["failed_at"]
    return _rows("recoveries", rows)


def tables_of(ev: RunEvents) -> dict[str, pa.Table]:
    """Every table of one run, by name (``SCHEMAS``' order)."""
    m = Messages.of(ev)
    lat = latencies(m)
    per_queue = _per_queue(lat)
    made = {
        "runs": runs(ev, m),
        "throughput": throughput(ev, m),
        "latency": latency(ev, lat, per_queue),
        "latency_cdf": latency_cdf(ev, lat, per_queue),
        "depth": depth(ev),
        "expiry": expiry(ev, m),
        "scans": scans(ev),
        "reports": reports(ev),
        "channels": channels(ev),
        "cf_usage": cf_usage(ev),
        "qmgr_statistics": qmgr_statistics(ev),
        "leases": leases(ev),
        "faults": faults(ev),
        "failover_gaps": failover_gaps(ev),
        "recoveries": recoveries(ev),
    }
    return {name: made[name] for name in SCHEMAS}


def gets_of(ev: RunEvents) -> pa.Table:
    """Every MQGET that returned a message (not a browse), in the log's order: where
    (scope, queue, q_mgr) and its latency, null for a message whose first MQPUT is not
    counted (put during the warm-up): a get that counts in the throughput, not in the
    latencies."""
    m = Messages.of(ev)
    put_at = pc.take(m.puts["time"], m.got_from)
    return m.gets.select(["scope", "queue", "q_mgr"]).append_column(
        "latency", pc.subtract(m.gets["time"], put_at)
    )


def run_tables(run: RunLog, interval: float = 1.0) -> dict[str, pa.Table]:
    """Every table of the run whose log is at ``run.path`` (one Spark task's work)."""
    return tables_of(RunEvents(run, read_events(run), interval))


__all__ = [
    "CDF_POINTS",
    "HOLDER_LOST",
    "READ",
    "SCHEMAS",
    "Messages",
    "RunEvents",
    "gets_of",
    "latencies",
    "nearest_rank",
    "read_events",
    "run_tables",
    "tables_of",
]
