"""The coupling facility on Redis, as ratios measured in one invocation (issue 5).

1. Shared-queue put+get pairs per second (1 KB, nonpersistent) from several concurrent
   members, each with its own connection, through the store primitives (one script
   round trip each), beside the server's own raw pipelined ZADD rate measured on the
   same server in the same run. Target: >= 20,000 pairs/s.
2. The cost of a put+get pair at depth 1,000,000 against depth 1,000. Target: <= 1.5.
3. An expiry scan of a 1,000,000-message queue with 1% expired, against deleting those
   10,000 messages directly (their keys known, pipelined deletes). Target: <= 2. The
   expired messages ask for no expiration report (most messages do not), so the scan
   hands back their MsgIds only; for context, a second 1% that each ask for one is
   scanned too (those come back whole, for their reports).
4. Server memory per stored 1 KB message, from the server's own ``used_memory``.
   Target: <= 1.5 KB.

    ./dev bench coupling             # full run (several minutes: 1,000,000 messages)
    ./dev bench coupling --quick     # a smoke run with small numbers
    python -m bench.cf --quick       # the same, without ./dev

The module is ``cf``, not ``coupling``: a file named like the package it measures
would shadow it when run as a script; ``./dev bench coupling`` is kept as its name.

The server is the embedded one unless ``QSG_REDIS_URL`` names another.
"""

from __future__ import annotations

import argparse
import select
import socket
import time
from collections.abc import Callable

import greenback
import hiredis
import trio
from valkey.connection import UnixDomainSocketConnection, parse_url

from coupling.cleanup import adelete_group
from coupling.server import open_server
from coupling.stats import reset_statistics, script_time
from coupling.store import RedisStore
from coupling.trio_transport import TrioTransport, _frame
from qsg import CMQC
from qsg.core.geometry import message_key
from qsg.core.message import Message
from qsg.core.store import SELECT_ANY, Ordering, Syncpoint
from qsg.core.structs import MD

BODY = b"x" * 1024
NEVER = 10**9
QSG = "BNCH"
STRUCTURE = "APP1"
_DESC = dict(MD().__dict__, Persistence=0, Priority=4, MsgId=b"B" * 24)


_REPORTING = dict(_DESC, Report=CMQC.MQRO_EXPIRATION, ReplyToQ=b"REPLIES")


def message(
    expires_at: float | None = None, body: bytes = BODY, reporting: bool = False
) -> Message:
    return Message(dict(_REPORTING if reporting else _DESC), body, 0.0, expires_at, 4)


async def in_members(url: str, members: int, work: Callable[[RedisStore, int], None]) -> None:
    """Run ``work(store, member number)`` in each member's task, each with its own link."""

    async def member(n: int) -> None:
        async with TrioTransport.open(url) as transport:
            await greenback.ensure_portal()
            store = RedisStore(transport, QSG)
            store.create_queue("Q", Ordering.PRIORITY, STRUCTURE)
            work(store, n)

    async with trio.open_nursery() as nursery:
        for n in range(members):
            nursery.start_soon(member, n)


async def setup(url: str, queues: list[str]) -> None:
    async with TrioTransport.open(url) as transport:
        # Only the benchmark's own keys: the server may be the user's (QSG_REDIS_URL).
        await adelete_group(transport, QSG)
        await greenback.ensure_portal()
        store = RedisStore(transport, QSG)
        store.define_structure(STRUCTURE, size_kb=64 * 1024 * 1024, cf_level=5)
        for queue in queues:
            store.create_queue(queue, Ordering.PRIORITY, STRUCTURE)


async def pairs_per_second(url: str, members: int, pairs: int) -> float:
    def work(store: RedisStore, n: int) -> None:
        for _ in range(pairs // members):
            store.put("Q", message(), None, NEVER)
            store.get("Q", SELECT_ANY, 0.0, None, Syncpoint.NO, None, False)

    start = time.perf_counter()
    await in_members(url, members, work)
    return (pairs // members * members) / (time.perf_counter() - start)


def raw_pipeline_seconds(url: str, frames: list[bytes]) -> float:
    """Seconds for the server to answer ``frames`` sent as one pipeline over a plain
    blocking socket (written in 1 MB pieces, replies counted with hiredis)."""
    options = parse_url(url)
    if options.get("connection_class") is UnixDomainSocketConnection:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(options["path"])
    else:
        sock = socket.create_connection(
            (options.get("host", "localhost"), options.get("port", 6379))
        )
    with sock:
        reader = hiredis.Reader()
        login = (
            [_frame(["AUTH", options.get("username") or "default", options["password"]])]
            if options.get("password")
            else []
        )
        pending = len(login) + len(frames)
        data = b"".join(login + frames)
        start = time.perf_counter()
        view, sent = memoryview(data), 0
        sock.setblocking(False)
        while pending:
            writing = [sock] if sent < len(data) else []
            readable, writable, _ = select.select([sock], writing, [])
            if writable:
                sent += sock.send(view[sent : sent + (1 << 20)])
            if readable:
                reader.feed(sock.recv(1 << 20))
                while reader.gets() is not False:
                    pending -= 1
        return time.perf_counter() - start


def raw_zadd_per_second(url: str, count: int) -> float:
    """The server's own pipelined ZADD rate, on the same server in the same run."""
    seconds = raw_pipeline_seconds(url, [_frame(["ZADD", "bench:raw", i, i]) for i in range(count)])
    raw_pipeline_seconds(url, [_frame(["DEL", "bench:raw"])])
    return count / seconds


async def fill(
    url: str, queue: str, count: int, expiring_every: int = 0, reporting: bool = False
) -> list[int]:
    """Put ``count`` messages with 16 concurrent members; every ``expiring_every``-th one
    expires at 5.0 and, with ``reporting``, the one halfway between two of those expires
    at 6.0 asking for an expiration report. Returns the keys of those expiring at 5.0."""
    keys: list[int] = []

    def work(store: RedisStore, n: int) -> None:
        store.create_queue(queue, Ordering.PRIORITY, STRUCTURE)
        for i in range(n, count, 16):
            expiring = expiring_every and i % expiring_every == 0
            reports = reporting and i % expiring_every == expiring_every // 2
            msg = message(6.0, reporting=True) if reports else message(5.0 if expiring else None)
            store.put(queue, msg, None, NEVER)
            if expiring:
                keys.append(message_key(msg.seq, msg.priority, by_priority=True))

    await in_members(url, 16, work)
    return keys


async def cost_at_depth(url: str, queue: str, n: int) -> float:
    """Seconds per put+get pair on ``queue`` (its depth stays where it is)."""
    seconds = 0.0

    def work(store: RedisStore, _: int) -> None:
        nonlocal seconds
        store.create_queue(queue, Ordering.PRIORITY, STRUCTURE)
        start = time.perf_counter()
        for _ in range(n):
            store.put(queue, message(), None, NEVER)
            store.get(queue, SELECT_ANY, 0.0, None, Syncpoint.NO, None, False)
        seconds = (time.perf_counter() - start) / n

    await in_members(url, 1, work)
    return seconds


async def scan_seconds(url: str, queue: str, now: float) -> tuple[float, int]:
    result: tuple[float, int] = (0.0, 0)

    def work(store: RedisStore, _: int) -> None:
        nonlocal result
        store.create_queue(queue, Ordering.PRIORITY, STRUCTURE)
        start = time.perf_counter()
        gone = store.scan(queue, now)
        result = (time.perf_counter() - start, len(gone))

    await in_members(url, 1, work)
    return result


def delete_directly_seconds(url: str, queue: str, keys: list[int]) -> float:
    """The reference: remove each message by its known key (its order, record,
    attributes and expiry entries), every command pipelined."""
    prefix = f"qsg:{{{QSG}}}:s:{STRUCTURE}:q:{queue}:"
    frames = [
        _frame([command, prefix + suffix, key])
        for key in keys
        for command, suffix in (("ZREM", "o"), ("HDEL", "m"), ("HDEL", "a"), ("ZREM", "x"))
    ]
    return raw_pipeline_seconds(url, frames)


async def memory_per_message(url: str, count: int) -> float:
    async with TrioTransport.open(url) as transport:
        before = _used(await transport.acommand("INFO", "memory"))
    await fill(url, "MEM", count)
    async with TrioTransport.open(url) as transport:
        after = _used(await transport.acommand("INFO", "memory"))
    return (after - before) / count


def _used(info: bytes) -> int:
    for line in info.decode().splitlines():
        if line.startswith("used_memory:"):
            return int(line.split(":")[1])
    raise RuntimeError("the server did not report used_memory")


async def run(args: argparse.Namespace, url: str) -> None:
    say = print
    await setup(url, ["Q", "SMALL", "BIG", "REF", "MEM"])
    say("qsg coupling-facility benchmark (1 KB bodies, nonpersistent, priority queue)")
    raw = raw_zadd_per_second(url, args.raw)
    counted = await reset_statistics(url)  # a managed server may refuse to reset them
    rate = await pairs_per_second(url, args.members, args.pairs)
    scripts = await script_time(url) if counted else None
    say(f"  server's raw pipelined ZADD/s       {raw:12,.0f}")
    say(f"  shared put+get pairs/s ({args.members} members) {rate:10,.0f}   (target >= 20,000)")
    say(f"  ratio pairs / raw ZADD                {rate / raw:8.3f}")
    if scripts is not None:
        calls, seconds = scripts
        per_pair = 2 * seconds / calls  # a put and a get: a script each
        say(
            f"  context: the server's own time per pair (its two scripts) {per_pair * 1e6:.0f}"
            f" us: one server core tops out at {1 / per_pair:,.0f} pairs/s"
        )
    await fill(url, "SMALL", 1_000)
    small = await cost_at_depth(url, "SMALL", args.samples)
    await fill(url, "BIG", args.depth, expiring_every=100, reporting=True)
    big = await cost_at_depth(url, "BIG", args.samples)
    say(f"  put+get at depth {1_000:>9,}         {small * 1e6:10.1f} us")
    say(f"  put+get at depth {args.depth:>9,}         {big * 1e6:10.1f} us")
    say(f"  ratio big / small depth               {big / small:8.2f}   (target <= 1.5)")
    scan, gone = await scan_seconds(url, "BIG", 5.5)
    reported, owed = await scan_seconds(url, "BIG", 6.5)
    ref_keys = await fill(url, "REF", gone, expiring_every=1)
    direct = delete_directly_seconds(url, "REF", ref_keys)
    say(f"  scan of {args.depth:,} with {gone:,} expired  {scan:10.3f} s")
    say(f"  deleting those {len(ref_keys):,} directly         {direct:10.3f} s")
    say(f"  ratio scan / direct                   {scan / direct:8.2f}   (target <= 2)")
    say(
        f"  context: a scan of {owed:,} that each ask for an expiration report {reported:.3f} s"
        f" ({reported / direct:.2f} x direct)"
    )
    per = await memory_per_message(url, args.memory)
    say(f"  server memory per 1 KB message        {per:8.0f} bytes (target <= 1,536)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small numbers, a smoke run")
    parser.add_argument("--members", type=int, default=8)
    parser.add_argument("--pairs", type=int, default=40_000)
    parser.add_argument("--raw", type=int, default=200_000)
    parser.add_argument("--depth", type=int, default=1_000_000)
    parser.add_argument("--samples", type=int, default=5_000)
    parser.add_argument("--memory", type=int, default=100_000)
    args = parser.parse_args()
    if args.quick:
        args.pairs, args.raw, args.depth, args.samples, args.memory = (
            4_000,
            20_000,
            20_000,
            1_000,
            5_000,
        )
    with open_server() as url:
        trio.run(run, args, url)


if __name__ == "__main__":
    main()
