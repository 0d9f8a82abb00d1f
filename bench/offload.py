"""What the offload rules of a CFLEVEL(5) structure cost a put+get pair (issue 32).

Each store (the Redis coupling facility's, on the embedded server, and the in-process
one) runs put+get pairs of 1 KB nonpersistent messages on three structures, in
interleaved repetitions, and prints the medians and their ratios:

- ``none``: the offload rules switched off (every OFFLDnSZ 64K), as before issue 32;
- ``rules``: IBM's default rules, the structure nearly empty (below 70%): the common
  path, which reads the rules with the usage and compares one number. Target: <= 1.05
  of ``none``;
- ``offloaded``: IBM's default rules, the structure 90% full (so every message is
  offloaded by OFFLD3SZ(0K)): the guarded branch that cuts the data out of the record
  and keeps it apart. For information.

On a shared machine the wall-clock medians move by more than the difference; the
server's instructions do not: ``--instructions`` runs the Redis part under valgrind's
callgrind (as ``bench/cf_instructions.py`` does) and prints the server's instructions
per pair on each structure instead.

    ./dev bench offload                 # 7 repetitions of 2,000 pairs a structure
    ./dev bench offload --pairs 500 --repetitions 3
    ./dev bench offload --instructions  # 1,000 pairs a structure under callgrind
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from bench.cf import message
from bench.cf_instructions import _inclusive, server_binary
from coupling.cleanup import delete_group
from coupling.server import EmbeddedServer, configured_url
from coupling.store import RedisStore
from coupling.transport import BlockingTransport
from qsg.core.memstore import MemoryStore
from qsg.core.objects import CFStructure
from qsg.core.store import SELECT_ANY, MessageStore, Ordering, Syncpoint

SIZE_KB = 10_000  # 10,000 entries: 9,000 fill messages bring it to 90%
RULES = CFStructure("R", size_kb=SIZE_KB).offload_rules
NONE = CFStructure("N", size_kb=SIZE_KB, offload_size1=64, offload_size3=64).offload_rules


def _prepare(store: MessageStore, name: str, rules: tuple[tuple[int, int], ...], fill: int) -> str:
    store.define_structure(name, size_kb=SIZE_KB, cf_level=5, offload=rules)
    store.create_queue(f"{name}.FILL", Ordering.FIFO, name)
    store.create_queue(f"{name}.Q", Ordering.PRIORITY, name)
    empty = message(body=b"")
    for _ in range(fill):
        store.put(f"{name}.FILL", empty, None, 10**9)
    return f"{name}.Q"


def _pairs(store: MessageStore, queue: str, pairs: int) -> float:
    """Seconds for ``pairs`` put+get pairs on ``queue``."""
    msg = message()
    began = time.perf_counter()
    for _ in range(pairs):
        store.put(queue, msg, None, 10**9)
        store.get(queue, SELECT_ANY, 0.0, None, Syncpoint.NO, None, False)
    return time.perf_counter() - began


def _measure(store: MessageStore, pairs: int, repetitions: int) -> dict[str, float]:
    queues = {
        "none": _prepare(store, "N", NONE, 0),
        "rules": _prepare(store, "R", RULES, 0),
        "offloaded": _prepare(store, "O", RULES, SIZE_KB * 9 // 10),
    }
    writes = store.smds_writes
    _pairs(store, queues["offloaded"], 10)
    assert store.smds_writes - writes == 10, "the 90% full structure should offload"
    times: dict[str, list[float]] = {name: [] for name in queues}
    for _ in range(repetitions):  # interleaved: the machine's load falls on all alike
        for name, queue in queues.items():
            times[name].append(_pairs(store, queue, pairs))
    return {name: statistics.median(t) / pairs * 1e6 for name, t in times.items()}


def _report(kind: str, us: dict[str, float]) -> None:
    print(
        f"{kind}: none {us['none']:.1f} us a pair, rules {us['rules']:.1f} us "
        f"(x{us['rules'] / us['none']:.3f}, target <= 1.05), offloaded "
        f"{us['offloaded']:.1f} us (x{us['offloaded'] / us['none']:.3f})"
    )


def instructions(pairs: int) -> dict[str, float]:
    """The Redis server's instructions per put+get pair on each structure, under
    callgrind (its counters zeroed before and dumped after each structure's pairs)."""
    totals: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="qsg-offload-") as data:
        sock, out = Path(data) / "s.sock", Path(data) / "callgrind.out"
        command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"]
        command += [str(server_binary()), "--port", "0", "--unixsocket", str(sock)]
        server = subprocess.Popen(
            [*command, "--save", "", "--dir", data],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            for _ in range(600):
                if sock.exists():
                    break
                time.sleep(0.1)
            transport = BlockingTransport(f"unix://{sock}?db=0")
            store = RedisStore(transport, "OFLD")
            for name, rules, fill in (
                ("none", NONE, 0),
                ("rules", RULES, 0),
                ("offloaded", RULES, SIZE_KB * 9 // 10),
            ):
                queue = _prepare(store, name.upper(), rules, fill)
                _pairs(store, queue, 100)  # warm: scripts loaded
                control = ["callgrind_control", "-z", str(server.pid)]
                subprocess.run(control, capture_output=True, check=False)
                _pairs(store, queue, pairs)
                control[1] = "-d"
                subprocess.run(control, capture_output=True, check=False)
                dumps = sorted(out.parent.glob(out.name + ".*"), key=lambda p: int(p.suffix[1:]))
                totals[name] = _inclusive(dumps[-1]).get("total", 0) / pairs
            transport.close()
        finally:
            server.terminate()
            server.wait()
    return totals


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=2000)
    parser.add_argument("--repetitions", type=int, default=7)
    parser.add_argument("--instructions", action="store_true", help="Redis under callgrind")
    args = parser.parse_args(argv)
    if args.instructions:
        got = instructions(min(args.pairs, 1000))
        print(
            f"redis server instructions a pair: none {got['none']:,.0f}, rules "
            f"{got['rules']:,.0f} (x{got['rules'] / got['none']:.3f}, target <= 1.05), "
            f"offloaded {got['offloaded']:,.0f} (x{got['offloaded'] / got['none']:.3f})"
        )
        return
    _report("in process", _measure(MemoryStore(), args.pairs, args.repetitions))
    url = configured_url()
    server = None
    if url is None:
        server = EmbeddedServer()
        server.start()
        url = server.url
    transport = BlockingTransport(url)
    try:
        store = RedisStore(transport, "OFLD")
        _report("redis", _measure(store, args.pairs, args.repetitions))
    finally:
        delete_group(transport, "OFLD")
        transport.close()
        if server is not None:
            server.stop()


if __name__ == "__main__":
    main()
