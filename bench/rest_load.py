"""``qsg serve`` under load: concurrent REST puts and gets on 127.0.0.1, nothing lost
(issue 49), against the same puts and gets through the async MQI in process.

``clients`` threads each put ``messages`` messages of their own (POST, one HTTP
connection each, kept alive), then all of them get (DELETE) until the queue answers 204;
every message put must be got exactly once. The figures: requests per second and each
verb's p50 and p99 latency (wall time, the client's view: HTTP, the server, the world).
The baseline is the same work through the world's async MQI (``Connection.put1`` and
``Queue.get``) from as many trio tasks, in one process on the wall clock: what the
HTTP layer costs on top of the MQI.

    ./dev bench rest_load                            # 8 clients x 250 messages
    ./dev bench rest_load --clients 4 --messages 100
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import trio

import qsg
from qsg import CMQC, GMO, MD, PMO
from qsg.core.errors import MQMIError

ROOT = Path(__file__).resolve().parents[1]
QUEUE = "DEV.LOAD"
SCENARIO = f"""
description = "qsg serve under load"
[run]
duration = 86400
seed = 49
in_process = true

[qsg.QSG1]
members = ["QM1", "QM2"]
mqsc = "DEFINE QLOCAL({QUEUE}) QSGDISP(SHARED) CFSTRUCT(APP1) MAXDEPTH(999999)"

[qsg.QSG1.structures.APP1]
size_kb = 262144

[qmgr.QM1]
[qmgr.QM2]
"""
_URL = re.compile(r" on (https?://\S+?)[ ,]")


@dataclass
class Figures:
    """What a load did: seconds per request of each verb, the wall time, and what was
    put and got (each message's body)."""

    puts: list[float] = field(default_factory=list)
    gets: list[float] = field(default_factory=list)
    wall: float = 0.0
    put_bodies: list[str] = field(default_factory=list)
    got_bodies: list[str] = field(default_factory=list)

    @property
    def lost(self) -> set[str]:
        return set(self.put_bodies) - set(self.got_bodies)

    @property
    def duplicated(self) -> list[str]:
        return [body for body, n in Counter(self.got_bodies).items() if n > 1]

    def rate(self) -> float:
        return (len(self.puts) + len(self.gets)) / self.wall

    def line(self, name: str) -> str:
        def ms(values: list[float], q: float) -> str:
            return f"{1000 * _quantile(values, q):.1f}"

        return (
            f"{name:<10} {self.rate():8.0f} req/s   put p50 {ms(self.puts, 0.5)} ms "
            f"p99 {ms(self.puts, 0.99)} ms   get p50 {ms(self.gets, 0.5)} ms "
            f"p99 {ms(self.gets, 0.99)} ms   lost {len(self.lost)} duplicated "
            f"{len(self.duplicated)}"
        )


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


@contextmanager
def serving(scenario: Path) -> Iterator[str]:
    """``qsg serve SCENARIO --port 0``: its base URL until the block ends."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    log = scenario.with_suffix(".log")
    command = [sys.executable, "-m", "qsg.commands.cli", "serve", str(scenario), "--port", "0"]
    with log.open("w") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
    try:
        deadline = time.monotonic() + 120
        while not (found := _URL.search(log.read_text())):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"qsg serve did not start:\n{log.read_text()}")
            time.sleep(0.1)
        yield found.group(1)
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(60)


def rest_load(url: str, clients: int, messages: int, queue: str = QUEUE) -> Figures:
    """``clients`` threads put ``messages`` each through QM1, then get them all
    through QM2 (see the module's docstring)."""
    figures = Figures()
    lock = threading.Lock()
    put_url = f"{url}/ibmmq/rest/v2/messaging/qmgr/QM1/queue/{queue}/message"
    get_url = f"{url}/ibmmq/rest/v2/messaging/qmgr/QM2/queue/{queue}/message"
    headers = {"ibm-mq-rest-csrf-token": "", "Content-Type": "text/plain;charset=utf-8"}
    barrier = threading.Barrier(clients)

    def client(number: int) -> None:
        # TCP_NODELAY, as a client that cares for latency sets it: httpx writes a
        # request's headers and body apart, and Nagle's algorithm would hold the body
        # for the server's delayed ACK (40 ms a request).
        transport = httpx.HTTPTransport(
            socket_options=[(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)]
        )
        with httpx.Client(timeout=60, transport=transport) as http:
            times, bodies = [], []
            for n in range(messages):
                body = f"client {number} message {n}"
                began = time.perf_counter()
                answer = http.post(put_url, headers=headers, content=body)
                times.append(time.perf_counter() - began)
                if answer.status_code != 201:
                    raise RuntimeError(f"put {answer.status_code}: {answer.text}")
                bodies.append(body)
            barrier.wait()
            got, got_times = [], []
            while True:
                began = time.perf_counter()
                answer = http.delete(get_url, headers=headers)
                got_times.append(time.perf_counter() - began)
                if answer.status_code == 204:
                    break
                if answer.status_code != 200:
                    raise RuntimeError(f"get {answer.status_code}: {answer.text}")
                got.append(answer.text)
        with lock:
            figures.puts += times
            figures.put_bodies += bodies
            figures.gets += got_times
            figures.got_bodies += got

    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    figures.wall = time.perf_counter() - began
    return figures


def mqi_load(clients: int, messages: int) -> Figures:
    """The same puts and gets through the world's async MQI, ``clients`` trio tasks,
    on the wall clock in one process."""
    top = qsg.Topology()
    top.add_qsg("QSG1", members=["QM1", "QM2"])
    top.mqsc(
        "QM1",
        "DEFINE CFSTRUCT(APP1)\n"
        f"DEFINE QLOCAL({QUEUE}) QSGDISP(SHARED) CFSTRUCT(APP1) MAXDEPTH(999999)",
    )
    figures = Figures()

    async def main() -> None:
        async with qsg.start(top, in_process=True) as world:
            done = trio.Event()
            waiting = [clients]

            async def client(number: int) -> None:
                put_conn = await world.connect("QM1")
                get_conn = await world.connect("QM2")
                for n in range(messages):
                    body = f"client {number} message {n}"
                    md = MD(Format=CMQC.MQFMT_STRING)
                    began = time.perf_counter()
                    await put_conn.put1(
                        QUEUE, body.encode(), md, PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)
                    )
                    figures.puts.append(time.perf_counter() - began)
                    figures.put_bodies.append(body)
                waiting[0] -= 1
                if not waiting[0]:
                    done.set()
                await done.wait()
                queue = await get_conn.open(QUEUE, CMQC.MQOO_INPUT_SHARED)
                while True:
                    began = time.perf_counter()
                    try:
                        data = await queue.get(None, MD(), GMO(Options=CMQC.MQGMO_NO_SYNCPOINT))
                    except MQMIError as error:
                        figures.gets.append(time.perf_counter() - began)
                        if error.reason == CMQC.MQRC_NO_MSG_AVAILABLE:
                            break
                        raise
                    figures.gets.append(time.perf_counter() - began)
                    figures.got_bodies.append(data.decode())

            began = time.perf_counter()
            async with trio.open_nursery() as nursery:
                for number in range(clients):
                    nursery.start_soon(client, number)
            figures.wall = time.perf_counter() - began

    qsg.run(main, wall_clock=True)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--messages", type=int, default=250)
    args = parser.parse_args()
    print(f"{args.clients} clients x {args.messages} messages, put through QM1, got through QM2")
    with tempfile.TemporaryDirectory() as where:
        scenario = Path(where) / "load.toml"
        scenario.write_text(SCENARIO)
        with serving(scenario) as url:
            rest = rest_load(url, args.clients, args.messages)
    print(rest.line("REST"))
    mqi = mqi_load(args.clients, args.messages)
    print(mqi.line("async MQI"))
    print(f"REST / MQI requests per second: {rest.rate() / mqi.rate():.3f}")


if __name__ == "__main__":
    main()
